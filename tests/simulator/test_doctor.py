"""The deck doctor (#18): cut candidates by impact, swaps by successive halving on what-if runs,
Holm-controlled verdicts; budget, cancel, idempotency, owner scoping and bad input."""

from __future__ import annotations

import itertools
import re

import pytest

from cards.models import KickerChip, StarterDeck
from decks import engine_catalogue
from decks.services import deck_create
from tests.factories import CardFactory, CardSetFactory

WEAK = "TST-001"


def fifty_dollars() -> dict[str, int]:
    """Kicker chips worth exactly $50 (a user's deck is not sold with a starter's chips)."""
    chips: dict[str, int] = {}
    total = 0
    for chip in KickerChip.objects.order_by("-value", "code"):
        while total + chip.value <= 50 and chips.get(chip.code, 0) < 3:
            chips[chip.code] = chips.get(chip.code, 0) + 1
            total += chip.value
    return chips


def planted_cards() -> dict[str, int]:
    """Starter HSD-S1 with its three Henry Meeks (HSD-012) replaced by three copies of a
    planted dude that costs $10 and has no smarts, skill or luck at all."""
    weak = CardFactory(
        card_set=CardSetFactory(code="TST"), number=1, name="Useless Uriah", cost=10,
        smarts=0, skill=0, luck=0, kicker_limit=0,
    )  # fmt: skip
    # The engine catalogue is cached by row counts and highest ids, which a card made in an
    # earlier test (rolled back) can repeat: build it afresh.
    engine_catalogue._cache.clear()
    cards = {e["code"]: e["qty"] for e in StarterDeck.objects.get(code="HSD-S1").cards}
    del cards["HSD-012"]
    cards[weak.code] = 3
    return cards


def planted_deck(owner, name: str = "Planted"):
    """The starter with the planted dude (planted_cards)."""
    return deck_create(owner=owner, name=name, cards=planted_cards(), kicker_chips=fifty_dollars())


SOUND = (("HSD-153", "HSD-105", 1), ("HSD-040", "HSD-105", 1), ("HSD-020", "HSD-027", 3))


def sound_planted_deck(owner, name: str = "Planted, the rest sound"):
    """The planted deck with the starter's other dead or weak cards made sound, so that the
    planted dude is clearly the worst card: its never-played Call Their Bluff (HSD-153) and
    Deputy Rose Callahan (HSD-040, one copy) become two Winchester Rifles (HSD-105), its three
    Deputy Amos Pruitts (HSD-020, $2, 1/3/2) three Commodore Perry Owens (HSD-027, $6,
    3/7/4)."""
    cards = planted_cards()
    for cut, add, qty in SOUND:
        cards[cut] -= qty
        if not cards[cut]:
            del cards[cut]
        cards[add] = cards.get(add, 0) + qty
    return deck_create(owner=owner, name=name, cards=cards, kicker_chips=fifty_dollars())


def binder(owner, codes: dict[str, int]):
    """A collection of `owner` holding {code: copies}."""
    from cards.models import Card
    from collecting.services import collection_create, entry_adjust

    collection = collection_create(owner=owner, name="Binder")
    for code, qty in codes.items():
        entry_adjust(collection=collection, card=Card.objects.get(code=code), delta=qty)
    return collection


#: The planted scenarios below were sized for the heuristic bot's games; the default bot
#: (sharp) is the subject of test_a_doctor_without_a_bot_plays_the_games_default_bot.
BOT = "heuristic"
GAUNTLET = [{"starter": "HSD-S2", "bot": BOT}]


def doctor_body(deck, **extra) -> dict:
    return {"deck": deck.pk, "gauntlet": GAUNTLET, "budget": 1000, "seed": 3, "bot": BOT, **extra}


def play(doctor):
    from simulator.doctor.services import doctor_execute_locally

    return doctor_execute_locally(doctor=doctor)


def test_post_answers_202_with_location_and_round_zero(user_client, user, catalogue):
    from simulator.models import DoctorRun

    deck = planted_deck(user)
    response = user_client.post("/api/v1/doctor/", doctor_body(deck), format="json")
    assert response.status_code == 202, response.json()
    body = response.json()
    assert response["Location"].endswith(f"/api/v1/doctor/{body['id']}/")
    assert body["status"] == "queued" and body["round"] == 0 and body["games_spent"] == 0
    doctor = DoctorRun.objects.get(pk=body["id"])
    (stage,) = doctor.stages.all()
    assert stage.run.kind == "gauntlet" and stage.run.owner == user
    # Round 0 gets a fifth of the budget: 200 games against the one opponent.
    assert stage.run.total_games == 200
    poll = user_client.get(body["url"])
    assert poll.status_code == 200 and poll.json()["stage_runs"] == [stage.run_id]
    # the list of my runs leaves the round out, and says what it is part of when asked
    mine = user_client.get("/api/v1/simulations/").json()["results"]
    assert stage.run_id not in {run["id"] for run in mine}
    user_client.force_login(user)
    page = user_client.get("/simulations/?stages=1").content.decode()
    assert f"Round 1 of the deck doctor of {deck.name}" in page
    assert f'href="/simulations/doctor/{doctor.pk}/"' in page


def test_a_deck_with_no_better_swap_gets_no_significant_improvement(user, catalogue):
    """The collection offers only the planted dude (cost $10, no stats) to add to the starter
    deck: every swap adds a card that cannot help, so no swap may be called better. A false
    "better" has a chance of at most 5%: the one-sided tests at every look, Holm over the
    family at the look's share of 5%, the shares summing to 1 (union bound over the looks);
    the seed fixes the outcome."""
    from simulator.doctor.services import doctor_create

    planted_deck(user, name="Only the weak card")  # creates the planted dude
    cards = {e["code"]: e["qty"] for e in StarterDeck.objects.get(code="HSD-S1").cards}
    deck = deck_create(owner=user, name="Starter", cards=cards, kicker_chips=fifty_dollars())
    binder(user, {WEAK: 3})
    doctor, created = doctor_create(
        owner=user,
        deck_id=deck.pk,
        gauntlet=GAUNTLET,
        bot=BOT,
        source="collection",
        budget=4000,
        seed=5,
    )
    doctor = play(doctor)
    assert created and doctor.status == "done", doctor.error
    assert doctor.result["improved"] is False
    swaps = doctor.result["swaps"]
    assert swaps and all(s["add"] == WEAK and not s["significant"] for s in swaps)
    assert doctor.result["method"].startswith("Holm")
    assert doctor.games_spent <= doctor.budget


def test_budget_is_respected_and_every_game_is_counted(user, catalogue):
    from simulator.doctor.services import doctor_create
    from simulator.models import SimulationRun

    deck = planted_deck(user)
    doctor, _ = doctor_create(
        owner=user, deck_id=deck.pk, gauntlet=GAUNTLET, bot=BOT, budget=1500, seed=2, chain=False
    )
    doctor = play(doctor)
    assert doctor.status == "done", doctor.error
    runs = SimulationRun.objects.filter(doctor__doctor=doctor)
    assert doctor.games_spent == sum(r.games_done for r in runs)
    assert doctor.games_spent <= doctor.budget
    assert doctor.result["games_spent"] == doctor.games_spent
    assert doctor.result["budget_left"] == doctor.budget - doctor.games_spent
    assert doctor.state["looks"] >= 2 and doctor.round >= 2  # halving happened
    assert all(r.status == "done" for r in runs)
    # Each round plays at most half the swaps of the one before, with more games each.
    per_round = [len(h) for h in doctor.state["history"]]
    assert all(b == -(-a // 2) for a, b in itertools.pairwise(per_round))
    games = [doctor.state["games"][str(r)] for r in range(1, doctor.round + 1)]
    assert games == sorted(games) and games[-1] > games[0]
    # A swap's evidence is every round it played: its games add up over its runs.
    for swap in doctor.result["swaps"]:
        played = SimulationRun.objects.filter(pk__in=swap["runs"])
        assert swap["games"] == sum(r.games_done for r in played)
        assert swap["run"] == swap["runs"][-1] and swap["looks"] == len(swap["runs"])


def test_the_looks_share_five_percent_and_a_proven_swap_stops_the_search(user, catalogue):
    """The levels of the looks are fixed before round 1 and sum to 1 (union bound: 5% in all);
    a search that proves a swap before its last look stops there and reports the budget it
    did not spend, and a swap called better was proven at some look: its adjusted p is the
    smallest over the looks of Holm's adjusted p divided by the look's share."""
    import math

    from simulator.doctor.services import doctor_create, look_levels, one_sided_p

    for looks in range(1, 6):
        levels = look_levels(looks)
        assert len(levels) == looks and math.isclose(sum(levels), 1.0)
        assert levels == sorted(levels)
    assert one_sided_p({"t": 0.0}) == 0.5 and one_sided_p({"t": None}) == 1.0
    assert math.isclose(one_sided_p({"t": 1.6448536}), 0.05, rel_tol=1e-6)
    deck = planted_deck(user)
    binder(user, {"HSD-012": 3})
    doctor, _ = doctor_create(
        owner=user, deck_id=deck.pk, gauntlet=GAUNTLET, bot=BOT, source="collection", budget=6000,
        seed=4, chain=False,
    )  # fmt: skip
    doctor = play(doctor)
    assert doctor.status == "done", doctor.error
    result = doctor.result
    # Seed 4 proves a swap at look 1 of 2 (deterministic for this seed).
    assert result["improved"] and result["stopped_early"] is True
    assert result["looked"] == 1 < result["looks"] == doctor.state["looks"] == 2
    assert doctor.round == 1 and not doctor.stages.filter(round=2).exists()
    assert result["budget_left"] == 6000 - doctor.games_spent == 2400
    assert "5%" in result["method"] and "look" in result["method"]
    best = result["swaps"][0]
    assert best["significant"] and best["p_adjusted"] < 0.05 and best["change"] > 0


def test_the_same_seed_gives_the_same_search_and_verdict(user, catalogue):
    from simulator.doctor.services import doctor_create

    deck = planted_deck(user)
    first, _ = doctor_create(
        owner=user, deck_id=deck.pk, gauntlet=GAUNTLET, bot=BOT, budget=1000, seed=9
    )
    again, _ = doctor_create(
        owner=user, deck_id=deck.pk, gauntlet=GAUNTLET, bot=BOT, budget=1000, seed=9
    )
    first, again = play(first), play(again)
    strip = lambda r: [{k: v for k, v in s.items() if k not in ("run", "runs")} for s in r["swaps"]]  # noqa: E731
    assert first.state["cuts"] == again.state["cuts"]
    assert strip(first.result) == strip(again.result)
    assert first.games_spent == again.games_spent


def test_cancel_stops_the_search_and_its_runs(user_client, user, catalogue):
    from simulator.doctor.services import doctor_advance
    from simulator.models import DoctorRun

    deck = planted_deck(user)
    body = user_client.post("/api/v1/doctor/", doctor_body(deck), format="json").json()
    cancelled = user_client.post(f"/api/v1/doctor/{body['id']}/cancel/")
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    doctor = DoctorRun.objects.get(pk=body["id"])
    assert [s.run.status for s in doctor.stages.all()] == ["cancelled"]
    assert doctor_advance(doctor_id=doctor.pk) == 0
    again = user_client.post(f"/api/v1/doctor/{body['id']}/cancel/")
    assert again.status_code == 200 and again.json()["status"] == "cancelled"


def test_the_reconciler_tick_advances_a_doctor_whose_hook_was_lost(user, catalogue):
    """A worker killed after the stage's last chunk committed never runs the hook: the
    workers' reconciler tick advances the doctor all the same, and only once."""
    from simulator.doctor.services import doctor_create
    from simulator.runs.services import run_execute_locally, runs_reconcile_due

    deck = planted_deck(user)
    doctor, _ = doctor_create(
        owner=user, deck_id=deck.pk, gauntlet=GAUNTLET, bot=BOT, budget=1000, seed=4
    )
    run_execute_locally(run=doctor.stages.get().run)  # on_commit hooks do not fire in a test
    doctor.refresh_from_db()
    assert doctor.round == 0
    assert runs_reconcile_due()["doctors"] == 1
    doctor.refresh_from_db()
    assert doctor.round == 1 and doctor.stages.filter(round=1).count() == len(doctor.state["alive"])
    assert runs_reconcile_due()["doctors"] == 0  # round 1's runs are still to play


def test_a_doctor_without_a_bot_plays_the_games_default_bot(user_client, user, catalogue):
    """No bot named, for the deck or an opponent: the sharp bot (issue #25 §3) plays both."""
    from simulator.models import DoctorRun

    deck = planted_deck(user)
    body = {"deck": deck.pk, "gauntlet": [{"starter": "HSD-S2"}], "budget": 1000, "seed": 3}
    response = user_client.post("/api/v1/doctor/", body, format="json")
    assert response.status_code == 202, response.json()
    doctor = DoctorRun.objects.get()
    assert response.json()["bot"] == doctor.bot == "sharp"
    players = doctor.stages.get().run.plan["players"]
    assert [p["bot"] for p in players] == ["sharp", "sharp"]


def test_idempotency_key_returns_the_same_doctor_run(user_client, user, catalogue):
    from simulator.models import DoctorRun, SimulationRun

    deck = planted_deck(user)
    headers = {"HTTP_IDEMPOTENCY_KEY": "doc-1"}
    one = user_client.post("/api/v1/doctor/", doctor_body(deck), format="json", **headers)
    two = user_client.post(
        "/api/v1/doctor/", doctor_body(deck, budget=5000), format="json", **headers
    )
    assert one.status_code == two.status_code == 202
    assert one.json()["id"] == two.json()["id"] and two.json()["budget"] == 1000
    assert DoctorRun.objects.count() == 1 and SimulationRun.objects.count() == 1


def test_another_users_doctor_run_and_deck_are_unknown(user_client, user, other_user, catalogue):
    from simulator.doctor.services import doctor_create
    from simulator.models import DoctorRun

    theirs = planted_deck(other_user)
    doctor, _ = doctor_create(
        owner=other_user, deck_id=theirs.pk, gauntlet=GAUNTLET, bot=BOT, budget=1000
    )
    for method, path in [
        ("get", f"/api/v1/doctor/{doctor.pk}/"),
        ("post", f"/api/v1/doctor/{doctor.pk}/cancel/"),
        ("post", f"/api/v1/doctor/{doctor.pk}/apply/"),
    ]:
        answer = getattr(user_client, method)(path, {"swap": 0}, format="json")
        assert answer.status_code == 404, path
    assert user_client.get("/api/v1/doctor/").json()["results"] == []
    refused = user_client.post("/api/v1/doctor/", doctor_body(theirs), format="json")
    assert refused.status_code == 400
    assert refused.json()["errors"] == [
        {"code": "not_found", "detail": "No such deck of yours.", "attr": "deck"}
    ]
    assert DoctorRun.objects.count() == 1
    doctor.refresh_from_db()
    assert doctor.status == "queued"


def test_bad_input_is_a_400_in_the_one_error_shape_and_writes_nothing(user_client, user, catalogue):
    from simulator.models import DoctorRun, SimulationRun

    deck = planted_deck(user)
    bad = [
        (doctor_body(deck, budget=10), "budget"),
        (doctor_body(deck, source="attic"), "source"),
        (doctor_body(deck, source="pool"), "source"),  # the deck has no Stud or Draw pool
        (doctor_body(deck, gauntlet=[]), "gauntlet"),
        (doctor_body(deck, gauntlet=[{"starter": "NOPE"}]), "gauntlet.0"),
        (doctor_body(deck, gauntlet=[{"starter": "HSD-S2", "bot": "psychic"}]), "gauntlet.0.bot"),
        (doctor_body(deck, format="jousting"), None),
        (doctor_body(deck, chain="maybe"), "chain"),
        (doctor_body(deck, bot="search", bot_budget=401), "bot_budget"),  # past its maximum
        (doctor_body(deck, bot_budget=40), "bot_budget"),  # the heuristic takes no budget
        (
            doctor_body(deck, gauntlet=[{"starter": "HSD-S2", "bot": "search", "budget": 999}]),
            "gauntlet.0.budget",
        ),
        (
            doctor_body(deck, gauntlet=[{"starter": "HSD-S2", "bot": "random", "budget": 5}]),
            "gauntlet.0.budget",
        ),
        ({"gauntlet": GAUNTLET, "budget": 1000}, "deck"),
        ({**doctor_body(deck), "deck": "twelve"}, "deck"),
    ]
    for body, attr in bad:
        response = user_client.post("/api/v1/doctor/", body, format="json")
        assert response.status_code == 400, (body, response.json())
        errors = response.json()["errors"]
        assert all(set(e) >= {"code", "detail", "attr"} for e in errors)
        if attr is not None:
            assert attr in [e["attr"] for e in errors], (body, errors)
    assert DoctorRun.objects.count() == 0 and SimulationRun.objects.count() == 0


def test_bots_budgets_reach_every_stage_run_of_the_doctor(user_client, user, catalogue):
    """#25 §2: the deck's bot and each opponent's take a budget; the stage runs play with them
    and the doctor says so."""
    from simulator.models import DoctorRun

    deck = planted_deck(user)
    body = doctor_body(deck, bot="search", bot_budget=40,
                       gauntlet=[{"starter": "HSD-S2", "bot": "ismcts", "budget": 30}])  # fmt: skip
    response = user_client.post("/api/v1/doctor/", body, format="json")
    assert response.status_code == 202, response.json()
    assert response.json()["bot_budget"] == 40
    assert response.json()["measured_with"] == [
        {"bot": "search", "budget": 40}, {"bot": "ismcts", "budget": 30}
    ]  # fmt: skip
    players = DoctorRun.objects.get().stages.get().run.plan["players"]
    assert [(p["bot"], p.get("budget")) for p in players] == [("search", 40), ("ismcts", 30)]


def test_the_doctors_form_takes_a_budget_for_each_bot(client, user, catalogue):
    from simulator.models import DoctorRun

    client.force_login(user)
    deck = planted_deck(user)
    url = f"/simulations/doctor/deck/{deck.pk}/"
    form = client.get(url).content.decode()
    assert 'name="bot_budget"' in form and 'name="budget_0"' in form and 'id="budget-note"' in form
    data = {"format": "standard", "opponent_0": "starter:HSD-S2", "bot_0": "search",
            "budget_0": "12", "bot": "search", "bot_budget": "401", "source": "format",
            "budget": "2000"}  # fmt: skip
    refused = client.post(url, data)  # past the search bot's 400 rollouts
    assert refused.status_code == 400 and DoctorRun.objects.count() == 0
    assert "Your deck&#x27;s bot:</strong> The search bot&#x27;s budget" in refused.content.decode()
    assert 'value="401"' in refused.content.decode()  # kept as typed
    # a budget beside a bot that takes none (the heuristic) is not used
    started = client.post(url, {**data, "bot": "heuristic", "bot_budget": "7"})
    assert started.status_code == 302
    doctor = DoctorRun.objects.get()
    assert doctor.bot_budget is None and doctor.gauntlet == [
        {"starter": "HSD-S2", "bot": "search", "budget": 12}
    ]  # fmt: skip


def test_a_doctor_run_is_capped_like_simulation_runs(user, catalogue, settings):
    import pytest

    from config.api import DomainError
    from simulator.doctor.services import doctor_create

    settings.SIMULATION_MAX_ACTIVE_RUNS = 1
    deck = planted_deck(user)
    doctor_create(owner=user, deck_id=deck.pk, gauntlet=GAUNTLET, bot=BOT, budget=1000)
    with pytest.raises(DomainError) as refused:
        doctor_create(owner=user, deck_id=deck.pk, gauntlet=GAUNTLET, bot=BOT, budget=1000)
    assert refused.value.code == "too_many_runs"


def test_the_cut_candidates_are_the_cards_near_the_worst():
    """Never-played cards always; then the worst played card and those whose impact is
    within 1.96 standard errors of the difference from it, four at most."""
    from simulator.doctor.services import cut_candidates

    def card(code, impact, se=0.02):
        return {"code": code, "impact": impact, "se": se, "played": 0 if impact is None else 9}

    clear = [card("A", -0.22), card("B", -0.09), card("C", -0.07), card("D", 0.0)]
    assert [c["code"] for c in cut_candidates(clear)] == ["A"]
    close = [card("A", -0.12), card("B", -0.10), card("C", -0.09), card("D", -0.08),
             card("E", -0.07)]  # fmt: skip
    assert [c["code"] for c in cut_candidates(close)] == ["A", "B", "C", "D"]
    # B: 0.05 apart with a standard error of the difference of 0.028: within 1.96 of them.
    assert [c["code"] for c in cut_candidates([card("A", -0.15), card("B", -0.10),
                                               card("C", -0.02)])] == ["A", "B"]  # fmt: skip
    never = [card("N", None), card("A", -0.22), card("B", -0.09)]
    assert [c["code"] for c in cut_candidates(never)] == ["N", "A"]


def test_a_planted_weak_card_is_cut_by_the_top_suggestion_then_applied(
    user_client, user, catalogue
):
    """Three copies of Useless Uriah ($10, no smarts, skill or luck) replace the starter's
    three Henry Meeks (HSD-012), the starter's other dead or weak cards made sound
    (sound_planted_deck); the collection holds three Meeks to add; 12,000 games against
    HSD-S2. The top suggestion must cut Uriah, be significant and apply as a new version.

    Failure probability, normal approximation (measured on this deck, 2026-11-24):

    * Round 0 (2,400 games). Impacts, means of 6 runs: Uriah -0.218, the next worst
      Jeff Milton -0.091, Otis Crump -0.078, Bill Tilghman -0.069, Marshal Eli Stroud
      -0.060; standard errors 0.022 and 0.020-0.021, of a difference 0.030. A card is a cut
      candidate beside Uriah when within 1.96 x 0.030 = 0.060 of it: Milton
      Phi((0.060 - 0.127) / 0.030) = Phi(-2.23) = 1.3%, Otis Phi(-2.67) = 0.4%, Tilghman 0.15%,
      Stroud 0.05%. Uriah measuring above one of them: Phi(-4.2), about 1e-5.
    * Then a rival must beat Uriah's swap. True changes for a Meek (6,000 paired games each,
      standard error 0.004): Uriah +3.2 points, Milton +1.4, Otis +1.7, Tilghman +1.7, Stroud
      +2.0. With two swaps each gets 2,400 paired games; the difference of two swaps' means
      has a standard error of at most 0.42 / sqrt(2400) = 0.0086 (per-game standard
      deviation 0.30 each, taken as independent): Milton wins with Phi(-2.1) = 1.8%, Otis and
      Tilghman Phi(-1.74) = 4.1%, Stroud Phi(-1.4) = 8.1%. Together
      1.3% x 1.8% + 0.4% x 4.1% + 0.15% x 4.1% + 0.05% x 8.1% = 0.05%.
    * Uriah's swap not proven: +3.2 points over 4,800 paired games (alone) has
      z = 0.032 / (0.31 / sqrt(4800)) = 7.2 against 1.64 (2.0 with a rival): about 1e-8.

    In all: about 0.05%, under 0.1%. Checked over seeds 0-9: the top suggestion cut Uriah
    and was significant for 10 of 10, Uriah the only cut candidate in all 10. The seed fixes
    the outcome: for seed 0 it holds (Uriah alone a candidate, +2.5 points).
    """
    from simulator.doctor.services import doctor_create

    deck = sound_planted_deck(user)
    binder(user, {"HSD-012": 3})
    doctor, _ = doctor_create(
        owner=user,
        deck_id=deck.pk,
        gauntlet=GAUNTLET,
        bot=BOT,
        source="collection",
        budget=12000,
        seed=0,
    )
    doctor = play(doctor)
    assert doctor.status == "done", doctor.error
    assert [c["code"] for c in doctor.state["cuts"]] == [WEAK]
    assert doctor.games_spent <= 12000
    assert doctor.result["improved"] is True
    best = doctor.result["swaps"][0]
    assert (best["cut"], best["add"], best["significant"]) == (WEAK, "HSD-012", True)
    assert best["low"] <= best["change"] <= best["high"] and best["p_adjusted"] < 0.05
    # The evidence: the swap's last what-if run, the owner's to open.
    evidence = user_client.get(f"/api/v1/simulations/{best['run']}/results/")
    assert evidence.status_code == 200 and evidence.json()["what_if"]
    # One click away: the swap made and saved as a new version with a note.
    applied = user_client.post(f"/api/v1/doctor/{doctor.pk}/apply/", {"swap": 0}, format="json")
    assert applied.status_code == 201, applied.json()
    assert applied.json()["note"] == f"Deck doctor: \u22121 Useless Uriah, +1 {best['add_name']}"
    from decks.selectors import deck_contents

    cards, _ = deck_contents(deck)
    assert cards[WEAK] == 2 and cards[best["add"]] == 1
    missing = user_client.post(f"/api/v1/doctor/{doctor.pk}/apply/", {"swap": 7}, format="json")
    assert missing.status_code == 400 and missing.json()["errors"][0]["attr"] == "swap"


def test_a_chained_search_makes_the_best_swap_and_searches_again(user_client, user, catalogue):
    """Step 1 proves a swap at its first look (seed 4, as in the test above) and leaves 2,400
    games of 6,000: the search makes the swap on a working deck (the players' remove/add, no
    deck row written) and searches again, a new round 0 on the changed deck and its rounds.
    Apply makes the chain's first swaps as one new version named by every swap."""
    from decks.models import Deck, DeckVersion
    from decks.selectors import deck_contents
    from simulator.doctor.services import chain_swaps, doctor_create
    from simulator.models import SimulationRun

    deck = planted_deck(user)
    binder(user, {"HSD-012": 3})
    decks, versions = Deck.objects.count(), DeckVersion.objects.count()
    doctor, _ = doctor_create(
        owner=user,
        deck_id=deck.pk,
        gauntlet=GAUNTLET,
        bot=BOT,
        source="collection",
        budget=6000,
        seed=4,
    )
    assert doctor.chain is True  # the default
    doctor = play(doctor)
    assert doctor.status == "done", doctor.error
    assert (Deck.objects.count(), DeckVersion.objects.count()) == (decks, versions)
    result = doctor.result
    steps = result["steps"]
    assert len(steps) == 2 and [s["step"] for s in steps] == [1, 2]
    first = steps[0]
    assert first["improved"] and first["stopped_early"] and first["games"] == 3600
    assert result["swaps"] == first["swaps"] and result["method"] == first["method"]
    assert sum(s["games"] for s in steps) == doctor.games_spent <= 6000
    assert doctor.games_spent == sum(
        r.games_done for r in SimulationRun.objects.filter(doctor__doctor=doctor)
    )
    best = first["swaps"][0]
    # Step 2's round 0: a gauntlet of the deck with step 1's swap made, by remove/add.
    round0 = doctor.stages.get(round=2).run
    assert round0.kind == "gauntlet"
    player = round0.plan["players"][0]
    assert player["change"] == {"remove": {best["cut"]: 1}, "add": {best["add"]: 1}}
    assert player["label"] == "Planted after 1 swap"
    # Its what-if runs compare that deck with a further swap: both carry step 1's swap.
    for stage in doctor.stages.filter(round__gt=2):
        base, changed = (p["change"] for p in stage.run.plan["players"][:2])
        assert base == {"remove": {best["cut"]: 1}, "add": {best["add"]: 1}}
        swap = stage.swap
        assert changed["add"].get(swap["add"], 0) >= 1
    chain = chain_swaps(doctor)
    assert chain[0] == best and len(chain) == sum(1 for s in steps if s["improved"])
    # Bad apply bodies: a 400 in the one error shape, nothing written.
    for body in ({"steps": 9}, {"swap": 0, "steps": 1}, {}, {"steps": "all"}):
        refused = user_client.post(f"/api/v1/doctor/{doctor.pk}/apply/", body, format="json")
        assert refused.status_code == 400, (body, refused.json())
        assert all(set(e) >= {"code", "detail", "attr"} for e in refused.json()["errors"])
    assert DeckVersion.objects.count() == versions
    applied = user_client.post(
        f"/api/v1/doctor/{doctor.pk}/apply/", {"steps": len(chain)}, format="json"
    )
    assert applied.status_code == 201, applied.json()
    named = "; ".join(f"\u22121 {s['cut_name']}, +1 {s['add_name']}" for s in chain)
    assert applied.json()["note"] == f"Deck doctor: {named}"
    cards, _ = deck_contents(deck)
    for swap in chain:
        assert cards.get(swap["add"], 0) >= 1
    poll = user_client.get(f"/api/v1/doctor/{doctor.pk}/").json()
    assert poll["chain"] is True and len(poll["result"]["steps"]) == 2
    # The page: the steps in order, each with its evidence, the rule for several steps.
    from django.test import Client

    browser = Client()
    browser.force_login(user)
    page = browser.get(f"/simulations/doctor/{doctor.pk}/").content.decode()
    assert page.index("Step 1: your deck as it is") < page.index(
        "Step 2: your deck with the better swap above made"
    )
    assert "Each step is its own test at 5%" in page and "went on to the next swap" in page
    for step in steps:
        assert f'href="/simulations/{step["swaps"][0]["run"]}/"' in page


def test_the_pages_start_show_and_apply_a_search(client, user, other_user, catalogue):
    """The form on a deck starts a search; its page shows progress, then the verdict in
    words with Holm named, each swap linked to its evidence; another user's page is a 404."""
    from simulator.models import DoctorRun

    client.force_login(user)
    deck = planted_deck(user)
    form = client.get(f"/simulations/doctor/deck/{deck.pk}/")
    assert form.status_code == 200 and "Start the deck doctor" in form.content.decode()
    refused = client.post(
        f"/simulations/doctor/deck/{deck.pk}/",
        {"format": "standard", "opponent_0": "starter:NOPE", "source": "format", "budget": "2000"},
    )
    assert refused.status_code == 400 and "Opponent 1" in refused.content.decode()
    assert DoctorRun.objects.count() == 0
    started = client.post(
        f"/simulations/doctor/deck/{deck.pk}/",
        {"format": "standard", "opponent_0": "starter:HSD-S2", "bot_0": "heuristic",
         "source": "format", "budget": "2000", "bot": "heuristic"},
    )  # fmt: skip
    doctor = DoctorRun.objects.get()
    assert doctor.chain is False  # the box left unticked
    assert 'name="chain" id="id_chain" checked' in form.content.decode()  # ticked at first
    assert started.status_code == 302 and started["Location"] == f"/simulations/doctor/{doctor.pk}/"
    page = client.get(started["Location"]).content.decode()
    assert "finding the weakest cards" in page and 'hx-trigger="every 1s"' in page
    doctor = play(doctor)
    page = client.get(f"/simulations/doctor/{doctor.pk}/progress/").content.decode()
    assert "hx-trigger" not in page and "Holm" in page
    assert ("No significant improvement" in page) != doctor.result["improved"]
    assert f'href="/simulations/{doctor.result["swaps"][0]["run"]}/"' in page
    assert not re.search(r"deck:\d|chunk", page)
    # A swap dropped before the last look says so; no row reads "corrected: 100%".
    swaps = doctor.result["swaps"]
    dropped = [s for s in swaps if s["looks"] < doctor.result["looked"]]
    assert dropped and "corrected: 100%" not in page
    assert page.count("dropped after round") == len(dropped)
    client.force_login(other_user)
    assert client.get(f"/simulations/doctor/{doctor.pk}/").status_code == 404
    assert client.get(f"/simulations/doctor/deck/{deck.pk}/").status_code == 404


# --- a proven swap checked with stronger bots (#25 §6) -------------------------------------


@pytest.fixture
def proven(user, catalogue):
    return proven_doctor(user)


def proven_doctor(user):
    """A finished doctor run whose one proven swap (cut Useless Uriah, add a Henry Meek) stands
    on one what-if run played by heuristic bots: the stored shape of a doctor's result, its
    search skipped (the search itself is tested above)."""
    from simulator.doctor.models import DoctorRun, DoctorStage
    from simulator.runs.services import run_create, run_execute_locally

    deck = planted_deck(user)
    swap = {"cut": WEAK, "add": "HSD-012"}
    changed = {"deck": deck.pk, "bot": BOT, "remove": {WEAK: 1}, "add": {"HSD-012": 1}}
    run, _ = run_create(
        owner=user, game="drifter", kind="what_if", format=deck.format, games=100, seed=4,
        players=[{"deck": deck.pk, "bot": BOT}, changed, *GAUNTLET], count_active=False,
        dispatch=False,
    )  # fmt: skip
    run = run_execute_locally(run=run)
    row = {**swap, "cut_name": "Useless Uriah", "add_name": "Henry Meek", "change": 0.03,
           "low": 0.01, "high": 0.05, "p": 0.001, "p_adjusted": 0.002, "significant": True,
           "games": 200, "looks": 1, "runs": [run.pk], "run": run.pk}  # fmt: skip
    result = {"method": "Holm", "improved": True, "stopped_early": True, "looks": 2,
              "looked": 1, "games_spent": 200, "budget_left": 800, "swaps": [row]}  # fmt: skip
    doctor = DoctorRun.objects.create(
        owner=user, deck=deck, format=deck.format, gauntlet=GAUNTLET, source="format", bot=BOT,
        budget=1000, seed=3, status="done", round=1, games_spent=200, result=result,
    )  # fmt: skip
    DoctorStage.objects.create(doctor=doctor, run=run, round=1, swap=swap)
    return doctor


def test_a_doctor_says_what_its_swaps_were_measured_with(user_client, proven):
    body = user_client.get(f"/api/v1/doctor/{proven.pk}/").json()
    assert body["measured_with"] == [{"bot": "heuristic", "budget": None}]
    assert body["checks"] == []


def test_a_proven_swap_is_checked_by_checking_the_run_that_proved_it(user_client, proven):
    from simulator.runs.models import SimulationRun

    evidence = SimulationRun.objects.get(pk=proven.result["swaps"][0]["run"])
    response = user_client.post(f"/api/v1/doctor/{proven.pk}/check/", {}, format="json")
    assert response.status_code == 202, response.json()
    body = response.json()
    assert response["Location"].endswith(f"/api/v1/simulations/{body['id']}/")
    check = SimulationRun.objects.get(pk=body["id"])
    assert check.checks_id == evidence.pk and check.kind == "what_if"
    assert [p["bot"] for p in check.plan["players"]] == ["sharp"] * 3
    assert [p["seat"]["deck"] for p in check.plan["players"]] == [
        p["seat"]["deck"] for p in evidence.plan["players"]
    ]
    (row,) = user_client.get(f"/api/v1/doctor/{proven.pk}/").json()["checks"]
    assert (row["original"], row["run"], row["bot"]) == (evidence.pk, check.pk, "sharp")
    assert row["verdict"] == "unclear"  # still playing


def test_a_bad_doctor_check_is_refused_and_writes_nothing(
    user_client, proven, other_user, api_client
):
    from simulator.runs.models import SimulationRun

    before = SimulationRun.objects.count()
    url = f"/api/v1/doctor/{proven.pk}/check/"
    for body, attr in (({"bot": "nobody"}, "bot"), ({"swap": 1}, "swap"), ({"step": 2}, "swap")):
        response = user_client.post(url, body, format="json")
        assert response.status_code == 400, response.json()
        assert response.json()["errors"][0]["attr"] == attr
    api_client.force_authenticate(other_user)
    assert api_client.post(url, {}, format="json").status_code == 404
    proven.status = "running"
    proven.save(update_fields=["status"])
    response = user_client.post(url, {}, format="json")
    assert response.status_code == 409 and response.json()["errors"][0]["code"] == "not_finished"
    assert SimulationRun.objects.count() == before


def test_the_doctor_page_checks_a_proven_swap_and_shows_the_verdict(web, proven):
    from simulator.runs.models import SimulationRun
    from simulator.runs.services import run_execute_locally

    page = web.get(f"/simulations/doctor/{proven.pk}/").content.decode()
    assert "Measured with heuristic bots." in page
    assert 'class="doctor-check"' in page and "sharp bot in every seat" in page
    response = web.post(
        f"/simulations/doctor/{proven.pk}/check/", {"step": 1, "swap": 0, "idempotency_key": "k"}
    )
    assert response.status_code == 302
    assert response["Location"] == f"/simulations/doctor/{proven.pk}/"
    web.post(f"/simulations/doctor/{proven.pk}/check/", {"swap": 0, "idempotency_key": "k"})
    check = SimulationRun.objects.get(checks_id=proven.result["swaps"][0]["run"])  # one
    page = web.get(f"/simulations/doctor/{proven.pk}/").content.decode()
    assert f'id="check-verdict-{check.pk}"' in page and "still playing" in page
    SimulationRun.objects.filter(pk=check.pk).update(games=20)
    check.refresh_from_db()
    run_execute_locally(run=check)
    page = web.get(f"/simulations/doctor/{proven.pk}/").content.decode()
    verdict = re.search(rf'id="check-verdict-{check.pk}" data-verdict="(\w+)"', page)
    assert verdict and verdict.group(1) in ("holds", "weaker", "reverses", "unclear")
    assert "still playing" not in page
