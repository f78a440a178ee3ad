"""Page plumbing shared by every app's views (the pages' side of `config/api.py`): how a domain
error reaches the person at the page.

A service raises `DomainError` with one problem or several (`config.api.DomainError.problems`);
the API answers every one of them, and so does a page: a person who fixes the first problem
should not learn of the second only on the next try. Django's messages framework shows one
message a call (`messages.error`) and knows nothing of a `DomainError`, so `show_problems` adds
one message per problem.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest

from config.api import DomainError


def show_problems(
    request: HttpRequest | None, error: DomainError, *, level: int = messages.ERROR
) -> list[str]:
    """Show every problem of `error` to the person at the page, and return their details (the
    words a person reads, in the order the service found them).

    With a `request`, each problem becomes one Django message at `level` (ERROR unless told),
    shown by the next page that renders the messages (`base.html` does), so it survives a
    redirect. With `request=None` nothing is queued: the list is for a view that renders its
    errors inline instead (an htmx fragment, a page rendered in place), which passes it to its
    template and loops over it. Use it in every `except DomainError` of a view::

        try:
            deck = services.deck_create(owner=request.user, name=name)
        except DomainError as exc:
            show_problems(request, exc)           # as messages, then redirect
            return redirect("decks:list")

        except DomainError as exc:
            errors = show_problems(None, exc)     # inline: {% for e in errors %}...
    """
    details = [str(problem["detail"]) for problem in error.problems]
    if request is not None:
        for detail in details:
            messages.add_message(request, level, detail)
    return details
