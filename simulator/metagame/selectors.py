"""Reads of the metagame lab: fields (your own, and anyone's public ones to read and copy),
field runs scoped to their owner, and a finished run's export."""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet
from django.http import Http404

from simulator.metagame.models import Field, FieldRun, FieldStage
from simulator.runs.followers import Part, rounds_of


def stage_parts(run_ids: list[int]) -> dict[int, Part]:
    """What each stage run among `run_ids` is part of: "Round 2 of a run of the field Saturday
    night", with the link to that field run (the runs' follower hook)."""
    stages = FieldStage.objects.filter(run_id__in=run_ids).select_related("field_run__field")
    words = lambda stage: f"a run of the field {stage.field_run.field.name}"  # noqa: E731
    return rounds_of(
        stages, words, "field_run", "field_run_id", ("simulator:field-run", "api:field-run-detail")
    )


def field_list(*, user, public: bool = False) -> QuerySet[Field]:
    """`user`'s fields; with `public`, everyone's public fields as well."""
    mine = Q(owner=user)
    return Field.objects.filter(mine | Q(public=True) if public else mine).select_related("owner")


def field_visible(*, user, pk: Any) -> Field:
    """A field `user` may read: theirs, or anyone's public one; Http404 otherwise (someone
    else's private field is as unknown as one that does not exist)."""
    field = field_list(user=user, public=True).filter(pk=pk).first()
    if field is None:
        raise Http404("No such field.")
    return field


def field_get(*, owner, pk: Any) -> Field:
    """One of `owner`'s fields, to change or run; Http404 for anyone else's (public or not:
    changes are the owner's only)."""
    field = field_list(user=owner).filter(pk=pk).first()
    if field is None:
        raise Http404("No such field.")
    return field


def field_run_list(*, owner, field: Field | None = None) -> QuerySet[FieldRun]:
    """`owner`'s field runs (of `field` only, if given), newest first."""
    runs = FieldRun.objects.filter(owner=owner)
    if field is not None:
        runs = runs.filter(field=field)
    return runs.prefetch_related("stages")


def field_run_get(*, owner, pk: Any) -> FieldRun:
    """One of `owner`'s field runs; Http404 for anyone else's."""
    field_run = field_run_list(owner=owner).filter(pk=pk).first()
    if field_run is None:
        raise Http404("No such field run.")
    return field_run


def field_run_export(field_run: FieldRun) -> dict[str, Any]:
    """A finished field run's figures: the matrix (each pair's estimate of the row deck's win
    chance, its interval and games) and each deck's figures against the field (expected win
    rate, interval, chance of being best, tier)."""
    result = field_run.result or {}
    if "table" in result:
        return _table_export(field_run, result)
    labels = result["decks"]
    tier_of = {row["deck"]: row for row in result["tiers"]}
    decks = []
    for i, row in enumerate(result["expected"]):
        games = sum(int(g) for g in field_run.counts["games"][i])
        decks.append(
            {
                "deck": labels[i], "share": field_run.entries[i]["share"],
                "estimate": row["estimate"], "low": row["low"], "high": row["high"],
                "p_best": row["p_best"], "tier": tier_of[i]["tier"], "rank": tier_of[i]["rank"],
                "games": games,
            }
        )  # fmt: skip
    matrix = [
        [{k: cell[k] for k in ("estimate", "low", "high", "games", "mirror")} for cell in row]
        for row in result["cells"]
    ]
    return {
        "field": field_run.field.name, "format": field_run.format, "target": field_run.target,
        "confidence": field_run.confidence, "games": field_run.games_spent,
        "stopped_by": result["stopped_by"], "table_size": 2, "labels": labels,
        "matrix": matrix, "decks": decks,
    }  # fmt: skip


def _table_export(field_run: FieldRun, result: dict[str, Any]) -> dict[str, Any]:
    """A finished table run's figures: each deck's win rate at the tables with its interval,
    edge over 1/k, mean place, chance of being best and tier; the games per composition; no
    matrix (and the note that says why)."""
    labels, table = result["decks"], result["table"]
    tier_of = {row["deck"]: row for row in result["tiers"]}
    decks = [
        {
            "deck": labels[i], "share": field_run.entries[i]["share"],
            "estimate": row["estimate"], "low": row["low"], "high": row["high"],
            "p_best": row["p_best"], "tier": tier_of.get(i, {}).get("tier"),
            "rank": tier_of.get(i, {}).get("rank"), "games": row["seats"], "edge": row["edge"],
            "mean_place": row["mean_place"], "place_low": row["place_low"],
            "place_high": row["place_high"],
        }
        for i, row in enumerate(table["rates"])
    ]  # fmt: skip
    tables = [
        {"decks": [labels[k] for k in c["seats"]], "games": c["games"]}
        for c in table["compositions"]
    ]
    return {
        "field": field_run.field.name, "format": field_run.format, "target": field_run.target,
        "confidence": field_run.confidence, "games": field_run.games_spent,
        "stopped_by": result["stopped_by"], "table_size": result["table_size"],
        "labels": labels, "matrix": [], "decks": decks, "tables": tables,
        "note": table["notes"]["matrix"],
    }  # fmt: skip


CSV_HEADER = ("kind", "deck", "opponent", "estimate", "low", "high", "games", "share", "p_best",
              "tier")  # fmt: skip
TABLE_CSV_HEADER = (*CSV_HEADER, "edge", "mean_place", "place_low", "place_high")


def csv_header(field_run: FieldRun) -> tuple[str, ...]:
    """The CSV's columns: a table run's add each deck's edge and mean place."""
    return TABLE_CSV_HEADER if field_run.table_size > 2 else CSV_HEADER


def field_run_csv_rows(field_run: FieldRun) -> list[list[Any]]:
    """The export as CSV rows under CSV_HEADER: a `deck` row per deck (its figures against the
    field), then a `pair` row per deck and opponent (the row deck's win chance against it)."""
    export = field_run_export(field_run)
    if export["table_size"] > 2:
        return _table_csv_rows(export)
    labels = export["labels"]
    rows: list[list[Any]] = [
        ["deck", d["deck"], "", d["estimate"], d["low"], d["high"], d["games"], d["share"],
         d["p_best"], d["tier"]]
        for d in export["decks"]
    ]  # fmt: skip
    for i, row in enumerate(export["matrix"]):
        for j, cell in enumerate(row):
            if i != j:
                rows.append(["pair", labels[i], labels[j], cell["estimate"], cell["low"],
                             cell["high"], cell["games"], "", "", ""])  # fmt: skip
    return rows


def _table_csv_rows(export: dict[str, Any]) -> list[list[Any]]:
    """A table run's CSV rows under TABLE_CSV_HEADER: a `deck` row per deck (its win rate at the
    tables, edge and mean place), then a `table` row per composition (its decks, one a seat,
    and its games)."""
    rows: list[list[Any]] = [
        ["deck", d["deck"], "", d["estimate"], d["low"], d["high"], d["games"], d["share"],
         d["p_best"], d["tier"], d["edge"], d["mean_place"], d["place_low"], d["place_high"]]
        for d in export["decks"]
    ]  # fmt: skip
    for table in export["tables"]:
        rows.append(["table", " + ".join(table["decks"]), "", "", "", "", table["games"], "", "",
                     "", "", "", "", ""])  # fmt: skip
    return rows
