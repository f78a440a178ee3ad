"""A/B: this tree's engine against a base commit's, the two alternating on the same machine.

    python benchmarks/ab.py [--base b66f227] [--rounds 5]

The base is checked out as a detached git worktree in `var/bench-base-<short sha>/` (reused
while it is at that commit), with this tree's `.venv` linked into it, and its compiled engine
built there (`python -m simulator.engine.compiled build`, a few minutes, skipped while its
`status` says compiled and current). Then `benchmarks/engine.py --quick --no-pure` runs in the
base and in this tree by turns, base first, `--rounds` times each; each run imports its own
tree's code (engine.py puts its tree first on sys.path; the first line of its output, the
engine build, names the build folder).

Prints, for the random-legal and heuristic bots' shootouts/s and full games/s: the base's
median, this tree's median, the ratio of the medians and the median of the paired ratios
(round i's current run over round i's base run). Issue #27's goal: heuristic full games/s at
1.5x b66f227's. The heuristic games/s through the service's per-game bookkeeping
(`play_chunk`) is not measured here: it needs a plan and the database catalogue, and the base
keeps `play_chunk` elsewhere (simulator.runner); benchmarks/simulations.py prints it for this
tree.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PEERS = ROOT.parent / "shared" / "peers"  # where engine.py finds pokerkit_flhe
FIGURES = (
    ("random-legal", "shootouts"),
    ("random-legal", "full games"),
    ("heuristic", "shootouts"),
    ("heuristic", "full games"),
)
GOALS = {("heuristic", "full games"): "(goal >= 1.5)"}
SECTION = re.compile(r"^Drifter, (\S+) bots:")
FIGURE = re.compile(r"^\s+(shootouts|full games)[^:]*: ([\d,.]+)/s")


def git(*args: str, cwd: Path = ROOT) -> str:
    return subprocess.run(
        ["git", *args], cwd=cwd, check=True, capture_output=True, text=True
    ).stdout.strip()


def env() -> dict[str, str]:
    """The environment of every run: never the pure engine; the peers on the path (the base's
    engine.py looks for them next to its own tree's parent, which a worktree in var/ has not)."""
    out = {k: v for k, v in os.environ.items() if k != "DRIFTER_PURE_ENGINE"}
    out["PYTHONPATH"] = os.pathsep.join(filter(None, [str(PEERS), out.get("PYTHONPATH")]))
    return out


def python(tree: Path) -> str:
    return str(tree / ".venv" / "bin" / "python")


def compiled(tree: Path) -> tuple[bool, str]:
    """(whether the tree's engine runs compiled, its `status` output)."""
    status = subprocess.run(
        [python(tree), "-m", "simulator.engine.compiled", "status"],
        cwd=tree,
        env=env(),
        capture_output=True,
        text=True,
    ).stdout.strip()
    lines = status.splitlines()
    return bool(lines) and all(": compiled" in line for line in lines), status


def base_tree(base: str) -> Path:
    """The base's worktree, created or reused, with the venv linked and the engine built."""
    sha = git("rev-parse", "--verify", f"{base}^{{commit}}")
    tree = ROOT / "var" / f"bench-base-{sha[:7]}"
    if tree.exists():
        at = git("rev-parse", "HEAD", cwd=tree)
        if at != sha:
            sys.exit(f"{tree} is at {at[:7]}, not {sha[:7]}: remove it (git worktree remove)")
        if git("status", "--porcelain", "--untracked-files=no", cwd=tree):
            print(f"warning: {tree} has local changes; the base is not exactly {sha[:7]}")
    else:
        tree.parent.mkdir(exist_ok=True)
        print(f"git worktree add --detach {tree} {sha[:7]}", flush=True)
        git("worktree", "add", "--detach", str(tree), sha)
    venv = tree / ".venv"
    if not venv.exists():
        venv.symlink_to(ROOT / ".venv")
    ok, status = compiled(tree)
    if not ok:
        print(f"building the base's compiled engine in {tree} (minutes)", flush=True)
        subprocess.run(
            [python(tree), "-m", "simulator.engine.compiled", "build"],
            cwd=tree,
            env=env(),
            check=True,
        )
        ok, status = compiled(tree)
        if not ok:
            sys.exit(f"the base's engine is not compiled after the build:\n{status}")
    return tree


def measure(tree: Path) -> tuple[str, dict[tuple[str, str], float]]:
    """One `engine.py --quick --no-pure` run in `tree`: (its engine build line, the figures)."""
    run = subprocess.run(
        [python(tree), "benchmarks/engine.py", "--quick", "--no-pure"],
        cwd=tree,
        env=env(),
        capture_output=True,
        text=True,
    )
    if run.returncode:
        sys.exit(f"engine.py failed in {tree}:\n{run.stdout}\n{run.stderr}")
    lines = run.stdout.splitlines()
    build = next((line for line in lines if line.startswith("engine build:")), "engine build: ?")
    figures: dict[tuple[str, str], float] = {}
    section = ""
    for line in lines:
        if m := SECTION.match(line):
            section = m.group(1)
        elif (m := FIGURE.match(line)) and section:
            figures[(section, m.group(1))] = float(m.group(2).replace(",", ""))
    missing = [f"{s} {f}" for s, f in FIGURES if (s, f) not in figures]
    if missing:
        sys.exit(f"engine.py in {tree} printed no {', '.join(missing)}:\n{run.stdout}")
    return build, figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="b66f227", help="the base commit (default b66f227)")
    parser.add_argument("--rounds", type=int, default=5, help="runs of each side (default 5)")
    args = parser.parse_args()

    base = base_tree(args.base)
    current_ok, current_status = compiled(ROOT)
    if not current_ok:
        print("current build: pure — run make engine first")
        print(current_status)
    head = git("rev-parse", "--short", "HEAD")
    dirty = " + uncommitted changes" if git("status", "--porcelain", "--untracked-files=no") else ""
    print(f"base: {base.name[len('bench-base-') :]} in {base.relative_to(ROOT)}")
    print(f"current: {head}{dirty} in {ROOT}")

    runs: dict[str, list[dict[tuple[str, str], float]]] = {"base": [], "current": []}
    builds: dict[str, list[str]] = {"base": [], "current": []}
    for i in range(args.rounds):
        for side, tree in (("base", base), ("current", ROOT)):
            build, figures = measure(tree)
            runs[side].append(figures)
            shown = "  ".join(f"{s} {f} {figures[(s, f)]:,.0f}/s" for s, f in FIGURES)
            print(f"round {i + 1}/{args.rounds} {side:7}  {shown}", flush=True)
            if not builds[side] or build != builds[side][-1]:
                print(f"  {build}")
            builds[side].append(build)

    print(
        f"\n{'figure (engine.py --quick --no-pure)':40} {'base median':>12} {'current median':>15}"
        f" {'ratio of medians':>17} {'median paired ratio':>20}"
    )
    for key in FIGURES:
        before = [r[key] for r in runs["base"]]
        after = [r[key] for r in runs["current"]]
        b, c = statistics.median(before), statistics.median(after)
        paired = statistics.median(a / z for a, z in zip(after, before))
        print(
            f"{key[0] + ' ' + key[1] + '/s':40} {b:12,.1f} {c:15,.1f} {c / b:16.2f}x"
            f" {paired:19.2f}x {GOALS.get(key, '')}".rstrip()
        )
    for side, lines in builds.items():
        pure = [str(i + 1) for i, line in enumerate(lines) if "compiled:" not in line]
        if pure:
            print(
                f"warning: the {side} side ran the pure engine in round(s) {', '.join(pure)}"
                " (an edit or a build under way): its medians mix builds"
            )
    print(
        "heuristic games/s through the service's per-game bookkeeping (play_chunk): not measured"
        " here (benchmarks/simulations.py, this tree only)"
    )


if __name__ == "__main__":
    main()
