"""The engine's action kinds and events, each defined once: every kind has its fields and its
step, every event its narration, and an event is logged as the tuple narration reads."""

from __future__ import annotations

import inspect

from simulator.engine.drifter import events as ev
from simulator.engine.drifter import narrate as narrate_module
from simulator.engine.drifter import new_game, starter_seat
from simulator.engine.drifter.actions import KINDS, Action, Kind


def _has_a_step(kind: str) -> bool:
    """Whether `_carry_out` has a step for the kind: carried out on a new game, where it may
    well make no sense (any error then is the step's own), it is not refused for want of one."""
    g = new_game([starter_seat("A", "HSD-S1"), starter_seat("B", "HSD-S2")], seed=1)
    try:
        g._carry_out(Action(kind))
    except AssertionError as e:
        return "no step for" not in str(e)
    except Exception:
        pass
    return True


def test_every_kind_is_named_once_and_has_its_fields_and_its_step():
    named = {v for k, v in vars(Kind).items() if k.isupper()}
    assert named == set(KINDS)
    assert all(_has_a_step(kind) for kind in KINDS)
    assert not _has_a_step("no_such_kind")  # the check can fail


def test_every_event_has_a_sentence_and_its_fields_are_its_constructor():
    assert set(narrate_module._SENTENCES) == set(ev.EVENTS)
    for kind, cls in ev.EVENTS.items():
        assert kind == cls.KIND
        if getattr(cls.__init__, "__code__", None) is None:
            continue  # compiled: no Python signature to read (the pure run checks it)
        params = list(inspect.signature(cls.__init__).parameters)[1:]
        assert tuple(params) == cls.FIELDS, kind


def test_an_event_is_logged_as_its_kind_then_its_plain_fields():
    state = new_game([starter_seat("A", "HSD-S1"), starter_seat("B", "HSD-S2")], seed=3)
    card = state.cards[0]
    logged = ev.Bet(1, 5, True).logged()
    assert logged == ("bet", 1, 5, True)
    logged = ev.Showdown([(0, card, [1, 2, 3])], "skill").logged()
    assert logged == (
        "showdown",
        [[0, ("card", 0, card.defn.name, card.revealed), [1, 2, 3]]],
        "skill",
    )


def test_a_game_without_narration_keeps_no_events():
    state = new_game([starter_seat("A", "HSD-S1"), starter_seat("B", "HSD-S2")], seed=3)
    assert state.log is None
    narrated = new_game(
        [starter_seat("A", "HSD-S1"), starter_seat("B", "HSD-S2")], seed=3, narrate=True
    )
    assert narrated.log and narrated.log[0][0] == ev.Badge.KIND
