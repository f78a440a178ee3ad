"""A run that cannot be started, and why: the refusal every layer of the service raises.

`RunRefused` is a `DomainError` carrying every problem of a run's input (the API answers them
all at once, docs/api.md); `refuse` makes one with a single problem.
"""

from __future__ import annotations

from config.api import DomainError


class RunRefused(DomainError):
    """A run that cannot be started: carries every problem (the API answers them all)."""


def refuse(detail: str, *, code: str = "invalid", attr: str | None = None) -> RunRefused:
    """A refusal with one problem."""
    return RunRefused(detail, code=code, attr=attr)
