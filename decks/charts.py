"""Server-side SVG charts for deck pages: plain bar charts, no JavaScript."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from django.utils.safestring import SafeString, mark_safe

BAR = "#8a5a2b"


def bar_chart(
    title: str,
    items: Sequence[tuple[str, float]],
    *,
    width: int = 360,
    height: int = 180,
    fmt: str = "{:g}",
    color: str = BAR,
) -> SafeString:
    """A vertical bar chart with a label under each bar and its value above it."""
    pad_top, pad_bottom, pad_side = 40, 34, 8
    chart_h = height - pad_top - pad_bottom
    n = max(len(items), 1)
    slot = (width - 2 * pad_side) / n
    top = max((v for _, v in items), default=0) or 1
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" role="img" viewBox="0 0 {width} '
        f'{height}" width="{width}" height="{height}" aria-label="{escape(title)}">',
        f"<title>{escape(title)}</title>",
        f'<text x="{width / 2}" y="16" text-anchor="middle" font-size="13" '
        f'font-weight="bold">{escape(title)}</text>',
        f'<line x1="{pad_side}" y1="{pad_top + chart_h}" x2="{width - pad_side}" '
        f'y2="{pad_top + chart_h}" stroke="#555"/>',
    ]
    for i, (label, value) in enumerate(items):
        h = chart_h * value / top
        x = pad_side + i * slot + slot * 0.15
        w = slot * 0.7
        y = pad_top + chart_h - h
        parts.append(
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" fill="{color}">'
            f"<title>{escape(str(label))}: {fmt.format(value)}</title></rect>"
        )
        parts.append(
            f'<text x="{x + w / 2:.1f}" y="{y - 3:.1f}" text-anchor="middle" font-size="10">'
            f"{escape(fmt.format(value))}</text>"
        )
        parts.append(
            f'<text x="{x + w / 2:.1f}" y="{pad_top + chart_h + 14}" text-anchor="middle" '
            f'font-size="10">{escape(str(label)[:12])}</text>'
        )
    parts.append("</svg>")
    return mark_safe("".join(parts))  # every interpolated label is escaped above


def deck_charts(stats: dict) -> list[SafeString]:
    """The deck page's charts: cost curve, types, rarities, dude stats, opening-hand odds."""
    curve = [(k, v) for k, v in stats["cost_curve"].items()]
    odds = stats["opening_hand"]
    return [
        bar_chart("Cost curve", curve),
        bar_chart("Card types", list(stats["by_type"].items())),
        bar_chart("Rarity", list(stats["by_rarity"].items())),
        bar_chart(
            "Mean dude stats",
            [(k.replace("_", " "), v["mean"]) for k, v in stats["dude_stats"].items()],
            fmt="{:.1f}",
        ),
        bar_chart(
            "Opening hand odds (%)",
            [
                ("a dude", 100 * odds["dude"]),
                ("with redraw", 100 * odds["dude_with_redraw"]),
                ("dude + gear", 100 * odds["dude_and_gear"]),
                ("with redraw", 100 * odds["dude_and_gear_with_redraw"]),
            ],
            fmt="{:.1f}",
            color="#2b5a8a",
        ),
    ]
