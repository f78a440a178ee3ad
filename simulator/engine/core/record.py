"""Game records: the JSON document that replays a game exactly. Format: docs/game-record.md."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from simulator.engine.core.errors import RecordError

RECORD_VERSION = 3
# Older records still read, and replay as they were played: version 1 (before High Stakes
# Drifter's `first_player` rule and richer final) and version 2 (before its `rulings`: its rules
# without them are the legacy rulings). The small games' records are the same in all three.
READABLE_VERSIONS = (1, 2, 3)


def canonical_json(data: Any) -> str:
    """JSON with sorted keys and no spaces: the form the checksum is taken over."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@dataclass
class GameRecord:
    """A game's header and its event log.

    `events` holds, in the order they happened, decisions `["act", seat, action_json]` and
    chance outcomes `["shuffle"|"roll"|"pick", label, value]`.
    """

    game: str
    rules: dict
    seats: list[dict]
    seed: int
    events: list = field(default_factory=list)
    final: dict | None = None
    version: int = RECORD_VERSION

    def to_json(self) -> dict:
        """The record as a JSON-able dict with a checksum over everything else. Its list of
        events is its own: a state's grows as the game goes on, the record must not."""
        body = {
            "version": self.version,
            "game": self.game,
            "rules": self.rules,
            "seats": self.seats,
            "seed": self.seed,
            "events": list(self.events),
            "final": self.final,
        }
        body["checksum"] = hashlib.sha256(canonical_json(body).encode()).hexdigest()
        return body

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        """Parse and verify a record; RecordError if malformed or its checksum does not match."""
        if not isinstance(data, dict):
            raise RecordError("a game record is a JSON object")
        if data.get("version") not in READABLE_VERSIONS:
            raise RecordError(f"unsupported record version {data.get('version')!r}")
        missing = {"game", "rules", "seats", "seed", "events", "checksum"} - data.keys()
        if missing:
            raise RecordError(f"record lacks {', '.join(sorted(missing))}")
        body = {k: v for k, v in data.items() if k != "checksum"}
        digest = hashlib.sha256(canonical_json(body).encode()).hexdigest()
        if digest != data["checksum"]:
            raise RecordError("checksum mismatch: the record was altered after it was written")
        if not isinstance(data["events"], list) or not isinstance(data["seats"], list):
            raise RecordError("events and seats must be lists")
        if not isinstance(data["rules"], dict) or type(data["seed"]) is not int:
            raise RecordError("rules must be an object and seed an integer")
        return cls(
            game=data["game"],
            rules=data["rules"],
            seats=data["seats"],
            seed=data["seed"],
            events=data["events"],
            final=data.get("final"),
            version=data["version"],
        )
