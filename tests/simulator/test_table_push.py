"""The table's push channel (issue #26) over a real ASGI server (uvicorn, tests/asgi.py): every
viewer of every game sees the others' decisions without asking, and no pushed message carries
what its viewer may not see; a reconnecting client catches up exactly; a stranger is refused; a
web process restarted mid-game loses nothing; with Redis, a decision made through one web
process reaches the clients of another."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import connection
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from simulator.table import consumers
from simulator.table.models import TableGame
from tests import asgi
from tests.factories import UserFactory
from tests.simulator.shared_play import HttpClient, Table
from tests.simulator.table_play import GAMES
from tests.simulator.test_table_hidden import Record, assert_nothing_hidden_served

pytestmark = [
    pytest.mark.django_db(transaction=True),
    # websockets' sync client kept open across a test's threads rather than in a `with`.
    pytest.mark.filterwarnings("ignore:connect\\(\\) must be used as a context manager"),
]
ROOT = Path(__file__).resolve().parents[2]


class Listener:
    """One viewer's WebSocket, read in a thread: every message kept in order."""

    def __init__(
        self, server, table_id: int, token: str | None, version: int = -1, game: bool = True
    ):
        headers = {"Authorization": f"Token {token}"} if token else {}
        self.ws = connect(
            f"{server.ws_url}/ws/tables/{table_id}/",
            additional_headers=headers,
            origin=server.url,
            open_timeout=15,
        )
        self.messages: list[dict[str, Any]] = []
        self.ws.send(json.dumps({"type": "hello", "version": version, "game": game}))
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            for raw in self.ws:
                self.messages.append(json.loads(raw))
        except ConnectionClosed:
            pass

    def tables(self) -> list[dict[str, Any]]:
        return [m for m in self.messages if m["type"] == "table"]

    def wait_for(self, version: int, seconds: float = 20) -> dict[str, Any]:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            seen = self.tables()
            if seen and seen[-1]["version"] >= version:
                return seen[-1]
            time.sleep(0.01)
        raise AssertionError(f"version {version} never reached this viewer: {self.tables()[-1:]}")

    def close(self) -> None:
        self.ws.close()
        self.thread.join(5)


def http_table(server, game: str, **options: Any) -> Table:
    return Table(
        game,
        connect=lambda user: HttpClient(server.url, user),
        anonymous=lambda: HttpClient(server.url),
        **options,
    )


@pytest.mark.parametrize("game", GAMES)
def test_every_viewer_of_every_game_is_pushed_each_decision_and_told_no_more_than_it_may_know(
    asgi_server, seeded, game
):
    table = http_table(asgi_server, game)
    viewers = {
        seat: Listener(asgi_server, table.id, client.token)
        for seat, client in enumerate(table.clients)
        if client is not None
    }
    viewers[None] = Listener(asgi_server, table.id, None)  # a spectator, not signed in
    try:
        # Only the person to act reads the table before each decision: the others are pushed it.
        table.play(everyone=False)
        final = TableGame.objects.get(pk=table.id)
        for listener in viewers.values():
            listener.wait_for(final.version)
    finally:
        for listener in viewers.values():
            listener.close()
    record = table.record()
    book = Record(game, record)  # the states along the record, replayed once for every viewer
    moves_pushed = 0
    for seat, listener in viewers.items():
        pushed = [m["game"] for m in listener.tables()]
        assert pushed[-1]["status"] == "over" and pushed[-1]["version"] == final.version
        assert {p["viewer"] for p in pushed if p["status"] != "waiting"} == {seat}
        # Never an old version after a newer one: each message is the table as it is now.
        versions = [p["version"] for p in pushed]
        assert versions == sorted(versions)
        moves_pushed = max(moves_pushed, len({p["move"] for p in pushed}))
        assert_nothing_hidden_served(game, pushed, record, deals=1, book=book)
    assert moves_pushed > 2, "the viewers saw the game move"


def test_the_check_catches_a_pushed_message_that_shows_another_seats_hand(
    asgi_server, seeded, monkeypatch
):
    honest = consumers.message_for

    def leaky(snap, access, after_talk, origin, **how):
        message = honest(snap, access, after_talk, origin, **how)
        if message["game"]["viewer"] == 1 and message["game"]["status"] != "over":
            message["game"]["view"]["peek"] = [c.defn.code for c in snap.state.hand[0]]
        return message

    monkeypatch.setattr(consumers, "message_for", leaky)
    table = http_table(asgi_server, "drifter")
    listener = Listener(asgi_server, table.id, table.clients[1].token)
    try:
        table.play()
        listener.wait_for(TableGame.objects.get(pk=table.id).version)
    finally:
        listener.close()
    with pytest.raises(AssertionError):
        assert_nothing_hidden_served(
            "drifter", [m["game"] for m in listener.tables()], table.record(), deals=1
        )


def test_a_client_that_reconnects_catches_up_exactly(asgi_server, seeded):
    table = http_table(asgi_server, "duel")
    table.start()
    first = Listener(asgi_server, table.id, table.clients[1].token)
    seen = first.wait_for(TableGame.objects.get(pk=table.id).version)
    first.close()
    # The game goes on while seat 1 is gone: seat 0 plays, seat 1 is played by its bot.
    for _ in range(3):
        row = TableGame.objects.get(pk=table.id)
        if row.is_over:
            break
        client = table.clients[row.to_act]
        answer = client.get(table.url).json()
        body = {"move": answer["move"], "action": answer["legal_actions"][0]["action"]}
        assert client.post(table.url + "actions/", body).status_code == 200
    row = TableGame.objects.get(pk=table.id)
    assert row.version > seen["version"]
    again = Listener(asgi_server, table.id, table.clients[1].token, version=seen["version"])
    try:
        caught_up = again.wait_for(row.version)
    finally:
        again.close()
    assert caught_up["game"] == table.clients[1].get(table.url).json()
    # Told the talk it missed too: the lines since it last saw the table's.
    assert [line["text"] for line in caught_up["talk"]]


def test_a_stranger_is_refused_the_push_channel_of_a_private_table(asgi_server):
    table = http_table(asgi_server, "duel", spectators=False)
    stranger = HttpClient(asgi_server.url, UserFactory())
    for token in (None, stranger.token, "not-a-token"):
        with pytest.raises((InvalidStatus, ConnectionClosed)):
            listener = Listener(asgi_server, table.id, token)
            listener.ws.recv(5)


def test_a_web_process_restarted_mid_game_loses_nothing(asgi_server, seeded):
    table = http_table(asgi_server, "quickdraw")
    table.start()
    for _ in range(2):
        row = TableGame.objects.get(pk=table.id)
        client = table.clients[row.to_act]
        answer = client.get(table.url).json()
        body = {"move": answer["move"], "action": answer["legal_actions"][0]["action"]}
        assert client.post(table.url + "actions/", body).status_code == 200
    before = TableGame.objects.get(pk=table.id)
    asgi_server.stop()
    server = asgi.start()
    try:
        for client in [*table.clients, table.spectator]:
            client.base = server.url
        table.url = table.url.replace(asgi_server.url, server.url)
        answer = table.clients[0].get(table.url).json()
        assert (answer["move"], answer["version"]) == (before.move, before.version)
        final = table.play(start=False)
        assert final["status"] == "over"
        envelope = table.host.get(table.url + "record/").json()
    finally:
        server.stop()
    out = subprocess.run(
        [sys.executable, "manage.py", "replay", "/dev/stdin"],
        input=json.dumps(envelope),
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": os.environ.get("DATABASE_URL", "sqlite:///:memory:")},
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert "Verified: the record replays" in out.stdout


@pytest.mark.skipif(
    not settings.CHANNEL_LAYER_URL, reason="with Redis only: one web process's memory is its own"
)
def test_with_redis_a_decision_made_through_one_web_process_reaches_the_clients_of_another(
    asgi_server, seeded
):
    db = connection.settings_dict
    url = f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    port = asgi.free_port()
    other = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1",
         "--port", str(port), "--lifespan", "on", "--log-level", "warning"],
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": url, "TABLE_CLOCK_SECONDS": "0",
             "ALLOWED_HOSTS": "127.0.0.1,localhost", "DJANGO_DEBUG": "false"},
    )  # fmt: skip
    try:
        second = asgi.wait_for(f"http://127.0.0.1:{port}", other)
        table = http_table(asgi_server, "duel")
        listener = Listener(second, table.id, table.clients[1].token)
        listener.wait_for(0)
        started = table.start()
        pushed = listener.wait_for(started["version"])
        assert pushed["game"]["move"] == started["move"]
        listener.close()
    finally:
        other.terminate()
        other.wait(20)


def _until(check, what: str, seconds: float = 15) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def test_an_open_push_channel_keeps_a_person_here_and_its_close_starts_their_grace(
    asgi_server, seeded
):
    from datetime import timedelta

    from django.utils import timezone

    from simulator.table.models import TableSeat

    table = http_table(asgi_server, "duel", clock_seconds=60, grace_seconds=30)
    table.start()
    long_ago = timezone.now() - timedelta(minutes=5)
    seat = TableSeat.objects.filter(table_id=table.id, index=1)
    seat.update(last_seen=long_ago, away_at=long_ago)
    listener = Listener(asgi_server, table.id, table.clients[1].token)
    closed = False
    try:
        first = listener.wait_for(TableGame.objects.get(pk=table.id).version)
        # Renewed by the server within a second or two of the connection, with no ping.
        _until(lambda: seat.get().last_seen > long_ago, "the open connection renewed nothing")
        person = seat.get()
        assert person.away_at >= person.last_seen + timedelta(seconds=29)
        # The other seat's person holds no connection: nothing renews theirs.
        other = TableSeat.objects.get(table_id=table.id, index=0)
        listener.ws.send(json.dumps({"type": "ping"}))
        _until(lambda: any(m["type"] == "pong" for m in listener.messages), "no pong")
        said = table.clients[0].post(table.url + "talk/", {"text": "Howdy, partner"})
        assert said.status_code == 201
        pushed = listener.wait_for(first["version"] + 1)
        assert [line["text"] for line in pushed["talk"]] == ["Howdy, partner"]
        listener.ws.send(json.dumps({"type": "shout"}))
        _until(lambda: any(m["type"] == "error" for m in listener.messages), "no error")
        # Closing the page starts the grace at once, not at the last renewal.
        before_close = timezone.now()
        listener.close()
        closed = True
        _until(lambda: seat.get().last_seen >= before_close, "the close was not noticed")
        person = seat.get()
        assert person.away_at == person.last_seen + timedelta(seconds=30)
        assert TableSeat.objects.get(pk=other.pk).last_seen == other.last_seen
    finally:
        if not closed:
            listener.close()


def test_a_connection_whose_build_failed_keeps_nobody_present(asgi_server, seeded, monkeypatch):
    from simulator.table import presence

    table = http_table(asgi_server, "duel", clock_seconds=60, grace_seconds=30)
    table.start()
    listener = Listener(asgi_server, table.id, table.clients[1].token)
    try:
        listener.wait_for(TableGame.objects.get(pk=table.id).version)
        _until(lambda: presence.held() == 1, "the seated person's connection holds nobody")

        def broken(*args, **kwargs):
            raise RuntimeError("a build that fails")

        monkeypatch.setattr(consumers, "message_for", broken)
        said = table.clients[0].post(table.url + "talk/", {"text": "Howdy"})
        assert said.status_code == 201  # a change: the build fails and the connection ends
        _until(lambda: presence.held() == 0, "a failed connection still keeps its person here")
    finally:
        listener.close()


def test_a_client_that_asks_for_no_game_is_sent_versions_and_talk_only(asgi_server, seeded):
    table = http_table(asgi_server, "duel")
    started = table.start()
    page = Listener(asgi_server, table.id, table.clients[1].token, game=False)
    program = Listener(asgi_server, table.id, table.clients[1].token)
    try:
        first = page.wait_for(started["version"])
        assert set(first) == {"type", "version", "talk"}
        assert "game" in program.wait_for(started["version"])
        said = table.clients[0].post(table.url + "talk/", {"text": "Draw"})
        assert said.status_code == 201
        pushed = page.wait_for(started["version"] + 1)
        assert "game" not in pushed and [line["text"] for line in pushed["talk"]] == ["Draw"]
    finally:
        page.close()
        program.close()


@pytest.mark.skipif(not settings.CHANNEL_LAYER_URL, reason="with Redis only: its client's timeouts")
def test_with_redis_a_connection_idle_past_the_redis_read_timeout_still_gets_the_next_push(
    asgi_server, seeded
):
    # redis-py 8 gives up a read after 5 s by default; the channel layer waits on a blocking
    # pop as long, so an idle connection's consumer failed and the socket closed (1011).
    table = http_table(asgi_server, "duel")
    started = table.start()
    listener = Listener(asgi_server, table.id, table.clients[1].token)
    try:
        listener.wait_for(started["version"])
        time.sleep(7)
        said = table.clients[0].post(table.url + "talk/", {"text": "Still here?"})
        assert said.status_code == 201
        pushed = listener.wait_for(started["version"] + 1)
        assert [line["text"] for line in pushed["talk"]] == ["Still here?"]
    finally:
        listener.close()
