"""`python manage.py replay FILE`: verify a game record and print the game narrated.

Exits non-zero with a clear message when the record is corrupt, tampered with or illegal.
"""

from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from simulator.engine.core.errors import EngineError


class Command(BaseCommand):
    help = "Replay a game record (verifying it) and print the narrated log."

    def add_arguments(self, parser) -> None:
        parser.add_argument("file")

    def handle(self, *args, **opts) -> None:
        from simulator.engine.drifter.narrate import narrate

        path = Path(opts["file"])
        try:
            record = json.loads(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise CommandError(f"cannot read {path}: {exc.strerror}") from None
        except json.JSONDecodeError as exc:
            raise CommandError(f"{path} is not JSON: {exc}") from None
        try:
            lines = narrate(record)
        except EngineError as exc:
            raise CommandError(f"{path} does not replay: {exc}") from None
        for line in lines:
            self.stdout.write(line)
        self.stdout.write(f"Verified: the record replays to {record.get('final')}.")
