"""Site-wide pages: home (what to do, my recent work, a late worker), sign-up, log-in
lockout, API tokens; and Django's error handlers, which answer in the API's error shape under
/api/."""

from __future__ import annotations

from datetime import timedelta

from axes.helpers import get_cool_off
from django import forms
from django.contrib import messages
from django.contrib.auth import authenticate, login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.core.exceptions import RequestDataTooBig
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views import defaults
from django.views.decorators.http import require_http_methods, require_POST
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import exceptions, permissions, serializers
from rest_framework.authtoken.models import Token
from rest_framework.decorators import api_view, permission_classes
from rest_framework.response import Response

from cards.models import Card, CardSet
from collecting.selectors import collection_list
from config.api import (
    DomainError,
    NulCharacter,
    SignUpThrottle,
    error_response,
    too_large_detail,
)
from config.schema import errors
from decks.selectors import deck_list, public_deck_list
from simulator.engine.core.registry import games as engine_games
from simulator.models import WorkerPing
from simulator.runs.selectors import run_list
from simulator.runs.services import worker_ping_send
from simulator.table.selectors import invitations, tables_waiting_on

PING_FRESH = timedelta(seconds=30)


def _api(request: HttpRequest) -> bool:
    """Whether the request is the API's, which answers every error in its one shape."""
    return request.path_info.startswith("/api/")


RECENT = 5
RECENT_TABLES = 20  # the tables waiting on you, and your invitations, on the home page
# A ping younger than this may simply not have been answered yet: say nothing about it.
PING_PATIENCE = timedelta(seconds=5)


def home(request):
    """The front page: what a visitor can do here; a signed-in person's tables waiting on
    them, their invitations, their recent decks, collections and runs; and a word about
    simulations only when no worker answers."""
    latest = WorkerPing.objects.first()
    if latest is None or latest.created_at < timezone.now() - PING_FRESH:
        latest = worker_ping_send()
    context = {
        "ping": latest,
        "ping_late": _ping_late(latest),
        "sets": CardSet.objects.all(),
        "card_count": Card.objects.count(),
        "public_deck_count": public_deck_list().count(),
    }
    if request.user.is_authenticated:
        games = {name: spec.title for name, spec in engine_games().items()}
        runs = list(run_list(owner=request.user)[:RECENT])
        for run in runs:
            run.game_title = games.get(run.game, run.game)
        collections = collection_list(owner=request.user).order_by("-created_at", "-pk")
        your_turn = list(tables_waiting_on(request.user)[:RECENT_TABLES])
        for row in your_turn:
            row.game_title = games.get(row.game, row.game)
        invited = list(invitations(request.user)[:RECENT_TABLES])
        for seat in invited:
            seat.game_title = games.get(seat.table.game, seat.table.game)
        context.update(
            your_turn=your_turn,
            invitations=invited,
            recent_decks=deck_list(owner=request.user)[:RECENT],
            recent_collections=collections[:RECENT],
            recent_runs=runs,
        )
    return render(request, "home.html", context)


def _ping_late(ping: WorkerPing | None) -> bool:
    """Whether a worker has had time to answer `ping` and has not."""
    return (
        ping is not None
        and ping.answered_at is None
        and ping.created_at < timezone.now() - PING_PATIENCE
    )


def worker_status(request, ping_id: int):
    """The htmx fragment polled by the home page until a worker answers: empty while all is
    well, a notice in plain words once the worker is late."""
    ping = WorkerPing.objects.filter(pk=ping_id).first()
    return render(request, "_worker_status.html", {"ping": ping, "ping_late": _ping_late(ping)})


class SignUpForm(UserCreationForm):
    """A username, a password and, if they like, an email address (the "your turn" email of a
    game by correspondence; never shown to anyone)."""

    email = forms.EmailField(
        required=False,
        label="Email (optional)",
        help_text="Only to tell you it is your turn in a game by correspondence. Never shown.",
    )

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")


@require_http_methods(["GET", "POST"])
def signup(request):
    """Sign up: a username, a password, and an optional email address."""
    form = SignUpForm(request.POST or None)
    if request.method == "POST":
        throttle = SignUpThrottle()
        if not throttle.allow_request(request, None):
            form.add_error(None, "Too many sign-ups from here. Try again later.")
            page = render(request, "registration/signup.html", {"form": form}, status=429)
            page["Retry-After"] = str(round(throttle.wait() or 0))
            return page
        if form.is_valid():
            user = form.save()
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, f"Welcome to Drifter, {user.username}.")
            return redirect("home")
    return render(request, "registration/signup.html", {"form": form})


class EmailForm(forms.Form):
    email = forms.EmailField(
        required=False,
        label="Your email",
        help_text="Only to tell you it is your turn in a game by correspondence. Never shown. "
        "Leave it empty for none.",
    )


@login_required
@require_http_methods(["GET", "POST"])
def tokens(request):
    """Your account: the API token, and the email the correspondence games write to."""
    token = Token.objects.filter(user=request.user).first()
    form = EmailForm(request.POST or None, initial={"email": request.user.email})
    status = 200
    if request.method == "POST":
        if form.is_valid():
            request.user.email = form.cleaned_data["email"]
            request.user.save(update_fields=["email"])
            messages.success(request, "Your email is saved." if request.user.email else
                             "You will get no email from Drifter.")  # fmt: skip
            return redirect("tokens")
        status = 400
    return render(
        request, "registration/tokens.html", {"token": token, "form": form}, status=status
    )


def login_locked_out(
    request: HttpRequest, response: HttpResponse | None, credentials
) -> HttpResponse:
    """django-axes' answer once a username has failed too often from one address: 429 with
    `Retry-After`, as the API's error shape under /api/ and as the log-in page elsewhere."""
    cool_off = get_cool_off(request) or timedelta(0)
    minutes = max(1, round(cool_off.total_seconds() / 60))
    detail = (
        "Too many failed log-ins for this username from here. "
        f"Try again in {minutes} minute{'s' if minutes != 1 else ''}."
    )
    retry_after = str(round(cool_off.total_seconds()))
    if _api(request):
        return error_response(429, "throttled", detail, headers={"Retry-After": retry_after})
    username = (credentials or {}).get("username") or request.POST.get("username", "")
    form = AuthenticationForm(request, initial={"username": username})
    context = {"form": form, "locked_out": detail, "next": request.POST.get("next", "")}
    page = render(request, "registration/login.html", context, status=429)
    page["Retry-After"] = retry_after
    return page


@transaction.atomic
def _token_replace(*, user) -> Token:
    """A new API token for `user`; the old one stops working."""
    Token.objects.filter(user=user).delete()
    return Token.objects.create(user=user)


@login_required
@require_POST
def token_rotate(request):
    had_one = Token.objects.filter(user=request.user).exists()
    _token_replace(user=request.user)
    if had_one:
        messages.success(request, "A new API token was created; the old one no longer works.")
    else:
        messages.success(request, "Your API token was created.")
    return redirect("tokens")


class TokenCredentialsSerializer(serializers.Serializer):
    """A username and its password; or neither, to replace the token of the logged-in user."""

    username = serializers.CharField(max_length=150, required=False)
    password = serializers.CharField(
        max_length=4096, required=False, trim_whitespace=False, write_only=True
    )

    def validate(self, attrs: dict) -> dict:
        missing = [name for name in ("username", "password") if attrs and name not in attrs]
        if missing:
            raise serializers.ValidationError(
                {name: [self.error_messages["required"]] for name in missing}, code="required"
            )
        return attrs


@extend_schema(
    summary="Create (or replace) your API token",
    request=TokenCredentialsSerializer,
    parameters=[
        OpenApiParameter(
            "Retry-After",
            int,
            OpenApiParameter.HEADER,
            response=[429],
            description="Seconds to wait before trying again.",
        )
    ],
    responses={
        201: inline_serializer("TokenOut", {"token": serializers.CharField()}),
        400: errors("`invalid_credentials`: a wrong username or password; or a missing field."),
        401: errors("No username and password, and no session or token to rotate."),
        429: errors(
            "`throttled`: too many tokens asked for from this address or user (the `tokens` "
            "rate), or too many wrong passwords for this username from this address (the "
            "log-in lockout). Try again after `Retry-After` seconds."
        ),
    },
    description=(
        'Send `{"username", "password"}` to get a token without a browser, or no body while '
        "logged in (session or token). Either way the user's old token stops working. Send the "
        "token as `Authorization: Token <key>`. Throttled (the `tokens` rate); wrong passwords "
        "count towards the log-in lockout, as on the log-in page."
    ),
)
@api_view(["POST"])
@permission_classes([permissions.AllowAny])
def api_token_create(request):
    credentials = TokenCredentialsSerializer(data=request.data)
    credentials.is_valid(raise_exception=True)
    if credentials.validated_data:
        # The HttpRequest, not DRF's: django-axes marks a locked-out pair on it, and its
        # middleware then answers 429 (`login_locked_out`) in place of this view's 400.
        user = authenticate(request._request, **credentials.validated_data)
        if user is None:
            raise DomainError("Wrong username or password.", code="invalid_credentials")
    elif request.user.is_authenticated:
        user = request.user
    else:
        raise exceptions.NotAuthenticated()
    return Response({"token": _token_replace(user=user).key}, status=201)


def healthz(request):
    """Liveness and database check for load balancers (and the benchmarks' baseline request)."""
    from django.db import connection
    from django.http import JsonResponse

    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return JsonResponse({"status": "ok"})


# --- Django's error handlers (DEBUG off): under /api/ every answer is the error shape.


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    if not _api(request):
        return defaults.bad_request(request, exception)
    if isinstance(exception, RequestDataTooBig):
        return error_response(413, "too_large", too_large_detail())
    if isinstance(exception, NulCharacter):
        return error_response(400, "bad_request", NulCharacter.detail)
    return error_response(400, "bad_request", "The request could not be read.")


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    if not _api(request):
        return defaults.permission_denied(request, exception)
    return error_response(403, "permission_denied", "You may not do that.")


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if not _api(request):
        return defaults.page_not_found(request, exception)
    return error_response(404, "not_found", "No such endpoint or object.")


def server_error(request: HttpRequest) -> HttpResponse:
    if not _api(request):
        return defaults.server_error(request)
    return error_response(500, "server_error", "Something went wrong on our side.")
