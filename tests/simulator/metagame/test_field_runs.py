"""Field runs (#28) played in-process to their answer: rounds of match runs placed by the
sampler, counts that add up, the stopping rule and the budget, failures in plain words, the
reconciler's tick, and the export (formula-safe CSV, JSON)."""

from __future__ import annotations

import csv
import io

import pytest

from cards.models import Card
from decks.selectors import deck_contents, deck_problems
from decks.services import deck_update
from simulator.games import deck_game
from simulator.metagame import pages
from simulator.metagame.models import FieldRun, FieldStage
from simulator.metagame.services import (
    STAGE_SAMPLE_RECORDS,
    field_create,
    field_run_advance,
    field_run_advance_for_run,
    field_run_create,
    field_run_execute_locally,
    field_update,
)
from simulator.runs.models import SimulationRun
from simulator.runs.services import (
    run_cancel,
    run_create,
    run_execute_locally,
    runs_reconcile_due,
)
from tests.simulator.metagame.test_fields_api import legal_deck

pytestmark = pytest.mark.django_db

S1, S2 = {"starter": "HSD-S1", "share": 1}, {"starter": "HSD-S2", "share": 1}
#: Three decks close enough that a confidence of 0.99 is not reached in 600 games (seed 5).
CLOSE = [S1, S2, {**S2, "bot": "sharp"}]
#: The random bot's deck loses nearly every game: round 0 settles the best deck.
CLEAR = [{**S1, "share": 2}, S2, {**S1, "bot": "random"}]


def played(owner, *, entries, seed: int = 5, **extra) -> FieldRun:
    values = {"name": "Saturday night", "bot": "heuristic", "budget": 600, **extra}
    field = field_create(owner=owner, entries=entries, **values)
    field_run, _ = field_run_create(field=field, seed=seed)
    return field_run_execute_locally(field_run=field_run)


def assert_counts_add_up(field_run: FieldRun) -> None:
    """Symmetric games, wins (ties halved) summing to each pair's games, no mirror games, and
    every game of every stage run counted once; games reused from an earlier run apart (this
    run's stage runs played exactly its `games_spent`, the counts hold those and the reused)."""
    wins, games = field_run.counts["wins"], field_run.counts["games"]
    n = len(field_run.entries)
    for i in range(n):
        assert games[i][i] == 0 and wins[i][i] == 0
        for j in range(n):
            assert games[i][j] == games[j][i]
            if i != j:
                assert wins[i][j] + wins[j][i] == games[i][j]
    reused = field_run.counts.get("reused", {}).get("reused_games", 0)
    runs = SimulationRun.objects.filter(field_stage__field_run=field_run)
    pairs = sum(games[i][j] for i in range(n) for j in range(i + 1, n))
    assert field_run.games_spent == sum(r.games_done for r in runs)
    assert pairs == field_run.games_spent + reused
    assert field_run.games_spent <= field_run.budget


def test_a_field_of_three_decks_plays_rounds_to_its_answer(user_client, user, catalogue):
    field_run = played(user, entries=CLOSE, confidence=0.99)
    assert field_run.status == "done", field_run.error
    assert_counts_add_up(field_run)
    result = field_run.result
    # Close decks at 0.99: the sampler's rounds spend the whole budget without settling it.
    assert result["stopped_by"] == "budget" and field_run.games_spent == 600
    assert result["games"] == 600 and result["rounds"] == field_run.round + 1 > 2
    assert result["decks"] == ["Boomtown Law", "Frontier Patrol (heuristic)",
                               "Frontier Patrol (sharp)"]  # fmt: skip
    assert [t["tier"] for t in result["tiers"]] == sorted(t["tier"] for t in result["tiers"])
    assert {t["deck"] for t in result["tiers"]} == {0, 1, 2}
    assert len(result["cells"]) == 3 and all(len(row) == 3 for row in result["cells"])
    assert result["cells"][0][1]["games"] == field_run.counts["games"][0][1]
    assert abs(sum(result["nash"]["weights"]) - 1) < 1e-9
    assert result["verdict"]["target"] == "best" and result["verdict"]["certainty"] < 0.99
    # Each round's runs are its allocation: round 0 even, a fifth of the budget; the later
    # rounds where the sampler put them, a pair given no games given no run.
    assert field_run.rounds[0]["games"] == [[0, 40, 40], [40, 0, 40], [40, 40, 0]]
    for rnd in field_run.rounds:
        stages = FieldStage.objects.filter(field_run=field_run, round=rnd["round"])
        given = {(i, j) for i in range(3) for j in range(i + 1, 3) if rnd["games"][i][j]}
        assert {(s.i, s.j) for s in stages} == given
        assert all(s.run.games == rnd["games"][s.i][s.j] for s in stages)
    assert any(r["games"] != field_run.rounds[1]["games"] for r in field_run.rounds[2:])
    # A pair's run seats the two decks alternately: each goes first in half of the games.
    for stage in FieldStage.objects.filter(field_run=field_run):
        first = stage.run.aggregate["matchups"][0]["positions"][0]
        assert abs(2 * first["first_games"] - stage.run.games) <= 1
    answer = user_client.get(f"/api/v1/field-runs/{field_run.pk}/").json()
    assert answer["status"] == "done" and answer["progress"] == 1.0
    assert answer["result"]["tiers"] == result["tiers"] and answer["counts"] == field_run.counts


def test_a_rounds_stage_runs_are_one_chunk_each_longest_first_keeping_two_games(
    user, catalogue, settings
):
    """A round's stage runs share the workers (one chunk each, not one a worker each), are sent
    longest first (a round waits for its last chunk), and keep
    STAGE_SAMPLE_RECORDS replayable games, not a run's twenty: a recorded game costs about
    twice an unrecorded one, and a field plays dozens of stage runs a round."""
    settings.SIMULATION_WORKERS = 2
    field_run = played(user, entries=CLOSE, confidence=0.99)
    runs = SimulationRun.objects.filter(field_stage__field_run=field_run)
    assert runs.count() > 3
    for run in runs:
        assert run.chunk_count == 1, (run.games, run.chunk_count)
        assert run.samples.count() == min(STAGE_SAMPLE_RECORDS, run.games)
    assert sum(run.games > STAGE_SAMPLE_RECORDS for run in runs) > 3  # the cap is what holds
    # each round's runs are made (and so sent to the workers) longest first
    for rnd in range(field_run.round + 1):
        games = list(
            runs.filter(field_stage__round=rnd).order_by("pk").values_list("games", flat=True)
        )
        assert games == sorted(games, reverse=True)
    assert len({g for rnd in field_run.rounds for row in rnd["games"] for g in row}) > 2


def test_a_clear_answer_stops_by_the_rule_before_the_budget(user, catalogue):
    field_run = played(user, entries=CLEAR, budget=300)
    assert field_run.status == "done", field_run.error
    assert_counts_add_up(field_run)
    result = field_run.result
    assert result["stopped_by"] == "rule" and field_run.round == 0
    assert field_run.games_spent == 60 < field_run.budget  # round 0 only: a fifth of 300
    assert result["verdict"]["answer"] == [0] and result["verdict"]["certainty"] >= 0.95
    assert result["best_response"]["deck"] == 0 and result["tiers"][0]["deck"] == 0
    assert result["tiers"][-1]["deck"] == 2  # the random bot's deck, last


def test_the_mix_nobody_can_exploit_is_a_question_of_its_own(user, catalogue):
    # (a random bot's deck loses nearly every game: its pairs settle the mix within the budget,
    # where the sharp bot against the heuristic on the same deck is too close to call in 600)
    field_run = played(user, entries=CLEAR, target="support", confidence=0.99)
    assert field_run.status == "done", field_run.error
    assert_counts_add_up(field_run)
    verdict = field_run.result["verdict"]
    assert verdict["target"] == "support" and field_run.result["stopped_by"] == "rule"
    assert verdict["answer"] == field_run.result["nash"]["support"]


def test_the_same_seed_plays_the_same_field_run(user, catalogue):
    one = played(user, entries=CLOSE, budget=300, seed=9)
    two = played(user, entries=CLOSE, budget=300, seed=9)
    assert one.counts == two.counts and one.rounds == two.rounds
    assert one.result == two.result


def test_a_stage_run_that_does_not_finish_fails_the_field_run(user, catalogue):
    field = field_create(owner=user, name="F", bot="heuristic", budget=300, entries=CLOSE)
    field_run, _ = field_run_create(field=field, seed=1)
    stages = list(field_run.stages.order_by("i", "j"))
    run_cancel(run=stages[0].run)
    for stage in stages[1:]:
        run_execute_locally(run=stage.run)
    assert field_run_advance(field_run_id=field_run.pk) == 1
    field_run.refresh_from_db()
    assert field_run.status == "failed" and field_run.result is None
    assert field_run.error == (
        "The games of Boomtown Law against Frontier Patrol (heuristic) did not finish: it was "
        "cancelled."
    )
    assert field_run_advance(field_run_id=field_run.pk) == 0


def edit_keeping_it_legal(deck) -> None:
    """One copy of a common of the deck swapped for a common it lacks: a legal deck still."""
    cards, _chips = deck_contents(deck)
    shrink = next(code for code, qty in cards.items() if qty == 3)
    commons = Card.objects.filter(card_set__code="HSD", rarity="common").exclude(code__in=cards)
    for grow in commons.values_list("code", flat=True):
        deck_update(deck=deck, cards={**cards, shrink: 2, grow: 1})
        if not deck_problems(deck):
            return
    raise AssertionError("no common keeps the deck legal")


def test_a_deck_edited_while_its_field_run_plays_fails_the_run(user, catalogue):
    deck = legal_deck(user, "Boomtown copy")
    entries = [S1, S2, {"deck": deck.pk, "share": 1, "bot": "sharp"}]
    field = field_create(owner=user, name="F", bot="heuristic", budget=600, confidence=0.999,
                         entries=entries)  # fmt: skip
    field_run, _ = field_run_create(field=field, seed=5)
    for stage in field_run.stages.all():
        run_execute_locally(run=stage.run)
    edit_keeping_it_legal(deck)
    assert field_run_advance(field_run_id=field_run.pk) == 1
    field_run.refresh_from_db()
    assert field_run.status == "failed" and field_run.round == 0
    assert field_run.error == (
        "Boomtown copy changed while the field run played: start a new run to play the field "
        "as it is now."
    )
    assert not field_run.stages.filter(round=1).exists()


def test_editing_the_field_leaves_its_runs_as_they_started(user, catalogue):
    field = field_create(owner=user, name="F", bot="heuristic", budget=300, entries=CLEAR)
    field_run, _ = field_run_create(field=field, seed=3)
    field_update(field=field, entries=[S1, S2], budget=5000, confidence=0.8)
    field_run = field_run_execute_locally(field_run=field_run)
    assert field_run.status == "done", field_run.error
    assert len(field_run.entries) == 3 and field_run.budget == 300
    assert field_run.confidence == 0.95 and len(field_run.result["decks"]) == 3


def test_the_reconciler_tick_advances_a_field_run_whose_hook_was_lost(user, catalogue):
    field = field_create(owner=user, name="F", bot="heuristic", budget=600, confidence=0.999,
                         entries=CLOSE)  # fmt: skip
    field_run, _ = field_run_create(field=field, seed=5)
    for stage in field_run.stages.all():
        run_execute_locally(run=stage.run)  # on_commit hooks do not fire in a test
    field_run.refresh_from_db()
    assert field_run.round == 0
    assert runs_reconcile_due()["metagames"] == 1
    field_run.refresh_from_db()
    assert field_run.round == 1 and field_run.stages.filter(round=1).exists()
    assert field_run.status == "running" and field_run.games_spent == 120
    assert runs_reconcile_due()["metagames"] == 0  # round 1's runs are still to play


def test_a_run_that_is_no_field_runs_stage_advances_nothing(user, catalogue):
    from simulator.runs.services import run_create

    run, _ = run_create(owner=user, game="quickdraw", games=2, seed=1,
                        players=[{"bot": "random"}, {"bot": "random"}], dispatch=False)  # fmt: skip
    run_execute_locally(run=run)
    field_run_advance_for_run(run_id=run.pk)  # nothing to advance, nothing raised
    assert not FieldRun.objects.exists()


def test_the_export_is_formula_safe_csv_or_json(user_client, user, catalogue):
    sneaky = legal_deck(user, "=cmd()")
    field_run = played(user, entries=[{"deck": sneaky.pk, "share": 1}, S2], budget=200)
    assert field_run.status == "done", field_run.error
    url = f"/api/v1/field-runs/{field_run.pk}/export/"
    response = user_client.get(url)
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    assert response["Content-Disposition"] == 'attachment; filename="saturday-night.csv"'
    text = b"".join(response.streaming_content).decode()
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == ["kind", "deck", "opponent", "estimate", "low", "high", "games", "share",
                       "p_best", "tier"]  # fmt: skip
    assert [r[:3] for r in rows[1:]] == [
        ["deck", "'=cmd()", ""], ["deck", "Frontier Patrol", ""],
        ["pair", "'=cmd()", "Frontier Patrol"], ["pair", "Frontier Patrol", "'=cmd()"],
    ]  # fmt: skip
    assert not any(cell.startswith("=") for row in rows for cell in row)
    games = field_run.counts["games"][0][1]
    assert rows[3][6] == rows[4][6] == str(games) and rows[1][6] == str(games)
    assert float(rows[3][3]) + float(rows[4][3]) == pytest.approx(1.0)
    body = user_client.get(f"{url}?as=json")
    assert body.status_code == 200 and body["Content-Type"] == "application/json"
    export = body.json()
    assert export["labels"] == ["=cmd()", "Frontier Patrol"]  # JSON keeps the name as it is
    assert export["matrix"][0][0]["mirror"] and export["matrix"][0][1]["games"] == games
    assert [d["deck"] for d in export["decks"]] == export["labels"]
    assert export["games"] == field_run.games_spent and export["stopped_by"] in ("rule", "budget")


def test_a_field_runs_stages_leave_the_owner_room_for_runs_of_their_own(user, catalogue, settings):
    """A field run counts as one of the owner's field runs, not as its stage runs: with a field
    of four decks (six stage runs going) the owner can still start the runs they may have."""
    settings.SIMULATION_MAX_ACTIVE_RUNS = 2
    entries = [S1, S2, {**S1, "bot": "random"}, {**S2, "bot": "random"}]
    field = field_create(owner=user, name="Four", entries=entries, budget=600, bot="heuristic")
    field_run, _ = field_run_create(field=field, seed=3)
    assert (
        SimulationRun.objects.filter(field_stage__field_run=field_run, status="queued").count() == 6
    )
    players = [{"starter": "HSD-S1"}, {"starter": "HSD-S2"}]
    for _ in range(2):
        run_create(owner=user, game="drifter", players=players, games=10, dispatch=False)


# --- reusing an earlier run's games (a deck not in the field: only its row is played) -------


NEW_DECK = {"starter": "HSD-S2", "bot": "random", "share": 1}


def first_round_pairs(field_run: FieldRun) -> set[tuple[int, int]]:
    return {(s.i, s.j) for s in FieldStage.objects.filter(field_run=field_run, round=0)}


def test_a_new_deck_plays_only_its_row_and_reuses_the_rest(user, catalogue):
    field = field_create(owner=user, name="F", bot="heuristic", budget=600, confidence=0.99,
                         entries=CLOSE)  # fmt: skip
    old, _ = field_run_create(field=field, seed=5)
    old = field_run_execute_locally(field_run=old)
    assert old.status == "done", old.error
    assert "reused" not in old.counts and "reused" not in old.result
    field_update(field=field, entries=[*CLOSE, NEW_DECK])
    new, _ = field_run_create(field=field, seed=5)
    assert first_round_pairs(new) == {(0, 3), (1, 3), (2, 3)}
    # As many games a new pair as a first round of the whole field gives: 120 over 6 pairs.
    assert new.rounds[0]["games"][0][3] == 20 and new.rounds[0]["games"][0][1] == 0
    new = field_run_execute_locally(field_run=new)
    assert new.status == "done", new.error
    assert_counts_add_up(new)
    reused = new.counts["reused"]
    assert reused["reused_from"] == old.pk and reused["new_decks"] == [3]
    assert reused["reused_pairs"] == [[0, 1], [0, 2], [1, 2]]
    assert reused["reused_games"] == old.games_spent == 600
    for i, j in reused["reused_pairs"]:
        assert new.counts["games"][i][j] >= old.counts["games"][i][j]
        assert new.counts["wins"][i][j] >= old.counts["wins"][i][j]
    assert new.result["reused"] == reused and new.result["games"] == new.games_spent
    text = pages.result_page(new)["summary"]["reused"]
    assert text.startswith("Reused 600 games of the run of ")
    row = "Frontier Patrol (random bot)'s row."
    assert text.endswith(f"played {new.games_spent:,} new ones for {row}")


def test_reuse_false_plays_every_pair(user, catalogue):
    field = field_create(owner=user, name="F", bot="heuristic", budget=300, entries=CLEAR)
    field_run_execute_locally(field_run=field_run_create(field=field, seed=3)[0])
    field_update(field=field, entries=[*CLEAR, NEW_DECK])
    new, _ = field_run_create(field=field, seed=3, reuse=False)
    assert len(first_round_pairs(new)) == 6 and "reused" not in new.counts
    assert sum(map(sum, new.counts["games"])) == 0


def test_the_same_field_again_reuses_everything_and_plays_nothing_new(user, catalogue):
    field = field_create(owner=user, name="F", bot="heuristic", budget=300, entries=CLEAR)
    old = field_run_execute_locally(field_run=field_run_create(field=field, seed=5)[0])
    assert old.result["stopped_by"] == "rule" and old.games_spent == 60
    again, _ = field_run_create(field=field, seed=5)
    again.refresh_from_db()
    assert again.status == "done" and again.games_spent == 0 and not again.stages.exists()
    assert again.counts["games"] == old.counts["games"]
    assert again.result["reused"]["reused_games"] == 60 and again.result["rounds"] == 0
    assert again.result["best_response"]["deck"] == old.result["best_response"]["deck"]
    assert pages.result_page(again)["summary"]["reused"].endswith("nothing new needed playing.")
    # A run that reused everything is itself a run to reuse from: same catalogue, same decks.
    third, _ = field_run_create(field=field, seed=5)
    third.refresh_from_db()
    assert third.counts["reused"]["reused_from"] == again.pk and third.games_spent == 0


def test_a_deck_edited_between_runs_is_not_reused(user, catalogue):
    deck = legal_deck(user, "Boomtown copy")
    entries = [S1, S2, {"deck": deck.pk, "share": 1, "bot": "sharp"}]
    field = field_create(owner=user, name="F", bot="heuristic", budget=300, entries=entries)
    old = field_run_execute_locally(field_run=field_run_create(field=field, seed=5)[0])
    assert old.status == "done", old.error
    edit_keeping_it_legal(deck)
    new, _ = field_run_create(field=field, seed=5)
    assert first_round_pairs(new) == {(0, 2), (1, 2)}
    assert new.counts["reused"]["reused_pairs"] == [[0, 1]]
    assert new.counts["reused"]["new_decks"] == [2]
    assert new.counts["games"][0][2] == 0 and new.counts["games"][0][1] == old.counts["games"][0][1]


def test_a_different_card_catalogue_is_not_reused(user, catalogue, monkeypatch):
    field = field_create(owner=user, name="F", bot="heuristic", budget=300, entries=CLEAR)
    old = field_run_execute_locally(field_run=field_run_create(field=field, seed=3)[0])
    assert old.status == "done", old.error
    version = deck_game().catalogue_version()
    monkeypatch.setattr(type(deck_game()), "catalogue_version", lambda self: (version or 0) + 1)
    new, _ = field_run_create(field=field, seed=3)
    assert len(first_round_pairs(new)) == 3 and "reused" not in new.counts


def test_a_reused_run_is_reproducible_given_the_same_earlier_run(user, catalogue):
    field = field_create(owner=user, name="F", bot="heuristic", budget=300, entries=CLOSE)
    old = field_run_execute_locally(field_run=field_run_create(field=field, seed=9)[0])
    field_update(field=field, entries=[*CLOSE, NEW_DECK])
    one = field_run_execute_locally(field_run=field_run_create(field=field, seed=9)[0])
    # A second run would reuse `one`, the latest done run: marked failed, it is passed over
    # (only done runs are reused), so `two` reuses `old` as `one` did.
    FieldRun.objects.filter(pk=one.pk).update(status="failed")
    two = field_run_execute_locally(field_run=field_run_create(field=field, seed=9)[0])
    assert one.counts["reused"]["reused_from"] == two.counts["reused"]["reused_from"] == old.pk
    assert one.rounds == two.rounds and one.games_spent == two.games_spent
    assert one.counts["wins"] == two.counts["wins"] and one.counts["games"] == two.counts["games"]
