"""Chunks without a worker: counted once, attempts and re-sends bounded, the run finished
once, and `manage.py simulate` playing the very same chunks in-process."""

from __future__ import annotations

import base64
import io
import json
import os
import time
import uuid
from datetime import timedelta
from pathlib import Path

import pytest
from django.core.management import call_command
from django.utils import timezone

from simulator.games.problems import RunRefused
from simulator.models import ChunkResult, SimulationChunk, SimulationRun
from simulator.runs.selectors import report_text
from simulator.runs.services import (
    chunk_execute,
    chunks_of_lost_worker,
    run_create,
    run_execute_locally,
    run_reconcile,
)

PLAYERS = [{"bot": "heuristic"}, {"bot": "random"}]


@pytest.fixture
def no_broker(monkeypatch):
    """Record what would be sent instead of talking to a broker."""
    sent: list[tuple[int, int, str]] = []
    monkeypatch.setattr("simulator.runs.services._send", lambda c, s, q: sent.append((c, s, q)))
    return sent


def make_run(user, games=50, **kwargs) -> SimulationRun:
    run, created = run_create(
        owner=user, game="quickdraw", players=PLAYERS, games=games, seed=3, **kwargs
    )
    assert created
    return run


def test_dispatch_keeps_a_window_of_chunks_in_flight(
    user, settings, no_broker, django_capture_on_commit_callbacks
):
    settings.SIMULATION_CHUNK_SECONDS = 0.001
    settings.SIMULATION_DISPATCH_WINDOW = 3
    with django_capture_on_commit_callbacks(execute=True):
        run = make_run(user)
    assert run.chunk_count > 3
    assert len(no_broker) == 3
    assert SimulationChunk.objects.filter(run=run, status="queued").count() == 3
    chunk_id, send_no, _ = no_broker[0]
    with django_capture_on_commit_callbacks(execute=True):
        assert chunk_execute(chunk_id=chunk_id, send_no=send_no) == "done"
    assert len(no_broker) == 4  # the finished chunk made room for the next


def test_a_chunk_played_twice_counts_once(
    user, settings, no_broker, django_capture_on_commit_callbacks
):
    settings.SIMULATION_CHUNK_SECONDS = 0.001
    with django_capture_on_commit_callbacks(execute=True):
        run = make_run(user, games=20)
    assert run.chunk_count > 1
    chunk = SimulationChunk.objects.get(run=run, index=0)
    assert chunk_execute(chunk_id=chunk.pk, send_no=chunk.sends) == "done"
    # As if the chunk's state were lost after its result was written: it is played again.
    SimulationChunk.objects.filter(pk=chunk.pk).update(status="queued")
    assert chunk_execute(chunk_id=chunk.pk, send_no=chunk.sends) == "duplicate"
    run.refresh_from_db()
    games = chunk.end - chunk.start
    assert run.games_done == games and run.chunks_done == 1 and run.status == "running"
    assert ChunkResult.objects.filter(run=run).count() == 1
    run_execute_locally(run=run)
    run.refresh_from_db()
    assert run.games_done == 20 and run.status == "done"


def test_a_superseded_message_is_ignored(user, no_broker, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        run = make_run(user, games=20)
    chunk = SimulationChunk.objects.get(run=run, index=0)
    SimulationChunk.objects.filter(pk=chunk.pk).update(sends=chunk.sends + 1)  # re-sent since
    assert chunk_execute(chunk_id=chunk.pk, send_no=chunk.sends) == "skipped"
    assert chunk_execute(chunk_id=chunk.pk, send_no=chunk.sends + 1) == "done"


def test_a_chunk_that_keeps_killing_its_worker_is_failed_not_retried_for_ever(
    user, settings, no_broker, django_capture_on_commit_callbacks
):
    settings.SIMULATION_MAX_ATTEMPTS = 2
    settings.SIMULATION_WORKERS = 1  # the run is one chunk
    with django_capture_on_commit_callbacks(execute=True):
        run = make_run(user, games=20)
    chunk = SimulationChunk.objects.get(run=run, index=0)
    # Each redelivery of the same message after a lost worker starts another attempt.
    from simulator.runs.services import _claim

    assert _claim(chunk.pk, chunk.sends, "w1") is not None
    assert _claim(chunk.pk, chunk.sends, "w2") is not None
    assert _claim(chunk.pk, chunk.sends, "w3") is None
    chunk.refresh_from_db()
    run.refresh_from_db()
    assert chunk.status == "failed" and "attempts" in chunk.error
    assert run.status == "failed" and run.chunks_failed == 1 and run.finished_at


def test_the_reconciler_resends_lost_chunks_then_gives_up(
    user, settings, no_broker, django_capture_on_commit_callbacks
):
    settings.SIMULATION_QUEUED_STALE_SECONDS = 0
    settings.SIMULATION_MAX_SENDS = 3
    settings.SIMULATION_WORKERS = 1  # the run is one chunk
    with django_capture_on_commit_callbacks(execute=True):
        run = make_run(user, games=20)
    assert len(no_broker) == 1
    for expected_send in (2, 3):
        with django_capture_on_commit_callbacks(execute=True):
            assert run_reconcile(run=run)["resent"] == 1
        assert no_broker[-1][1] == expected_send
    with django_capture_on_commit_callbacks(execute=True):
        assert run_reconcile(run=run)["failed"] == 1
    run.refresh_from_db()
    assert run.status == "failed"


def _playing(run: SimulationRun, index: int, worker: str) -> SimulationChunk:
    """Chunk `index` of `run` as a worker that took its message and started playing it."""
    from simulator.runs.services import _claim

    chunk = SimulationChunk.objects.get(run=run, index=index)
    assert _claim(chunk.pk, chunk.sends, worker) is not None
    chunk.refresh_from_db()
    assert chunk.status == "running" and chunk.lease_until > chunk.started_at
    return chunk


def test_a_playing_chunk_is_resent_when_its_lease_runs_out_not_before(
    user, settings, no_broker, django_capture_on_commit_callbacks
):
    settings.SIMULATION_CHUNK_SECONDS = 0.001
    settings.SIMULATION_LEASE_SECONDS = 10
    with django_capture_on_commit_callbacks(execute=True):
        run = make_run(user, games=20)
    chunk = _playing(run, 0, "w1@a")
    with django_capture_on_commit_callbacks(execute=True):
        assert run_reconcile(run=run)["resent"] == 0  # its worker holds a lease
    SimulationChunk.objects.filter(pk=chunk.pk).update(lease_until=timezone.now())
    with django_capture_on_commit_callbacks(execute=True):
        assert run_reconcile(run=run)["resent"] == 1
    assert (chunk.pk, 2, run.plan["queue"]) in no_broker
    # The dead worker's message is superseded; the new one plays the chunk and counts it once.
    assert chunk_execute(chunk_id=chunk.pk, send_no=1) == "skipped"
    assert chunk_execute(chunk_id=chunk.pk, send_no=2) == "done"
    assert ChunkResult.objects.get(run=run, chunk_index=0).games == chunk.end - chunk.start


def test_a_lost_workers_chunks_are_resent_at_once_and_nobody_elses(
    user, settings, no_broker, django_capture_on_commit_callbacks
):
    settings.SIMULATION_CHUNK_SECONDS = 0.001
    settings.SIMULATION_DISPATCH_WINDOW = 3
    with django_capture_on_commit_callbacks(execute=True):
        run = make_run(user, games=20)
    lost, alive = _playing(run, 0, "w1@a"), _playing(run, 1, "w2@a")
    with django_capture_on_commit_callbacks(execute=True):
        assert chunks_of_lost_worker(worker="w1@a") == {"resent": 1, "failed": 0}
        assert chunks_of_lost_worker(worker="w1@a") == {"resent": 0, "failed": 0}  # once
    lost.refresh_from_db(), alive.refresh_from_db()
    assert (lost.status, lost.sends) == ("queued", 2) and (alive.status, alive.sends) == (
        "running",
        1,
    )
    assert no_broker[-1] == (lost.pk, 2, run.plan["queue"])
    # The run still counts every game once.
    assert chunk_execute(chunk_id=alive.pk, send_no=1) == "done"
    run_execute_locally(run=run)
    run.refresh_from_db()
    assert run.status == "done" and run.games_done == 20
    assert sum(ChunkResult.objects.filter(run=run).values_list("games", flat=True)) == 20


def test_a_chunk_taken_but_not_yet_claimed_by_a_lost_worker_is_resent_at_once(
    user, settings, tmp_path, no_broker, django_capture_on_commit_callbacks
):
    """A worker killed between taking a chunk's message and claiming the chunk leaves it
    queued with no worker recorded; the note it wrote as it took the message (Celery's
    task_received) names it, and the supervisor sends it again at once, once. A note of an
    older send, or of a chunk since claimed, re-sends nothing."""
    from types import SimpleNamespace

    from simulator.runs.tasks import note_a_chunk_taken, simulate_chunk

    settings.VAR_DIR = tmp_path
    settings.SIMULATION_CHUNK_SECONDS = 0.001
    settings.SIMULATION_DISPATCH_WINDOW = 3
    with django_capture_on_commit_callbacks(execute=True):
        run = make_run(user, games=20)
    taken, other = SimulationChunk.objects.filter(run=run).order_by("index")[:2]
    assert (taken.status, taken.sends, taken.worker) == ("queued", 1, "")
    request = SimpleNamespace(name=simulate_chunk.name, args=[taken.pk, 1], hostname="w1@a")
    note_a_chunk_taken(request=request)
    note_a_chunk_taken(request=SimpleNamespace(name="simulator.ping", args=[7], hostname="w2@a"))
    assert (tmp_path / "workers" / "w1@a.received").read_text() == f"{taken.pk} 1"
    assert not (tmp_path / "workers" / "w2@a.received").exists()
    with django_capture_on_commit_callbacks(execute=True):
        assert chunks_of_lost_worker(worker="w2@a") == {"resent": 0, "failed": 0}  # no note
        assert chunks_of_lost_worker(worker="w1@a") == {"resent": 1, "failed": 0}
        assert chunks_of_lost_worker(worker="w1@a") == {"resent": 0, "failed": 0}  # once
    taken.refresh_from_db(), other.refresh_from_db()
    assert (taken.status, taken.sends) == ("queued", 2) and (other.status, other.sends) == (
        "queued",
        1,
    )
    assert no_broker[-1] == (taken.pk, 2, run.plan["queue"])
    # The new message plays it, the old one (if it ever came) is ignored: counted once.
    assert chunk_execute(chunk_id=taken.pk, send_no=1) == "skipped"
    _playing(run, other.index, "w1@a")  # the restarted worker claims another chunk
    note_a_chunk_taken(request=SimpleNamespace(name=simulate_chunk.name, args=[other.pk, 1],
                                               hostname="w1@a"))  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        assert chunks_of_lost_worker(worker="w1@a") == {"resent": 1, "failed": 0}  # the running
    run_execute_locally(run=run)
    run.refresh_from_db()
    assert run.status == "done" and run.games_done == 20
    assert sum(ChunkResult.objects.filter(run=run).values_list("games", flat=True)) == 20


@pytest.mark.django_db(transaction=True)
def test_a_worker_renews_its_chunks_lease_while_it_plays(settings, monkeypatch):
    """The lease is renewed from a thread of its own, however long the games take: here one
    chunk plays for three times its lease and keeps it throughout."""
    from simulator.runs import services
    from tests.factories import UserFactory

    settings.SIMULATION_LEASE_SECONDS = 0.3
    monkeypatch.setattr(services, "_send", lambda c, s, q: None)
    run = make_run(UserFactory(), games=4)
    chunk = SimulationChunk.objects.get(run=run, index=0)
    play = services.play_chunk
    leases = []

    def slow_play(*args, **kwargs):
        for _ in range(4):
            time.sleep(0.25)
            leases.append(SimulationChunk.objects.get(pk=chunk.pk).lease_until)
        return play(*args, **kwargs)

    monkeypatch.setattr(services, "play_chunk", slow_play)
    assert chunk_execute(chunk_id=chunk.pk, send_no=chunk.sends) == "done"
    chunk.refresh_from_db()
    assert leases == sorted(leases) and len(set(leases)) >= 3  # renewed, never shortened
    assert leases[-1] > chunk.started_at + timedelta(seconds=0.6)


@pytest.mark.django_db(transaction=True)
def test_one_keeper_thread_renews_every_chunk_held_and_stops_at_release(settings):
    """Holding a chunk starts no thread of its own (a thread per chunk cost ~4 ms of every
    chunk on busy cores: leases.py); the process's one keeper renews each held chunk, and a
    released one no more."""
    import threading

    from simulator.runs.leases import Leased
    from tests.factories import UserFactory

    settings.SIMULATION_LEASE_SECONDS = 0.3
    run = make_run(UserFactory(), games=4, dispatch=False)
    a, b = SimulationChunk.objects.filter(run=run).order_by("index")[:2]
    past = timezone.now() - timedelta(hours=1)
    SimulationChunk.objects.filter(pk__in=[a.pk, b.pk]).update(
        status="running", sends=1, lease_until=past
    )

    def lease(chunk):
        return SimulationChunk.objects.get(pk=chunk.pk).lease_until

    def eventually(condition):
        for _ in range(500):
            if condition():
                return True
            time.sleep(0.02)
        return False

    with Leased(a.pk, 1):
        with Leased(b.pk, 1):
            assert eventually(lambda: lease(a) > past and lease(b) > past)
        # a renewal under way as b was released may still renew it once: let two pass
        for _ in range(2):
            before = lease(a)
            assert eventually(lambda before=before: lease(a) > before)
        released, renewed = lease(b), lease(a)
        assert eventually(lambda: lease(a) > renewed + timedelta(seconds=0.2))
        assert lease(b) == released
    keepers = [t for t in threading.enumerate() if t.name == "chunk-leases"]
    assert len(keepers) == 1


def test_the_queue_is_fixed_when_the_run_is_created(
    user, settings, no_broker, django_capture_on_commit_callbacks
):
    settings.SIMULATION_QUEUE = "sims"
    with django_capture_on_commit_callbacks(execute=True):
        make_run(user, games=5)
    assert {q for _, _, q in no_broker} == {"sims"}


def test_simulate_command_prints_the_report(db, user, capsys):
    out = io.StringIO()
    call_command(
        "simulate", "--game", "quickdraw", "--bots", "heuristic", "random", "--games", "200",
        "--seed", "8", "--user", user.username, stdout=out,
    )  # fmt: skip
    text = out.getvalue()
    assert "200 of 200 games" in text and "Player 1 (heuristic)" in text
    assert "games" in capsys.readouterr().err  # the progress bar


@pytest.mark.django_db(transaction=True)
def test_simulate_with_processes_plays_the_same_games(settings):
    from tests.factories import UserFactory

    settings.SIMULATION_CHUNK_SECONDS = 0.02
    user = UserFactory()
    one = make_run(user, games=600, dispatch=False)
    two = make_run(user, games=600, dispatch=False)
    one = run_execute_locally(run=one)
    two = run_execute_locally(run=two, processes=2)
    assert one.status == two.status == "done"
    assert one.aggregate == two.aggregate
    assert report_text(one).split("\n")[2:] == report_text(two).split("\n")[2:]


def test_chunk_sizes_are_calibrated_from_the_chunks_already_played(user, settings):
    settings.SIMULATION_CHUNK_SECONDS = 1.0
    first = make_run(user, games=100_000, dispatch=False)
    estimated = first.chunk_size
    # Pretend the machine turned out ten times slower than the estimate.
    per_game = 10 * 1.0 / estimated
    for index in range(5):
        ChunkResult.objects.create(
            run=first, chunk_index=index, games=100, seconds=100 * per_game, aggregate={}
        )
    second = make_run(user, games=100_000, dispatch=False)
    assert second.plan["cost_key"] == first.plan["cost_key"] == "quickdraw:heuristic+random:2"
    assert second.chunk_size == pytest.approx(estimated / 10, rel=0.05)


@pytest.mark.parametrize("workers", [1, 2, 3, 8])
def test_a_run_is_cut_so_that_its_workers_finish_together(user, settings, workers):
    """Rounds of one chunk a worker, of one size, then the last round cut into a round of
    halves, one of quarters and two of eighths: 7 chunks on 2 workers left one idle for a whole
    chunk at the end (a seventh of the run), and a worker whose chunks played slower holds the
    others up by an eighth of a chunk at most."""
    settings.SIMULATION_WORKERS = workers
    settings.SIMULATION_CHUNK_SECONDS = 1.0
    settings.SIMULATION_MAX_ACTIVE_RUNS = 10
    cuts = []
    for games in (1, 5, 997, 10_000, 54_321):
        run = make_run(user, games=games, dispatch=False)
        chunks = list(SimulationChunk.objects.filter(run=run).order_by("index"))
        sizes = [c.end - c.start for c in chunks]
        assert len(chunks) == run.chunk_count and sum(sizes) == games
        assert [c.start for c in chunks[1:]] == [c.end for c in chunks[:-1]]  # no gap, no overlap
        assert chunks[0].start == 0 and sizes[0] == run.chunk_size == max(sizes)
        assert all(0 < size <= run.chunk_size for size in sizes)
        cut = run.chunk_count >= 6 * workers and sizes[-1] <= run.chunk_size // 8 + 1
        if cut:
            # whole rounds, then the last round as rounds of halves, quarters and eighths
            assert run.chunk_count % workers == 0
            w = workers
            halves, quarters = sizes[-4 * w : -3 * w], sizes[-3 * w : -2 * w]
            eighths = sizes[-2 * w :]
            for part, share in ((halves, 2), (quarters, 4), (eighths, 8)):
                assert max(part) <= run.chunk_size // share + 1 and max(part) - min(part) <= 1
            assert abs(sum(halves) - 2 * sum(quarters)) <= 2 * w
            assert abs(sum(quarters) - sum(eighths)) <= w
            assert all(s == run.chunk_size for s in sizes[: -4 * w])
        cuts.append(cut)
        # Each worker, taking the next chunk as it finishes one, ends within an eighth of a
        # chunk of the others (chunks playing at an even pace), or half of one uncut.
        ends = [0] * workers
        for size in sizes:
            ends[ends.index(min(ends))] += size
        assert max(ends) - min(ends) <= max(1, run.chunk_size // (8 if cut else 2) + 1)
    assert any(cuts)  # the longer runs have rounds enough to cut their last one


def test_runs_started_together_share_the_workers_instead_of_each_taking_all(user, settings):
    """A run alone is cut so that every worker has a chunk; a run started with 44 others (a
    metagame round's) is not: the others keep the workers busy, and cutting each small run in
    two would only double the chunks' cost of claiming and counting."""
    settings.SIMULATION_WORKERS = 2
    settings.SIMULATION_CHUNK_SECONDS = 1.0
    settings.SIMULATION_MAX_ACTIVE_RUNS = 10
    alone = make_run(user, games=30, dispatch=False)
    together = make_run(user, games=30, dispatch=False, alongside=45)
    assert (alone.chunk_count, together.chunk_count) == (2, 1)
    assert together.chunk_size == 30
    # a long run is cut into chunks of about a second either way, just not into pairs of them
    long_alone = make_run(user, games=54_321, dispatch=False)
    long_together = make_run(user, games=54_321, dispatch=False, alongside=2)
    assert long_alone.chunk_count % 2 == 0 and long_together.chunk_count > 1


@pytest.mark.parametrize(("kept", "expected"), [(None, 20), (3, 3), (0, 0)])
def test_a_run_keeps_the_replayable_games_it_asks_for(user, kept, expected):
    """SIMULATION_SAMPLE_RECORDS (20) replayable games spread over the run, unless the run was
    created asking for another number (a metagame stage run keeps two)."""
    extra = {} if kept is None else {"sample_records": kept}
    run = run_execute_locally(run=make_run(user, games=60, dispatch=False, **extra))
    assert run.status == "done" and run.games_done == 60
    indices = sorted(run.samples.values_list("index", flat=True))
    assert len(indices) == expected
    if expected:
        assert indices[0] == 0 and indices[-1] >= 60 - 60 // expected  # spread over the run


def test_runs_made_together_read_and_check_each_player_once(user, catalogue, monkeypatch):
    """Within players_checked_once (a metagame round), a deck given to several runs is read and
    checked for the first only, and each run still gets a plan player of its own; a player with
    a problem is checked every time, so each refusal names its own place."""
    from simulator.games import players as players_module
    from simulator.runs import services

    checked: list[dict] = []
    real = players_module.prepare_player

    def counting(**kwargs):
        checked.append(kwargs["data"])
        return real(**kwargs)

    monkeypatch.setattr(services, "prepare_player", counting)
    s1, s2 = {"starter": "HSD-S1", "bot": "random"}, {"starter": "HSD-S2", "bot": "random"}
    made = []
    with services.players_checked_once():
        for players in ([s1, s2], [s2, s1], [s1, s1]):
            made.append(run_create(owner=user, game="drifter", format="standard", players=players,
                                   games=4, dispatch=False, count_active=False)[0])  # fmt: skip
        with pytest.raises(RunRefused) as refused:
            run_create(owner=user, game="drifter", players=[s1, {"starter": "NOPE"}], games=4,
                       dispatch=False, count_active=False)  # fmt: skip
    assert checked == [s1, s2, {"starter": "NOPE"}]
    assert refused.value.problems[0]["attr"] == "players.1"
    first, second, mirror = (run.plan["players"] for run in made)
    assert first[0] == second[1] == mirror[0] == mirror[1] and first[1] == second[0]
    assert first[0] is not mirror[0]
    # outside the block, every run checks its players again
    run_create(owner=user, game="drifter", format="standard", players=[s1, s2], games=4,
               dispatch=False, count_active=False)  # fmt: skip
    assert checked[-2:] == [s1, s2]


def test_a_first_run_is_chunked_for_the_engine_build_that_will_play_it(monkeypatch):
    """Before any run is measured, High Stakes Drifter's chunks are sized by the cost of a game
    in the build this process runs: compiled games cost a fraction of pure-Python ones, so the
    same second of work holds more of them (a chunk sized for the wrong build spends its time
    on Celery's per-task overhead, or runs far past the intended second)."""
    import simulator.engine.compiled as compiled
    from simulator.games import service_for
    from simulator.games.runner import estimate_cost

    drifter = service_for("drifter")

    package = "simulator.engine.drifter"
    monkeypatch.setitem(compiled._active, package, "compiled: a build")
    fast = estimate_cost("drifter", ["heuristic", "random"])
    monkeypatch.setitem(compiled._active, package, "pure Python: DRIFTER_PURE_ENGINE is set")
    slow = estimate_cost("drifter", ["heuristic", "random"])
    assert fast == drifter.game_cost["heuristic"]
    assert slow == drifter.pure_game_cost["heuristic"] > 5 * fast
    assert (
        estimate_cost("drifter", ["search", "random"], n_seats=4)
        == 2 * drifter.pure_game_cost["search"]
    )
    assert estimate_cost("quickdraw", ["random"]) == service_for("quickdraw").game_cost["random"]


def _drifter_run(user, games=6):
    run, _ = run_create(
        owner=user, game="drifter", players=[{"starter": "HSD-S1"}, {"starter": "HSD-S2"}],
        games=games, seed=5, dispatch=False,
    )  # fmt: skip
    return run


def test_a_run_pins_the_catalogue_version_it_was_planned_with(user, catalogue):
    from decks.engine_catalogue import catalogue_version

    run = _drifter_run(user)
    assert run.plan["catalogue_version"] == catalogue_version() >= 1
    # A game with fixed components plays with no catalogue: nothing to pin.
    assert "catalogue_version" not in make_run(user).plan
    run_execute_locally(run=run)
    run.refresh_from_db()
    assert run.status == "done" and run.games_done == 6


def test_a_run_whose_catalogue_changed_fails_instead_of_playing_other_cards(
    user, catalogue, settings
):
    from cards.models import CatalogueVersion

    settings.SIMULATION_CHUNK_SECONDS = 0.0001
    run = _drifter_run(user, games=8)
    assert run.chunk_count > 2
    first = SimulationChunk.objects.get(run=run, index=0)
    assert chunk_execute(chunk_id=first.pk, send_no=first.sends) == "done"
    # A set file is loaded while the run plays: the worker's catalogue would be another one.
    CatalogueVersion.objects.filter(pk=1).update(version=run.plan["catalogue_version"] + 1)
    second = SimulationChunk.objects.get(run=run, index=1)
    assert chunk_execute(chunk_id=second.pk, send_no=second.sends) == "failed"
    run.refresh_from_db()
    assert run.status == "failed" and "catalogue changed" in run.error
    assert run.games_done == first.end - first.start  # nothing played with the new cards
    assert SimulationChunk.objects.get(pk=second.pk).status == "failed"
    # Nothing more is sent, and a chunk already sent is skipped by the worker that gets it.
    assert not SimulationChunk.objects.filter(run=run, status="pending").exists()
    for chunk in SimulationChunk.objects.filter(run=run, status="queued"):
        assert chunk_execute(chunk_id=chunk.pk, send_no=chunk.sends) == "skipped"
    assert SimulationChunk.objects.filter(run=run, status="skipped").count() == run.chunk_count - 2
    run.refresh_from_db()
    assert run.status == "failed" and run.games_done == first.end - first.start


def test_a_plan_made_before_versions_were_pinned_plays_with_the_current_catalogue(user, catalogue):
    run = _drifter_run(user)
    plan = dict(run.plan)
    del plan["catalogue_version"]
    SimulationRun.objects.filter(pk=run.pk).update(plan=plan)
    run_execute_locally(run=run)
    run.refresh_from_db()
    assert run.status == "done" and run.games_done == 6


def test_a_starting_worker_loads_the_catalogue_so_its_first_chunk_does_not(
    catalogue, django_assert_num_queries
):
    from decks import engine_catalogue
    from simulator.games import service_for
    from simulator.runs.services import worker_warm

    engine_catalogue._cache.clear()  # a new worker process
    worker_warm()
    with django_assert_num_queries(1):  # the version check only: the catalogue is built
        service_for("drifter").catalogue()


def test_a_starting_web_server_loads_the_catalogue_and_reaches_the_broker(
    catalogue, django_assert_num_queries, monkeypatch
):
    from celery import current_app

    from decks import engine_catalogue
    from simulator.games import service_for
    from simulator.runs.services import submit_warm

    acquired = []
    real = current_app.producer_pool.acquire
    monkeypatch.setattr(
        current_app.producer_pool, "acquire", lambda **kw: acquired.append(kw) or real(**kw)
    )
    engine_catalogue._cache.clear()  # a new web process
    submit_warm()
    assert acquired
    with django_assert_num_queries(1):  # the version check only: the catalogue is built
        service_for("drifter").catalogue()


def test_a_web_server_starting_with_the_broker_down_starts_anyway(db, monkeypatch, caplog):
    from celery import current_app

    from simulator.runs.services import submit_warm

    def down(**kwargs):
        raise ConnectionRefusedError(111, "Connection refused")

    monkeypatch.setattr(current_app.producer_pool, "acquire", down)
    submit_warm()  # no exception: the first submission connects, and says so if it cannot
    assert "broker could not be reached" in caplog.text


def test_the_embedded_broker_hands_a_runs_chunks_out_in_their_order(
    user, settings, django_capture_on_commit_callbacks
):
    """kombu's filesystem transport orders messages by the millisecond they were written: the
    chunks a dispatch sends at once must not share one, or the run's last, halved chunks can
    be played first (and the workers then end apart)."""
    if not settings.CELERY_BROKER_URL.startswith("filesystem://"):
        pytest.skip("the embedded broker only")
    queue = f"order-{uuid.uuid4().hex[:8]}"
    settings.SIMULATION_QUEUE = queue
    settings.SIMULATION_CHUNK_SECONDS = 0.0001
    settings.SIMULATION_DISPATCH_WINDOW = 8
    settings.SIMULATION_WORKERS = 2
    with django_capture_on_commit_callbacks(execute=True):
        run = make_run(user, games=200)
    folder = Path(settings.CELERY_BROKER_TRANSPORT_OPTIONS["data_folder_in"])
    files = sorted(f for f in os.listdir(folder) if f.endswith(f".{queue}.msg"))
    try:
        sent = []
        for name in files:
            message = json.loads((folder / name).read_bytes())
            args, _kwargs, _embed = json.loads(base64.b64decode(message["body"]))
            sent.append(args[0])
    finally:
        for name in files:
            (folder / name).unlink()
    chunks = SimulationChunk.objects.filter(run=run).order_by("index")
    assert sent == list(chunks.values_list("pk", flat=True)[:8])
