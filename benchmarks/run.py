"""`make bench`: every benchmark in this folder, one after another (each prints its ratios)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ORDER = [
    "engine.py",
    "ab.py",
    "games.py",
    "catalogue.py",
    "decks.py",
    "collections.py",
    "simulations.py",
    # issue #27's row: 10,000 games end to end against bare processes, and the overhead a chunk
    "simulations.py --games 10000",
    "recovery.py",
    "polling.py",
    "table.py",
    "doctor.py",
    "metagame.py",
    "metagame_field.py",
    "crn.py",
    "lighthouse.py",
]

if __name__ == "__main__":
    failed = []
    for entry in ORDER:
        name, *args = entry.split()
        path = HERE / name
        if not path.exists():
            continue
        print(f"\n=== {entry}", flush=True)
        if subprocess.run([sys.executable, str(path), *args], cwd=HERE.parent).returncode != 0:
            failed.append(entry)
    if failed:
        sys.exit(f"benchmarks that failed: {', '.join(failed)}")
