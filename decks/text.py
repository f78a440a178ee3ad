"""The deck text format: read and write.

::

    # Dust and Lead        <- comments start with #; a first line like this names the deck
    # Format: Standard     <- and this one gives its format (by its name, as export writes)
    3 Henry Meek [HSD-012] <- quantity, name, code in brackets: the code wins
    2 Plains Saddle        <- a name alone is fine if exactly one card has it
    1x HSD-044             <- a bare code, and an optional x after the quantity
    Kicker chips:          <- what follows are kicker chips
    2 [HSD-K01]

Reading reports every bad line by number, with the closest card names for a name it does not
know; nothing is half-read. Writing then reading gives the same name, format, cards and chips.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from dataclasses import dataclass, field

from simulator.engine.drifter.cards import Catalogue
from simulator.engine.drifter.formats import (
    FORMAT_LABELS,
    MAX_ENTRIES,
    MAX_QTY,
    Problem,
    format_label,
    format_name,
)

_LINE = re.compile(r"^(?P<qty>[+-]?\d+(?:[.,]\d+)?)\s*[xX]?\s+(?P<rest>.+)$")
_BRACKET = re.compile(r"^(?P<name>.*?)\s*\[(?P<code>[^\]]+)\]\s*$")
_BARE_CODE = re.compile(r"^[A-Za-z0-9]+-K?\d+$")
_CHIP_HEADER = re.compile(r"^kicker\s*chips?\s*:?\s*$", re.IGNORECASE)
_CARD_HEADER = re.compile(r"^(cards|deck|dudes|gear|fortunes?)\s*:?\s*$", re.IGNORECASE)
_FORMAT_LINE = re.compile(r"^#\s*format\s*:\s*(?P<label>.+?)\s*$", re.IGNORECASE)
_FORMAT_BY_LABEL = {label.casefold(): key for key, label in FORMAT_LABELS.items()}
MAX_LINES = 5000
SUGGESTIONS = 3


@dataclass
class ParsedDeck:
    cards: Counter[str] = field(default_factory=Counter)
    kicker_chips: Counter[str] = field(default_factory=Counter)
    problems: list[Problem] = field(default_factory=list)
    # from the header our export writes: "# <name>" first, then "# Format: <label>"
    name: str | None = None
    format: str | None = None


def _names(catalogue: Catalogue) -> dict[str, list[str]]:
    index: dict[str, list[str]] = {}
    for card in catalogue.cards:
        index.setdefault(card.name.casefold(), []).append(card.code)
    return index


def closest_names(name: str, catalogue: Catalogue, n: int = SUGGESTIONS) -> list[str]:
    """The card names nearest to `name` (a misspelling: "Wyat Earp" -> ["Wyatt Earp"])."""
    by_key = {card.name.casefold(): card.name for card in catalogue.cards}
    keys = difflib.get_close_matches(name.casefold(), list(by_key), n=n, cutoff=0.6)
    return [by_key[k] for k in keys]


def _format_of(label: str) -> str | None:
    """The format a header line names ("Stud (sealed) + On Your Lonesome"), or None."""
    keys = [_FORMAT_BY_LABEL.get(part.strip().casefold()) for part in label.split("+")]
    if not keys or None in keys:
        return None
    return format_name(k for k in keys if k)


def _header(lines: list[str]) -> tuple[str | None, str | None]:
    """The deck's name and format from the comment lines that open an exported list."""
    name = fmt = None
    for number, raw in enumerate(lines):
        line = raw.strip()
        if not line:
            continue
        if not line.startswith("#"):
            break
        m = _FORMAT_LINE.match(line)
        if m:
            fmt = _format_of(m["label"])
            break
        if number == 0:  # the name is the list's very first line
            name = line.lstrip("#").strip()[:100] or None
    return name, fmt


def parse_text(text: str, catalogue: Catalogue) -> ParsedDeck:
    """Read a deck list; `problems` names each bad line (attr "text", `line` 1-based)."""
    out = ParsedDeck()
    lines = text.splitlines()
    if len(lines) > MAX_LINES:
        out.problems.append(
            Problem("too_many_entries", f"A deck list has at most {MAX_LINES} lines.", attr="text")
        )
        return out
    names = _names(catalogue)
    out.name, out.format = _header(lines)
    in_chips = False
    for number, raw in enumerate(lines, start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if _CHIP_HEADER.match(line):
            in_chips = True
            continue
        if _CARD_HEADER.match(line):
            in_chips = False
            continue
        _read_entry(out, line, number, in_chips=in_chips, catalogue=catalogue, names=names)
    if len(out.cards) + len(out.kicker_chips) > MAX_ENTRIES:
        out.problems.append(
            Problem("too_many_entries", f"A deck has at most {MAX_ENTRIES} entries.", attr="text")
        )
    return out


def _read_entry(
    out: ParsedDeck,
    line: str,
    number: int,
    *,
    in_chips: bool,
    catalogue: Catalogue,
    names: dict[str, list[str]],
) -> None:
    """One entry line, `QTY NAME`, `QTY NAME [CODE]` or `QTY CODE`, added to `out` (a card, or a
    kicker chip under a chips header or by a chip's code), or its problem."""

    def bad(code: str, detail: str) -> None:
        out.problems.append(Problem(code, f"Line {number}: {detail}", attr="text", line=number))

    m = _LINE.match(line)
    if not m:
        bad(
            "bad_line",
            f"expected a quantity then a card, e.g. '3 Henry Meek [HSD-012]', not {line!r}.",
        )
        return
    qty_text, rest = m["qty"], m["rest"].strip()
    if not re.fullmatch(r"\d+", qty_text) or not 1 <= int(qty_text) <= MAX_QTY:
        bad(
            "bad_quantity",
            f"the quantity must be a whole number from 1 to {MAX_QTY}, not {qty_text}.",
        )
        return
    qty = int(qty_text)
    bm = _BRACKET.match(rest)
    code, name = (bm["code"].strip().upper(), bm["name"].strip()) if bm else (None, rest)
    if code is None and _BARE_CODE.match(rest):
        code, name = rest.upper(), ""
    if in_chips:
        chip_code = code or name.upper()
        if chip_code not in catalogue.chip_by_code:
            bad("unknown_kicker_chip", f"there is no kicker chip {chip_code!r}.")
            return
        out.kicker_chips[chip_code] += qty
    elif code is not None:
        if code in catalogue.chip_by_code:
            out.kicker_chips[code] += qty  # a chip listed among the cards is still a chip
        elif code not in catalogue.card_by_code:
            bad("unknown_card", f"there is no card {code!r}.")
        else:
            out.cards[code] += qty
    else:
        _add_by_name(out, name, qty, number, catalogue=catalogue, names=names)


def _add_by_name(
    out: ParsedDeck,
    name: str,
    qty: int,
    number: int,
    *,
    catalogue: Catalogue,
    names: dict[str, list[str]],
) -> None:
    """The one card called `name` (any case); none is a problem with the closest names, more
    than one a problem asking for the code."""
    matches = names.get(name.casefold(), [])
    if not matches:
        near = closest_names(name, catalogue)
        hint = f" Did you mean {' or '.join(near)}?" if near else ""
        out.problems.append(
            Problem(
                "unknown_card",
                f"Line {number}: there is no card named {name!r}.{hint}",
                attr="text",
                line=number,
                suggestions=tuple(near) or None,
            )
        )
    elif len(matches) > 1:
        out.problems.append(
            Problem(
                "ambiguous_card",
                f"Line {number}: {len(matches)} cards are named {name!r} "
                f"({', '.join(matches)}); add the code in brackets.",
                attr="text",
                line=number,
            )
        )
    else:
        out.cards[matches[0]] += qty


def export_text(
    *,
    name: str,
    fmt: str,
    cards: dict[str, int],
    kicker_chips: dict[str, int],
    catalogue: Catalogue,
) -> str:
    """The deck as text: a header comment, cards grouped by type, then the kicker chips."""
    lines = [f"# {name}", f"# Format: {format_label(fmt)}", ""]
    known = [catalogue.card_by_code[c] for c in cards if c in catalogue.card_by_code]
    for ctype, title in (("dude", "Dudes"), ("gear", "Gear"), ("fortune", "Fortunes")):
        group = sorted((c for c in known if c.type == ctype), key=lambda c: (c.name, c.code))
        if not group:
            continue
        lines.append(f"# {title} ({sum(cards[c.code] for c in group)})")
        lines.extend(f"{cards[c.code]} {c.name} [{c.code}]" for c in group)
        lines.append("")
    if kicker_chips:
        lines.append("Kicker chips:")
        for code in sorted(kicker_chips):
            chip = catalogue.chip_by_code.get(code)
            note = f"  # {chip.color} ${chip.value}" if chip else ""
            lines.append(f"{kicker_chips[code]} [{code}]{note}")
    return "\n".join(lines).rstrip() + "\n"
