"""Boosters, sealed pools (Stud) and drafts (Draw): pure, seeded, replayable.

Everything random goes through one `random.Random(seed)` and iterates catalogue data in its
file order (never a set or a dict of hashes), so a seed gives the same boosters in any process.

Booster method: for each slot of the set's layout, `count` times, pick a rarity sheet by the
slot's relative weights, then a card uniformly from that sheet of the set. A booster holds no
two copies of one card while its sheet has cards left (as in a collated pack). Only rarities
the layout names are drawn, so promotional and fixed cards never appear unless it names them.
Each booster then gets `booster_kicker_chips` chips, uniform over the set's chips.

Draft: every seat opens a booster and keeps its kicker chip; every seat picks one card from
the pack in front of it, then all packs pass at once: to the left (seat i to seat i+1) for the
first booster, to the right for the second, alternating. Bots pick by `card_rating`.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from simulator.engine.drifter.cards import CardDef, Catalogue

BOOSTERS_PER_PLAYER = 6
MIN_SEATS, MAX_SEATS = 2, 8
RARITY_BONUS = {"common": 0.0, "uncommon": 1.0, "rare": 2.0, "fixed": 2.0, "promo": 2.0}
TARGET_DUDE_SHARE = 0.4


class DraftError(ValueError):
    """A pick that is not allowed: wrong seat, a card not in the pack, the draft is over."""


@dataclass(frozen=True, slots=True)
class Booster:
    """One opened booster: card codes and kicker chip codes, in the order they came out."""

    set_code: str
    cards: tuple[str, ...]
    kicker_chips: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "set": self.set_code,
            "cards": list(self.cards),
            "kicker_chips": list(self.kicker_chips),
        }

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Booster:
        return cls(raw["set"], tuple(raw["cards"]), tuple(raw["kicker_chips"]))


def open_booster(catalogue: Catalogue, set_code: str, rng: random.Random) -> Booster:
    """Open one booster of `set_code` following its booster layout."""
    set_def = catalogue.set(set_code)
    sheets: dict[str, list[str]] = {}
    for code in set_def.card_codes:
        sheets.setdefault(catalogue.card_by_code[code].rarity, []).append(code)
    cards: list[str] = []
    for slot in set_def.booster_slots:
        rarities = [r for r, _ in slot.weights if sheets.get(r)]
        weights = [w for r, w in slot.weights if sheets.get(r)]
        if not rarities:
            continue
        for _ in range(slot.count):
            rarity = rng.choices(rarities, weights=weights)[0]
            fresh = [c for c in sheets[rarity] if c not in cards]
            cards.append(rng.choice(fresh or sheets[rarity]))
    chips = tuple(
        rng.choice(set_def.chip_codes)
        for _ in range(set_def.booster_kicker_chips if set_def.chip_codes else 0)
    )
    return Booster(set_code, tuple(cards), chips)


def open_boosters(catalogue: Catalogue, set_codes: Sequence[str], seed: int) -> list[Booster]:
    """Open one booster per entry of `set_codes` (e.g. six for a Stud pool), seeded."""
    rng = random.Random(seed)
    return [open_booster(catalogue, code, rng) for code in set_codes]


def pool_of(boosters: Iterable[Booster]) -> tuple[Counter[str], Counter[str]]:
    """The cards and kicker chips of some boosters, counted."""
    cards: Counter[str] = Counter()
    chips: Counter[str] = Counter()
    for b in boosters:
        cards.update(b.cards)
        chips.update(b.kicker_chips)
    return cards, chips


# --- Card rating (draft bots and the automatic Stud build) ---------------------------------


def card_rating(card: CardDef) -> float:
    """A card's value for a bot: what it adds to a shootout per dollar, plus rarity.

    Dudes: best stat (what wins a shootout) + a third of the other two (flexibility) + a tenth
    of the kicker limit, minus half the cost. Gear and fortunes: the total of their positive
    stat modifiers for "self" (abilities the engine can read) plus one per other effect, minus
    half the cost, plus 2 so a free-ish trick is worth a mediocre dude. Rarity adds 0/1/2.
    """
    bonus = RARITY_BONUS.get(card.rarity, 0.0)
    if card.is_dude:
        stats = sorted(card.stats, reverse=True)
        return stats[0] + (stats[1] + stats[2]) / 3 + card.kicker_limit / 10 - card.cost / 2 + bonus
    value = 2.0
    for ability in card.abilities:
        for effect in ability.effects:
            if effect.kind in ("stat_mod", "stat_mod_per") and effect.target in ("self", None):
                value += max(effect.amount or 0, 0)
            else:
                value += 1.0
    return value - card.cost / 2 + bonus


def bot_pick(catalogue: Catalogue, pack: Sequence[str], picked: Sequence[str]) -> str:
    """The card a bot takes from `pack`: the best rating, nudged toward dudes while fewer than
    40% of its picks are dudes (a deck needs dudes to challenge). Ties go to pack order."""
    dudes = sum(1 for c in picked if catalogue.card_by_code[c].is_dude)
    want_dudes = dudes < TARGET_DUDE_SHARE * (len(picked) + 1)
    best, best_score = pack[0], float("-inf")
    for code in pack:
        card = catalogue.card_by_code[code]
        score = card_rating(card) + (1.5 if want_dudes and card.is_dude else 0.0)
        if score > best_score:
            best, best_score = code, score
    return best


def auto_build(
    catalogue: Catalogue,
    cards: Mapping[str, int],
    *,
    size: int = 54,
    copy_limit: int | None = None,
    min_dudes: int = 18,
) -> dict[str, int]:
    """A reasonable deck from a pool: the best-rated dudes until `min_dudes` (a third of the
    deck, so the opening hand usually has one), then the best-rated cards of any type, within
    `copy_limit` copies of one card, up to `size` cards. Ties go to catalogue order."""
    singles: list[CardDef] = []
    for code in sorted(cards, key=lambda c: catalogue.card_by_code[c].id):
        card = catalogue.card_by_code[code]
        n = cards[code] if copy_limit is None else min(cards[code], copy_limit)
        singles.extend([card] * n)
    singles.sort(key=lambda c: (-card_rating(c), c.id))
    deck: Counter[str] = Counter()
    chosen: list[int] = []
    for i, card in enumerate(singles):
        if card.is_dude and sum(deck.values()) < min(min_dudes, size):
            deck[card.code] += 1
            chosen.append(i)
    taken = set(chosen)
    for i, card in enumerate(singles):
        if sum(deck.values()) >= size:
            break
        if i not in taken:
            deck[card.code] += 1
    return dict(deck)


# --- Draft -----------------------------------------------------------------------------------


@dataclass
class Draft:
    """A draft in progress. `boosters[round][seat]` are the unopened boosters; `picks` every
    pick made as (round, pick number, seat, card code), in order."""

    seats: int
    boosters: list[list[Booster]]
    picks: list[tuple[int, int, int, str]] = field(default_factory=list)
    round: int = 0
    pick_no: int = 0
    packs: list[list[str]] = field(default_factory=list)
    pending: dict[int, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not MIN_SEATS <= self.seats <= MAX_SEATS:
            raise DraftError(f"A draft pod has {MIN_SEATS} to {MAX_SEATS} seats, not {self.seats}.")
        if not self.packs and self.round < len(self.boosters):
            self.packs = [list(b.cards) for b in self.boosters[self.round]]

    @classmethod
    def deal(
        cls, catalogue: Catalogue, *, seats: int, set_codes: Sequence[str], seed: int
    ) -> Draft:
        """Open every booster of the draft up front (seeded): one per seat per round."""
        if not MIN_SEATS <= seats <= MAX_SEATS:
            raise DraftError(f"A draft pod has {MIN_SEATS} to {MAX_SEATS} seats, not {seats}.")
        rng = random.Random(seed)
        boosters = [
            [open_booster(catalogue, set_code, rng) for _ in range(seats)] for set_code in set_codes
        ]
        return cls(seats=seats, boosters=boosters)

    @staticmethod
    def direction(round_no: int) -> int:
        """+1 passes left (seat i to i+1) for the first booster; -1 right; alternating."""
        return 1 if round_no % 2 == 0 else -1

    @property
    def is_over(self) -> bool:
        return self.round >= len(self.boosters)

    def pack(self, seat: int) -> list[str]:
        """The cards in front of `seat` now (empty once it has picked this turn)."""
        if self.is_over or seat in self.pending:
            return []
        return list(self.packs[seat])

    def waiting_on(self) -> list[int]:
        """Seats that still have to pick this turn."""
        if self.is_over:
            return []
        return [s for s in range(self.seats) if s not in self.pending and self.packs[s]]

    def pick(self, seat: int, code: str) -> None:
        """`seat` takes `code` from its pack; when every seat has picked, the packs pass."""
        if self.is_over:
            raise DraftError("The draft is over.")
        if not 0 <= seat < self.seats:
            raise DraftError(f"There is no seat {seat}.")
        if seat in self.pending:
            raise DraftError("This seat has already picked; wait for the pack to pass.")
        if code not in self.packs[seat]:
            raise DraftError(f"{code} is not in this seat's pack.")
        self.pending[seat] = code
        if not self.waiting_on():
            self._pass()

    def _pass(self) -> None:
        for seat in sorted(self.pending):
            code = self.pending[seat]
            self.packs[seat].remove(code)
            self.picks.append((self.round, self.pick_no, seat, code))
        self.pending = {}
        self.pick_no += 1
        if any(self.packs):
            step = self.direction(self.round)
            self.packs = [self.packs[(s - step) % self.seats] for s in range(self.seats)]
        else:
            self.round += 1
            self.pick_no = 0
            if not self.is_over:
                self.packs = [list(b.cards) for b in self.boosters[self.round]]

    def picked(self, seat: int) -> list[str]:
        """The cards `seat` has drafted so far, in pick order."""
        return [code for _, _, s, code in self.picks if s == seat]

    def kicker_chips(self, seat: int) -> list[str]:
        """The kicker chips `seat` kept from the boosters it opened so far."""
        opened = self.boosters[: min(self.round + 1, len(self.boosters))]
        return [chip for rnd in opened for chip in rnd[seat].kicker_chips]

    def run_bots(self, catalogue: Catalogue, bots: Iterable[int]) -> None:
        """Let every bot seat pick until a human seat must pick or the draft ends."""
        bots = sorted(set(bots))
        while not self.is_over:
            waiting = [s for s in self.waiting_on() if s in bots]
            if not waiting:
                return
            for seat in waiting:
                self.pick(seat, bot_pick(catalogue, self.packs[seat], self.picked(seat)))

    def to_json(self) -> dict[str, Any]:
        return {
            "seats": self.seats,
            "boosters": [[b.to_json() for b in rnd] for rnd in self.boosters],
            "picks": [list(p) for p in self.picks],
            "round": self.round,
            "pick_no": self.pick_no,
            "packs": self.packs,
            "pending": {str(k): v for k, v in self.pending.items()},
        }

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Draft:
        return cls(
            seats=raw["seats"],
            boosters=[[Booster.from_json(b) for b in rnd] for rnd in raw["boosters"]],
            picks=[tuple(p) for p in raw["picks"]],
            round=raw["round"],
            pick_no=raw["pick_no"],
            packs=[list(p) for p in raw["packs"]],
            pending={int(k): v for k, v in raw["pending"].items()},
        )
