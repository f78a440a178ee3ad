"""One handler for domain errors (issue #15, section 2): a `DomainError` carries one problem or
several, and `config.api.exception_handler` answers every one of them, each an item of the one
error shape, with the error's status. No view answers errors by itself, and a refused write
writes nothing.
"""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.views import APIView

from cards.models import Card, KickerChip
from collecting import csv_format as collection_csv
from collecting.models import Collection, CollectionEntry
from config.api import DomainError, exception_handler
from decks import services as deck_services
from decks.models import Deck, DeckCard, DeckVersion
from simulator.models import SimulationRun

THREE = [
    {"code": "unknown_card", "detail": "There is no card 'X-1'.", "attr": "cards", "card": "X-1"},
    {"code": "deck_size", "detail": "A deck has exactly 54 cards.", "attr": "cards", "limit": 54},
    {"detail": "Pick one.", "code": "format_conflict"},  # keys in any order, attr left out
]


def test_several_problems_answer_as_several_items_in_the_one_shape():
    response = exception_handler(DomainError(problems=THREE), {})
    assert response.status_code == 400
    errors = response.data["errors"]
    assert [list(e)[:3] for e in errors] == [["code", "detail", "attr"]] * 3
    assert errors == [
        THREE[0],
        THREE[1],
        {"code": "format_conflict", "detail": "Pick one.", "attr": None},
    ]


def test_one_problem_keeps_its_extras_and_the_status_is_the_errors_own():
    error = DomainError("You own 3.", code="already_owned", attr="quantity", status=409, owned=3)
    response = exception_handler(error, {})
    assert response.status_code == 409
    assert response.data == {
        "errors": [
            {"code": "already_owned", "detail": "You own 3.", "attr": "quantity", "owned": 3}
        ]
    }
    assert (error.code, error.detail, error.attr) == ("already_owned", "You own 3.", "quantity")


def test_the_first_problem_names_the_error_and_every_problem_its_message():
    error = DomainError(problems=THREE, status=413)
    assert (error.code, error.detail, error.attr, error.status) == (
        "unknown_card",
        "There is no card 'X-1'.",
        "cards",
        413,
    )
    assert str(error) == "There is no card 'X-1'.; A deck has exactly 54 cards.; Pick one."
    assert DomainError("one").status == 400  # the class's status unless told otherwise


@pytest.mark.parametrize(
    ("args", "kwargs", "raised"),
    [
        ((), {}, TypeError),  # neither a detail nor problems
        (("one",), {"problems": THREE}, TypeError),  # both
        ((), {"problems": THREE, "line": 3}, TypeError),  # extras belong in each problem
        ((), {"problems": []}, ValueError),  # no problem is no error
    ],
)
def test_a_domain_error_is_one_problem_or_several(args, kwargs, raised):
    with pytest.raises(raised):
        DomainError(*args, **kwargs)


def _api_views(resolver: URLResolver, prefix: str = ""):
    for pattern in resolver.url_patterns:
        if isinstance(pattern, URLResolver):
            yield from _api_views(pattern, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern) and (prefix + str(pattern.pattern)).startswith("api/"):
            view = getattr(pattern.callback, "cls", None)
            if view is not None:
                yield prefix + str(pattern.pattern), view


def test_no_api_view_answers_errors_by_itself():
    views = list(_api_views(get_resolver()))
    assert len(views) > 20  # the walk found the API
    overriding = [
        (path, view.__name__)
        for path, view in views
        if issubclass(view, APIView)
        and (
            view.handle_exception is not APIView.handle_exception
            or view.get_exception_handler is not APIView.get_exception_handler
        )
    ]
    assert overriding == []


@pytest.mark.django_db
def test_a_deck_change_with_several_bad_entries_answers_all_and_changes_nothing(
    user, user_client, catalogue
):
    card = Card.objects.order_by("code").first()
    deck = deck_services.deck_create(owner=user, name="Mine", cards={card.code: 2})
    before = (deck.version, list(DeckCard.objects.values_list("card__code", "qty")))
    response = user_client.patch(
        f"/api/v1/decks/{deck.pk}/",
        {
            "cards": [{"code": card.code, "qty": 3}, {"code": "HSD-999", "qty": 1}],
            "kicker_chips": [{"code": "HSD-K98", "qty": 1}, {"code": "HSD-K99", "qty": 1}],
        },
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["errors"] == [
        {"code": "unknown_card", "detail": "There is no card 'HSD-999'.", "attr": "cards",
         "card": "HSD-999"},
        {"code": "unknown_kicker_chip", "detail": "There is no kicker chip 'HSD-K98'.",
         "attr": "kicker_chips", "kicker_chip": "HSD-K98"},
        {"code": "unknown_kicker_chip", "detail": "There is no kicker chip 'HSD-K99'.",
         "attr": "kicker_chips", "kicker_chip": "HSD-K99"},
    ]  # fmt: skip
    deck.refresh_from_db()
    after = (deck.version, list(DeckCard.objects.values_list("card__code", "qty")))
    assert after == before and DeckVersion.objects.filter(deck=deck).count() == 1


@pytest.mark.django_db
def test_a_run_with_several_bad_players_answers_all_and_starts_nothing(user_client, catalogue):
    payload = {
        "game": "drifter",
        "format": "standard",
        "games": 4,
        "players": [
            {"starter": "HSD-S1", "bot": "nobody"},
            {"starter": "HSD-S2", "bot": "random", "add": {"HSD-999": 1}},
        ],
    }
    response = user_client.post("/api/v1/simulations/", payload, format="json")
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert [(e["code"], e["attr"]) for e in errors] == [
        ("unknown_bot", "players.0.bot"),
        ("unknown_card", "players.1.cards"),
    ]
    assert all(list(e)[:3] == ["code", "detail", "attr"] for e in errors)
    assert not SimulationRun.objects.exists()


@pytest.fixture
def binder(user, catalogue) -> Collection:
    return Collection.objects.create(owner=user, name="Binder")


@pytest.mark.django_db
def test_an_import_with_several_bad_rows_answers_all_and_imports_nothing(user_client, binder):
    card = Card.objects.order_by("code").first()
    chip = KickerChip.objects.order_by("code").first()
    csv = f"code,qty\n{card.code},2\nHSD-999,1\n{chip.code},1\nHSD-K99,1\n".encode()
    response = user_client.post(
        f"/api/v1/collections/{binder.pk}/import/",
        {"file": SimpleUploadedFile("c.csv", csv)},
        format="multipart",
    )
    assert response.status_code == 400
    assert response.json()["errors"] == [
        {"code": "unknown_card", "detail": "No card HSD-999.", "attr": "code", "line": 3,
         "column": "code"},
        {"code": "unknown_chip", "detail": "No kicker chip HSD-K99.", "attr": "code", "line": 5,
         "column": "code"},
    ]  # fmt: skip
    assert not CollectionEntry.objects.exists() and not binder.chips.exists()


@pytest.mark.django_db
def test_an_import_over_the_size_limit_is_a_413_from_the_error_itself(
    user_client, binder, monkeypatch
):
    monkeypatch.setattr(collection_csv, "MAX_BYTES", 2**20)
    csv = b"code,qty\n" + b"HSD-001,1\n" * (2**20 // 10 + 1)
    response = user_client.post(
        f"/api/v1/collections/{binder.pk}/import/",
        {"file": SimpleUploadedFile("c.csv", csv)},
        format="multipart",
    )
    assert response.status_code == 413
    assert [e["code"] for e in response.json()["errors"]] == ["file_too_large"]
    assert not CollectionEntry.objects.exists()


@pytest.mark.django_db
def test_a_deck_service_refusal_is_the_rules_modules_entry_check(user, catalogue):
    """The deck service and the validator run one entry check: the same entries, the same
    problems, word for word."""
    from decks.engine_catalogue import engine_catalogue
    from simulator.engine.drifter import formats

    card = Card.objects.order_by("code").first()
    cards = {card.code: 0, "HSD-999": 2, "HSD-998": "3"}
    chips = {"HSD-K99": 1}
    with pytest.raises(DomainError) as refused:
        deck_services.deck_create(owner=user, name="Bad", cards=cards, kicker_chips=chips)
    catalogue = engine_catalogue()
    checked = formats.check_entries(
        cards, chips, card_codes=catalogue.card_by_code, chip_codes=catalogue.chip_by_code
    )
    assert refused.value.problems == [p.as_dict() for p in checked]
    assert [p["code"] for p in refused.value.problems] == [
        "bad_quantity", "unknown_card", "bad_quantity", "unknown_kicker_chip",
    ]  # fmt: skip
    validated = formats.validate_deck(fmt="standard", cards=cards, kicker_chips=chips,
                                      catalogue=catalogue)  # fmt: skip
    assert [p for p in validated if p in checked] == checked
    assert not Deck.objects.exists()
