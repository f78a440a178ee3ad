"""What every browser test checks on a page it visits, whatever the page.

    from tests.e2e.checks import WIDTHS, PageChecks

    @pytest.mark.parametrize("width", WIDTHS)
    def test_something(page, width):
        checks = PageChecks(page, width=width)     # sets the width, starts listening
        page.goto("/")
        checks.page_ok("home")                     # fits, no console error, axe clean, shot

- `assert_accessible(page)`: axe-core (bundled by the `axe-playwright-python` package, so it is
  served offline) finds no serious or critical violation: images without alt text, controls
  without labels, text without enough contrast, and the rest of axe's WCAG 2 A/AA rules.
- `assert_fits(page)`: the page is no wider than the window (no sideways scroll).
- `PageChecks.errors`: console errors and uncaught exceptions seen since it was made (a page
  that itself answers 4xx, as a form refusing bad input does, is not one).
- `PageChecks.shot(name)`: a full-page PNG under /tmp/shots-<label>/ (DRIFTER_SHOTS overrides
  the folder) to look at.
"""

from __future__ import annotations

import os
from pathlib import Path

from axe_playwright_python.sync_playwright import Axe

WIDTHS = (1280, 390)
HEIGHTS = {1280: 900, 390: 844}
BLOCKING = ("serious", "critical")
# axe-core's WCAG 2.0 and 2.1 rules at levels A and AA.
AXE_OPTIONS = {
    "resultTypes": ["violations"],
    "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
}

_axe = Axe()


def axe_violations(page, *, impacts: tuple[str, ...] = BLOCKING) -> list[dict]:
    """axe-core's violations on the page as it is now, of the given impacts."""
    results = _axe.run(page, options=AXE_OPTIONS)
    return [v for v in results.response["violations"] if v.get("impact") in impacts]


def describe(violations: list[dict]) -> str:
    lines = []
    for v in violations:
        targets = ", ".join(" ".join(n["target"]) for n in v["nodes"][:5])
        lines.append(f"{v['impact']} {v['id']}: {v['help']} ({len(v['nodes'])}x: {targets})")
    return "\n".join(lines)


def settle(page) -> None:
    """Wait until the page's finite CSS animations have ended: axe reads colours as they are
    drawn, and a line still fading in (the table's bot moves appear one by one) is not the
    page's contrast. Endless ones (a progress pulse) are left running."""
    page.wait_for_function(
        "document.getAnimations().every(a => a.playState !== 'running'"
        " || a.effect?.getComputedTiming().iterations === Infinity)",
        timeout=15_000,
    )


def assert_accessible(page, *, impacts: tuple[str, ...] = BLOCKING) -> None:
    """No serious or critical axe-core violation on the page, once its animations are done."""
    settle(page)
    violations = axe_violations(page, impacts=impacts)
    assert not violations, f"axe on {page.url}:\n{describe(violations)}"


def page_width(page) -> tuple[int, int]:
    """(the page's scroll width, the window's width) in CSS pixels."""
    return page.evaluate(
        "[Math.max(document.documentElement.scrollWidth, document.body.scrollWidth),"
        " window.innerWidth]"
    )


def assert_fits(page) -> None:
    """The page is no wider than the window."""
    wide, window = page_width(page)
    assert wide <= window, f"{page.url} is {wide} px wide in a {window} px window"


class PageChecks:
    """Sets the window's width and collects console errors for one test's page."""

    def __init__(self, page, *, width: int = 1280, label: str = "site") -> None:
        self.page = page
        self.width = width
        self.errors: list[str] = []
        folder = os.environ.get("DRIFTER_SHOTS") or f"/tmp/shots-{label}"
        self.folder = Path(folder)
        page.set_viewport_size({"width": width, "height": HEIGHTS.get(width, 900)})
        page.on("console", self._console)
        page.on("pageerror", lambda exc: self.errors.append(str(exc)))

    def _console(self, message) -> None:
        if message.type != "error":
            return
        # A form page that refuses bad input answers 4xx by design (the house rule), and
        # Chromium logs that status of the page itself; any other failed load is an error.
        refused_page = (
            message.text.startswith(
                "Failed to load resource: the server responded with a status of 4"
            )
            and message.location.get("url") == self.page.url
        )
        if not refused_page:
            self.errors.append(f"{message.text} ({message.location.get('url')})")

    def shot(self, name: str) -> Path:
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self.folder / f"{name}-{self.width}.png"
        self.page.screenshot(path=str(path), full_page=True)
        return path

    def page_ok(self, name: str) -> None:
        """The page fits the window, has logged no error and is axe clean; a screenshot."""
        self.page.wait_for_load_state("load")
        self.shot(name)
        assert_fits(self.page)
        assert not self.errors, f"console errors on {self.page.url}: {self.errors}"
        assert_accessible(self.page)
