"""Server-side SVG charts of a run's report: win rates with interval whiskers, histograms, the
matchup heatmap. Plain strings (escaped labels), no JavaScript, no external assets."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

INK = "#3b2f2f"
SAGE = "#6b8f71"
RUST = "#b5562c"
LINE = "#d8c8a8"


def _svg(width: int, height: int, body: list[str], label: str, css_class: str) -> SafeString:
    return mark_safe(
        f'<svg class="chart {css_class}" role="img" aria-label="{escape(label)}" '
        f'viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        f'xmlns="http://www.w3.org/2000/svg" font-family="sans-serif" font-size="12">'
        f"<title>{escape(label)}</title>{''.join(body)}</svg>"
    )


def win_rates(rows: Sequence[tuple[str, Mapping[str, Any]]], title: str = "Win rate") -> SafeString:
    """One bar per row (label, rate) from 0 to 100%, with its 95% interval as a whisker."""
    left, width, bar_h, gap = 190, 360, 18, 8
    height = 30 + len(rows) * (bar_h + gap)
    body = [
        f'<line x1="{left + width / 2}" y1="18" x2="{left + width / 2}" y2="{height - 4}" '
        f'stroke="{LINE}" stroke-dasharray="4 3"/>',
        f'<text x="{left}" y="12" fill="{INK}">0%</text>',
        f'<text x="{left + width / 2 - 10}" y="12" fill="{INK}">50%</text>',
        f'<text x="{left + width - 30}" y="12" fill="{INK}">100%</text>',
    ]
    for i, (label, r) in enumerate(rows):
        y = 22 + i * (bar_h + gap)
        body.append(
            f'<text x="{left - 6}" y="{y + 13}" text-anchor="end" fill="{INK}">'
            f"{escape(label[:28])}</text>"
        )
        if r.get("rate") is None:
            continue
        w = r["rate"] * width
        lo, hi = left + r["low"] * width, left + r["high"] * width
        body += [
            f'<rect class="win-bar" x="{left}" y="{y}" width="{w:.1f}" height="{bar_h}" '
            f'fill="{SAGE}"><title>{escape(label)}: {100 * r["rate"]:.1f}% '
            f"(95% CI {100 * r['low']:.1f}–{100 * r['high']:.1f}%, n={r['n']})</title></rect>",
            f'<line class="whisker" x1="{lo:.1f}" y1="{y + bar_h / 2}" x2="{hi:.1f}" '
            f'y2="{y + bar_h / 2}" stroke="{INK}" stroke-width="2"/>',
            f'<line x1="{lo:.1f}" y1="{y + 4}" x2="{lo:.1f}" y2="{y + bar_h - 4}" stroke="{INK}"/>',
            f'<line x1="{hi:.1f}" y1="{y + 4}" x2="{hi:.1f}" y2="{y + bar_h - 4}" stroke="{INK}"/>',
            f'<text x="{left + width + 6}" y="{y + 13}" fill="{INK}">{100 * r["rate"]:.1f}%</text>',
        ]
    return _svg(left + width + 60, height, body, title, "win-rates")


def histogram(bins: Sequence[Mapping[str, Any]], title: str, x_label: str) -> SafeString:
    """Vertical bars of binned counts (from stats.histogram_bins)."""
    width, height, pad = 420, 180, 30
    if not bins:
        return _svg(
            width, 40, [f'<text x="4" y="20">{escape(title)}: no data</text>'], title, "hist"
        )
    top = max(b["count"] for b in bins) or 1
    bw = (width - 2 * pad) / len(bins)
    body = [
        f'<text x="{pad}" y="14" fill="{INK}">{escape(title)}</text>',
        f'<line x1="{pad}" y1="{height - pad}" x2="{width - pad}" y2="{height - pad}" '
        f'stroke="{INK}"/>',
    ]
    for i, b in enumerate(bins):
        h = (height - 2 * pad - 10) * b["count"] / top
        x = pad + i * bw
        span = str(b["low"]) if b["low"] == b["high"] else f"{b['low']}–{b['high']}"
        body.append(
            f'<rect class="hist-bar" x="{x + 1:.1f}" y="{height - pad - h:.1f}" '
            f'width="{max(bw - 2, 1):.1f}" height="{h:.1f}" fill="{SAGE}">'
            f"<title>{escape(x_label)} {span}: {b['count']}</title></rect>"
        )
    first, last = bins[0]["low"], bins[-1]["high"]
    body += [
        f'<text x="{pad}" y="{height - pad + 14}" fill="{INK}">{first}</text>',
        f'<text x="{width - pad}" y="{height - pad + 14}" text-anchor="end" fill="{INK}">'
        f"{last}</text>",
        f'<text x="{width / 2}" y="{height - 4}" text-anchor="middle" fill="{INK}">'
        f"{escape(x_label)}</text>",
    ]
    return _svg(width, height, body, title, "hist")


def _heat(value: float) -> str:
    # Rust below 50%, sage above, paler the closer to even.
    t = max(-1.0, min(1.0, (value - 0.5) * 2))
    base = (107, 143, 113) if t >= 0 else (181, 86, 44)
    a = abs(t)
    r, g, b = (round(255 - (255 - c) * a) for c in base)
    return f"rgb({r},{g},{b})"


def heatmap(matrix: Sequence[Sequence[Mapping[str, Any] | None]], labels: list[str]) -> SafeString:
    """The matchup matrix: cell (i, j) is row player i's win rate against column player j."""
    n = len(labels)
    cell, left, top = 64, 170, 110
    body = []
    for j, label in enumerate(labels):
        x = left + j * cell + cell / 2
        body.append(
            f'<text x="{x}" y="{top - 6}" transform="rotate(-40 {x} {top - 6})" '
            f'fill="{INK}">{escape(label[:22])}</text>'
        )
    for i, label in enumerate(labels):
        y = top + i * cell
        body.append(
            f'<text x="{left - 6}" y="{y + cell / 2 + 4}" text-anchor="end" fill="{INK}">'
            f"{escape(label[:24])}</text>"
        )
        for j in range(n):
            r = matrix[i][j]
            x = left + j * cell
            if r is None or r.get("rate") is None:
                body.append(
                    f'<rect x="{x}" y="{y}" width="{cell - 2}" height="{cell - 2}" fill="#eee"/>'
                )
                continue
            body.append(
                f'<rect class="heat-cell" x="{x}" y="{y}" width="{cell - 2}" '
                f'height="{cell - 2}" fill="{_heat(r["rate"])}"><title>{escape(label)} vs '
                f"{escape(labels[j])}: {100 * r['rate']:.1f}% (95% CI {100 * r['low']:.1f}–"
                f"{100 * r['high']:.1f}%, n={r['n']})</title></rect>"
                f'<text x="{x + cell / 2 - 1}" y="{y + cell / 2 + 4}" text-anchor="middle" '
                f'fill="{INK}">{100 * r["rate"]:.0f}%</text>'
            )
    return _svg(left + n * cell + 10, top + n * cell + 10, body, "Matchup matrix", "heatmap")


def card_impact(rows: Sequence[Mapping[str, Any]], limit: int = 25) -> SafeString:
    """Win rate when played minus when not, per card, as bars either side of zero."""
    rows = [r for r in rows if r["delta"] is not None][:limit]
    left, width, bar_h, gap = 200, 300, 14, 5
    height = 24 + len(rows) * (bar_h + gap)
    mid = left + width / 2
    body = [f'<line x1="{mid}" y1="4" x2="{mid}" y2="{height}" stroke="{INK}"/>']
    for i, r in enumerate(rows):
        y = 10 + i * (bar_h + gap)
        w = r["delta"] * width / 2
        x = mid if w >= 0 else mid + w
        colour = SAGE if w >= 0 else RUST
        opacity = "1" if r["enough"] else "0.35"
        body += [
            f'<text x="{left - 6}" y="{y + 11}" text-anchor="end" fill="{INK}">'
            f"{escape(r['name'][:28])}</text>",
            f'<rect class="impact-bar" x="{x:.1f}" y="{y}" width="{abs(w):.1f}" '
            f'height="{bar_h}" fill="{colour}" fill-opacity="{opacity}"><title>'
            f"{escape(r['name'])}: {100 * r['delta']:+.1f} points</title></rect>",
        ]
    return _svg(left + width + 20, height, body, "Card impact on win rate", "impact")
