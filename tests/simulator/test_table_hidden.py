"""Hidden information at the table (issue #16, section 3): whole games of every game are
played through the API, and after the end every answer is compared with the record.

The engine's `view(seat)` is what a seat may know (the bots play on it). So, for every answer:

- **Determinization.** The state at that move is rebuilt from the record, then everything its
  seat cannot see is dealt again (other seats' hands and concealed cards, every deck's order,
  the chance still to come), checked to leave the engine's view unchanged. The served view
  and the labels of the legal actions must be the same for that other deal: they cannot
  depend on anything hidden. A view that showed an opponent's hand, a face-down card, the deck
  order or the next draw would differ.
- **Card names.** (High Stakes Drifter, whose cards have codes.) Every card code in an answer
  before the end is one the seat's engine view has held by then, or in its own deck list, and
  the narration names no card it has not (the determinization does not reach the narration,
  which tells the past). Once over, the result names every card played and the record is
  served.
- **The seed** is in no answer, and the record is a 409 until the end.

`test_the_check_catches_*` prove the check fails for a view that leaks the opponent's hand.
"""

from __future__ import annotations

import copy
import json
import random
import re
from typing import Any

import pytest

from simulator.engine.core import GameRecord, RecordedChance
from simulator.games import service_for
from simulator.games.base import _jsonable
from simulator.table.services import SPECTATOR
from tests.simulator.table_play import GAMES, SEED, play_through

pytestmark = pytest.mark.django_db
CODE = re.compile(r"HSD-K?\d+")


def prefix(record: dict[str, Any], move: int) -> dict[str, Any]:
    """The record as it stood at `move`: every event before the decision after it."""
    if move == sum(1 for event in record["events"] if event[0] == "act"):
        return record
    events, acts = [], 0
    for event in record["events"]:
        if event[0] == "act":
            if acts == move:
                break
            acts += 1
        events.append(event)
    rec = GameRecord.from_json(record)
    return GameRecord(rec.game, rec.rules, rec.seats, rec.seed, events, None, rec.version).to_json()


def state_at(game: str, record: dict[str, Any], move: int) -> Any:
    service = service_for(game)
    return service.rebuild(prefix(record, move), service.catalogue())


def states_along(game: str, record: dict[str, Any]) -> list[Any]:
    """`state_at(game, record, move)` for every move, from one replay rather than one per move:
    the game's replay hands over its state before each decision (`before_each`), copied then,
    the final state last. A few moves are rebuilt from their prefix too, and must hold the same.
    (Not High Stakes Drifter: its state, compiled, does not deep-copy.)"""
    states: list[Any] = []

    def copy_state(state: Any) -> None:
        # Shared, not copied: the record's events, which no move changes.
        events = state.chance.events
        states.append(copy.deepcopy(state, {id(events): events}))

    states.append(service_for(game).spec.replay(record, story=[], before_each=copy_state))
    acts = sum(1 for event in record["events"] if event[0] == "act")
    assert len(states) == acts + 1, f"{game}: the replay was not seen ({len(states)} states)"
    for move in sorted({0, acts // 2, max(acts - 1, 0)}):
        assert _fields(states[move]) == _fields(state_at(game, record, move)), (
            f"{game}, move {move}: the state copied from one replay is not its prefix's"
        )
    return states


def _fields(state: Any) -> Any:
    """Every field of a small game's state, and of the objects it holds, but its chance (a
    replay's, at the record's end or at its prefix's: what is still to come is dealt again)."""
    if isinstance(state, dict):
        return {k: _fields(v) for k, v in state.items() if k != "chance"}
    if isinstance(state, list | tuple | set | frozenset):
        items = [_fields(v) for v in state]
        return sorted(items, key=repr) if isinstance(state, set | frozenset) else items
    slots = [n for c in type(state).__mro__ for n in getattr(c, "__slots__", ())]
    if (hasattr(state, "__dict__") or slots) and not isinstance(state, type):
        fields = {n: getattr(state, n) for n in slots if hasattr(state, n)}
        return (type(state).__name__, _fields({**fields, **getattr(state, "__dict__", {})}))
    return state


# --- dealing again what a seat cannot see ---------------------------------------------------


def _slots(*lists: list) -> list[tuple[list, int]]:
    return [(cards, i) for cards in lists for i in range(len(cards))]


def _deal(slots: list[tuple[list, int]], rng: random.Random, extra: list[int] = ()) -> None:
    """Deal the cards in `slots` (and the unplaced `extra` ones) into the slots again."""
    cards = [c[i] for c, i in slots] + list(extra)
    rng.shuffle(cards)
    for (c, i), card in zip(slots, cards, strict=False):
        c[i] = card


def _keep_selected(state: Any, q: int, old_hand: list[int]) -> None:
    """A chosen card that stays in its hand follows its place in the hand."""
    if state.selected[q] in old_hand:
        state.selected[q] = state.hands[q][old_hand.index(state.selected[q])]


def deal_again(game: str, state: Any, seat: int, rng: random.Random) -> Any:
    """A copy of `state` with everything `seat` cannot see dealt again."""
    if game == "drifter":
        from simulator.engine.drifter.bots import determinize

        return determinize(state.view(seat), rng)
    # Not its chance, which the copy's is instead (a replay's holds every event of the record).
    alt = copy.deepcopy(state, {id(state.chance): None})
    alt.chance = RecordedChance(rng.randrange(1 << 30), None)
    others = [q for q in range(len(alt.hands)) if q != seat]
    if game == "gunfighter":
        from simulator.engine.gunfighter.cards import STAREDOWN

        q = others[0]
        slots = _slots(alt.hands[q], alt.pending_discards[q], alt.deck)
        slots = [(c, i) for c, i in slots if c[i] != STAREDOWN]
        if alt.selected[q] >= 0 and not alt.revealed and alt.selected[q] != STAREDOWN:
            slots.append((alt.selected, q))
        _deal(slots, rng)
    elif game == "quickdraw":
        q = others[0]
        old = list(alt.hands[q])
        _deal(_slots(alt.hands[q], alt.deck), rng)
        _keep_selected(alt, q, old)
    elif game == "duel":
        q = others[0]
        hidden = [c for c in alt.hands[q] if c not in alt.shown[q]]
        placed = set(alt.hands[q]) | set(alt.discards[q]) | set(alt.played[q])
        from simulator.engine.duel.cards import CARDS

        unplaced = [c for c in range(len(CARDS)) if c not in placed]
        old = list(alt.hands[q])
        slots = [(alt.hands[q], i) for i, c in enumerate(alt.hands[q]) if c in hidden]
        _deal(slots + _slots(alt.discards[q]), rng, unplaced)
        _keep_selected(alt, q, old)
    elif game == "tabletown":
        _deal(_slots(*[alt.hands[q] for q in others], alt.deck), rng)
    else:  # pragma: no cover - a new game needs its own dealing here
        raise AssertionError(f"no way to deal {game} again")
    return alt


# --- the check -------------------------------------------------------------------------------


def _served(service: Any, state: Any, seat: int, acting: bool = True) -> tuple[Any, list[str]]:
    """The view `seat` (SPECTATOR: nobody's) is served and its buttons' labels (none unless
    the answer's viewer is to act)."""
    view = json.loads(json.dumps(service.table_view(state, seat)))
    labels = (
        [service.action_label(state, a) for a in state.legal_actions()]
        if acting and not state.is_over
        else []
    )
    return view, labels


class Record:
    """The record of a finished game, and the states and card codes along it (memoized: a
    table's many viewers and pushed messages ask for the same moves)."""

    def __init__(self, game: str, record: dict):
        self.game, self.record = game, record
        self.n = len(record["seats"])
        self._states: list[Any] | None = None
        self._rebuilt: dict[int, Any] = {}
        self._codes: dict[tuple[int, int], set[str]] = {}

    def state(self, move: int) -> Any:
        """`state_at(game, record, move)`, every move's from one replay (`states_along`)."""
        if self.game == "drifter":  # a short game, whose compiled state does not deep-copy
            if move not in self._rebuilt:
                self._rebuilt[move] = state_at(self.game, self.record, move)
            return self._rebuilt[move]
        if self._states is None:
            self._states = states_along(self.game, self.record)
        return self._states[move]

    def codes(self, move: int, seat: int) -> set[str]:
        """The card codes `seat`'s engine view holds at `move` (SPECTATOR: every seat's
        view holds them, i.e. the public ones)."""
        key = (move, seat)
        if key not in self._codes:
            if seat == SPECTATOR:
                self._codes[key] = set.intersection(*(self.codes(move, q) for q in range(self.n)))
            else:
                view = json.dumps(_jsonable(self.state(move).view(seat)))
                self._codes[key] = set(CODE.findall(view))
        return self._codes[key]


def assert_nothing_hidden_served(
    game: str, answers: list[dict], record: dict, deals: int = 2, book: Record | None = None
):
    """Every answer against the record (the module's docstring says how). An answer is the
    API's game (or a pushed message's `game`), its `viewer` a seat or None for a spectator, whose
    answers are held to what no seat's deal can change. `book`: the `Record(game, record)` the
    checks of a table's several viewers share (its states replayed once)."""
    service = service_for(game)
    if book is None:
        book = Record(game, record)
    assert (book.game, book.record) == (game, record), "the book is another record's"
    rng = random.Random(7)
    seen: dict[int, tuple[set[str], int]] = {}
    changed = 0
    for answer in answers:
        text = json.dumps(answer)
        assert str(record["seed"]) not in text, "the seed was served"
        if answer["status"] == "waiting":
            assert not answer["view"] and not answer["legal_actions"] and not answer["log"]
            continue
        seat = SPECTATOR if answer["viewer"] is None else answer["viewer"]
        move = answer["move"]
        own = set() if seat == SPECTATOR else set(record["seats"][seat].get("deck", []))
        codes, up_to = seen.get(seat, (own, -1))
        # Every card the seat's engine view held at any move so far (bots' moves included).
        for m in range(up_to + 1, move + 1):
            codes = codes | book.codes(m, seat)
        seen[seat] = (codes, max(up_to, move))
        over = answer["status"] == "over"
        # Once over, the record is served too: the result may name every card played.
        if game == "drifter" and not over:
            leaked = set(CODE.findall(text)) - codes
            assert not leaked, f"move {move}: cards the viewer never saw were served: {leaked}"
            told = " ".join(
                answer["log"] + [line for m in answer["bot_moves"] for line in m["log"]]
            )
            named = {name for name in unseen_names(record, codes) if name in told}
            assert not named, f"move {move}: the narration named cards never seen: {named}"
        if over and seat == SPECTATOR:
            continue  # a spectator sees every card once the game is over, as in a replay
        state = book.state(move)
        acting = answer["seat"] is not None
        view, labels = _served(service, state, seat, acting)
        assert answer["view"] == view
        assert [a["label"] for a in answer["legal_actions"]] == labels
        perspectives = range(book.n) if seat == SPECTATOR else [seat]
        for q in perspectives:
            for _ in range(deals):
                alt = deal_again(game, state, q, rng)
                assert _jsonable(alt.view(q)) == _jsonable(state.view(q)), "a bad deal"
                changed += alt_differs(game, alt, state, q)
                assert _served(service, alt, seat, acting) == (view, labels), (
                    f"move {move}: the answer depends on what viewer {seat} cannot see"
                )
    assert changed, "no deal changed anything hidden: the check checked nothing"


def unseen_names(record: dict, seen_codes: set[str]) -> set[str]:
    """The names of the cards in play that a seat has not seen (High Stakes Drifter), less any
    that are part of a name it has seen or of a seat's name ("Tin Star" in "Tin Star Jones")."""
    by_code = service_for("drifter").catalogue().card_by_code
    codes = {code for seat in record["seats"] for code in seat.get("deck", [])}
    seen = [by_code[c].name for c in seen_codes if c in by_code]
    seen += [seat["name"] for seat in record["seats"]]
    return {
        by_code[c].name
        for c in codes - seen_codes
        if c in by_code and not any(by_code[c].name in name for name in seen)
    }


def alt_differs(game: str, alt: Any, state: Any, seat: int) -> bool:
    """Whether the other deal changed a hidden card (so the comparison meant something)."""
    if game == "drifter":
        others = [q for q in range(state.n) if q != seat]
        return any(
            [c.defn.code for c in alt.hand[q] + alt.deck[q]]
            != [c.defn.code for c in state.hand[q] + state.deck[q]]
            for q in others
        )
    return alt.hands != state.hands or getattr(alt, "deck", None) != getattr(state, "deck", None)


def play_and_fetch(client, game: str) -> tuple[list[dict], dict]:
    # Choose among the legal actions by a seeded draw so the games wander through every phase.
    rng = random.Random(game)
    answers = play_through(client, game, pick=lambda n, a: rng.randrange(len(a["legal_actions"])))
    response = client.get(answers[0]["record_url"])
    assert response.status_code == 200
    return answers, response.json()["record"]


@pytest.mark.parametrize("game", GAMES)
def test_no_answer_of_a_whole_game_carries_what_its_seat_may_not_see(
    user_client, catalogue, seeded, game
):
    answers, record = play_and_fetch(user_client, game)
    assert record["seed"] == SEED
    assert_nothing_hidden_served(game, answers, record)


@pytest.mark.parametrize("game", GAMES)
def test_the_check_catches_a_view_that_shows_the_opponents_hand(
    user_client, catalogue, seeded, game, monkeypatch
):
    service = service_for(game)
    honest = service.table_view

    def leaky(state: Any, seat: int | None) -> dict[str, Any]:
        hands = state.hand if game == "drifter" else state.hands
        other = hands[1 - seat]
        cards = [c.defn.code for c in other] if game == "drifter" else list(other)
        return {**honest(state, seat), "peek": cards}

    monkeypatch.setattr(service, "table_view", leaky)
    answers, record = play_and_fetch(user_client, game)
    with pytest.raises(AssertionError):
        assert_nothing_hidden_served(game, answers, record)


def test_the_check_catches_a_view_that_shows_the_next_card_of_the_deck(
    user_client, catalogue, seeded, monkeypatch
):
    service = service_for("drifter")
    honest = service.table_view

    def leaky(state: Any, seat: int | None) -> dict[str, Any]:
        deck = state.deck[seat]
        return {**honest(state, seat), "next": deck[0].defn.name if deck else None}

    monkeypatch.setattr(service, "table_view", leaky)
    answers, record = play_and_fetch(user_client, "drifter")
    with pytest.raises(AssertionError, match="cannot see"):
        assert_nothing_hidden_served("drifter", answers, record)


def test_the_check_catches_a_narration_that_names_the_opponents_hand(
    user_client, catalogue, seeded, monkeypatch
):
    service = service_for("drifter")
    honest = service.table_log

    def leaky(state: Any, seat: int | None) -> list[str]:
        other = state.hand[1 - seat] if seat is not None else []
        return [*honest(state, seat), "They hold " + ", ".join(c.printed.name for c in other)]

    monkeypatch.setattr(service, "table_log", leaky)
    answers, record = play_and_fetch(user_client, "drifter")
    with pytest.raises(AssertionError, match="narration named"):
        assert_nothing_hidden_served("drifter", answers, record)


def test_a_card_s_number_does_not_name_it(user_client, catalogue, seeded):
    """The engine numbers cards in deck-list order and a starter's list is public: the table
    deals every list in a secret order, so a face-down card's number says nothing."""
    from cards.models import StarterDeck

    _answers, record = play_and_fetch(user_client, "drifter")
    for seat, code in zip(record["seats"], ("HSD-S1", "HSD-S2"), strict=True):
        public = [e["code"] for e in StarterDeck.objects.get(code=code).cards for _ in
                  range(int(e["qty"]))]  # fmt: skip
        assert sorted(seat["deck"]) == sorted(public)
        assert seat["deck"] != public
