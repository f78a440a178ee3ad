"""The compiled engine build is used only while it matches the source, and plays the same games.

The engine's hot modules may run compiled (mypyc, `make engine`) or as pure Python; these tests
pin down when each is chosen, and that both play bit-identical games. The compiled build checks
every annotation at run time, so the games cover every variant, 2 to 8 seats, the quick-start
rules and the search bot (which clones states)."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from simulator.engine import compiled

PACKAGE = "simulator.engine.drifter"
ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def fake_build(tmp_path, monkeypatch):
    """A build folder whose manifest matches the real drifter sources, with stand-in binaries."""
    monkeypatch.setattr(compiled, "BUILD", tmp_path)
    monkeypatch.delenv("DRIFTER_PURE_ENGINE", raising=False)
    target = tmp_path.joinpath(*PACKAGE.split("."))
    target.mkdir(parents=True)
    src = ROOT.joinpath(*PACKAGE.split("."))
    sources = {}
    for m in compiled.MODULES[PACKAGE]:
        sources[m] = hashlib.sha256((src / f"{m}.py").read_bytes()).hexdigest()
        (target / f"{m}{compiled._abi()}").write_bytes(b"")
    (target / f"_native__mypyc{compiled._abi()}").write_bytes(b"")
    manifest = {"abi": compiled._abi(), "sources": sources}
    (target / compiled.MANIFEST).write_text(json.dumps(manifest))
    return target, manifest


def test_a_build_that_matches_the_source_goes_first_on_the_package_path(fake_build):
    target, _ = fake_build
    path = ["/src/simulator/engine/drifter"]
    assert compiled.use_compiled(PACKAGE, path) is True
    assert path == [str(target), "/src/simulator/engine/drifter"]
    assert compiled.active()[PACKAGE].startswith("compiled")


def test_a_changed_source_file_makes_the_build_stale(fake_build):
    target, manifest = fake_build
    manifest["sources"]["state"] = "0" * 64
    (target / compiled.MANIFEST).write_text(json.dumps(manifest))
    path = ["/src"]
    assert compiled.use_compiled(PACKAGE, path) is False
    assert path == ["/src"]
    assert compiled.check(PACKAGE) == (
        False,
        "state.py changed since the build (run `make engine`)",
    )


def test_a_missing_binary_or_another_python_means_pure_python(fake_build):
    target, manifest = fake_build
    (target / f"bots{compiled._abi()}").unlink()
    assert compiled.check(PACKAGE) == (False, f"bots{compiled._abi()} is missing from the build")
    (target / f"bots{compiled._abi()}").write_bytes(b"")
    (target / f"_native__mypyc{compiled._abi()}").unlink()
    assert compiled.check(PACKAGE) == (
        False,
        f"_native__mypyc{compiled._abi()} is missing from the build",
    )
    manifest["abi"] = ".cpython-399-other.so"
    (target / compiled.MANIFEST).write_text(json.dumps(manifest))
    ok, why = compiled.check(PACKAGE)
    assert not ok and why.startswith("built for .cpython-399-other.so")


def test_a_build_of_other_modules_is_not_used(fake_build):
    target, manifest = fake_build
    del manifest["sources"]["view"]
    (target / compiled.MANIFEST).write_text(json.dumps(manifest))
    assert compiled.check(PACKAGE) == (False, "the build compiled other modules than MODULES names")


def test_no_build_and_the_environment_switch_mean_pure_python(fake_build, monkeypatch, tmp_path):
    monkeypatch.setenv("DRIFTER_PURE_ENGINE", "1")
    assert compiled.check(PACKAGE) == (False, "DRIFTER_PURE_ENGINE is set")
    monkeypatch.delenv("DRIFTER_PURE_ENGINE")
    monkeypatch.setattr(compiled, "BUILD", tmp_path / "nothing-here")
    assert compiled.check(PACKAGE) == (False, "no compiled build (run `make engine`)")


GAMES = """
import hashlib, json
from simulator.engine.compiled import active
from simulator.engine.drifter import Rules, new_game, starter_seat
from simulator.engine.drifter.bots import HeuristicBot, RandomBot, SearchBot
from simulator.engine.drifter.variants import PLAY_VARIANTS
decks = ["HSD-S1", "HSD-S2"]
games = [(2, Rules(), (RandomBot, HeuristicBot)[seed % 2]) for seed in range(12)]
games += [(2, Rules(quick_start=True), HeuristicBot), (2, Rules(quick_start=True), RandomBot)]
for i, variant in enumerate(PLAY_VARIANTS):  # each variant, 3 to 8 seats
    kind = (RandomBot, HeuristicBot)[i % 2]
    games.append((3 + i % 6, Rules(variants=frozenset({variant})), kind))
mixed = frozenset({"tombstone", "high_low", "riding_shotgun"})
games.append((8, Rules(variants=mixed), HeuristicBot))
digest = hashlib.sha256()
for seed, (n, rules, kind) in enumerate(games):
    seats = [starter_seat(chr(65 + i), decks[i % 2]) for i in range(n)]
    state = new_game(seats, rules=rules, seed=seed)
    bots = [kind(seed * 8 + i) for i in range(n)]
    while not state.is_over:
        p = state.actor
        state.apply(bots[p].choose(state.view(p), state.legal_actions()))
    digest.update(json.dumps(state.record(), sort_keys=True).encode())
# the search bot's decisions (rollouts on clones) in the first 60 decisions of a game
state = new_game([starter_seat("A", "HSD-S1"), starter_seat("B", "HSD-S2")], seed=5)
bots = [SearchBot(1, rollouts=4), HeuristicBot(2)]
for _ in range(60):
    if state.is_over:
        break
    p = state.actor
    state.apply(bots[p].choose(state.view(p), state.legal_actions()))
digest.update(json.dumps(state.record(), sort_keys=True).encode())
builds = [active()[p].split(":")[0] for p in ("simulator.engine.drifter", "simulator.engine.core")]
print("/".join(builds), digest.hexdigest())
"""


def _games(pure: bool) -> tuple[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "DRIFTER_PURE_ENGINE"}
    if pure:
        env["DRIFTER_PURE_ENGINE"] = "1"
    out = subprocess.run(
        [sys.executable, "-c", GAMES], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    build, digest = out.stdout.strip().rsplit(" ", 1)
    return build, digest


def test_the_compiled_build_plays_bit_identical_games(monkeypatch):
    """Full games (random and heuristic bots; 2 to 8 seats; every variant; quick-start) and the
    search bot's decisions: the same records, compiled or not."""
    monkeypatch.delenv("DRIFTER_PURE_ENGINE", raising=False)
    for package in compiled.MODULES:  # Drifter's hot modules, and core's random bot
        ok, why = compiled.check(package)
        if not ok:
            pytest.skip(f"no compiled engine to compare: {package}: {why}")
    build, digest = _games(pure=False)
    pure_build, pure_digest = _games(pure=True)
    assert (build, pure_build) == ("compiled/compiled", "pure Python/pure Python")
    assert digest == pure_digest


def test_the_training_games_play_their_whole_mix():
    """The profile-guided build is steered by these games: they must run in either build."""
    from simulator.engine.training import train

    # 240 heuristic and 400 random heads-up games, 120 on random decks, scaled by a fiftieth
    assert train(0.02) == 5 + 8 + 2


@pytest.fixture
def build_steps(tmp_path, monkeypatch):
    """compiled.build with its compiles, checks and training games stood in for: which
    flags each compile got, in order."""
    calls: list[tuple[str, str]] = []
    monkeypatch.setattr(compiled, "BUILD", tmp_path / "engine")
    monkeypatch.setattr(compiled, "TEMP", tmp_path / "mypyc")
    monkeypatch.setattr(os, "chdir", lambda _: None)
    monkeypatch.setattr(compiled, "_gcc", lambda: True)
    monkeypatch.delenv(compiled.PGO_ENV, raising=False)

    def compile_(package, cflags, ldflags):
        calls.append((package, cflags[0] if cflags else "plain"))
        target = compiled.BUILD.joinpath(*package.split("."))
        target.mkdir(parents=True, exist_ok=True)
        (target / compiled.MANIFEST).write_text("{}")

    def train():
        compiled.TEMP.mkdir(parents=True, exist_ok=True)
        (compiled.TEMP / "state.gcda").write_bytes(b"counts")
        return True

    monkeypatch.setattr(compiled, "_compile", compile_)
    monkeypatch.setattr(compiled, "_train", train)
    monkeypatch.setattr(compiled, "check", lambda package: (True, "ok"))
    return calls


def _flags(calls):
    return [flag for _, flag in calls]


def test_with_gcc_the_build_is_instrumented_trained_and_built_again_from_the_counts(build_steps):
    compiled.build()
    n = len(compiled.MODULES)
    assert _flags(build_steps) == ["-fprofile-generate"] * n + ["-fprofile-use"] * n
    assert not list(compiled.TEMP.rglob("*.gcda"))  # the counts are not kept for a later build


def test_failing_training_games_or_the_switch_give_the_one_plain_build(build_steps, monkeypatch):
    n = len(compiled.MODULES)
    monkeypatch.setattr(compiled, "_train", lambda: False)
    compiled.build()
    assert _flags(build_steps) == ["-fprofile-generate"] * n + ["plain"] * n
    build_steps.clear()
    monkeypatch.setenv(compiled.PGO_ENV, "0")
    compiled.build()
    assert _flags(build_steps) == ["plain"] * n


def test_a_failed_final_compile_leaves_no_instrumented_build_in_use(build_steps, monkeypatch):
    real = compiled._compile

    def fail_on_use(package, cflags, ldflags):
        real(package, cflags, ldflags)
        if cflags and cflags[0] == "-fprofile-use":
            raise RuntimeError("the compiler broke")

    monkeypatch.setattr(compiled, "_compile", fail_on_use)
    with pytest.raises(RuntimeError, match="the compiler broke"):
        compiled.build()
    assert not list(compiled.BUILD.rglob(compiled.MANIFEST))
