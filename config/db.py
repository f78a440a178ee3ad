"""Write transactions that take turns in a process on SQLite (docs/operations.md).

SQLite has one write lock for the whole database, taken at BEGIN (`transaction_mode`
IMMEDIATE). A writer that finds it taken sleeps in SQLite's busy handler, in steps growing to
100 ms, and tries again: under load a decision waited in those sleeps far longer than the
writes before it took. `writing()` makes a process's writers queue on a lock of their own
first, so each starts the moment the one before commits. Only the outermost transaction
queues (a thread already in one may hold SQLite's lock: queueing then could wait on itself);
other processes' writers (a Celery worker) still meet at SQLite's lock. On PostgreSQL,
`writing()` is `transaction.atomic()`: its row locks already let unrelated writes run
together."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from django.db import DEFAULT_DB_ALIAS, connections, transaction

_WRITER = threading.Lock()


@contextmanager
def writing(using: str = DEFAULT_DB_ALIAS) -> Iterator[None]:
    """`transaction.atomic(using)` for a write; on SQLite, first this process's turn to write.
    Used as a decorator or a `with` block."""
    connection = connections[using]
    if connection.vendor != "sqlite" or connection.in_atomic_block:
        with transaction.atomic(using=using):
            yield
        return
    with _WRITER, transaction.atomic(using=using):
        yield
