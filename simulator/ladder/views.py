"""The bots' ladder page, `/bots/`: per game its latest rated ladder, public."""

from __future__ import annotations

from typing import Any

from django.shortcuts import render

from simulator.engine.core.registry import bot_label
from simulator.ladder import selectors
from simulator.ladder.models import BotLadder
from simulator.runs.pages import heat_colour


def _ladder_page(ladder: BotLadder) -> dict[str, Any]:
    """A rated ladder shaped for people: its rows with what each bot does, and the superiority
    grid coloured by its share."""
    result = ladder.result or {}
    rows = [{**row, "note": bot_label(row["bot"])[1]} for row in result.get("entrants", [])]
    grid = [
        {
            "name": row["label"],
            "cells": [
                None
                if share is None
                else {"share": share, "colour": heat_colour(share), "against": other["label"]}
                for share, other in zip(shares, rows)
            ],
        }
        for row, shares in zip(rows, result.get("superiority", []))
    ]
    return {"ladder": ladder, "result": result, "rows": rows, "grid": grid}


def bots_ladder(request):
    """Every game's latest ladder of its bots, or how to build one."""
    sections = [
        {**entry, **(_ladder_page(entry["ladder"]) if entry["ladder"] else {})}
        for entry in selectors.ladders_by_game()
    ]
    return render(
        request,
        "simulator/ladder/ladder.html",
        {"sections": sections, "any_ladder": any(s["ladder"] for s in sections)},
    )
