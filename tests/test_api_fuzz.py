"""Schemathesis drives every operation of the API from its own OpenAPI schema, as a developer
runs it (`schemathesis run`): every phase (examples, coverage, fuzzing, stateful) and every check,
against a live server, with a token, and with the objects the paths name made first. Whatever
the input, the answer is never a 5xx and is what the schema documents: status, content type,
headers and body; and input the schema calls invalid is refused.

The run in every `make test` is bounded (a few examples an operation); `make test-slow` runs the
same operations with many more.
"""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

# The API refuses a well-formed request that breaks a rule the schema cannot state (a card code
# that is not in the catalogue, an illegal deck, a run the engine cannot play) with a 400, which
# `positive_data_acceptance` would otherwise count as a valid request rejected. (The others are its
# defaults: 429 is the log-in lockout of the token operation, which the fuzzer feeds bad passwords.)
POSITIVE_STATUSES = ["2xx", "400", "401", "403", "404", "409", "429"]


def png() -> SimpleUploadedFile:
    picture = io.BytesIO()
    Image.new("RGB", (60, 84), "tan").save(picture, "PNG")
    return SimpleUploadedFile("scan.png", picture.getvalue())


@pytest.fixture
def owned(user, other_user, catalogue, settings, tmp_path) -> dict:
    """The objects the API's paths name, owned by `user`; an operation that deletes (or may
    delete) gets one of its own, so that the others still find theirs."""
    from rest_framework.authtoken.models import Token

    from cards.models import Card, KickerChip
    from collecting import services as collections
    from decks import services as decks
    from simulator.runs.services import run_create, run_execute_locally

    settings.MEDIA_ROOT = tmp_path
    cards = list(Card.objects.filter(card_set__code="HSD").order_by("number")[:6])
    chips = list(KickerChip.objects.filter(card_set__code="HSD").order_by("code")[:3])
    binder = collections.collection_create(owner=user, name="Binder", trade_list_public=True)
    entries, chip_rows, scans = [], [], []
    for card, chip in zip(cards, chips):
        collections.entry_adjust(collection=binder, card=card, delta=3)
        entries.append(binder.entries.get(card=card).pk)
        collections.chip_adjust(collection=binder, kicker_chip=chip, delta=2)
        chip_rows.append(binder.chips.get(kicker_chip=chip).pk)
        scans.append(
            collections.scan_create(owner=user, collection=binder, card=card, upload=png()).pk
        )
    wishes = [
        collections.wishlist_add(owner=user, card=card, quantity=9).entry.pk for card in cards[3:]
    ]
    deck = decks.deck_create(owner=user, name="Posse", cards={cards[0].code: 2}, is_public=True)
    deck = decks.deck_update(deck=deck, description="Second thoughts.")
    run, _ = run_create(
        owner=user,
        game="quickdraw",
        games=4,
        seed=3,
        players=[{"bot": "heuristic"}, {"bot": "random"}],
        dispatch=False,
    )
    run = run_execute_locally(run=run)
    from simulator.table.seating import table_game_create

    seats = [{}, {"bot": "heuristic"}]
    game = table_game_create(owner=user, game="quickdraw", seats=seats, seed=3).game
    from simulator.metagame import services as metagame

    starters = [
        {"starter": "HSD-S1", "share": 2},
        {"starter": "HSD-S2", "share": 1},
        {"starter": "HSD-S1", "share": 1, "bot": "random"},
    ]
    field = metagame.field_create(owner=user, name="Saturday", entries=starters, budget=200)
    field_run, _ = metagame.field_run_create(field=field, seed=3)
    field_run = metagame.field_run_execute_locally(field_run=field_run)
    return {
        "token": Token.objects.create(user=user).key,
        "other_token": Token.objects.create(user=other_user).key,
        "binder": binder.pk,
        "spare_collection": collections.collection_create(owner=user, name="Spare").pk,
        "imports": collections.collection_create(owner=user, name="Imports").pk,
        "entries": entries,
        "chips": chip_rows,
        "scans": scans,
        "wishes": wishes,
        "deck": deck.pk,
        "spare_deck": decks.deck_create(owner=user, name="Spare").pk,
        "version": deck.version,
        "slug": deck.slug,
        "pool": decks.pool_open_stud(owner=user, set_codes="HSD", seed=1).pk,
        "pod": decks.draft_pod_create(owner=user, seats=2, set_codes="HSD", seed=1).pk,
        "run": run.pk,
        "sample": run.samples.first().pk,
        "table_game": game.pk,
        "field": field.pk,
        "spare_field": metagame.field_create(owner=user, name="Spare", entries=starters[:2],
                                             budget=200).pk,
        "field_run": field_run.pk,
    }  # fmt: skip


def operation_settings(owned: dict) -> list[dict]:
    """Schemathesis' per-operation settings: the object each path names (the first setting that
    matches an operation decides, so the ones for a single method come first)."""
    binder = owned["binder"]

    def rows(kind: str, key: str) -> list[tuple]:
        path = rf"^/api/v1/collections/\{{collection_pk\}}/{kind}/\{{id\}}/$"
        get, patch, delete = owned[key]
        return [
            (path, "DELETE", {"path.collection_pk": binder, "path.id": delete}),
            (path, "PATCH", {"path.collection_pk": binder, "path.id": patch}),
            (path, None, {"path.collection_pk": binder, "path.id": get}),
        ]

    wish_get, wish_patch, wish_delete = owned["wishes"]
    scan_get, scan_delete = owned["scans"][:2]
    version, run, sample = owned["version"], owned["run"], owned["sample"]
    by_path = [
        (r"^/api/v1/cards/\{code\}/$", None, {"path.code": "HSD-001"}),
        (r"^/api/v1/sets/\{code\}/$", None, {"path.code": "HSD"}),
        (r"^/api/v1/kicker-chips/\{code\}/$", None, {"path.code": "HSD-K01"}),
        (r"^/api/v1/collections/\{id\}/$", "DELETE", {"path.id": owned["spare_collection"]}),
        (r"^/api/v1/collections/\{id\}/import/$", None, {"path.id": owned["imports"]}),
        (r"^/api/v1/collections/\{id\}/", None, {"path.id": binder}),
        (
            r"^/api/v1/collections/\{collection_pk\}/scans/\{id\}/$",
            "DELETE",
            {"path.collection_pk": binder, "path.id": scan_delete},
        ),
        (
            r"^/api/v1/collections/\{collection_pk\}/scans/\{id\}/$",
            None,
            {"path.collection_pk": binder, "path.id": scan_get},
        ),
        (r"^/api/v1/collections/\{collection_pk\}/", None, {"path.collection_pk": binder}),
        (r"^/api/v1/wishlist/\{id\}/$", "DELETE", {"path.id": wish_delete}),
        (r"^/api/v1/wishlist/\{id\}/$", "PATCH", {"path.id": wish_patch}),
        (r"^/api/v1/wishlist/\{id\}/$", None, {"path.id": wish_get}),
        (r"^/api/v1/decks/\{id\}/$", "DELETE", {"path.id": owned["spare_deck"]}),
        (r"^/api/v1/decks/\{id\}/", None, {"path.id": owned["deck"], "path.number": version}),
        (r"^/api/v1/decks/shared/", None, {"path.slug": owned["slug"]}),
        (r"^/api/v1/pools/\{id\}/", None, {"path.id": owned["pool"]}),
        (r"^/api/v1/drafts/\{id\}/", None, {"path.id": owned["pod"]}),
        (r"^/api/v1/simulations/\{id\}/", None, {"path.id": run, "path.sample_id": sample}),
        (r"^/api/v1/games/\{id\}/", None, {"path.id": owned["table_game"]}),
        (r"^/api/v1/fields/\{id\}/$", "DELETE", {"path.id": owned["spare_field"]}),
        (r"^/api/v1/fields/\{id\}/", None, {"path.id": owned["field"]}),
        (r"^/api/v1/field-runs/\{id\}/", None, {"path.id": owned["field_run"]}),
    ]  # fmt: skip
    # An operation's name is "METHOD /path"; one regex over it (separate include keys would
    # match either the method or the path).
    settings = [
        {"include-name-regex": f"^{method or '[A-Z]+'} {regex[1:]}", "parameters": parameters}
        for regex, method, parameters in [
            *rows("entries", "entries"),
            *rows("chips", "chips"),
            *by_path,
        ]
    ]
    # Asking for a token replaces the caller's: that operation runs as another user, so that
    # every other operation keeps a token that works.
    settings.append(
        {
            "include-name-regex": r"^POST /api/v1/tokens/$",
            "headers": {"Authorization": f"Token {owned['other_token']}"},
        }
    )
    # schemathesis 4.32 (stateful phase) may blank a multipart field as a negative case, then
    # fill it from a linked response and still report the request as invalid: the scan upload
    # is fuzzed in every other phase.
    settings.insert(
        0,
        {
            "include-name-regex": r"^POST /api/v1/collections/\{collection_pk\}/scans/$",
            "phases": {"stateful": {"enabled": False}},
        },
    )
    return settings


def toml_value(value) -> str:
    """A TOML value: an inline table for a dict, else JSON's spelling (the same for these)."""
    if isinstance(value, dict):
        return (
            "{ " + ", ".join(f"{json.dumps(k)} = {toml_value(v)}" for k, v in value.items()) + " }"
        )
    return json.dumps(value)


def config_toml(owned: dict) -> str:
    """The token for every request, what a 400 may mean, and each operation's settings."""
    # A connection per request: on a kept-alive connection to the test server every answer
    # waits ~40 ms for a delayed ACK, ten times what the request itself takes.
    lines = [
        f'headers = {{ Authorization = "Token {owned["token"]}", Connection = "close" }}',
        "[checks.positive_data_acceptance]",
        f"expected-statuses = {json.dumps(POSITIVE_STATUSES)}",
    ]
    for setting in operation_settings(owned):
        lines.append("[[operations]]")
        lines += [f"{key} = {toml_value(value)}" for key, value in setting.items()]
    return "\n".join(lines) + "\n"


def run_schemathesis(
    live_server, owned: dict, tmp_path: Path, *, max_examples: int, phases: str = ""
) -> str:
    """`schemathesis run` over every operation of the live server's schema with every check
    (in `phases` only, comma-separated, when given: else all of them); its output. The test
    fails with schemathesis' report when anything failed."""
    config = tmp_path / "schemathesis.toml"
    config.write_text(config_toml(owned))
    command = [
        str(Path(sys.executable).with_name("schemathesis")),
        "--config-file", str(config), "--no-color",
        "run", f"{live_server.url.replace('localhost', '127.0.0.1')}/api/schema/?format=json",
        "--checks", "all",
        "--max-examples", str(max_examples),
        "--workers", "1",
        "--generation-deterministic",
        "--suppress-health-check", "all",
        "--report-dir", str(tmp_path / "report"),
        *(["--phases", phases] if phases else []),
    ]  # fmt: skip
    result = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 0, result.stdout[-30_000:] + result.stderr[-5_000:]
    return result.stdout


@pytest.fixture
def no_worker(monkeypatch):
    """Runs the fuzzer starts stay queued: no chunk goes to a broker that no worker here reads
    (and that a later test's worker must not find)."""
    from simulator.runs import services

    monkeypatch.setattr(services, "_send", lambda *args: None)


# The run in two halves that the suite's two processes can take side by side: the coverage
# phase (every operation's boundary and negative cases, about half the time) and the others.
@pytest.mark.parametrize("phases", ["coverage", "examples,fuzzing,stateful"])
@pytest.mark.django_db(transaction=True)
def test_every_operation_answers_as_documented(live_server, owned, no_worker, tmp_path, phases):
    output = run_schemathesis(live_server, owned, tmp_path, max_examples=5, phases=phases)
    selected, total = re.search(r"Selected: (\d+)/(\d+)", output).groups()
    assert selected == total == re.search(r"Tested: (\d+)", output).group(1)


@pytest.mark.slow  # the same run with 200 examples an operation (make test-slow)
@pytest.mark.django_db(transaction=True)
def test_every_operation_answers_as_documented_at_length(live_server, owned, no_worker, tmp_path):
    run_schemathesis(live_server, owned, tmp_path, max_examples=200)
