"""A Python client generated from the committed schema (docs/openapi.yaml) by
openapi-python-client, as a client developer makes one, imports whole and makes a plain journey
through the API with nothing hand-written: a token from a username and password, a card search,
a deck, a validated list, the deck's statistics, a collection with cards in it, a simulation run
played by a real worker and polled to done, its typed results, and an error as the typed error
model; and a whole game at the table, played against a bot with the typed models alone. Every
answer the schema does not document raises (`raise_on_unexpected_status`)."""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from tests.factories import UserFactory
from tests.workers import start_worker, stop_at_once, wait_for

SCHEMA = Path(__file__).resolve().parent.parent / "docs" / "openapi.yaml"
PASSWORD = "saddle-up-partner-1"  # UserFactory's


@pytest.fixture(scope="module")
def drifter_client(tmp_path_factory):
    """The package generated from docs/openapi.yaml, imported as `drifter_client`."""
    root = tmp_path_factory.mktemp("generated")
    config = root / "openapi-python-client.yaml"
    # No post hooks: the generator would run ruff over its output (and say so when it can't).
    config.write_text("package_name_override: drifter_client\npost_hooks: []\n")
    generator = Path(sys.executable).with_name("openapi-python-client")
    result = subprocess.run(
        [generator, "generate", "--path", SCHEMA, "--meta", "none", "--config", config,
         "--output-path", root / "drifter_client"],
        capture_output=True, text=True,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Warning" not in result.stdout + result.stderr, result.stdout + result.stderr
    sys.path.insert(0, str(root))
    try:
        yield importlib.import_module("drifter_client")
    finally:
        sys.path.remove(str(root))
        for name in [n for n in sys.modules if n.split(".")[0] == "drifter_client"]:
            del sys.modules[name]


def test_every_generated_module_imports(drifter_client):
    infos = list(pkgutil.walk_packages(drifter_client.__path__, "drifter_client."))
    modules = {info.name: importlib.import_module(info.name) for info in infos}
    operations = [
        name for name, module in modules.items() if name.count(".") == 3 and "api" in name
    ]
    assert len(operations) > 70
    assert all(hasattr(modules[name], "sync") for name in operations)
    areas = {name.split(".")[2] for name in operations}
    expected = {"cards", "decks", "collections", "simulations", "games", "table", "tokens"}
    assert areas == expected | {"bots"}


@pytest.fixture
def queue(settings):
    """A simulation queue of this test's own, which only its worker reads."""
    name = f"client-test-{uuid.uuid4().hex[:8]}"
    settings.SIMULATION_QUEUE = name
    return name


@pytest.fixture
def worker(queue):
    proc = start_worker(queues=queue)
    yield proc
    stop_at_once(proc)


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_journey_through_the_api_with_only_the_generated_client(
    drifter_client, live_server, catalogue, worker
):
    from drifter_client import AuthenticatedClient, Client
    from drifter_client.api.cards import get_set, list_cards, list_kicker_chips
    from drifter_client.api.collections import (
        add_collection_entry,
        adjust_collection,
        create_collection,
        get_collection,
    )
    from drifter_client.api.decks import create_deck, get_deck, get_deck_stats, validate_deck_list
    from drifter_client.api.simulations import (
        get_simulation,
        get_simulation_results,
        start_simulation,
    )
    from drifter_client.api.tokens import create_token
    from drifter_client.models import (
        AdjustCardRequest,
        CollectionEntryRequest,
        CollectionRequest,
        DeckWriteRequest,
        EntryRequest,
        ErrorList,
        ListKickerChipsColor,
        PlayerInputRequest,
        RunCreateRequest,
        RunStatusEnum,
        TokenCredentialsRequest,
        ValidateRequest,
    )

    user = UserFactory()
    anonymous = Client(base_url=live_server.url, raise_on_unexpected_status=True)

    # A token from a username and a password, and a client that sends it.
    token = create_token.sync(
        client=anonymous,
        body=TokenCredentialsRequest(username=user.username, password=PASSWORD),
    )
    me = AuthenticatedClient(
        base_url=live_server.url, token=token.token, prefix="Token", raise_on_unexpected_status=True
    )

    # Search the catalogue (anonymously: a public read takes a plain client).
    dudes = list_cards.sync(client=anonymous, q="t:dude skill>=8", limit=5)
    assert dudes.count > 0 and all(card.skill >= 8 for card in dudes.results)
    starter = get_set.sync(client=anonymous, code="HSD").starters[0]
    cards = [EntryRequest(code=line.code, qty=line.qty) for line in starter.cards]
    # A constructed deck's kicker chips are worth exactly $50: two green ones.
    greens = list_kicker_chips.sync(client=anonymous, color=ListKickerChipsColor.GREEN, limit=2)
    chips = [EntryRequest(code=chip.code, qty=1) for chip in greens.results]

    # A deck, the same list checked without saving it, and the deck's statistics.
    deck = create_deck.sync(
        client=me,
        body=DeckWriteRequest(name="Boomtown", format_="standard", cards=cards, kicker_chips=chips),
    )
    assert deck.legal and get_deck.sync(client=me, id=deck.id).name == "Boomtown"
    legality = validate_deck_list.sync(
        client=anonymous, body=ValidateRequest(format_="standard", cards=cards, kicker_chips=chips)
    )
    assert legality.legal and legality.errors == []
    stats = get_deck_stats.sync(client=me, id=deck.id)
    assert stats.cards == sum(line.qty for line in cards)
    assert stats.dude_stats.skill.mean > 0 and 0 < stats.opening_hand.dude <= 1

    # A collection with cards in it: an entry, and one more copy by a click.
    binder = create_collection.sync(client=me, body=CollectionRequest(name="Binder"))
    first = starter.cards[0].code
    add_collection_entry.sync(
        client=me, collection_pk=binder.id, body=CollectionEntryRequest(card=first, quantity=2)
    )
    adjusted = adjust_collection.sync(
        client=me, id=binder.id, body=AdjustCardRequest(card=first, delta=1)
    )
    assert adjusted.owned == 3
    assert get_collection.sync(client=me, id=binder.id).card_count == 3

    # A simulation run, played by a worker, polled until it is done; its typed results.
    run = start_simulation.sync(
        client=me,
        body=RunCreateRequest(
            format_="standard",
            games=4,
            seed=7,
            players=[
                PlayerInputRequest(deck=deck.id, bot="random"),
                PlayerInputRequest(starter="HSD-S2", bot="random"),
            ],
        ),
    )
    assert run.status == RunStatusEnum.QUEUED

    def done() -> bool:
        return get_simulation.sync(client=me, id=run.id).status == RunStatusEnum.DONE

    wait_for(done, timeout=120, every=0.25)
    results = get_simulation_results.sync(client=me, id=run.id)
    assert results.games_done == results.games == 4
    mine = results.players[0]
    assert mine.label == "Boomtown" and mine.games == 4
    assert 0 <= mine.win_rate.low <= mine.win_rate.high <= 1
    assert mine.win_rate.n == 4

    # An error comes back as the typed error model, naming what was wrong.
    refused = create_deck.sync(
        client=me, body=DeckWriteRequest(name="Posse", cards=[EntryRequest(code="HSD-999", qty=1)])
    )
    assert isinstance(refused, ErrorList)
    assert refused.errors[0].code and refused.errors[0].attr.startswith("cards")
    missing = get_deck.sync(client=me, id=deck.id + 1000)
    assert isinstance(missing, ErrorList) and missing.errors[0].code == "not_found"


@pytest.mark.django_db(transaction=True)
def test_a_whole_game_at_the_table_with_only_the_generated_client(
    drifter_client, live_server, catalogue
):
    from drifter_client import AuthenticatedClient
    from drifter_client.api.table import (
        act_in_table_game,
        get_table_game,
        get_table_game_record,
        list_table_games,
        start_table_game,
    )
    from drifter_client.models import (
        ActionInputRequest,
        ActionInputRequestAction,
        ErrorList,
        GameCreateRequest,
        SeatInputRequest,
        TableGameStatusEnum,
    )
    from rest_framework.authtoken.models import Token

    user = UserFactory()
    me = AuthenticatedClient(
        base_url=live_server.url,
        token=Token.objects.create(user=user).key,
        prefix="Token",
        raise_on_unexpected_status=True,
    )
    game = start_table_game.sync(
        client=me,
        body=GameCreateRequest(
            game="quickdraw", seats=[SeatInputRequest(), SeatInputRequest(bot="heuristic")]
        ),
    )
    assert game.status == TableGameStatusEnum.YOUR_TURN and game.seats[0].yours
    early = get_table_game_record.sync(client=me, id=game.id)
    assert isinstance(early, ErrorList) and early.errors[0].code == "game_on"

    def act(move: int, action: dict):
        body = ActionInputRequest(move=move, action=ActionInputRequestAction.from_dict(action))
        return act_in_table_game.sync(client=me, id=game.id, body=body)

    refused = act(game.move, {"kind": "no_such_thing"})
    assert isinstance(refused, ErrorList) and refused.errors[0].code == "illegal_action"
    while game.status != TableGameStatusEnum.OVER:
        moved = act(game.move, game.legal_actions[0].action.to_dict())
        stale = act(game.move, game.legal_actions[0].action.to_dict())
        over = moved.status == TableGameStatusEnum.OVER
        assert isinstance(stale, ErrorList)
        assert stale.errors[0].code == ("game_over" if over else "stale_move")
        game = moved
    assert get_table_game.sync(client=me, id=game.id).move == game.move
    record = get_table_game_record.sync(client=me, id=game.id)
    assert record.record.to_dict()["final"] == game.result.to_dict()
    assert list_table_games.sync(client=me).results[0].id == game.id


@pytest.mark.django_db(transaction=True)
def test_two_people_share_a_table_with_only_the_generated_client(
    drifter_client, live_server, catalogue
):
    """Issue #26 through the typed client: ann opens a duel with a seat kept for bob, bob joins,
    ann starts, each plays their own seat from their own program to the end, they talk."""
    from drifter_client import AuthenticatedClient
    from drifter_client.api.table import (
        act_in_table_game,
        get_table_game,
        join_table,
        list_table_talk,
        say_at_table,
        start_table,
        start_table_game,
    )
    from drifter_client.models import (
        ActionInputRequest,
        ActionInputRequestAction,
        ErrorList,
        GameCreateRequest,
        JoinRequest,
        SeatInputRequest,
        StartRequest,
        TableGameStatusEnum,
        TalkInputRequest,
    )
    from rest_framework.authtoken.models import Token

    def client_of(user):
        return AuthenticatedClient(
            base_url=live_server.url,
            token=Token.objects.create(user=user).key,
            prefix="Token",
            raise_on_unexpected_status=True,
        )

    ann, bob = UserFactory(), UserFactory()
    clients = [client_of(ann), client_of(bob)]
    opened = start_table_game.sync(
        client=clients[0],
        body=GameCreateRequest(
            game="duel", seats=[SeatInputRequest(), SeatInputRequest(player=bob.username)]
        ),
    )
    assert opened.status == TableGameStatusEnum.WAITING
    early = start_table.sync(client=clients[0], id=opened.id, body=StartRequest())
    assert isinstance(early, ErrorList) and early.errors[0].code == "seats_free"
    joined = join_table.sync(client=clients[1], id=opened.id, body=JoinRequest())
    assert joined.seats[1].yours and joined.seats[1].state.value == "seated"
    game = start_table.sync(client=clients[0], id=opened.id, body=StartRequest())
    said = say_at_table.sync(client=clients[1], id=opened.id, body=TalkInputRequest(text="Draw!"))
    assert said.text == "Draw!"
    for _ in range(500):
        game = get_table_game.sync(client=clients[0], id=opened.id)
        if game.status == TableGameStatusEnum.OVER:
            break
        me = clients[game.to_act]
        mine = get_table_game.sync(client=me, id=opened.id)
        assert mine.status == TableGameStatusEnum.YOUR_TURN
        action = ActionInputRequestAction.from_dict(mine.legal_actions[0].action.to_dict())
        moved = act_in_table_game.sync(
            client=me, id=opened.id, body=ActionInputRequest(move=mine.move, action=action)
        )
        assert not isinstance(moved, ErrorList), moved
    assert game.status == TableGameStatusEnum.OVER
    lines = list_table_talk.sync(client=clients[0], id=opened.id)
    assert "Draw!" in [line.text for line in lines]
