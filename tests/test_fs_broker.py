"""The embedded broker (config/fs_broker.py): a message file appears whole, so a worker that
lists the folder while a message is written never takes a half-written one."""

from __future__ import annotations

import threading

import pytest
from kombu import Connection

MESSAGES = 200
PAYLOAD = {"body": "x" * 400_000, "headers": {}, "properties": {"delivery_tag": "t"}}


def _channel(tmp_path, transport: str):
    folder = tmp_path / "in"
    folder.mkdir(exist_ok=True)
    options = {"data_folder_in": str(folder), "data_folder_out": str(folder)}
    connection = Connection("filesystem://", transport=transport, transport_options=options)
    return connection, connection.channel()


def _race(channel) -> tuple[int, list[Exception]]:
    """A writer puts MESSAGES large messages while this thread takes them as fast as it can:
    (messages taken whole, errors met)."""
    from queue import Empty

    errors: list[Exception] = []
    writer = threading.Thread(
        target=lambda: [channel._put("q", {**PAYLOAD, "n": n}) for n in range(MESSAGES)]
    )
    writer.start()
    taken = 0
    while writer.is_alive() or taken < MESSAGES:
        try:
            message = channel._get("q")
        except Empty:
            if not writer.is_alive() and taken + len(errors) >= MESSAGES:
                break
            continue
        except ValueError as exc:  # a half-written message's JSON
            errors.append(exc)
            continue
        assert message["body"] == PAYLOAD["body"]
        taken += 1
    writer.join()
    return taken, errors


def test_a_message_is_never_taken_half_written(tmp_path):
    connection, channel = _channel(tmp_path, "config.fs_broker:Transport")
    with connection:
        taken, errors = _race(channel)
    assert (taken, errors) == (MESSAGES, [])
    assert not list((tmp_path / "in").iterdir())  # nothing left, not even a part file


@pytest.mark.slow
def test_kombus_own_filesystem_transport_loses_messages_in_the_same_race(tmp_path):
    """Why config/fs_broker.py exists: the same race on kombu's transport takes empty files
    (run by hand: `pytest -m slow tests/test_fs_broker.py`; how often depends on the machine)."""
    connection, channel = _channel(tmp_path, "kombu.transport.filesystem:Transport")
    with connection:
        taken, errors = _race(channel)
    assert errors and taken + len(errors) <= MESSAGES
