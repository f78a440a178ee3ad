"""Compiled builds of the engine's hottest modules, used only while they match the source.

The engine is written and read as pure Python. `make engine` (part of `make install`) also
compiles the modules in `MODULES` with mypyc, unchanged, into `build/engine/`, next to a
manifest of the SHA-256 of each source file it compiled. mypyc compiles typed Python: classes
become C structs with typed fields and methods called directly, and every annotation is checked
at run time, so the modules must pass mypy (`make lint` checks them) and their annotations must
be true. A package that opts in calls
`use_compiled(__name__, __path__)` first thing in its `__init__`: when the manifest matches
the source files byte for byte, the build folder goes first on the package's `__path__`, so
its submodules load from the compiled build; otherwise (no build, a stale build, another
Python, or `DRIFTER_PURE_ENGINE=1`) the package loads its `.py` files as usual. A stale build
can therefore never run in place of edited source. Which one is in use: `active()`.

    python -m simulator.engine.compiled build   # what `make engine` runs
    python -m simulator.engine.compiled status  # pure or compiled, and why

Measured gains and the reasons for this are in docs/architecture.md.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
BUILD = ROOT / "build" / "engine"
TEMP = ROOT / "build" / "mypyc"  # generated C and object files
MANIFEST = "manifest.json"

# package -> modules compiled (the hot path of a game: card data, rules, stats, menus, steps,
# the events they note, bots, views). A compiled module's `__file__` points into build/engine:
# none of them may find files next to itself through it (cards.py finds the fixtures from ROOT).
MODULES: dict[str, tuple[str, ...]] = {
    "simulator.engine.drifter": (
        "abilities",
        "actions",
        "bots",
        "cards",
        "events",
        "pieces",
        "shootout",
        "state",
        "view",
    ),
    # every game's random bot, and the draws of every game's chance (its shuffles): compiled,
    # a random-bot shootout and a new game's shuffle run no interpreted frame
    "simulator.engine.core": ("bots", "draws"),
}


_active: dict[str, str] = {}


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _source_dir(package: str) -> Path:
    return ROOT.joinpath(*package.split("."))


def _abi() -> str:
    return sysconfig.get_config_var("EXT_SUFFIX") or ""


def check(package: str) -> tuple[bool, str]:
    """(whether the package's compiled build may be used, why or why not)."""
    if os.environ.get("DRIFTER_PURE_ENGINE"):
        return False, "DRIFTER_PURE_ENGINE is set"
    target = BUILD.joinpath(*package.split("."))
    try:
        manifest = json.loads((target / MANIFEST).read_text())
    except (OSError, ValueError):
        return False, "no compiled build (run `make engine`)"
    if manifest.get("abi") != _abi():
        return False, f"built for {manifest.get('abi')}, this Python is {_abi()}"
    src = _source_dir(package)
    for module, digest in manifest.get("sources", {}).items():
        path = src / f"{module}.py"
        if not path.exists() or _digest(path) != digest:
            return False, f"{module}.py changed since the build (run `make engine`)"
        if not (target / f"{module}{_abi()}").exists():
            return False, f"{module}{_abi()} is missing from the build"
    native = _group(package).rsplit(".", 1)[1] + "__mypyc"
    if not (target / f"{native}{_abi()}").exists():
        return False, f"{native}{_abi()} is missing from the build"
    if set(manifest.get("sources", {})) != set(MODULES.get(package, ())):
        return False, "the build compiled other modules than MODULES names"
    return True, f"compiled build in {target}"


def use_compiled(package: str, path: list[str]) -> bool:
    """Put the package's compiled build first on its `__path__` if it matches the source."""
    ok, why = check(package)
    _active[package] = ("compiled: " if ok else "pure Python: ") + why
    if ok:
        path.insert(0, str(BUILD.joinpath(*package.split("."))))
    return ok


def active() -> dict[str, str]:
    """Each opted-in package that has been imported: which build it runs and why."""
    return dict(_active)


def _group(package: str) -> str:
    """The module (in the package) of the shared library mypyc builds the modules into."""
    return f"{package}._native"


# Profile-guided optimisation (gcc): the build is compiled first with counters, plays the
# training games (simulator/engine/training.py) in a process of its own, which writes the
# counts next to the object files, and is compiled again from the same C with them. The final
# build runs the same code, faster: gcc lays the hot branches out straight and inlines the hot
# calls. `-fno-semantic-interposition` lets it inline mypyc's runtime helpers, compiled into
# the same file, into the engine's functions. Neither changes what the C computes (no fast
# math, no -march: floating point is what the pure source gives, as the tests check).
PGO_ENV = "DRIFTER_ENGINE_PGO"  # "0": one plain build (faster to make, slower to run)
FLAGS = ["-fno-semantic-interposition", "-fno-plt"]
PGO_GENERATE = (["-fprofile-generate", "-fprofile-update=single"], ["-fprofile-generate"])
PGO_USE = (
    ["-fprofile-use", "-fprofile-partial-training", "-Wno-missing-profile"],
    ["-fprofile-use"],
)


def _gcc() -> bool:
    """Whether the C compiler setuptools will use is gcc (the PGO flags are gcc's)."""
    cc = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()
    try:
        out = subprocess.run([*cc, "--version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return False
    return "Free Software Foundation" in out.stdout and "clang" not in out.stdout


def _compile(package: str, cflags: list[str], ldflags: list[str]) -> None:
    """Compile one package's MODULES into build/engine and write its manifest."""
    from mypyc.build import mypycify
    from setuptools.dist import Distribution

    src = _source_dir(package)
    modules = MODULES[package]
    digests = {m: _digest(src / f"{m}.py") for m in modules}
    paths = [str((src / f"{m}.py").relative_to(ROOT)) for m in modules]
    target = BUILD.joinpath(*package.split("."))
    shutil.rmtree(target, ignore_errors=True)  # no module of an older build may linger
    # made here: distutils remembers the folders it made in this process and would not again
    target.mkdir(parents=True, exist_ok=True)
    extensions = mypycify(paths, opt_level="3", group_name=_group(package), target_dir=str(TEMP))
    for ext in extensions:
        ext.extra_compile_args = [*(ext.extra_compile_args or []), *FLAGS, *cflags]
        ext.extra_link_args = [*(ext.extra_link_args or []), *ldflags]
    dist = Distribution(
        {
            "name": "drifter-engine-compiled",
            "ext_modules": extensions,
            "script_args": [
                "-q",
                "build_ext",
                "--build-lib",
                str(BUILD),
                "--build-temp",
                str(TEMP),
                "--parallel",
                "2",
                "--force",  # the same C with other flags: setuptools would keep the old objects
            ],
            "packages": [],
            "py_modules": [],
        }
    )
    dist.parse_command_line()
    dist.run_commands()
    (target / MANIFEST).write_text(json.dumps({"abi": _abi(), "sources": digests}, indent=1) + "\n")


def _train() -> bool:
    """Play the training games on the instrumented build, in a process of its own (the counts
    are written when it exits); whether it went through."""
    env = {k: v for k, v in os.environ.items() if k != "DRIFTER_PURE_ENGINE"}
    run = subprocess.run(
        [sys.executable, "-m", "simulator.engine.training"], cwd=ROOT, env=env, check=False
    )
    return run.returncode == 0


def _profiles() -> list[Path]:
    """The counts an instrumented build's processes wrote (next to the object files)."""
    return list(TEMP.rglob("*.gcda")) if TEMP.exists() else []


def _drop_profiles() -> None:
    for counts in _profiles():
        counts.unlink()


def build() -> None:
    """Compile `MODULES` into `build/engine/` and write the manifests (needs mypy's mypyc):
    guided by the training games' profile where the compiler is gcc, else one plain build."""
    os.chdir(ROOT)
    pgo = os.environ.get(PGO_ENV, "1") != "0" and _gcc()
    _drop_profiles()  # counts of another source would mislead the compiler
    if pgo:
        try:
            for package in MODULES:
                _compile(package, *PGO_GENERATE)
            pgo = _train() and bool(_profiles())
        except Exception as exc:  # any failure here: the plain build below is still good
            print(f"the instrumented build failed ({exc})")
            pgo = False
        if not pgo:
            print("building without a profile")
    try:
        for package in MODULES:
            _compile(package, *(PGO_USE if pgo else ([], [])))
    except BaseException:
        # never leave the instrumented build in use: it would write counts at every exit
        for package in MODULES:
            shutil.rmtree(BUILD.joinpath(*package.split(".")), ignore_errors=True)
        raise
    finally:
        _drop_profiles()
    for package in MODULES:
        ok, why = check(package)
        print(f"{package}: {why}{' (profile-guided)' if pgo else ''}")
        if not ok:
            raise SystemExit(1)


def main(argv: list[str]) -> None:
    if argv[1:] == ["build"]:
        build()
    elif argv[1:] == ["status"]:
        for package in MODULES:
            ok, why = check(package)
            print(f"{package}: {'compiled' if ok else 'pure Python'} ({why})")
    else:
        raise SystemExit("usage: python -m simulator.engine.compiled build|status")


if __name__ == "__main__":
    main(sys.argv)
