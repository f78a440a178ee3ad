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
    for name in ORDER:
        path = HERE / name
        if not path.exists():
            continue
        print(f"\n=== {name}", flush=True)
        if subprocess.run([sys.executable, str(path)], cwd=HERE.parent).returncode != 0:
            failed.append(name)
    if failed:
        sys.exit(f"benchmarks that failed: {', '.join(failed)}")
