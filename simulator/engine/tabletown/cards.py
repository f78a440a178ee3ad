"""Tabletown's 99 action/weapon cards and 18 gunslingers, from fixtures/games/tabletown.json."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

FIXTURE = Path(__file__).resolve().parents[3] / "fixtures" / "games" / "tabletown.json"
DATA = json.loads(FIXTURE.read_text())


@dataclass(frozen=True, slots=True)
class TownCard:
    """One card design; `role` says what the engine does with it (see the fixture's _doc)."""

    design: int
    name: str
    role: str
    ammo: str = ""
    capacity: int = 0
    hits_on: int = 0
    both_hits_on: int = 0
    initiative: int = 0
    tnt_hits_on: tuple[int, ...] = ()
    cancels: frozenset[str] = frozenset()
    text: str = ""


@dataclass(frozen=True, slots=True)
class Gunslinger:
    """A gunslinger card: name and nickname (the text gives them no abilities)."""

    name: str
    nickname: str
    in_text: bool

    @property
    def title(self) -> str:
        """How the card reads: Johnny "Doc" Edwards."""
        first, _, last = self.name.partition(" ")
        return f'{first} "{self.nickname}" {last}'


DESIGNS: tuple[TownCard, ...] = tuple(
    TownCard(
        design=i,
        name=c["name"],
        role=c["role"],
        ammo=c.get("ammo", ""),
        capacity=c.get("capacity", 0),
        hits_on=c["hits_on"] if c["role"] == "weapon" else 0,
        both_hits_on=c.get("both_hits_on", 0),
        initiative=c.get("initiative", 0),
        tnt_hits_on=tuple(c["hits_on"]) if c["role"] == "tnt" else (),
        cancels=frozenset(c.get("cancels", ())),
        text=c["text"],
    )
    for i, c in enumerate(DATA["cards"])
)
# Card instance id -> design; ids run design by design in fixture order.
CARDS: tuple[TownCard, ...] = tuple(
    d for d, c in zip(DESIGNS, DATA["cards"]) for _ in range(c["count"])
)
GUNSLINGERS: tuple[Gunslinger, ...] = tuple(
    Gunslinger(g["name"], g["nickname"], g["in_text"]) for g in DATA["gunslingers"]
)
BY_NAME = {d.name: d for d in DESIGNS}
HAND_SIZE: int = DATA["hand_size"]
WOUNDS_SURVIVED: int = DATA["wounds_survived"]
