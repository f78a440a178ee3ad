"""Lighthouse on the public pages: performance, accessibility, best practices and SEO, as a
phone sees them, on the site served as in production.

    .venv/bin/python benchmarks/lighthouse.py [--runs 1] [--why]

Not a test: prints, for each public page (home, the card grid, a card, the sets, a set, the
public decks, a public deck, the log-in page), Lighthouse 12's four mobile scores (0-100, the
median of `--runs` runs), the page's transfer size (KiB, `total-byte-weight`), then how many
pages reach the goal, 100 in all four on every public page, and the lowest score of each
category. `--why` adds, under a page short of 100, the audits that cost it points.

The peer measured in the same run: a static HTML page of a few lines served by the same
server (WhiteNoise, in front of every view; written among the collected files before the
server starts), loaded by Lighthouse in each round like the pages. Its server response time
(the `server-response-time` audit: the time to the first byte of the document, observed, not
simulated) is the floor of this server on this machine right now; `x static` is a page's
server response time over that floor: how many times longer the page takes to start answering
than a file that needs no view at all. Only that ratio travels between machines; the scores
are Lighthouse's own simulation (slow 4G, a 4x slower CPU) and move a little from run to run
on a busy machine.

The site: uvicorn as the Procfile runs it, DEBUG off, a random SECRET_KEY, plain http on
127.0.0.1 (DRIFTER_HTTPS off), on a throwaway SQLite database in a temporary folder, migrated,
with the catalogue, the demo user, collected static files and one public, listed deck (the
first starter deck, made through the API with the demo user's token). Each page and the files
it links are fetched once before the measures (card pictures are rendered on first request and
kept), so Lighthouse sees the site warm. A Lighthouse run that fails (it sometimes reports a
trace error) is tried again once, then reported. Without npx or /usr/bin/chromium this prints
why and exits 0 (skipped). The server is stopped and the folder removed at the end.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import secrets
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from http.client import HTTPConnection
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.harness import BASE_DIR, PYTHON, free_port, manage

CHROMIUM = "/usr/bin/chromium"
LIGHTHOUSE = "lighthouse@12"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
SHORT = {"performance": "perf", "accessibility": "a11y", "best-practices": "b-p", "seo": "seo"}
# The demo user (config/management/commands/create_demo_user.py).
DEMO = {"username": "demo", "password": "drifter-demo-2005"}


def site_env(tmp: Path) -> dict:
    """Production settings on a throwaway embedded default in `tmp` (SQLite, filesystem broker)."""
    env = dict(os.environ)
    for key in ("DATABASE_URL", "CELERY_BROKER_URL", "CHANNEL_LAYER_URL", "CACHE_URL"):
        env.pop(key, None)
    env.update(
        DRIFTER_VAR_DIR=str(tmp / "var"),
        DJANGO_DEBUG="false",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="127.0.0.1,localhost",
        # Plain http on loopback (the default for local hosts, said here so that a DRIFTER_HTTPS
        # in the caller's environment cannot turn on the redirect to https).
        DRIFTER_HTTPS="false",
        DJANGO_SETTINGS_MODULE="config.settings",
        CONN_MAX_AGE="600",  # as the Procfile's web process
    )
    return env


@contextlib.contextmanager
def uvicorn(env: dict, log: Path):
    """The Procfile's web process on a free loopback port until /healthz answers; the port."""
    port = free_port()
    with log.open("w") as out:
        proc = subprocess.Popen(
            [PYTHON, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1",
             "--port", str(port), "--lifespan", "on", "--timeout-graceful-shutdown", "10"],
            cwd=BASE_DIR, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while get(port, "/healthz")[0] != 200:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"uvicorn did not serve:\n{log.read_text()}")
            time.sleep(0.3)
        yield port
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def get(port: int, path: str, *, method="GET", body=None, token=None) -> tuple[int, bytes]:
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if token:
        headers["Authorization"] = f"Token {token}"
    conn = HTTPConnection("127.0.0.1", port, timeout=120)
    try:
        conn.request(method, path, body=json.dumps(body) if body is not None else None,
                     headers=headers)  # fmt: skip
        response = conn.getresponse()
        return response.status, response.read()
    except OSError:  # not listening yet
        return 0, b""
    finally:
        conn.close()


def api(port: int, path: str, **kwargs) -> dict:
    status, body = get(port, f"/api/v1/{path}", **kwargs)
    if status >= 300 or status == 0:
        raise RuntimeError(f"{kwargs.get('method', 'GET')} /api/v1/{path}: {status} {body[:300]}")
    return json.loads(body)


def public_pages(port: int) -> list[str]:
    """The public pages, with a public and listed deck made for the occasion."""
    sets = api(port, "sets/")
    sets = sets.get("results", sets) if isinstance(sets, dict) else sets
    first = next(s for s in sets if s["starters"])  # a set with a starter deck
    starter = first["starters"][0]
    token = api(port, "tokens/", method="POST", body=DEMO)["token"]
    chips = Counter(starter["kicker_chips"])
    deck = api(
        port, "decks/", method="POST", token=token,
        body={
            "name": f"Lighthouse: {starter['name']}",
            "description": "The starter deck, shared for the Lighthouse benchmark.",
            "cards": starter["cards"],
            "kicker_chips": [{"code": c, "qty": q} for c, q in chips.items()],
            "is_public": True,
            "listed": True,
        },
    )  # fmt: skip
    slug = deck["share_url"].rstrip("/").rsplit("/", 1)[-1]
    card = starter["cards"][0]["code"]
    return [
        "/",
        "/cards/",
        f"/cards/{card}/",
        "/sets/",
        f"/sets/{first['code']}/",
        "/decks/public/",
        f"/decks/s/{slug}/",
        "/accounts/login/",
    ]


LINKED = re.compile(r'(?:src|href)="(/(?:static|cards|kicker-chips|media)/[^"#?]+)')


def warm(port: int, paths: list[str]) -> None:
    """Fetch each page and the same-site files it links (card pictures render once, then kept)."""
    for path in paths:
        status, body = get(port, path)
        if status != 200:
            raise RuntimeError(f"GET {path}: {status}")
        for linked in sorted(set(LINKED.findall(body.decode(errors="replace")))):
            if linked.endswith((".png", ".css", ".js", ".svg", ".ico", ".woff2", ".webp")):
                get(port, linked)


PEER = "bench-lighthouse-peer.html"
PEER_HTML = (
    '<!doctype html><html lang="en"><meta charset="utf-8">'
    '<meta name="viewport" content="width=device-width"><title>Peer</title>'
    "<p>A static page: no view, no database.</p></html>"
)


def lighthouse(
    url: str, out: Path, tmp: Path, timeout: float, *, only_audit: str = ""
) -> tuple[dict | None, str]:
    """One Lighthouse run of `url` (the four categories, or only the audit `only_audit`), tried
    again once on failure: (its report, why it failed)."""
    if only_audit:
        flags, audits = (f"--only-audits={only_audit}",), (only_audit,)
    else:
        flags = (f"--only-categories={','.join(CATEGORIES)}",)
        audits = ("server-response-time", "total-byte-weight")
    why = ""
    for _ in range(2):
        out.unlink(missing_ok=True)
        command = [
            "npx", "--yes", LIGHTHOUSE, url, f"--chrome-path={CHROMIUM}",
            "--chrome-flags=--headless=new --no-sandbox", *flags, "--form-factor=mobile",
            "--output=json", f"--output-path={out}", "--quiet",
        ]  # fmt: skip
        # Chrome's profile goes to TMPDIR: into our folder, removed with it.
        proc = subprocess.Popen(
            command, env={**os.environ, "TMPDIR": str(tmp)}, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True, start_new_session=True,
        )  # fmt: skip
        try:
            output, _ = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            why = f"timed out after {timeout:.0f} s"
            continue
        report = json.loads(out.read_text()) if out.exists() else None
        if report is None:
            lines = output.strip().splitlines()
            why = f"exit {proc.returncode}: {lines[-1] if lines else 'no report'}"
        elif report.get("runtimeError"):
            why = f"{report['runtimeError'].get('code')}: {report['runtimeError'].get('message')}"
        elif missing := _missing(report, audits, scored=not only_audit):
            errors = sorted(
                str(audit.get("errorMessage"))
                for audit in report["audits"].values()
                if audit.get("scoreDisplayMode") == "error"
            )
            why = f"no figure for {', '.join(missing)}: {'; '.join(errors) or '?'}"
        else:
            return report, ""
    return None, why


def _missing(report: dict, audits: tuple[str, ...], scored: bool) -> list[str]:
    """The categories without a score (when `scored`) and `audits` without a figure."""
    categories = report.get("categories", {}) if scored else {}
    return [c for c in categories if categories[c]["score"] is None] + [
        a for a in audits if report["audits"].get(a, {}).get("numericValue") is None
    ]


def figures(report: dict) -> dict:
    audits = report["audits"]
    return {
        **{c: round(report["categories"][c]["score"] * 100) for c in CATEGORIES},
        "kib": audits["total-byte-weight"]["numericValue"] / 1024,
        "ttfb": audits["server-response-time"]["numericValue"],
        "lost": [
            f"{ref['id']} ({SHORT[c]})"
            for c in CATEGORIES
            for ref in report["categories"][c]["auditRefs"]
            if ref.get("weight")
            and audits[ref["id"]].get("score") is not None
            and audits[ref["id"]]["score"] < 1
        ],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1, help="Lighthouse runs a page (median).")
    parser.add_argument("--why", action="store_true", help="The audits that cost points.")
    parser.add_argument("--timeout", type=float, default=300, help="Seconds a Lighthouse run.")
    args = parser.parse_args()
    missing = [what for what in ("npx",) if not shutil.which(what)]
    missing += [CHROMIUM] if not os.access(CHROMIUM, os.X_OK) else []
    if missing:
        print(f"skipped: {' and '.join(missing)} not found (Lighthouse needs both)")
        return

    tmp = Path(tempfile.mkdtemp(prefix="drifter-bench-lighthouse-"))
    try:
        env = site_env(tmp)
        for command in (
            ("migrate", "--noinput"),
            ("load_catalogue",),
            ("create_demo_user",),
            ("collectstatic", "--noinput"),
        ):
            manage(*command, env=env)
        # The peer, among the collected files (WhiteNoise lists them as the server starts).
        (tmp / "var" / "static" / PEER).write_text(PEER_HTML)
        with uvicorn(env, tmp / "web.log") as port:
            measure(port, args, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def measure(port: int, args, tmp: Path) -> None:
    paths = public_pages(port)
    warm(port, [*paths, f"/static/{PEER}"])
    static = f"/static/{PEER}"
    base = f"http://127.0.0.1:{port}"
    version = subprocess.run(
        ["npx", "--yes", LIGHTHOUSE, "--version"], capture_output=True, text=True
    ).stdout.strip()
    runs: dict[str, list[dict]] = {path: [] for path in paths}
    failures: dict[str, list[str]] = {path: [] for path in paths}
    floors: list[float] = []
    peer_failures: list[str] = []
    began = time.perf_counter()
    for _ in range(args.runs):  # rounds: the peer is measured alongside the pages
        # Only that audit: the peer is no page to score.
        report, why = lighthouse(
            base + static, tmp / "static.json", tmp, args.timeout,
            only_audit="server-response-time",
        )  # fmt: skip
        if report is None:
            peer_failures.append(why)
        else:
            floors.append(report["audits"]["server-response-time"]["numericValue"])
        for path in paths:
            report, why = lighthouse(base + path, tmp / "page.json", tmp, args.timeout)
            if report is None:
                failures[path].append(why)
            else:
                runs[path].append(figures(report))
    wall = time.perf_counter() - began

    floor = statistics.median(floors) if floors else None
    print(
        f"lighthouse {version}, mobile (simulated slow 4G, 4x CPU slowdown), headless chromium; "
        f"median of {args.runs} run(s) a page, {wall:.0f} s in all"
    )
    if floor is not None:
        print(f"peer: static file {static}: server response time {floor:.1f} ms")
    else:
        print(f"peer: not measured ({'; '.join(peer_failures)}); no ratios")
    print(f"{'page':<26} {'perf':>4} {'a11y':>4} {'b-p':>4} {'seo':>4} {'KiB':>7} "
          f"{'TTFB ms':>8} {'x static':>8}")  # fmt: skip
    perfect = 0
    lowest: dict[str, tuple[float, str]] = {}
    for path in paths:
        label = path if len(path) <= 26 else path[:23] + "..."
        done = runs[path]
        if not done:
            print(f"{label:<26} failed: {'; '.join(failures[path])}")
            continue
        med = {k: statistics.median(r[k] for r in done) for k in (*CATEGORIES, "kib", "ttfb")}
        perfect += all(med[c] == 100 for c in CATEGORIES)
        for c in CATEGORIES:
            if c not in lowest or med[c] < lowest[c][0]:
                lowest[c] = (med[c], path)
        scores = " ".join(f"{med[c]:>4.0f}" for c in CATEGORIES)
        ratio = f"{med['ttfb'] / floor:>8.1f}" if floor else f"{'-':>8}"
        note = f"  ({len(failures[path])} run(s) failed)" if failures[path] else ""
        print(f"{label:<26} {scores} {med['kib']:>7.1f} {med['ttfb']:>8.1f} {ratio}{note}")
        if args.why and not all(med[c] == 100 for c in CATEGORIES):
            lost = sorted({item for r in done for item in r["lost"]})
            print(f"{'':<4}lost points: {', '.join(lost) or '(varies by run)'}")
    worst = ", ".join(
        f"{c} {lowest[c][0]:.0f}" + (f" ({lowest[c][1]})" if lowest[c][0] < 100 else "")
        for c in CATEGORIES
        if c in lowest
    )
    print(
        f"goal: 100 in all four on every public page: {perfect}/{len(paths)} pages there; "
        f"lowest: {worst or 'none measured'}"
    )


if __name__ == "__main__":
    main()
