"""Every clause of every game's rules text has an entry in its clause index, and every test and
piece of engine the index names exists (docs/rules/<game>.md, "Clause index").

A clause is a block of the rules text `../shared/rules/<game>.md`: a paragraph (lines up to a
blank line) or a list item (a line that starts with `-`, `*`, `•` or `1.` starts a new one);
headings (`#`) and blocks with no lower-case letter (titles such as "SETUP") are not clauses.
Clauses are numbered from 1 in the order of the text.

An index entry is a list item `- **N** "opening" — ...` or `- **N–M** "opening" — ...` (it may
run on over indented lines). The entries' numbers and ranges must cover 1 to the last clause,
each once, in order; "opening" must be how clause N begins. An entry names the engine code that
plays the clause (`drifter/state.py::DrifterState._starting_hand`, relative to
simulator/engine/) and the tests that show it (`tests/...py::test_name`), or says
`Interpretation:` or `No rule:` and why.
"""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(settings.BASE_DIR)
RULES = ROOT.parent / "shared" / "rules"
DOCS = ROOT / "docs" / "rules"
GAMES = ["high-stakes-drifter", "gunfighter", "duel", "quickdraw", "tabletown"]

ITEM = re.compile(r"^\s*(?:[-*•]|\d+\.)\s+")
ENTRY = re.compile(r'^- \*\*(\d+)(?:–(\d+))?\*\* "(.+?)" — (.*)$', re.DOTALL)
REF = re.compile(r"`([^`\s]+\.py::[\w.:]+)`")
REASON = re.compile(r"\b(?:Interpretation|No rule):\s+\S+(?:\s+\S+){2}")


def normal(text: str) -> str:
    """Text as compared: no markdown emphasis or escapes, plain quotes, single spaces."""
    for fancy, plain in (("“", '"'), ("”", '"'), ("‘", "'"), ("’", "'")):
        text = text.replace(fancy, plain)
    text = re.sub(r"[*\\]", "", text)
    return " ".join(text.split()).lower()


def clauses(text: str) -> list[str]:
    """The clauses of a rules text, in order (see the module docstring)."""
    blocks: list[str] = []
    lines: list[str] = []
    for line in [*text.splitlines(), ""]:
        stripped = line.strip()
        if not stripped or stripped.startswith("#") or ITEM.match(line):
            if lines:
                blocks.append(" ".join(lines))
                lines = []
            if not stripped or stripped.startswith("#"):
                continue
        lines.append(stripped)
    return [b for b in blocks if re.search(r"[a-z]", b)]


def index_entries(doc: str) -> list[tuple[int, int, str, str]]:
    """(first, last, opening, the rest) of each entry of the doc's "Clause index" section."""
    assert "\n## Clause index" in doc, "the doc has no Clause index section"
    section = doc.split("\n## Clause index", 1)[1].split("\n## ", 1)[0]
    entries: list[str] = []
    for line in section.splitlines():
        if line.startswith("- **"):
            entries.append(line)
        elif entries and line.startswith("  "):
            entries[-1] += " " + line.strip()
    out = []
    for entry in entries:
        match = ENTRY.match(entry)
        assert match, f"not an index entry: {entry[:80]!r}"
        first, last, opening, rest = match.groups()
        out.append((int(first), int(last or first), opening, rest))
    return out


@cache
def definitions(path: Path) -> frozenset[str]:
    """Every `name` and `Class.name` a module defines (functions, classes, assignments)."""
    names: set[str] = set()

    def named(node: ast.AST) -> list[str]:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            return [node.name]
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            return [node.target.id]
        if isinstance(node, ast.Assign):
            targets = [
                e for t in node.targets for e in (t.elts if isinstance(t, ast.Tuple) else [t])
            ]
            return [t.id for t in targets if isinstance(t, ast.Name)]
        return []

    for node in ast.parse(path.read_text()).body:
        for name in named(node):
            names.add(name)
            if isinstance(node, ast.ClassDef):
                names.update(f"{name}.{inner}" for child in node.body for inner in named(child))
    return frozenset(names)


def exists(ref: str) -> bool:
    path, name = ref.split("::", 1)
    file = ROOT / path if path.startswith("tests/") else ROOT / "simulator" / "engine" / path
    return file.is_file() and name.replace("::", ".") in definitions(file)


def _read(game: str) -> tuple[list[str], list[tuple[int, int, str, str]]]:
    text = RULES / f"{game}.md"
    if not text.is_file():
        pytest.skip(f"the rules texts are not beside the repository ({RULES})")
    return clauses(text.read_text()), index_entries((DOCS / f"{game}.md").read_text())


@pytest.mark.parametrize("game", GAMES)
def test_every_clause_of_the_rules_text_has_one_entry_in_order(game):
    texts, entries = _read(game)
    covered = [n for first, last, _, _ in entries for n in range(first, last + 1)]
    assert covered == list(range(1, len(texts) + 1))


@pytest.mark.parametrize("game", GAMES)
def test_each_entry_opens_with_the_words_of_its_first_clause(game):
    texts, entries = _read(game)
    wrong = [
        (first, opening, texts[first - 1][:60])
        for first, _, opening, _ in entries
        if first <= len(texts) and not normal(texts[first - 1]).startswith(normal(opening))
    ]
    assert wrong == []


@pytest.mark.parametrize("game", GAMES)
def test_each_entry_names_its_code_and_tests_or_its_reason(game):
    _, entries = _read(game)
    bare = []
    for first, _, _, rest in entries:
        refs = REF.findall(rest)
        tests = [r for r in refs if r.startswith("tests/")]
        code = [r for r in refs if not r.startswith("tests/")]
        if not ((tests and code) or REASON.search(rest)):
            bare.append(first)
    assert bare == []


@pytest.mark.parametrize("game", GAMES)
def test_every_test_and_piece_of_engine_the_index_names_exists(game):
    _, entries = _read(game)
    refs = [ref for _, _, _, rest in entries for ref in REF.findall(rest)]
    assert refs
    assert [ref for ref in refs if not exists(ref)] == []


def test_the_clause_reader_counts_paragraphs_and_list_items_but_not_headings_or_titles():
    text = "# Title\n\nSETUP\n\nFirst line\nrunning on.\n- an item\n  going on\n1. a step\n\n"
    assert clauses(text) == ["First line running on.", "- an item going on", "1. a step"]
