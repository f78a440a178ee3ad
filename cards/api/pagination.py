"""Paging of the card list: a count that stops at a cap, and pages read as plain rows."""

from __future__ import annotations

from rest_framework.utils.urls import replace_query_param

from cards.api.serializers import CardSerializer
from cards.paging import COUNT_CAP, count_up_to
from config.api import LimitOffsetPagination


class CardPagination(LimitOffsetPagination):
    """`?limit=&offset=` as on every list, but `count` is exact only up to `count_cap` matches.

    An exact `COUNT(*)` visits every match, while the page stops after `limit` rows: for a broad
    search (`o:reinvest` matches 12,000 of 20,000 generated cards) the count cost more than the
    rest of the request together. So the count stops too, after `count_cap + 1` matches (or
    `offset + limit + 1` when paging past the cap, as far as the page's OFFSET walks anyway):

    - `count_exact: true`: `count` is the number of matching cards;
    - `count_exact: false`: more than `count` cards match, where `count` is the cap (or
      `offset + limit` past it); `next` is set.

    The shipped catalogue has a few hundred cards, so its counts are always exact. The page is
    read as rows (`CardSerializer.rows`), not Card and CardSet instances; the count runs on the
    queryset itself, so it joins the set only when a filter needs it.
    """

    count_cap = COUNT_CAP

    def paginate_queryset(self, queryset, request, view=None):
        self.count_exact = True
        return super().paginate_queryset(queryset, request, view)

    def get_page(self, queryset) -> list:
        return super().get_page(CardSerializer.rows(queryset))

    def get_count(self, queryset) -> int:
        bound = max(self.count_cap, self.offset + self.limit)  # type: ignore[operator]
        counted = count_up_to(queryset, bound + 1)
        if counted > bound:
            self.count_exact = False
            return bound
        return counted

    def get_next_link(self):
        if self.count_exact:
            return super().get_next_link()
        # More than `count` >= offset + limit cards match: there is a next page.
        url = self.request.build_absolute_uri()
        url = replace_query_param(url, self.limit_query_param, self.limit)
        return replace_query_param(url, self.offset_query_param, self.offset + self.limit)

    def get_paginated_response(self, data):
        response = super().get_paginated_response(data)
        response.data = {"count": self.count, "count_exact": self.count_exact, **response.data}
        return response

    def get_paginated_response_schema(self, schema):
        answer = super().get_paginated_response_schema(schema)
        answer["required"] = ["count", "count_exact", "results"]
        properties = answer["properties"]
        properties["count"]["description"] = (
            "The number of matching cards when `count_exact` is true. Otherwise more cards "
            f"than this match: counting stops at {self.count_cap:,} (or at `offset + limit` "
            "when paging past that)."
        )
        answer["properties"] = {
            "count": properties.pop("count"),
            "count_exact": {
                "type": "boolean",
                "description": (
                    "True: `count` is the number of matching cards. False: more than `count` "
                    "cards match."
                ),
            },
            **properties,
        }
        return answer
