"""Helpers of the shared table's tests: a table of several people (and a bot) opened through
the API, and a whole game played by each person's own client, every answer each viewer got
kept for the no-leak check."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from rest_framework.test import APIClient

from tests.factories import UserFactory

#: How many people sit at each game's table (the rest of its seats: one bot, where it seats
#: more than two).
PEOPLE = {"drifter": 3, "tabletown": 3, "gunfighter": 2, "duel": 2, "quickdraw": 2}
DECKS = ["HSD-S1", "HSD-S2"]


def client_of(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def people_seats(game: str, names: list[str], *, bot: bool = True) -> list[dict[str, Any]]:
    """The host's seat, a seat kept for each of `names`, and a bot where the game seats more."""
    deck = game == "drifter"
    seats: list[dict[str, Any]] = [{"starter": DECKS[0]} if deck else {}]
    seats += [{"player": name} for name in names]
    if bot and PEOPLE[game] > 2:
        seats.append({"bot": "heuristic", **({"starter": DECKS[1]} if deck else {})})
    return seats


class Table:
    """A table of people opened and started through the API: `clients[i]` holds seat i (None
    for a bot's), `answers[viewer]` every answer that viewer got (None: a spectator)."""

    def __init__(
        self,
        game: str,
        *,
        people: int | None = None,
        connect: Callable[[Any], Any] = client_of,
        anonymous: Callable[[], Any] = APIClient,
        **options: Any,
    ):
        self.game = game
        count = people or PEOPLE[game]
        self.users = [UserFactory() for _ in range(count)]
        self.host = connect(self.users[0])
        names = [u.username for u in self.users[1:]]
        body = {"game": game, "seats": people_seats(game, names), "spectators": True, **options}
        response = self.host.post("/api/v1/games/", body, format="json")
        assert response.status_code == 201, response.json()
        self.url = response.json()["url"]
        self.id = response.json()["id"]
        self.clients: list[Any] = [self.host]
        for user in self.users[1:]:
            client = connect(user)
            deck = {"starter": DECKS[1]} if game == "drifter" else {}
            joined = client.post(self.url + "join/", deck, format="json")
            assert joined.status_code == 200, joined.json()
            self.clients.append(client)
        while len(self.clients) < len(body["seats"]):
            self.clients.append(None)
        self.spectator = anonymous()
        self.answers: dict[int | None, list[dict[str, Any]]] = {}

    def start(self) -> dict[str, Any]:
        response = self.host.post(self.url + "start/", {}, format="json")
        assert response.status_code == 200, response.json()
        return response.json()

    def look(self) -> None:
        """Every viewer reads the table (kept in `answers`)."""
        for seat, client in enumerate(self.clients):
            if client is not None:
                response = client.get(self.url)
                assert response.status_code == 200
                self.answers.setdefault(seat, []).append(response.json())
        response = self.spectator.get(self.url)
        assert response.status_code == 200
        self.answers.setdefault(None, []).append(response.json())

    def play(
        self,
        pick: Callable[[int, dict], int] | None = None,
        limit: int = 3000,
        start: bool = True,
        everyone: bool = True,
    ) -> dict:
        """Each person in turn acts through their own client until the end (`start`: the host
        starts the table first); the last answer. Before each decision every viewer reads the
        table (`everyone` False: only the person to act, as the previous answer names them;
        every viewer at the end)."""
        rng = random.Random(self.game)
        pick = pick or (lambda n, answer: rng.randrange(len(answer["legal_actions"])))
        latest = self.start() if start else None
        for n in range(limit):
            if everyone or latest is None or latest["status"] == "over":
                self.look()
                latest = self.answers[0][-1]
            if latest["status"] == "over":
                return latest
            seat = latest["to_act"]
            if not everyone:
                response = self.clients[seat].get(self.url)
                assert response.status_code == 200
                self.answers.setdefault(seat, []).append(response.json())
            mine = self.answers[seat][-1]
            assert mine["status"] == "your_turn" and mine["seat"] == seat, mine["status"]
            action = mine["legal_actions"][pick(n, mine)]["action"]
            response = self.clients[seat].post(
                self.url + "actions/", {"move": mine["move"], "action": action}, format="json"
            )
            assert response.status_code == 200, response.json()
            self.answers[seat].append(response.json())
            latest = response.json()
        raise AssertionError("a game that never ends")

    def record(self) -> dict[str, Any]:
        response = self.host.get(self.url + "record/")
        assert response.status_code == 200, response.json()
        return response.json()["record"]


class HttpClient:
    """A client of a real server over HTTP, as a program holding a seat is: `Authorization:
    Token <key>` (none: anonymous), the same calls as DRF's APIClient."""

    def __init__(self, base: str, user: Any = None):
        import requests
        from rest_framework.authtoken.models import Token

        self.base = base
        self.session = requests.Session()
        self.token = Token.objects.get_or_create(user=user)[0].key if user is not None else None
        if self.token:
            self.session.headers["Authorization"] = f"Token {self.token}"

    def _url(self, url: str) -> str:
        return url if url.startswith("http") else self.base + url

    def get(self, url: str) -> Any:
        return self.session.get(self._url(url), timeout=30)

    def post(self, url: str, data: Any = None, format: str = "json") -> Any:
        return self.session.post(self._url(url), json=data, timeout=30)
