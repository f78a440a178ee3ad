"""Reads of the deck doctor: a run scoped to its owner, and the kept game that shows a swap."""

from __future__ import annotations

from typing import Any

from django.apps import apps
from django.db.models import Q, QuerySet
from django.shortcuts import get_object_or_404

from simulator.doctor.models import DoctorRun, DoctorStage
from simulator.games import deck_game
from simulator.runs.followers import Part, rounds_of
from simulator.runs.headlines import BotUsed, measured_with
from simulator.runs.models import GameSample, SimulationRun


def stage_parts(run_ids: list[int]) -> dict[int, Part]:
    """What each stage run among `run_ids` is part of: "Round 2 of the deck doctor of Boomtown
    Law", with the link to that doctor run (the runs' follower hook)."""
    stages = DoctorStage.objects.filter(run_id__in=run_ids).select_related("doctor__deck")
    words = lambda stage: f"the deck doctor of {stage.doctor.deck.name}"  # noqa: E731
    return rounds_of(
        stages, words, "doctor_run", "doctor_id", ("simulator:doctor", "api:doctor-detail")
    )


def doctor_get(*, owner, pk: Any) -> DoctorRun:
    """One of `owner`'s deck doctor runs (another user's is a 404)."""
    return get_object_or_404(DoctorRun.objects.filter(owner=owner).select_related("deck"), pk=pk)


# A field's most decks: the metagame lab's MAX_DECKS (tests/simulator/test_doctor_field.py checks
# they agree); the doctor plays a field of up to this many decks instead of MAX_OPPONENTS.
FIELD_MAX_DECKS = 16


def visible_fields(*, user) -> QuerySet[Any]:
    """The metagame lab's fields `user` may doctor a deck against: theirs and everyone's public
    ones (the lab's own rule, metagame/selectors.py `field_visible`). The lab is a room beside
    the doctor's and rooms never import each other (docs/architecture.md), so its table is
    read through Django's app registry."""
    field = apps.get_model("simulator", "Field")
    return field.objects.filter(Q(owner=user) | Q(public=True)).select_related("owner")


def doctor_bots(doctor: DoctorRun) -> list[BotUsed]:
    """The bots its swaps were measured with: the doctor's `bot` for the deck, then the
    gauntlet's (an opponent without one: the game's default bot), each once."""
    default = deck_game().default_bot()
    players = [
        {"bot": doctor.bot, "budget": doctor.bot_budget},
        *({"bot": g.get("bot") or default, "budget": g.get("budget")} for g in doctor.gauntlet),
    ]
    return measured_with(players)


def doctor_swap_runs(doctor: DoctorRun) -> list[int]:
    """The runs that proved the doctor's swaps (each significant swap's `run`), every step."""
    result = doctor.result or {}
    steps = result.get("steps") or [result]
    return [s["run"] for step in steps for s in step.get("swaps", []) if s["significant"]]


def doctor_replay_sample(run: SimulationRun) -> GameSample | None:
    """A kept game of a doctor's what-if run that shows the difference: the changed deck's
    game (against the first opponent) whose result differs from the unchanged deck's on the
    same seed, a win it gained first; None when every kept pair ended alike."""

    def won(sample: GameSample, player: int) -> bool:
        final = sample.final or {}
        winners = final.get("winners")
        if winners is None:
            winners = [] if final.get("winner") is None else [final["winner"]]
        return any(sample.seats[w] == player for w in winners)

    samples = {(s.matchup, s.index): s for s in run.samples.filter(matchup__in=[0, 1])}
    differing = []
    for (matchup, index), changed in sorted(samples.items()):
        unchanged = samples.get((0, index))
        if matchup != 1 or unchanged is None:
            continue
        if won(changed, 1) != won(unchanged, 0):
            differing.append((not won(changed, 1), index, changed))
    return min(differing, key=lambda d: d[:2])[2] if differing else None
