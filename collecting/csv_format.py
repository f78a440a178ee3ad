"""The collection CSV format: parsing (no database) and writing. docs/collections.md has the
format; `collecting.services.collection_import_csv` checks codes and writes.

Two shapes, told apart by the header:

* full: ``set_code,collector_number,name,condition,quantity[,notes][,acquired_on]`` — a kicker
  chip row has ``K01`` as its collector number and no condition;
* short: ``code,qty[,condition]`` (the header may be left out), e.g. ``HSD-012,3``, ``HSD-K01,1``.

Parsing never stops at the first bad row: it returns every problem with its line and column,
so an import can be refused as a whole with a complete report.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import itertools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from collecting.models import MAX_QUANTITY, Condition

MAX_BYTES = 5 * 1024 * 1024
MAX_ROWS = 100_000
# A report of a million errors helps nobody; past this many the parse stops and says so.
MAX_ERRORS = 1000

FULL_COLUMNS = ("set_code", "collector_number", "name", "condition", "quantity", "notes")
FULL_OPTIONAL = ("name", "condition", "notes", "acquired_on")
SHORT_COLUMNS = ("code", "qty")
ALIASES = {
    "set": "set_code",
    "number": "collector_number",
    "collector_no": "collector_number",
    "no": "collector_number",
    "quantity": "qty",  # short form; the full form maps qty -> quantity below
    "card_code": "code",
}
CODE_RE = re.compile(r"^[A-Z0-9]+-(K?)[0-9]+$")
SET_RE = re.compile(r"^[A-Z0-9]{1,8}$")
NUMBER_RE = re.compile(r"^(K?)([0-9]{1,4})$")
# Spreadsheets treat cells starting with these as formulas (CSV injection); export prefixes a
# quote and import takes it off again, so the round trip is exact.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

CONDITION_WORDS: dict[str, str] = {}
for _value, _label in Condition.choices:
    CONDITION_WORDS[_value] = _value
    CONDITION_WORDS[str(_label).lower()] = _value
CONDITION_WORDS.update(
    {"m": "mint", "nm": "near_mint", "ex": "excellent", "gd": "good", "g": "good"}
    | {"lp": "light_played", "pl": "played", "p": "poor", "po": "poor"}
)


@dataclass(frozen=True, slots=True)
class RowError:
    """One problem: the physical line (1 is the header) and the column it is in."""

    line: int
    column: str | None
    code: str
    detail: str

    def as_error(self) -> dict[str, Any]:
        """The API's error shape, with the line and column added."""
        return {
            "code": self.code,
            "detail": self.detail,
            "attr": self.column,
            "line": self.line,
            "column": self.column,
        }


@dataclass(frozen=True, slots=True)
class ParsedRow:
    """One data row, syntactically valid. `code` is a card code or (if `is_chip`) a chip code."""

    line: int
    code: str
    is_chip: bool
    name: str
    condition: str
    quantity: int
    notes: str
    acquired_on: dt.date | None


@dataclass(frozen=True)
class ParseResult:
    rows: list[ParsedRow]
    errors: list[RowError]
    shape: str  # "full" or "short"


def unsafe_cell(value: str) -> str:
    """Undo `safe_cell`: a leading quote before a formula character was added on export."""
    if len(value) > 1 and value[0] == "'" and (value[1] in FORMULA_STARTS or value[1] == "'"):
        return value[1:]
    return value


def safe_cell(value: Any) -> Any:
    """A cell a spreadsheet will not run as a formula: prefix `'` where needed."""
    if (
        isinstance(value, str)
        and value
        and (
            value.startswith(FORMULA_STARTS)
            # a cell that already starts with a quote before a formula character keeps it, so
            # that import (which removes one quote) gives back exactly this text
            or (value[0] == "'" and len(value) > 1 and value[1] in (*FORMULA_STARTS, "'"))
        )
    ):
        return "'" + value
    return value


def _decode(data: bytes) -> tuple[str | None, RowError | None]:
    if b"\x00" in data:
        return None, RowError(1, None, "binary_file", "This is a binary file, not a CSV file.")
    try:
        # utf-8-sig drops the byte-order mark spreadsheets like to write
        return data.decode("utf-8-sig"), None
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        return None, RowError(
            line, None, "not_utf8", f"The file is not UTF-8 text (bad byte at offset {exc.start})."
        )


def _header(cells: list[str]) -> tuple[str, dict[str, int], list[RowError]]:
    """The shape and column positions from the header row."""
    names = [ALIASES.get(n, n) for n in (re.sub(r"[\s-]+", "_", c.strip().lower()) for c in cells)]
    errors: list[RowError] = []
    required: tuple[str, ...]
    if "code" in names:
        shape, allowed, required = "short", {"code", "qty", "condition"}, ("code", "qty")
    else:
        shape = "full"
        names = ["quantity" if n == "qty" else n for n in names]
        allowed = {*FULL_COLUMNS, "acquired_on"}
        required = ("set_code", "collector_number", "quantity")
    positions: dict[str, int] = {}
    for i, name in enumerate(names):
        if not name:
            continue
        if name not in allowed:
            errors.append(RowError(1, name, "unknown_column", f"Unknown column {cells[i]!r}."))
        elif name in positions:
            errors.append(RowError(1, name, "duplicate_column", f"Column {name} appears twice."))
        else:
            positions[name] = i
    for name in required:
        if name not in positions:
            errors.append(RowError(1, name, "missing_column", f"The header has no {name} column."))
    return shape, positions, errors


def _quantity(raw: str, line: int, column: str) -> tuple[int | None, RowError | None]:
    raw = raw.strip()
    if not re.fullmatch(r"[+-]?[0-9]{1,12}", raw):
        return None, RowError(line, column, "invalid_quantity", f"{raw!r} is not a whole number.")
    value = int(raw)
    if not 1 <= value <= MAX_QUANTITY:
        return None, RowError(
            line, column, "quantity_out_of_range", f"{value} is not between 1 and {MAX_QUANTITY}."
        )
    return value, None


def _row(
    cells: list[str], line: int, shape: str, pos: dict[str, int]
) -> tuple[ParsedRow | None, list[RowError]]:
    """One data row as a ParsedRow, or every problem of it (in the order of its columns)."""
    errors = _row_shape_errors(cells, line, shape, pos)
    if errors:
        return None, errors

    def cell(name: str) -> str:
        i = pos.get(name)
        return unsafe_cell(cells[i].strip()) if i is not None and i < len(cells) else ""

    if shape == "short":
        code, is_chip, error = _short_code(cell("code").upper(), line)
        errors += [error] if error else []
        qty_col = "qty"
    else:
        code, is_chip, code_errors = _full_code(
            cell("set_code").upper(), cell("collector_number").upper(), line
        )
        errors += code_errors
        qty_col = "quantity"
    quantity, error = _quantity(cell(qty_col), line, qty_col)
    condition, condition_error = _condition(cell("condition"), is_chip, line)
    notes = cell("notes")
    notes_error = (
        RowError(line, "notes", "notes_too_long", "Notes hold at most 500 characters.")
        if len(notes) > 500
        else None
    )
    acquired_on, date_error = _acquired_on(cell("acquired_on"), line)
    errors += [e for e in (error, condition_error, notes_error, date_error) if e]
    if errors:
        return None, errors
    assert quantity is not None  # _quantity gave an error otherwise
    return (
        ParsedRow(
            line=line,
            code=code,
            is_chip=is_chip,
            name=cell("name"),
            condition=condition,
            quantity=quantity,
            notes=notes,
            acquired_on=acquired_on,
        ),
        [],
    )


def _row_shape_errors(
    cells: list[str], line: int, shape: str, pos: dict[str, int]
) -> list[RowError]:
    """A row with non-empty cells past the header's width, or that ends before a required
    cell."""
    errors = []
    width = max(pos.values()) + 1
    if len(cells) > width and any(c.strip() for c in cells[width:]):
        errors.append(RowError(line, None, "extra_cells", f"{len(cells)} cells, expected {width}."))
    missing = [n for n, i in pos.items() if i >= len(cells)]
    required = ("code", "qty") if shape == "short" else ("set_code", "collector_number", "quantity")
    for name in required:
        if name in missing:
            errors.append(
                RowError(line, name, "missing_cell", f"The row ends before its {name} cell.")
            )
    return errors


def _short_code(code: str, line: int) -> tuple[str, bool, RowError | None]:
    """The short form's `code` cell: the code, whether it is a kicker chip's, or the problem."""
    match = CODE_RE.match(code)
    if not match:
        return code, False, RowError(line, "code", "invalid_code", f"{code!r} is not a card code.")
    return code, bool(match.group(1)), None


def _full_code(set_code: str, number: str, line: int) -> tuple[str, bool, list[RowError]]:
    """The full form's set code and collector number as a code (a card's or, for `K01`, a
    kicker chip's) and whether it is a chip's; "" and the problems when either is bad."""
    errors = []
    if not SET_RE.match(set_code):
        errors.append(
            RowError(line, "set_code", "invalid_set_code", f"{set_code!r} is not a set code.")
        )
    match = NUMBER_RE.match(number)
    if not match:
        errors.append(
            RowError(
                line,
                "collector_number",
                "invalid_number",
                f"{number!r} is not a collector number (e.g. 12, or K01 for a kicker chip).",
            )
        )
    elif SET_RE.match(set_code):
        is_chip = bool(match.group(1))
        n = int(match.group(2))
        return (f"{set_code}-K{n:02d}" if is_chip else f"{set_code}-{n:03d}"), is_chip, errors
    return "", False, errors


def _condition(raw: str, is_chip: bool, line: int) -> tuple[str, RowError | None]:
    """A card's condition in any of its spellings (blank: near mint); a chip has none."""
    condition = CONDITION_WORDS.get(raw.lower().replace("-", " ").strip(), "")
    if is_chip:
        if raw:
            return condition, RowError(
                line, "condition", "chip_condition", "Kicker chips have no condition."
            )
        return condition, None
    if not raw:
        return Condition.NEAR_MINT, None
    if not condition:
        return condition, RowError(
            line,
            "condition",
            "invalid_condition",
            f"{raw!r} is not a condition (Mint, Near Mint, Excellent, Good, "
            "Light Played, Played, Poor).",
        )
    return condition, None


def _acquired_on(raw: str, line: int) -> tuple[dt.date | None, RowError | None]:
    if not raw:
        return None, None
    try:
        return dt.date.fromisoformat(raw), None
    except ValueError:
        return None, RowError(
            line, "acquired_on", "invalid_date", "acquired_on is a date like 2005-06-30."
        )


def parse(data: bytes) -> ParseResult:
    """Every valid row and every problem of a collection CSV file (bytes as uploaded)."""
    if len(data) > MAX_BYTES:
        return ParseResult(
            [],
            [RowError(0, None, "file_too_large", f"The file is over {MAX_BYTES // 2**20} MB.")],
            "full",
        )
    text, error = _decode(data)
    if error:
        return ParseResult([], [error], "full")
    assert text is not None  # _decode gives text or an error
    if not text.strip():
        return ParseResult([], [RowError(1, None, "empty_file", "The file is empty.")], "full")
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    rows: list[ParsedRow] = []
    errors: list[RowError] = []
    shape = "full"
    positions: dict[str, int] = {}
    data_rows = 0
    try:
        for cells in reader:
            line = reader.line_num
            if not any(c.strip() for c in cells):
                continue  # blank lines are allowed anywhere
            if not positions and shape == "full" and not errors:
                first = cells[0].strip().upper()
                if CODE_RE.match(unsafe_cell(first)):
                    # a header-less short file: its first line is already data
                    shape, positions = "short", {"code": 0, "qty": 1}
                    if len(cells) > 2:
                        positions["condition"] = 2
                else:
                    shape, positions, header_errors = _header(cells)
                    errors.extend(header_errors)
                    if header_errors:
                        break  # without a good header no row can be read
                    continue
            data_rows += 1
            if data_rows > MAX_ROWS:
                errors.append(
                    RowError(line, None, "too_many_rows", f"More than {MAX_ROWS:,} rows.")
                )
                break
            row, row_errors = _row(cells, line, shape, positions)
            if row is not None:
                rows.append(row)
            errors.extend(row_errors)
            if len(errors) >= MAX_ERRORS:
                errors.append(
                    RowError(line, None, "too_many_errors", "Stopped after 1000 problems.")
                )
                break
    except csv.Error as exc:
        errors.append(
            RowError(reader.line_num, None, "malformed_csv", f"Broken CSV: {exc} (truncated?)")
        )
    if not rows and not errors:
        errors.append(RowError(1, None, "no_rows", "The file has a header but no rows."))
    return ParseResult(rows, errors, shape)


def write(rows: Iterable[Iterable[Any]], *, header: Iterable[str]) -> Iterator[str]:
    """CSV text (CRLF, formula-safe), one chunk per row, header first."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    for row in itertools.chain([header], rows):
        writer.writerow([safe_cell(v) for v in row])
        yield buffer.getvalue()
        buffer.seek(0)
        buffer.truncate()
