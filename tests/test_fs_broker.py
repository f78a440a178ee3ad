"""The embedded broker (config/fs_broker.py): a message file appears whole, so a worker that
lists the folder while a message is written never takes a half-written one."""

from __future__ import annotations

import os
import threading

import pytest
from kombu import Connection

MESSAGES = 200
PAYLOAD = {"body": "x" * 400_000, "headers": {}, "properties": {"delivery_tag": "t"}}


def _channel(tmp_path, transport: str, **more):
    folder = tmp_path / "in"
    folder.mkdir(exist_ok=True)
    options = {"data_folder_in": str(folder), "data_folder_out": str(folder), **more}
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


def _deliver_later(connection, delay: float = 0.2) -> threading.Thread:
    def put():
        import time

        time.sleep(delay)
        with connection.clone() as other:
            other.SimpleQueue("q").put({"n": 1})

    thread = threading.Thread(target=put)
    thread.start()
    return thread


def test_an_idle_consumer_wakes_as_a_message_arrives_not_at_its_next_look(tmp_path, monkeypatch):
    """The watch (inotify) wakes the consumer: its own looks at the folder are an hour apart
    here, and kombu's transport would have slept that hour before seeing the message."""
    from config import fs_broker

    probe = fs_broker._inotify_watch(str(tmp_path))
    if probe is None:
        pytest.skip("no inotify on this machine: the transport polls as kombu's does")
    os.close(probe)
    monkeypatch.setattr(fs_broker, "WATCHED_POLL_SECONDS", 3600.0)
    connection, _ = _channel(tmp_path, "config.fs_broker:Transport", polling_interval=3600.0)
    with connection:
        queue = connection.SimpleQueue("q")
        writer = _deliver_later(connection)
        message = queue.get(block=True, timeout=600)  # fails by timing out if nothing woke it
        writer.join()
        assert message.payload == {"n": 1}
        message.ack()
        assert connection.transport._watch is not None


def test_without_a_watch_the_consumer_polls_as_kombus_does(tmp_path, monkeypatch):
    from config import fs_broker

    monkeypatch.setattr(fs_broker, "_inotify_watch", lambda folder: None)
    connection, _ = _channel(tmp_path, "config.fs_broker:Transport", polling_interval=0.01)
    with connection:
        queue = connection.SimpleQueue("q")
        writer = _deliver_later(connection)
        message = queue.get(block=True, timeout=600)
        writer.join()
        assert message.payload == {"n": 1} and connection.transport._watch is None
        message.ack()
        with pytest.raises(queue.Empty):  # and an empty queue still times out
            queue.get(block=True, timeout=0.05)
