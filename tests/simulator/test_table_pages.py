"""The table's pages (issue #16, section 4) with Django's test client: the setup form for every
game, a decision posted from the table's forms (htmx and plain), a stale form refused, and a
finished game's replay, "play again" and "simulate this matchup 1,000 times"."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from simulator.models import SimulationRun, TableGame
from simulator.table.services import Seen
from simulator.table.views import choices
from tests.simulator.table_play import GAMES

pytestmark = pytest.mark.django_db


def sit_down(web, game: str = "drifter", **extra) -> TableGame:
    data = {"game": game, "bot_1": "heuristic", **extra}
    if game == "drifter":
        data |= {"deck_0": "starter:HSD-S1", "deck_1": "starter:HSD-S2"}
    response = web.post("/play/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    return TableGame.objects.latest("pk")


def forms_of(html: str) -> list[dict[str, str]]:
    """The table's decision forms: their move, action and button label."""
    found = re.findall(
        r'name="move" value="(\d+)">\s*<input type="hidden" name="action" value="([^"]*)">'
        r".*?<button type=\"submit\"[^>]*>([^<]*)</button>",
        html,
        re.S,
    )
    return [
        {"move": m, "action": a.replace("&quot;", '"'), "label": label} for m, a, label in found
    ]


@pytest.mark.parametrize("game", GAMES)
def test_every_game_can_be_set_up_and_sat_down_at(web, catalogue, game):
    page = web.get(f"/play/?game={game}")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'name="bot_1"' in html
    assert ('name="deck_0"' in html) == (game == "drifter")
    row = sit_down(web, game)
    assert row.seats[0]["bot"] is None and row.seats[1]["bot"] == "heuristic"
    table = web.get(f"/play/{row.pk}/")
    assert table.status_code == 200
    assert forms_of(table.content.decode()), "no decision to take"


def test_the_setup_offers_variants_by_their_names_and_the_search_bots_budget(web, catalogue):
    html = web.get("/play/").content.decode()
    assert "High-Low" in html and "Cold Hands" in html and "high_low" not in html.split("value=")[0]
    # One budget field a seat (two of one name would send the other bot's empty one too).
    assert html.count('name="budget_1"') == 1 and "rollouts, up to 400" in html
    assert "Quick-start" in html
    row = sit_down(web, bot_1="search", budget_1="8", variants="whirlwind")
    assert row.seats[1]["budget"] == 8
    assert row.variants == ["whirlwind"]


def test_a_bad_setup_is_a_400_saying_why_and_starts_nothing(web, catalogue):
    response = web.post(
        "/play/", {"game": "drifter", "deck_0": "starter:HSD-S1", "bot_1": "search",
                   "deck_1": "starter:HSD-S2", "budget_1": "5000"},
    )  # fmt: skip
    assert response.status_code == 400
    assert "1 to 400" in response.content.decode()
    assert TableGame.objects.count() == 0


def test_a_decision_from_the_form_is_applied_and_htmx_gets_the_table_back(web, catalogue):
    row = sit_down(web, "quickdraw")
    form = forms_of(web.get(f"/play/{row.pk}/").content.decode())[0]
    response = web.post(f"/play/{row.pk}/act/", form, headers={"HX-Request": "true"})
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="play"' in html and "<html" not in html
    row.refresh_from_db()
    assert row.move > int(form["move"])
    assert 'id="bot-moves"' in html
    assert html.count("autofocus") == 1  # the keyboard goes on from the next decision


def test_a_stale_form_is_refused_and_changes_nothing(web, catalogue):
    row = sit_down(web, "quickdraw")
    form = forms_of(web.get(f"/play/{row.pk}/").content.decode())[0]
    assert web.post(f"/play/{row.pk}/act/", form).status_code == 302
    row.refresh_from_db()
    move = row.move
    again = web.post(f"/play/{row.pk}/act/", form)
    assert again.status_code == 409
    assert "Refused" in again.content.decode()
    row.refresh_from_db()
    assert row.move == move


def test_an_action_that_is_not_legal_is_refused_with_the_engines_reason(web, catalogue):
    row = sit_down(web, "quickdraw")
    response = web.post(
        f"/play/{row.pk}/act/",
        {"move": row.move, "action": json.dumps({"kind": "fire", "card": 999})},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200  # htmx swaps only a 2xx: the refusal is in the table
    assert 'id="play-error"' in response.content.decode()
    assert TableGame.objects.get(pk=row.pk).move == row.move


def test_bets_share_one_form_with_an_amount_within_the_legal_range():
    seen = Seen(
        game=TableGame(),
        seat=0,
        viewer=0,
        view={},
        legal_actions=[
            {"action": {"kind": "fold"}, "label": "Fold"},
            {"action": {"kind": "bet", "amount": 5}, "label": "Bet $5"},
            {"action": {"kind": "bet", "amount": 10}, "label": "Bet $10"},
            {"action": {"kind": "bet", "amount": 20}, "label": "Bet $20"},
            {"action": {"kind": "raise", "amount": 5}, "label": "Raise $5"},
        ],
        log=[],
        result=None,
    )
    fold, bet, raise_ = choices(seen)
    assert fold == {"label": "Fold", "action": '{"kind": "fold"}'}
    assert (bet["label"], bet["min"], bet["max"], bet["step"]) == ("Bet", 5, 20, 5)
    assert json.loads(bet["action"]) == {"kind": "bet"}
    assert raise_ == {"label": "Raise $5", "action": '{"kind": "raise", "amount": 5}'}


def finish(web, row: TableGame) -> TableGame:
    while not row.is_over:
        form = forms_of(web.get(f"/play/{row.pk}/").content.decode())[0]
        web.post(f"/play/{row.pk}/act/", form)
        row.refresh_from_db()
    return row


def test_a_finished_game_offers_its_replay_play_again_and_a_simulation(web, catalogue):
    row = sit_down(web, "quickdraw")
    assert web.get(f"/play/{row.pk}/replay/").status_code == 404  # no peeking
    row = finish(web, row)
    html = web.get(f"/play/{row.pk}/").content.decode()
    for marker in ('id="replay-link"', 'id="play-again"', 'id="simulate"'):
        assert marker in html
    assert web.get(f"/play/{row.pk}/replay/").status_code == 200
    again = web.post(f"/play/{row.pk}/again/")
    new = TableGame.objects.latest("pk")
    assert new.pk != row.pk and again["Location"] == f"/play/{new.pk}/"
    assert [s["bot"] for s in new.seats] == [s["bot"] for s in row.seats]
    simulate = web.post(f"/play/{row.pk}/simulate/")
    run = SimulationRun.objects.get()
    assert simulate["Location"] == f"/simulations/{run.pk}/"
    assert (run.game, run.games) == ("quickdraw", 1000)


def test_a_drifter_matchup_is_simulated_with_its_decks(web, catalogue):
    row = sit_down(web)
    web.post(f"/play/{row.pk}/simulate/")
    run = SimulationRun.objects.get()
    assert [p["source"] for p in run.plan["players"]] == ["starter:HSD-S1", "starter:HSD-S2"]


def test_unfinished_games_are_listed_to_resume(web, catalogue):
    row = sit_down(web, "duel")
    html = web.get("/play/").content.decode()
    assert f'href="/play/{row.pk}/"' in html.split('id="resume"')[1].split("</section>")[0]


def test_another_users_game_is_a_404_on_every_page(web, catalogue, other_user):
    row = sit_down(web, "quickdraw")
    other = Client()
    other.force_login(other_user)
    for url in ("", "replay/"):
        assert other.get(f"/play/{row.pk}/{url}").status_code == 404
    for url in ("act/", "again/", "simulate/"):
        assert other.post(f"/play/{row.pk}/{url}", {"move": 0, "action": "{}"}).status_code == 404
    assert TableGame.objects.count() == 1 and SimulationRun.objects.count() == 0


def test_who_goes_first_is_chosen_by_the_seat_shown_where_the_rules_allow_it(web, catalogue):
    html = web.get("/play/").content.decode()
    assert 'name="first_player"' in html and "Drawn at random" in html
    # Rows 1 and 3 seated, row 2 left empty: "Seat 4" (row 3) is the table's third seat.
    row = sit_down(web, bot_3="random", deck_3="starter:HSD-S1", first_player="3")
    assert [s["bot"] for s in row.seats] == [None, "heuristic", "random"]
    assert row.rules["first_player"] == 2
    row = sit_down(web, first_player="")
    assert row.rules.get("first_player") is None  # drawn: a recorded chance outcome
    # Games that settle it by their own rule do not offer it.
    assert 'name="first_player"' not in web.get("/play/?game=gunfighter").content.decode()


@pytest.mark.parametrize("chosen", ["2", "x", "9"])
def test_a_first_player_not_at_the_table_is_a_400_and_starts_nothing(web, catalogue, chosen):
    response = web.post(
        "/play/", {"game": "drifter", "deck_0": "starter:HSD-S1", "bot_1": "heuristic",
                   "deck_1": "starter:HSD-S2", "first_player": chosen},
    )  # fmt: skip
    assert response.status_code == 400
    assert "Who goes first is one of the seats at the table." in response.content.decode()
    assert TableGame.objects.count() == 0


def test_the_bots_opening_moves_show_on_the_first_look_at_the_table_only(web, catalogue):
    """Seat 2 goes first: its opening moves, made while the game was set up, are listed under
    "The bots' moves" the first time the table is shown, as after any decision; not again."""
    row = sit_down(web, first_player="1")
    first = web.get(f"/play/{row.pk}/").content.decode()
    assert 'id="bot-moves"' in first and first.count('<li style="--i:') >= 1
    again = web.get(f"/play/{row.pk}/").content.decode()
    assert 'id="bot-moves"' not in again
    # You going first: no bot has moved, nothing to show.
    mine = sit_down(web, first_player="0")
    assert 'id="bot-moves"' not in web.get(f"/play/{mine.pk}/").content.decode()
