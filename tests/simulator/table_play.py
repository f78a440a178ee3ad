"""Helpers of the table's tests: the seats of each game and a whole game played through the
API, every answer kept."""

from __future__ import annotations

from typing import Any

GAMES = ["drifter", "gunfighter", "duel", "quickdraw", "tabletown"]
SEED = 1_987_654_321  # distinctive: a served answer that held it would show it


def seats_of(game: str, bot: str = "heuristic") -> list[dict[str, Any]]:
    """The caller in seat 0 against one bot (High Stakes Drifter: two starter decks)."""
    if game == "drifter":
        return [{"starter": "HSD-S1"}, {"starter": "HSD-S2", "bot": bot}]
    return [{}, {"bot": bot}]


def play_through(client, game: str, *, pick=None, **body) -> list[dict[str, Any]]:
    """Start `game` and play the caller's seat to the end; every answer, in order. `pick(n,
    answer)` chooses the index of the legal action (default: they take turns)."""
    pick = pick or (lambda n, answer: n % len(answer["legal_actions"]))
    response = client.post(
        "/api/v1/games/", {"game": game, "seats": seats_of(game), **body}, format="json"
    )
    assert response.status_code == 201, response.json()
    answers = [response.json()]
    while answers[-1]["status"] != "over":
        last = answers[-1]
        action = last["legal_actions"][pick(len(answers), last)]["action"]
        response = client.post(
            last["url"] + "actions/", {"move": last["move"], "action": action}, format="json"
        )
        assert response.status_code == 200, response.json()
        answers.append(response.json())
        assert len(answers) < 2000, "a game that never ends"
    return answers
