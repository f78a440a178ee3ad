"""Finding a card or kicker chip by what a person types: its name or code, with suggestions
while typing (an htmx `<datalist>`) and "did you mean" for a near miss."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field

from django.db.models import Count
from django.db.models.functions import Upper
from django.shortcuts import render
from django.views.decorators.http import require_GET

from cards.models import Card, KickerChip

SUGGESTIONS = 10
# "Name (CODE)": how a suggestion names a card whose name another card shares.
NAME_WITH_CODE = re.compile(r"^(?P<name>.*\S)\s*\((?P<code>[A-Za-z0-9-]{1,16})\)$")
LIST_ID = re.compile(r"^[a-z][a-z0-9-]{0,39}$")


@dataclass(frozen=True)
class Lookup:
    """What `lookup` found: a card, a kicker chip, or neither and the closest names."""

    card: Card | None = None
    kicker_chip: KickerChip | None = None
    suggestions: list[str] = field(default_factory=list)


def lookup(text: str) -> Lookup:
    """The card or kicker chip `text` names: a code, a card's name (any case), or a
    suggestion's "Name (CODE)". Nothing found: up to three close card names."""
    text = " ".join(text.split())
    if not text:
        return Lookup()
    named = NAME_WITH_CODE.match(text)
    code = (named.group("code") if named else text).upper()
    card = Card.objects.filter(code=code).first()
    if card is not None:
        return Lookup(card=card)
    chip = KickerChip.objects.filter(code=code).first()
    if chip is not None:
        return Lookup(kicker_chip=chip)
    card = Card.objects.annotate(upper=Upper("name")).filter(upper=text.upper()).first()
    if card is not None:
        return Lookup(card=card)
    names = list(Card.objects.order_by().values_list("name", flat=True).distinct())
    by_upper = {n.upper(): n for n in names}
    close = difflib.get_close_matches(text.upper(), list(by_upper), n=3, cutoff=0.6)
    return Lookup(suggestions=[by_upper[c] for c in close])


def suggestions(text: str, *, chips: bool = False) -> list[dict[str, str]]:
    """Up to ten cards whose name starts with `text` or holds it (then chips whose code
    starts with it, when asked): [{value, label}]. A name two cards share carries its code."""
    text = " ".join(text.split())[:100]
    if len(text) < 2:
        return []
    starts = list(Card.objects.filter(name__istartswith=text).order_by("name")[:SUGGESTIONS])
    found = starts + list(
        Card.objects.filter(name__icontains=text)
        .exclude(pk__in=[c.pk for c in starts])
        .order_by("name")[: SUGGESTIONS - len(starts)]
    )
    counts = dict(
        Card.objects.filter(name__in=[c.name for c in found])
        .order_by()
        .values("name")
        .annotate(n=Count("id"))
        .values_list("name", "n")
    )
    out = [
        {
            "value": f"{c.name} ({c.code})" if counts.get(c.name, 0) > 1 else c.name,
            "label": f"{c.code} · {c.get_type_display()}",
        }
        for c in found
    ]
    if chips and len(out) < SUGGESTIONS:
        for chip in KickerChip.objects.filter(code__istartswith=text)[: SUGGESTIONS - len(out)]:
            out.append({"value": chip.code, "label": f"kicker chip · {chip.get_color_display()}"})
    return out


@require_GET
def suggest(request):
    """The `<datalist>` of suggestions for what is typed in `q`, `code` or `card` (whichever
    the input is named); `list` is the datalist's id; `chips=1` adds kicker chips."""
    text = next((request.GET[k] for k in ("q", "code", "card") if request.GET.get(k)), "")
    list_id = request.GET.get("list", "")
    if not LIST_ID.match(list_id):
        list_id = "card-suggestions"
    context = {
        "list_id": list_id,
        "suggestions": suggestions(text, chips=request.GET.get("chips") == "1"),
    }
    return render(request, "cards/_suggestions.html", context)
