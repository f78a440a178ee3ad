"""Tabletown: two to eight gunslingers, a deck of guns and ammo, DRAW! and SHOOTOUT!

A turn is one of ARM, LOAD, DISCARD or TRACK (and Reach for the Sky); drawing back to five may
turn up a DRAW! (a one-shot showdown between two) or a SHOOTOUT! (everyone). Combat goes by
initiative (lowest d6 plus the weapon modifier first, equal totals at once, TNT last). The Law
o' the West lets everyone turn to face a gunslinger who breaks it. Interpretations (facing,
tin stars, Reach for the Sky, who may shoot whom) are in docs/rules/tabletown.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from simulator.engine.core import OVER, BaseGameState, GameAction
from simulator.engine.core.errors import RulesError
from simulator.engine.tabletown.cards import (
    BY_NAME,
    CARDS,
    GUNSLINGERS,
    HAND_SIZE,
    WOUNDS_SURVIVED,
)

NAME = "tabletown"
# Which of the engine's readings of the rules a game is played by (docs/rules/tabletown.md,
# "Rulings"). 2: a combatant is passed over only when everyone can see he has nothing to do (no
# cards in hand, or no TNT in the game); anyone else is asked, and may hold fire. 1: the reading
# of every game recorded before it, kept so that those records replay as they were played: a
# combatant whose only choice was to hold was passed over, which told the table he held no TNT.
# Rules written without `rulings` are of that time.
RULINGS = 2
LEGACY_RULINGS = 1
DEFAULT_RULES: dict[str, Any] = {"advanced": True, "max_turns": 2000, "rulings": RULINGS}
KINDS = (
    "face",
    "arm",
    "load",
    "discard",
    "track",
    "reach",
    "pass",
    "call",
    "cavalry",
    "stagecoach",
    "no_reaction",
    "shoot",
    "blast",
    "tnt",
    "hold",
    "turn_to_face",
    "stay",
)
FACING, TURN, CALL, REACT, COMBAT, LAW = (
    "facing",
    "turn",
    "call",
    "react",
    "combat",
    "law",
)
TNT = BY_NAME["TNT"]
TRIGGERS = sum(1 for c in CARDS if c.role in ("draw", "shootout"))


@dataclass(frozen=True, slots=True)
class Action(GameAction):
    """One decision. `card` is a card id from the hand, `target` a seat, `n` a count of shots
    or of TNT sticks. Kinds: setup `face`; the turn `arm`, `load`, `discard`, `track`, `reach`,
    `pass`; a drawn DRAW! `call`s a target; reactions `cavalry`, `stagecoach`, `no_reaction`;
    combat `shoot` (n shots), `blast` (both shells as one shot), `tnt` (n sticks), `hold`; the
    Law o' the West `turn_to_face` or `stay`."""

    GAME, KINDS = NAME, KINDS
    kind: str
    card: int = -1
    target: int = -1
    n: int = 0


PASS, HOLD, NO_REACTION = Action("pass"), Action("hold"), Action("no_reaction")
TURN_TO_FACE, STAY = Action("turn_to_face"), Action("stay")


class Combat:
    """A DRAW or SHOOTOUT in progress: who is in, the initiative groups, hits not yet applied."""

    __slots__ = (
        "combatants",
        "drawer",
        "fired",
        "group",
        "groups",
        "hits",
        "kind",
        "member",
        "target",
        "tnt",
    )

    def __init__(self, kind: str, drawer: int, target: int, combatants: list[int]) -> None:
        self.kind = kind
        self.drawer = drawer
        self.target = target
        self.combatants = combatants
        self.groups: list[list[int]] = []
        self.group = 0
        self.member = 0
        self.hits: list[tuple[int, str]] = []  # (seat hit, weapon name)
        self.tnt: list[tuple[int, int]] = []  # (seat, sticks), exploding after everyone
        self.fired = False  # anyone shot or lit TNT (the narration says when nobody did)


def _rules(rules: dict | None) -> dict:
    merged = dict(DEFAULT_RULES)
    for key, value in (rules or {}).items():
        if key not in DEFAULT_RULES:
            raise RulesError(f"unknown tabletown rule {key!r}")
        if type(value) is not type(DEFAULT_RULES[key]):
            raise RulesError(f"tabletown rule {key} must be {type(DEFAULT_RULES[key]).__name__}")
        merged[key] = value
    if merged["max_turns"] < 1:
        raise RulesError("max_turns must be positive")
    if merged["rulings"] not in (LEGACY_RULINGS, RULINGS):
        raise RulesError(f"rulings are {LEGACY_RULINGS} or {RULINGS}, not {merged['rulings']!r}")
    return merged


class TabletownState(BaseGameState):
    """One game of Tabletown for 2 to 8 seats. Cards are integer ids into `CARDS`. It is over
    once at most one gunslinger stands (or the turn cap is reached)."""

    NAME = NAME
    TITLE = "Tabletown"
    SUMMARY = (
        "Two to eight gunslingers arm, load and turn to face each other until DRAW! and "
        "SHOOTOUT! cards call the gunfights; the last one standing wins."
    )
    PLAYERS = (2, 8)
    PLAYERS_ERROR = "Tabletown is for 2 to 8 gunslingers"
    OVER_ERROR = "the gunfight in Tabletown is over"

    parse_rules = staticmethod(_rules)

    @classmethod
    def recorded_rules(cls, rules: dict) -> dict:
        """A record's rules without `rulings` were written before they existed: the legacy."""
        return {"rulings": LEGACY_RULINGS, **rules}

    def _set_up(self) -> None:
        self.n = n = len(self.seats)
        self.gunslingers = [self._gunslinger(i, seat) for i, seat in enumerate(self.seats)]
        if len(set(self.gunslingers)) < n:
            raise RulesError("each player needs a gunslinger of his own")
        self.names = [
            f"{name} ({GUNSLINGERS[g].title})" for name, g in zip(self.names, self.gunslingers)
        ]
        self.alive = [True] * n
        self.wounds = [0] * n
        self.facing = [-1] * n
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.weapons: list[list[int]] = [[] for _ in range(n)]  # weapon card ids in play
        self.loaded: list[list[int]] = [[] for _ in range(n)]  # ammo card ids in the gun
        self.discard: list[int] = []
        self.turn = 0
        self.winners: list[int] = []
        self.capped = False
        self.refilling: int | None = None
        self.refill_triggers = 0
        self.calling: int | None = None
        self.yelled: tuple[str, int, int] | None = None
        self.react_queue: list[int] = []
        self.escaped: set[int] = set()
        self.combat: Combat | None = None
        self.law_queue: list[int] = []
        self.law_violator = -1
        self.marshall = self._elect_marshall()
        self._say("{} is the Marshall of Tabletown", self.names[self.marshall])
        # The Marshall deals from a deck without DRAW! and SHOOTOUT! (and, for two, no TNT).
        triggers = [c for c in range(len(CARDS)) if CARDS[c].role in ("draw", "shootout")]
        dealt = [
            c
            for c in range(len(CARDS))
            if CARDS[c].role not in ("draw", "shootout") and (n > 2 or CARDS[c].role != "tnt")
        ]
        self.deck: list[int] = self.chance.shuffle(dealt, "deck")
        for seat in self._seats_from(self.marshall):
            for _ in range(HAND_SIZE):
                self.hands[seat].append(self.deck.pop())
        self.deck = self.chance.shuffle(self.deck + triggers, "deck")
        self.facing_queue = self._seats_from(self.marshall)
        self.current = self.marshall  # whose turn it is
        self.phase, self.actor = FACING, self.marshall

    def _gunslinger(self, index: int, seat: Any) -> int:
        chosen = seat.get("gunslinger") if isinstance(seat, dict) else None
        if chosen is None:
            return index
        if type(chosen) is not int or not 0 <= chosen < len(GUNSLINGERS):
            raise RulesError(f"no gunslinger {chosen!r}")
        return chosen

    def _elect_marshall(self) -> int:
        # Everyone rolls; the highest gets the job; a tie for highest rolls again.
        rolling = list(range(self.n))
        while True:
            rolls = [self.chance.randint(1, 6, "marshall") for _ in rolling]
            best = max(rolls)
            rolling = [seat for seat, roll in zip(rolling, rolls) if roll == best]
            if len(rolling) == 1:
                return rolling[0]

    # -- the protocol -------------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """Every action the player to act may take now."""
        phase, p = self.phase, self.actor
        if phase == TURN:
            return self._turn_actions(p)
        if phase == COMBAT:
            return self._combat_actions(p)
        if phase == LAW:
            return [TURN_TO_FACE, STAY]
        if phase == REACT:
            actions = [NO_REACTION]
            for role in ("cavalry", "stagecoach"):
                card = self._held(p, role)
                if card >= 0 and (role == "cavalry" or self._involved(p)):
                    actions.append(Action(role, card))
            return actions
        if phase == CALL:
            return [Action("call", target=t) for t in self._seats_from(p)[1:] if self.alive[t]]
        if phase == FACING:
            return [Action("face", target=t) for t in self._facing_choices(p)]
        return []

    def _apply_legal(self, action: Action) -> None:
        p, kind, phase = self.actor, action.kind, self.phase
        if phase == FACING:
            self.facing[p] = action.target
            self.facing_queue.pop(0)
            if self.facing_queue:
                self.actor = self.facing_queue[0]
            else:
                self.phase, self.actor = TURN, self.marshall
            return
        if phase == TURN:
            self._take_turn(p, action)
        elif phase == CALL:
            self.calling = None
            self._yell("draw", p, action.target)
        elif phase == REACT:
            self._react(p, action)
        elif phase == COMBAT:
            self._fire(p, action)
        else:
            self.law_queue.pop(0)
            if kind == "turn_to_face":
                self.facing[p] = self.law_violator
                self._say("{} turns to face {}", self.names[p], self.names[self.law_violator])
            else:
                self._say("{} stays facing {}", self.names[p], self.names[self.facing[p]])
        self._advance()

    def view(self, player: int) -> dict:
        """What `player` may know: own hand; everyone's guns, ammo, wounds and facing."""
        combat = self.combat
        return {
            "seat": player,
            "phase": self.phase,
            "to_act": self.actor,
            "turn": self.turn,
            "marshall": self.marshall,
            "hand": list(self.hands[player]),
            "hand_sizes": [len(h) for h in self.hands],
            "alive": list(self.alive),
            "wounds": list(self.wounds),
            "facing": list(self.facing),
            "weapons": [[CARDS[c].name for c in w] for w in self.weapons],
            "loaded": [len(a) for a in self.loaded],
            "deck_size": len(self.deck),
            "discard_size": len(self.discard),
            "combat": None
            if combat is None
            else {
                "kind": combat.kind,
                "drawer": combat.drawer,
                "target": combat.target,
                "combatants": list(combat.combatants),
                "groups": [list(g) for g in combat.groups],
                "tnt": [list(t) for t in combat.tnt],
            },
            "yelled": list(self.yelled) if self.yelled else None,
            "escaped": sorted(self.escaped),
            "law_violator": self.law_violator if self.law_queue else -1,
        }

    def final(self) -> dict:
        """The gunslingers left standing (all of them if the turn cap ends it), wounds, turns."""
        return {
            "winners": list(self.winners),
            "wounds": list(self.wounds),
            "alive": list(self.alive),
            "marshall": self.marshall,
            "turns": self.turn,
            "capped": self.capped,
        }

    # -- helpers ------------------------------------------------------------------------------

    def _seats_from(self, seat: int) -> list[int]:
        """Every seat clockwise, starting with `seat`."""
        return [(seat + i) % self.n for i in range(self.n)]

    def _held(self, p: int, role: str) -> int:
        """A card of `role` in p's hand, or -1."""
        for card in self.hands[p]:
            if CARDS[card].role == role:
                return card
        return -1

    def _weapon(self, p: int) -> Any:
        return CARDS[self.weapons[p][0]] if self.weapons[p] else None

    def _capacity(self, p: int) -> int:
        return sum(CARDS[c].capacity for c in self.weapons[p])

    def _involved(self, p: int) -> bool:
        kind, drawer, target = self.yelled  # type: ignore[misc]
        return kind == "shootout" or p in (drawer, target)

    def _facing_choices(self, p: int) -> list[int]:
        """Seats p may face at setup: no one faces himself and no two face the same seat."""
        taken = {t for t in self.facing if t >= 0}
        free = [t for t in range(self.n) if t != p and t not in taken]
        if len(self.facing_queue) == 2:
            # Leave the last chooser someone other than himself to face.
            last = self.facing_queue[1]
            free = [t for t in free if {u for u in range(self.n) if u not in taken} - {t} != {last}]
        return free

    def _top(self) -> int | None:
        if not self.deck:
            if not self.discard:
                return None
            self.deck = self.chance.shuffle(self.discard, "reshuffle")
            self.discard = []
        return self.deck.pop()

    def _to_discard(self, cards: list[int]) -> None:
        self.discard.extend(cards)
        cards.clear()

    # -- the turn -----------------------------------------------------------------------------

    def _turn_actions(self, p: int) -> list[Action]:
        actions: list[Action] = []
        weapon = self._weapon(p)
        seen: set[int] = set()
        for card in self.hands[p]:
            design = CARDS[card]
            if design.design in seen:  # copies of a card are one choice
                continue
            seen.add(design.design)
            actions.append(Action("discard", card))
            if design.role == "weapon":
                actions.append(Action("arm", card))
            elif design.role == "ammo":
                if (
                    weapon
                    and weapon.ammo == design.name
                    and len(self.loaded[p]) < self._capacity(p)
                ):
                    actions.append(Action("load", card))
            elif design.role == "reach":
                target = self.facing[p]
                if self.alive[target] and self.weapons[target]:
                    actions.append(Action("reach", card, target))
        for t in self._seats_from(p)[1:]:
            if self.alive[t] and t != self.facing[p]:
                actions.append(Action("track", target=t))
        return actions or [PASS]

    def _take_turn(self, p: int, action: Action) -> None:
        kind, card = action.kind, action.card
        if kind == "track":
            self.facing[p] = action.target
            self._say("{} tracks {}", self.names[p], self.names[action.target])
            return
        if kind == "pass":
            return
        self.hands[p].remove(card)
        design = CARDS[card]
        if kind == "arm":
            current = self._weapon(p)
            two_revolvers = (
                self.rules["advanced"]
                and design.name == "Revolver"
                and current is not None
                and current.name == "Revolver"
                and len(self.weapons[p]) == 1
            )
            if not two_revolvers:
                self._to_discard(self.weapons[p])
                self._to_discard(self.loaded[p])
            self.weapons[p].append(card)
            self._say("{} arms with a {}", self.names[p], design.name)
        elif kind == "load":
            self.loaded[p].append(card)
            self._say("{} loads a {}", self.names[p], design.name)
        elif kind == "reach":
            target = action.target
            self._to_discard(self.weapons[target])
            self._to_discard(self.loaded[target])
            self.discard.append(card)
            self._say("{}: Reach for the sky! {} drops the guns", self.names[p], self.names[target])
        else:
            self.discard.append(card)
            self._say("{} discards {}", self.names[p], design.name)
        self.refilling, self.refill_triggers = p, 0

    def _advance(self) -> None:
        """Run the game on until someone must decide."""
        while self.phase != OVER:
            if self.law_queue:
                self.phase, self.actor = LAW, self.law_queue[0]
                return
            if self.calling is not None:
                self.phase, self.actor = CALL, self.calling
                return
            if self.react_queue:
                self.phase, self.actor = REACT, self.react_queue[0]
                return
            if self.yelled is not None:
                self._begin_combat()
                continue
            if self.combat is not None:
                if self._next_shooter():
                    return
                self._end_combat()
                continue
            if self.refilling is not None:
                self._refill()
                continue
            self._next_turn()
            return

    def _refill(self) -> None:
        """Draw one card towards five; a DRAW! or SHOOTOUT! is played at once."""
        p = self.refilling
        assert p is not None
        if not self.alive[p] or len(self.hands[p]) >= HAND_SIZE:
            self.refilling = None
            return
        card = self._top()
        if card is None:
            self.refilling = None
            return
        role = CARDS[card].role
        if role in ("draw", "shootout"):
            self.refill_triggers += 1
            if self.refill_triggers > TRIGGERS:
                # Only DRAW! and SHOOTOUT! are left to draw: stop rather than fight forever.
                self.discard.append(card)
                self.refilling = None
                return
        if role == "draw":
            self.discard.append(card)
            self.calling = p
        elif role == "shootout":
            self.discard.append(card)
            self._yell("shootout", p, -1)
        else:
            self.hands[p].append(card)

    def _next_turn(self) -> None:
        self.turn += 1
        if self.turn >= self.rules["max_turns"]:
            self.phase, self.capped = OVER, True
            self.winners = [s for s in range(self.n) if self.alive[s]]
            self._say("Turn {}: the sun sets on Tabletown", self.turn)
            return
        for seat in self._seats_from(self.current)[1:]:
            if self.alive[seat]:
                self.current = seat
                break
        self.phase, self.actor = TURN, self.current

    # -- DRAW! and SHOOTOUT! ------------------------------------------------------------------

    def _yell(self, kind: str, drawer: int, target: int) -> None:
        self.yelled = (kind, drawer, target)
        self._say(
            "{} yells {}",
            self.names[drawer],
            f"Draw! at {self.names[target]}" if kind == "draw" else "Shootout!",
        )
        self.react_queue = [
            s
            for s in self._seats_from(drawer)
            if self.alive[s]
            and (
                self._held(s, "cavalry") >= 0
                or (self._held(s, "stagecoach") >= 0 and self._involved(s))
            )
        ]

    def _react(self, p: int, action: Action) -> None:
        self.react_queue.pop(0)
        if action.kind == "no_reaction":
            return
        self.hands[p].remove(action.card)
        self.discard.append(action.card)
        kind = self.yelled[0]  # type: ignore[index]
        if action.kind == "cavalry" or kind == "draw":
            self._say("{} plays {}: the {} is off", self.names[p], CARDS[action.card].name, kind)
            self.yelled, self.react_queue = None, []
            self.escaped.clear()
            return
        self._say("{} takes the Last Stage Coach Out of Town", self.names[p])
        self.escaped.add(p)

    def _begin_combat(self) -> None:
        kind, drawer, target = self.yelled  # type: ignore[misc]
        self.yelled = None
        if kind == "draw":
            # The called gunslinger turns to face the drawer, who stands facing him too.
            self.facing[target] = drawer
            self.facing[drawer] = target
            combatants = [drawer, target]
        else:
            combatants = [s for s in self._seats_from(drawer) if self.alive[s]]
            combatants = [s for s in combatants if s not in self.escaped]
        if len(combatants) < 2:
            self._say("Nobody is left to fight")
            self.escaped.clear()
            return
        combat = Combat(kind, drawer, target, combatants)
        totals: dict[int, list[int]] = {}
        told: dict[int, str] = {}
        for seat in combatants:
            roll = total = self.chance.randint(1, 6, "initiative")
            weapon = self._weapon(seat)
            told[seat] = f"{self.names[seat]} {roll}"
            if weapon is not None and self.rules["advanced"] and weapon.initiative:
                total += weapon.initiative
                told[seat] += f" + {weapon.initiative} ({weapon.name}) = {total}"
            totals.setdefault(total, []).append(seat)
        combat.groups = [totals[t] for t in sorted(totals)]
        self._say(
            "Initiative, lowest first: {}",
            ", then ".join(
                " and ".join(told[seat] for seat in group) + (" at once" if len(group) > 1 else "")
                for group in combat.groups
            ),
        )
        self.combat = combat

    def _next_shooter(self) -> bool:
        """Set up the next combat decision; False once every initiative group has fired."""
        combat = self.combat
        assert combat is not None
        while combat.group < len(combat.groups):
            group = combat.groups[combat.group]
            while combat.member < len(group):
                seat = group[combat.member]
                if self.alive[seat]:
                    if self._combat_actions(seat) != [HOLD] or not self._passed_over(seat):
                        self.phase, self.actor = COMBAT, seat
                        return True
                    self._say("{} has {}", self.names[seat], self._nothing_to_do(seat))
                combat.member += 1
            # Equal initiative shoots at once: the group's hits land together.
            self._apply_hits(combat.hits)
            combat.hits = []
            combat.group += 1
            combat.member = 0
        return False

    def _passed_over(self, p: int) -> bool:
        """Whether `p`, who can only hold fire, is passed over rather than asked. Only when
        everyone can see it (no cards in hand, or two players: no TNT in the game); else he is
        asked like anyone who may hold, or the skip would tell the table his hand has no TNT.
        The legacy rulings passed him over all the same."""
        if self.rules["rulings"] == LEGACY_RULINGS:
            return True
        return not self.hands[p] or self.n == 2

    def _nothing_to_do(self, p: int) -> str:
        """Why `p` is passed over, in public facts only."""
        why = "nobody to shoot at" if self.loaded[p] else "nothing loaded"
        if self.rules["rulings"] == LEGACY_RULINGS:
            return why if self.loaded[p] else "nothing loaded and no TNT"
        return why if self.n == 2 else f"{why} and no cards in hand"

    def _combat_target(self, p: int) -> int:
        combat = self.combat
        assert combat is not None
        if combat.kind == "draw":
            target = combat.target if p == combat.drawer else combat.drawer
        else:
            target = self.facing[p]
        if target == p or not self.alive[target] or target not in combat.combatants:
            return -1
        return target

    def _combat_actions(self, p: int) -> list[Action]:
        combat = self.combat
        assert combat is not None
        actions: list[Action] = []
        target = self._combat_target(p)
        loaded = len(self.loaded[p])
        if target >= 0 and loaded:
            most = 1 if combat.kind == "draw" else loaded
            actions.extend(Action("shoot", target=target, n=k) for k in range(1, most + 1))
            if self._weapon(p).both_hits_on and loaded >= 2:
                actions.append(Action("blast", target=target))
        sticks = sum(1 for c in self.hands[p] if CARDS[c] is TNT)
        actions.extend(Action("tnt", n=k) for k in range(1, min(3, sticks) + 1))
        # You must shoot when loaded with a target facing you; otherwise you may hold fire.
        if not (target >= 0 and loaded and self.facing[target] == p):
            actions.append(HOLD)
        return actions

    def _fire(self, p: int, action: Action) -> None:
        combat = self.combat
        assert combat is not None
        combat.member += 1
        if action.kind == "hold":
            self._say("{} holds fire", self.names[p])
            return
        combat.fired = True
        if action.kind == "tnt":
            sticks = [c for c in self.hands[p] if CARDS[c] is TNT][: action.n]
            for card in sticks:
                self.hands[p].remove(card)
                self.discard.append(card)
            combat.tnt.append((p, action.n))
            self._say(
                "{} lights {} of TNT: it goes BOOM after everyone has fired",
                self.names[p],
                "a stick" if action.n == 1 else f"{action.n} sticks",
            )
            self._law_broken(p)
            return
        target, weapon = action.target, self._weapon(p)
        lawless = self.facing[target] != p or not self.weapons[target]
        if action.kind == "blast":
            shots = [(2, weapon.both_hits_on)]
        else:
            shots = [(1, weapon.hits_on)] * action.n
        for shells, hits_on in shots:
            for _ in range(shells):
                self.discard.append(self.loaded[p].pop())
            roll = self.chance.randint(1, 6, "shot")
            if roll >= hits_on:
                combat.hits.append((target, weapon.name))
            self._say(
                "{} {} {} with the {} (hits on {}+): {}, {}",
                self.names[p],
                "fires both shells at once, one shot, at" if shells == 2 else "shoots at",
                self.names[target],
                weapon.name,
                hits_on,
                roll,
                "hit" if roll >= hits_on else "miss",
            )
        if lawless:
            self._law_broken(p)

    def _law_broken(self, p: int) -> None:
        """TNT, a shot in the back or at an unarmed man: anyone may turn to face `p`."""
        self.law_violator = p
        self.law_queue = [
            s for s in self._seats_from(p)[1:] if self.alive[s] and self.facing[s] != p
        ]

    def _apply_hits(self, hits: list[tuple[int, str]]) -> None:
        dead = []
        for seat, weapon in hits:
            if not self.alive[seat] or seat in dead:  # the sixth wound was the last
                continue
            star = -1
            for role_name in ("Deputy Sheriff", "Sheriff"):  # spend the lesser star first
                for card in self.hands[seat]:
                    if CARDS[card].name == role_name and weapon in CARDS[card].cancels:
                        star = card
                        break
                if star >= 0:
                    break
            if star >= 0:
                self.hands[seat].remove(star)
                self.discard.append(star)
                self._say("{}'s {} cancels the hit", self.names[seat], CARDS[star].name)
                continue
            self.wounds[seat] += 1
            self._say(
                "{} takes a wound from the {}: {} of {}",
                self.names[seat],
                weapon,
                self.wounds[seat],
                WOUNDS_SURVIVED + 1,
            )
            if self.wounds[seat] > WOUNDS_SURVIVED:
                dead.append(seat)
        for seat in dead:
            self.alive[seat] = False
            self._say("{} is gunned down", self.names[seat])
            self._to_discard(self.hands[seat])
            self._to_discard(self.weapons[seat])
            self._to_discard(self.loaded[seat])

    def _end_combat(self) -> None:
        combat = self.combat
        assert combat is not None
        hits: list[tuple[int, str]] = []
        for thrower, sticks in combat.tnt:
            # TNT goes BOOM last, even if its thrower is dead: roll for everyone at the table.
            hits_on = TNT.tnt_hits_on[sticks - 1]
            told = []
            for seat in range(self.n):
                if not self.alive[seat] or seat in self.escaped:
                    continue
                roll = self.chance.randint(1, 6, "tnt")
                if roll >= hits_on:
                    hits.append((seat, "TNT"))
                told.append(f"{self.names[seat]} {roll} ({'hit' if roll >= hits_on else 'miss'})")
            self._say(
                "BOOM! {}'s TNT (hits on {}+): {}",
                self.names[thrower],
                hits_on,
                ", ".join(told) or "nobody is at the table",
            )
        self._apply_hits(hits)
        if not combat.fired:
            self._say("The {} ends without a shot", "DRAW" if combat.kind == "draw" else "SHOOTOUT")
        self.combat = None
        self.escaped.clear()
        standing = [s for s in range(self.n) if self.alive[s]]
        if len(standing) <= 1:
            self.phase, self.winners = OVER, standing
            self._say(
                "{}",
                f"{self.names[standing[0]]} is the fastest draw in the West"
                if standing
                else "Nobody is left standing in Tabletown",
            )
