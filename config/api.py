"""API plumbing shared by every app: one error shape, a JSON parser with a nesting ceiling,
limit/offset pagination with ceilings, the throttles, and django-filter's backend without its
cost on requests that use no filter.

Every error answers `{"errors": [{"code": ..., "detail": ..., "attr": ...}]}` (extra keys such
as `position` or `line` may follow for a particular error). Domain errors raised by services
(`DomainError`, one problem or several) map to 400 (or the error's own status), every problem
an item of the list.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import SimpleNamespace
from typing import Any

from django.conf import settings
from django.core.exceptions import (
    BadRequest,
    PermissionDenied,
    RequestDataTooBig,
    SuspiciousOperation,
)
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404, HttpRequest, JsonResponse
from django.http.multipartparser import MultiPartParserError
from django_filters import FilterSet
from django_filters.rest_framework import DjangoFilterBackend
from rest_framework import exceptions, pagination, parsers, status, throttling
from rest_framework.permissions import SAFE_METHODS
from rest_framework.response import Response
from rest_framework.settings import api_settings


class DomainError(Exception):
    """A rule of the domain was broken by the input: one problem or several, each an item of the
    one error shape (`code`, `detail`, `attr`, then any extras such as `line` or `card`).

    `DomainError("detail", code=..., attr=..., **extras)` is one problem;
    `DomainError(problems=[{...}, ...])` is several (a service that checks everything before
    writing reports every problem at once). The API answers all of them with `status` (400
    unless the error or its class says otherwise). `detail`, `code` and `attr` are the first
    problem's.
    """

    status = 400

    def __init__(
        self,
        detail: str | None = None,
        *,
        code: str = "invalid",
        attr: str | None = None,
        problems: Iterable[Mapping[str, Any]] | None = None,
        status: int | None = None,
        **extra: Any,
    ) -> None:
        if (detail is None) == (problems is None) or (problems is not None and extra):
            raise TypeError("DomainError takes a detail (with its code, attr, extras) or problems")
        if problems is None:
            problems = [{"code": code, "detail": detail, "attr": attr, **extra}]
        self.problems: list[dict[str, Any]] = [
            {"code": p["code"], "detail": p["detail"], "attr": p.get("attr"), **p} for p in problems
        ]
        if not self.problems:
            raise ValueError("A DomainError names at least one problem.")
        first = self.problems[0]
        self.detail: str = first["detail"]
        self.code: str = first["code"]
        self.attr: str | None = first["attr"]
        if status is not None:
            self.status = status
        super().__init__("; ".join(p["detail"] for p in self.problems))


def absolute(request: HttpRequest | None, path: str) -> str:
    """A link for an API answer: absolute when there is a request to say where, else the path
    (a serializer used outside a request, e.g. in a task)."""
    return request.build_absolute_uri(path) if request is not None else path


def error_response(
    status_code: int,
    code: str,
    detail: str,
    *,
    headers: dict[str, str] | None = None,
    attr: str | None = None,
) -> JsonResponse:
    """The one error shape, for answers made outside DRF's views (Django's error handlers, the
    login lockout, the middleware below)."""
    body = {"errors": [{"code": code, "detail": detail, "attr": attr}]}
    return JsonResponse(body, status=status_code, headers=headers)


def too_large_detail() -> str:
    return f"The request body is over {settings.DATA_UPLOAD_MAX_MEMORY_SIZE:,} bytes."


class NulCharacter(SuspiciousOperation):
    """Text in a request (its path, query or body) holds a NUL character: no text Drifter keeps
    can (PostgreSQL's text fields cannot store one), so the request is refused with a 400 before
    anything looks it up."""

    detail = "Text in a request may not contain the NUL character (U+0000)."


FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def refuse_nul_characters(get_response):
    """Middleware: a path, query string or form field holding a NUL is a 400 (the API's error
    shape under /api/, the styled page elsewhere), before a view looks a code up with it. JSON
    bodies are checked by `JSONParser`. (A form read here is read once: Django keeps it for the
    view, and DRF takes it from there too.)"""

    def middleware(request: HttpRequest):
        fields = [request.GET]
        if request.method == "POST" and request.content_type in FORM_TYPES:
            try:
                fields.append(request.POST)
            except MultiPartParserError as error:
                raise BadRequest(f"Multipart form parse error - {error}") from None
        if "\x00" in request.path or any(
            "\x00" in key or any("\x00" in value for value in values)
            for query in fields
            for key, values in query.lists()
        ):
            raise NulCharacter(NulCharacter.detail)
        return get_response(request)

    return middleware


def refuse_repeated_query_parameters(get_response):
    """Middleware: under /api/, a query parameter given more than once is a 400 in the error
    shape naming it. No parameter of the API is a list (the schema says so), and a view reading
    one would otherwise take the last of the values silently (`?after=1&after=x` read as `x`,
    or `+0.0` read as 0: found by schemathesis). The pages' forms may repeat a filter."""

    def middleware(request: HttpRequest):
        if request.path_info.startswith("/api/"):
            for key, values in request.GET.lists():
                if len(values) > 1:
                    return error_response(
                        400, "invalid",
                        f"The query parameter {key!r} is given {len(values)} times: give it once.",
                        attr=key,
                    )  # fmt: skip
        return get_response(request)

    return middleware


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser, refusing documents nested deeper than `max_depth` and text holding a
    NUL character (see `NulCharacter`) with a 400.

    `json` gives up on a document nested past the interpreter's recursion limit with a
    RecursionError, which DRF lets through as a 500; and a document nested just under that limit
    parses, only for the first recursive walk over it (DRF's error details, a serializer) to
    overflow instead. No request body of this API nests more than a handful of levels.
    """

    max_depth = 32

    def parse(self, stream, media_type=None, parser_context=None):
        too_deep = exceptions.ParseError(
            f"JSON parse error - nested more than {self.max_depth} levels deep."
        )
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise too_deep from None
        nested_too_deep, holds_nul = _scan(data, self.max_depth)
        if nested_too_deep:
            raise too_deep
        if holds_nul:
            raise exceptions.ParseError(f"JSON parse error - {NulCharacter.detail}")
        return data


def _scan(data: Any, limit: int) -> tuple[bool, bool]:
    """Whether lists and objects in `data` nest more than `limit` levels, and whether any of its
    strings (an object's keys too) holds a NUL: one walk, level by level rather than recursively
    so that the walk itself cannot overflow, stopping at the first container too deep."""
    level, depth, nul = [data], 0, False
    while level:
        deeper: list = []
        for node in level:
            kind = type(node)  # what json.loads makes; exact types are the fast test
            if kind is str:
                nul = nul or "\x00" in node
            elif kind is dict or kind is list:
                if depth == limit:
                    return True, nul
                if kind is dict:
                    deeper += node.keys()
                    deeper += node.values()
                else:
                    deeper += node
        level, depth = deeper, depth + 1
    return False, nul


class LimitOffsetPagination(pagination.LimitOffsetPagination):
    """`?limit=&offset=`; limit defaults to 50 and may not exceed 200, offset may not exceed a
    billion (either out of bounds is a 400). The offset's ceiling is past any list Drifter holds
    and keeps `OFFSET` inside the databases' 64-bit integers (beyond them SQLite fails with
    "datatype mismatch")."""

    default_limit = 50
    max_limit = 200
    max_offset = 1_000_000_000

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
        if not 0 <= value <= self.max_offset:
            raise exceptions.ValidationError(
                {"offset": [f"Must be between 0 and {self.max_offset:,}."]}
            )
        return value


class _SettingsThrottle(throttling.SimpleRateThrottle):
    """A DRF rate throttle that reads its rate from settings on every request (DRF's own read
    them once, at import, so neither an override nor a test could change them) and that
    `THROTTLE_ENABLED = False` turns off."""

    def __init__(self) -> None:
        self.THROTTLE_RATES = api_settings.DEFAULT_THROTTLE_RATES
        super().__init__()

    def allow_request(self, request, view) -> bool:
        return not settings.THROTTLE_ENABLED or super().allow_request(request, view)


class AnonThrottle(_SettingsThrottle, throttling.AnonRateThrottle):
    """Every anonymous API request, counted per client address (`anon`)."""


class UserThrottle(_SettingsThrottle, throttling.UserRateThrottle):
    """Every API request of a signed-in user, counted per user (`user`)."""


def user_within_rate(user_id: int) -> bool:
    """Whether one more API request of user `user_id` fits the `user` rate, counting it if it
    does: for answers made before DRF's views (a run's kept status,
    simulator/runs/status_polls.py), which the same budget covers."""
    request = SimpleNamespace(user=SimpleNamespace(pk=user_id, is_authenticated=True))
    return UserThrottle().allow_request(request, None)


class SignUpThrottle(_SettingsThrottle, throttling.AnonRateThrottle):
    """Sign-ups (a Django page, not DRF), counted per client address (`signup`)."""

    scope = "signup"


class CostlyWriteThrottle(_SettingsThrottle):
    """Stricter budgets, on top of `anon` and `user`, for the writes that guess passwords or
    start long jobs: creating an API token (`tokens`), starting a simulation run
    (`simulations`) and sitting down at a new game (`table_games`), counted per user, or per
    client address when anonymous.

    Keyed by route so that one list says what is costly, and only unsafe methods count:
    polling a run is not starting one.
    """

    route_scopes = {
        "api:token-create": "tokens",
        "api:simulation-list": "simulations",
        "api:draftpod-simulate": "simulations",
        "api:doctor-list": "simulations",
        "api:field-runs": "simulations",  # GET lists a field's runs: only a POST counts
        "api:game-list": "table_games",
    }

    def __init__(self) -> None:  # the scope, and so the rate, depends on the request
        self.THROTTLE_RATES = api_settings.DEFAULT_THROTTLE_RATES

    def allow_request(self, request, view) -> bool:
        match = request.resolver_match
        if request.method in SAFE_METHODS or match is None:
            return True
        self.scope = self.route_scopes.get(match.view_name)
        if self.scope is None:
            return True
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)
        return super().allow_request(request, view)

    def get_cache_key(self, request, view) -> str:
        user = request.user
        ident = user.pk if user and user.is_authenticated else self.get_ident(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}


def client_address(request: HttpRequest) -> str | None:
    """The client's address as the throttles see it (`REMOTE_ADDR`, or the entry `NUM_PROXIES`
    from the end of `X-Forwarded-For`); the login lockout uses it too, so both agree."""
    return throttling.BaseThrottle().get_ident(request)


class FilterBackend(DjangoFilterBackend):
    """django-filter's backend, minus its cost when the request uses none of the filters.

    Building a FilterSet deep-copies every filter and builds a form of them, a cost every list
    request paid (`benchmarks/catalogue.py`; the figure is in docs/performance.md, "Card
    search"). A filter whose parameter is absent filters
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
    """DRF's handler, reshaped into the one error shape; a domain error answers every problem it
    carries, with its status (400 unless it says otherwise)."""
    # Imported here: rest_framework.views reads the parser and throttle classes of this module
    # from the settings when it is first imported.
    from rest_framework.views import exception_handler as drf_exception_handler

    if isinstance(exc, DomainError):
        return Response({"errors": exc.problems}, status=exc.status)
    if isinstance(exc, RequestDataTooBig):
        error = {"code": "too_large", "detail": too_large_detail(), "attr": None}
        return Response({"errors": [error]}, status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE)
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
