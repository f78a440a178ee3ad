"""`python manage.py replay FILE`: verify a game record and print the game narrated.

The file is a record, or the envelope the table's API serves (`GET /api/v1/games/{id}/record/`:
`id`, `game`, `result`, `stand_in_moves`, `record`), whose record is replayed and whose
decisions made by a bot for a person are listed. The game is the record's `game` field, looked
up in the engine's registry (drifter, gunfighter, duel, quickdraw, tabletown). Exits non-zero
with a clear message when the file is not a record, names no known game, or is corrupt,
tampered with or illegal.
"""

from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from simulator.engine.core.errors import EngineError
from simulator.engine.core.record import GameRecord
from simulator.games import service_for


class Command(BaseCommand):
    help = "Replay a game record (verifying it) and print the narrated log."

    def add_arguments(self, parser) -> None:
        parser.add_argument("file")

    def handle(self, *args, **opts) -> None:
        path = Path(opts["file"])
        try:
            record = json.loads(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise CommandError(f"cannot read {path}: {exc.strerror}") from None
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise CommandError(f"{path} is not JSON: {exc}") from None
        envelope = _envelope(record)
        if envelope is not None:
            record = envelope["record"]
        try:
            # Shape, version and checksum first: an edited `game` is a tampered record.
            game = GameRecord.from_json(record).game
        except EngineError as exc:
            raise CommandError(f"{path} does not replay: {exc}") from None
        if not isinstance(game, str):
            raise CommandError(f"{path} does not replay: its game is {game!r}, not a name")
        try:
            service = service_for(game)
        except EngineError as exc:
            raise CommandError(f"{path} is a record of no game here: {exc}") from None
        try:
            lines = service.narrate(record)
        except EngineError as exc:
            raise CommandError(f"{path} does not replay: {exc}") from None
        except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
            # A re-signed forgery the game's own checks did not catch: still refused.
            raise CommandError(f"{path} does not replay: {exc!r}") from None
        for line in lines:
            self.stdout.write(line)
        for mark in (envelope or {}).get("stand_in_moves") or []:
            self.stdout.write(
                f"Decision {mark['move'] + 1} (seat {mark['seat'] + 1}) was made by the "
                f"{mark['bot']} bot for its player ({mark['why']})."
            )
        final = record.get("final")
        if final is None and envelope is not None:
            self.stdout.write(
                f"Verified: the record replays; the table ended it: {envelope['result']}."
            )
        else:
            self.stdout.write(f"Verified: the record replays to {final}.")


def _envelope(data: object) -> dict | None:
    """The table API's envelope around a record, or None for a bare record."""
    if isinstance(data, dict) and isinstance(data.get("record"), dict) and "events" not in data:
        return data
    return None
