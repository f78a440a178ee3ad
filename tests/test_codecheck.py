""".ci/codecheck.py: first-party imports inside functions need a reason and fit a budget; long
functions need a `long:` comment. Checked on small modules written to a temporary directory."""

from __future__ import annotations

import importlib.util
import textwrap
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / ".ci" / "codecheck.py"
_spec = importlib.util.spec_from_file_location("codecheck", SCRIPT)
assert _spec is not None and _spec.loader is not None
codecheck = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(codecheck)


def write(tmp_path: Path, source: str, name: str = "module.py") -> Path:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(source).lstrip("\n"), encoding="utf-8")
    return path


def check(tmp_path: Path, source: str, max_lines: int = 60, import_budget: int = 40):
    """The checked file's result and the problems found in it."""
    result = codecheck.check_file(write(tmp_path, source), tmp_path)
    return result, codecheck.problems([result], max_lines, import_budget)


def function_of(lines: int, name: str = "f") -> str:
    """A function `lines` long, `def` line included."""
    return f"def {name}():\n" + "    x = 1\n" * (lines - 1)


# Imports inside functions


def test_first_party_import_in_a_function_without_a_reason_is_reported(tmp_path):
    result, found = check(
        tmp_path,
        """
        def f():
            from decks.models import Deck
            return Deck
        """,
    )
    assert len(result.imports) == 1
    assert found == [
        "module.py:2: first-party import of decks.models inside a function without a reason "
        "(a comment on its line or the line above)"
    ]


def test_a_comment_on_the_same_line_is_a_reason(tmp_path):
    result, found = check(
        tmp_path,
        """
        def f():
            from decks.models import Deck  # lazy: the app registry is not ready at import
            return Deck
        """,
    )
    assert found == []
    assert result.imports[0].reason == "# lazy: the app registry is not ready at import"


def test_a_comment_only_line_just_above_is_a_reason(tmp_path):
    result, found = check(
        tmp_path,
        """
        class C:
            def method(self):
                x = 1
                # breaks a cycle: simulator.services imports this module
                import simulator.services
                return simulator.services, x
        """,
    )
    assert found == []
    assert len(result.imports) == 1


def test_what_is_not_a_reason(tmp_path):
    """An empty comment, a comment above a blank line, and a comment above the previous import
    (it is that import's reason only)."""
    _, found = check(
        tmp_path,
        """
        def f():
            from cards import models  #

        def g():
            # lazy: too far above

            from cards import models
            x = 1  # a comment on a line that is not comment-only
            from collecting import services
            # lazy: this one has a reason
            from decks import selectors
            from decks import services
            return models, services, selectors
        """,
    )
    assert [line.split(": ")[0] for line in found] == [
        "module.py:2",
        "module.py:7",
        "module.py:9",
        "module.py:12",
    ]


def test_relative_and_first_party_submodule_imports_count(tmp_path):
    result, _ = check(
        tmp_path,
        """
        def f():
            from . import models
            from .selectors import deck_list
            import config.settings
            import os, simulator.engine
            return models, deck_list, os
        """,
    )
    assert [imp.module for imp in result.imports] == [
        ".",
        ".selectors",
        "config.settings",
        "simulator.engine",
    ]


def test_stdlib_and_third_party_imports_in_a_function_are_not_counted(tmp_path):
    result, found = check(
        tmp_path,
        """
        def f():
            import json
            from multiprocessing import get_context
            from django.db import transaction
            import cardsharp  # not first-party: only the top-level name counts
            return json, get_context, transaction, cardsharp
        """,
    )
    assert result.imports == []
    assert found == []


def test_module_level_and_type_checking_imports_are_not_in_functions(tmp_path):
    result, found = check(
        tmp_path,
        """
        from typing import TYPE_CHECKING

        from cards.models import Card

        if TYPE_CHECKING:
            from decks.models import Deck

        class C:
            from collecting import services
        """,
    )
    assert result.imports == []
    assert found == []


def test_imports_in_nested_functions_and_classes_in_functions_count(tmp_path):
    result, _ = check(
        tmp_path,
        """
        def outer():
            def inner():
                from cards import models
            class Local:
                from decks import models
            return inner, Local
        """,
    )
    assert [imp.line for imp in result.imports] == [3, 5]


def test_the_budget_counts_imports_with_and_without_a_reason(tmp_path):
    result, found = check(
        tmp_path,
        """
        def f():
            from cards import models  # lazy: one
            from decks import models  # lazy: two
            from simulator import models  # lazy: three
        """,
        import_budget=2,
    )
    assert len(result.imports) == 3
    assert found == ["in-function first-party imports: 3, over the budget of 2"]
    assert codecheck.problems([result], 60, 3) == []
    assert codecheck.summary([result], 2) == "in-function imports: 3 (budget 2), 0 without a reason"


def test_main_fails_over_the_budget_and_reports_the_count(tmp_path, capsys):
    write(tmp_path, "def f():\n    from cards import models  # lazy: one\n", "cards/a.py")
    write(tmp_path, "def g():\n    from decks import models  # lazy: two\n", "decks/b.py")
    args = ["--root", str(tmp_path), str(tmp_path / "cards"), str(tmp_path / "decks")]
    assert codecheck.main([*args, "--import-budget", "2"]) == 0
    assert capsys.readouterr().out == "in-function imports: 2 (budget 2), 0 without a reason\n"
    assert codecheck.main([*args, "--import-budget", "1"]) == 1
    assert capsys.readouterr().out.splitlines() == [
        "in-function first-party imports: 2, over the budget of 1",
        "in-function imports: 2 (budget 1), 0 without a reason",
    ]


# Long functions


def test_a_61_line_function_is_reported(tmp_path):
    result, found = check(tmp_path, function_of(61))
    assert result.functions[0].lines == 61
    assert found == ["module.py:1: function f is 61 lines (max 60) without a `# long: why` comment"]


def test_a_60_line_function_is_not(tmp_path):
    _, found = check(tmp_path, function_of(60))
    assert found == []


def test_a_long_comment_above_the_def_accepts_it(tmp_path):
    _, found = check(tmp_path, "# long: one table of the action kinds\n" + function_of(61))
    assert found == []


def test_a_long_comment_in_a_comment_block_above_or_on_the_def_line_accepts_it(tmp_path):
    block = "# long: one table, read top to bottom\n# more about it\n" + function_of(61)
    on_def = function_of(61).replace("def f():", "def f():  # long: one table")
    assert check(tmp_path, block)[1] == []
    assert check(tmp_path, on_def)[1] == []


def test_what_is_not_a_long_comment(tmp_path):
    separated = "# long: why\n\n" + function_of(61)
    without_mark = "# this one is long, on purpose\n" + function_of(61)
    in_body = function_of(61).replace("def f():\n", "def f():\n    # long: why\n", 1)
    assert len(check(tmp_path, separated)[1]) == 1
    assert len(check(tmp_path, without_mark)[1]) == 1
    assert len(check(tmp_path, in_body)[1]) == 1


def test_a_decorated_functions_length_excludes_its_decorators(tmp_path):
    source = "@decorator\n@other(\n    1,\n)\n" + function_of(60)
    result, found = check(tmp_path, source)
    assert (result.functions[0].line, result.functions[0].lines) == (5, 60)
    assert found == []


def test_a_long_comment_above_the_decorators_accepts_it(tmp_path):
    source = "# long: why\n@decorator\n" + function_of(61)
    assert check(tmp_path, source)[1] == []
    assert len(check(tmp_path, "@decorator\n" + function_of(61))[1]) == 1


def test_methods_and_nested_functions_count_on_their_own(tmp_path):
    inner = textwrap.indent(function_of(61, "inner"), "    ")
    source = "class C:\n    def method(self):\n" + textwrap.indent(inner, "    ")
    result, found = check(tmp_path, source, max_lines=60)
    assert [(f.name, f.lines) for f in result.functions] == [
        ("C.method", 62),
        ("C.method.inner", 61),
    ]
    assert [line.split(": ")[1].split(" is ")[0] for line in found] == [
        "function C.method",
        "function C.method.inner",
    ]


def test_max_lines_is_an_option(tmp_path):
    assert check(tmp_path, function_of(11), max_lines=10)[1] != []
    assert check(tmp_path, function_of(10), max_lines=10)[1] == []


# Files and the report


def test_migrations_tests_and_benchmarks_are_skipped(tmp_path):
    for name in ("app/migrations/0001.py", "app/tests/t.py", "app/benchmarks/b.py"):
        write(tmp_path, "def f():\n    from cards import models\n", name)
    kept = write(tmp_path, "x = 1\n", "app/models.py")
    assert codecheck.python_files([tmp_path / "app"]) == [kept]


def test_report_lists_the_longest_functions_and_imports_per_file_and_never_fails(tmp_path, capsys):
    write(tmp_path, function_of(70, "long_one") + function_of(3, "short"), "cards/a.py")
    write(tmp_path, "def g():\n    from decks import models\n", "decks/b.py")
    args = ["--root", str(tmp_path), str(tmp_path / "cards"), str(tmp_path / "decks")]
    assert codecheck.main([*args, "--report", "--import-budget", "0"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[:4] == [
        "longest functions (max 60 lines without `long:`):",
        "  cards/a.py:1 long_one 70",
        "  cards/a.py:71 short 3",
        "  decks/b.py:1 g 2",
    ]
    assert "    1 decks/b.py" in out
    assert out[-2:] == ["in-function imports: 1 (budget 0), 1 without a reason", "problems: 3"]


def test_a_file_that_does_not_parse_is_a_problem(tmp_path):
    _, found = check(tmp_path, "def f(:\n")
    assert found and found[0].startswith("module.py:1: cannot parse")
