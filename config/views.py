"""Site-wide pages: home with worker status, sign-up, API tokens."""

from __future__ import annotations

from datetime import timedelta

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import permissions, serializers
from rest_framework.authtoken.models import Token
from rest_framework.decorators import api_view, permission_classes
from rest_framework.response import Response

from cards.models import Card, CardSet
from simulator.models import WorkerPing
from simulator.services import worker_ping_send

PING_FRESH = timedelta(seconds=30)


def home(request):
    """The front page: what Drifter holds, and whether a worker answers."""
    latest = WorkerPing.objects.first()
    if latest is None or latest.created_at < timezone.now() - PING_FRESH:
        latest = worker_ping_send()
    return render(
        request,
        "home.html",
        {"ping": latest, "sets": CardSet.objects.all(), "card_count": Card.objects.count()},
    )


def worker_status(request, ping_id: int):
    """The htmx fragment polled by the home page until the worker answers."""
    ping = WorkerPing.objects.filter(pk=ping_id).first()
    return render(request, "_worker_status.html", {"ping": ping})


@require_http_methods(["GET", "POST"])
def signup(request):
    form = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome to Drifter, {user.username}.")
        return redirect("home")
    return render(request, "registration/signup.html", {"form": form})


@login_required
def tokens(request):
    token = Token.objects.filter(user=request.user).first()
    return render(request, "registration/tokens.html", {"token": token})


@login_required
@require_POST
def token_rotate(request):
    Token.objects.filter(user=request.user).delete()
    Token.objects.create(user=request.user)
    messages.success(request, "A new API token was created; the old one no longer works.")
    return redirect("tokens")


@extend_schema(
    request=None,
    responses=inline_serializer("TokenOut", {"token": serializers.CharField()}),
    description="Create (or replace) the API token of the logged-in user. The old token stops "
    "working. Send it as `Authorization: Token <key>`.",
)
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def api_token_create(request):
    Token.objects.filter(user=request.user).delete()
    token = Token.objects.create(user=request.user)
    return Response({"token": token.key}, status=201)


def healthz(request):
    """Liveness and database check for load balancers (and the benchmarks' baseline request)."""
    from django.db import connection
    from django.http import JsonResponse

    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return JsonResponse({"status": "ok"})
