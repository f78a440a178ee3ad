"""The simulation pages: the new-run form per game, the run page's polling fragment, the results
(summary first, charts as data for Chart.js, words and numbers for people) and replays."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest

from simulator.models import SimulationRun
from simulator.runs.services import run_execute_locally
from tests.factories import DeckFactory
from tests.simulator.metagame.test_fields_api import legal_deck


@pytest.fixture
def logged_in(client, user):
    client.force_login(user)
    return client


def _start(client, **fields) -> SimulationRun:
    data = {"game": "quickdraw", "kind": "match", "games": "30", "seed": "3",
            "bot_0": "heuristic", "bot_1": "random"} | fields  # fmt: skip
    response = client.post("/simulations/new/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    return SimulationRun.objects.latest("pk")


def _text(html: str) -> str:
    """What a reader sees: the page without its tags, scripts and attribute values."""
    html = re.sub(r"<script\b.*?</script>", " ", html, flags=re.S)
    return unescape(re.sub(r"<[^>]+>", " ", html))


def _drifter_run(client, **fields) -> SimulationRun:
    data = {"game": "drifter", "format": "standard", "games": "8", "deck_0": "starter:HSD-S1",
            "deck_1": "starter:HSD-S2", "bot_0": "heuristic", "bot_1": "random"}  # fmt: skip
    return _start(client, **(data | fields))


def _chart(html: str, chart_id: str) -> dict:
    match = re.search(rf'<script id="{chart_id}-data" type="application/json">(.*?)</script>', html)
    assert match, f"no data for {chart_id}"
    assert f'<canvas data-chart="{chart_id}-data"' in html
    return json.loads(match.group(1))


# --- the new-run form ------------------------------------------------------------------------


def test_the_form_offers_every_registered_game_each_explained(logged_in, catalogue):
    from simulator.engine.core import games

    page = logged_in.get("/simulations/new/").content.decode()
    for spec in games().values():
        assert f'value="{spec.name}"' in page
        assert spec.summary
    assert games()["drifter"].summary in page
    quickdraw = logged_in.get("/simulations/new/?game=quickdraw").content.decode()
    assert games()["quickdraw"].summary in quickdraw


def test_gunfighters_form_has_no_deck_pickers_and_no_drifter_options(logged_in, catalogue):
    page = logged_in.get("/simulations/new/?game=gunfighter").content.decode()
    assert 'id="id_bot_0"' in page
    assert 'id="id_deck_0"' not in page and 'name="format"' not in page
    assert 'name="variants"' not in page and "Cold Hands" not in page
    assert "no deck to choose" in page


def test_without_javascript_the_form_asks_for_the_chosen_games_page_keeping_its_values(
    logged_in, catalogue
):
    page = logged_in.get("/simulations/new/").content.decode()
    assert 'formmethod="get"' in page  # the button inside <noscript>
    page = logged_in.get("/simulations/new/?game=duel&games=77&seed=5&bot_1=random").content
    text = page.decode()
    assert 'value="77"' in text and 'value="5"' in text and 'data-game="duel"' in text
    assert '<option value="random" selected>' in text


def test_drifters_form_names_formats_and_variants_for_people(logged_in, catalogue):
    page = logged_in.get("/simulations/new/?game=drifter").content.decode()
    text = _text(page)
    assert "Cold Hands" in text and "Last Man Standing" in text and "Tres Amigos" in text
    assert "fresh five-card hand" in text  # the line on what Cold Hands does
    assert not re.search(r"\b[a-z]+_[a-z_]+\b", text), re.findall(r"\b[a-z]+_[a-z_]+\b", text)
    assert 'id="id_deck_0"' in page and "Boomtown Law" in text


def test_quickdraw_offers_only_the_bots_it_accepts(logged_in, catalogue):
    quickdraw = logged_in.get("/simulations/new/?game=quickdraw").content.decode()
    drifter = logged_in.get("/simulations/new/?game=drifter").content.decode()
    assert 'value="heuristic"' in quickdraw and 'value="random"' in quickdraw
    assert 'value="search"' not in quickdraw
    assert 'value="search"' in drifter


def test_choosing_a_game_swaps_only_its_options(logged_in, catalogue):
    response = logged_in.get("/simulations/new/?game=gunfighter", HTTP_HX_REQUEST="true")
    fragment = response.content.decode()
    assert response.status_code == 200
    assert fragment.lstrip().startswith('<div id="game-options"')
    assert "<html" not in fragment and 'data-game="gunfighter"' in fragment


def test_errors_are_labelled_as_the_rows_are(logged_in, catalogue):
    # Rows 1 and 4 play (rows 2 and 3 are empty): the second player is row 4, with no deck.
    response = logged_in.post("/simulations/new/", {
        "game": "drifter", "kind": "match", "games": "10", "format": "standard",
        "deck_0": "starter:HSD-S1", "bot_0": "heuristic", "bot_3": "random"})  # fmt: skip
    assert response.status_code == 400
    page = response.content.decode()
    start = page.index('id="run-errors"')
    errors = _text(page[start : page.index("</div>", start)])
    assert "Player 4:" in errors and "Give a deck" in errors
    assert "players." not in _text(page)
    assert 'class="player-row has-problem" id="player-row-3"' in page
    assert not SimulationRun.objects.exists()


def test_a_deck_problem_names_the_rows_deck(logged_in, user, catalogue):
    deck = DeckFactory(owner=user, name="Too Thin")
    response = logged_in.post("/simulations/new/", {
        "game": "drifter", "kind": "match", "games": "10", "format": "standard",
        "deck_0": "starter:HSD-S1", "bot_0": "heuristic", "deck_1": f"deck:{deck.pk}",
        "bot_1": "random"})  # fmt: skip
    assert response.status_code == 400
    text = _text(response.content.decode())
    assert "Player 2's deck:" in text and "players.1" not in text


def test_two_decks_of_one_name_are_told_apart(logged_in, user, catalogue):
    DeckFactory(owner=user, name="Outlaws", version=3)
    DeckFactory(owner=user, name="Outlaws", version=7)
    DeckFactory(owner=user, name="Lawmen")
    page = logged_in.get("/simulations/new/?game=drifter").content.decode()
    labels = re.findall(r'<option value="deck:\d+" >([^<]*)</option>', page)
    outlaws = [label for label in labels if label.startswith("Outlaws")]
    assert len(set(outlaws)) == 2 and all("version" in label for label in outlaws)
    assert "Lawmen" in labels  # a name of its own needs nothing more


def test_a_fixed_component_game_needs_no_deck(logged_in, catalogue):
    run = _start(logged_in, deck_0="starter:HSD-S1")  # ignored for quickdraw
    assert run.game == "quickdraw" and run.total_games == 30
    assert [p["source"] for p in run.plan["players"]] == [None, None]


def test_a_drifter_sample_opens_on_its_table_with_the_result_only_at_the_end(logged_in, catalogue):
    run = _start(logged_in, game="drifter", format="standard", games="6", deck_0="starter:HSD-S1",
                 deck_1="starter:HSD-S2", bot_0="random", bot_1="random")  # fmt: skip
    run_execute_locally(run=run)
    sample = run.samples.first()
    replay = logged_in.get(f"/simulations/{run.pk}/games/{sample.pk}/")
    assert replay.status_code == 200
    text = replay.content.decode()
    assert 'class="felt felt-drifter"' in text and 'id="narration"' in text and "goes first" in text
    assert 'id="table-result"' not in text  # no result before the end
    last = logged_in.get(f"/simulations/{run.pk}/games/{sample.pk}/?step=999").content.decode()
    assert 'id="table-result"' in last and "Stakes:" in last


def test_submitting_the_form_twice_makes_one_run(logged_in, catalogue):
    first = _start(logged_in, idempotency_key="form-1")
    again = _start(logged_in, idempotency_key="form-1")
    assert first.pk == again.pk
    assert SimulationRun.objects.count() == 1


def test_a_rows_budget_goes_with_a_bot_that_takes_one(logged_in, catalogue):
    """#25 §2: the form offers a budget a row; the search bot's reaches the plan, the random
    bot (no budget) ignores the field."""
    form = logged_in.get("/simulations/new/?game=drifter").content.decode()
    assert 'name="budget_0"' in form and 'id="budget-note"' in form
    assert "the search bot tries each choice 24 times by default (rollouts, up to 400)" in form
    run = _start(logged_in, game="drifter", format="standard", games="4", deck_0="starter:HSD-S1",
                 deck_1="starter:HSD-S2", bot_0="search", budget_0="40", bot_1="random",
                 budget_1="9")  # fmt: skip
    players = run.plan["players"]
    assert (players[0]["bot"], players[0]["budget"]) == ("search", 40)
    assert players[1]["bot"] == "random" and "budget" not in players[1]


def test_a_budget_past_the_bots_maximum_is_refused_and_nothing_is_written(logged_in, catalogue):
    form = {"game": "drifter", "format": "standard", "games": "4", "deck_0": "starter:HSD-S1",
            "deck_1": "starter:HSD-S2", "bot_0": "search", "budget_0": "401",
            "bot_1": "random"}  # fmt: skip
    response = logged_in.post("/simulations/new/", form)
    assert response.status_code == 400
    page = response.content.decode()
    assert "run-errors" in page
    assert "The search bot&#x27;s budget is a whole number of rollouts from 1 to 400." in page
    assert "Player 1&#x27;s bot:" in page  # the budget is the bot's, not the deck's
    assert 'value="401"' in page  # the form keeps what was typed
    assert SimulationRun.objects.count() == 0


def test_a_refused_run_shows_the_problems(logged_in, catalogue):
    response = logged_in.post("/simulations/new/", {"game": "quickdraw", "games": "10",
                                                    "bot_0": "heuristic"})  # fmt: skip
    assert response.status_code == 400
    assert b"run-errors" in response.content and b"Players:" in response.content


# --- the run page and its results ------------------------------------------------------------


def test_the_run_page_polls_until_done_then_loads_the_results(logged_in, catalogue):
    run = _start(logged_in)
    page = logged_in.get(f"/simulations/{run.pk}/").content.decode()
    assert 'hx-trigger="every 1s"' in page and 'role="progressbar"' in page
    assert "/static/vendor/chartjs/chart.umd.min.js" in page
    assert "/static/drifter/results.js" in page
    run_execute_locally(run=run)
    fragment = logged_in.get(f"/simulations/{run.pk}/progress/").content.decode()
    assert 'hx-trigger="every 1s"' not in fragment
    assert 'data-status="done"' in fragment and f"/simulations/{run.pk}/results/" in fragment


def test_the_chart_library_is_served_from_the_site(logged_in, catalogue):
    from django.contrib.staticfiles import finders

    assert finders.find("vendor/chartjs/chart.umd.min.js")
    assert finders.find("vendor/chartjs/LICENSE.md")
    page = logged_in.get(f"/simulations/{_start(logged_in).pk}/").content.decode()
    assert not re.search(r'<script[^>]+src="https?://', page)


def test_the_summary_comes_first_with_each_rate_and_its_interval_in_words(logged_in, catalogue):
    run = _start(logged_in, games="200")
    run_execute_locally(run=run)
    html = logged_in.get(f"/simulations/{run.pk}/results/").content.decode()
    assert html.index('id="summary"') < html.index('id="player-table"')
    assert html.index('id="win-chart"') < html.index('id="player-table"')
    text = _text(html)
    rates = re.findall(r"wins (\d+)% of 200 games \(95% sure: (\d+)% to (\d+)%\)", text)
    assert len(rates) == 2
    for rate, low, high in rates:
        assert int(low) <= int(rate) <= int(high)
    chart = _chart(html, "win-chart")
    assert chart["kind"] == "rates" and chart["title"] == "How often each player wins"
    assert chart["labels"] == ["Player 1", "Player 2"]
    [series] = chart["series"]
    for value, (low, high) in zip(series["values"], series["intervals"], strict=True):
        assert 0 <= low <= value <= high <= 100
    assert series["tips"][0].startswith("Win rate: ") and "of 200 games" in series["tips"][0]
    first = _chart(html, "first-chart")
    assert [s["name"] for s in first["series"]] == ["Going first", "Otherwise"]


def test_results_speak_the_games_words_not_the_codes(logged_in, catalogue):
    run = _drifter_run(logged_in, variants="cold_hands")
    run_execute_locally(run=run)
    page = logged_in.get(f"/simulations/{run.pk}/").content.decode()
    results = logged_in.get(f"/simulations/{run.pk}/results/").content.decode()
    for html in (page, results):
        lowered = html.lower()
        assert "chunk" not in lowered and "deck:" not in lowered and "starter:" not in lowered
        text = _text(html)
        assert not re.search(r"\b[a-z]+_[a-z_]+\b", text), re.findall(r"\b[a-z]+_[a-z_]+\b", text)
        assert "(heuristic) (heuristic)" not in text
    assert "Cold Hands" in _text(page) and "starter deck" in _text(page)


def test_a_game_without_stakes_shows_no_stake_and_bots_are_named_once(logged_in, catalogue):
    run = _start(logged_in)
    run_execute_locally(run=run)
    text = _text(logged_in.get(f"/simulations/{run.pk}/results/").content.decode())
    assert "stake" not in text.lower()
    assert "Player 1 Heuristic bot" in " ".join(text.split())
    assert "(heuristic)" not in text


def test_drifter_results_have_stakes_lengths_and_card_impact_charts(logged_in, catalogue):
    run = _drifter_run(logged_in)
    run_execute_locally(run=run)
    html = logged_in.get(f"/simulations/{run.pk}/results/").content.decode()
    turns = _chart(html, "turns-chart")
    assert turns["kind"] == "histogram" and sum(turns["values"]) == 8
    stakes = _chart(html, "stake-chart-1")
    assert stakes["title"] == "Ending stake: Boomtown Law" and stakes["x"] == "Dollars"
    # Eight games are too few to tell which cards help: said in words, no empty chart.
    assert "impact-chart" not in html and "Too few games to tell which cards help" in html


def test_card_impact_shows_the_cards_that_helped_most_and_least_by_name(logged_in, catalogue):
    from cards.models import Card

    run = _drifter_run(logged_in, games="200", bot_1="heuristic")
    run_execute_locally(run=run)
    html = logged_in.get(f"/simulations/{run.pk}/results/").content.decode()
    impact = _chart(html, "impact-chart-1")
    assert impact["kind"] == "impact" and 0 < len(impact["labels"]) <= 24
    assert impact["values"] == sorted(impact["values"], reverse=True)
    names = set(Card.objects.values_list("name", flat=True))
    assert set(impact["labels"]) <= names
    assert "Mean ending stake" in html
    # Dollars written with a true minus sign before the dollar sign, never "$-".
    assert "$-" not in html and "$\u2212" not in html


def test_round_robin_shows_the_matchup_grid(logged_in, catalogue):
    run = _start(logged_in, kind="round_robin", bot_2="random", games="10")
    run_execute_locally(run=run)
    results = logged_in.get(f"/simulations/{run.pk}/results/").content.decode()
    assert results.count('class="heat-cell"') == 6  # every ordered pair of three players
    assert "3. Player 3" in results and "(random)" not in results


def test_two_players_of_one_deck_are_told_apart_by_their_bots(logged_in, catalogue):
    run = _drifter_run(logged_in, kind="round_robin", games="4", deck_2="starter:HSD-S2",
                       bot_2="heuristic")  # fmt: skip
    run_execute_locally(run=run)
    text = _text(logged_in.get(f"/simulations/{run.pk}/results/").content.decode())
    assert "Frontier Patrol (random bot)" in text and "Frontier Patrol (heuristic bot)" in text


def test_a_replay_opens_from_the_results(logged_in, catalogue):
    run = _drifter_run(logged_in)
    run_execute_locally(run=run)
    results = logged_in.get(f"/simulations/{run.pk}/results/").content.decode()
    sample = run.samples.first()
    assert f"/simulations/{run.pk}/games/{sample.pk}/" in results
    assert "Boomtown Law vs Frontier Patrol" in results
    assert logged_in.get(f"/simulations/{run.pk}/games/{sample.pk}/").status_code == 200


def test_someone_elses_run_page_is_404(logged_in, other_user, client, catalogue):
    run = _start(logged_in)
    client.force_login(other_user)
    assert client.get(f"/simulations/{run.pk}/").status_code == 404
    assert client.get(f"/simulations/{run.pk}/results/").status_code == 404


# --- numbers for people ----------------------------------------------------------------------


def test_numbers_are_written_for_people():
    from simulator.common.numbers import money_text, points_text, rate_text

    assert money_text(-10.04) == "\u2212$10.0" and money_text(3) == "$3.0"
    assert rate_text({"rate": 0.781, "low": 0.72, "high": 0.834}) == "78% (72% to 83%)"
    assert rate_text({"rate": None, "low": None, "high": None}) == "—"
    assert points_text(-0.031) == "\u22123 points" and points_text(0.01) == "+1 point"
    from simulator.templatetags.simulation_format import money_interval

    interval = {"mean": -10.0, "low": -18.14, "high": -1.9}
    assert money_interval(interval) == "\u2212$10.0 (\u2212$18.1 to \u2212$1.9)"


def test_the_run_list_names_games_and_statuses_for_people(logged_in, catalogue):
    run = _start(logged_in)
    page = logged_in.get("/simulations/").content.decode()
    assert "Quickdraw" in page and "Queued" in page and f"/simulations/{run.pk}/" in page
    assert ">quickdraw<" not in page and ">queued<" not in page


def test_a_what_if_says_the_change_in_card_names_and_the_difference_in_points(
    logged_in, user, catalogue
):
    from cards.models import Card, StarterDeck
    from simulator.runs.services import run_create

    ours = [e["code"] for e in StarterDeck.objects.get(code="HSD-S1").cards]
    theirs = [e["code"] for e in StarterDeck.objects.get(code="HSD-S2").cards]
    added = next(code for code in theirs if code not in ours)
    run, _ = run_create(
        owner=user, game="drifter", kind="what_if", games=40, seed=2, dispatch=False,
        players=[{"starter": "HSD-S1"}, {"starter": "HSD-S1", "add": {added: 1},
                 "remove": {ours[0]: 1}}, {"starter": "HSD-S2"}],
    )  # fmt: skip
    run_execute_locally(run=run)
    text = " ".join(
        _text(logged_in.get(f"/simulations/{run.pk}/results/").content.decode()).split()
    )
    names = dict(Card.objects.filter(code__in=[added, ours[0]]).values_list("code", "name"))
    assert f"with the change (+1 {names[added]}, \u22121 {names[ours[0]]})" in text
    assert re.search(r"The change moves the result by [+\u2212]?\d+ points?", text)


def test_the_verdict_says_who_is_clearly_ahead_or_too_close_to_call():
    from simulator.runs.pages import _verdict

    def player(name, low, high):
        return {"name": name, "rate": {"rate": (low + high) / 2, "low": low, "high": high}}

    clear = [player("Boomtown Law", 0.7, 0.8), player("Frontier Patrol", 0.2, 0.3)]
    assert _verdict(clear, 400) == (
        "Boomtown Law is clearly ahead: its interval is above everyone else's."
    )
    close = [*clear[:1], player("Lawmen", 0.6, 0.72), player("Outlaws", 0.65, 0.75), *clear[1:]]
    assert _verdict(close, 400) == (
        "Boomtown Law leads, but Lawmen and Outlaws are too close to call after 400 games: "
        "more games narrow the intervals."
    )


def test_someone_elses_public_deck_links_to_its_public_page(logged_in, user, other_user, catalogue):
    """A run's player with another person's public deck links to the page anyone may open
    (the deck's own page is its owner's: a 404 for everyone else)."""
    deck = legal_deck(other_user, "Posse for all", public=True)
    run = _drifter_run(logged_in, deck_0=f"deck:{deck.pk}")
    html = logged_in.get(f"/simulations/{run.pk}/").content.decode()
    assert f'href="{deck.get_public_url()}"' in html
    assert f'href="{deck.get_absolute_url()}"' not in html
    assert logged_in.get(deck.get_public_url()).status_code == 200
