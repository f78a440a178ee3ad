"""The replay viewer: a game record stepped one action at a time on the game's own table.

Step `k` is the game as it stood after its first `k` decisions (step 0: the deal, before
anyone decided). It is rebuilt from the record itself: the record's events are cut just before
decision `k + 1` (every chance outcome of decision `k` stays in) and the game's service spec
replays that shorter record with its narration on (`GameService.replay_state`). The whole
record is verified once (checksum, every decision legal, the recorded final) before any step
is shown, so the viewer only shows honest games.

What a step shows is what the table shows a seat that plays (`GameService.table_view` and
`table_log`): one seat's view (its own hand, everything public, every other card face down) or,
`seat` None, every card face up. The result appears only at the last step.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from simulator.engine.core import GameRecord
from simulator.engine.core.record import canonical_json
from simulator.engine.core.replay import seat_names
from simulator.games import service_for


@dataclass
class ReplayStep:
    """One step of the viewer: the table as `seat` sees it after `step` of `last` decisions."""

    game: str
    title: str
    players: list[str]
    step: int
    last: int
    seat: int | None
    view: dict[str, Any]
    log: list[str]
    #: the last decision in the deciding seat's words ("" at step 0 and to the other seats)
    action: str = ""
    #: the final result (only at the last step)
    final: dict[str, Any] | None = None

    @property
    def at_end(self) -> bool:
        return self.step == self.last


def decisions(record: dict[str, Any]) -> list[int]:
    """The index in `record["events"]` of every decision, in order."""
    return [i for i, ev in enumerate(record.get("events") or []) if ev and ev[0] == "act"]


def record_at(record: dict[str, Any], step: int) -> dict[str, Any]:
    """The record of the game as it stood after its first `step` decisions: the same header,
    the events up to (not including) decision `step + 1`, no final, a fresh checksum (the last
    step: the record itself)."""
    acts = decisions(record)
    if step >= len(acts):
        return record
    rec = GameRecord.from_json(record)
    cut = acts[step]
    return GameRecord(
        game=rec.game,
        rules=rec.rules,
        seats=rec.seats,
        seed=rec.seed,
        events=rec.events[:cut],
        final=None,
        version=rec.version,
    ).to_json()


@lru_cache(maxsize=64)
def _verified(checksum: str, game: str, text: str) -> int:
    """Replay a whole record once (RecordError if it does not replay); its decision count."""
    import json

    record = json.loads(text)
    service_for(game).replay_state(record, None)
    return len(decisions(record))


def replay_step(
    record: dict[str, Any], step: int, seat: int | None, catalogue: Any = None
) -> ReplayStep:
    """Step `step` (clamped to the game's length) of a record as `seat` sees it (None: every
    card face up). RecordError (an EngineError) if the record does not replay."""
    game = str(record.get("game"))
    service = service_for(game)
    if catalogue is None:
        last = _verified(str(record.get("checksum")), game, canonical_json(record))
    else:
        service.replay_state(record, catalogue)
        last = len(decisions(record))
    step = max(0, min(step, last))
    if seat is not None and not 0 <= seat < len(record.get("seats") or []):
        seat = 0  # no such seat: the first one's view (never every card by mistake)
    action = ""
    if step > 0:
        # The decision that led here, in its seat's words: only to that seat or to the
        # narrator (another seat would read the name of a card played face down).
        before = service.replay_state(record_at(record, step - 1), catalogue)
        if seat is None or seat == before.to_act:
            data = record["events"][decisions(record)[step - 1]][2]
            legal = before.legal_actions()
            label = service.action_label(before, type(legal[0]).from_json(data))
            action = f"{seat_names(record.get('seats') or [])[before.to_act]}: {label}"
    state = service.replay_state(record_at(record, step), catalogue)
    view = service.table_view(state, seat)
    final = state.final() if step == last and state.is_over else None
    return ReplayStep(
        game=game,
        title=service.title,
        players=seat_names(record.get("seats") or []),
        step=step,
        last=last,
        seat=seat,
        view=view,
        log=service.table_log(state, seat),
        action=action,
        final=final,
    )
