"""The charts of a run's results page, as data: each is a JSON-able spec the page passes with
`json_script` to config/static/drifter/results.js, which draws it with Chart.js (vendored
under config/static/vendor/chartjs/, served offline by WhiteNoise).

A spec names its kind ("rates", "histogram", "impact"), its title and axis titles, and
carries the numbers with the words of each tooltip already written, so the script only draws.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from simulator.common.numbers import percent_text, rate_text

Chart = dict[str, Any]

# Pixel heights that keep a bar readable at any width (the script sets the box's height).
ROW = 30
FRAME = 90


def _height(rows: int) -> int:
    return FRAME + ROW * max(rows, 1)


def win_rates(
    labels: Sequence[str],
    series: Sequence[tuple[str, Sequence[Mapping[str, Any] | None]]],
    title: str,
    *,
    what: str = "games",
) -> Chart:
    """Win rates on a 0–100% axis, one bar per label and series (name, one rate per label),
    each with its 95% interval drawn across it as a whisker."""

    def number(r: Mapping[str, Any] | None, key: str) -> float | None:
        return None if not r or r.get(key) is None else round(100 * r[key], 1)

    return {
        "kind": "rates",
        "title": title,
        "x": "Win rate (bar) and its 95% interval (line)",
        "labels": list(labels),
        "series": [
            {
                "name": name,
                "values": [number(r, "rate") for r in rates],
                "intervals": [[number(r, "low"), number(r, "high")] for r in rates],
                "tips": [
                    f"{name}: {rate_text(r)} of {int(r['n']):,} {what}"
                    if r and r["n"]
                    else f"{name}: no {what}"
                    for r in rates
                ],
            }
            for name, rates in series
        ],
        "height": _height(len(labels) * len(series)),
    }


def histogram(bins: Sequence[Mapping[str, Any]], title: str, x_label: str) -> Chart:
    """Vertical bars of binned counts (from stats.histogram_bins): how many games fell in each."""

    def span(b: Mapping[str, Any]) -> str:
        return str(b["low"]) if b["low"] == b["high"] else f"{b['low']} to {b['high']}"

    def tick(b: Mapping[str, Any]) -> str:
        return str(b["low"]) if b["low"] == b["high"] else f"{b['low']}–{b['high']}"

    total = sum(b["count"] for b in bins) or 1
    return {
        "kind": "histogram",
        "title": title,
        "x": x_label,
        "y": "Games",
        "labels": [tick(b) for b in bins],
        "values": [b["count"] for b in bins],
        "tips": [
            f"{span(b)} {x_label.lower()}: {b['count']:,} games "
            f"({percent_text(b['count'] / total)})"
            for b in bins
        ],
        "height": 280,
    }


def card_impact(rows: Sequence[Mapping[str, Any]], title: str, limit: int = 12) -> Chart:
    """Win rate when a card was played minus when it was not, in points: the `limit` cards
    that helped most and the `limit` that helped least, among those seen often enough."""
    known = [r for r in rows if r["delta"] is not None and r["enough"]]
    known.sort(key=lambda r: -r["delta"])
    shown = known if len(known) <= 2 * limit else known[:limit] + known[-limit:]
    return {
        "kind": "impact",
        "title": title,
        "x": "Win rate when played minus when not (points)",
        "labels": [r["name"] for r in shown],
        "values": [round(100 * r["delta"], 1) for r in shown],
        "tips": [
            f"played: {rate_text(r['played'])}; not played: {rate_text(r['not_played'])}"
            for r in shown
        ],
        "height": _height(len(shown)),
    }
