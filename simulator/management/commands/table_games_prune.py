"""`manage.py table_games_prune`: delete table games abandoned unfinished (docs/operations.md)."""

from __future__ import annotations

from datetime import timedelta

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from simulator.table.models import TableGame


class Command(BaseCommand):
    help = (
        "Delete unfinished table games nobody has moved in for --days days (30 by default). "
        "Finished games keep their record; --dry-run only counts."
    )

    def add_arguments(self, parser):
        parser.add_argument("--days", type=int, default=30, help="Untouched for this many days.")
        parser.add_argument("--dry-run", action="store_true", help="Count, delete nothing.")

    def handle(self, *args, **opts):
        if opts["days"] < 1:
            raise CommandError("--days is a whole number of days, at least 1.")
        cutoff = timezone.now() - timedelta(days=opts["days"])
        stale = TableGame.objects.filter(
            status__in=[TableGame.Status.WAITING, TableGame.Status.PLAYING], updated_at__lt=cutoff
        )
        count = stale.count()
        if not opts["dry_run"]:
            stale.delete()
        verb = "would delete" if opts["dry_run"] else "deleted"
        self.stdout.write(
            f"{verb} {count} unfinished table game{'s' if count != 1 else ''} "
            f"untouched since {cutoff:%Y-%m-%d %H:%M} UTC"
        )
