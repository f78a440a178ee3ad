"""`manage.py play` and `manage.py replay` for every registered game (High Stakes Drifter's own
deck, variant and narration tests are in tests/simulator/engine/drifter/test_commands.py)."""

import hashlib
import io
import json

import pytest
from django.core.management import CommandError, call_command

from simulator.engine.core.record import canonical_json
from simulator.engine.core.registry import get_game
from simulator.management.commands.play import parse_rules

SMALL_GAMES = ["gunfighter", "duel", "quickdraw", "tabletown"]


def run(*args: str) -> list[str]:
    """The lines a command prints."""
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue().splitlines()


def play(tmp_path, game: str, *args: str) -> tuple[list[str], dict, str]:
    """Play a game with --record: (printed lines, the record, the record's path)."""
    path = tmp_path / f"{game}.json"
    lines = run("play", "--game", game, "--record", str(path), *args)
    return lines, json.loads(path.read_text(encoding="utf-8")), str(path)


def resign(record: dict) -> dict:
    """A forger's record: edited, then given a fresh checksum."""
    body = {k: v for k, v in record.items() if k != "checksum"}
    body["checksum"] = hashlib.sha256(canonical_json(body).encode()).hexdigest()
    return body


@pytest.mark.parametrize("game", SMALL_GAMES)
def test_play_records_a_narrated_game_that_replay_tells_the_same(tmp_path, game):
    lines, record, path = play(tmp_path, game, "--seed", "3", "--bots", "heuristic,random")
    *story, written = lines
    assert written == f"Record written to {path}."
    assert record["game"] == game and record["seed"] == 3
    assert [s["name"] for s in record["seats"]] == ["Sam", "Jane"]
    assert [s["bot"] for s in record["seats"]] == ["heuristic", "random"]
    assert record["final"] is not None
    # The narration is the game's own, told from the record, and it names the seats.
    assert story == get_game(game).narrate(record) and len(story) > 2
    told = "\n".join(story)
    assert "Sam" in told and "Jane" in told

    replayed = run("replay", path)
    assert replayed[:-1] == story
    assert replayed[-1] == f"Verified: the record replays to {record['final']}."


def test_play_is_deterministic_by_seed(tmp_path):
    first = run("play", "--game", "quickdraw", "--seed", "8")
    assert run("play", "--game", "quickdraw", "--seed", "8") == first
    assert run("play", "--game", "quickdraw", "--seed", "9") != first


def test_tabletown_takes_up_to_eight_seats_and_its_rule_options(tmp_path):
    lines, record, _ = play(
        tmp_path,
        "tabletown",
        "--players",
        "5",
        "--bots",
        "random",
        "--rule",
        "advanced=false",
        "--rule",
        "max_turns=300",
    )
    assert [s["name"] for s in record["seats"]] == ["Sam", "Jane", "Cal", "Dee", "Eli"]
    assert {s["bot"] for s in record["seats"]} == {"random"}
    assert record["rules"] == {"advanced": False, "max_turns": 300, "rulings": 2}
    assert record["final"]["turns"] <= 300 and len(record["final"]["alive"]) == 5
    told = "\n".join(lines)
    assert all(name in told for name in ("Sam", "Jane", "Cal", "Dee", "Eli"))
    assert "is the Marshall of Tabletown" in told


def test_gunfighter_rule_caps_the_game(tmp_path):
    _, record, path = play(tmp_path, "gunfighter", "--seed", "2", "--rule", "max_turns=1")
    assert record["rules"] == {"max_turns": 1}
    assert record["final"]["turns"] <= 1
    assert run("replay", path)[-1].startswith("Verified")


def test_rule_values_are_parsed_to_their_types():
    assert parse_rules(["max_turns=50", "advanced=false", "a=True", "first_player=null"]) == {
        "max_turns": 50,
        "advanced": False,
        "a": True,
        "first_player": None,
    }
    assert parse_rules(["name=Sam"]) == {"name": "Sam"}
    with pytest.raises(CommandError, match="key=value"):
        parse_rules(["max_turns"])
    with pytest.raises(CommandError, match="given twice"):
        parse_rules(["max_turns=3", "max_turns=4"])


@pytest.mark.parametrize("game", SMALL_GAMES)
def test_replay_refuses_a_tampered_small_game_record(tmp_path, game):
    _, record, _ = play(tmp_path, game, "--seed", "5")
    edited = json.loads(json.dumps(record))
    edited["events"][-1][2] = {"kind": "discard", "card": 0}
    (tmp_path / "edited.json").write_text(json.dumps(edited))
    with pytest.raises(CommandError, match=r"edited\.json does not replay: checksum mismatch"):
        run("replay", str(tmp_path / "edited.json"))

    # Re-signed, a changed result still does not replay to the recorded final.
    forged = dict(record, final={**record["final"], "capped": True})
    (tmp_path / "forged.json").write_text(json.dumps(resign(forged)))
    with pytest.raises(CommandError, match="final differs from the recorded one"):
        run("replay", str(tmp_path / "forged.json"))

    # Re-signed as another game: that game refuses the events.
    other = "duel" if game != "duel" else "quickdraw"
    (tmp_path / "other.json").write_text(json.dumps(resign(dict(record, game=other))))
    with pytest.raises(CommandError, match=r"other\.json does not replay"):
        run("replay", str(tmp_path / "other.json"))


def test_replay_refuses_what_is_not_a_record_of_a_known_game(tmp_path):
    _, record, _ = play(tmp_path, "duel", "--seed", "1")
    unknown = tmp_path / "poker.json"
    unknown.write_text(json.dumps(resign(dict(record, game="poker"))))
    with pytest.raises(CommandError, match="unknown game 'poker'; known: drifter, duel"):
        run("replay", str(unknown))
    nameless = tmp_path / "nameless.json"
    nameless.write_text(json.dumps(resign(dict(record, game=7))))
    with pytest.raises(CommandError, match="its game is 7, not a name"):
        run("replay", str(nameless))
    array = tmp_path / "array.json"
    array.write_text("[1, 2]")
    with pytest.raises(CommandError, match="a game record is a JSON object"):
        run("replay", str(array))
    with pytest.raises(CommandError, match="cannot read"):
        run("replay", str(tmp_path / "missing.json"))


def test_bad_game_bot_and_player_count_fail_clearly():
    with pytest.raises(
        CommandError, match="unknown game 'poker'; known: drifter, duel, gunfighter, quickdraw"
    ):
        run("play", "--game", "poker")
    with pytest.raises(CommandError, match="unknown bot 'genius'; known: random, heuristic"):
        run("play", "--game", "duel", "--bots", "heuristic,genius")
    with pytest.raises(CommandError, match="--players must be 2 for The Duel"):
        run("play", "--game", "duel", "--players", "3")
    with pytest.raises(CommandError, match=r"--players must be 2\.\.8 for Tabletown"):
        run("play", "--game", "tabletown", "--players", "9")
    with pytest.raises(CommandError, match=r"--players must be 2\.\.8 for Tabletown"):
        run("play", "--game", "tabletown", "--players", "1")


def test_bad_rule_options_fail_with_the_games_message():
    with pytest.raises(CommandError, match=r"The Duel has no rule options: \['x'\]"):
        run("play", "--game", "duel", "--rule", "x=1")
    with pytest.raises(CommandError, match="Quickdraw has no rule options"):
        run("play", "--game", "quickdraw", "--rule", "max_turns=5")
    with pytest.raises(CommandError, match="unknown gunfighter rule 'nope'"):
        run("play", "--game", "gunfighter", "--rule", "nope=3")
    with pytest.raises(CommandError, match="max_turns must be a positive integer"):
        run("play", "--game", "gunfighter", "--rule", "max_turns=0")
    with pytest.raises(CommandError, match="tabletown rule advanced must be bool"):
        run("play", "--game", "tabletown", "--rule", "advanced=maybe")
    with pytest.raises(CommandError, match="--rule takes key=value, not 'max_turns'"):
        run("play", "--game", "tabletown", "--rule", "max_turns")


@pytest.mark.parametrize(
    ("flags", "named"),
    [
        (["--deck", "HSD-S1"], "--deck is"),
        (["--variant", "tombstone"], "--variant is"),
        (["--quick-start"], "--quick-start is"),
        (["--variant", "tombstone", "--quick-start"], "--variant and --quick-start are"),
    ],
)
def test_drifter_only_options_are_refused_for_other_games(flags, named):
    with pytest.raises(CommandError, match=f"{named} for --game drifter only: Gunfighter"):
        run("play", "--game", "gunfighter", *flags)


def test_drifter_takes_rule_options_too(tmp_path):
    _, record, path = play(tmp_path, "drifter", "--seed", "3", "--rule", "max_turns=4")
    assert record["game"] == "drifter" and record["rules"]["max_turns"] == 4
    assert record["final"]["turns"] <= 4
    assert run("replay", path)[-1].startswith("Verified")
    with pytest.raises(CommandError, match="--rule variants: use --variant"):
        run("play", "--rule", "variants=tombstone")
    with pytest.raises(CommandError, match="unknown drifter rule 'nope'; known: starting_stake"):
        run("play", "--rule", "nope=1")
    with pytest.raises(CommandError, match="max_turns must be a positive whole number"):
        run("play", "--rule", "max_turns=abc")
