"""A draft's test run: the deck a person drafted against every bot's deck of the pod, as an
ordinary gauntlet run (simulator.runs), so it is checked, chunked, dispatched and reported like
any run."""

from __future__ import annotations

from django.db import transaction

from decks.models import DraftPod
from decks.services import draft_bot_decks_build
from simulator.games import deck_game
from simulator.games.problems import refuse
from simulator.runs.models import SimulationRun
from simulator.runs.services import run_create

DRAFT_RUN_GAMES = 200


@transaction.atomic
def draft_run_create(
    *,
    owner,
    pod,
    games: int = DRAFT_RUN_GAMES,
    seed: int | None = None,
    bot: str = "",
    idempotency_key: str | None = None,
) -> tuple[SimulationRun, bool]:
    """Test `owner`'s deck from a finished draft pod against every bot's deck of the pod: a
    Draw gauntlet (their deck against each bot deck, heads-up) made by `run_create`, so it is
    checked, chunked, dispatched and reported like any run. Returns (run, created).

    The person's deck is the one the draft gave them (seat.deck, in their decks); the bots'
    decks are read from the pod (`{"draft_bot": {pod, seat}}` players), never copied.
    """
    if idempotency_key:
        existing = SimulationRun.objects.filter(
            owner=owner, idempotency_key=idempotency_key
        ).first()
        if existing is not None:
            return existing, False
    if pod.status != DraftPod.Status.DONE:
        raise refuse(
            "The draft is not over: the bots' decks are hidden until it ends.",
            code="draft_not_over",
        )
    mine = pod.seat_set.filter(user=owner).first()
    if mine is None:
        raise refuse("You have no seat at this pod.", code="not_seated")
    if mine.deck_id is None:
        raise refuse(
            "Your deck from this draft was deleted; there is nothing to test.",
            code="no_draft_deck",
        )
    draft_bot_decks_build(pod=pod)  # a pod that ended before bot decks were kept
    bots = list(pod.seat_set.filter(user__isnull=True).values_list("number", flat=True))
    if not bots:
        raise refuse("Every seat at this pod was a person: there are no bots.", code="no_bots")
    bot = bot or deck_game().default_bot()
    players = [{"deck": mine.deck_id, "bot": bot}] + [
        {"draft_bot": {"pod": pod.pk, "seat": n}, "bot": bot} for n in sorted(bots)
    ]
    return run_create(
        owner=owner,
        game=deck_game().name,
        kind=SimulationRun.Kind.GAUNTLET,
        format="draw",
        players=players,
        games=games,
        seed=seed,
        idempotency_key=idempotency_key,
    )
