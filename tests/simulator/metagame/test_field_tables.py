"""Fields at tables of 3 to 8 seats (#28 §1.5): the API (create, bad table sizes refused with
nothing written, a game that seats only two), a field run played in process to its answer,
reproducibility, the export, and the pages (no matchup grid, and why)."""

from __future__ import annotations

import csv
import dataclasses
import io

import pytest

from simulator.games import deck_game
from simulator.metagame.models import FieldRun, FieldStage
from simulator.metagame.services import field_create, field_run_create, field_run_execute_locally
from simulator.runs.models import SimulationRun
from tests.simulator.metagame.test_field_pages import assert_in_words, form_data, visible
from tests.simulator.metagame.test_fields_api import assert_refused, body, written

pytestmark = pytest.mark.django_db

THREE = [
    {"starter": "HSD-S1", "share": 2},
    {"starter": "HSD-S2", "share": 1},
    {"starter": "HSD-S1", "bot": "random", "share": 1},
]


def played(owner, *, seed: int = 5, budget: int = 240, entries=THREE, k: int = 4) -> FieldRun:
    field = field_create(owner=owner, name="Saturday night", entries=entries, budget=budget,
                         bot="heuristic", table_size=k)  # fmt: skip
    field_run, _ = field_run_create(field=field, seed=seed)
    return field_run_execute_locally(field_run=field_run)


# --- the API -----------------------------------------------------------------------------------


def test_a_field_at_tables_of_four_is_saved_and_read_back(user_client, user, catalogue):
    response = user_client.post("/api/v1/fields/", body(table_size=4), format="json")
    assert response.status_code == 201, response.json()
    field = response.json()
    assert field["table_size"] == 4
    assert user_client.get(field["url"]).json()["table_size"] == 4
    assert user_client.post("/api/v1/fields/", body(), format="json").json()["table_size"] == 2
    changed = user_client.patch(field["url"], {"table_size": 6}, format="json")
    assert changed.status_code == 200 and changed.json()["table_size"] == 6


@pytest.mark.parametrize("size", [1, 9, 0, "four", 3.5, None])
def test_a_bad_table_size_is_refused_with_nothing_written(user_client, user, catalogue, size):
    before = written()
    response = user_client.post("/api/v1/fields/", body(table_size=size), format="json")
    assert_refused(response, "table_size")
    assert written() == before


def test_a_table_of_more_seats_asks_only_which_deck_is_best(user_client, user, catalogue):
    before = written()
    response = user_client.post(
        "/api/v1/fields/", body(table_size=3, target="support"), format="json"
    )
    errors = assert_refused(response, "target")
    assert "heads-up question" in errors[0]["detail"]
    assert written() == before


def test_a_game_that_seats_only_two_refuses_a_table_of_four(
    user_client, user, catalogue, monkeypatch
):
    service = deck_game()
    monkeypatch.setattr(service, "spec", dataclasses.replace(service.spec, max_players=2))
    before = written()
    response = user_client.post("/api/v1/fields/", body(table_size=4), format="json")
    errors = assert_refused(response, "table_size")
    assert "seats 2 players only" in errors[0]["detail"]
    assert written() == before
    assert user_client.post("/api/v1/fields/", body(), format="json").status_code == 201


# --- a field run at tables ---------------------------------------------------------------------


def test_a_field_at_tables_of_four_plays_to_its_answer(user_client, user, catalogue):
    field_run = played(user)
    assert field_run.status == "done", field_run.error
    counts, result = field_run.counts["table"], field_run.result
    stages = list(FieldStage.objects.filter(field_run=field_run))
    assert stages and all(len(s.seats) == 4 and s.seats == sorted(s.seats) for s in stages)
    assert all(s.run.kind == SimulationRun.Kind.MATCH for s in stages)
    # Every game counted once: four seat-games a game, one win a game (shared wins split).
    games = sum(s.run.games_done for s in stages)
    assert field_run.games_spent == games == result["games"] <= field_run.budget
    assert sum(counts["seats"]) == 4 * games
    assert sum(counts["wins"]) == pytest.approx(games)
    assert sum(counts["compositions"].values()) == games
    # High Stakes Drifter ranks its players by stake: every seat-game has a place, 1 to 4.
    assert counts["placed"] == counts["seats"]
    assert sum(counts["place_sum"]) == pytest.approx(games * (1 + 2 + 3 + 4))
    rates = result["table"]["rates"]
    assert [r["seats"] for r in rates] == counts["seats"]
    assert all(1 <= r["place_low"] <= r["mean_place"] <= r["place_high"] <= 4 for r in rates)
    assert result["table_size"] == 4 and result["table"]["baseline"] == 0.25
    assert sum(result["p_best"]) == pytest.approx(1.0)
    assert "cells" not in result and "nash" not in result  # no matrix at a table of four
    # The random bot's deck is last; the rounds' tables are the stages made.
    assert result["tiers"][-1]["deck"] == 2
    assert sum(len(r["tables"]) for r in field_run.rounds) == len(stages)
    for stage in stages:  # seats rotate: each position goes first in a quarter of the games
        positions = stage.run.aggregate["matchups"][0]["positions"]
        assert all(abs(4 * p["first_games"] - stage.run.games) <= 4 for p in positions)
    answer = user_client.get(f"/api/v1/field-runs/{field_run.pk}/").json()
    assert answer["table_size"] == 4 and answer["result"]["table"]["rates"] == rates
    assert answer["counts"]["table"]["seats"] == counts["seats"]


def test_the_same_seed_gives_the_same_numbers(user, catalogue):
    first, second = played(user, seed=11), played(user, seed=11)
    assert first.result == second.result and first.counts == second.counts
    assert first.rounds == second.rounds
    other = played(user, seed=12)
    assert other.rounds[0]["tables"] != first.rounds[0]["tables"]


def test_a_deck_with_no_share_is_never_seated(user, catalogue):
    entries = [*THREE[:2], {"starter": "HSD-S2", "bot": "random", "share": 0}]
    field_run = played(user, entries=entries, k=3, budget=200)
    assert field_run.status == "done", field_run.error
    assert field_run.counts["table"]["seats"][2] == 0
    assert all(2 not in s.seats for s in FieldStage.objects.filter(field_run=field_run))
    assert not field_run.result["table"]["rates"][2]["played"]


def test_the_export_has_the_table_figures_and_no_matrix(user_client, user, catalogue):
    field_run = played(user)
    url = f"/api/v1/field-runs/{field_run.pk}/export/"
    rows = list(csv.reader(io.StringIO(b"".join(user_client.get(url).streaming_content).decode())))
    assert rows[0][-4:] == ["edge", "mean_place", "place_low", "place_high"]
    decks = [r for r in rows[1:] if r[0] == "deck"]
    assert len(decks) == 3 and all(r[11] for r in decks)
    tables = [r for r in rows[1:] if r[0] == "table"]
    assert tables and sum(int(r[6]) for r in tables) == field_run.games_spent
    export = user_client.get(f"{url}?as=json").json()
    assert export["table_size"] == 4 and export["matrix"] == []
    assert "does not describe games of 4 seats" in export["note"]
    assert [d["games"] for d in export["decks"]] == field_run.counts["table"]["seats"]


# --- the pages ---------------------------------------------------------------------------------


def test_the_form_offers_table_sizes_and_saves_one(client, user, catalogue):
    client.force_login(user)
    page = client.get("/simulations/fields/new/")
    assert 'name="table_size"' in page.content.decode()
    assert "Heads-up: two players" in visible(page.content.decode())
    response = client.post("/simulations/fields/new/", {**form_data(THREE), "table_size": "5"})
    assert response.status_code == 302
    field_page = client.get(response["Location"]).content.decode()
    assert "tables of 5 players" in visible(field_page)


def test_a_table_run_page_shows_the_tier_list_and_says_there_is_no_matrix(client, user, catalogue):
    client.force_login(user)
    field_run = played(user)
    html = client.get(f"/simulations/field-runs/{field_run.pk}/").content.decode()
    text = visible(html)
    assert_in_words(text)
    assert "The pairwise matrix does not describe games of 4 seats" in text
    assert 'id="tier-table"' in html and 'id="heatmap"' not in html
    assert 'id="equilibrium' not in html and "Mean finishing place" in text
    assert "a seat taken at random wins 25%" in text and "Bring " in text
    assert "Games per table" in text and "Where the games went" in text
    assert "Boomtown Law (random bot)" in text
    fragment = client.get(f"/simulations/field-runs/{field_run.pk}/progress/").content.decode()
    assert 'id="no-matrix"' in fragment and "hx-get" not in fragment
    listed = visible(client.get("/simulations/fields/").content.decode())
    assert "at tables of 4 players" in listed
