"""Writes: decks (every API save keeps a version; the builder's clicks wait for "Save
version"), text import, sealed pools, draft pods.

Services take keyword arguments, run in one transaction and raise a `DomainError` carrying every
problem before writing anything when the input is bad.
"""

from __future__ import annotations

import secrets
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from django.db import transaction
from django.db.models import Sum

from cards.models import Card, CardSet, KickerChip
from config.api import DomainError
from decks.engine_catalogue import engine_catalogue
from decks.models import (
    Deck,
    DeckCard,
    DeckKickerChip,
    DeckVersion,
    DraftPick,
    DraftPod,
    DraftSeat,
    Pool,
)
from decks.selectors import deck_contents
from decks.text import parse_text
from simulator.engine.drifter import formats, sealed

UNSET: Any = object()


def _refuse(problems: list[formats.Problem]) -> DomainError:
    """Bad deck input: every problem, in the API's error shape."""
    return DomainError(problems=[p.as_dict() for p in problems])


def _check_format(fmt: str | Iterable[str]) -> str:
    variants, problems = formats.parse_format(fmt)
    if problems:
        raise _refuse(problems)
    return formats.format_name(variants)


def _check_entries(
    cards: Mapping[str, Any], kicker_chips: Mapping[str, Any]
) -> tuple[dict[Card, int], dict[KickerChip, int]]:
    """Quantities and codes checked by the rules module's one entry check, every problem
    reported; the rows to write."""
    found_cards: dict[str, Card] = {}
    found_chips: dict[str, KickerChip] = {}
    # too many entries is the one problem then: no query with thousands of codes
    if len(cards) + len(kicker_chips) <= formats.MAX_ENTRIES:
        found_cards = {c.code: c for c in Card.objects.filter(code__in=list(cards))}
        found_chips = {k.code: k for k in KickerChip.objects.filter(code__in=list(kicker_chips))}
    problems = formats.check_entries(
        cards, kicker_chips, card_codes=found_cards, chip_codes=found_chips
    )
    if problems:
        raise _refuse(problems)
    return (
        {found_cards[c]: q for c, q in cards.items()},
        {found_chips[c]: q for c, q in kicker_chips.items()},
    )


def _snapshot_of(deck: Deck) -> dict[str, Any]:
    """The deck as a version keeps it."""
    cards, chips = deck_contents(deck)
    return {
        "name": deck.name,
        "description": deck.description,
        "format": deck.format,
        "pool": deck.pool_id,
        "cards": cards,
        "kicker_chips": chips,
    }


def _snapshot(deck: Deck, note: str = "") -> DeckVersion:
    deck.version += 1
    deck.unsaved_changes = False
    deck.save(update_fields=["version", "unsaved_changes", "updated"])
    return DeckVersion.objects.create(
        deck=deck, number=deck.version, note=note, snapshot=_snapshot_of(deck)
    )


def _differs_from_latest(deck: Deck) -> bool:
    latest = deck.versions.order_by("-number").first()
    return latest is None or latest.snapshot != _snapshot_of(deck)


def _write_contents(deck: Deck, cards: dict[Card, int], chips: dict[KickerChip, int]) -> None:
    deck.entries.all().delete()
    deck.chip_entries.all().delete()
    DeckCard.objects.bulk_create(DeckCard(deck=deck, card=c, qty=q) for c, q in cards.items())
    DeckKickerChip.objects.bulk_create(
        DeckKickerChip(deck=deck, kicker_chip=k, qty=q) for k, q in chips.items()
    )


def _check_pool(owner, pool: Pool | None) -> None:
    if pool is not None and pool.owner_id != owner.pk:
        raise DomainError("That pool is not yours.", code="not_your_pool", attr="pool")


@transaction.atomic
def deck_create(
    *,
    owner,
    name: str,
    fmt: str | Iterable[str] = formats.STANDARD,
    description: str = "",
    cards: Mapping[str, int] | None = None,
    kicker_chips: Mapping[str, int] | None = None,
    pool: Pool | None = None,
    is_public: bool = False,
    listed: bool = False,
) -> Deck:
    """A new deck (legal or not: legality is reported, not enforced) and its version 1."""
    fmt_name = _check_format(fmt)
    card_rows, chip_rows = _check_entries(cards or {}, kicker_chips or {})
    _check_pool(owner, pool)
    name = (name or "").strip()
    if not name:
        raise DomainError("A deck needs a name.", code="required", attr="name")
    deck = Deck.objects.create(
        owner=owner,
        name=name[:100],
        description=description,
        format=fmt_name,
        pool=pool,
        is_public=is_public,
        listed=listed,
    )
    _write_contents(deck, card_rows, chip_rows)
    _snapshot(deck)
    return deck


@transaction.atomic
def deck_update(
    *,
    deck: Deck,
    name: str = UNSET,
    description: str = UNSET,
    fmt: str | Iterable[str] = UNSET,
    cards: Mapping[str, int] = UNSET,
    kicker_chips: Mapping[str, int] = UNSET,
    pool: Pool | None = UNSET,
    is_public: bool = UNSET,
    listed: bool = UNSET,
    keep_version: bool = True,
) -> Deck:
    """Change a deck. Omitted fields stay as they are.

    With `keep_version` (every API write) a change is saved as a new version; without it (the
    builder's one-click edits) the deck changes at once but the change waits in
    `unsaved_changes` for `deck_version_save`. `is_public` opens the deck to anyone with its
    link; `listed` also shows a public deck in the public deck list (a listed deck that is not
    public is not shown); neither is a new version.
    """
    Deck.objects.select_for_update().filter(pk=deck.pk).first()
    deck.refresh_from_db()
    old_cards, old_chips = deck_contents(deck)
    new_cards = dict(cards) if cards is not UNSET else old_cards
    new_chips = dict(kicker_chips) if kicker_chips is not UNSET else old_chips
    card_rows, chip_rows = _check_entries(new_cards, new_chips)
    changed = False
    if fmt is not UNSET:
        fmt_name = _check_format(fmt)
        changed |= fmt_name != deck.format
        deck.format = fmt_name
    if pool is not UNSET:
        _check_pool(deck.owner, pool)
        changed |= (pool.pk if pool else None) != deck.pool_id
        deck.pool = pool
    if name is not UNSET:
        if not (name or "").strip():
            raise DomainError("A deck needs a name.", code="required", attr="name")
        changed |= name.strip() != deck.name
        deck.name = name.strip()[:100]
    if description is not UNSET:
        changed |= description != deck.description
        deck.description = description
    if is_public is not UNSET:
        deck.is_public = bool(is_public)  # sharing is not a change of the deck itself
    if listed is not UNSET:
        deck.listed = bool(listed)
    deck.save()
    if new_cards != old_cards or new_chips != old_chips:
        _write_contents(deck, card_rows, chip_rows)
        changed = True
    if changed and keep_version:
        _snapshot(deck)
    elif changed:
        deck.unsaved_changes = _differs_from_latest(deck)
        deck.save(update_fields=["unsaved_changes"])
    return deck


@transaction.atomic
def deck_version_save(*, deck: Deck, note: str = "") -> DeckVersion:
    """Save the deck as it stands as a new version, with an optional note ("Save version").

    A deck that is exactly its latest version has nothing to save: `nothing_to_save`.
    """
    Deck.objects.select_for_update().filter(pk=deck.pk).first()
    deck.refresh_from_db()
    note = (note or "").strip()
    if len(note) > 200:
        raise DomainError(
            "A version note has at most 200 characters.", code="max_length", attr="note"
        )
    if not _differs_from_latest(deck):
        if deck.unsaved_changes:
            deck.unsaved_changes = False
            deck.save(update_fields=["unsaved_changes"])
        raise DomainError(
            f"Nothing to save: the deck is as version {deck.version} left it.",
            code="nothing_to_save",
        )
    return _snapshot(deck, note)


@transaction.atomic
def deck_set_quantity(
    *,
    deck: Deck,
    card: str | None = None,
    kicker_chip: str | None = None,
    qty: int,
    keep_version: bool = False,
) -> Deck:
    """Set one card's or chip's quantity (0 removes it): the builder's one-click edit, kept as
    a version only when asked (`keep_version`) or saved later (`deck_version_save`)."""
    cards, chips = deck_contents(deck)
    target, code = (cards, card) if card else (chips, kicker_chip)
    if not code:
        raise DomainError("Name a card or a kicker chip.", code="required")
    if type(qty) is not int or qty < 0:
        raise DomainError("The quantity must be 0 or more.", code="bad_quantity", attr="qty")
    if qty:
        target[code] = qty
    else:
        target.pop(code, None)
    return deck_update(deck=deck, cards=cards, kicker_chips=chips, keep_version=keep_version)


@transaction.atomic
def deck_copy(*, deck: Deck, owner) -> Deck:
    """A private copy of a public deck (or of one's own) for `owner`: its name, description,
    format, cards and kicker chips. A Stud or Draw deck keeps its pool only for the pool's
    owner: anyone else's copy has no pool, and its legality says so."""
    if deck.owner_id != owner.pk and not deck.is_public:
        raise DomainError("No such deck.", code="not_found")
    cards, chips = deck_contents(deck)
    return deck_create(
        owner=owner,
        name=f"{deck.name} (copy)"[:100],
        description=deck.description,
        fmt=deck.format,
        cards=cards,
        kicker_chips=chips,
        pool=deck.pool if deck.owner_id == owner.pk else None,
    )


@transaction.atomic
def deck_delete(*, deck: Deck) -> None:
    deck.delete()


@transaction.atomic
def deck_import_text(
    *,
    owner,
    text: str,
    name: str = "",
    fmt: str | Iterable[str] | None = None,
    description: str = "",
    pool: Pool | None = None,
    deck: Deck | None = None,
) -> Deck:
    """A deck from a deck list (or replace `deck`'s contents); every bad line is reported and
    nothing is written if any line is wrong.

    A name or format left out is read from the list's header as our export writes it
    (`# <name>`, `# Format: <format>`), else "Imported deck" and standard.
    """
    parsed = parse_text(text, engine_catalogue())
    problems: list[formats.Problem] = list(parsed.problems)
    if problems:
        raise _refuse(problems)
    if deck is not None:
        return deck_update(
            deck=deck, cards=dict(parsed.cards), kicker_chips=dict(parsed.kicker_chips)
        )
    return deck_create(
        owner=owner,
        name=(name or "").strip() or parsed.name or "Imported deck",
        fmt=fmt or parsed.format or formats.STANDARD,
        description=description,
        cards=dict(parsed.cards),
        kicker_chips=dict(parsed.kicker_chips),
        pool=pool,
    )


# --- Sealed (Stud) -----------------------------------------------------------------------------


def _check_sets(set_codes: list[str]) -> None:
    known = set(CardSet.objects.filter(code__in=set_codes).values_list("code", flat=True))
    unknown = sorted(set(set_codes) - known)
    if unknown:
        raise DomainError(f"Unknown set {', '.join(unknown)}.", code="unknown_set", attr="sets")
    catalogue = engine_catalogue()
    for code in set_codes:
        s = catalogue.set(code)
        if not s.booster_slots or not s.card_codes:
            raise DomainError(f"{code} has no boosters to open.", code="no_boosters", attr="sets")


def _set_list(set_codes: str | list[str]) -> list[str]:
    codes = (
        [set_codes] * sealed.BOOSTERS_PER_PLAYER if isinstance(set_codes, str) else list(set_codes)
    )
    if len(codes) != sealed.BOOSTERS_PER_PLAYER:
        raise DomainError(
            f"Open exactly {sealed.BOOSTERS_PER_PLAYER} boosters (one set for all, or six sets).",
            code="bad_boosters",
            attr="sets",
        )
    return [str(c).upper() for c in codes]


@transaction.atomic
def pool_open_stud(
    *, owner, set_codes: str | list[str], seed: int | None = None, name: str = ""
) -> Pool:
    """Open six boosters (seeded; the seed and every booster are recorded) into a Stud pool."""
    codes = _set_list(set_codes)
    _check_sets(codes)
    seed = secrets.randbits(48) if seed is None else int(seed)
    boosters = sealed.open_boosters(engine_catalogue(), codes, seed)
    cards, chips = sealed.pool_of(boosters)
    return Pool.objects.create(
        owner=owner,
        kind=Pool.Kind.STUD,
        name=name or f"Stud pool ({', '.join(sorted(set(codes)))})",
        seed=seed,
        set_codes=codes,
        boosters=[b.to_json() for b in boosters],
        cards=dict(cards),
        kicker_chips=dict(chips),
    )


@transaction.atomic
def deck_from_pool(
    *, owner, pool: Pool, name: str = "", variants: Iterable[str] = (), auto: bool = True
) -> Deck:
    """A deck for `pool` in its format (plus `variants`): built automatically by
    `sealed.auto_build` (the best-rated cards, at least 18 dudes) or empty to build by hand.
    A Draw deck is always the whole drafted pool."""
    _check_pool(owner, pool)
    fmt = _check_format([pool.kind, *variants])
    cards: dict[str, int] = {}
    chips: dict[str, int] = {}
    if pool.kind == Pool.Kind.DRAW:
        cards, chips = dict(pool.cards), dict(pool.kicker_chips)
    elif auto:
        variant_set, _ = formats.parse_format(fmt)
        limit = formats.copy_limit("common", variant_set)
        cards = sealed.auto_build(engine_catalogue(), pool.cards, copy_limit=limit)
        chips = dict(pool.kicker_chips)
    return deck_create(
        owner=owner,
        name=name or f"{pool} deck",
        fmt=fmt,
        cards=cards,
        kicker_chips=chips,
        pool=pool,
    )


# --- Draft (Draw) ------------------------------------------------------------------------------


@transaction.atomic
def draft_pod_create(
    *, owner, seats: int, set_codes: str | list[str], seed: int | None = None, name: str = ""
) -> DraftPod:
    """A pod waiting for people; its creator takes seat 0."""
    if type(seats) is not int or not sealed.MIN_SEATS <= seats <= sealed.MAX_SEATS:
        raise DomainError(
            f"A draft pod has {sealed.MIN_SEATS} to {sealed.MAX_SEATS} seats.",
            code="bad_seats",
            attr="seats",
        )
    codes = _set_list(set_codes)
    _check_sets(codes)
    pod = DraftPod.objects.create(
        owner=owner,
        name=name,
        seats=seats,
        set_codes=codes,
        seed=secrets.randbits(48) if seed is None else int(seed),
    )
    DraftSeat.objects.bulk_create(DraftSeat(pod=pod, number=n) for n in range(seats))
    DraftSeat.objects.filter(pod=pod, number=0).update(user=owner)
    return pod


def _locked(pod: DraftPod) -> DraftPod:
    return DraftPod.objects.select_for_update().get(pk=pod.pk)


@transaction.atomic
def draft_pod_join(*, pod: DraftPod, user) -> DraftSeat:
    """Take the first empty seat of an open pod (joining twice returns the same seat)."""
    pod = _locked(pod)
    mine = pod.seat_set.filter(user=user).first()
    if mine:
        return mine
    if pod.status != DraftPod.Status.OPEN:
        raise DomainError("This draft has already started.", code="draft_started")
    seat = pod.seat_set.filter(user__isnull=True).order_by("number").first()
    if seat is None:
        raise DomainError("Every seat is taken.", code="pod_full")
    seat.user = user
    seat.save(update_fields=["user"])
    return seat


def _persist(pod: DraftPod, draft: sealed.Draft, bots: set[int]) -> None:
    """Save the engine state and record the picks made since the last save."""
    saved = pod.picks.count()
    new = draft.picks[saved:]
    cards = {c.code: c for c in Card.objects.filter(code__in={p[3] for p in new})}
    DraftPick.objects.bulk_create(
        DraftPick(pod=pod, round=r, pick_no=n, seat=s, card=cards[code], by_bot=s in bots)
        for r, n, s, code in new
    )
    pod.state = draft.to_json()
    if draft.is_over:
        pod.status = DraftPod.Status.DONE
        _finish(pod, draft)
    pod.save(update_fields=["state", "status"])


def _finish(pod: DraftPod, draft: sealed.Draft) -> None:
    """Each person's 54 cards and six chips become a Draw pool and its deck; each bot's become
    the bot's deck, kept on its seat."""
    _build_bot_decks(pod, draft)
    for seat in pod.seat_set.filter(user__isnull=False).select_related("user"):
        cards = Counter(draft.picked(seat.number))
        chips = Counter(draft.kicker_chips(seat.number))
        pool = Pool.objects.create(  # type: ignore[misc]  # seats with a user only
            owner=seat.user,
            kind=Pool.Kind.DRAW,
            name=f"Draft pod #{pod.pk}, seat {seat.number + 1}",
            seed=pod.seed,
            set_codes=pod.set_codes,
            boosters=[rnd[seat.number].to_json() for rnd in draft.boosters],
            cards=dict(cards),
            kicker_chips=dict(chips),
        )
        seat.pool = pool
        seat.deck = deck_from_pool(owner=seat.user, pool=pool, name=f"{pool.name} deck")
        seat.save(update_fields=["pool", "deck"])


def _bot_deck(catalogue, draft: sealed.Draft, seat: int) -> dict[str, dict[str, int]]:
    """A bot seat's Draw deck: built from its picks as the engine builds a deck from a pool
    (`sealed.auto_build` within Draw's copy limit, which is none), plus its kicker chips.

    With nine-card boosters that is every card it drafted, which is what Draw asks for.
    """
    limit = formats.copy_limit("common", frozenset({formats.DRAW}))
    cards = sealed.auto_build(catalogue, Counter(draft.picked(seat)), copy_limit=limit)
    return {"cards": cards, "kicker_chips": dict(Counter(draft.kicker_chips(seat)))}


def _build_bot_decks(pod: DraftPod, draft: sealed.Draft) -> int:
    """Give every bot seat of a finished pod without a deck its deck; how many were built."""
    seats = list(pod.seat_set.filter(user__isnull=True, bot_deck__isnull=True))
    if not seats:
        return 0
    catalogue = engine_catalogue()
    for seat in seats:
        seat.bot_deck = _bot_deck(catalogue, draft, seat.number)
    DraftSeat.objects.bulk_update(seats, ["bot_deck"])
    return len(seats)


@transaction.atomic
def draft_bot_decks_build(*, pod: DraftPod) -> int:
    """Build the bot decks a finished pod lacks; how many were built (usually none).

    A pod that ends now gets its bot decks in `_finish`; a pod that ended before bot decks
    were kept gets them here, on the first read of the pod (page, API or a test run).
    Idempotent: the deck is a function of the recorded draft.
    """
    if pod.status != DraftPod.Status.DONE:
        return 0
    if not pod.seat_set.filter(user__isnull=True, bot_deck__isnull=True).exists():
        return 0
    pod = _locked(pod)
    return _build_bot_decks(pod, sealed.Draft.from_json(pod.state))


def _bots(pod: DraftPod) -> set[int]:
    return set(pod.seat_set.filter(user__isnull=True).values_list("number", flat=True))


@transaction.atomic
def draft_pod_start(*, pod: DraftPod, user) -> DraftPod:
    """Deal the boosters (seeded), fill empty seats with bots, let the bots make their picks."""
    pod = _locked(pod)
    if pod.owner_id != user.pk:
        raise DomainError("Only the pod's creator can start the draft.", code="not_pod_owner")
    if pod.status != DraftPod.Status.OPEN:
        raise DomainError("This draft has already started.", code="draft_started")
    catalogue = engine_catalogue()
    draft = sealed.Draft.deal(catalogue, seats=pod.seats, set_codes=pod.set_codes, seed=pod.seed)
    bots = _bots(pod)
    draft.run_bots(catalogue, bots)
    pod.status = DraftPod.Status.DRAFTING
    _persist(pod, draft, bots)
    return pod


@transaction.atomic
def draft_pick(*, pod: DraftPod, user, code: str) -> DraftPod:
    """`user` picks `code` from the pack in front of them; bots then pick as far as they can."""
    pod = _locked(pod)
    if pod.status != DraftPod.Status.DRAFTING:
        raise DomainError("This draft is not running.", code="draft_not_running")
    seat = pod.seat_set.filter(user=user).first()
    if seat is None:
        raise DomainError("You have no seat at this pod.", code="not_seated")
    draft = sealed.Draft.from_json(pod.state)
    try:
        draft.pick(seat.number, code)
    except sealed.DraftError as exc:
        raise DomainError(str(exc), code="bad_pick", attr="card") from exc
    bots = _bots(pod)
    draft.run_bots(engine_catalogue(), bots)
    _persist(pod, draft, bots)
    return pod


@transaction.atomic
def deck_add_card(*, deck: Deck, card: Card) -> int:
    """One more copy of `card` in `deck` (the card page's "add to a deck"); the copies now.

    Refused, with nothing written, when the deck already holds as many copies of the card's name
    as its format allows (reprints count against the same limit, as legality counts them).
    """
    Deck.objects.select_for_update().filter(pk=deck.pk).first()
    cards, _chips = deck_contents(deck)
    variants, _problems = formats.parse_format(deck.format)
    limit = formats.copy_limit(card.rarity, variants)
    same_name = deck.entries.filter(card__name=card.name).aggregate(n=Sum("qty"))["n"] or 0
    if limit is not None and same_name >= limit:
        raise DomainError(
            f"{deck.name} already has {same_name} {card.name}: "
            f"{formats.format_label(deck.format)} allows at most {limit}.",
            code="copy_limit",
            attr="deck",
        )
    qty = cards.get(card.code, 0) + 1
    deck_set_quantity(deck=deck, card=card.code, qty=qty)
    return qty
