"""The replay viewer steps a record one decision at a time on the game's table: step k is the
game after k decisions, one seat's view or every card face up, the result only at the end."""

from __future__ import annotations

import random

import pytest

from simulator.engine.core import RecordError
from simulator.engine.drifter import new_game, starter_seat
from simulator.engine.drifter.cards import load_catalogue
from simulator.games import service_for
from simulator.games.replays import decisions, record_at, replay_step
from simulator.runs.services import run_execute_locally
from tests.simulator.test_simulation_pages import _start

CATALOGUE = load_catalogue()


def _played(game: str, seed: int = 3):
    """A finished game, the table views of seat 0 after every decision, and its record."""
    service = service_for(game)
    if game == "drifter":
        pairs = (("Sam", "HSD-S1"), ("Kate", "HSD-S2"))
        seats = [starter_seat(n, s, catalogue=CATALOGUE) for n, s in pairs]
        state = new_game(seats, seed=seed, catalogue=CATALOGUE)
    else:
        names = [{"name": "Sam"}, {"name": "Kate"}]
        state = service.spec.new_game(seats=names, rules=None, seed=seed)
    rng = random.Random(seed)
    views = [service.table_view(state, 0)]
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
        views.append(service.table_view(state, 0))
    return state, views, state.record()


def _catalogue(game):
    return CATALOGUE if game == "drifter" else None


@pytest.mark.parametrize("game", ["drifter", "quickdraw", "duel", "gunfighter", "tabletown"])
def test_each_step_is_the_table_after_that_many_decisions(game):
    state, views, record = _played(game)
    last = len(decisions(record))
    assert last == len(views) - 1
    for k in sorted({0, 1, last // 2, last - 1, last}):
        step = replay_step(record, k, 0, _catalogue(game))
        assert step.step == k and step.last == last
        assert step.view == views[k]
        assert (step.final is not None) == (k == last)
        assert (step.view["result"] is not None) == (k == last)
    assert replay_step(record, last, 0, _catalogue(game)).final == state.final()


def test_a_step_past_the_end_is_the_end_and_before_the_start_the_deal():
    _, _, record = _played("duel")
    assert replay_step(record, 10**6, None).at_end
    assert replay_step(record, -5, None).step == 0


def test_the_decision_that_led_to_a_step_is_told_only_to_its_seat_and_the_narrator():
    _, _, record = _played("duel")
    # Decision 1 is seat 0's first discard (a card seat 1 may not see).
    assert replay_step(record, 1, 0).action.startswith("Sam: Discard ")
    assert replay_step(record, 1, None).action.startswith("Sam: Discard ")
    assert replay_step(record, 1, 1).action == ""


def test_every_card_face_up_shows_the_other_hand():
    _, _, record = _played("quickdraw")
    seat = replay_step(record, 0, 0).view["seats"][1]["hand"]
    narrator = replay_step(record, 0, None).view["seats"][1]["hand"]
    assert all(c == {"hidden": True} for c in seat)
    assert all("code" in c for c in narrator) and len(seat) == len(narrator) == 6


def test_a_seat_that_is_not_at_the_table_sees_the_first_seats_view():
    _, _, record = _played("quickdraw")
    assert replay_step(record, 0, 7).seat == 0
    assert replay_step(record, 0, -1).seat == 0


def test_a_cut_record_is_a_record_of_the_game_so_far():
    _, _, record = _played("gunfighter")
    cut = record_at(record, 4)
    assert cut["final"] is None and len(decisions(cut)) == 4
    assert service_for("gunfighter").replay_state(cut).is_over is False


def test_a_tampered_record_does_not_replay():
    _, _, record = _played("quickdraw")
    record = dict(record, seed=record["seed"] + 1)
    with pytest.raises(RecordError):
        replay_step(record, 0, 0)


@pytest.fixture
def logged_in(client, user):
    client.force_login(user)
    return client


@pytest.mark.parametrize("game", ["quickdraw", "tabletown"])
def test_a_simulation_sample_opens_on_its_table(logged_in, catalogue, game):
    run = _start(logged_in, game=game, games="4", bot_0="random", bot_1="random")
    run_execute_locally(run=run)
    sample = run.samples.first()
    url = f"/simulations/{run.pk}/games/{sample.pk}/"
    page = logged_in.get(url).content.decode()
    assert f'class="felt felt-{game}"' in page and 'id="next-step"' in page
    assert "{&#x27;" not in page and "{'" not in page  # no raw dict
    assert 'id="table-result"' not in page
    fragment = logged_in.get(url + "?step=999&seat=all", HTTP_HX_REQUEST="true").content.decode()
    assert "<html" not in fragment and 'id="table-result"' in fragment
    assert 'aria-current="true"' in fragment and "Every card face up" in fragment


def test_another_users_sample_is_a_404(client, other_user, user, catalogue):
    client.force_login(user)
    run = _start(client, game="duel", games="2", bot_0="random", bot_1="random")
    run_execute_locally(run=run)
    sample = run.samples.first()
    client.force_login(other_user)
    assert client.get(f"/simulations/{run.pk}/games/{sample.pk}/").status_code == 404


def test_a_sample_whose_record_was_altered_is_a_422(logged_in, catalogue):
    run = _start(logged_in, game="duel", games="2", bot_0="random", bot_1="random")
    run_execute_locally(run=run)
    sample = run.samples.first()
    sample.record = dict(sample.record, seed=sample.record["seed"] + 1)
    sample.save()
    response = logged_in.get(f"/simulations/{run.pk}/games/{sample.pk}/?seat=bad&step=x")
    assert response.status_code == 422 and "does not replay" in response.content.decode()
