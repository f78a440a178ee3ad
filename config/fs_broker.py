"""The embedded broker (`filesystem://`): kombu's filesystem transport, with each message file
appearing whole.

kombu's `_put` opens the message's file under its final name and then writes it; a worker
listing the folder between the two takes an empty file, and its JSON decoding fails in the
consumer, which stops the worker, and the message is gone (a 4-game run on the test suite's
worker waited for the reconciler, 2026-11-29). Here the message is written under a name no
queue reads (`.NAME.part`: kombu's `_get` takes only `<stamp>_<uuid>.<queue>.msg`) and then
renamed to its final name, which POSIX does atomically. Everything else is kombu's.
`config/celery.py` points the `filesystem` alias here.

An idle worker wakes as a message arrives. kombu's transport sleeps `polling_interval` between
looks at an empty folder, so a run's first chunks waited half of it on average for each worker
(25 ms at our 50 ms: 3% of the worker time of a 2-second run). On Linux the worker here waits
on an inotify watch of the folder instead, which the rename that delivers a message wakes at
once; it still looks every WATCHED_POLL_SECONDS in case an event was lost (the kernel's queue
overflowed), and a 20th of the looks kombu makes is also a 20th of an idle worker's CPU.
Elsewhere, or if the watch cannot be made, it sleeps as kombu does.
"""

from __future__ import annotations

import ctypes
import os
import select
import uuid
from queue import Empty
from time import monotonic, sleep

from kombu.exceptions import ChannelError
from kombu.transport import filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps


class Channel(filesystem.Channel):
    def _put(self, queue, payload, **kwargs):
        """Put `payload` on `queue`: written aside, then renamed into the queue's folder."""
        name = f"{round(monotonic() * 1000)}_{uuid.uuid4()}.{queue}.msg"
        final = os.path.join(self.data_folder_out, name)
        part = os.path.join(self.data_folder_out, f".{name}.part")
        try:
            with open(part, "wb", buffering=0) as f:
                f.write(str_to_bytes(dumps(payload)))
            os.replace(part, final)
        except OSError as exc:
            raise ChannelError(f"Cannot add file {final!r} to directory") from exc


#: How often a worker waiting on an inotify watch still looks at its folder (seconds).
WATCHED_POLL_SECONDS = 1.0
# <sys/inotify.h>: a file renamed into, or closed after writing in, the watched folder; and
# inotify_init1's flags (Linux's O_NONBLOCK and O_CLOEXEC, named here so that the module
# imports where os has no O_CLOEXEC and inotify_init1 is simply not found).
_IN_MOVED_TO, _IN_CLOSE_WRITE = 0x80, 0x08
_IN_NONBLOCK, _IN_CLOEXEC = 0o4000, 0o2000000


def _inotify_watch(folder: str) -> int | None:
    """A non-blocking inotify descriptor watching `folder` for arriving files, or None where
    there is no inotify (not Linux, no libc, no watch allowed). The C library is the one this
    process runs on (`CDLL(None)`: no search for it, which runs a program)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        fd = libc.inotify_init1(_IN_NONBLOCK | _IN_CLOEXEC)
    except (OSError, AttributeError):
        return None
    if fd < 0:
        return None
    if libc.inotify_add_watch(fd, os.fsencode(folder), _IN_MOVED_TO | _IN_CLOSE_WRITE) < 0:
        os.close(fd)
        return None
    return fd


class Transport(filesystem.Transport):
    """kombu's filesystem transport, woken by inotify instead of sleeping between looks."""

    Channel = Channel
    _watch: int | None = None
    _watched: str | None = None

    def drain_events(self, connection, timeout=None):
        started = monotonic()
        while True:
            try:
                self.cycle.get(self._deliver, timeout=timeout)
                return
            except Empty:
                waited = monotonic() - started
                if timeout is not None and waited >= timeout:
                    raise TimeoutError() from None
                left = None if timeout is None else timeout - waited
                self._wait(left)

    def _wait(self, left: float | None) -> None:
        """Until a message may have arrived: an inotify event, else the polling interval."""
        fd = self._watch_fd()
        if fd is None:
            pause = self.polling_interval or 0.0
            sleep(pause if left is None else min(pause, left))
            return
        pause = WATCHED_POLL_SECONDS if left is None else min(WATCHED_POLL_SECONDS, left)
        readable, _, _ = select.select([fd], [], [], pause)
        if readable:
            try:
                while os.read(fd, 65536):
                    pass  # empty the event queue: the next look at the folder sees them all
            except BlockingIOError:  # emptied (EAGAIN)
                pass

    def _watch_fd(self) -> int | None:
        folder = self.channels[0].data_folder_in if self.channels else None
        if folder != self._watched:
            self.close_watch()
            self._watched = folder
            self._watch = _inotify_watch(folder) if folder else None
        return self._watch

    def close_watch(self) -> None:
        if self._watch is not None:
            os.close(self._watch)
        self._watch = None
        self._watched = None

    def close_connection(self, connection):
        self.close_watch()
        super().close_connection(connection)
