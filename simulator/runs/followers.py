"""Features whose work follows runs: they hear when a run ends and when the reconciler ticks.

The run service knows nothing of the deck doctor (or of any feature built on runs, such as the
metagame lab): such a feature makes its work of ordinary runs and registers a `Follower` here
when the app starts (`simulator/apps.py`). The run service then

- calls `run_ended(run_id)` of each follower once a run has ended (a prompt hook after the
  commit; a worker killed in between loses it, which the next tick makes good), and
- on every reconciler tick (`services.runs_reconcile_due`) asks each follower for the `due`
  ids of its own objects, in the same one query as the runs due, and calls `advance(id)` for
  each; `advance` returns how many it advanced (0 or 1);
- leaves a follower's `stage_runs` (a filter on runs: the runs that are its stages) out of an
  owner's count of active runs: the feature caps its own objects (a doctor run, a field run),
  and out of the owner's list of runs unless asked for (selectors.run_list);
- asks `part_of(run_ids)` what each of its stage runs among them is part of: a `Part`, in
  words with the links to the feature object's page and API object (the list of runs, page and
  API, says so next to each, and so does a run's page; a run's own API object does not: its
  poll stays one query).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import Q, QuerySet
from django.urls import reverse


@dataclass(frozen=True)
class Part:
    """What a stage run is part of: `kind` (the feature's object, e.g. `field_run`), its `id`,
    the `round` (1 for the first) and `words` ("Round 2 of a run of the field Saturday night"),
    with the paths of the object's page and of its API object."""

    kind: str
    id: int
    round: int
    words: str
    page: str
    api: str


@dataclass(frozen=True)
class Follower:
    name: str
    run_ended: Callable[[int], None]
    due: Callable[[], QuerySet]
    advance: Callable[[int], int]
    stage_runs: Q | None = None
    part_of: Callable[[list[int]], dict[int, Part]] | None = None


_FOLLOWERS: dict[str, Follower] = {}


def rounds_of(
    stages: Iterable[Any],
    name: Callable[[Any], str],
    kind: str,
    parent: str,
    views: tuple[str, str],
) -> dict[int, Part]:
    """A follower's `part_of` answer for its stage rows (each with `run_id`, `round` and the id
    of the feature's object in `parent`): "Round r of <name(stage)>", with the links to that
    object's page and API object (`views`: the names of both views)."""
    page, api = views
    parts = {}
    for stage in stages:
        pk, number = getattr(stage, parent), stage.round + 1
        parts[stage.run_id] = Part(
            kind=kind, id=pk, round=number, words=f"Round {number} of {name(stage)}",
            page=reverse(page, args=[pk]), api=reverse(api, args=[pk]),
        )  # fmt: skip
    return parts


def follow(follower: Follower) -> None:
    """Register a follower (again under the same name: replaced)."""
    _FOLLOWERS[follower.name] = follower


def followers() -> list[Follower]:
    """The registered followers, in the order they registered."""
    return list(_FOLLOWERS.values())
