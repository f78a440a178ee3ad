"""Counting search results without visiting every match: the API's card list
(`cards.api.pagination.CardPagination`) and the card grid page (`CappedPaginator`) both count
exactly up to `COUNT_CAP` matches and only say "more" beyond (docs/search.md, "Speed")."""

from __future__ import annotations

import contextlib
from functools import cached_property

from django.core.exceptions import EmptyResultSet
from django.core.paginator import Paginator
from django.db import connections
from django.db.models import QuerySet

COUNT_CAP = 1000
MAX_PAGE = 2**31  # keeps the count's LIMIT a valid bigint


def count_up_to(queryset: QuerySet, most: int) -> int:
    """How many rows `queryset` has, counting no further than `most`.

    `SELECT COUNT(*) FROM (SELECT id ... LIMIT most)`, unordered, so PostgreSQL may stop at
    whichever `most` matches it finds first. It is the SQL `queryset[:most].count()` runs, but
    wrapped here rather than by the ORM's aggregation path, which costs more CPU a count
    (`benchmarks/catalogue.py`; the figures are in docs/search.md).
    """
    inner = queryset.order_by().values("pk")[:most]
    try:
        sql, params = inner.query.get_compiler(queryset.db).as_sql()
    except EmptyResultSet:  # a filter that matches nothing, e.g. `s:` with no such set
        return 0
    with connections[queryset.db].cursor() as cursor:
        cursor.execute(f"SELECT COUNT(*) FROM ({sql}) capped", params)
        return cursor.fetchone()[0]


class CappedPaginator(Paginator):
    """Django's Paginator with the API's capped count, for pages of search results.

    The count stops after `cap + 1` matches, or after the end of the page asked for plus one
    when that is further. Up to there `count` is exact (`count_exact`); beyond, `count_exact`
    is False and `count` is that bound plus one: a lower bound, so `num_pages` counts only
    the pages known to exist (a page shows "1,000+ cards", "page 1 of 17+") and the next page
    is always reachable.
    """

    cap = COUNT_CAP

    def __init__(self, object_list: QuerySet, per_page: int) -> None:
        super().__init__(object_list, per_page)
        self.bound = self.cap

    def validate_number(self, number):
        # Before `count` is read: past the cap, count as far as the page asked for (a page
        # number past any catalogue counts everything, then gets the last page as usual).
        with contextlib.suppress(TypeError, ValueError, OverflowError):
            self.bound = max(self.bound, min(int(number), MAX_PAGE) * self.per_page)
        return super().validate_number(number)

    @cached_property
    def _counted(self) -> tuple[int, bool]:
        counted = count_up_to(self.object_list, self.bound + 1)  # type: ignore[arg-type]
        return counted, counted <= self.bound

    @property
    def count(self) -> int:
        return self._counted[0]

    @property
    def count_exact(self) -> bool:
        return self._counted[1]
