"""Numbers of a run's results written for people: "78% (72% to 83%)", "−$10.0 (−$18.1 to
−$1.9)", "+6 points". A true minus sign, never a bare dash between two negative numbers.

Plain Python: the charts (simulator/games/charts.py) and the template filters
(simulator/templatetags/simulation_format.py) both write their numbers with these.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

MINUS = "\u2212"


def _signed(value: float, digits: int, plus: bool = False) -> str:
    text = f"{abs(value):,.{digits}f}"
    if round(value, digits) < 0:
        return MINUS + text
    return ("+" if plus and round(value, digits) > 0 else "") + text


def money_text(value: float | None, digits: int = 1) -> str:
    """Dollars with a true minus sign before the dollar sign: −$10.0."""
    if value is None:
        return "—"
    text = _signed(value, digits)
    return f"{MINUS}${text[1:]}" if text.startswith(MINUS) else f"${text}"


def percent_text(value: float | None, digits: int = 0) -> str:
    """A proportion as a percentage: 0.781 -> 78%."""
    if value is None:
        return "—"
    return f"{_signed(100 * value, digits)}%"


def rate_text(r: Mapping[str, Any] | None) -> str:
    """A win rate with its 95% interval: 78% (72% to 83%)."""
    if not r or r.get("rate") is None:
        return "—"
    if r.get("low") is None or r.get("high") is None:
        return percent_text(r["rate"])
    return f"{percent_text(r['rate'])} ({percent_text(r['low'])} to {percent_text(r['high'])})"


def points_text(value: float | None) -> str:
    """A difference of two proportions in percentage points: +6 points, −3 points."""
    if value is None:
        return "—"
    amount = _signed(100 * value, 0, plus=True)
    return f"{amount} point" if amount.lstrip("+" + MINUS) == "1" else f"{amount} points"


def number_text(value: float | None, digits: int = 1) -> str:
    """A plain number to `digits` decimals with a true minus sign."""
    if value is None:
        return "—"
    return _signed(value, digits)
