"""API plumbing shared by every app: one error shape, limit/offset pagination with a ceiling and
django-filter's backend without its cost on requests that use no filter.

Every error answers `{"errors": [{"code": ..., "detail": ..., "attr": ...}]}` (extra keys such
as `position` or `line` may follow for a particular error). Domain errors raised by services
(`DomainError`) map to 400 with their own code.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from django_filters import FilterSet
from django_filters.rest_framework import DjangoFilterBackend
from rest_framework import exceptions, pagination, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler


class DomainError(Exception):
    """A rule of the domain was broken by the input; the API answers 400 (or `status`)."""

    status = 400

    def __init__(self, detail: str, *, code: str = "invalid", attr: str | None = None, **extra):
        super().__init__(detail)
        self.detail = detail
        self.code = code
        self.attr = attr
        self.extra = extra

    def as_error(self) -> dict[str, Any]:
        return {"code": self.code, "detail": self.detail, "attr": self.attr, **self.extra}


class LimitOffsetPagination(pagination.LimitOffsetPagination):
    """`?limit=&offset=`; limit defaults to 50 and may not exceed 200 (a larger one is a 400)."""

    default_limit = 50
    max_limit = 200

    def paginate_queryset(self, queryset, request, view=None):
        """The page first, then the count only when the page cannot tell it.

        A page with fewer rows than `limit` is the last one, so `count` is `offset` plus its
        length; only a full page (or an empty one past the start) needs `COUNT(*)`, which on a
        big table costs far more than fetching one page. The count is exact either way.
        """
        self.request = request
        self.limit = self.get_limit(request)
        self.offset = self.get_offset(request)
        page = self.get_page(queryset)
        if len(page) < self.limit and (page or self.offset == 0):
            self.count = self.offset + len(page)
        else:
            self.count = self.get_count(queryset)
        if self.count > self.limit and self.template is not None:
            self.display_page_controls = True
        return page

    def get_page(self, queryset) -> list:
        """The rows from `offset` to `offset + limit` (a subclass may read them differently)."""
        return list(queryset[self.offset : self.offset + self.limit])

    def get_limit(self, request):
        raw = request.query_params.get(self.limit_query_param)
        if raw is None:
            return self.default_limit
        try:
            value = int(raw)
        except ValueError:
            raise exceptions.ValidationError({"limit": ["A whole number is required."]}) from None
        if not 1 <= value <= self.max_limit:
            raise exceptions.ValidationError(
                {"limit": [f"Must be between 1 and {self.max_limit}."]}
            )
        return value

    def get_offset(self, request):
        raw = request.query_params.get(self.offset_query_param, "0")
        try:
            value = int(raw)
        except ValueError:
            raise exceptions.ValidationError({"offset": ["A whole number is required."]}) from None
        if value < 0:
            raise exceptions.ValidationError({"offset": ["Must be 0 or more."]})
        return value


class FilterBackend(DjangoFilterBackend):
    """django-filter's backend, minus its cost when the request uses none of the filters.

    Building a FilterSet deep-copies every filter and builds a form of them: a couple of ms for
    the card filters, paid by every list request. A filter whose parameter is absent filters
    nothing, so without any of the parameters the queryset comes back as it came. The full path
    still runs when some parameter starts with a filter's name (multi-part widgets add suffixes),
    when a filter is required (its absence is an error), or when the FilterSet overrides how it
    filters.
    """

    def filter_queryset(self, request, queryset, view):
        filterset_class = self.get_filterset_class(view, queryset)
        if filterset_class is None:
            return queryset
        if _filters_nothing(filterset_class, request.query_params.keys()):
            return queryset
        return super().filter_queryset(request, queryset, view)


def _filters_nothing(filterset_class: type[FilterSet], params) -> bool:
    if (
        filterset_class.filter_queryset is not FilterSet.filter_queryset
        or filterset_class.qs is not FilterSet.qs
    ):
        return False
    filters = filterset_class.base_filters
    if any(f.extra.get("required") for f in filters.values()):
        return False
    return not any(param.startswith(name) for param in params for name in filters)


def _flatten(detail: Any, attr: str | None = None) -> list[dict[str, Any]]:
    """DRF's nested error detail as a flat list of {code, detail, attr}."""
    if isinstance(detail, dict):
        out = []
        for key, value in detail.items():
            name = None if key == "non_field_errors" else key
            if isinstance(key, int):  # errors of a list item, e.g. cards.3.qty
                name = f"{attr}.{key}" if attr else str(key)
            elif attr and name:
                name = f"{attr}.{name}"
            elif attr:
                name = attr
            out.extend(_flatten(value, name))
        return out
    if isinstance(detail, list):
        out = []
        for index, item in enumerate(detail):
            if isinstance(item, dict | list) and item:
                out.extend(_flatten(item, f"{attr}.{index}" if attr else str(index)))
            elif isinstance(item, dict | list):
                continue
            else:
                out.extend(_flatten(item, attr))
        return out
    code = getattr(detail, "code", "invalid")
    return [{"code": code, "detail": str(detail), "attr": attr}]


def exception_handler(exc: Exception, context: dict) -> Response | None:
    """DRF's handler, reshaped into the one error shape; domain errors become 400s."""
    if isinstance(exc, DomainError):
        return Response({"errors": [exc.as_error()]}, status=exc.status)
    if isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(
            exc.message_dict if hasattr(exc, "error_dict") else exc.messages
        )
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        errors = _flatten(exc.detail)
    else:
        detail = exc.detail if isinstance(exc, exceptions.APIException) else str(exc)
        code = getattr(detail, "code", None) or getattr(exc, "default_code", "error")
        errors = [{"code": code, "detail": str(detail), "attr": None}]
    response.data = {"errors": errors}
    if response.status_code == status.HTTP_429_TOO_MANY_REQUESTS:
        response.data["errors"][0]["code"] = "throttled"
    return response
