"""A run's status answer, kept for the second a progress bar waits between polls and sent again
before Django's views run, so that many people watching one run cost the workers next to
nothing (issue #13, section 6; docs/operations.md, "Watching a run").

`SimulationViewSet.retrieve` reads and serialises the run as any view does; while the run is
active it answers with a `StatusAnswer`, and the `kept_status` middleware keeps the bytes it
sent for `SIMULATION_STATUS_CACHE_SECONDS`. The run's next polls get those bytes without URL
routing, DRF's dispatch or a read of the run, but only after the checks DRF makes: the token
(or, without one, the signed-in session) of an active user who owns the run, within the `user`
throttle. Anything else (another user, anonymous, a bad token, a query string, an `Accept` that
may not get JSON, a finished run, nothing kept) goes on to the view, which answers as always.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from typing import Any

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.urls import get_script_prefix, reverse
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication, get_authorization_header
from rest_framework.response import Response

from config.api import user_within_rate
from simulator.common import conf

# The `Accept` headers DRF answers with JSON (any other may ask for the browsable API).
JSON_ACCEPTS = frozenset({None, "*/*", "application/json"})
# A run's id is a 64-bit integer: longer digit strings are no run's (and are left to the view).
MAX_ID_DIGITS = 19


def status_cache_key(pk: Any, request: HttpRequest) -> str | None:
    """Where a run's status answer is kept (by scheme and host too: it holds absolute URLs);
    None for a `pk` that cannot be a run's id (the view answers those)."""
    pk = str(pk)
    if not (pk.isascii() and pk.isdigit() and len(pk) <= MAX_ID_DIGITS):
        return None
    return f"simulation-status:{int(pk)}:{request.scheme}://{request.get_host()}"


class StatusAnswer(Response):
    """A run's status as the view answers it; `owner_id` is set when the next polls may get
    these very bytes (the run is active), to that user only."""

    def __init__(self, data: Any, *, owner_id: int | None) -> None:
        super().__init__(data)
        self.owner_id = owner_id


def kept_status(get_response: Callable[[HttpRequest], HttpResponse]):
    """Middleware (after `AuthenticationMiddleware`): a run's status poll answered with the
    answer kept for it, when the caller is the run's owner; otherwise the view answers, and an
    answer it marks as a `StatusAnswer` of an active run is kept."""

    def middleware(request: HttpRequest) -> HttpResponse:
        key = _poll_key(request)
        if key is None:
            return get_response(request)
        kept = cache.get(key)
        if kept is not None:
            owner_id, content, headers = kept
            if _user_id(request) == owner_id and user_within_rate(owner_id):
                return HttpResponse(content, headers=headers)
        response = get_response(request)
        seconds = conf.get("SIMULATION_STATUS_CACHE_SECONDS")
        if (
            isinstance(response, StatusAnswer)
            and response.owner_id is not None
            and response.status_code == 200
            and not response.cookies
            and seconds > 0
        ):
            cache.set(key, (response.owner_id, response.content, list(response.items())), seconds)
        return response

    return middleware


@functools.cache
def _runs_path() -> str:
    """The runs' URL (`/api/v1/simulations/`) as `request.path_info` spells it (without the
    prefix the site may be served under)."""
    return "/" + reverse("api:simulation-list").removeprefix(get_script_prefix())


def _poll_key(request: HttpRequest) -> str | None:
    """The key of the answer kept for `request` when it is a poll of a run's status that a kept
    answer can serve (GET of the run's URL, no query string, an `Accept` DRF answers with
    JSON); None for any other request."""
    if (
        request.method != "GET"
        or request.META.get("QUERY_STRING")
        or request.META.get("HTTP_ACCEPT") not in JSON_ACCEPTS
    ):
        return None
    path, runs = request.path_info, _runs_path()
    if not (path.startswith(runs) and path.endswith("/")):
        return None
    return status_cache_key(path[len(runs) : -1], request)


def _user_id(request: HttpRequest) -> int | None:
    """Who DRF would take `request` to come from (`DEFAULT_AUTHENTICATION_CLASSES`: a token
    first, else the session), when that is an active user; None otherwise, and for any
    `Authorization` header but a well-formed token's (the view judges those)."""
    header = get_authorization_header(request).split()  # type: ignore[arg-type]  # reads META only
    if header:
        if len(header) != 2 or header[0].lower() != b"token":
            return None
        return _token_user_id(header[1])
    user = request.user
    return user.pk if user.is_active else None


def _token_user_id(token: bytes) -> int | None:
    """The id of the active user whose token this is, found as DRF's `TokenAuthentication`
    finds it, then kept as long as a status answer is. A token's user never changes, and a
    deleted token is forgotten at once (`forget_token`: in every web process when they share
    the cache, else in the one that deleted it), so what may outlive a change by that period
    is only a deactivated user's (or, in another process, a deleted token's) read of their own
    runs' status."""
    key = _token_key(token)
    user_id = cache.get(key)
    if user_id is None:
        try:
            user, _ = TokenAuthentication().authenticate_credentials(token.decode())
        except (UnicodeError, exceptions.AuthenticationFailed):
            return None
        user_id = user.pk
        cache.set(key, user_id, conf.get("SIMULATION_STATUS_CACHE_SECONDS"))
    return user_id


def _token_key(token: bytes) -> str:
    return "simulation-status-token:" + hashlib.sha256(token).hexdigest()


def forget_token(sender: type, instance: Any, **kwargs: Any) -> None:
    """`post_delete` of a token: its polls are judged by the view again (a 401)."""
    cache.delete(_token_key(instance.key.encode()))
