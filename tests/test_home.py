"""The home page: what a visitor can do; a signed-in person's own recent decks, collections
and runs (nobody else's)."""

from __future__ import annotations

import pytest
from django.test import Client

from collecting.models import Collection
from simulator.models import SimulationRun
from tests.factories import DeckFactory

pytestmark = pytest.mark.django_db


def _run(owner, game: str) -> SimulationRun:
    return SimulationRun.objects.create(
        owner=owner,
        game=game,
        games=10,
        total_games=10,
        seed=1,
        chunk_size=10,
        chunk_count=1,
        plan={},
    )


def test_a_visitor_is_shown_what_to_do_and_nobodys_work(user):
    DeckFactory(owner=user, name="Somebody's deck")
    body = Client().get("/").content.decode()
    for link in ('href="/cards/"', 'href="/decks/public/"', 'href="/play/"', "Simulate games"):
        assert link in body
    assert 'id="recent"' not in body and "Somebody&#x27;s deck" not in body


def test_a_member_sees_their_own_recent_work_only(user, other_user):
    for i in range(7):
        DeckFactory(owner=user, name=f"Mine {i}")
    DeckFactory(owner=other_user, name="Theirs")
    Collection.objects.create(owner=user, name="Binder")
    Collection.objects.create(owner=other_user, name="Their binder")
    _run(user, "gunfighter")
    _run(other_user, "duel")
    web = Client()
    web.force_login(user)
    body = web.get("/").content.decode()
    recent_decks = body.split('id="recent-decks"')[1].split("</section>")[0]
    assert recent_decks.count("<li>") == 5  # the five newest of seven
    assert "Theirs" not in body and "Their binder" not in body and "Binder" in body
    runs = body.split('id="recent-runs"')[1].split("</section>")[0]
    assert "Gunfighter" in runs and runs.count("<li>") == 1  # the game's name, not its code
