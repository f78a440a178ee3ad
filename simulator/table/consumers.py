"""The table's push channel (issue #26): `ws(s)://<host>/ws/tables/<id>/`.

A connection is one viewer of one table: a seat's holder, or a spectator where the table
allows them. It authenticates with the site's session cookie or an API token
(`Authorization: Token <key>`). The channel layer carries only "table N is now at version V"
(simulator/table/announce.py); each connection then builds its own viewer's answer through the
same code as the HTTP API (`services.seen`, `api.game_json`), so a pushed message holds
exactly what that viewer may see. Messages (docs/api.md, "The push channel"):

- to the client: `{"type": "table", "version", "game", "talk"}` (the table as this viewer
  sees it, with the lines of table talk it has not had; no `game` for a client that asked for
  none), `{"type": "pong"}`, `{"type": "error", "code", "detail"}`;
- from the client: `{"type": "hello", "version": V, "talk": T, "game": true}` (on every
  (re)connection: the version and the last line of talk it saw, and whether it wants the game
  in each message; the answer is the table as it is now), `{"type": "ping"}` (every few
  seconds: keeps the connection alive; the connection itself keeps the seat's person here).

A table's viewers in one process share what their answers are built from: the row, its
people's seats, the engine state and the talk, read once a version or handed over by the
decision that made it (simulator/table/snapshots.py); each viewer's own part (`services.seen`
for their seat) is built from it. While a seat's holder keeps a connection open they are at
the table (simulator/table/presence.py).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.contrib.auth.models import AnonymousUser
from django.http import Http404
from rest_framework.authtoken.models import Token

from simulator.table import announce, presence, snapshots, talk
from simulator.table import services as table
from simulator.table.api import game_json
from simulator.table.selectors import Access, access_of, table_access
from simulator.table.snapshots import Snapshot

CLOSE_NOT_FOUND = 4404
log = logging.getLogger(__name__)


def message_for(
    snap: Snapshot,
    access: Access,
    after_talk: int,
    origin: Any,
    *,
    hello: bool = False,
    with_game: bool = True,
) -> dict[str, Any]:
    """The push message for `access`'s viewer; `hello`: the talk read as it is now (a
    reconnection sees its own hides); `with_game`: the game as they see it (else the version
    and talk only: the page fetches its own HTML)."""
    user = access.user
    uid = user.pk if getattr(user, "is_authenticated", False) else None
    with snap.lock:  # the viewers of a table share its state: one builds at a time
        game = None
        if with_game:
            game = game_json(table.seen(access, snap.engine_state(table.state_of)), origin)
        lines = []
        if talk.may_read(access):
            kept = snapshots.read_talk(snap.row) if hello else snap.talk()
            lines = [
                talk.talk_json(line)
                for line, hidden in kept
                if line.pk > after_talk and uid not in hidden
            ]
    message = {"type": "table", "version": snap.row.version, "talk": lines}
    if game is not None:
        message["game"] = game
    return message


class TableConsumer(AsyncJsonWebsocketConsumer):
    table_id: int
    sent_version: int = -1
    sent_talk: int = 0
    seats: list[int]
    #: The (table, person) whose presence this connection keeps (presence.arrived), if any.
    present: tuple[int, int, int] | None = None
    closed: bool = False
    #: The client's hello asked for the game in each message (`"game": false`: version only).
    with_game: bool = True

    async def connect(self) -> None:
        self.sending = asyncio.Lock()  # one message at a time, in order of versions
        self.table_id = int(self.scope["url_route"]["kwargs"]["pk"])
        self.user = await self._user()
        self.origin = _Origin(self.scope)
        try:
            access = await database_sync_to_async(table_access)(user=self.user, pk=self.table_id)
        except Http404:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        self.seats = list(access.seats)
        self.grace = access.game.grace_seconds
        self.counts = access.game.clock_seconds is not None and not access.game.is_over
        self._keep_presence()
        await self.channel_layer.group_add(announce.group(self.table_id), self.channel_name)
        await self.accept()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:  # however the connection ends (a handler that failed never sees disconnect)
            await self._let_go()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(announce.group(self.table_id), self.channel_name)
        sending = getattr(self, "sending", None)
        if sending is not None:
            async with sending:  # after a build in flight, which may take the seat's presence
                await self._let_go()

    async def _let_go(self) -> None:
        """The connection is over: it keeps nobody's presence any more; the person's grace
        starts now if it was their last connection to the table in this process."""
        self.closed = True
        held, self.present = self.present, None
        if held is not None and presence.left(held[0], held[1]) is not None:
            try:
                await database_sync_to_async(presence.gone, thread_sensitive=False)(*held)
            except Exception:  # their renewals stopped: they count as away after their grace
                log.warning("could not start table %s's person's grace", held[0], exc_info=True)

    def _keep_presence(self) -> None:
        """Hold the person's presence while this connection is open and they hold a seat."""
        uid = self.user.pk if getattr(self.user, "is_authenticated", False) else None
        counts = bool(self.seats) and self.counts and not self.closed
        if self.present is None and counts and uid is not None:
            self.present = (self.table_id, uid, self.grace)
            presence.arrived(*self.present)
        elif self.present is not None and not counts:
            presence.left(self.present[0], self.present[1])
            self.present = None

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        kind = content.get("type") if isinstance(content, dict) else None
        if kind == "hello":
            known, lines = content.get("version"), content.get("talk")
            self.sent_version = known if type(known) is int else -1
            self.sent_talk = lines if type(lines) is int else 0
            self.with_game = content.get("game") is not False
            await self._send_table(None, hello=True)
        elif kind == "ping":  # keeps the connection (and so the person's presence) alive
            await self.send_json({"type": "pong"})
        else:
            await self.send_json(
                {"type": "error", "code": "unknown_message", "detail": "Send hello or ping."}
            )

    async def table_changed(self, event: dict[str, Any]) -> None:
        if event["version"] > self.sent_version:
            await self._send_table(event)

    async def _send_table(self, note: dict[str, Any] | None, hello: bool = False) -> None:
        # Many viewers' builds run side by side (the loop's thread pool, each thread keeping
        # its database connection, not the one thread the thread-sensitive default would queue
        # them all on); a connection's own messages go one at a time.
        build = database_sync_to_async(self._build, thread_sensitive=False)
        async with self.sending:
            try:
                message = await build(note, hello)
            except Http404:  # the table is gone, or no longer visible to this viewer
                await self.close(code=CLOSE_NOT_FOUND)
                return
            if message is not None and not self.closed:
                try:
                    await self.send_json(message)
                except OSError:  # the client went away meanwhile: its disconnect follows
                    self.closed = True

    def _build(self, note: dict[str, Any] | None, hello: bool) -> dict[str, Any] | None:
        snap = snapshots.read(self.table_id, note, table.state_of)
        if snap.row.version <= self.sent_version and not hello:
            return None  # already sent (two notes of one change, or an older one)
        access = access_of(snap.row, snap.people, self.user)  # Http404: no longer visible
        message = message_for(
            snap, access, self.sent_talk, self.origin, hello=hello, with_game=self.with_game
        )
        self.seats = list(access.seats)
        self.grace = snap.row.grace_seconds
        self.counts = snap.row.clock_seconds is not None and not snap.row.is_over
        self._keep_presence()
        if message["talk"]:
            self.sent_talk = message["talk"][-1]["id"]
        self.sent_version = snap.row.version
        return message

    async def _user(self) -> Any:
        for name, value in self.scope.get("headers", []):
            if name == b"authorization" and value.lower().startswith(b"token "):
                key = value[6:].decode("latin-1").strip()
                return await database_sync_to_async(_token_user)(key)
        return self.scope.get("user") or AnonymousUser()


def _token_user(key: str) -> Any:
    token = Token.objects.select_related("user").filter(key=key).first()
    return token.user if token is not None and token.user.is_active else AnonymousUser()


class _Origin:
    """What the serializers ask of a request to make absolute links: this connection's host."""

    def __init__(self, scope: dict[str, Any]):
        headers = dict(scope.get("headers", []))
        self.host = headers.get(b"host", b"localhost").decode("latin-1")
        self.scheme = "https" if scope.get("scheme") == "wss" else "http"
        self.user = scope.get("user")

    def build_absolute_uri(self, path: str) -> str:
        return f"{self.scheme}://{self.host}{path}"
