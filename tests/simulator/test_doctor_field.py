"""Doctoring a deck against a field (#28): the gauntlet becomes the field's decks, every pooling
over them weighted by the shares (exact numbers on planted counts), the proofs still Holm's over
the family at the looks' levels; the API's bad inputs and the form's field."""

from __future__ import annotations

import math

import pytest

from simulator.doctor import weighting
from tests.simulator.test_doctor import BOT, binder, planted_deck


def pair(n, sum_d, sum_d2, a_only=0, b_only=0) -> dict:
    return {"n": n, "sum_d": sum_d, "sum_d2": sum_d2, "a_only": a_only, "b_only": b_only}


# --- the weighting, pure ------------------------------------------------------------------------


def test_the_weighted_paired_test_is_the_share_weighted_mean_of_the_opponents_changes():
    """Against A (share 3/4): 10 games, d summing to 3, d² to 5; against B (1/4): 20 games, d
    summing to −2, d² to 6. Means 0.3 and −0.1, sample variances 4.1/9 and 5.8/19."""
    per = [pair(10, 3, 5, 4, 1), pair(20, -2, 6, 1, 3)]
    out = weighting.weighted_paired_test(per, [0.75, 0.25])
    mean = 0.75 * 0.3 + 0.25 * -0.1
    variance = 0.75**2 * (4.1 / 9) / 10 + 0.25**2 * (5.8 / 19) / 20  # Σ w² var_i / n_i
    se = math.sqrt(variance)
    assert math.isclose(out["mean"], mean) and math.isclose(out["mean"], 0.2)
    assert math.isclose(out["se"], se) and math.isclose(variance, 0.0265789, rel_tol=1e-5)
    assert math.isclose(out["t"], mean / se) and math.isclose(out["t"], 1.226764, rel_tol=1e-6)
    assert math.isclose(out["low"], mean - 1.959963984540054 * se)
    assert math.isclose(out["high"], mean + 1.959963984540054 * se)
    assert math.isclose(out["p"], math.erfc(mean / se / math.sqrt(2)))
    assert out["n"] == 30 and out["a_only"] == 5 and out["b_only"] == 4
    # A deck nobody plays has no say, whatever its games.
    alone = weighting.weighted_paired_test([pair(10, 3, 5), pair(20, -20, 20)], [1.0, 0.0])
    assert math.isclose(alone["mean"], 0.3) and math.isclose(alone["se"], math.sqrt(4.1 / 90))
    # Fewer than two games against a deck that counts: the variance is unknown.
    assert weighting.weighted_paired_test([pair(1, 1, 1), pair(20, 1, 1)], [0.5, 0.5])["t"] is None
    assert (
        weighting.weighted_paired_test([pair(0, 0, 0), pair(20, 1, 1)], [0.5, 0.5])["mean"] is None
    )


def test_games_in_proportion_to_the_shares_make_the_weighted_mean_the_plain_one():
    """With nᵢ ∝ wᵢ each game counts alike: the weighted mean is the pooled mean."""
    per = [pair(30, 6, 10), pair(10, -1, 3)]
    out = weighting.weighted_paired_test(per, [0.75, 0.25])
    assert math.isclose(out["mean"], (6 - 1) / 40)


def test_field_games_give_each_deck_its_least_then_the_rest_by_share():
    assert weighting.field_games(400, [0.75, 0.25], 10) == [295, 105]
    assert weighting.field_games(1000, [0.5, 0.3, 0.2], 10) == [495, 301, 204]
    assert sum(weighting.field_games(1000, [0.5, 0.3, 0.2], 10)) <= 1000
    assert weighting.field_games(15, [0.9, 0.1], 10) == [10, 10]  # the least, whatever
    assert weighting.normalised([3, 1]) == [0.75, 0.25]


def test_proportional_games_have_the_lower_variance_of_the_weighted_change():
    """The docs' reason for proportional games: Σ w² s² / n against even games."""
    weights, total = [0.6, 0.3, 0.1], 900
    even = sum(w * w / (total / 3) for w in weights)
    proportional = sum(w * w / (total * w) for w in weights)
    assert proportional == pytest.approx(1 / total) and proportional < even


def test_the_weighted_cut_ranking_weighs_each_game_by_its_decks_share():
    """Card X played in 10 of 40 games against A (share ¾, 6 of them won; 20 wins in all) and
    in 5 of 20 against B (share ¼, 1 won; 8 wins in all); card Y never played."""
    opponents = [
        {"weight": 0.75, "games": 40, "wins": 20, "cards": {"X": {"played": {"n": 10, "k": 6}}}},
        {"weight": 0.25, "games": 20, "wins": 8, "cards": {"X": {"played": {"n": 5, "k": 1}}}},
    ]
    ranked = weighting.weighted_cut_ranking({"X": 2, "Y": 1}, opponents)
    assert [c["code"] for c in ranked] == ["Y", "X"]  # Y never played: worst
    assert ranked[0] == {"code": "Y", "impact": None, "se": None, "played": 0}
    x = ranked[1]
    ca, cb = 0.75 / 40, 0.25 / 20
    played = (ca * 6 + cb * 1) / (ca * 10 + cb * 5)
    rest = (ca * 14 + cb * 7) / (ca * 30 + cb * 15)
    assert math.isclose(x["impact"], played - rest)
    assert math.isclose(played, 0.5) and math.isclose(rest, 0.4666667, rel_tol=1e-6)
    n_played = (ca * 10 + cb * 5) ** 2 / (ca * ca * 10 + cb * cb * 5)
    n_rest = (ca * 30 + cb * 15) ** 2 / (ca * ca * 30 + cb * cb * 15)
    se = math.sqrt(played * (1 - played) / n_played + rest * (1 - rest) / n_rest)
    assert math.isclose(x["se"], se) and x["played"] == 15
    # One deck, weight 1: the plain per-card impact and its standard error.
    one = weighting.weighted_cut_ranking({"X": 2}, [{**opponents[0], "weight": 1}])
    assert math.isclose(one[0]["impact"], 6 / 10 - 14 / 30)
    assert math.isclose(one[0]["se"], math.sqrt(0.6 * 0.4 / 10 + (14 / 30) * (16 / 30) / 30))


def test_the_doctor_plays_a_field_of_as_many_decks_as_the_lab_allows():
    from simulator.doctor.selectors import FIELD_MAX_DECKS
    from simulator.metagame.services import MAX_DECKS

    assert FIELD_MAX_DECKS == MAX_DECKS


# --- a field doctor run, in process ---------------------------------------------------------------


def make_field(owner, entries, *, name="Saloon", fmt="", public=False, table_size=2):
    from simulator.metagame.models import Field

    return Field.objects.create(
        owner=owner,
        name=name,
        format=fmt,
        bot=BOT,
        entries=entries,
        budget=2000,
        public=public,
        table_size=table_size,
    )


def test_a_field_doctor_weighs_every_opponent_by_its_share_under_holm(user, catalogue, monkeypatch):
    """A field of HSD-S2 (3 players) and the doctored deck itself (1: the mirror), a deck of
    share 0 left out. Round 0 and every round play a run per deck, the games by share; each
    swap's change is the weighted test of its per-deck counts; Holm over the whole family at
    the look's level decides, as for a gauntlet."""
    from simulator.doctor import services
    from simulator.doctor.services import doctor_create, doctor_execute_locally, look_levels
    from simulator.models import SimulationRun

    calls: list[list[float]] = []
    holm = services.holm
    monkeypatch.setattr(services, "holm", lambda ps: calls.append(list(ps)) or holm(ps))
    deck = planted_deck(user)
    binder(user, {"HSD-012": 3})
    field = make_field(user, [{"starter": "HSD-S2", "share": 3}, {"deck": deck.pk, "share": 1},
                              {"starter": "HSD-S1", "share": 0}])  # fmt: skip
    doctor, _ = doctor_create(
        owner=user, deck_id=deck.pk, field_id=field.pk, bot=BOT, source="collection",
        budget=2000, seed=4, chain=False,
    )  # fmt: skip
    assert doctor.gauntlet == [{"starter": "HSD-S2", "bot": BOT}, {"deck": deck.pk, "bot": BOT}]
    zero = [s.run for s in doctor.stages.order_by("id")]
    assert [r.games for r in zero] == [295, 105]  # 400 games: 10 each, the rest 3 to 1
    doctor = doctor_execute_locally(doctor=doctor)
    assert doctor.status == "done", doctor.error
    result = doctor.result
    assert result["field"]["against"] == "against the field Saloon, weighted by its shares"
    assert [(o["share"], o["place"]) for o in result["field"]["opponents"]] == [
        (0.75, 1),
        (0.25, 2),
    ]
    assert "weighted by its shares" in result["method"] and result["method"].startswith("Holm")
    family = doctor.state["family"]
    assert calls and all(len(c) == len(family) for c in calls)  # Holm over the whole family
    runs = {r.pk: r for r in SimulationRun.objects.filter(doctor__doctor=doctor)}
    assert doctor.games_spent == sum(r.games_done for r in runs.values()) <= doctor.budget
    levels = look_levels(doctor.state["looks"])
    labels = [o["label"] for o in result["field"]["opponents"]]
    for swap in result["swaps"]:
        played = [runs[pk] for pk in swap["runs"]]
        assert len(played) == 2 * swap["looks"]  # a run per deck of the field a round
        assert runs[swap["run"]].plan["players"][2]["label"] == labels[0]  # the largest share
        per = [dict.fromkeys(weighting.PAIR_KEYS, 0) for _ in labels]
        for run in played:
            i = labels.index(run.plan["players"][2]["label"])
            for k in weighting.PAIR_KEYS:
                per[i][k] += run.aggregate["pairs"][0][k]
        test = weighting.weighted_paired_test(per, [0.75, 0.25])
        assert math.isclose(swap["change"], test["mean"]) and math.isclose(swap["low"], test["low"])
        assert math.isclose(swap["p"], services.one_sided_p(test))
        # Its corrected chance: the smallest over the looks of Holm's adjusted p (the family's
        # p-values, a dropped swap's 1) over the look's share of the 5%.
        index = family.index({"cut": swap["cut"], "add": swap["add"]})
        expected = min(min(1.0, holm(ps)[index] / levels[k]) for k, ps in enumerate(calls))
        assert swap["p_adjusted"] == pytest.approx(expected) and swap["p_adjusted"] >= swap["p"]
        assert swap["significant"] == (swap["p_adjusted"] < 0.05 and swap["change"] > 0)


# --- the API and the form -------------------------------------------------------------------------


def body(deck, **extra) -> dict:
    return {"deck": deck.pk, "budget": 2000, "seed": 3, "bot": BOT, **extra}


def test_the_api_doctors_a_deck_against_my_field_or_a_public_one(
    user_client, user, other_user, catalogue
):
    from simulator.models import DoctorRun

    deck = planted_deck(user)
    theirs = make_field(other_user, [{"starter": "HSD-S2", "share": 2}, {"starter": "HSD-S1",
                        "share": 1}], name="Their public field", public=True)  # fmt: skip
    response = user_client.post("/api/v1/doctor/", body(deck, field=theirs.pk), format="json")
    assert response.status_code == 202, response.json()
    got = response.json()
    assert got["field"]["name"] == "Their public field"
    assert [o["share"] for o in got["field"]["opponents"]] == pytest.approx([2 / 3, 1 / 3])
    doctor = DoctorRun.objects.get(pk=got["id"])
    assert doctor.stages.count() == 2 and len(got["stage_runs"]) == 2
    assert user_client.get(got["url"]).json()["field"]["id"] == theirs.pk


def test_bad_field_inputs_are_refused_in_the_error_shape_and_write_nothing(
    user_client, user, other_user, catalogue
):
    from simulator.models import DoctorRun, SimulationRun

    deck = planted_deck(user)
    two = [{"starter": "HSD-S2", "share": 1}, {"starter": "HSD-S1", "share": 1}]
    private = make_field(other_user, two, name="Their secret")
    other_format = make_field(user, two, fmt="deuces_wild", name="Wild")
    huge = make_field(user, [{"starter": "HSD-S2", "share": 1}] * 17, name="Crowd")
    four_seats = make_field(user, two, name="Saloon of four", table_size=4)
    mine = make_field(user, two)
    gauntlet = [{"starter": "HSD-S2", "bot": BOT}]
    bad = [
        (body(deck, field=mine.pk, gauntlet=gauntlet), "field", "invalid"),
        (body(deck), "gauntlet", "invalid"),
        (body(deck, field=private.pk), "field", "not_found"),
        (body(deck, field=999_999), "field", "not_found"),
        (body(deck, field=other_format.pk), "field", "invalid"),
        (body(deck, field=huge.pk), "field", "invalid"),
        (body(deck, field=four_seats.pk), "field", "invalid"),  # the swaps are heads-up
        (body(deck, field="seven"), "field", None),
        (body(deck, field=mine.pk, budget=100), "budget", None),
    ]
    for data, attr, code in bad:
        response = user_client.post("/api/v1/doctor/", data, format="json")
        assert 400 <= response.status_code < 500, (data, response.json())
        errors = response.json()["errors"]
        assert all(set(e) >= {"code", "detail", "attr"} for e in errors), errors
        assert attr in [e["attr"] for e in errors], (data, errors)
        if code is not None:
            assert code in [e["code"] for e in errors], (data, errors)
    refused = user_client.post("/api/v1/doctor/", body(deck, field=private.pk), format="json")
    assert refused.json()["errors"] == [
        {"code": "not_found", "detail": "No such field.", "attr": "field"}
    ]
    assert DoctorRun.objects.count() == 0 and SimulationRun.objects.count() == 0


def test_the_form_offers_my_fields_preselects_one_and_the_page_names_it(
    web, user, other_user, catalogue
):
    from simulator.models import DoctorRun

    deck = planted_deck(user)
    two = [{"starter": "HSD-S2", "share": 3}, {"starter": "HSD-S1", "share": 1}]
    mine = make_field(user, two, name="Friday night")
    public = make_field(other_user, two, name="Their public", public=True)
    make_field(other_user, two, name="Their secret")
    make_field(user, two, name="Wild one", fmt="deuces_wild")
    url = f"/simulations/doctor/deck/{deck.pk}/"
    form = web.get(url).content.decode()
    assert "Friday night" in form and "Their public" in form
    assert "Their secret" not in form and "Wild one" not in form  # private, or another format
    assert 'id="id_against_gauntlet" checked' in form
    chosen = web.get(f"{url}?field={public.pk}").content.decode()
    assert f'<option value="{public.pk}" selected>' in chosen
    assert 'id="id_against_field" checked' in chosen
    data = {"format": "standard", "against": "field", "field": str(mine.pk), "bot": BOT,
            "source": "format", "budget": "2000", "opponent_0": "starter:HSD-S2"}  # fmt: skip
    started = web.post(url, data)
    assert started.status_code == 302, started.content.decode()[:2000]
    doctor = DoctorRun.objects.get()
    assert doctor.state["field"]["name"] == "Friday night"
    page = web.get(started["Location"]).content.decode()
    assert "Against the field" in page and "weighted by its shares" in page
    assert "75%" in page and "25%" in page
    refused = web.post(url, {**data, "field": ""})
    assert refused.status_code == 400 and "Field:" in refused.content.decode()
    assert DoctorRun.objects.count() == 1
