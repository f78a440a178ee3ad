"""The play and replay management commands (thin shells over the engine)."""

import json

import pytest
from django.core.management import CommandError, call_command

from simulator.management.commands.play import parse_deck_file

DECK = """# a small deck
3 Henry Meek [HSD-012]
2 Plains Saddle [HSD-102]

Kicker chips:
1 [HSD-K10]
"""


def test_deck_file_format():
    cards, chips = parse_deck_file(DECK)
    assert cards == ("HSD-012",) * 3 + ("HSD-102",) * 2 and chips == ("HSD-K10",)
    with pytest.raises(CommandError, match="line 2"):
        parse_deck_file("# x\nthree Henry\n")


def test_play_prints_a_narrated_game_and_writes_a_record_that_replays(tmp_path, capsys):
    deck = tmp_path / "deck.txt"
    deck.write_text("9 Henry Meek [HSD-012]\n9 Plains Saddle [HSD-102]\n" + DECK)
    record = tmp_path / "game.json"
    call_command(
        "play",
        "--players",
        "3",
        "--deck",
        "HSD-S1",
        "--deck",
        str(deck),
        "--variant",
        "tombstone",
        "--seed",
        "4",
        "--bots",
        "heuristic,random",
        "--record",
        str(record),
    )
    out = capsys.readouterr().out
    assert "goes first and takes the badge." in out and "The game ends" in out
    call_command("replay", str(record))
    assert "Verified" in capsys.readouterr().out


def test_quick_start_game(capsys):
    call_command("play", "--quick-start", "--seed", "2")
    assert "quick-start" in capsys.readouterr().out


def test_replay_of_a_tampered_record_fails_clearly(tmp_path):
    record = tmp_path / "game.json"
    call_command("play", "--seed", "5", "--record", str(record))
    data = json.loads(record.read_text())
    data["events"][-1][2] = {"kind": "end_turn"}
    record.write_text(json.dumps(data))
    with pytest.raises(CommandError, match="checksum"):
        call_command("replay", str(record))
    record.write_text("{not json")
    with pytest.raises(CommandError, match="not JSON"):
        call_command("replay", str(record))


def test_bad_options_fail_clearly():
    with pytest.raises(CommandError, match="unknown variant"):
        call_command("play", "--variant", "gunslinger")
    with pytest.raises(CommandError, match="unknown bot"):
        call_command("play", "--bots", "genius")
    with pytest.raises(CommandError, match="neither a deck file nor a starter"):
        call_command("play", "--deck", "NOPE-S9")
