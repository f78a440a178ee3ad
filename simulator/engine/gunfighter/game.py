"""Gunfighter: two gunfighters, a hand of action cards, accuracy, bullets and health.

The turn is simultaneous in the printed game; here the two players choose in seat order and the
second chooser's view shows only that the first card is down, never which. Card effects, the
resolution order (Dodge before Shoot, then most bullets, then the top-card die roll) and every
other interpretation are documented in docs/rules/gunfighter.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from simulator.engine.core import OVER, BaseGameState, GameAction
from simulator.engine.core.errors import RulesError
from simulator.engine.gunfighter.cards import (
    CARDS,
    FIXTURE_DATA,
    STAREDOWN,
    STAT_MAX,
    STAT_MIN,
    card_name,
)

NAME = "gunfighter"
DEFAULT_RULES: dict[str, Any] = {"max_turns": 200}
SETUP = FIXTURE_DATA["setup"]
START = FIXTURE_DATA["stat_card"]
STAREDOWN_DISCARDS = FIXTURE_DATA["staredown"]["discard_up_to"]

KINDS = ("discard", "select", "staredown_discard", "staredown_done")
SETUP_DISCARD, SELECT, STAREDOWN_STEP, HAND_LIMIT = (
    "setup_discard",
    "select",
    "staredown",
    "hand_limit",
)


@dataclass(frozen=True, slots=True)
class Action(GameAction):
    """One decision: `discard` (setup or hand limit), `select` the face-down card for the
    turn, and while resolving a Staredown `staredown_discard` a card or `staredown_done`."""

    GAME, KINDS = NAME, KINDS
    kind: str
    card: int = -1


STAREDOWN_DONE = Action("staredown_done")


def _clamp(value: int) -> int:
    return STAT_MIN if value < STAT_MIN else STAT_MAX if value > STAT_MAX else value


def _rules(rules: dict | None) -> dict:
    merged = dict(DEFAULT_RULES)
    for key, value in (rules or {}).items():
        if key not in DEFAULT_RULES:
            raise RulesError(f"unknown gunfighter rule {key!r}")
        if type(value) is not int or value < 1:
            raise RulesError(f"gunfighter rule {key} must be a positive integer")
        merged[key] = value
    return merged


class GunfighterState(BaseGameState):
    """One game of Gunfighter. Seats 0 and 1; cards are integer ids into `CARDS`. It is over
    once a gunfighter is dead (or the turn cap is reached)."""

    NAME = NAME
    TITLE = "Gunfighter"
    SUMMARY = (
        "Two gunfighters play action cards to stay loaded and keep their aim true; the first "
        "to lose all their health points dies."
    )
    PLAYERS_ERROR = "Gunfighter is a game for two players"
    OVER_ERROR = "the gunfight is over"

    parse_rules = staticmethod(_rules)

    def _set_up(self) -> None:
        self.accuracy = [START["accuracy"], START["accuracy"]]
        self.bullets = [START["bullets"], START["bullets"]]
        self.health = [START["health"], START["health"]]
        self.hands: list[list[int]] = [[], []]
        self.discard: list[int] = []
        self.pending_discards: list[list[int]] = [[], []]
        self.selected: list[int] = [-1, -1]
        self.used = [False, False]
        self.dodging = [False, False]
        self.queue: list[int] = []
        self.revealed = False
        self.staredown_count = 0
        self.turn = 0
        self.phase = SETUP_DISCARD
        self.actor = 0
        self.winner: int | None = None
        self.capped = False
        self.deck: list[int] = self.chance.shuffle(list(range(len(CARDS))), "deck")
        for player in (0, 1):
            self._draw(player, SETUP["draw"])
        for player in (0, 1):
            # A hand without a Shoot and a Dodge is shown, shuffled back and drawn again.
            while not self._has_shoot_and_dodge(player):
                self._say(
                    "{} shows a hand without a Shoot and a Dodge and redraws", self.names[player]
                )
                self.deck.extend(self.hands[player])
                self.hands[player] = []
                self.deck = self.chance.shuffle(self.deck, "deck")
                self._draw(player, SETUP["draw"])

    # -- the protocol -------------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """Every action the player to act may take now."""
        phase, hand = self.phase, self.hands[self.actor]
        if phase == SELECT:
            return [Action("select", card) for card in hand]
        if phase == STAREDOWN_STEP:
            return [Action("staredown_discard", c) for c in hand if c != STAREDOWN] + [
                STAREDOWN_DONE
            ]
        if phase in (SETUP_DISCARD, HAND_LIMIT):
            return [Action("discard", c) for c in hand if c != STAREDOWN]
        return []

    def _apply_legal(self, action: Action) -> None:
        player = self.actor
        if self.phase == SETUP_DISCARD:
            self._setup_discard(player, action.card)
        elif self.phase == SELECT:
            self._select(player, action.card)
        elif self.phase == STAREDOWN_STEP:
            self._staredown(player, action)
        else:
            self._hand_limit(player, action.card)

    def view(self, player: int) -> dict:
        """What `player` may know: own hand, both stat cards, the discard pile, revealed cards."""
        enemy = 1 - player
        return {
            "seat": player,
            "phase": self.phase,
            "turn": self.turn,
            "to_act": self.actor,
            "hand": list(self.hands[player]),
            "enemy_hand_size": len(self.hands[enemy]),
            "accuracy": list(self.accuracy),
            "bullets": list(self.bullets),
            "health": list(self.health),
            "selected": self.selected[player],
            # Face-down until both are in: the enemy's choice shows only as "a card is down".
            "enemy_selected": self.selected[enemy] if self.revealed else None,
            "enemy_has_selected": self.selected[enemy] >= 0,
            "my_setup_discards": list(self.pending_discards[player]),
            "discard": list(self.discard),
            "deck_size": len(self.deck),
        }

    def final(self) -> dict:
        """Winner (None for a capped draw), stats and turns (the turns completed: a gunfight
        that ends in a death ends during turn `turns` + 1, as the narration says)."""
        return {
            "winner": self.winner,
            "health": list(self.health),
            "accuracy": list(self.accuracy),
            "bullets": list(self.bullets),
            "turns": self.turn,
            "capped": self.capped,
        }

    # -- steps --------------------------------------------------------------------------------

    def _has_shoot_and_dodge(self, player: int) -> bool:
        categories = {CARDS[c].category for c in self.hands[player]}
        return "SHOOT" in categories and "DODGE" in categories

    def _top(self) -> int | None:
        """Take the top card of the deck, shuffling the discard pile into a new deck if empty."""
        if not self.deck:
            if not self.discard:
                return None
            self._say("The discard pile is shuffled into a new deck")
            self.deck = self.chance.shuffle(self.discard, "reshuffle")
            self.discard = []
        return self.deck.pop()

    def _draw(self, player: int, n: int) -> None:
        for _ in range(n):
            card = self._top()
            if card is None:
                return
            self.hands[player].append(card)

    def _setup_discard(self, player: int, card: int) -> None:
        self.hands[player].remove(card)
        self.pending_discards[player].append(card)
        if len(self.pending_discards[player]) < SETUP["discard"]:
            return
        if player == 0:
            self.actor = 1
            return
        for seat in (0, 1):
            self._say(
                "{} discards {}",
                self.names[seat],
                ", ".join(map(card_name, self.pending_discards[seat])),
            )
            self.discard.extend(self.pending_discards[seat])
            self.pending_discards[seat] = []
            self.hands[seat].append(STAREDOWN)
        self.phase, self.actor = SELECT, 0

    def _select(self, player: int, card: int) -> None:
        self.hands[player].remove(card)
        self.selected[player] = card
        if player == 0:
            self.actor = 1
            return
        self.revealed = True
        self._say(
            "Turn {}: {} plays {}, {} plays {}",
            self.turn + 1,
            self.names[0],
            card_name(self.selected[0]),
            self.names[1],
            card_name(self.selected[1]),
        )
        self.queue = self._order()
        self.used = [False, False]
        self.dodging = [False, False]
        self._resolve()

    def _category(self, player: int) -> str:
        card = self.selected[player]
        return "STAREDOWN" if card == STAREDOWN else CARDS[card].category

    def _order(self) -> list[int]:
        """Who resolves first: Dodge before Shoot, else most bullets, else the top-card roll."""
        first, second = self._category(0), self._category(1)
        if first == "DODGE" and second == "SHOOT":
            return [0, 1]
        if second == "DODGE" and first == "SHOOT":
            return [1, 0]
        if self.bullets[0] != self.bullets[1]:
            return [0, 1] if self.bullets[0] > self.bullets[1] else [1, 0]
        while True:
            # Equal bullets: each discards the top card; the higher die roll value goes first.
            rolls = []
            for _ in (0, 1):
                card = self._top()
                if card is None:  # every card in hands: fall back to a coin
                    first_player = self.chance.choice_index(2, "first")
                    return [first_player, 1 - first_player]
                self.discard.append(card)
                rolls.append(CARDS[card].die)
            self._say("Equal bullets: the top cards show {} and {}", rolls[0], rolls[1])
            if rolls[0] != rolls[1]:
                return [0, 1] if rolls[0] > rolls[1] else [1, 0]

    def _resolve(self) -> None:
        """Resolve the face-up cards in order until a decision or the end of the turn."""
        while self.queue:
            player = self.queue.pop(0)
            if self.selected[player] == STAREDOWN:
                self.phase, self.actor, self.staredown_count = STAREDOWN_STEP, player, 0
                return
            self._use(player, CARDS[self.selected[player]])
            if self.winner is not None:
                # final()["turns"] counts the turns completed: not this one, cut short
                self._say(
                    "{} is dead; {} wins the gunfight in turn {}, after {} full turn{}",
                    self.names[1 - self.winner],
                    self.names[self.winner],
                    self.turn + 1,
                    self.turn,
                    "" if self.turn == 1 else "s",
                )
                self.phase = OVER
                return
        self._end_turn()

    def _use(self, player: int, card: Any) -> None:
        enemy = 1 - player
        if self.bullets[player] < card.cost:
            self._say("{} cannot pay {} bullets for {}", self.names[player], card.cost, card.name)
            return
        self.bullets[player] -= card.cost
        self.used[player] = True
        for step in card.effects:
            op = step[0]
            if op == "shoot":
                if self.dodging[enemy]:
                    self._say("{} dodges the shot of {}", self.names[enemy], self.names[player])
                    continue
                roll = self.chance.randint(1, 6, "shot")
                if roll <= self.accuracy[player]:
                    self.health[enemy] -= 1
                    self._say(
                        "{} rolls {} and hits; {} has {} HP",
                        self.names[player],
                        roll,
                        self.names[enemy],
                        self.health[enemy],
                    )
                    if self.health[enemy] == 0:
                        self.winner = player
                        return
                else:
                    self._say("{} rolls {} and misses", self.names[player], roll)
            elif op == "dodge":
                self.dodging[player] = True
            elif op == "accuracy":
                self.accuracy[player] = _clamp(self.accuracy[player] + step[1])
            elif op == "bullets":
                self.bullets[player] = _clamp(self.bullets[player] + step[1])
            elif op == "enemy_accuracy":
                self.accuracy[enemy] = _clamp(self.accuracy[enemy] + step[1])
            elif op == "enemy_bullets":
                self.bullets[enemy] = _clamp(self.bullets[enemy] + step[1])
            elif op == "draw":
                self._draw(player, step[1])
            elif op == "scavenge":
                if self.discard:
                    self.hands[player].append(self.discard.pop())
            elif op == "enemy_discard":
                for _ in range(step[1]):
                    cards = [c for c in self.hands[enemy] if c != STAREDOWN]
                    if not cards:
                        break
                    lost = cards[self.chance.choice_index(len(cards), "enemy_discard")]
                    self.hands[enemy].remove(lost)
                    self.discard.append(lost)
                    self._say("{} discards {}", self.names[enemy], card_name(lost))
            else:  # pragma: no cover - the fixture test checks every op
                raise RulesError(f"unknown effect {op!r}")

    def _staredown(self, player: int, action: Action) -> None:
        if action.kind == "staredown_discard":
            self.hands[player].remove(action.card)
            self.discard.append(action.card)
            self.staredown_count += 1
            if self.staredown_count < STAREDOWN_DISCARDS and len(self.hands[player]) > 0:
                return
        self._say(
            "{} stares down, discards {} and draws as many",
            self.names[player],
            self.staredown_count,
        )
        self._draw(player, self.staredown_count)
        self._resolve()

    def _end_turn(self) -> None:
        # Played cards go back to their owners' hands unless the card says to discard it.
        for player in (0, 1):
            card = self.selected[player]
            if card != STAREDOWN and self.used[player] and CARDS[card].discard_after_use:
                self.discard.append(card)
            else:
                self.hands[player].append(card)
        self.selected = [-1, -1]
        self.revealed = False
        self._next_hand_limit(0)

    def _next_hand_limit(self, start: int) -> None:
        for player in range(start, 2):
            if len(self.hands[player]) > SETUP["hand_limit"]:
                self.phase, self.actor = HAND_LIMIT, player
                return
        self.turn += 1
        if self.turn >= self.rules["max_turns"]:
            self.phase, self.capped = OVER, True
            self._say("The sun sets on turn {} with both gunfighters standing", self.turn)
            return
        self.phase, self.actor = SELECT, 0

    def _hand_limit(self, player: int, card: int) -> None:
        self.hands[player].remove(card)
        self.discard.append(card)
        self._say("{} discards {} down to the hand limit", self.names[player], card_name(card))
        self._next_hand_limit(player)
