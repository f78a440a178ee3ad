"""Reads: decks (owner-scoped or public by link), their contents, legality, statistics and
history; pools and draft pods."""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.db.models import Q, QuerySet
from django.http import Http404

from cards.models import Card, KickerChip
from decks.engine_catalogue import engine_catalogue
from decks.models import Deck, DeckCard, DeckVersion, DraftPod, DraftSeat, Pool
from decks.stats import deck_stats as _deck_stats
from simulator.engine.drifter import formats
from simulator.engine.drifter.sealed import Draft


def deck_list(*, owner) -> QuerySet[Deck]:
    """The decks `owner` may edit (anonymous: none)."""
    if not getattr(owner, "is_authenticated", False):
        return Deck.objects.none()
    return Deck.objects.filter(owner=owner).select_related("pool")


def deck_get(*, owner, pk: int) -> Deck:
    """One of `owner`'s decks; Http404 for anyone else's (private or not: edits are owner-only)."""
    try:
        return deck_list(owner=owner).get(pk=pk)
    except (Deck.DoesNotExist, ValueError, TypeError):
        raise Http404("No such deck.") from None


def deck_public(*, slug: str) -> Deck:
    """A public deck by its unguessable link; Http404 if private or unknown."""
    try:
        return Deck.objects.select_related("pool", "owner").get(slug=slug, is_public=True)
    except Deck.DoesNotExist:
        raise Http404("No such deck.") from None


def deck_contents(deck: Deck) -> tuple[dict[str, int], dict[str, int]]:
    """The deck's cards and kicker chips as {code: qty}, in catalogue order."""
    cards = dict(
        deck.entries.order_by("card__card_set__order", "card__number").values_list(
            "card__code", "qty"
        )
    )
    chips = dict(
        deck.chip_entries.order_by("kicker_chip__code").values_list("kicker_chip__code", "qty")
    )
    return cards, chips


def pool_of(pool: Pool | None) -> formats.Pool | None:
    """The engine's view of a sealed or drafted pool."""
    if pool is None:
        return None
    return formats.Pool(cards=dict(pool.cards), kicker_chips=dict(pool.kicker_chips))


def deck_problems(deck: Deck, *, owned: formats.Pool | None = None) -> list[formats.Problem]:
    """Every reason `deck` is not legal in its format (empty: legal)."""
    cards, chips = deck_contents(deck)
    return formats.validate_deck(
        fmt=deck.format,
        cards=cards,
        kicker_chips=chips,
        catalogue=engine_catalogue(),
        pool=pool_of(deck.pool),
        owned=owned,
    )


def deck_statistics(deck: Deck) -> dict[str, Any]:
    cards, chips = deck_contents(deck)
    return _deck_stats(cards=cards, kicker_chips=chips, catalogue=engine_catalogue())


TYPE_ORDER = {"dude": 0, "gear": 1, "fortune": 2}
TYPE_LABELS = {"dude": "dudes", "gear": "gear", "fortune": "fortunes"}


def _by_type(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    rows.sort(key=lambda r: (TYPE_ORDER.get(r["card"].type, 3), r["card"].cost, r["card"].name))
    return rows


def deck_rows(deck: Deck) -> list[dict[str, Any]]:
    """The deck's cards with their card data, for pages: [{card, qty}] sorted by type, cost."""
    return _by_type([{"card": e.card, "qty": e.qty} for e in deck.entries.select_related("card")])


def version_list(deck: Deck) -> QuerySet[DeckVersion]:
    return deck.versions.all()


def version_get(deck: Deck, number: int) -> DeckVersion:
    try:
        return deck.versions.get(number=number)
    except DeckVersion.DoesNotExist:
        raise Http404(f"No version {number} of this deck.") from None


def _diff_map(
    old: dict[str, int], new: dict[str, int], names: dict[str, str]
) -> dict[str, list[dict[str, Any]]]:
    def name(code: str) -> str:
        return names.get(code, code)

    added = [{"code": c, "name": name(c), "qty": q} for c, q in new.items() if c not in old]
    removed = [{"code": c, "name": name(c), "qty": q} for c, q in old.items() if c not in new]
    changed = [
        {"code": c, "name": name(c), "from": old[c], "to": new[c]}
        for c in new
        if c in old and old[c] != new[c]
    ]
    return {"added": added, "removed": removed, "changed": changed}


def version_diff(old: DeckVersion, new: DeckVersion) -> dict[str, Any]:
    """What changed between two snapshots: cards and chips added, removed, changed (each with
    its name: a card's, or a kicker chip's colour, value and sides); the fields that changed."""
    a, b = old.snapshot, new.snapshot
    fields = {
        k: {"from": a.get(k), "to": b.get(k)}
        for k in ("name", "format", "description")
        if a.get(k) != b.get(k)
    }
    codes = set(a.get("cards", {})) | set(b.get("cards", {}))
    names = dict(Card.objects.filter(code__in=codes).values_list("code", "name"))
    chip_codes = set(a.get("kicker_chips", {})) | set(b.get("kicker_chips", {}))
    chip_names = {k.code: chip_name(k) for k in KickerChip.objects.filter(code__in=chip_codes)}
    return {
        "from": old.number,
        "to": new.number,
        "fields": fields,
        "cards": _diff_map(a.get("cards", {}), b.get("cards", {}), names),
        "kicker_chips": _diff_map(a.get("kicker_chips", {}), b.get("kicker_chips", {}), chip_names),
    }


def chip_name(chip: KickerChip) -> str:
    """A kicker chip as people name it: "green $25 chip (+8 luck / -8 luck)"."""
    sides = " / ".join(f"{amount:+d} {stat}" for stat, amount in chip.sides)
    return f"{chip.color} ${chip.value} chip ({sides})"


def pool_list(*, owner) -> QuerySet[Pool]:
    if not getattr(owner, "is_authenticated", False):
        return Pool.objects.none()
    return Pool.objects.filter(owner=owner)


def pool_get(*, owner, pk: int) -> Pool:
    try:
        return pool_list(owner=owner).get(pk=pk)
    except (Pool.DoesNotExist, ValueError, TypeError):
        raise Http404("No such pool.") from None


def pod_list(*, user) -> QuerySet[DraftPod]:
    """Pods a person can see: open ones (to join) and those they sit at or created."""
    if not getattr(user, "is_authenticated", False):
        return DraftPod.objects.none()
    return (
        DraftPod.objects.filter(
            Q(status=DraftPod.Status.OPEN) | Q(owner=user) | Q(seat_set__user=user)
        )
        .distinct()
        .prefetch_related("seat_set")
    )


def pod_get(*, user, pk: int) -> DraftPod:
    try:
        return pod_list(user=user).get(pk=pk)
    except (DraftPod.DoesNotExist, ValueError, TypeError):
        raise Http404("No such draft pod.") from None


# --- Bot decks of a finished draft -----------------------------------------------------------


def bot_deck_name(number: int) -> str:
    return f"Bot, seat {number + 1}"


def _seated(pod: DraftPod, user) -> bool:
    return bool(getattr(user, "is_authenticated", False)) and any(
        s.user_id == user.pk for s in pod.seat_set.all()
    )


def _bot_pool(draft, number: int) -> formats.Pool:
    """What a bot seat drafted: its picks and the kicker chips of the boosters it opened."""
    return formats.Pool(
        cards=dict(Counter(draft.picked(number))),
        kicker_chips=dict(Counter(draft.kicker_chips(number))),
    )


def pod_bot_decks(*, pod: DraftPod, user) -> list[dict[str, Any]] | None:
    """The bots' decks of a finished pod, for the people seated at it.

    None while the draft runs (what the bots picked is hidden information) and for anyone not
    seated. Each deck: `seat` (0-based), `name`, `format`, `count` (cards), `by_type`
    [{type, label, count, cards: [{card, qty}] by cost and name}] (dudes, gear, fortunes),
    `kicker_chips` [{kicker_chip, qty}] (`chip_count` in all), `picks` (card codes in pick
    order) and `problems` (the validator's, against what the bot drafted: none). A bot seat
    whose deck is not built yet (`services.draft_bot_decks_build`) is left out.
    """
    if pod.status != DraftPod.Status.DONE or not _seated(pod, user):
        return None

    seats = list(
        DraftSeat.objects.filter(pod=pod, user__isnull=True, bot_deck__isnull=False).order_by(
            "number"
        )
    )
    if not seats:
        return []
    draft = Draft.from_json(pod.state)
    bot_decks: dict[int, dict[str, Any]] = {s.pk: s.bot_deck or {} for s in seats}
    card_codes = {c for deck in bot_decks.values() for c in deck["cards"]}
    chip_codes = {k for deck in bot_decks.values() for k in deck["kicker_chips"]}
    cards = {c.code: c for c in Card.objects.filter(code__in=card_codes)}
    chips = {k.code: k for k in KickerChip.objects.filter(code__in=chip_codes)}
    catalogue = engine_catalogue()
    decks = []
    for seat in seats:
        deck = bot_decks[seat.pk]
        groups = _groups(_by_type([{"card": cards[c], "qty": q} for c, q in deck["cards"].items()]))
        decks.append(
            {
                "seat": seat.number,
                "name": bot_deck_name(seat.number),
                "format": formats.DRAW,
                "count": sum(deck["cards"].values()),
                "chip_count": sum(deck["kicker_chips"].values()),
                "by_type": groups,
                "kicker_chips": [
                    {"kicker_chip": chips[k], "qty": q}
                    for k, q in sorted(deck["kicker_chips"].items())
                ],
                "picks": draft.picked(seat.number),
                "problems": formats.validate_deck(
                    fmt=formats.DRAW,
                    cards=deck["cards"],
                    kicker_chips=deck["kicker_chips"],
                    catalogue=catalogue,
                    pool=_bot_pool(draft, seat.number),
                ),
            }
        )
    return decks


def draft_bot_deck(*, user, pod_id: int, seat: int) -> dict[str, Any] | None:
    """One bot's deck as the simulation service plays it: `{name, cards, kicker_chips, pool}`
    ({code: qty} maps and what the bot drafted); None unless `user` sits at the finished pod
    and that seat is a bot with its deck built (another person's pod is as unknown as none)."""
    pod = pod_list(user=user).filter(pk=pod_id, status=DraftPod.Status.DONE).first()
    if pod is None or not _seated(pod, user):
        return None
    bot = next((s for s in pod.seat_set.all() if s.number == seat and s.user_id is None), None)
    if bot is None or bot.bot_deck is None:
        return None
    return {
        "name": f"{bot_deck_name(seat)} ({pod})",
        "cards": dict(bot.bot_deck["cards"]),
        "kicker_chips": dict(bot.bot_deck["kicker_chips"]),
        "pool": _bot_pool(Draft.from_json(pod.state), seat),
    }


# --- Public decks ----------------------------------------------------------------------------


def public_deck_list(*, card: str = "", fmt: str = "", faction: str = "") -> QuerySet[Deck]:
    """Decks their owners made public and listed, newest change first.

    `card`: holds a card whose name or code contains it; `fmt`: a format or one of its
    variants (`tres_amigos` finds `tres_amigos+deuces_wild`); `faction`: holds a card of it.
    """
    decks = Deck.objects.filter(is_public=True, listed=True).select_related("owner")
    if card.strip():
        text = card.strip()
        decks = decks.filter(
            Q(entries__card__name__icontains=text) | Q(entries__card__code__iexact=text)
        )
    if fmt:
        decks = decks.filter(
            Q(format=fmt)
            | Q(format__startswith=f"{fmt}+")
            | Q(format__endswith=f"+{fmt}")
            | Q(format__contains=f"+{fmt}+")
        )
    if faction:
        decks = decks.filter(entries__card__faction=faction)
    return decks.distinct().order_by("-updated", "-id")


def deck_factions(deck_ids: list[int]) -> dict[int, list[str]]:
    """Each deck's factions, most cards first (cards without a faction left out)."""
    counts: dict[int, Counter[str]] = {pk: Counter() for pk in deck_ids}
    rows = (
        DeckCard.objects.filter(deck_id__in=deck_ids)
        .exclude(card__faction="")
        .values_list("deck_id", "card__faction", "qty")
    )
    for deck_id, faction, qty in rows:
        counts[deck_id][faction] += qty
    return {pk: [f for f, _ in c.most_common()] for pk, c in counts.items()}


def factions() -> list[str]:
    """Every faction a card belongs to, by name."""
    return sorted(
        Card.objects.exclude(faction="").values_list("faction", flat=True).distinct().order_by()
    )


def cards_by_type(cards: list[Card]) -> list[dict[str, Any]]:
    """Cards (a card may repeat) grouped as a deck is read: dudes, gear, fortunes, each
    [{type, label, count, cards: [{card, qty}] by cost and name}]."""
    counts = Counter(c.code for c in cards)
    first = {c.code: c for c in cards}
    return _groups(_by_type([{"card": first[code], "qty": q} for code, q in counts.items()]))


def _groups(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    groups: list[dict[str, Any]] = []
    for row in rows:
        if not groups or groups[-1]["type"] != row["card"].type:
            kind = row["card"].type
            label = TYPE_LABELS.get(kind, kind)
            groups.append({"type": kind, "label": label, "count": 0, "cards": []})
        groups[-1]["count"] += row["qty"]
        groups[-1]["cards"].append(row)
    return groups


def deck_groups(deck: Deck) -> list[dict[str, Any]]:
    """The deck's cards grouped by type with counts (see `cards_by_type`)."""
    return _groups(deck_rows(deck))
