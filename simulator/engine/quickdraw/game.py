"""Quickdraw: load six bullets, fire them one at a time, the bigger face-up stack wins.

The cards are revealed simultaneously in the printed game; here seat 0 chooses first and seat 1's
view shows only that a card is ready. The three minutes of talk (Step 2) exchange no
information in a simulation and are skipped; see docs/rules/quickdraw.md.
"""

from __future__ import annotations

from dataclasses import dataclass

from simulator.engine.core import OVER, BaseGameState, GameAction
from simulator.engine.quickdraw.cards import CARDS, HAND_SIZE, JOKER, STRENGTHS

NAME = "quickdraw"
KINDS = ("keep", "reload", "fire")
LOAD, FIRE = "load", "fire"


@dataclass(frozen=True, slots=True)
class Action(GameAction):
    """One decision: in Step 1 `keep` the hand or `reload` it; in Step 3 `fire` a card."""

    GAME, KINDS = NAME, KINDS
    kind: str
    card: int = -1


KEEP, RELOAD = Action("keep"), Action("reload")


class QuickdrawState(BaseGameState):
    """One duel of Quickdraw. Cards are ids into `CARDS`; the deck's top is its last item. It is
    over once one stack is bigger with both hands empty (or the deck ran short)."""

    NAME = NAME
    TITLE = "Quickdraw"
    SUMMARY = (
        "Two cowboys with a deck of playing cards load six bullets each and fire them one at a "
        "time; the bigger face-up stack wins."
    )
    PLAYERS_ERROR = "Quickdraw is a game for two players"
    OVER_ERROR = "the duel is over"

    def _set_up(self) -> None:
        self.deck: list[int] = self.chance.shuffle(list(range(len(CARDS))), "deck")
        self.hands: list[list[int]] = [[], []]
        self.stacks: list[list[int]] = [[], []]
        self.fired: list[tuple[int, int]] = []
        self.selected = [-1, -1]
        self.reloaded = [False, False]
        self.hands_dealt = 0
        self.winner: int | None = None
        self.short = False
        self._deal()
        self.phase, self.actor = LOAD, 0

    # -- the protocol -------------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """Every action the player to act may take now."""
        if self.phase == FIRE:
            return [Action("fire", c) for c in self.hands[self.actor]]
        if self.phase == LOAD:
            return [KEEP, RELOAD]
        return []

    def _apply_legal(self, action: Action) -> None:
        player = self.actor
        if self.phase == LOAD:
            if action.kind == "reload":
                self.reloaded[player] = True
                self._say("{} reloads", self.names[player])
                self._reload(player)
            self.actor = 1 if player == 0 else 0
            if player == 1:
                self.phase = FIRE
            return
        self.selected[player] = action.card
        if player == 0:
            self.actor = 1
        else:
            self._fire()

    def view(self, player: int) -> dict:
        """What `player` may know: own hand, both face-up stacks, every card fired so far."""
        other = 1 - player
        return {
            "seat": player,
            "phase": self.phase,
            "to_act": self.actor,
            "hand": list(self.hands[player]),
            "opponent_hand_size": len(self.hands[other]),
            "stacks": [list(self.stacks[0]), list(self.stacks[1])],
            "fired": [list(pair) for pair in self.fired],
            "selected": self.selected[player],
            "opponent_has_selected": self.selected[other] >= 0,
            "reloaded": list(self.reloaded),
            "deck_size": len(self.deck),
        }

    def final(self) -> dict:
        """Winner (None for a draw when the deck ran short), stack sizes, hands dealt."""
        return {
            "winner": self.winner,
            "stacks": [len(self.stacks[0]), len(self.stacks[1])],
            "hands_dealt": self.hands_dealt,
            "deck_ran_short": self.short,
        }

    # -- steps --------------------------------------------------------------------------------

    def _deal(self) -> bool:
        """Both players draw six; False (nothing drawn) when the deck cannot fill both hands."""
        if len(self.deck) < 2 * HAND_SIZE:
            return False
        for player in (0, 1):
            for _ in range(HAND_SIZE):
                self.hands[player].append(self.deck.pop())
        self.hands_dealt += 1
        return True

    def _reload(self, player: int) -> None:
        # The hand goes back into the centre deck, which is shuffled before the new six.
        self.deck.extend(self.hands[player])
        self.hands[player] = []
        self.deck = self.chance.shuffle(self.deck, "reload")
        for _ in range(HAND_SIZE):
            self.hands[player].append(self.deck.pop())

    def _fire(self) -> None:
        a, b = self.selected
        self.selected = [-1, -1]
        self.actor = 0
        self.hands[0].remove(a)
        self.hands[1].remove(b)
        self.fired.append((a, b))
        sa, sb = STRENGTHS[a], STRENGTHS[b]
        if sa != sb:
            winner = 0 if sa > sb else 1
            self.stacks[winner] += [a, b]
            self._say(
                "{} fires {}, {} fires {}: {} wins both",
                self.names[0],
                CARDS[a].name,
                self.names[1],
                CARDS[b].name,
                self.names[winner],
            )
        else:
            self.stacks[0].append(a)
            self.stacks[1].append(b)
            self._say(
                "{} fires {}, {} fires {}: a tie",
                self.names[0],
                CARDS[a].name,
                self.names[1],
                CARDS[b].name,
            )
            if sa == JOKER:
                # A pair of Jokers: both reload at once and go back to Step 2.
                self._say("A pair of Jokers: both reload")
                for player in (0, 1):
                    self.deck.extend(self.hands[player])
                    self.hands[player] = []
                self.deck = self.chance.shuffle(self.deck, "reload")
                if not self._deal():
                    self._end(short=True)
                return
        if self.hands[0]:
            return
        sizes = len(self.stacks[0]), len(self.stacks[1])
        if sizes[0] != sizes[1]:
            self._end(short=False)
        elif not self._deal():
            self._end(short=True)
        else:
            self._say("The stacks are tied at {}: both reload", sizes[0])

    def _end(self, short: bool) -> None:
        sizes = len(self.stacks[0]), len(self.stacks[1])
        self.short = short
        self.phase = OVER
        if sizes[0] != sizes[1]:
            self.winner = 0 if sizes[0] > sizes[1] else 1
            self._say(
                "{} wins with {} cards to {}", self.names[self.winner], max(sizes), min(sizes)
            )
        else:
            self._say("The deck ran short with the stacks tied: a draw")
