"""Properties over random games and random variant mixes (hypothesis, moderate counts)."""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simulator.engine.core.chance import RecordedChance
from simulator.engine.core.errors import RulesError
from simulator.engine.drifter import Rules, Seat, new_game, replay
from simulator.engine.drifter import abilities as ab
from simulator.engine.drifter.bots import HeuristicBot, RandomBot
from simulator.engine.drifter.cards import load_catalogue
from simulator.engine.drifter.variants import PLAY_VARIANTS

from .factory import BASIC, basic, code

DECK = tuple(code(c["number"]) for c in BASIC) * 4
CHIPS = ("TST-K01", "TST-K02", "TST-K03")
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def games(draw):
    n = draw(st.integers(2, 5))
    variants = draw(st.sets(st.sampled_from(PLAY_VARIANTS), max_size=3))
    quick = draw(st.booleans()) and n == 2 and draw(st.booleans())
    try:
        rules = Rules(
            variants=frozenset() if quick else frozenset(variants),
            quick_start=quick,
            max_turns=draw(st.integers(20, 120)),
            starting_stake=draw(st.sampled_from([30, 100])),
        )
    except RulesError:
        rules = Rules(max_turns=60)
    seed = draw(st.integers(0, 10_000))
    kinds = draw(st.lists(st.sampled_from(["random", "heuristic"]), min_size=n, max_size=n))
    return n, rules, seed, kinds


@SETTINGS
@given(games())
def test_random_games_keep_every_invariant_and_end(spec):
    n, rules, seed, kinds = spec
    cat = basic()
    rng = random.Random(seed)
    decks = [tuple(rng.sample(DECK, len(DECK))) for _ in range(n)]
    g = new_game(
        [Seat(f"P{i}", decks[i], CHIPS) for i in range(n)], rules=rules, seed=seed, catalogue=cat
    )
    bots = [
        RandomBot(seed + i) if k == "random" else HeuristicBot(seed + i)
        for i, k in enumerate(kinds)
    ]
    total = g.total_chips()
    steps = 0
    while not g.is_over:
        legal = g.legal_actions()
        assert legal, f"no legal action in {g.phase}"
        p = g.to_act
        g.apply(bots[p].choose(g.view(p), legal))
        assert g.total_chips() == total  # stakes + pot + chips on cards + carried pot
        assert min(g.stake) >= 0
        g.zone_of_every_card()  # every card and kicker chip in exactly one zone
        assert g.players_left() == len(g.shootout_players())  # the count without the list
        steps += 1
        assert steps < 20_000
    final = g.final()
    assert final["turns"] <= rules.max_turns
    assert final["winners"]
    assert replay(g.record(), catalogue=cat).final() == final


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000))
def test_views_never_show_another_players_hidden_cards(seed):
    cat = basic()
    g = new_game([Seat("A", DECK, CHIPS), Seat("B", DECK, CHIPS)], seed=seed, catalogue=cat)
    bots = [RandomBot(seed), RandomBot(seed + 1)]
    for _ in range(60):
        if g.is_over:
            break
        view = g.view(0).to_dict()
        hidden = {c.uid for c in g.hand[1]} | {c.uid for c in g.deck[1]}
        for d in g.all_dudes():
            for c in [d, *d.gear]:
                if c.owner == 1 and not c.revealed:
                    hidden.add(c.uid)
        assert not hidden & {c["id"] for c in view["hand"]}
        named = {c["id"] for c in view["dudes"] if "name" in c}
        named |= {x["id"] for c in view["dudes"] for x in c["gear"] if "name" in x}
        assert not hidden & named
        assert view["hand_counts"][1] == len(g.hand[1])
        assert "kicker_chips" in view and all(
            k["id"] in {x.uid for x in g.chips[0]} for k in view["kicker_chips"]
        )
        g.apply(bots[g.to_act].choose(g.view(g.to_act), g.legal_actions()))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_games_with_random_decks_of_the_real_cards_keep_every_invariant(spec):
    n, rules, seed, kinds = spec
    cat = load_catalogue()
    rng = random.Random(seed)
    codes = [c.code for c in cat.cards]
    chips = [k.code for k in cat.chips]
    seats = [
        Seat(f"P{i}", tuple(rng.choice(codes) for _ in range(40)), tuple(rng.sample(chips, 4)))
        for i in range(n)
    ]
    g = new_game(seats, rules=rules, seed=seed)
    bots = [
        RandomBot(seed + i) if k == "random" else HeuristicBot(seed + i)
        for i, k in enumerate(kinds)
    ]
    total = g.total_chips()
    while not g.is_over:
        legal = g.legal_actions()
        assert legal
        g.apply(bots[g.to_act].choose(g.view(g.to_act), legal))
        assert g.total_chips() == total and min(g.stake) >= 0
        g.zone_of_every_card()
    assert replay(g.record()).final() == g.final()


@SETTINGS
@given(games(), st.integers(0, 200))
def test_a_clone_given_the_same_actions_plays_the_same_game(spec, cut):
    """Search bots play on clones: from any position, a clone with the same chance to come
    offers the same menus at every decision and ends with the same final facts."""
    n, rules, seed, kinds = spec
    cat = basic()
    rng = random.Random(seed)
    decks = [tuple(rng.sample(DECK, len(DECK))) for _ in range(n)]
    g = new_game(
        [Seat(f"P{i}", decks[i], CHIPS) for i in range(n)], rules=rules, seed=seed, catalogue=cat
    )
    bots = [
        RandomBot(seed + i) if k == "random" else HeuristicBot(seed + i)
        for i, k in enumerate(kinds)
    ]
    for _ in range(cut):
        if g.is_over:
            break
        g.apply(bots[g.to_act].choose(g.view(g.to_act), g.legal_actions()))
    twin = g.clone()
    twin.chance = RecordedChance(0, None)  # the same draws to come, drawn apart
    twin.chance.rng.setstate(g.chance.rng.getstate())
    while not g.is_over:
        legal = g.legal_actions()
        assert twin.legal_actions() == legal
        action = bots[g.to_act].choose(g.view(g.to_act), legal)
        g.apply(action)
        twin.apply(action)
    assert twin.is_over
    assert twin.final() == g.final()


def _fill_caches(g):
    """Read what bots read between actions, so that the caches hold an entry per dude."""
    g.legal_actions()
    for d in g.all_dudes():
        ab.dude_stats(g, d)


def _kept(g):
    """Every cache entry current in the state's generation: (dude, what, value), what being
    "stats", "effects", or view.py's what-ifs "with gear" (its stats with it and its gear
    turned up) and "alone" (with only itself turned up)."""
    gen = g.cache_gen
    kept = []
    for d in g.cards:
        for what, at, value in (
            ("stats", d.stats_at, d.stats),
            ("effects", d.fx_at, d.fx),
            ("with gear", d.whatif_at, d.whatif),
            ("alone", d.bare_at, d.bare),
        ):
            if gen >= 0 and at == gen:
                kept.append((d, what, value))
    return kept


def _fresh(g, dude, what):
    """What a cache entry stands for, worked out afresh (the caches must be off)."""
    if what == "stats":
        return ab.dude_stats(g, dude)
    if what == "effects":
        return ab.effects_on(g, dude)
    return g.view(dude.owner).true_stats(dude, with_gear=what == "with gear")


def _assert_caches_fresh(g):
    """Every stat, effect list and menu kept in a cache equals the one worked out afresh."""
    kept, gen, menu = _kept(g), g.cache_gen, g._menu
    g.cache_gen = -1  # caches off: every read below is worked out afresh
    try:
        for dude, what, cached in kept:
            assert cached == _fresh(g, dude, what), (dude, what)
        if menu is not None and not g.is_over:
            assert menu == g._build_menu()
    finally:
        g.cache_gen, g._menu = gen, menu


@SETTINGS
@given(games())
def test_after_every_action_the_kept_stats_effects_and_menus_equal_fresh_ones(spec):
    """apply keeps the cached stats and effects when the action moved no card; whatever it
    keeps must be what a fresh computation gives."""
    n, rules, seed, kinds = spec
    cat = basic()
    rng = random.Random(seed)
    decks = [tuple(rng.sample(DECK, len(DECK))) for _ in range(n)]
    g = new_game(
        [Seat(f"P{i}", decks[i], CHIPS) for i in range(n)], rules=rules, seed=seed, catalogue=cat
    )
    bots = [
        RandomBot(seed + i) if k == "random" else HeuristicBot(seed + i)
        for i, k in enumerate(kinds)
    ]
    while not g.is_over:
        _fill_caches(g)
        g.apply(bots[g.to_act].choose(g.view(g.to_act), g.legal_actions()))
        _assert_caches_fresh(g)
