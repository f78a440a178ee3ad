"""The table's API (issue #16, sections 1, 2 and 6): every game played to its end, a move
applied once, an illegal or stale one refused with nothing changed, games scoped to their
owner, the record withheld until the end and verified by `manage.py replay`."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command

from simulator.models import TableGame
from tests.simulator.table_play import GAMES, SEED, play_through, seats_of

pytestmark = pytest.mark.django_db


def start(client, game: str = "drifter", **body) -> dict:
    response = client.post(
        "/api/v1/games/", {"game": game, "seats": seats_of(game), **body}, format="json"
    )
    assert response.status_code == 201, response.json()
    return response.json()


def act(client, answer: dict, index: int = 0, move: int | None = None):
    action = answer["legal_actions"][index]["action"]
    move = answer["move"] if move is None else move
    return client.post(answer["url"] + "actions/", {"move": move, "action": action}, format="json")


@pytest.mark.parametrize("game", GAMES)
def test_every_game_is_played_to_its_end_and_its_record_replays(
    user_client, catalogue, seeded, game, tmp_path
):
    answers = play_through(user_client, game)
    last = answers[-1]
    assert last["status"] == "over" and last["seat"] is None and last["legal_actions"] == []
    assert last["result"] is not None
    assert [a["move"] for a in answers] == sorted({a["move"] for a in answers})
    for answer in answers[:-1]:
        assert answer["status"] == "your_turn" and answer["seat"] == 0
        assert answer["legal_actions"] and all(a["label"] for a in answer["legal_actions"])
    body = user_client.get(last["record_url"]).json()
    assert body["result"] == last["result"]
    record = body["record"]
    assert record["final"] == last["result"]
    assert sum(1 for ev in record["events"] if ev[0] == "act") == last["move"]
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    call_command("replay", str(path))  # raises CommandError unless the record verifies
    game_row = TableGame.objects.get(pk=last["id"])
    assert (game_row.status, game_row.move, game_row.result) == (
        "over",
        last["move"],
        last["result"],
    )


def test_the_bots_answer_before_the_response_and_say_what_they_did(user_client, catalogue):
    answer = start(user_client, "quickdraw")
    moved = act(user_client, answer).json()
    assert moved["move"] > answer["move"] + 1  # the bot decided too
    assert [m["seat"] for m in moved["bot_moves"]] == [1] * (moved["move"] - answer["move"] - 1)
    assert all(m["label"] == "Heuristic bot" for m in moved["bot_moves"])
    assert [s["yours"] for s in moved["seats"]] == [True, False]


def test_a_stale_move_is_a_409_and_changes_nothing(user_client, catalogue):
    answer = start(user_client)
    stale = act(user_client, answer, move=answer["move"] + 1)
    assert stale.status_code == 409
    assert stale.json()["errors"][0]["code"] == "stale_move"
    assert user_client.get(answer["url"]).json()["move"] == answer["move"]


def test_a_double_submit_applies_the_move_once(user_client, catalogue):
    answer = start(user_client)
    first, second = act(user_client, answer), act(user_client, answer)
    assert first.status_code == 200
    assert second.status_code == 409 and second.json()["errors"][0]["code"] == "stale_move"
    assert TableGame.objects.get(pk=answer["id"]).move == first.json()["move"]


def test_an_illegal_action_is_a_400_with_the_engines_reason_and_changes_nothing(
    user_client, catalogue
):
    answer = start(user_client)
    row = TableGame.objects.get(pk=answer["id"])
    for action in ({"kind": "no_such_thing"}, {"kind": "pass", "nonsense": 1}):
        response = user_client.post(
            answer["url"] + "actions/", {"move": answer["move"], "action": action}, format="json"
        )
        assert response.status_code == 400, response.json()
        error = response.json()["errors"][0]
        assert (error["code"], error["attr"]) == ("illegal_action", "action")
        assert "action" in error["detail"] and "kind" in error["detail"]
    legal = [a["action"] for a in answer["legal_actions"]]
    illegal = next({**a, "card": a["card"] + 1000} for a in legal if isinstance(a.get("card"), int))
    response = user_client.post(
        answer["url"] + "actions/", {"move": answer["move"], "action": illegal}, format="json"
    )
    assert response.status_code == 400 and response.json()["errors"][0]["code"] == "illegal_action"
    after = TableGame.objects.get(pk=answer["id"])
    assert (after.move, after.record, after.updated_at) == (row.move, row.record, row.updated_at)


def test_a_finished_game_takes_no_more_moves(user_client, catalogue):
    answers = play_through(user_client, "quickdraw")
    last, before = answers[-1], answers[-2]
    response = act(user_client, before, move=last["move"])
    assert response.status_code == 409
    assert response.json()["errors"][0]["code"] == "game_over"


def test_the_record_is_withheld_until_the_end(user_client, catalogue):
    answer = start(user_client)
    response = user_client.get(answer["record_url"])
    assert response.status_code == 409
    assert response.json()["errors"][0]["code"] == "game_on"


def test_another_users_game_is_a_404_everywhere(user_client, catalogue, other_user):
    from rest_framework.test import APIClient

    answer = start(user_client, "quickdraw")
    other = APIClient()
    other.force_authenticate(other_user)
    assert other.get(answer["url"]).status_code == 404
    assert other.get(answer["record_url"]).status_code == 404
    assert act(other, answer).status_code == 404
    assert other.get("/api/v1/games/").json()["count"] == 0
    assert TableGame.objects.get(pk=answer["id"]).move == answer["move"]


def test_my_games_are_listed_unfinished_first(user_client, catalogue):
    done = play_through(user_client, "quickdraw")[-1]
    waiting = start(user_client, "duel")
    listed = user_client.get("/api/v1/games/").json()
    assert [g["id"] for g in listed["results"]] == [waiting["id"], done["id"]]
    assert [g["status"] for g in listed["results"]] == ["your_turn", "over"]


def test_every_seat_may_be_the_callers(user_client, catalogue):
    response = user_client.post("/api/v1/games/", {"game": "quickdraw", "seats": [{}, {}]},
                                format="json")  # fmt: skip
    assert response.status_code == 201
    answer = response.json()
    seats = {answer["seat"]}
    while answer["status"] != "over":
        answer = act(user_client, answer).json()
        assert answer["bot_moves"] == []
        seats.add(answer["seat"])
    assert seats == {0, 1, None}


def test_the_search_bot_plays_with_the_budget_its_seat_sets(user_client, catalogue, seeded):
    seats = [{"starter": "HSD-S1"}, {"starter": "HSD-S2", "bot": "search", "budget": 4}]
    answer = user_client.post("/api/v1/games/", {"seats": seats}, format="json").json()
    seat = answer["seats"][1]
    assert (seat["bot"], seat["budget"], seat["yours"]) == ("search", 4, False)
    assert seat["label"].startswith("Search bot (")
    assert TableGame.objects.get(pk=answer["id"]).seats[1]["budget"] == 4
    moved = act(user_client, answer).json()
    assert moved["move"] > answer["move"]


def test_rules_variants_and_quick_start_reach_the_engine(user_client, catalogue):
    answer = start(user_client, rules={"first_player": 1, "max_turns": 30}, quick_start=True)
    record = TableGame.objects.get(pk=answer["id"]).record
    assert record["rules"]["first_player"] == 1
    assert record["rules"]["max_turns"] == 30
    assert record["rules"]["quick_start"] is True
    varied = start(user_client, variants=["high_low"])
    assert TableGame.objects.get(pk=varied["id"]).variants == ["high_low"]


BAD = [
    ({"game": "chess", "seats": [{}, {"bot": "random"}]}, 400, "unknown_game", "game"),
    ({"game": "quickdraw", "seats": [{}]}, 400, "min_length", "seats"),
    ({"game": "quickdraw", "seats": [{}, {}, {}]}, 400, "invalid", "seats"),
    ({"game": "quickdraw", "seats": [{"bot": "random"}, {"bot": "random"}]}, 400, "no_seat",
     "seats"),
    ({"game": "quickdraw", "seats": [{}, {"bot": "genius"}]}, 400, "unknown_bot", "seats.1.bot"),
    ({"game": "quickdraw", "seats": [{}, {"bot": "random", "budget": 5}]}, 400, "no_budget",
     "seats.1.budget"),
    ({"game": "quickdraw", "seats": [{"budget": 5}, {"bot": "random"}]}, 400,
     "budget_without_bot", "seats.0"),
    ({"seats": [{"starter": "HSD-S1"}, {"starter": "HSD-S2", "bot": "search", "budget": 401}]},
     400, "bad_budget", "seats.1.budget"),
    ({"seats": [{"starter": "HSD-S1"}, {"bot": "random"}]}, 400, "required", "seats.1"),
    ({"seats": [{"starter": "NOPE"}, {"starter": "HSD-S2", "bot": "random"}]}, 400,
     "not_found", "seats.0"),
    ({"seats": [{"deck": 999999}, {"starter": "HSD-S2", "bot": "random"}]}, 400, "not_found",
     "seats.0"),
    ({"game": "quickdraw", "seats": [{"starter": "HSD-S1"}, {"bot": "random"}]}, 400,
     "no_decks", "seats.0"),
    ({"seats": [{"starter": "HSD-S1"}, {"starter": "HSD-S2", "bot": "random"}],
      "rules": {"max_turns": 0}}, 400, "invalid", "rules"),
    ({"seats": [{"starter": "HSD-S1"}, {"starter": "HSD-S2", "bot": "random"}],
      "rules": {"variants": ["high_low"]}}, 400, "invalid", "rules.variants"),
    ({"seats": [{"starter": "HSD-S1"}, {"starter": "HSD-S2", "bot": "random"}],
      "variants": ["no_such_variant"]}, 400, "invalid", "variants"),
    ({"seats": [{"starter": "HSD-S1"}, {"starter": "HSD-S2", "bot": "random"}],
      "quick_start": True, "variants": ["high_low"]}, 400, "invalid", "rules"),
    ({"game": "quickdraw", "seats": [{}, {"bot": "random"}], "rules": {"speed": 3}}, 400,
     "invalid", "rules"),
    ({"game": "quickdraw", "seats": "two"}, 400, "not_a_list", "seats"),
    ({"game": "quickdraw", "seats": [{}, {"bot": 7}]}, 400, "invalid", "seats.1.bot"),
]  # fmt: skip


@pytest.mark.parametrize(("body", "status", "code", "attr"), BAD)
def test_a_bad_game_is_refused_in_the_error_shape_and_nothing_is_written(
    user_client, catalogue, body, status, code, attr
):
    response = user_client.post("/api/v1/games/", body, format="json")
    assert response.status_code == status, response.json()
    codes = [(e["code"], e["attr"]) for e in response.json()["errors"]]
    assert (code, attr) in codes, codes
    assert TableGame.objects.count() == 0


BAD_ACTIONS = [
    ({"action": {"kind": "pass"}}, "required", "move"),
    ({"move": "3", "action": {"kind": "pass"}}, "invalid", "move"),
    ({"move": -1, "action": {"kind": "pass"}}, "min_value", "move"),
    ({"move": 0}, "required", "action"),
    ({"move": 0, "action": ["pass"]}, "not_a_dict", "action"),
]


@pytest.mark.parametrize(("body", "code", "attr"), BAD_ACTIONS)
def test_a_bad_action_body_is_a_400_and_changes_nothing(user_client, catalogue, body, code, attr):
    answer = start(user_client, "quickdraw")
    response = user_client.post(answer["url"] + "actions/", body, format="json")
    assert response.status_code == 400, response.json()
    error = response.json()["errors"][0]
    assert (error["code"], error["attr"]) == (code, attr)
    assert TableGame.objects.get(pk=answer["id"]).move == answer["move"]


def test_the_seed_is_never_served(user_client, catalogue, seeded):
    answers = play_through(user_client, "drifter")
    listed = user_client.get("/api/v1/games/").content.decode()
    for text in [json.dumps(a) for a in answers] + [listed]:
        assert str(SEED) not in text


@pytest.mark.django_db(transaction=True)
def test_the_same_move_sent_at_once_from_four_tabs_is_applied_once(catalogue):
    """Under the row lock the first decision applies; the others find the move gone."""
    import threading

    from django.db import close_old_connections

    from simulator.table import seating
    from simulator.table import services as table
    from tests.factories import UserFactory

    owner = UserFactory()
    seen = seating.table_game_create(owner=owner, game="drifter", seats=seats_of("drifter"), seed=4)
    move, action = seen.game.move, seen.legal_actions[0]["action"]
    start = threading.Barrier(4)
    outcomes: list[str] = []

    def submit() -> None:
        try:
            start.wait()
            table.table_game_act(owner=owner, pk=seen.game.pk, move=move, action=action)
            outcomes.append("applied")
        except table.TableConflict as exc:
            outcomes.append(exc.code)
        except BaseException as exc:  # reported below, with the others
            outcomes.append(repr(exc))
        finally:
            close_old_connections()

    tabs = [threading.Thread(target=submit) for _ in range(4)]
    for tab in tabs:
        tab.start()
    for tab in tabs:
        tab.join()
    assert sorted(outcomes) == ["applied", "stale_move", "stale_move", "stale_move"]
    row = TableGame.objects.get(pk=seen.game.pk)
    acts = [ev for ev in row.record["events"] if ev[0] == "act"]
    assert acts[move][2] == action and len(acts) == row.move
