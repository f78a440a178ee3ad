"""Reads of the bots' ladder: public (bots are nobody's data), newest first."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404

from simulator.engine.core.registry import games
from simulator.ladder.models import BotLadder


def ladder_list(*, game: str | None = None) -> QuerySet[BotLadder]:
    """Every ladder (of `game`), newest first."""
    ladders = BotLadder.objects.prefetch_related("runs")
    return ladders.filter(game=game) if game else ladders


def ladder_get(*, pk: Any) -> BotLadder:
    """One ladder; Http404 for a `pk` that is no ladder's."""
    try:
        return ladder_list().get(pk=int(pk))
    except (BotLadder.DoesNotExist, ValueError, TypeError):
        raise Http404("No such ladder.") from None


def ladders_by_game() -> list[dict[str, Any]]:
    """Per registered game, in the engine's order: its title, its latest rated ladder (or None)
    and whether a newer one is being built."""
    latest: dict[str, BotLadder] = {}
    building: set[str] = set()
    for ladder in BotLadder.objects.defer("entrants").order_by("-created_at", "-id"):
        if ladder.is_active:
            building.add(ladder.game)
        elif ladder.status == BotLadder.Status.DONE:
            latest.setdefault(ladder.game, ladder)
    return [
        {"game": name, "title": spec.title, "ladder": latest.get(name),
         "building": name in building}
        for name, spec in games().items()
    ]  # fmt: skip


def ladder_text(ladder: BotLadder) -> str:
    """The ladder as plain text (the `bots_ladder` command prints it)."""
    head = f"Ladder {ladder.pk} of {ladder.game}: {ladder.status}"
    if ladder.result is None:
        return f"{head}. {ladder.error}".rstrip()
    result = ladder.result
    decks = f" on {' and '.join(result['decks'])}" if result["decks"] else ""
    lines = [
        f"{head}, {result['games']:,} games{decks}, runs {', '.join(map(str, result['runs']))}",
        f"{'#':>2} {'bot':28} {'rating [95%]':>22} {'games':>7} {'W':>6} {'L':>6} {'T':>5}"
        f" {'ms/decision':>11}",
    ]
    for row in result["entrants"]:
        ms = "-" if row["ms_per_decision"] is None else f"{row['ms_per_decision']:.3g}"
        lines.append(
            f"{row['rank']:>2} {row['label'][:28]:28} {row['rating']:>7.0f} "
            f"[{row['low']:>5.0f}, {row['high']:>5.0f}] {row['games']:>7} {row['wins']:>6} "
            f"{row['losses']:>6} {row['ties']:>5} {ms:>11}"
        )
    lines.append("Chance the row's bot is the stronger (bootstrap):")
    for row, cells in zip(result["entrants"], result["superiority"]):
        shown = " ".join("  -  " if c is None else f"{c:5.2f}" for c in cells)
        lines.append(f"   {row['label'][:28]:28} {shown}")
    lines.append(result["method"])
    return "\n".join(lines)
