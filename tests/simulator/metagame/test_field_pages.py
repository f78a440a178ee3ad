"""The metagame lab's pages (#28): the field list, the form (new, edit, its problems beside
their inputs with nothing written), a field and its runs, copy and delete, owner scoping, and
a finished field run's page with its answer, tier list, matchups, equilibrium and drift."""

from __future__ import annotations

import html as html_module
import json
import re

import pytest

from simulator.metagame.models import Field, FieldRun
from simulator.metagame.services import field_create, field_run_create, field_run_execute_locally
from tests.simulator.metagame.test_fields_api import legal_deck

pytestmark = pytest.mark.django_db

BOT = "heuristic"
FIVE = [
    {"starter": "HSD-S1", "share": 3},
    {"starter": "HSD-S2", "share": 2},
    {"starter": "HSD-S1", "bot": "random", "share": 1},
    {"starter": "HSD-S2", "bot": "sharp", "share": 2},
    {"starter": "HSD-S1", "bot": "sharp", "share": 1},
]


def a_field(owner, **extra) -> Field:
    values = {"name": "Saturday night", "bot": BOT, "budget": 300, "entries": FIVE[:3], **extra}
    return field_create(owner=owner, **values)


def played(field: Field) -> FieldRun:
    field_run, _ = field_run_create(field=field, seed=3)
    return field_run_execute_locally(field_run=field_run)


def visible(html: str) -> str:
    """The words a person reads: no tags, no scripts (chart data), no attribute values."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return html_module.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


def assert_in_words(text: str) -> None:
    """No code's words: ids like deck:4, snake_case keys, a bot's bare key in brackets."""
    assert not re.search(r"\b(deck|starter|public_deck):\S", text), text
    assert not re.search(r"\b[a-z]+_[a-z_]+\b", text), re.findall(r"\b[a-z]+_[a-z_]+\b", text)
    assert "(heuristic)" not in text and "(sharp)" not in text


def form_data(entries: list[dict], **extra) -> dict[str, str]:
    """The field form as a browser posts it: 8 rows, the first ones with these decks."""
    data = {"name": "Saturday night", "format": "standard", "bot": BOT, "budget": "2000",
            "confidence": "0.95", "target": "best", "rows": "8"}  # fmt: skip
    for i, entry in enumerate(entries):
        kind = next(k for k in ("starter", "deck", "public_deck") if k in entry)
        data[f"choice_{i}"] = f"{kind}:{entry[kind]}"
        data[f"share_{i}"] = str(entry["share"])
        data[f"bot_{i}"] = entry.get("bot", "")
    return {**data, **extra}


def test_the_pages_render_for_the_owner(web, user, catalogue):
    field = a_field(user, entries=[*FIVE[:2], {"deck": legal_deck(user).pk, "share": 1}])
    listing = web.get("/simulations/fields/")
    assert listing.status_code == 200
    assert (
        "Saturday night" in listing.content.decode() and "Not run yet" in listing.content.decode()
    )
    assert 'href="/simulations/fields/new/"' in listing.content.decode()
    new = web.get("/simulations/fields/new/").content.decode()
    assert new.count('<li class="field-row') == 8 and "Shares are relative" in new
    assert '<optgroup label="Starter decks">' in new and "Boomtown copy" in new
    assert (
        web.get("/simulations/fields/new/?rows=16").content.decode().count('<li class="field-row')
        == 16
    )
    page = web.get(f"/simulations/fields/{field.pk}/").content.decode()
    words = visible(page)
    assert "Boomtown Law starter deck" in words and "Boomtown copy your deck" in words
    assert "50%" in words and "33.3%" in words and "16.7%" in words  # shares 3, 2 and 1
    assert "Standard · heads-up · decks played by the heuristic bot" in words and "Run it" in words
    assert_in_words(words)
    edit = web.get(f"/simulations/fields/{field.pk}/edit/").content.decode()
    assert 'value="deck:' in edit and "Change the field" in edit
    # A field saved without a bot plays the game's default one, and its form says so.
    default = a_field(user, bot="")
    edit = web.get(f"/simulations/fields/{default.pk}/edit/").content.decode()
    assert 'value="sharp" selected' in edit.split('id="id_bot"')[1].split("</select>")[0]
    # The links where people find the lab: the simulations page and the home page.
    assert 'href="/simulations/fields/"' in web.get("/simulations/").content.decode()
    assert 'href="/simulations/fields/"' in web.get("/").content.decode()


def test_another_users_private_field_and_field_runs_are_404(web, user, other_user, catalogue):
    private = a_field(other_user, name="Theirs")
    public = a_field(other_user, name="Theirs, public", public=True)
    theirs = played(public)
    for url in (f"/simulations/fields/{private.pk}/", f"/simulations/fields/{private.pk}/edit/",
                f"/simulations/field-runs/{theirs.pk}/",
                f"/simulations/field-runs/{theirs.pk}/progress/"):  # fmt: skip
        assert web.get(url).status_code == 404, url
    posts = [f"/simulations/fields/{private.pk}/{action}/" for action in ("copy", "delete")]
    posts += [f"/simulations/fields/{public.pk}/{action}/" for action in ("run", "delete")]
    for url in [*posts, f"/simulations/field-runs/{theirs.pk}/cancel/"]:
        assert web.post(url).status_code == 404, url
    assert web.get(f"/simulations/fields/{public.pk}/edit/").status_code == 404
    # A public field is read and copied, never changed or run by another.
    page = web.get(f"/simulations/fields/{public.pk}/").content.decode()
    assert "Copy to my fields" in page and "Run it" not in page and "Delete" not in page
    listing = web.get("/simulations/fields/").content.decode()
    assert "Theirs, public" in listing and "Theirs</a>" not in listing
    assert Field.objects.count() == 2 and FieldRun.objects.count() == 1


@pytest.mark.parametrize(
    ("change", "where", "row"),
    [
        ({"share_1": "-2"}, "Deck 2's share:", 1),
        ({"share_0": "0", "share_1": "0"}, "Decks:", None),
        ({"share_0": "lots"}, "Deck 1's share:", 0),
        ({"budget": "50"}, "Budget:", None),
        ({"budget": "2000000"}, "Budget:", None),
        ({"choice_1": "starter:NOPE"}, "Deck 2:", 1),
        ({"name": ""}, "Name:", None),
    ],
)
def test_bad_input_shows_the_problem_and_writes_nothing(web, catalogue, change, where, row):
    response = web.post("/simulations/fields/new/", form_data(FIVE[:2], **change))
    assert response.status_code == 400
    page = response.content.decode()
    errors = visible(page.split('id="field-errors"')[1].split("</div>")[0])
    assert "The field was not saved" in errors and where in errors
    assert_in_words(errors)
    if row is not None:
        assert f'class="field-row has-problem" id="row-{row}"' in page
    # What was typed is shown again.
    assert 'value="starter:HSD-S1" selected' in page
    assert Field.objects.count() == 0


def test_creating_editing_copying_and_deleting_through_the_pages(web, user, other_user, catalogue):
    # A row left without a deck is no deck; the rows after it still count.
    data = form_data(FIVE[:2], choice_3="starter:HSD-S1", share_3="1", bot_3="random")
    created = web.post("/simulations/fields/new/", data)
    field = Field.objects.get()
    assert created.status_code == 302 and created["Location"] == f"/simulations/fields/{field.pk}/"
    assert field.entries == [{"starter": "HSD-S1", "share": 3}, {"starter": "HSD-S2", "share": 2},
                             {"starter": "HSD-S1", "bot": "random", "share": 1}]  # fmt: skip
    assert (field.owner, field.budget, field.bot, field.public) == (user, 2000, BOT, False)
    # "More rows" keeps what was typed, shows every row a field may have, saves nothing.
    more = web.post(f"/simulations/fields/{field.pk}/edit/", {**data, "more_rows": "1"})
    assert more.status_code == 200 and more.content.decode().count('<li class="field-row') == 16
    assert 'value="starter:HSD-S1" selected' in more.content.decode()
    edited = web.post(
        f"/simulations/fields/{field.pk}/edit/",
        form_data([FIVE[0], {"starter": "HSD-S2", "share": 2.5}], name="Sunday", target="support",
                  confidence="0.9", public="on", budget="6000"),
    )  # fmt: skip
    assert edited.status_code == 302
    field.refresh_from_db()
    assert field.name == "Sunday" and field.target == "support" and field.public
    assert field.confidence == 0.9 and field.budget == 6000
    assert field.entries[1] == {"starter": "HSD-S2", "share": 2.5}
    # Someone else copies it (it is public now), and owns the copy.
    web.force_login(other_user)
    copied = web.post(f"/simulations/fields/{field.pk}/copy/")
    copy = Field.objects.exclude(pk=field.pk).get()
    assert copied["Location"] == f"/simulations/fields/{copy.pk}/"
    assert copy.owner == other_user and copy.entries == field.entries and not copy.public
    assert web.post(f"/simulations/fields/{field.pk}/delete/").status_code == 404
    deleted = web.post(f"/simulations/fields/{copy.pk}/delete/")
    assert deleted["Location"] == "/simulations/fields/"
    assert list(Field.objects.all()) == [field]


def test_a_field_run_started_from_the_page_shows_its_progress_then_its_answer(web, user, catalogue):
    field = a_field(user, entries=FIVE[:4])
    started = web.post(f"/simulations/fields/{field.pk}/run/", {"idempotency_key": "once"})
    field_run = FieldRun.objects.get()
    assert started["Location"] == f"/simulations/field-runs/{field_run.pk}/"
    again = web.post(f"/simulations/fields/{field.pk}/run/", {"idempotency_key": "once"})
    assert again["Location"] == started["Location"] and FieldRun.objects.count() == 1
    page = web.get(started["Location"]).content.decode()
    assert 'hx-trigger="every 1s"' in page and "0 of 300 games" in visible(page)
    assert "This run plays heads-up matchups" in page
    assert 'id="cancel-field-run"' in page
    field_run = field_run_execute_locally(field_run=field_run)
    assert field_run.status == "done", field_run.error
    fragment = web.get(f"/simulations/field-runs/{field_run.pk}/progress/").content.decode()
    assert "hx-trigger" not in fragment and 'id="field-summary"' in fragment
    listing = visible(web.get("/simulations/fields/").content.decode())
    assert "Bring " in listing and "against the field" in listing


def test_a_finished_field_run_shows_every_section(web, user, catalogue):
    field_run = played(a_field(user, entries=FIVE))
    result = field_run.result
    page = web.get(f"/simulations/field-runs/{field_run.pk}/").content.decode()
    words = visible(page)
    assert_in_words(words)
    best = result["best_response"]
    name = field_run.entries[best["deck"]]["label"].replace("(sharp)", "(sharp bot)")
    name = name.replace("(heuristic)", "(heuristic bot)").replace("(random)", "(random bot)")
    assert f"Bring {name}: it wins" in words and "the chance it is the best choice is" in words
    stopped = "The budget ran out" if result["stopped_by"] == "budget" else "Answered at the 95%"
    assert stopped in words
    # (a) the tier list: a chart of win rates with intervals, and a table in tier order
    assert page.count('<tr class="tier-') == 5
    chart = json.loads(page.split('id="tier-chart-data" type="application/json">')[1].split("<")[0])
    assert chart["kind"] == "rates" and len(chart["series"][0]["intervals"]) == 5
    # (b) the matchups: a 5 × 5 grid, the mirror on the diagonal, each cell's interval
    heatmap = page.split('id="heatmap"')[1].split("</table>")[0]
    assert heatmap.count('class="heat-mirror"') == 5 and heatmap.count("<td") == 25
    assert "50% by symmetry" in heatmap and "games" in heatmap
    assert "going first evens out" in words
    # (c) the equilibrium: its mix, how firm, the best response, the cycles
    for part in (
        "equilibrium-chart",
        "equilibrium-stability",
        "equilibrium-table",
        "best-response",
    ):
        assert f'id="{part}' in page
    assert "rock-paper-scissors" in words.lower() or "beats" in words
    # (d) where the meta goes: a line a deck over the generations, and where it ends
    drift = json.loads(
        page.split('id="drift-chart-data" type="application/json">')[1].split("<")[0]
    )
    assert drift["kind"] == "lines" and len(drift["series"]) == 5
    assert drift["labels"][0] == "0" and len(drift["labels"]) <= 101
    assert any(w in words for w in ("It settles after", "still moving", "never settles"))
    # (e) where the games went, (f) the export
    assert page.count('<tr><th scope="row">') >= 10  # the ten pairs, among the tables
    assert f'href="/api/v1/field-runs/{field_run.pk}/export/?as=csv"' in page
    assert f'href="/api/v1/field-runs/{field_run.pk}/export/?as=json"' in page


def test_a_field_run_for_the_equilibrium_names_its_decks_first(web, user, catalogue):
    field_run = played(a_field(user, target="support"))
    words = visible(web.get(f"/simulations/field-runs/{field_run.pk}/").content.decode())
    summary = words.split("The answer")[1].split("Tier list")[0]
    assert summary.strip().startswith("The equilibrium")
    assert (
        "the equilibrium has exactly" in summary
        and "Against the field as you gave it: bring" in summary
    )
    assert_in_words(words)


def test_a_heads_up_field_offers_to_doctor_one_of_my_decks_against_it(
    web, user, other_user, catalogue
):
    """The field page's "Doctor it against this field" goes to the deck doctor's form for the
    chosen deck of mine with the field chosen; someone else's deck, or a field of bigger tables
    (the doctor measures heads-up), is a 404."""
    mine = legal_deck(user, name="My posse")
    theirs = legal_deck(other_user, name="Their posse")
    field = a_field(user)
    page = web.get(f"/simulations/fields/{field.pk}/").content.decode()
    assert 'id="field-doctor"' in page and f'<option value="{mine.pk}">My posse</option>' in page
    assert "Their posse" not in page
    response = web.get(f"/simulations/fields/{field.pk}/doctor/?deck={mine.pk}")
    assert response.status_code == 302
    assert response["Location"] == f"/simulations/doctor/deck/{mine.pk}/?field={field.pk}"
    form = web.get(response["Location"]).content.decode()
    assert re.search(rf'<option value="{field.pk}"[^>]*selected', form), "the field is chosen"
    assert web.get(f"/simulations/fields/{field.pk}/doctor/?deck={theirs.pk}").status_code == 404
    assert web.get(f"/simulations/fields/{field.pk}/doctor/?deck=x").status_code == 404
    four = a_field(user, name="Four at a table", table_size=4)
    assert 'id="field-doctor"' not in web.get(f"/simulations/fields/{four.pk}/").content.decode()
    assert web.get(f"/simulations/fields/{four.pk}/doctor/?deck={mine.pk}").status_code == 404
