"""A table at one version, as the push channel builds every viewer's message from it
(simulator/table/consumers.py): the row, its people's seats, the engine state and the talk,
kept per process by (table id, version, saved) for the viewers still to be sent it.

A decision made in this process hands its snapshot over as it commits (`keep`, from
`services._act`): the row and people it read under the row's lock and the state it played
on, so the push needs no query and no rebuild; and the next decision takes that state to play
on (`take_state`) instead of rebuilding it from the record. A change made elsewhere (another
web process, a Celery worker, the table's clock) is read once here (`read`) for all this
process's viewers.

The talk of a snapshot a decision handed over is the previous version's, carried forward when
this process kept it and the decision said nothing at the table; otherwise it is read on first
use. Who hid which line is as of that read: hiding a line changes no version, and a viewer
sees its own hides from the next read on (a reconnection's hello always reads its talk)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.http import Http404

from simulator.table.models import TableGame, TableMessage, TableSeat

#: Table versions kept per process for the viewers still to be sent them.
KEPT = 256

Talk = list[tuple[TableMessage, frozenset[int]]]  # each line, and who hid it


@dataclass
class Snapshot:
    """A table at one version. Its state is shared by the viewers' builds: one reads it at a
    time (`lock`), the decision that made it included."""

    row: TableGame
    people: list[TableSeat]
    state: Any
    talk_kept: Talk | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)
    #: The next decision may take the state to play on (`take_state`): not before the decision
    #: that made it has built its own answer from it.
    takeable: bool = True

    def engine_state(self, rebuild: Callable[[TableGame], Any]) -> Any:
        """The state, rebuilt from the row's record if a decision took it (the caller holds
        `lock`)."""
        if self.state is None and self.row.record is not None:
            self.state = rebuild(self.row)
        return self.state

    @property
    def key(self) -> tuple[int, int, str]:
        return key_of(self.row.pk, self.row.version, self.row.updated_at.isoformat())

    def talk(self) -> Talk:
        """The table's lines of talk, read once (the caller holds `lock`)."""
        if self.talk_kept is None:
            self.talk_kept = read_talk(self.row)
        return self.talk_kept


def key_of(table_id: int, version: int, saved: str) -> tuple[int, int, str]:
    return (table_id, version, saved)


_KEPT: OrderedDict[tuple[int, int, str], Snapshot] = OrderedDict()
_LATEST: dict[int, Snapshot] = {}  # each table's newest snapshot kept here
_LOCK = threading.Lock()


def _get(key: tuple[int, int, str]) -> Snapshot | None:
    with _LOCK:
        return _KEPT.get(key)


def _put(snap: Snapshot) -> Snapshot:
    with _LOCK:
        snap = _KEPT.setdefault(snap.key, snap)
        latest = _LATEST.get(snap.row.pk)
        if latest is None or latest.row.version <= snap.row.version:
            _LATEST[snap.row.pk] = snap
        while len(_KEPT) > KEPT:
            _key, dropped = _KEPT.popitem(last=False)
            if _LATEST.get(dropped.row.pk) is dropped:
                del _LATEST[dropped.row.pk]
    return snap


def keep(snap: Snapshot, *, said: bool) -> None:
    """A decision's snapshot, once committed: kept for the pushes of its version. `said`: the
    decision added lines of talk (the previous version's talk is then not carried forward)."""
    with _LOCK:
        before = _LATEST.get(snap.row.pk)
    if not said and before is not None and before.row.version == snap.row.version - 1:
        with before.lock:
            snap.talk_kept = before.talk_kept
    _put(snap)


def take_state(row: TableGame) -> Any:
    """The engine state of `row` as read under its lock, if this process kept it and may give
    it up: the decision about to be made plays on it instead of rebuilding it from the record
    (the snapshot's viewers still to be sent it rebuild it). None otherwise."""
    snap = _get(key_of(row.pk, row.version, row.updated_at.isoformat()))
    if snap is None:
        return None
    with snap.lock:
        if not snap.takeable or snap.state is None:
            return None
        state, snap.state = snap.state, None
    return state


def read(
    table_id: int, note: dict[str, Any] | None, rebuild: Callable[[TableGame], Any]
) -> Snapshot:
    """The table as of the change `note` announced (None: as it is now), read once for all its
    viewers in this process; Http404 if it is gone. `rebuild(row)` makes the engine state."""
    if note is not None:
        kept = _get(key_of(table_id, note["version"], note.get("saved", "")))
        if kept is not None:
            return kept
    row = TableGame.objects.select_related("owner").filter(pk=table_id).first()
    if row is None:
        raise Http404("No such table.")
    kept = _get(key_of(row.pk, row.version, row.updated_at.isoformat()))
    if kept is not None:
        return kept
    people = list(TableSeat.objects.filter(table=row).select_related("user").order_by("index"))
    row._people_cache = {p.index: p for p in people}  # type: ignore[attr-defined]
    state = None if row.record is None else rebuild(row)
    return _put(Snapshot(row=row, people=people, state=state))


def read_talk(row: TableGame) -> Talk:
    lines = TableMessage.objects.filter(table=row).select_related("author").order_by("id")
    hidden: dict[int, set[int]] = {}
    for line_id, user_id in TableMessage.hidden_by.through.objects.filter(
        tablemessage__table=row
    ).values_list("tablemessage_id", "user_id"):
        hidden.setdefault(line_id, set()).add(user_id)
    return [(line, frozenset(hidden.get(line.pk, ()))) for line in lines]
