"""A playing chunk's lease, renewed while its worker plays it (issue #27's recovery).

A chunk claimed by a worker holds a lease (`SimulationChunk.lease_until`); a chunk still
running once its lease ran out lost its worker, and the reconciler sends it again. The worker
renews the lease every third of SIMULATION_LEASE_SECONDS while it plays, from a thread, so a
game longer than the lease keeps it and the game loop never waits for the renewal.

One keeper thread per process renews every chunk the process holds. It used to be a thread
per chunk, started as the chunk began and joined as it ended: on a machine whose cores the
workers keep busy, each start and join waited for the scheduler to run the other thread, about
4 ms of every chunk (a sampling profile of a worker, 2026-11-29). Holding and releasing a chunk
here only updates a table under a lock; the keeper is never waited for.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from datetime import timedelta
from typing import Any

from django.db import DatabaseError, close_old_connections, transaction
from django.utils import timezone

from simulator.common import conf
from simulator.runs.models import SimulationChunk as Chunk

log = logging.getLogger(__name__)


def lease() -> timedelta:
    """How long a claimed chunk's lease lasts: SIMULATION_LEASE_SECONDS."""
    return timedelta(seconds=conf.get("SIMULATION_LEASE_SECONDS"))


def _third_from_now() -> float:
    """When a lease taken or renewed now is next renewed (time.monotonic)."""
    return time.monotonic() + lease().total_seconds() / 3


class _Keeper:
    """The process's keeper: the chunks held (token -> (chunk id, send number)) and when the
    next renewal is due; its thread starts with the first chunk held."""

    def __init__(self) -> None:
        self.cond = threading.Condition()
        self.held: dict[int, tuple[int, int]] = {}
        self.due = 0.0
        self.thread: threading.Thread | None = None

    def hold(self, token: int, chunk_id: int, send_no: int) -> None:
        with self.cond:
            # a chunk just claimed holds a whole lease: its first renewal is due in a third
            # (sooner than the one waited on if the lease is shorter: tests)
            due = _third_from_now()
            self.due = min(self.due, due) if self.held else due
            self.held[token] = (chunk_id, send_no)
            if self.thread is None or not self.thread.is_alive():
                self.thread = threading.Thread(target=self._run, name="chunk-leases", daemon=True)
                self.thread.start()
            self.cond.notify()

    def release(self, token: int) -> None:
        with self.cond:
            self.held.pop(token, None)

    def _run(self) -> None:
        while True:
            with self.cond:
                while not self.held or time.monotonic() < self.due:
                    self.cond.wait(self.due - time.monotonic() if self.held else None)
                held = list(self.held.values())
                self.due = _third_from_now()
            _renew(held)


def _renew(held: list[tuple[int, int]]) -> None:
    """Each held chunk's lease a whole SIMULATION_LEASE_SECONDS from now, if it still runs
    under that send (a chunk re-sent meanwhile is no longer this worker's to keep)."""
    until = timezone.now() + lease()
    for chunk_id, send_no in held:
        try:
            Chunk.objects.filter(pk=chunk_id, status=Chunk.Status.RUNNING, sends=send_no).update(
                lease_until=until
            )
        except DatabaseError:  # the next renewal tries again; the lease has slack
            log.warning("chunk %s: its lease could not be renewed", chunk_id)
    close_old_connections()  # the keeper's own connection, kept as CONN_MAX_AGE says


_keeper = _Keeper()


def _new_keeper_in_child() -> None:
    # A forked process (a local run's pool) has no keeper thread, and the lock may have been
    # held by the parent's: it starts a keeper of its own.
    global _keeper
    _keeper = _Keeper()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_new_keeper_in_child)


class Leased:
    """`with Leased(chunk_id, send_no):` the chunk's lease is renewed while the block runs.
    Nothing is renewed from inside a transaction of the caller's (a test's), which another
    connection could not see through."""

    def __init__(self, chunk_id: int, send_no: int) -> None:
        self.chunk_id, self.send_no = chunk_id, send_no
        self.keeper: _Keeper | None = None

    def __enter__(self) -> Leased:
        if not transaction.get_connection().in_atomic_block:
            self.keeper = _keeper
            self.keeper.hold(id(self), self.chunk_id, self.send_no)
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.keeper is not None:
            self.keeper.release(id(self))
