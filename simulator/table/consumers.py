"""The table's push channel (issue #26): `ws(s)://<host>/ws/tables/<id>/`.

A connection is one viewer of one table: a seat's holder, or a spectator where the table
allows them. It authenticates with the site's session cookie or an API token
(`Authorization: Token <key>`). The channel layer carries only "table N is now at version V"
(simulator/table/announce.py); each connection then builds its own viewer's answer through the
same code as the HTTP API (`services.seen`, `api.game_json`), so a pushed message holds
exactly what that viewer may see. Messages (docs/api.md, "The push channel"):

- to the client: `{"type": "table", "version", "game", "talk"}` (the table as this viewer
  sees it, with the lines of table talk it has not had), `{"type": "pong"}`, `{"type":
  "error", "code", "detail"}`;
- from the client: `{"type": "hello", "version": V, "talk": T}` (on every (re)connection: the
  version and the last line of talk it saw; the answer is the table as it is now), `{"type":
  "ping"}` (every few seconds: the seat's person is here).

A table's viewers in one process share what their answers are built from: the row, its
people's seats, the state rebuilt from the record and the talk, read once a version
(`Snapshot`); each viewer's own part (`services.seen` for their seat) is built from it.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.contrib.auth.models import AnonymousUser
from django.db import DatabaseError, connection
from django.http import Http404
from rest_framework.authtoken.models import Token

from simulator.table import announce, talk
from simulator.table import services as table
from simulator.table.api import game_json
from simulator.table.models import TableGame, TableMessage, TableSeat
from simulator.table.selectors import access_of, table_access

CLOSE_NOT_FOUND = 4404
#: Table versions kept per process for the viewers still to be sent them.
SNAPSHOTS_KEPT = 256


@dataclass
class Snapshot:
    """A table at one version, as every viewer's answer is built from it."""

    row: TableGame
    people: list[TableSeat]
    state: Any
    talk: list[tuple[TableMessage, frozenset[int]]]  # each line, and who hid it
    lock: threading.Lock = field(default_factory=threading.Lock)


_SNAPSHOTS: OrderedDict[tuple[int, int, str], Snapshot] = OrderedDict()
_SNAPSHOTS_LOCK = threading.Lock()


def snapshot(table_id: int, note: dict[str, Any] | None = None) -> Snapshot:
    """The table as of the change `note` announced (None: now), read once for all its viewers
    in this process; Http404 if it is gone."""
    if note is not None:
        with _SNAPSHOTS_LOCK:
            kept = _SNAPSHOTS.get((table_id, note["version"], note.get("saved", "")))
        if kept is not None:
            return kept
    row = TableGame.objects.select_related("owner").filter(pk=table_id).first()
    if row is None:
        raise Http404("No such table.")
    key = (table_id, row.version, row.updated_at.isoformat())
    with _SNAPSHOTS_LOCK:
        kept = _SNAPSHOTS.get(key)
    if kept is not None:
        return kept
    people = list(TableSeat.objects.filter(table=row).select_related("user").order_by("index"))
    row._people_cache = {p.index: p for p in people}  # type: ignore[attr-defined]
    lines = TableMessage.objects.filter(table=row).select_related("author").order_by("id")
    hidden: dict[int, set[int]] = {}
    for line_id, user_id in TableMessage.hidden_by.through.objects.filter(
        tablemessage__table=row
    ).values_list("tablemessage_id", "user_id"):
        hidden.setdefault(line_id, set()).add(user_id)
    made = Snapshot(
        row=row,
        people=people,
        state=None if row.record is None else table.state_of(row),
        talk=[(line, frozenset(hidden.get(line.pk, ()))) for line in lines],
    )
    with _SNAPSHOTS_LOCK:
        made = _SNAPSHOTS.setdefault(key, made)
        while len(_SNAPSHOTS) > SNAPSHOTS_KEPT:
            _SNAPSHOTS.popitem(last=False)
    return made


def message_for(snap: Snapshot, user: Any, after_talk: int, origin: Any) -> dict[str, Any]:
    """The push message for `user` (Http404 if they may not see the table any more)."""
    access = access_of(snap.row, snap.people, user)
    with snap.lock:  # the viewers of a table share its state: one builds at a time
        seen = table.seen(access, snap.state)
        game = game_json(seen, origin)
    uid = user.pk if getattr(user, "is_authenticated", False) else None
    lines = []
    if talk.may_read(access):
        lines = [
            talk.talk_json(line)
            for line, hidden in snap.talk
            if line.pk > after_talk and uid not in hidden
        ]
    return {"type": "table", "version": snap.row.version, "game": game, "talk": lines}


class TableConsumer(AsyncJsonWebsocketConsumer):
    table_id: int
    sent_version: int = -1
    sent_talk: int = 0
    seats: list[int]

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
        self.every = table.presence_every(access.game.grace_seconds)
        self.touched = 0.0
        await self.channel_layer.group_add(announce.group(self.table_id), self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(announce.group(self.table_id), self.channel_name)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        kind = content.get("type") if isinstance(content, dict) else None
        if kind == "hello":
            known, lines = content.get("version"), content.get("talk")
            self.sent_version = known if type(known) is int else -1
            self.sent_talk = lines if type(lines) is int else 0
            await self._send_table(None, force=True)
        elif kind == "ping":
            now = time.monotonic()
            if self.seats and now - self.touched >= self.every.total_seconds():
                # Written at most every few seconds a connection: on SQLite every write
                # queues for the one write lock the moves need.
                self.touched = now
                await database_sync_to_async(self._touch, thread_sensitive=False)()
            await self.send_json({"type": "pong"})
        else:
            await self.send_json(
                {"type": "error", "code": "unknown_message", "detail": "Send hello or ping."}
            )

    async def table_changed(self, event: dict[str, Any]) -> None:
        if event["version"] > self.sent_version:
            await self._send_table(event)

    async def _send_table(self, note: dict[str, Any] | None, force: bool = False) -> None:
        # Many viewers' builds run side by side (a thread pool, not the one thread the
        # thread-sensitive default would queue them all on); a table's viewers take turns.
        build = sync_to_async(self._build_keeping_connection, thread_sensitive=False)
        async with self.sending:
            try:
                message = await build(note, force)
            except Http404:  # the table is gone, or no longer visible to this viewer
                await self.close(code=CLOSE_NOT_FOUND)
                return
            if message is not None:
                await self.send_json(message)

    def _build_keeping_connection(self, note: dict | None, force: bool) -> dict | None:
        """`_build` in a thread of the pool, whose SQLite connection is kept for the next build
        (opening one runs its PRAGMAs: a tenth of a push's cost) unless it failed; PostgreSQL's
        goes back to its pool."""
        try:
            return self._build(note, force)
        except DatabaseError:
            connection.close()
            raise
        finally:
            if connection.vendor != "sqlite":
                connection.close()

    def _build(self, note: dict[str, Any] | None, force: bool) -> dict[str, Any] | None:
        snap = snapshot(self.table_id, note)
        if snap.row.version <= self.sent_version and not force:
            return None  # already sent (two notes of one change, or an older one)
        message = message_for(snap, self.user, self.sent_talk, self.origin)
        self.seats = [s["index"] for s in message["game"]["seats"] if s["yours"]]
        if message["talk"]:
            self.sent_talk = message["talk"][-1]["id"]
        self.sent_version = snap.row.version
        return message

    def _touch(self) -> None:
        try:
            access = table_access(user=self.user, pk=self.table_id)
        except Http404:
            return
        if access.seats:
            table.seating_touch(access)

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
