"""`manage.py table_games_prune`: abandoned unfinished games go, finished and recent ones stay."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from simulator.models import TableGame
from simulator.table.seating import table_game_create

pytestmark = pytest.mark.django_db


def _game(user, *, days_ago: int, over: bool = False) -> TableGame:
    seen = table_game_create(owner=user, game="quickdraw", seats=[{}, {"bot": "heuristic"}])
    status = TableGame.Status.OVER if over else TableGame.Status.PLAYING
    # `updated_at` is auto_now: set the past through the queryset, which does not touch it.
    TableGame.objects.filter(pk=seen.game.pk).update(
        status=status, updated_at=timezone.now() - timedelta(days=days_ago)
    )
    return seen.game


def test_only_unfinished_games_untouched_for_the_days_are_deleted(user, catalogue):
    old = _game(user, days_ago=40)
    recent = _game(user, days_ago=3)
    finished = _game(user, days_ago=400, over=True)
    out = StringIO()
    call_command("table_games_prune", "--days", "30", "--dry-run", stdout=out)
    assert out.getvalue().startswith("would delete 1 unfinished table game ")
    assert TableGame.objects.count() == 3
    out = StringIO()
    call_command("table_games_prune", "--days", "30", stdout=out)
    assert out.getvalue().startswith("deleted 1 unfinished table game ")
    assert set(TableGame.objects.values_list("pk", flat=True)) == {recent.pk, finished.pk}
    assert not TableGame.objects.filter(pk=old.pk).exists()


def test_days_below_one_is_refused_and_deletes_nothing(user, catalogue):
    _game(user, days_ago=40)
    with pytest.raises(CommandError, match="at least 1"):
        call_command("table_games_prune", "--days", "0")
    assert TableGame.objects.count() == 1


def test_a_table_still_waiting_for_players_is_pruned_like_an_unfinished_game(user, catalogue):
    from simulator.table.models import TableSeat
    from tests.factories import UserFactory

    friend = UserFactory()
    waiting = table_game_create(
        owner=user, game="quickdraw", seats=[{}, {"player": friend.username}]
    ).game
    fresh = table_game_create(owner=user, game="quickdraw", seats=[{}, {"open": True}]).game
    assert waiting.status == fresh.status == TableGame.Status.WAITING
    TableGame.objects.filter(pk=waiting.pk).update(updated_at=timezone.now() - timedelta(days=31))
    call_command("table_games_prune", "--days", "30", stdout=StringIO())
    assert list(TableGame.objects.values_list("pk", flat=True)) == [fresh.pk]
    assert not TableSeat.objects.filter(table_id=waiting.pk).exists()
