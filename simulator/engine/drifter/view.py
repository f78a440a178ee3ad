"""What one player may see: the information a bot (or a screen) decides from.

A `View` reads the live state but answers only what the rules let its player know: every
stake, the pot, card counts, revealed cards and kicker chips in the saloon and street, and the
player's own hand, kicker stack and concealed cards. Other players' hands, decks, kicker stacks
and concealed cards stay hidden (a concealed card shows only its owner, chips and attachments).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from simulator.engine.drifter import abilities as ab
from simulator.engine.drifter.cards import STAT_INDEX, CardDef, Catalogue, KickerChipDef
from simulator.engine.drifter.variants import Rules

if TYPE_CHECKING:
    from simulator.engine.drifter.pieces import Card
    from simulator.engine.drifter.state import DrifterState


class View:
    """The game as `player` sees it. Cheap to build: it reads the state lazily."""

    __slots__ = ("_s", "player")

    def __init__(self, state: DrifterState, player: int) -> None:
        self._s = state
        self.player = player

    # public facts
    @property
    def n(self) -> int:
        return self._s.n

    @property
    def phase(self) -> str:
        return self._s.phase

    @property
    def to_act(self) -> int:
        return self._s.actor

    @property
    def stakes(self) -> list[int]:
        return list(self._s.stake)

    @property
    def my_stake(self) -> int:
        """The player's own stake (`stakes[player]` without copying every stake)."""
        return self._s.stake[self.player]

    @property
    def pot(self) -> int:
        return self._s.pot

    @property
    def ante(self) -> int:
        return self._s.ante  # the rules' ante, copied into a field (Rules is plain Python)

    @property
    def lowball(self) -> bool:
        """Lowball: the lower stat wins (the rules read into a field: Rules.has is plain
        Python, which the compiled build calls through the interpreter)."""
        return self._s.lowball

    @property
    def last_man_standing(self) -> bool:
        return self._s.last_man_standing

    @property
    def rules(self) -> Rules:
        return self._s.rules

    @property
    def contested(self) -> str | None:
        return self._s.contested

    @property
    def shooting(self) -> bool:
        return self._s.shooting

    @property
    def challenger(self) -> int:
        return self._s.challenger

    @property
    def owe(self) -> int:
        """What the player must put in to call the current bet."""
        s = self._s
        return max(s.rb - s.contrib[self.player], 0) if s.phase == "bet" else 0

    @property
    def raises(self) -> int:
        return self._s.raises

    @property
    def turn(self) -> int:
        """Turns taken so far in the game (every player's turn counts one)."""
        return self._s.turns

    @property
    def actions_left(self) -> int:
        """Actions the player to act has left this turn (public: everyone counts them)."""
        s = self._s
        return s.actions_left if s.turn_limit else 99

    @property
    def catalogue(self) -> Catalogue:
        """Every card that exists (public knowledge: what a concealed card could be)."""
        return self._s.cat

    def hand_cards(self) -> list[Card]:
        """The player's own hand, the cards themselves (a copy of the list)."""
        return list(self._s.hand[self.player])

    def hand_counts(self) -> list[int]:
        return [len(h) for h in self._s.hand]

    def deck_counts(self) -> list[int]:
        return [len(d) for d in self._s.deck]

    def my_kicker_chips(self) -> list[tuple[int, KickerChipDef]]:
        return [(k.uid, k.defn) for k in self._s.chips[self.player]]

    def kicker_chip_counts(self) -> list[int]:
        return [len(c) for c in self._s.chips]

    def in_shootout(self, p: int) -> bool:
        return self._s.shooting and self._s.in_shootout(p)

    def street_dude(self, p: int) -> Card | None:
        d = self._s.sdude[p] if self._s.shooting else None
        return d

    # cards in play
    def dudes(self) -> list[Card]:
        """Every dude in the saloon and street (objects: use `known`/`showing` to read them)."""
        return self._s.all_dudes()

    def my_dudes(self) -> list[Card]:
        return [d for d in self._s.saloon if d.owner == self.player]

    def known(self, card: Card) -> CardDef | None:
        """The card's definition if this player may know it (revealed, or their own)."""
        if card.revealed or card.owner == self.player:
            return card.defn
        return None

    def showing(self, dude: Card) -> list[int]:
        """The dude's stats as everyone sees them (concealed: only the visible modifiers)."""
        return ab.dude_stats(self._s, dude)

    def true_stats(self, dude: Card, with_gear: bool = True) -> list[int]:
        """Own dude only: its stats if it and (with_gear) its concealed gear were revealed."""
        s = self._s
        if dude.owner != self.player:
            return ab.dude_stats(s, dude)
        hidden = not dude.revealed  # anything to turn face up for the what-if?
        if with_gear and not hidden:
            for g in dude.gear:
                if not g.revealed:
                    hidden = True
                    break
        if not hidden:
            return ab.dude_stats(s, dude)
        gen = s.cache_gen  # the what-ifs have their own caches on the card
        if gen >= 0:
            if with_gear:
                if dude.whatif_at == gen:
                    return dude.whatif
            elif dude.bare_at == gen:
                return dude.bare
        flipped = [dude] if not dude.revealed else []
        if with_gear:
            flipped += [g for g in dude.gear if not g.revealed]
        for c in flipped:
            c.revealed = True
        try:
            result = ab._dude_stats(s, dude)
        finally:
            for c in flipped:
                c.revealed = False
        if gen >= 0:
            if with_gear:
                dude.whatif, dude.whatif_at = result, gen
            else:
                dude.bare, dude.bare_at = result, gen
        return result

    def stats_if_revealed(self, dude: Card, gear: Card) -> list[int]:
        """Own dude only: its stats (as it stands) if one of its concealed gear turned up."""
        if gear.owner != self.player or gear.revealed:
            return self.true_stats(dude, with_gear=False)
        flipped = [c for c in (dude, gear) if not c.revealed]
        for c in flipped:
            c.revealed = True
        try:
            return ab._dude_stats(self._s, dude)  # a what-if: never cached
        finally:
            for c in flipped:
                c.revealed = False

    def contested_value(self, dude: Card, mine_true: bool = True) -> int:
        st = self.true_stats(dude) if mine_true else self.showing(dude)
        contested = self._s.contested
        if contested is None:
            return ab.top_stat(st)
        return st[STAT_INDEX[contested]]

    def card(self, uid: int) -> Card:
        return self._s.cards[uid]

    def card_count(self) -> int:
        """How many cards the game has (their uids run from 0 to this, less one)."""
        return len(self._s.cards)

    def to_dict(self) -> dict[str, Any]:
        """The whole view as JSON-able data (what a client screen would receive)."""
        s, me = self._s, self.player

        def card_json(c: Card) -> dict[str, Any]:
            d = self.known(c)
            out: dict[str, Any] = {
                "id": c.uid,
                "owner": c.owner,
                "revealed": c.revealed,
                "chips": c.chips,
            }
            if d is not None:
                out["code"] = d.code
                out["name"] = d.name
            return out

        dudes: list[dict[str, Any]] = []
        for d in s.all_dudes():
            j = card_json(d)
            j["in_street"] = d.in_street
            j["showing"] = self.showing(d)
            j["gear"] = [card_json(g) for g in d.gear]
            j["kicker_chips"] = [
                {"code": k.defn.code, "sides": [list(x) for x in k.defn.sides], "up": k.side}
                for k in d.kickers
            ]
            dudes.append(j)
        return {
            "player": me,
            "phase": s.phase,
            "to_act": s.actor,
            "stakes": list(s.stake),
            "pot": s.pot,
            "carried": s.carried,
            "hand": [
                {"id": c.uid, "code": c.printed.code, "name": c.printed.name} for c in s.hand[me]
            ],
            "hand_counts": self.hand_counts(),
            "deck_counts": self.deck_counts(),
            "kicker_chips": [{"id": k.uid, "code": k.defn.code} for k in s.chips[me]],
            "kicker_chip_counts": self.kicker_chip_counts(),
            "deadwood": [[c.printed.code for c in dw] for dw in s.dead],
            "dudes": dudes,
            "fortunes": [card_json(f) for f in s.fortunes],
            "contested": s.contested,
            "challenger": s.challenger if s.shooting else None,
        }
