"""Reads of the table: a person's games, scoped to their owner."""

from __future__ import annotations

from typing import Any

from django.db.models import Case, QuerySet, When
from django.http import Http404

from simulator.table.models import TableGame


def table_game_list(*, owner) -> QuerySet[TableGame]:
    """`owner`'s games at the table: unfinished first, then the most recently played."""
    if not getattr(owner, "is_authenticated", False):
        return TableGame.objects.none()
    return TableGame.objects.filter(owner=owner).order_by(
        Case(When(status=TableGame.Status.OVER, then=1), default=0), "-updated_at", "-id"
    )


def table_game_get(*, owner, pk: Any, for_update: bool = False) -> TableGame:
    """One of `owner`'s games at the table (locked for a write with `for_update`); Http404 for
    anyone else's."""
    if not getattr(owner, "is_authenticated", False):
        raise Http404("No such game.")
    rows = TableGame.objects.select_for_update() if for_update else TableGame.objects
    try:
        return rows.get(owner=owner, pk=int(pk))
    except (TableGame.DoesNotExist, ValueError, TypeError, OverflowError):
        raise Http404("No such game.") from None
