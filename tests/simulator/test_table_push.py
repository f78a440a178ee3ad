"""The table's push channel (issue #26): over a real ASGI server (uvicorn, tests/asgi.py), every
seat sees the others' decisions without asking; a reconnecting client catches up; a stranger is
refused; a token authenticates."""

from __future__ import annotations

import json
from typing import Any

import pytest
from rest_framework.authtoken.models import Token
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


class Http:
    """An API client over real HTTP with a token (as a program holding a seat would be)."""

    def __init__(self, base: str, user: Any):
        import requests

        self.base = base
        self.token = Token.objects.get_or_create(user=user)[0].key
        self.session = requests.Session()
        self.session.headers["Authorization"] = f"Token {self.token}"

    def __call__(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        response = self.session.request(method, self.base + path, json=body, timeout=20)
        return response.status_code, (response.json() if response.content else None)


def socket(server, client: Http, table: int):
    return connect(
        f"{server.ws_url}/ws/tables/{table}/",
        additional_headers={"Authorization": f"Token {client.token}"},
        origin=server.url,
        open_timeout=10,
    )


def receive(ws, timeout: float = 10) -> dict[str, Any]:
    return json.loads(ws.recv(timeout))


def test_each_seat_sees_the_others_decisions_pushed(asgi_server):
    ann, bob = UserFactory(username="ann"), UserFactory(username="bob")
    a, b = Http(asgi_server.url, ann), Http(asgi_server.url, bob)
    status, game = a("POST", "/api/v1/games/", {
        "game": "drifter", "seats": [{"starter": "HSD-S1"}, {"player": "bob"}],
    })  # fmt: skip
    assert status == 201, game
    assert b("POST", f"/api/v1/games/{game['id']}/join/", {"starter": "HSD-S2"})[0] == 200
    with socket(asgi_server, a, game["id"]) as wa, socket(asgi_server, b, game["id"]) as wb:
        for ws in (wa, wb):
            ws.send(json.dumps({"type": "hello", "version": -1}))
        first = [receive(wa), receive(wb)]
        assert [m["game"]["status"] for m in first] == ["waiting", "waiting"]
        assert a("POST", f"/api/v1/games/{game['id']}/start/", {})[0] == 200
        pushed = [receive(wa), receive(wb)]
        statuses = sorted(m["game"]["status"] for m in pushed)
        assert statuses == ["their_turn", "your_turn"]
        assert pushed[0]["version"] == pushed[1]["version"]
