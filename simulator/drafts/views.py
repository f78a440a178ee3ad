"""The draft page's "test my deck" button: a Draw gauntlet run from a finished draft.

At the path it had under the decks pages (`/decks/drafts/<pk>/simulate/`, simulator/drafts/urls.py)
but the simulator's code: decks sit below simulator in the layers (docs/collections.md).
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from config.api import DomainError
from config.pages import show_problems
from decks import selectors as deck_selectors
from simulator.drafts.services import draft_run_create


@login_required
@require_POST
def draft_simulate(request, pk: int):
    """Test my deck from the pod against every bot's deck; the run's page follows."""
    pod = deck_selectors.pod_get(user=request.user, pk=pk)
    try:
        games = int(request.POST.get("games") or 0)
    except ValueError:
        games = 0
    try:
        run, _ = draft_run_create(
            owner=request.user,
            pod=pod,
            games=games,
            idempotency_key=request.POST.get("idempotency_key") or None,
        )
    except DomainError as exc:
        show_problems(request, exc)
        return redirect(pod.get_absolute_url())
    return redirect("simulator:detail", pk=run.pk)
