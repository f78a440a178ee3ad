"""The table's push channel (issue #26): `ws(s)://<host>/ws/tables/<id>/`.

A connection is one viewer of one table: a seat's holder, or a spectator where the table
allows them. It authenticates with the site's session cookie or an API token
(`Authorization: Token <key>`). The channel layer carries only "table N is now at version V"
(simulator/table/announce.py); each connection then builds its own viewer's answer through the
same code as the HTTP API (`services.seen`, `api.GameSerializer`), so a pushed message holds
exactly what that viewer may see. Messages (docs/api.md, "The push channel"):

- to the client: `{"type": "table", "version", "game", "talk"}` (the table as this viewer
  sees it, with the lines of table talk it has not had), `{"type": "pong"}`, `{"type":
  "error", "code", "detail"}`;
- from the client: `{"type": "hello", "version": V}` (on every (re)connection: the version it
  last saw; the answer is the current table if it has changed), `{"type": "ping"}` (every
  few seconds: the seat's person is here).
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.contrib.auth.models import AnonymousUser
from django.http import Http404
from rest_framework.authtoken.models import Token

from simulator.table import announce, talk
from simulator.table import services as table
from simulator.table.api import GameSerializer
from simulator.table.selectors import table_access

CLOSE_NOT_FOUND = 4404


class TableConsumer(AsyncJsonWebsocketConsumer):
    table_id: int
    sent_version: int = -1
    sent_talk: int = 0

    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["pk"])
        self.user = await self._user()
        try:
            await database_sync_to_async(table_access)(user=self.user, pk=self.table_id)
        except Http404:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        await self.channel_layer.group_add(announce.group(self.table_id), self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(announce.group(self.table_id), self.channel_name)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        kind = content.get("type") if isinstance(content, dict) else None
        if kind == "hello":
            known = content.get("version")
            self.sent_version = known if type(known) is int else -1
            self.sent_talk = content.get("talk") if type(content.get("talk")) is int else 0
            await self._send_table(force=True)
        elif kind == "ping":
            await database_sync_to_async(self._touch)()
            await self.send_json({"type": "pong"})
        else:
            await self.send_json(
                {"type": "error", "code": "unknown_message", "detail": "Send hello or ping."}
            )

    async def table_changed(self, event: dict[str, Any]) -> None:
        if event["version"] > self.sent_version:
            await self._send_table()

    async def _send_table(self, force: bool = False) -> None:
        try:
            message = await database_sync_to_async(self._build)(force)
        except Http404:  # the table is gone, or no longer visible to this viewer
            await self.close(code=CLOSE_NOT_FOUND)
            return
        if message is not None:
            await self.send_json(message)

    def _build(self, force: bool) -> dict[str, Any] | None:
        seen = table.table_game_seen(owner=self.user, pk=self.table_id, here=False)
        version = seen.game.version
        if version == self.sent_version and not force:
            return None
        access = seen.access
        if access is None:  # table_game_seen always says whose view it built
            raise RuntimeError("a table seen without its viewer")
        lines = list(talk.talk_list(access, after=self.sent_talk))
        if lines:
            self.sent_talk = lines[-1].pk
        self.sent_version = version
        return {
            "type": "table",
            "version": version,
            "game": GameSerializer(seen, context={"request": _Origin(self.scope)}).data,
            "talk": [talk.talk_json(line) for line in lines],
        }

    def _touch(self) -> None:
        access = table_access(user=self.user, pk=self.table_id)
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
