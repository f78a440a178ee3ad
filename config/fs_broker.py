"""The embedded broker (`filesystem://`): kombu's filesystem transport, with each message file
appearing whole.

kombu's `_put` opens the message's file under its final name and then writes it; a worker
listing the folder between the two takes an empty file, and its JSON decoding fails in the
consumer, which stops the worker, and the message is gone (a 4-game run on the test suite's
worker waited for the reconciler, 2026-11-29). Here the message is written under a name no
queue reads (`.NAME.part`: kombu's `_get` takes only `<stamp>_<uuid>.<queue>.msg`) and then
renamed to its final name, which POSIX does atomically. Everything else is kombu's.
`config/celery.py` points the `filesystem` alias here.
"""

from __future__ import annotations

import os
import uuid
from time import monotonic

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


class Transport(filesystem.Transport):
    Channel = Channel
