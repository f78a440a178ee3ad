"""Code-health check for `make lint`: first-party imports inside functions, and long functions.

Checks the app code (cards, collecting, decks, simulator, config; not migrations, tests or
benchmarks) and prints one line per problem, `path:line: message`, exiting 1 when there is any:

1. A first-party import (a module of cards, collecting, decks, simulator or config, or a relative
   import) inside a function or method body needs a one-line reason: a comment on the import
   statement's line, or a comment-only line immediately above it. All of them, with or without a
   reason, count against a budget (--import-budget, default IMPORT_BUDGET below). Standard-library
   and third-party imports inside functions are neither reported nor counted. One import statement
   counts once, however many names it imports.
2. A function or method longer than --max-lines (from its `def` line to its last line, decorators
   excluded) needs a comment containing `long:` on its `def` line or on the comment-only line(s)
   directly above its `def` or its decorators. Nested functions count on their own, and in the
   length of the function around them.

--report prints the longest functions and the in-function first-party imports per file and per
app, and never fails: the figures to compare before and after a change.

Usage: python .ci/codecheck.py [--max-lines N] [--import-budget N] [--report] [--root DIR]
                               [PATH ...]
"""

import argparse
import ast
import io
import re
import sys
import tokenize
from dataclasses import dataclass, field
from pathlib import Path

# The budget of first-party imports inside functions: lowered as they are removed.
IMPORT_BUDGET = 13  # lower it as in-function imports go; each one left has its reason beside it
# The longest a function may be (lines, `def` to its end) without a `long:` comment.
MAX_LINES = 60
# How many functions --report lists.
REPORT_LONGEST = 15

FIRST_PARTY = ("cards", "collecting", "decks", "simulator", "config")
SKIPPED_DIRS = frozenset({"migrations", "tests", "benchmarks", "__pycache__"})
LONG_MARK = re.compile(r"\blong:")
ROOT = Path(__file__).resolve().parent.parent


@dataclass
class InFunctionImport:
    path: str
    line: int
    module: str
    reason: str | None  # the comment that gives it a reason, if any


@dataclass
class Function:
    path: str
    line: int  # the `def` line
    name: str  # qualified: Class.method, outer.inner
    lines: int
    long_reason: str | None  # the comment carrying `long:`, if any


@dataclass
class FileResult:
    path: str
    imports: list[InFunctionImport] = field(default_factory=list)
    functions: list[Function] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def comments_by_line(source: str) -> tuple[dict[int, str], set[int]]:
    """The comment on each line that has one, and which of those lines hold only a comment."""
    comments: dict[int, str] = {}
    comment_only: set[int] = set()
    lines = source.splitlines()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type != tokenize.COMMENT:
            continue
        row, col = token.start
        comments[row] = token.string
        if row <= len(lines) and not lines[row - 1][:col].strip():
            comment_only.add(row)
    return comments, comment_only


def has_text(comment: str | None) -> bool:
    return bool(comment and comment.lstrip("#").strip())


def first_party_module(node: ast.Import | ast.ImportFrom) -> str | None:
    """The first first-party module the statement imports, or None if it imports none."""
    if isinstance(node, ast.ImportFrom):
        module = node.module or ""
        if node.level:
            return "." * node.level + module
        return module if module.split(".")[0] in FIRST_PARTY else None
    for alias in node.names:
        if alias.name.split(".")[0] in FIRST_PARTY:
            return alias.name
    return None


def comment_block_above(line: int, comment_only: set[int], comments: dict[int, str]) -> list[str]:
    """The comments of the comment-only lines directly above `line` (no blank line between)."""
    block = []
    row = line - 1
    while row in comment_only:
        block.append(comments[row])
        row -= 1
    return block


def check_source(source: str, path: str) -> FileResult:
    """The in-function first-party imports and the functions of one module's source."""
    result = FileResult(path)
    try:
        tree = ast.parse(source, filename=path)
        comments, comment_only = comments_by_line(source)
    except (SyntaxError, tokenize.TokenError) as error:
        line = getattr(error, "lineno", None) or 1
        result.errors.append(f"{path}:{line}: cannot parse: {error}")
        return result

    def visit(node: ast.AST, scope: list[str], in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                end = child.end_lineno or child.lineno
                candidates = [comments.get(child.lineno, "")]
                candidates += comment_block_above(child.lineno, comment_only, comments)
                if child.decorator_list:
                    first = min(d.lineno for d in child.decorator_list)
                    candidates += comment_block_above(first, comment_only, comments)
                reason = next((c for c in candidates if LONG_MARK.search(c)), None)
                name = ".".join([*scope, child.name])
                result.functions.append(
                    Function(path, child.lineno, name, end - child.lineno + 1, reason)
                )
                visit(child, [*scope, child.name], True)
            elif isinstance(child, ast.ClassDef):
                visit(child, [*scope, child.name], in_function)
            elif isinstance(child, ast.Import | ast.ImportFrom):
                module = first_party_module(child)
                if in_function and module is not None:
                    reason = comments.get(child.lineno)
                    if not has_text(reason) and (child.lineno - 1) in comment_only:
                        reason = comments[child.lineno - 1]
                    result.imports.append(
                        InFunctionImport(
                            path, child.lineno, module, reason if has_text(reason) else None
                        )
                    )
            else:
                visit(child, scope, in_function)

    visit(tree, [], False)
    return result


def check_file(file: Path, root: Path) -> FileResult:
    try:
        shown = file.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        shown = file.as_posix()
    return check_source(file.read_text(encoding="utf-8"), shown)


def python_files(paths: list[Path]) -> list[Path]:
    """The .py files under `paths`, skipping migrations, tests, benchmarks and caches."""
    files: list[Path] = []
    for path in paths:
        if path.is_file():
            files.append(path)
            continue
        for file in sorted(path.rglob("*.py")):
            if not SKIPPED_DIRS.intersection(file.relative_to(path).parts[:-1]):
                files.append(file)
    return files


def scan(paths: list[Path], root: Path) -> list[FileResult]:
    return [check_file(file, root) for file in python_files(paths)]


def problems(results: list[FileResult], max_lines: int, import_budget: int) -> list[str]:
    """One line per problem, `path:line: message`; the budget's, if over, last."""
    found: list[str] = []
    for result in results:
        found += result.errors
        in_file: list[tuple[int, str]] = []
        for imp in result.imports:
            if imp.reason is None:
                in_file.append(
                    (
                        imp.line,
                        f"{imp.path}:{imp.line}: first-party import of {imp.module} inside a "
                        "function without a reason (a comment on its line or the line above)",
                    )
                )
        for function in result.functions:
            if function.lines > max_lines and function.long_reason is None:
                in_file.append(
                    (
                        function.line,
                        f"{function.path}:{function.line}: function {function.name} is "
                        f"{function.lines} lines (max {max_lines}) without a `# long: why` comment",
                    )
                )
        found += [message for _, message in sorted(in_file)]
    count = sum(len(result.imports) for result in results)
    if count > import_budget:
        found.append(
            f"in-function first-party imports: {count}, over the budget of {import_budget}"
        )
    return found


def summary(results: list[FileResult], import_budget: int) -> str:
    imports = [imp for result in results for imp in result.imports]
    without = sum(1 for imp in imports if imp.reason is None)
    return (
        f"in-function imports: {len(imports)} (budget {import_budget}), {without} without a reason"
    )


def report(results: list[FileResult], max_lines: int) -> list[str]:
    """The longest functions, and the in-function first-party imports per file and per app."""
    functions = sorted(
        (f for result in results for f in result.functions),
        key=lambda f: (-f.lines, f.path, f.line),
    )
    lines = [f"longest functions (max {max_lines} lines without `long:`):"]
    for f in functions[:REPORT_LONGEST]:
        lines.append(f"  {f.path}:{f.line} {f.name} {f.lines}")
    per_file = sorted(
        ((len(result.imports), result.path) for result in results if result.imports),
        key=lambda item: (-item[0], item[1]),
    )
    lines.append("in-function first-party imports per file:")
    lines += [f"  {count:3d} {path}" for count, path in per_file]
    per_app: dict[str, int] = {}
    for count, path in per_file:
        app = path.split("/")[0]
        per_app[app] = per_app.get(app, 0) + count
    lines.append("in-function first-party imports per app:")
    lines += [
        f"  {count:3d} {app}"
        for app, count in sorted(per_app.items(), key=lambda item: (-item[1], item[0]))
    ]
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Code-health check: first-party imports inside functions, long functions."
    )
    parser.add_argument(
        "paths",
        nargs="*",
        type=Path,
        help=f"files or directories to check (default: {', '.join(FIRST_PARTY)} under --root)",
    )
    parser.add_argument(
        "--root", type=Path, default=ROOT, help="the project root (default: the script's parent's)"
    )
    parser.add_argument(
        "--max-lines",
        type=int,
        default=MAX_LINES,
        help=f"longest function allowed without a `long:` comment (default {MAX_LINES})",
    )
    parser.add_argument(
        "--import-budget",
        type=int,
        default=IMPORT_BUDGET,
        help=f"most first-party imports inside functions (default {IMPORT_BUDGET})",
    )
    parser.add_argument(
        "--report",
        action="store_true",
        help="print the longest functions and in-function imports per file and app; never fails",
    )
    args = parser.parse_args(argv)
    paths = args.paths or [args.root / app for app in FIRST_PARTY]
    results = scan(paths, args.root)
    found = problems(results, args.max_lines, args.import_budget)
    if args.report:
        print("\n".join(report(results, args.max_lines)))
        print(summary(results, args.import_budget))
        print(f"problems: {len(found)}")
        return 0
    for line in found:
        print(line)
    print(summary(results, args.import_budget))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
