"""Who is at a live table: a person is here while they hold the table's push channel open
(the page holds it; a REST client's reads count too: `services.seating_touch`).

Each web process keeps its open connections of seat holders (`arrived`, `left`) and renews
their seats' presence from the server's loop (`renew_due`, config/asgi.py): a person's
`last_seen` and `away_at` (now + the table's grace) at most every `presence_every`,
all of a process's due people in one UPDATE per grace (`mark_here`, as every other sign
of a person's presence is written). When a person's last connection to a
table in the process closes, their grace starts at once (`gone`). A process that dies renews
nobody: its people are counted away at most `presence_every` after their grace (the grace
counted from the last renewal). Presence changes no version: it is not news."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import reduce
from operator import or_

from django.db.models import Q, QuerySet
from django.utils import timezone

from simulator.table.models import TableSeat

#: At most this many people's seats an UPDATE (SQLite's expression depth stays far away).
BATCH = 100


def presence_every(grace_seconds: int) -> timedelta:
    """How often a person's presence is written at most: a sixth of their grace, 2 to 10 s
    (so a person is counted away at most that much later than their grace says)."""
    return timedelta(seconds=max(2, min(10, grace_seconds // 6)))


def mark_here(seats: QuerySet[TableSeat], now: datetime, grace_seconds: int) -> None:
    """`seats`' people are here at `now`: counted away once their grace has passed since."""
    seats.update(last_seen=now, away_at=now + timedelta(seconds=grace_seconds))


@dataclass
class _Held:
    connections: int
    grace: int
    due: float  # time.monotonic() of the next renewal


_HELD: dict[tuple[int, int], _Held] = {}
_LOCK = threading.Lock()


def arrived(table_id: int, user_id: int, grace_seconds: int) -> None:
    """A connection of `user_id`'s to a table where they hold a seat opened: renewed from the
    next tick on."""
    with _LOCK:
        held = _HELD.get((table_id, user_id))
        if held is None:
            _HELD[(table_id, user_id)] = _Held(1, grace_seconds, 0.0)
        else:
            held.connections += 1


def left(table_id: int, user_id: int) -> int | None:
    """One of their connections closed: their grace (seconds) if it was their last one in this
    process (the caller then says they are `gone`), else None."""
    with _LOCK:
        held = _HELD.get((table_id, user_id))
        if held is None:
            return None
        held.connections -= 1
        if held.connections > 0:
            return None
        del _HELD[(table_id, user_id)]
        return held.grace


def held() -> int:
    """How many (table, person) pairs this process holds connections for."""
    with _LOCK:
        return len(_HELD)


def _due(now: float) -> dict[int, list[tuple[int, int]]]:
    """The pairs due a renewal, by grace; each then due again `presence_every` later."""
    out: dict[int, list[tuple[int, int]]] = {}
    with _LOCK:
        for pair, hold in _HELD.items():
            if hold.due <= now:
                hold.due = now + presence_every(hold.grace).total_seconds()
                out.setdefault(hold.grace, []).append(pair)
    return out


def renew_due() -> int:
    """Renew the presence of every person due (run in a thread: it writes); how many."""
    count = 0
    now = timezone.now()
    for grace, pairs in _due(time.monotonic()).items():
        for start in range(0, len(pairs), BATCH):
            chunk = pairs[start : start + BATCH]
            which = reduce(or_, (Q(table_id=t, user_id=u) for t, u in chunk))
            mark_here(TableSeat.objects.filter(which), now, grace)
            count += len(chunk)
    return count


def gone(table_id: int, user_id: int, grace_seconds: int) -> None:
    """A person's last connection closed: their grace counts from now."""
    mark_here(TableSeat.objects.filter(table_id=table_id, user_id=user_id), timezone.now(),
              grace_seconds)  # fmt: skip
