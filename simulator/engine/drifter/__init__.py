"""High Stakes Drifter's rules engine: the public face.

state = drifter.new_game(seats=[Seat("Sam", deck, chips), ...], rules=Rules(), seed=7)
while not state.is_over:
    p = state.to_act
    state.apply(bots[p].choose(state.view(p), state.legal_actions()))
assert drifter.replay(state.record()).final() == state.final()
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from simulator.engine.compiled import use_compiled

# First of all: the compiled build of the hot modules, if `make engine` built it from exactly
# these sources (simulator/engine/compiled.py); otherwise the .py files load as usual.
use_compiled(__name__, __path__)

from simulator.engine.core.chance import ReplayChance  # noqa: E402
from simulator.engine.core.errors import IllegalAction, RecordError, RulesError  # noqa: E402
from simulator.engine.core.record import GameRecord  # noqa: E402
from simulator.engine.core.registry import GameSpec, register  # noqa: E402
from simulator.engine.core.replay import replay_record  # noqa: E402
from simulator.engine.drifter.actions import Action  # noqa: E402
from simulator.engine.drifter.bots import FACTORIES  # noqa: E402
from simulator.engine.drifter.cards import Catalogue, load_catalogue  # noqa: E402
from simulator.engine.drifter.pieces import Seat  # noqa: E402
from simulator.engine.drifter.state import DrifterState  # noqa: E402
from simulator.engine.drifter.variants import Rules  # noqa: E402

__all__ = ["Action", "DrifterState", "Rules", "Seat", "new_game", "play", "replay", "starter_seat"]


# The standard rules, made once: Rules is a frozen dataclass that checks itself when made, a
# fifteenth of making a game when a batch asks for the standard rules game after game.
_STANDARD = Rules()


def new_game(
    seats: Sequence[Seat | dict],
    rules: Rules | None = None,
    seed: int = 0,
    record: bool = True,
    catalogue: Catalogue | None = None,
    narrate: bool = False,
) -> DrifterState:
    """Start a game: decks shuffled, hands drawn, the badge given. `record=False` keeps no log
    (fast batches); `narrate=True` keeps the narration events narrate.py reads."""
    if isinstance(seats, (str, bytes)) or not isinstance(seats, Sequence):
        raise RulesError("seats must be a list of Seat")
    parsed = [s if isinstance(s, Seat) else Seat.from_json(s) for s in seats]
    return DrifterState(
        catalogue if catalogue is not None else load_catalogue(),
        parsed,
        rules if rules is not None else _STANDARD,
        seed,
        events=[] if record else None,
        narrate=narrate,
    )


def replay(record: dict, catalogue: Catalogue | None = None, narrate: bool = False) -> DrifterState:
    """Rebuild a game from its record with no RNG (core's `replay_record`, as every game does);
    RecordError if it is corrupt or tampered. `narrate=True` keeps the narration events."""
    cat = catalogue if catalogue is not None else load_catalogue()

    def build(rec: GameRecord, chance: ReplayChance, log: list) -> DrifterState:
        try:
            rules = Rules.from_json(rec.rules)
            seats = [Seat.from_json(s) for s in rec.seats]
        except RulesError as exc:
            raise RecordError(f"bad header: {exc}") from None
        return DrifterState(cat, seats, rules, rec.seed, chance=chance, events=log, narrate=narrate)

    return replay_record(
        record, game="drifter", build=build, action_from_json=Action.from_json, final=_final
    )


# What final() reported when version 1 records were written (before first, cards and shootouts).
_V1_FINAL = frozenset({"over", "stakes", "winners", "turns", "shootouts", "cap_hit", "reason"})


def _final(state: DrifterState, rec: GameRecord) -> dict:
    """The replayed game's final() as the record's version wrote it."""
    final = state.final()
    if rec.version == 1:
        return {k: v for k, v in final.items() if k in _V1_FINAL}
    return final


def starter_seat(
    name: str, starter: str, bot: str = "heuristic", catalogue: Catalogue | None = None
) -> Seat:
    """A seat playing a starter deck by its code (e.g. HSD-S1); RulesError if unknown."""
    cat = catalogue if catalogue is not None else load_catalogue()
    for s in cat.sets:
        for st in s.starters:
            if st.code == starter:
                deck = tuple(code for code, qty in st.cards for _ in range(qty))
                return Seat(name, deck, tuple(st.kicker_chips), bot)
    raise RulesError(f"unknown starter deck {starter!r}")


def play(state: DrifterState, bots: Sequence[Any]) -> DrifterState:
    """Run a game to its end with one bot per seat."""
    while not state.is_over:
        p = state.actor
        state.apply(bots[p].choose(state.view(p), state.legal_actions()))
    return state


register(
    GameSpec(
        name="drifter",
        title="High Stakes Drifter",
        new_game=new_game,
        replay=replay,
        bots=FACTORIES,
        min_players=2,
        max_players=8,
        needs_decks=True,
        chooses_first_player=True,
        summary=(
            "The Western card game of this site: two to eight players build decks of dudes, "
            "gear and fortunes, bet their stakes and fight shootouts for the pot."
        ),
    )
)

__all__ += ["IllegalAction", "RecordError", "RulesError"]
