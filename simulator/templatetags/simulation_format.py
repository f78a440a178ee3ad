"""Template filters for a run's results page: the numbers of simulator/common/numbers.py."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import template

from simulator.common.numbers import money_text, number_text, percent_text, points_text, rate_text

register = template.Library()


@register.filter
def money(value: float | None) -> str:
    """Dollars: −$10.0."""
    return money_text(value)


@register.filter
def money_interval(m: Mapping[str, Any] | None) -> str:
    """A mean in dollars with its 95% interval: −$10.0 (−$18.1 to −$1.9)."""
    if not m or m.get("mean") is None:
        return "—"
    text = money_text(m["mean"])
    if m.get("low") is not None and m.get("high") is not None:
        text += f" ({money_text(m['low'])} to {money_text(m['high'])})"
    return text


@register.filter
def percent(value: float | None) -> str:
    """A proportion as a percentage: 78%."""
    return percent_text(value)


@register.filter
def rate(r: Mapping[str, Any] | None) -> str:
    """A win rate with its 95% interval: 78% (72% to 83%)."""
    return rate_text(r)


@register.filter
def points(value: float | None) -> str:
    """A difference in percentage points: +6 points."""
    return points_text(value)


@register.filter
def number(value: float | None, digits: int = 1) -> str:
    """A number to `digits` decimals with a true minus sign."""
    return number_text(value, int(digits))
