"""The card search syntax: a query string compiled to a Django `Q` plus an ordering.

Shared by the card pages and the API's `?q=`; docs/search.md is the user's reference. The
grammar, lowest precedence first (NOT binds tighter than AND, AND tighter than OR)::

    query    := or_expr? END
    or_expr  := and_expr ("or" and_expr)*
    and_expr := unary (["and"] unary)*          juxtaposition is AND
    unary    := "-"* primary
    primary  := "(" or_expr ")" | term
    term     := WORD | PHRASE | KEYWORD OP (WORD | PHRASE)

`sort:` terms may stand wherever a term may; they order rather than filter, so they cannot be
negated or be a whole side of an `or`.

Negation is pushed down to the terms (De Morgan), so every term knows how to deny itself: a
stat comparison denies itself with the complementary comparison (`-skill>5` is `skill<=5`),
which keeps it false for cards without that stat (gear, fortunes), as on Scryfall.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Iterator
from dataclasses import dataclass
from typing import NamedTuple

from django.db import connections
from django.db.models import F, Q, QuerySet
from django.db.models.expressions import OrderBy

from cards.models import CardSet

MAX_LENGTH = 500
MAX_TERMS = 50
MAX_DEPTH = 10
MAX_NUMBER = 999_999

__all__ = ["CardQuery", "QuerySyntaxError", "parse_query"]


class QuerySyntaxError(ValueError):
    """A query the parser cannot read: `message` for people, `position` (0-based) in the text."""

    def __init__(self, message: str, position: int) -> None:
        super().__init__(f"{message} (at position {position})")
        self.message = message
        self.position = position


@dataclass(frozen=True)
class CardQuery:
    """A compiled search: the filter and the ordering (empty unless the query had `sort:`)."""

    q: Q
    ordering: tuple[str, ...] = ()

    def apply(self, queryset: QuerySet) -> QuerySet:
        """Filter and order a Card queryset.

        Every lookup is on the card or its set (a forward foreign key), so no join can repeat a
        row and `.distinct()` is never needed. Stats sort with NULLs (non-dudes) last either way.
        `s:` and `f:` terms are looked up here (`_resolve`): one small query per distinct set
        code, one for the catalogue's factions. Raises `QuerySyntaxError` for an `f:` that names
        no faction or could be more than one.
        """
        queryset = queryset.filter(_resolve(self.q, queryset))
        if self.ordering:
            queryset = queryset.order_by(*(_order_by(field) for field in self.ordering))
        return queryset


def _resolve(q: Q, queryset: QuerySet) -> Q:
    """`q` with each `s:` lookup (`card_set__code__iexact`) replaced by its sets' ids and each
    `f:` term by the faction it names (`faction__in`).

    Joined to the set by code, the card filter leaves PostgreSQL to guess how many cards the set
    has (the average over all sets), and a set holding most of the catalogue got the wrong plan:
    `s:GEN t:fortune cost<3` walked all 20,000 of its cards to count 784. Given the id, the
    planner knows the set's share from the column's statistics (`benchmarks/catalogue.py`
    measures both; the figures are in docs/search.md). An unknown code becomes an empty `__in`,
    which matches nothing (its negation everything) without running a query.
    """
    using = queryset.db
    ids: dict[str, list[int]] = {}
    factions: list[str] = []

    def rewrite(node: Q) -> Q:
        clone = node.copy()
        clone.children = [
            rewrite(child) if isinstance(child, Q) else resolve(*child)  # type: ignore[misc]
            for child in node.children
        ]
        return clone

    def resolve(lookup: str, value):
        if lookup == _FACTION:
            if not factions:
                factions.extend(_factions(queryset))
            return "faction__in", value.resolve(factions)
        if lookup != _SET_CODE:
            return lookup, value
        if value not in ids:
            ids[value] = _set_ids(value, using)
        return "card_set__in", ids[value]

    return rewrite(q)


@dataclass(frozen=True)
class FactionTerm:
    """What an `f:` term typed, and where: resolved against the catalogue's factions.

    A faction matches when the value is its whole name, ignoring case and spaces (`f:"law
    dogs"`); failing that, when the value begins the name or one of its words (`f:law`,
    `f:dogs`, `f:cav`) and only one faction does. `f:law` is Law Dogs, never Outlaws, and a
    value that could be two factions, or none, is an error naming them (docs/search.md).
    """

    value: str
    position: int

    def resolve(self, factions: list[str]) -> list[str]:
        """The faction names (as stored: one, or its spellings in different case) it means."""
        wanted = _fold(self.value)
        exact = [f for f in factions if _fold(f) == wanted]
        if exact:
            return exact
        begun = [f for f in factions if any(w.startswith(wanted) for w in _words(f))]
        names = sorted({_fold(f) for f in begun})
        if len(names) == 1:
            return begun
        if names:
            shown = sorted(set(begun), key=str.casefold)
            raise QuerySyntaxError(
                f"Faction '{self.value}' could be {_either(shown)}; type more of its name.",
                self.position,
            )
        known = sorted(set(factions), key=str.casefold)
        listed = f"the factions are {_either(known, 'and')}" if known else "no card has one"
        raise QuerySyntaxError(f"No faction is called '{self.value}'; {listed}.", self.position)


def _fold(text: str) -> str:
    return " ".join(text.casefold().split())


def _words(faction: str) -> list[str]:
    folded = _fold(faction)
    return [folded, *folded.split(" ")]


def _either(names: list[str], joiner: str = "or") -> str:
    names = names[:12] + (["…"] if len(names) > 12 else [])
    return ", ".join(names[:-1]) + f" {joiner} " + names[-1] if len(names) > 1 else names[0]


def _factions(queryset: QuerySet) -> list[str]:
    """Every faction in the catalogue (a walk of the faction index: a few rows)."""
    return list(
        queryset.model._default_manager.db_manager(queryset.db)
        .exclude(faction="")
        .order_by()
        .values_list("faction", flat=True)
        .distinct()
    )


def _set_ids(code: str, using: str) -> list[int]:
    """The ids of the sets whose code is `code` ignoring case, as `code__iexact` finds them on
    PostgreSQL and SQLite (`UPPER(code) = UPPER(%s)`, ASCII case on SQLite), by plain SQL: the
    same query through the ORM costs a search several times more (`benchmarks/catalogue.py`;
    the figures are in docs/performance.md, "Card search")."""
    connection = connections[using]
    table, pk, column = (
        connection.ops.quote_name(name)
        for name in (CardSet._meta.db_table, CardSet._meta.pk.column or "id", "code")
    )
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {pk} FROM {table} WHERE UPPER({column}) = UPPER(%s)", [code])
        return [row[0] for row in cursor.fetchall()]


def parse_query(text: str) -> CardQuery:
    """Compile a search string; raise `QuerySyntaxError` if it is malformed or too big."""
    if len(text) > MAX_LENGTH:
        raise QuerySyntaxError(f"The query is longer than {MAX_LENGTH} characters.", MAX_LENGTH)
    return _Parser(text).parse()


# --- Vocabulary ------------------------------------------------------------------------------

_KEYWORDS = {"t": "type", "r": "rarity", "s": "set", "f": "faction", "o": "oracle", "n": "name"}
_KEYWORDS |= {keyword: keyword for keyword in _KEYWORDS.values()}
_KEYWORDS |= {keyword: keyword for keyword in ("sort", "cost", "smarts", "skill", "luck", "kl")}
_STATS = {
    "cost": "cost",
    "smarts": "smarts",
    "skill": "skill",
    "luck": "luck",
    "kl": "kicker_limit",
}
_CONTAINS = {
    "oracle": "text__icontains",
    "name": "name__icontains",
}
_TYPES = {
    "dude": Q(type="dude"),
    "gear": Q(type="gear"),
    "fortune": Q(type="fortune"),
    "copy": Q(is_copy=True),
}
_RARITIES = {name: name for name in ("common", "uncommon", "rare", "fixed", "promo")}
_RARITIES |= {name[0]: name for name in _RARITIES}  # c, u, r, f, p
_SORTS = {
    "name": ("name",),
    "cost": ("cost",),
    "smarts": ("smarts",),
    "skill": ("skill",),
    "luck": ("luck",),
    "kl": ("kicker_limit",),
    "type": ("type",),
    "faction": ("faction",),
    "set": ("set_order", "card_set__code", "number"),
}
_NULLABLE = {"smarts", "skill", "luck", "kicker_limit"}
_SET_CODE = "card_set__code__iexact"  # `s:`; CardQuery.apply looks the sets' ids up
_FACTION = "faction__named"  # `f:` (a FactionTerm); CardQuery.apply resolves it, no SQL lookup
_LOOKUPS = {"<": "lt", "<=": "lte", ">": "gt", ">=": "gte"}
# The comparison that is true exactly when the other is false (for cards that have the stat).
_COMPLEMENT = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "=": "!=", "!=": "="}
_OPERATORS = ("<=", ">=", "!=", "<", ">", "=", ":")


def _order_by(field: str) -> str | OrderBy:
    name = field.removeprefix("-")
    if name not in _NULLABLE:
        return field
    return F(name).desc(nulls_last=True) if field.startswith("-") else F(name).asc(nulls_last=True)


# --- Tokenizer -------------------------------------------------------------------------------


class _Token(NamedTuple):
    """One lexeme. Terms carry keyword ("" for a bare name), operator and value positions."""

    kind: str  # "(" ")" "-" "or" "and" "term" "end"
    pos: int
    keyword: str = ""
    op: str = ""
    op_pos: int = 0
    value: str = ""
    value_pos: int = 0


def _tokenize(text: str) -> Iterator[_Token]:
    """Split the text into tokens; quotes, keywords and term count are checked here."""
    i, terms = 0, 0
    while i < len(text):
        char = text[i]
        if char.isspace():
            i += 1
            continue
        if char in "()-":
            yield _Token(char, i)
            i += 1
            continue
        start = i
        if char == '"':
            value, i = _read_phrase(text, i)
            token = _Token("term", start, value=value, value_pos=start)
        else:
            while i < len(text) and not text[i].isspace() and text[i] not in '()"':
                i += 1
            token = _word(text, start, i)
            if token.op and not token.value:  # `o:"a phrase"`: the value is the next phrase
                if i < len(text) and text[i] == '"':
                    value, i = _read_phrase(text, i)
                    token = token._replace(value=value, value_pos=token.op_pos + len(token.op))
                else:
                    raise QuerySyntaxError(
                        f"'{text[start:i]}' needs a value after '{token.op}'.", token.op_pos
                    )
        if token.kind == "term":
            terms += 1
            if terms > MAX_TERMS:
                raise QuerySyntaxError(f"The query has more than {MAX_TERMS} terms.", start)
        yield token
    yield _Token("end", len(text))


def _word(text: str, start: int, end: int) -> _Token:
    """Classify an unquoted word: `or`/`and`, a `keyword<op>value` term, or a bare name."""
    word = text[start:end]
    if word.lower() in ("or", "and"):
        return _Token(word.lower(), start)
    for i, char in enumerate(word):
        if char in ":<>=" or word.startswith("!=", i):
            break
    else:
        return _Token("term", start, value=word, value_pos=start)
    keyword = word[:i]
    if not (keyword.isascii() and keyword.isalpha()):  # `12:30`, `:)` are just names
        return _Token("term", start, value=word, value_pos=start)
    op = next(op for op in _OPERATORS if word.startswith(op, i))
    if keyword.lower() not in _KEYWORDS:
        raise QuerySyntaxError(f"Unknown keyword '{keyword}'.", start)
    value_pos = start + i + len(op)
    return _Token(
        "term",
        start,
        keyword=_KEYWORDS[keyword.lower()],
        op=op,
        op_pos=start + i,
        value=text[value_pos:end],
        value_pos=value_pos,
    )


def _read_phrase(text: str, start: int) -> tuple[str, int]:
    """Read a phrase from its opening quote at `start`; return it and the index past its end.

    A backslash escapes a double quote or a backslash inside the phrase.
    """
    chars: list[str] = []
    i = start + 1
    while i < len(text):
        char = text[i]
        if char == '"':
            if not chars:
                raise QuerySyntaxError("Empty quotes.", start)
            return "".join(chars), i + 1
        if char == "\\" and i + 1 < len(text) and text[i + 1] in '"\\':
            i += 1
            char = text[i]
        chars.append(char)
        i += 1
    raise QuerySyntaxError("Unclosed quote.", start)


# --- Parser ----------------------------------------------------------------------------------


class _Cond(NamedTuple):
    """A condition and its negation, both built up front so `-` never needs a Q's `~` on stats."""

    yes: Q
    no: Q

    def __invert__(self) -> _Cond:
        return _Cond(self.no, self.yes)


def _all(conds: list[_Cond]) -> _Cond:
    return _Cond(
        functools.reduce(operator.and_, (c.yes for c in conds)),
        functools.reduce(operator.or_, (c.no for c in conds)),
    )


def _any(conds: list[_Cond]) -> _Cond:
    return _Cond(
        functools.reduce(operator.or_, (c.yes for c in conds)),
        functools.reduce(operator.and_, (c.no for c in conds)),
    )


_STARTS_TERM = {"term", "(", "-"}


class _Parser:
    """Recursive descent over the token stream. `sort:` terms are collected, not filtered on."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = list(_tokenize(text))
        self.at = 0
        self.depth = 0
        self.sorts: list[tuple[str, int]] = []  # (field, position)

    def parse(self) -> CardQuery:
        cond = None if self.peek.kind == "end" else self.or_expr()
        if self.peek.kind == ")":
            raise QuerySyntaxError("Unmatched ')'.", self.peek.pos)
        return CardQuery(q=cond.yes if cond else Q(), ordering=self.ordering())

    @property
    def peek(self) -> _Token:
        return self.tokens[self.at]

    def take(self) -> _Token:
        token = self.tokens[self.at]
        self.at += 1
        return token

    def or_expr(self) -> _Cond | None:
        operands = [self.or_operand()]
        while self.peek.kind == "or":
            op = self.take()
            if self.peek.kind not in _STARTS_TERM:
                raise QuerySyntaxError("'or' needs a term on each side.", op.pos)
            operands.append(self.or_operand())
        if len(operands) == 1:
            return operands[0][0]
        for cond, sort_pos in operands:
            if cond is None:  # `x or sort:cost` would have to mean "everything"
                raise QuerySyntaxError("sort: cannot be a side of 'or' on its own.", sort_pos)
        return _any([cond for cond, _ in operands if cond is not None])

    def or_operand(self) -> tuple[_Cond | None, int]:
        """An and_expr, and where its first sort: term is (an and_expr of only sorts is None)."""
        first_sort = len(self.sorts)
        cond = self.and_expr()
        return cond, self.sorts[first_sort][1] if len(self.sorts) > first_sort else -1

    def and_expr(self) -> _Cond | None:
        conds = [self.unary()]
        while self.peek.kind in _STARTS_TERM or self.peek.kind == "and":
            if self.peek.kind == "and":
                op = self.take()
                if self.peek.kind not in _STARTS_TERM:
                    raise QuerySyntaxError("'and' needs a term on each side.", op.pos)
            conds.append(self.unary())
        present = [c for c in conds if c]
        return _all(present) if present else None

    def unary(self) -> _Cond | None:
        negations: list[_Token] = []
        while self.peek.kind == "-":
            negations.append(self.take())
        if negations and self.peek.kind not in ("term", "("):
            raise QuerySyntaxError("'-' must be followed by a term.", negations[-1].pos)
        sorts_before = len(self.sorts)
        cond = self.primary()
        if negations and len(self.sorts) > sorts_before:
            raise QuerySyntaxError("sort: cannot be negated.", self.sorts[sorts_before][1])
        if cond and len(negations) % 2:
            return ~cond
        return cond

    def primary(self) -> _Cond | None:
        token = self.take()
        if token.kind == "term":
            return self.term(token)
        if token.kind == "(":
            if self.depth >= MAX_DEPTH:
                raise QuerySyntaxError(
                    f"Parentheses are nested deeper than {MAX_DEPTH} levels.", token.pos
                )
            if self.peek.kind == ")":
                raise QuerySyntaxError("Empty parentheses.", token.pos)
            if self.peek.kind == "end":
                raise QuerySyntaxError("Unclosed '('.", token.pos)
            self.depth += 1
            cond = self.or_expr()
            self.depth -= 1
            if self.peek.kind != ")":
                raise QuerySyntaxError("Unclosed '('.", token.pos)
            self.take()
            return cond
        if token.kind in ("or", "and"):
            raise QuerySyntaxError(f"'{token.kind}' needs a term on each side.", token.pos)
        if token.kind == ")":
            raise QuerySyntaxError("Unmatched ')'.", token.pos)
        raise QuerySyntaxError("Expected a term.", token.pos)

    def term(self, token: _Token) -> _Cond | None:
        """Compile one term; `sort:` terms are recorded and yield no condition."""
        keyword, op, value, at = token.keyword, token.op, token.value, token.value_pos
        if not keyword:
            return _negatable(Q(name__icontains=value))
        if keyword in _STATS:
            return _compare(_STATS[keyword], op, _number(value, at))
        allowed = (":", "=") if keyword == "sort" else (":", "=", "!=")
        if op not in allowed:
            typed, *ops = (f"'{o}'" for o in (self.text[token.pos : token.op_pos], *allowed))
            raise QuerySyntaxError(
                f"{typed} takes {', '.join(ops[:-1])} or {ops[-1]}, not '{op}'.", token.op_pos
            )
        if keyword == "sort":
            field = value.lower()
            if field.removeprefix("-") not in _SORTS:
                raise QuerySyntaxError(
                    f"Cannot sort by '{value}'; expected one of {', '.join(_SORTS)}.", at
                )
            self.sorts.append((field, token.pos))
            return None
        cond = _negatable(self.match(keyword, value, at))
        return ~cond if op == "!=" else cond

    @staticmethod
    def match(keyword: str, value: str, at: int) -> Q:
        """The Q for a text keyword (type, rarity, set, faction, oracle, name)."""
        if keyword == "type":
            if value.lower() not in _TYPES:
                raise QuerySyntaxError(
                    f"Unknown type '{value}'; expected dude, gear, fortune or copy.", at
                )
            return _TYPES[value.lower()]
        if keyword == "rarity":
            if value.lower() not in _RARITIES:
                raise QuerySyntaxError(
                    f"Unknown rarity '{value}'; expected common, uncommon, rare, fixed or promo.",
                    at,
                )
            return Q(rarity=_RARITIES[value.lower()])
        if keyword == "set":
            return Q(**{_SET_CODE: value})
        if keyword == "faction":
            return Q(**{_FACTION: FactionTerm(value, at)})
        return Q(**{_CONTAINS[keyword]: value})

    def ordering(self) -> tuple[str, ...]:
        """Sort fields in query order, each once, then name and code as tiebreaks."""
        if not self.sorts:
            return ()
        fields: list[str] = []
        for key, _pos in self.sorts:
            descending = key.startswith("-")
            for field in _SORTS[key.removeprefix("-")]:
                if field not in (f.removeprefix("-") for f in fields):
                    fields.append(f"-{field}" if descending else field)
        for tiebreak in ("name", "code"):
            if tiebreak not in (f.removeprefix("-") for f in fields):
                fields.append(tiebreak)
        return tuple(fields)


def _negatable(q: Q) -> _Cond:
    return _Cond(q, ~q)


def _compare(field: str, op: str, bound: int) -> _Cond:
    """A stat comparison and its complement, both false when the stat is NULL (a non-dude)."""

    def q(op: str) -> Q:
        if op == "!=":  # `<` or `>` rather than NOT `=`, which Django would let NULLs through
            return Q(**{f"{field}__lt": bound}) | Q(**{f"{field}__gt": bound})
        return Q(**{field if op == "=" else f"{field}__{_LOOKUPS[op]}": bound})

    op = "=" if op == ":" else op
    return _Cond(q(op), q(_COMPLEMENT[op]))


def _number(value: str, at: int) -> int:
    if not (value.isascii() and value.isdigit()) or int(value) > MAX_NUMBER:
        raise QuerySyntaxError(f"'{value}' is not a whole number from 0 to {MAX_NUMBER}.", at)
    return int(value)
