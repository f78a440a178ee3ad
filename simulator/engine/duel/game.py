"""The card duel: three rounds of simultaneous duels for gold; the first to win two rounds wins.

The duels are simultaneous in the printed game; here seat 0 chooses first and seat 1's view shows
only that a card is down. Round length, "immediately higher", the special cards and every other
interpretation are documented in docs/rules/duel.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from simulator.engine.core import OVER, BaseGameState, IllegalAction
from simulator.engine.duel.cards import CARDS, DATA, TAKE_BACK_EFFECTS, duel_outcome

NAME = "duel"
DEFAULT_RULES: dict[str, Any] = {}
KINDS = ("discard", "play", "take_back")
DISCARD, PLAY, TAKE_BACK = "discard", "play", "take_back"


@dataclass(frozen=True, slots=True)
class Action:
    """One decision: `discard` a card at the start of a round, `play` a card face down for the
    next duel, `take_back` a discarded card into hand (green 8, Ace in the Hole)."""

    kind: str
    card: int = -1

    def to_json(self) -> dict:
        """The action as a JSON object."""
        return {"kind": self.kind, "card": self.card}

    @classmethod
    def from_json(cls, data: Any) -> Action:
        """Parse an action; IllegalAction if it is not a well-formed action object."""
        if (
            not isinstance(data, dict)
            or data.get("kind") not in KINDS
            or type(data.get("card")) is not int
            or set(data) != {"kind", "card"}
        ):
            raise IllegalAction(f"not a duel action: {data!r}")
        return cls(data["kind"], data["card"])


def round_duels(round_no: int) -> int:
    """How many duels round `round_no` (0-based) has: 6, 5, 4, then 4 for any extra round."""
    table = DATA["round_duels"]
    return table[round_no] if round_no < len(table) else DATA["extra_round_duels"]


class DuelState(BaseGameState):
    """One card duel. Both players own a deck of the same 14 card ids (`CARDS`). It is over once
    a player has won two rounds (or the round cap is reached)."""

    NAME = NAME
    TITLE = "The Duel"
    SUMMARY = "Three rounds of secret card duels for gold; the first to win two rounds wins."
    PLAYERS_ERROR = "the card duel is a game for two players"
    OVER_ERROR = "the duel is over"

    def _set_up(self) -> None:
        self.round_no = -1
        self.round_wins = [0, 0]
        self.total_gold = [0, 0]
        self.round_gold: list[list[int]] = []
        self.penalty = [False, False]
        self.winner: int | None = None
        self.capped = False
        self._start_round()

    # -- the protocol -------------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """Every action the player to act may take now."""
        player = self.actor
        if self.phase == PLAY:
            hand = self.hands[player]
            # You may not play a card one higher than the card you played last.
            barred = self.last_value[player]
            allowed = [c for c in hand if barred is None or CARDS[c].value != barred + 1]
            return [Action("play", c) for c in (allowed or hand)]
        if self.phase == DISCARD:
            return [Action("discard", c) for c in self.hands[player]]
        if self.phase == TAKE_BACK:
            return [Action("take_back", c) for c in self.discards[player]]
        return []

    def _apply_legal(self, action: Action) -> None:
        if self.phase == DISCARD:
            self._discard(self.actor, action.card)
        elif self.phase == PLAY:
            self._play(self.actor, action.card)
        else:
            self._take_back(self.actor, action.card)

    def view(self, player: int) -> dict:
        """What `player` may know: own hand and discards, every revealed card, the gold."""
        other = 1 - player
        return {
            "seat": player,
            "phase": self.phase,
            "round": self.round_no,
            "duel": self.duel_no,
            "duels_in_round": self.duels,
            "to_act": self.actor,
            "hand": list(self.hands[player]),
            "discards": list(self.discards[player]),
            "opponent_hand_size": len(self.hands[other]),
            "opponent_shown": list(self.shown[other]),
            "played": [list(self.played[0]), list(self.played[1])],
            "selected": self.selected[player],
            "opponent_has_selected": self.selected[other] >= 0,
            "last_value": self.last_value[player],
            "gold": list(self.gold),
            "tie_gold": self.pot,
            "six_played": self.six_played,
            "duel_bonus": list(self.bonus),
            "round_wins": list(self.round_wins),
            "total_gold": list(self.total_gold),
        }

    def final(self) -> dict:
        """Winner (None for a draw), rounds won and gold."""
        return {
            "winner": self.winner,
            "round_wins": list(self.round_wins),
            "total_gold": list(self.total_gold),
            "round_gold": [list(g) for g in self.round_gold],
            "capped": self.capped,
        }

    # -- steps --------------------------------------------------------------------------------

    def _start_round(self) -> None:
        self.round_no += 1
        self.duels = round_duels(self.round_no)
        self.duel_no = 0
        self.gold = [0, 0]
        self.pot = 0
        self.six_played = False
        self.bonus = [False, False]
        self.hands: list[list[int]] = [[], []]
        self.discards: list[list[int]] = [[], []]
        self.played: list[list[int]] = [[], []]
        self.shown: list[list[int]] = [[], []]
        self.selected = [-1, -1]
        self.last_value: list[int | None] = [None, None]
        self.take_back_queue: list[int] = []
        self.to_discard = [DATA["discard"], DATA["discard"]]
        for player in (0, 1):
            deck = self.chance.shuffle(list(range(len(CARDS))), "deck")
            self.hands[player] = deck[: DATA["draw"]]
            if self.penalty[player]:
                self.to_discard[player] += DATA["penalty_discard"]
                self.penalty[player] = False
        self._say("Round {}: {} duels", self.round_no + 1, self.duels)
        self.phase, self.actor = DISCARD, 0

    def _discard(self, player: int, card: int) -> None:
        self.hands[player].remove(card)
        self.discards[player].append(card)
        if len(self.discards[player]) < self.to_discard[player]:
            return
        if player == 0:
            self.actor = 1
        else:
            self.phase, self.actor = PLAY, 0

    def _play(self, player: int, card: int) -> None:
        self.selected[player] = card
        if player == 0:
            self.actor = 1
            return
        cards = self.selected
        self.selected = [-1, -1]
        for seat in (0, 1):
            self.hands[seat].remove(cards[seat])
            self.played[seat].append(cards[seat])
            if cards[seat] in self.shown[seat]:
                self.shown[seat].remove(cards[seat])
            self.last_value[seat] = CARDS[cards[seat]].value
        winner, gold = duel_outcome(cards[0], cards[1])
        self.duel_no += 1
        names = (CARDS[cards[0]].name, CARDS[cards[1]].name)
        if winner < 0:
            self.pot += DATA["tie_gold"]
            self._say("Duel {}: {} against {}, a tie", self.duel_no, *names)
        else:
            gold += (CARDS[cards[winner]].effect == "bounty") + self.bonus[winner]
            self.gold[winner] += gold
            self._say(
                "Duel {}: {} against {}; {} wins {} gold",
                self.duel_no,
                *names,
                self.names[winner],
                gold,
            )
        effects = (CARDS[cards[0]].effect, CARDS[cards[1]].effect)
        sixes = [seat for seat in (0, 1) if effects[seat] == "first_six"]
        if sixes and not self.six_played:
            self.six_played = True
            if len(sixes) == 1:  # both at once: neither was first
                self.gold[sixes[0]] += self.pot
                self._say(
                    "{} played the first 6 and takes {} tied gold", self.names[sixes[0]], self.pot
                )
                self.pot = 0
        for seat in (0, 1):
            effect = effects[seat]
            if effect == "duel_bonus":
                self.bonus[seat] = True
            elif effect == "take_back_previous" and len(self.played[seat]) >= 2:
                back = self.played[seat].pop(-2)
                self.hands[seat].append(back)
                self.shown[seat].append(back)
            elif effect in TAKE_BACK_EFFECTS:
                if effect == "take_back_penalty":
                    self.penalty[seat] = True
                if self.discards[seat]:
                    self.take_back_queue.append(seat)
        if self.duel_no >= self.duels or ("end_round" in effects and self.duel_no >= 3):
            self._end_round()
        else:
            self._next_take_back()

    def _next_take_back(self) -> None:
        if self.take_back_queue:
            self.phase, self.actor = TAKE_BACK, self.take_back_queue.pop(0)
        else:
            self.phase, self.actor = PLAY, 0

    def _take_back(self, player: int, card: int) -> None:
        self.discards[player].remove(card)
        self.hands[player].append(card)
        self.shown[player].append(card)
        self._say("{} takes back {} and shows it", self.names[player], CARDS[card].name)
        self._next_take_back()

    def _end_round(self) -> None:
        gold = self.gold
        self.round_gold.append(list(gold))
        for seat in (0, 1):
            self.total_gold[seat] += gold[seat]
        if gold[0] != gold[1]:
            leader = 0 if gold[0] > gold[1] else 1
            self.round_wins[leader] += 1
            self._say(
                "{} wins round {} with {} gold to {}",
                self.names[leader],
                self.round_no + 1,
                gold[leader],
                gold[1 - leader],
            )
        else:
            self._say("Round {} is tied at {} gold", self.round_no + 1, gold[0])
        for seat in (0, 1):
            if self.round_wins[seat] >= DATA["rounds_to_win"]:
                self.winner, self.phase = seat, OVER
                self._say("{} wins the duel", self.names[seat])
                return
        if self.round_no + 1 >= DATA["max_rounds"]:
            self.phase, self.capped = OVER, True
            wins, total = self.round_wins, self.total_gold
            if wins[0] != wins[1]:
                self.winner = 0 if wins[0] > wins[1] else 1
            elif total[0] != total[1]:
                self.winner = 0 if total[0] > total[1] else 1
            return
        self._start_round()
