"""The pages of a table people share (issue #26, section 1) with Django's test client: opening a
table from /play/ with named, open and bot seats and its pace; the lobby; joining by the table
page and by the invitation link; starting, leaving, resigning, taking the seat back; table
talk; a spectator's page; the home page's "your turn" and invitations; sign-up's email. Bad
input is a 4xx saying why with nothing written; another user's table is a 404; only the seat's
holder acts."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from simulator.table import seating
from simulator.table.models import TableGame, TableMessage, TableSeat
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def ann(db):
    return UserFactory(username="ann")


@pytest.fixture
def bob(db):
    return UserFactory(username="bob")


@pytest.fixture
def cat(db):
    return UserFactory(username="cat")


def open_form(**extra) -> dict[str, str]:
    """/play/'s form: ann's starter, seat 2 kept for bob, seat 3 the heuristic bot."""
    return {
        "game": "drifter",
        "deck_0": "starter:HSD-S1",
        "bot_1": "@player",
        "player_1": "bob",
        "bot_2": "heuristic",
        "deck_2": "starter:HSD-S2",
        "grace": "5",
        **extra,
    }


def waiting(ann, *, second: dict | None = None, **options) -> TableGame:
    """ann's table waiting for bob (or whoever `second` names), with a bot in seat 3."""
    seen = seating.table_game_create(
        owner=ann,
        game="drifter",
        seats=[
            {"starter": "HSD-S1"},
            second or {"player": "bob"},
            {"bot": "heuristic", "starter": "HSD-S2"},
        ],
        **options,
    )
    return seen.game


def started(ann, bob, *, bot: bool = True, **options) -> TableGame:
    """ann's table with bob sat down (and a bot in seat 3 unless not `bot`), begun."""
    if bot:
        row = waiting(ann, **options)
    else:
        row = seating.table_game_create(
            owner=ann, game="drifter", seats=[{"starter": "HSD-S1"}, {"player": "bob"}], **options
        ).game
    seating.table_join(user=bob, pk=row.pk, deck={"starter": "HSD-S2"})
    seating.table_start(user=ann, pk=row.pk)
    return TableGame.objects.get(pk=row.pk)


def act_form(html: str) -> dict[str, str]:
    move, action = re.search(
        r'name="move" value="(\d+)">\s*<input type="hidden" name="action" value="([^"]*)">', html
    ).groups()
    return {"move": move, "action": action.replace("&quot;", '"')}


def test_a_table_with_a_named_player_an_open_seat_and_a_bot_is_opened_from_the_form(
    catalogue, ann, bob
):
    form = open_form(bot_3="@open", deck_3="starter:HSD-S1", pace="live", clock="45",
                     listed="1", spectators="1", spectators_talk="1", on_resign="bot")  # fmt: skip
    response = client_of(ann).post("/play/", form)
    row = TableGame.objects.get()
    assert response["Location"] == f"/play/{row.pk}/"
    assert row.is_waiting and row.invite_token
    assert (row.clock_seconds, row.grace_seconds, row.on_resign) == (45, 5, "bot")
    assert row.listed and row.spectators and row.spectators_talk
    people = {p.index: (p.user, p.state) for p in row.people.all()}
    assert people == {0: (ann, "seated"), 1: (bob, "invited"), 3: (None, "open")}
    assert row.seats[2]["bot"] == "heuristic"
    html = client_of(ann).get(f"/play/{row.pk}/").content.decode()
    assert 'id="play-waiting"' in html and 'id="start"' in html and 'id="fill-start"' in html
    assert f"/play/join/{row.invite_token}/" in html  # the host's invitation link
    assert "Open seat" in html and "bob" in html and "invited" in html


def test_a_table_of_me_and_bots_begins_at_once_as_before(catalogue, ann):
    client_of(ann).post("/play/", {"game": "drifter", "deck_0": "starter:HSD-S1",
                                   "bot_1": "heuristic", "deck_1": "starter:HSD-S2"})  # fmt: skip
    row = TableGame.objects.get()
    assert row.status == TableGame.Status.PLAYING and row.clock_seconds is None


def test_a_correspondence_deadline_is_given_in_hours(catalogue, ann, bob):
    client_of(ann).post("/play/", open_form(pace="correspondence", deadline_hours="48"))
    row = TableGame.objects.get()
    assert (row.pace, row.clock_seconds) == ("correspondence", 48 * 3600)


@pytest.mark.parametrize(
    "bad, said",
    [
        ({"player_1": "nobody"}, "No player is named &#x27;nobody&#x27;."),
        ({"player_1": "ann"}, "That is you"),
        ({"clock": "soon"}, "The clock in seconds is a whole number."),
        ({"clock": "2"}, "A live table&#x27;s clock is 5 to 3,600 seconds a decision."),
        ({"grace": "1"}, "The grace is 5 to 3,600 seconds."),
        ({"on_timeout": "shrug"}, "On timeout: bot or forfeit."),
        ({"pace": "gallop"}, "The pace is live or correspondence."),
    ],
)
def test_a_bad_table_is_a_400_saying_why_and_opens_nothing(catalogue, ann, bob, bad, said):
    response = client_of(ann).post("/play/", open_form(**bad))
    assert response.status_code == 400
    assert said in response.content.decode()
    assert TableGame.objects.count() == 0


def test_the_lobby_lists_waiting_tables_and_your_tables_put_those_waiting_on_you_first(
    catalogue, ann, bob, cat
):
    listed = waiting(ann, second={"open": True}, listed=True)
    mine = started(ann, bob)
    html = client_of(cat).get("/play/").content.decode()
    lobby = html.split('id="lobby"')[1].split("</section>")[0]
    assert f'href="/play/{listed.pk}/"' in lobby and "hosted by ann" in lobby
    assert "2 of 3 seats taken, 1 open" in lobby  # ann and the bot; seat 2 is open
    assert f'href="/play/{listed.pk}/#join-form"' in lobby
    assert f"/play/{mine.pk}/" not in html  # not listed, not cat's
    person = ann if mine.to_act == 0 else bob
    html = client_of(person).get("/play/").content.decode()
    resume = html.split('id="resume"')[1]
    assert resume.index(f'href="/play/{mine.pk}/"') < resume.index(f'href="/play/{listed.pk}/"')
    assert f'href="/play/{mine.pk}/"' in html.split('id="your-turn"')[1].split("</ul>")[0]


def test_an_invited_player_joins_with_a_deck_and_a_bad_deck_is_a_400_writing_nothing(
    catalogue, ann, bob
):
    row = waiting(ann)
    web = client_of(bob)
    page = web.get(f"/play/{row.pk}/").content.decode()
    assert 'id="join-form"' in page and 'name="deck"' in page and 'name="stand_in"' in page
    refused = web.post(f"/play/{row.pk}/join/", {"deck": "deck:999999"})
    assert refused.status_code == 400
    assert "Refused" in refused.content.decode()
    assert TableSeat.objects.get(table=row, index=1).state == TableSeat.State.INVITED
    bad_bot = web.post(f"/play/{row.pk}/join/", {"deck": "starter:HSD-S2", "stand_in": "genius"})
    assert bad_bot.status_code == 400 and "has no bot" in bad_bot.content.decode()
    joined = web.post(f"/play/{row.pk}/join/", {"deck": "starter:HSD-S2", "stand_in": "random"})
    assert joined["Location"] == f"/play/{row.pk}/"
    seat = TableSeat.objects.get(table=row, index=1)
    assert (seat.state, seat.source, seat.stand_in) == ("seated", "starter:HSD-S2", "random")


def test_the_invitation_link_is_a_page_to_sit_down_at(catalogue, ann, cat):
    row = waiting(ann, second={"open": True})
    web = client_of(cat)
    page = web.get(f"/play/join/{row.invite_token}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "ann invites you to table" in html and 'id="join-form"' in html
    assert web.get("/play/join/not-a-token/").status_code == 404
    assert (
        web.post(f"/play/join/{row.invite_token}/", {"deck": "starter:HSD-S2"}).status_code == 302
    )
    assert TableSeat.objects.get(table=row, index=1).user == cat
    # Seated: the link leads to the table.
    assert web.get(f"/play/join/{row.invite_token}/")["Location"] == f"/play/{row.pk}/"


def test_another_users_table_is_a_404_on_every_page(catalogue, ann, bob, cat):
    row = started(ann, bob)
    web = client_of(cat)
    for url in ("", "live/", "talk/", "replay/"):
        assert web.get(f"/play/{row.pk}/{url}").status_code == 404, url
    for url in ("act/", "join/", "start/", "leave/", "resign/", "end/", "take-back/", "talk/",
                "talk/hide/", "talk/remove/", "again/"):  # fmt: skip
        assert web.post(f"/play/{row.pk}/{url}", {"move": 0, "action": "{}", "text": "hi",
                                                  "line": 1}).status_code == 404, url  # fmt: skip
    assert TableGame.objects.get(pk=row.pk).version == row.version
    # Anyone not logged in is asked to log in (it says nothing about the table).
    assert Client().get(f"/play/{row.pk}/")["Location"].startswith("/accounts/login/")


def test_only_the_seat_to_act_acts_and_only_the_host_starts(catalogue, ann, bob):
    row = waiting(ann)
    seating.table_join(user=bob, pk=row.pk, deck={"starter": "HSD-S2"})
    refused = client_of(bob).post(f"/play/{row.pk}/start/")
    assert (
        refused.status_code == 403 and "Only the host starts the table." in refused.content.decode()
    )
    assert TableGame.objects.get(pk=row.pk).is_waiting
    assert client_of(ann).post(f"/play/{row.pk}/start/").status_code == 302
    row.refresh_from_db()
    actor, waiter = (ann, bob) if row.to_act == 0 else (bob, ann)
    form = act_form(client_of(actor).get(f"/play/{row.pk}/").content.decode())
    waiting_page = client_of(waiter).get(f"/play/{row.pk}/").content.decode()
    assert 'id="play-actions"' not in waiting_page
    assert f"Waiting for {actor.username}" in waiting_page
    out_of_turn = client_of(waiter).post(f"/play/{row.pk}/act/", form)
    assert out_of_turn.status_code == 409
    assert "It is not your turn" in out_of_turn.content.decode()
    assert TableGame.objects.get(pk=row.pk).move == row.move
    assert client_of(actor).post(f"/play/{row.pk}/act/", form).status_code == 302
    assert TableGame.objects.get(pk=row.pk).move > row.move


def test_the_live_partial_is_the_tables_living_part_as_the_viewer_sees_it(catalogue, ann, bob):
    row = started(ann, bob)
    html = client_of(ann).get(f"/play/{row.pk}/live/").content.decode()
    assert f'data-version="{row.version}"' in html and 'id="play"' in html
    assert "<html" not in html


def test_a_spectator_sees_the_public_table_and_no_hand(catalogue, ann, bob):
    row = started(ann, bob, spectators=True)
    for client in (Client(), client_of(UserFactory(username="dan"))):
        page = client.get(f"/play/{row.pk}/")
        assert page.status_code == 200
        html = page.content.decode()
        hands = re.findall(r'class="zone hand">(.*?)</div></div>', html, re.S)
        assert hands and all('class="hsd-card"' not in hand for hand in hands)
        assert "seat-you" not in html and 'id="play-actions"' not in html
        assert 'id="talk-form"' not in html


def test_leaving_before_the_start_opens_the_seat_and_resigning_puts_it_out(catalogue, ann, bob):
    row = waiting(ann)
    seating.table_join(user=bob, pk=row.pk, deck={"starter": "HSD-S2"})
    assert client_of(bob).post(f"/play/{row.pk}/leave/").status_code == 302
    assert TableSeat.objects.get(table=row, index=1).state == TableSeat.State.OPEN
    row = started(ann, bob)
    assert client_of(bob).post(f"/play/{row.pk}/resign/").status_code == 302
    row.refresh_from_db()
    assert not row.is_over  # ann and the bot play on
    assert TableSeat.objects.get(table=row, index=1).state == TableSeat.State.OUT
    assert "bob resigned." in client_of(ann).get(f"/play/{row.pk}/").content.decode()
    again = client_of(bob).post(f"/play/{row.pk}/resign/")
    assert (
        again.status_code == 409
        and "You hold no seat still in this game." in again.content.decode()
    )


def test_a_player_takes_their_seat_back_from_the_stand_in(catalogue, ann, bob):
    row = started(ann, bob)
    TableSeat.objects.filter(table=row, index=1).update(standing_in=True, why="away")
    page = client_of(bob).get(f"/play/{row.pk}/").content.decode()
    assert "A bot is playing for you." in page and 'id="take-back"' in page
    assert "a bot plays for them" in client_of(ann).get(f"/play/{row.pk}/").content.decode()
    assert client_of(bob).post(f"/play/{row.pk}/take-back/").status_code == 302
    assert not TableSeat.objects.get(table=row, index=1).standing_in
    refused = client_of(bob).post(f"/play/{row.pk}/take-back/")
    assert refused.status_code == 409 and "No bot plays for you here." in refused.content.decode()


def test_the_host_ends_a_table_nobody_plays_and_not_one_someone_plays(catalogue, ann, bob):
    row = started(ann, bob)
    refused = client_of(ann).post(f"/play/{row.pk}/end/")
    assert refused.status_code == 409 and "bob still play" in refused.content.decode()
    assert client_of(bob).post(f"/play/{row.pk}/end/").status_code == 403
    TableSeat.objects.filter(table=row, index=1).update(standing_in=True, why="away")
    assert client_of(ann).post(f"/play/{row.pk}/end/").status_code == 302
    for person in (ann, bob):  # over: no decision is offered to anyone, whoever was to act
        html = client_of(person).get(f"/play/{row.pk}/").content.decode()
        assert "The table was ended" in html and 'id="play-actions"' not in html


def test_table_talk_is_escaped_limited_hideable_and_removable_by_the_host(catalogue, ann, bob):
    row = started(ann, bob)
    web = client_of(bob)
    assert (
        web.post(f"/play/{row.pk}/talk/", {"text": "<script>alert(1)</script> draw!"}).status_code
        == 302
    )
    html = client_of(ann).get(f"/play/{row.pk}/").content.decode()
    assert "&lt;script&gt;alert(1)&lt;/script&gt; draw!" in html and "<script>alert" not in html
    before = TableMessage.objects.count()
    too_long = web.post(f"/play/{row.pk}/talk/", {"text": "x" * 301})
    assert too_long.status_code == 400
    assert "at most 300 characters" in too_long.content.decode()
    # htmx gets the panel with the reason under the form, and what was typed to send again.
    htmx = {"HX-Request": "true"}
    panel = web.post(f"/play/{row.pk}/talk/", {"text": "y" * 301}, headers=htmx).content.decode()
    assert 'id="talk-error"' in panel and "at most 300 characters" in panel and "y" * 301 in panel
    assert TableMessage.objects.count() == before
    for n in range(4):
        web.post(f"/play/{row.pk}/talk/", {"text": f"line {n}"})
    too_fast = web.post(f"/play/{row.pk}/talk/", {"text": "again"})
    assert too_fast.status_code == 429 and "wait a moment" in too_fast.content.decode()
    panel = web.post(f"/play/{row.pk}/talk/", {"text": "again"}, headers=htmx).content.decode()
    assert "wait a moment" in panel
    assert TableMessage.objects.count() == before + 4
    line = TableMessage.objects.filter(author=bob).first()
    hidden = client_of(ann).post(f"/play/{row.pk}/talk/hide/", {"line": line.pk},
                                 headers={"HX-Request": "true"})  # fmt: skip
    assert "&lt;script&gt;" not in hidden.content.decode()
    assert "&lt;script&gt;" in client_of(bob).get(f"/play/{row.pk}/talk/").content.decode()
    assert client_of(bob).post(f"/play/{row.pk}/talk/remove/", {"line": line.pk}).status_code == 403
    assert client_of(ann).post(f"/play/{row.pk}/talk/remove/", {"line": line.pk}).status_code == 302
    assert "Removed by the host." in client_of(bob).get(f"/play/{row.pk}/talk/").content.decode()
    system = client_of(bob).get(f"/play/{row.pk}/talk/").content.decode()
    assert "talk-line talk-system" in system  # "bob sat down in seat 2." is the table's own


def test_a_spectator_talks_only_where_the_host_allows(catalogue, ann, bob):
    row = started(ann, bob, spectators=True)
    dan = UserFactory(username="dan")
    assert client_of(dan).post(f"/play/{row.pk}/talk/", {"text": "hi"}).status_code == 403
    TableGame.objects.filter(pk=row.pk).update(spectators_talk=True)
    assert client_of(dan).post(f"/play/{row.pk}/talk/", {"text": "hi"}).status_code == 302


def test_bot_decisions_for_a_person_are_marked(catalogue, ann, bob):
    row = started(ann, bob)
    TableGame.objects.filter(pk=row.pk).update(
        stand_in_moves=[{"move": 4, "seat": 1, "bot": "heuristic", "why": "away"}]
    )
    html = client_of(ann).get(f"/play/{row.pk}/").content.decode()
    assert "Move 5: Heuristic bot for bob (away)" in html


def test_the_history_lists_finished_games_against_people(catalogue, ann, bob):
    row = started(ann, bob, bot=False)
    seating.table_resign(user=bob, pk=row.pk)
    html = client_of(ann).get("/play/history/").content.decode()
    assert f'href="/play/{row.pk}/"' in html and "you won" in html
    assert "you lost" in client_of(bob).get("/play/history/").content.decode()


def test_the_home_page_lists_your_turn_and_your_invitations(catalogue, ann, bob, cat):
    row = started(ann, bob)
    invited = seating.table_game_create(
        owner=cat, game="drifter", seats=[{"starter": "HSD-S1"}, {"player": "ann"}]
    ).game
    person = ann if row.to_act == 0 else bob
    html = client_of(person).get("/").content.decode()
    assert f'href="/play/{row.pk}/"' in html.split('id="your-turn"')[1].split("</ul>")[0]
    html = client_of(ann).get("/").content.decode()
    assert "cat invites you to High Stakes Drifter" in html
    assert f'href="/play/{invited.pk}/"' in html.split('id="invitations"')[1]


def test_sign_up_takes_an_optional_email(db):
    form = {"username": "drover", "password1": "saddle-up-partner-1",
            "password2": "saddle-up-partner-1"}  # fmt: skip
    assert (
        Client().post("/accounts/signup/", {**form, "email": "not-an-address"}).status_code == 200
    )
    assert not get_user_model().objects.filter(username="drover").exists()
    assert Client().post("/accounts/signup/", {**form, "email": "d@example.com"}).status_code == 302
    assert get_user_model().objects.get(username="drover").email == "d@example.com"
    form["username"] = "quiet"
    assert Client().post("/accounts/signup/", form).status_code == 302
    assert get_user_model().objects.get(username="quiet").email == ""


def test_a_decision_is_served_as_the_person_to_act_sees_it_and_pushed_as_a_new_version(
    catalogue, ann, bob
):
    row = started(ann, bob)
    actor = ann if row.to_act == 0 else bob
    web = client_of(actor)
    form = act_form(web.get(f"/play/{row.pk}/").content.decode())
    answer = web.post(f"/play/{row.pk}/act/", form, headers={"HX-Request": "true"})
    assert answer.status_code == 200
    after = TableGame.objects.get(pk=row.pk)
    assert after.version > row.version
    assert f'data-version="{after.version}"' in answer.content.decode()
