"""`manage.py simulation_reconcile`: re-send chunks that went missing (once, or every N s)."""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand

from simulator.runs.services import run_reconcile


class Command(BaseCommand):
    help = "Re-send lost chunks of active simulation runs; --every N keeps doing it."

    def add_arguments(self, parser):
        parser.add_argument("--every", type=float, default=0, help="Repeat every N seconds.")

    def handle(self, *args, **opts):
        while True:
            counts = run_reconcile()
            self.stdout.write(
                f"re-sent {counts['resent']}, failed {counts['failed']}, "
                f"dispatched {counts['dispatched']}"
            )
            if not opts["every"]:
                return
            time.sleep(opts["every"])
