"""The table shows each seat only what it may see, and names its buttons in the game's words.

Every game is played with random decisions; at every decision, for every seat, what the seat
may see is worked out again from the full state (its own cards, the public zones) and held
against its table view and its narration. A view that shows one card too many fails.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import Any

import pytest

from simulator.engine.drifter import new_game as drifter_new_game
from simulator.engine.drifter import starter_seat
from simulator.engine.drifter.cards import load_catalogue
from simulator.games import service_for

SNAKE = re.compile(r"[a-z]+_[a-z]+")
SEEDS = (1, 2, 3, 8)  # 8: stats told of a concealed dude
# Words the story also uses for the thing itself, not for a card (none now: Tabletown's story
# once said a gunslinger it passed over had "no TNT", naming a hidden hand; it no longer does).
COMMON_WORDS: set[str] = set()


# --- what a seat may see, from the full state (independently of the specs) -----------------


def _drifter_visible(state: Any, seat: int | None) -> tuple[Counter, set[str]]:
    """Codes (a multiset) and names `seat` may see on a High Stakes Drifter table."""
    codes: Counter = Counter()
    names: set[str] = set()

    def see(code: str, name: str) -> None:
        codes[code] += 1
        names.add(name)

    for p in range(state.n):
        for c in state.dead[p]:
            see(c.printed.code, c.printed.name)
        if seat is None or seat == p:
            for c in state.hand[p]:
                see(c.printed.code, c.printed.name)
            for k in state.chips[p]:
                codes[k.defn.code] += 1
    for card in [*state.saloon, *state.street, *state.fortunes]:
        cards = [card, *card.gear]
        for c in cards:
            if seat is None or c.revealed or c.owner == seat:
                see(c.defn.code, c.defn.name)
        for k in card.kickers:
            codes[k.defn.code] += 1
    return codes, names


def _small_visible(game: str, state: Any, seat: int | None) -> tuple[Counter, set[str]]:
    """Card ids (a multiset) and names `seat` may see in one of the small games."""
    mine = (lambda p: True) if seat is None else (lambda p: p == seat)
    ids: list[int] = []
    if game == "quickdraw":
        from simulator.engine.quickdraw.cards import CARDS

        for p in (0, 1):
            ids += state.stacks[p]
            if mine(p):
                ids += state.hands[p]
                ids += [state.selected[p]] if state.selected[p] >= 0 else []
        ids += [c for pair in state.fired for c in pair]
        return Counter(ids), {CARDS[c].name for c in ids}
    if game == "duel":
        from simulator.engine.duel.cards import CARDS

        for p in (0, 1):
            ids += state.played[p]
            if mine(p):
                ids += state.hands[p] + state.discards[p]
                ids += [state.selected[p]] if state.selected[p] >= 0 else []
            else:
                ids += [c for c in state.hands[p] if c in state.shown[p]]
        return Counter(ids), {CARDS[c].name for c in ids}
    if game == "gunfighter":
        from simulator.engine.gunfighter.cards import card_name

        ids += state.discard
        for p in (0, 1):
            if mine(p):
                ids += state.hands[p] + state.pending_discards[p]
            if state.selected[p] >= 0 and (mine(p) or state.revealed):
                ids.append(state.selected[p])
        return Counter(ids), {card_name(c) for c in ids}
    from simulator.engine.tabletown.cards import CARDS

    for p in range(state.n):
        ids += state.weapons[p] + state.loaded[p]
        if mine(p):
            ids += state.hands[p]
    # The discard pile is face up: the narration names each card as it goes there.
    return Counter(ids), {CARDS[c].name for c in ids + state.discard}


def _all_names(game: str) -> set[str]:
    if game == "drifter":
        return {c.name for c in load_catalogue().cards}
    module = {
        "quickdraw": "simulator.engine.quickdraw.cards",
        "duel": "simulator.engine.duel.cards",
        "gunfighter": "simulator.engine.gunfighter.cards",
        "tabletown": "simulator.engine.tabletown.cards",
    }[game]
    import importlib

    return {c.name for c in importlib.import_module(module).CARDS}


# --- the checks ---------------------------------------------------------------------------


def _walk(node: Any):
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from _walk(value)


def check_view(view: dict, visible: Counter) -> None:
    """No hidden entry carries a code, a name or an id; every code shown is one the seat may
    see, no more often than it may see it."""
    shown: Counter = Counter()
    for node in _walk(view):
        if node.get("hidden"):
            assert not {"code", "name", "id", "short", "text"} & node.keys(), node
        elif "code" in node:
            shown[node["code"]] += 1
    assert not shown - visible, f"the view shows what the seat may not see: {shown - visible}"
    assert "seed" not in view


def check_log(log: list[str], seen: set[str], every_name: set[str]) -> None:
    """The narration names no card the seat has not seen."""
    text = "\n".join(log)
    for name in sorted(seen, key=len, reverse=True):
        text = text.replace(name, " ")
    for name in every_name - seen:
        if name.isdigit() or (len(name) < 3 and name.isascii()) or name in COMMON_WORDS:
            continue  # a bare number, or a word the story also uses for the thing itself
        pattern = rf"(?<![\w]){re.escape(name)}(?![\w])"
        assert not re.search(pattern, text), f"the narration names {name!r}: {log}"


def _same_action_key(game: str, state: Any, action: Any) -> str:
    """An action with its card ids read as the cards they are: two copies of one card played
    the same way are the same choice."""
    data = dict(action.to_json())
    if game == "drifter":
        for key in ("card", "dude", "target"):
            if data.get(key, -1) >= 0:
                if key == "card" and data["kind"] == "play_kicker":
                    data[key] = state.kickers[data[key]].defn.code
                    continue
                card = state.cards[data[key]]
                # A card the actor cannot see is told apart by where it lies, not its name.
                known = card.revealed or card.owner == state.actor
                data[key] = card.defn.code if known else f"#{card.uid}"
    elif "card" in data and data["card"] >= 0:
        view_card = {
            "quickdraw": "simulator.games.quickdraw",
            "duel": "simulator.games.duel",
            "gunfighter": "simulator.games.gunfighter",
            "tabletown": "simulator.games.tabletown",
        }[game]
        import importlib

        entry = importlib.import_module(view_card).card(data["card"])
        data["card"] = (entry["name"], entry.get("die"))
    return repr(sorted(data.items()))


def check_labels(game: str, service: Any, state: Any) -> None:
    legal = state.legal_actions()
    labels = [service.action_label(state, a) for a in legal]
    for label in labels:
        assert label and not SNAKE.search(label), label
        assert "{" not in label and "None" not in label, label
    by_key: dict[str, set[str]] = {}
    for action, label in zip(legal, labels, strict=True):
        by_key.setdefault(_same_action_key(game, state, action), set()).add(label)
    assert all(len(v) == 1 for v in by_key.values()), by_key
    assert len(set(labels)) == len(by_key), f"two different actions share a label: {labels}"


# --- the games ------------------------------------------------------------------------------


def _new_game(game: str, seed: int) -> Any:
    if game == "drifter":
        catalogue = load_catalogue()
        seats = [
            starter_seat("Sam", "HSD-S1", catalogue=catalogue),
            starter_seat("Kate", "HSD-S2", catalogue=catalogue),
            starter_seat("Bo", "HSD-S1", catalogue=catalogue),
        ][: 2 + seed % 2]
        return drifter_new_game(seats, seed=seed, catalogue=catalogue, narrate=True)
    seats = [{"name": "Sam"}, {"name": "Kate"}] + ([{"name": "Bo"}] if game == "tabletown" else [])
    return service_for(game).spec.new_game(seats=seats, rules=None, seed=seed)


def _visible(game: str, state: Any, seat: int | None) -> tuple[Counter, set[str]]:
    if game == "drifter":
        return _drifter_visible(state, seat)
    return _small_visible(game, state, seat)


def _play_and_check(game: str, seed: int, view_of=None) -> int:
    """Play one game with random decisions, checking every seat at every decision; the number
    of decisions."""
    service = service_for(game)
    view_of = view_of or service.table_view
    state = _new_game(game, seed)
    if game != "drifter":
        state.story = []  # a live game told as it goes (as the table keeps it)
    rng = random.Random(seed)
    every_name = _all_names(game)
    n = len(state.seats)
    seen: list[set[str]] = [set() for _ in range(n)]
    decisions = 0
    while True:
        for seat in [*range(n), None]:
            visible, names = _visible(game, state, seat)
            view = view_of(state, seat)
            check_view(view, visible)
            assert len(view["seats"]) == n
            assert (view["result"] is not None) == state.is_over
            if seat is not None:
                seen[seat] |= names
                log = service.table_log(state, seat)
                check_log(log, seen[seat], every_name)
                # nor the stats of a dude it calls concealed
                assert not any(re.search(r"concealed dude(:| has) smarts", x) for x in log)
        if state.is_over:
            return decisions
        check_labels(game, service, state)
        action = rng.choice(state.legal_actions())
        for names in seen:
            names |= _shown_in_passing(game, state, action)
        state.apply(action)
        decisions += 1


def _shown_in_passing(game: str, state: Any, action: Any) -> set[str]:
    """Names every seat sees while `action` is carried out but no view shows after it: in
    Gunfighter the second card chosen turns both face up, and both go back to their hands
    when the turn has been resolved."""
    if game == "gunfighter" and action.kind == "select" and state.actor == 1:
        from simulator.engine.gunfighter.cards import card_name

        return {card_name(state.selected[0]), card_name(action.card)}
    return set()


GAMES = ("drifter", "quickdraw", "duel", "gunfighter", "tabletown")


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", SEEDS)
def test_every_seat_sees_only_what_it_may_at_every_decision(game, seed):
    assert _play_and_check(game, seed) > 5


def test_a_view_that_shows_the_other_hand_fails_the_check():
    service = service_for("quickdraw")

    def leaky(state, seat):
        view = service.table_view(state, None)  # every card face up, whoever asks
        view["seat"] = seat
        return view

    with pytest.raises(AssertionError, match="may not see"):
        _play_and_check("quickdraw", 1, view_of=leaky)


def test_a_drifter_view_naming_a_concealed_dude_fails_the_check():
    service = service_for("drifter")

    def leaky(state, seat):
        view = service.table_view(state, seat)
        for dude in [*state.saloon, *state.street]:
            if not dude.revealed and dude.owner != seat:
                view["street"].append({"code": dude.defn.code, "name": dude.defn.name})
        return view

    with pytest.raises(AssertionError, match="may not see"):
        _play_and_check("drifter", 1, view_of=leaky)


def test_a_seats_log_calls_an_opponents_concealed_dude_a_concealed_dude():
    state = _new_game("drifter", 1)
    service = service_for("drifter")
    rng = random.Random(1)
    while not any(d for d in state.saloon if not d.revealed and d.owner == 0):
        state.apply(rng.choice(state.legal_actions()))
    dude = next(d for d in state.saloon if not d.revealed and d.owner == 0)
    mine, theirs, narrator = (service.table_log(state, s) for s in (0, 1, None))
    assert any(dude.defn.name in line for line in mine)
    assert any(dude.defn.name in line for line in narrator)
    assert not any(dude.defn.name in line for line in theirs)
    assert any("plays a dude concealed" in line for line in theirs)


def test_the_narrator_sees_every_hand():
    state = _new_game("quickdraw", 4)
    view = service_for("quickdraw").table_view(state, None)
    assert all(not c.get("hidden") for s in view["seats"] for c in s["hand"])
    mine = service_for("quickdraw").table_view(state, 0)
    assert all(c.get("hidden") for c in mine["seats"][1]["hand"])
    assert len(mine["seats"][1]["hand"]) == 6


def test_a_table_log_is_told_again_from_the_record_of_a_state_kept_without_narration():
    service = service_for("duel")
    state = service.spec.new_game(seats=[{"name": "Sam"}, {"name": "Kate"}], rules=None, seed=9)
    rng = random.Random(9)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    assert state.story is None
    log = service.table_log(state, 0)
    assert log[0] == "Round 1: 6 duels" and log[-1].endswith("wins the duel")


def test_a_drifter_log_told_after_every_decision_is_the_log_told_at_once():
    """The narration a process keeps per viewer grows by the events since; told after every
    decision, it is word for word the narration told from scratch, for every viewer; and a
    game's kept narration is never told of another game's log."""
    from simulator.games.drifter import _NARRATED

    service = service_for("drifter")
    state = _new_game("drifter", 3)
    rng = random.Random(3)
    viewers = [0, 1, 2, None]
    while not state.is_over:
        for viewer in viewers:  # told twice: the second time from what was kept
            assert service.table_log(state, viewer) == service.table_log(state, viewer)
        state.apply(rng.choice(state.legal_actions()))
    told = {viewer: service.table_log(state, viewer) for viewer in viewers}
    _NARRATED.kept.clear()
    assert told == {viewer: service.table_log(state, viewer) for viewer in viewers}
    other = _new_game("drifter", 5)
    other_rng = random.Random(5)
    for _ in range(8):
        other.apply(other_rng.choice(other.legal_actions()))
    mixed = service.table_log(other, 0)  # told while the first game's narration is kept
    _NARRATED.kept.clear()
    assert mixed == service.table_log(other, 0)
