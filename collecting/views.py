"""Collection pages: the dashboard of set-completion bars, the card grid with +/- buttons (htmx),
missing cards, CSV import with its row-by-row report, export, openings, the wishlist, trade
lists and trade matching, scans, and practice boosters. Thin: services write, selectors read.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import BadRequest
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from cards.models import Card, CardSet, StarterDeck
from cards.query import QuerySyntaxError
from cards.suggest import lookup
from collecting import scans
from collecting import selectors as collection_selectors
from collecting import services as collection_services
from collecting.api.views import export_response, trade_matches_for
from collecting.models import CardScan, Collection, Condition
from collecting.services import practice_booster
from config.api import DomainError
from config.pages import show_problems

PAGE_SIZE = 60


def _mine(request, pk: int) -> Collection:
    return get_object_or_404(Collection, pk=pk, owner=request.user)


def _int(raw: str | None, default: int | None = None) -> int | None:
    try:
        return int(raw) if raw not in (None, "") else default
    except ValueError:
        return None


@login_required
@require_http_methods(["GET", "POST"])
def collection_list(request):
    """Your collections, and a form to start one."""
    if request.method == "POST":
        try:
            collection = collection_services.collection_create(
                owner=request.user, name=request.POST.get("name", "")
            )
        except DomainError as exc:
            show_problems(request, exc)
        else:
            return redirect(collection)
    collections = collection_selectors.collection_list(owner=request.user)
    return render(request, "collecting/list.html", {"collections": collections})


@login_required
@require_http_methods(["GET", "POST"])
def collection_detail(request, pk: int):
    """The dashboard: each set's completion (and each rarity's) as bars; settings."""
    collection = _mine(request, pk)
    if request.method == "POST":
        try:
            collection_services.collection_update(
                collection=collection,
                name=request.POST.get("name"),
                trade_list_public=request.POST.get("trade_list_public") == "on",
            )
            messages.success(request, "Saved.")
        except DomainError as exc:
            show_problems(request, exc)
        return redirect(collection)
    context = {
        "collection": collection,
        "completion": collection_selectors.completion(collection=collection),
        "openings": collection_selectors.opening_list(collection=collection)[:5],
        "chips": collection_selectors.chip_list(collection=collection),
    }
    return render(request, "collecting/detail.html", context)


@login_required
@require_POST
def collection_delete(request, pk: int):
    collection = _mine(request, pk)
    collection_services.collection_delete(collection=collection)
    messages.success(request, f"Deleted {collection.name}.")
    return redirect("collecting:collections")


@login_required
@require_GET
def collection_cards(request, pk: int):
    """The card grid with this collection's owned counts and +/- buttons; search syntax `q`."""
    collection = _mine(request, pk)
    q = request.GET.get("q", "")
    error = None
    try:
        cards = collection_selectors.collection_cards(collection=collection, q=q)
    except QuerySyntaxError as exc:
        cards, error = Card.objects.none(), exc
    page = Paginator(cards, PAGE_SIZE).get_page(request.GET.get("page"))
    context = {"collection": collection, "q": q, "page": page, "error": error}
    template = "collecting/_cards.html" if request.htmx else "collecting/cards.html"
    return render(request, template, context)


def _same_site_path(request, url: str) -> bool:
    """Whether `url` is a path on this site: a page may send a person back there, never off-site
    (`https://evil.example/`, `//evil.example/`) nor to something that is not a path."""
    return url.startswith("/") and url_has_allowed_host_and_scheme(
        url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )


@login_required
@require_POST
def collection_adjust(request, pk: int, code: str):
    """One click on + or -: answers the card's counter (htmx) or goes back to the page it came
    from (`next`, a path on this site; the grid when there is none; anything else is a 400)."""
    collection = _mine(request, pk)
    card = get_object_or_404(Card, code=code)
    # Settled before anything is written: a `next` that is not a path on this site (off-site,
    # `//host`, `javascript:`, a bare word) is a malformed request, refused with nothing counted.
    back = request.POST.get("next") or reverse(
        "collecting:collection-cards", kwargs={"pk": collection.pk}
    )
    if not _same_site_path(request, back):
        raise BadRequest("next is not a path on this site")
    delta = _int(request.POST.get("delta"))
    condition = request.POST.get("condition") or Condition.NEAR_MINT
    errors: list[str] = []
    try:
        collection_services.entry_adjust(
            collection=collection, card=card, condition=condition, delta=delta
        )
    except DomainError as exc:  # beside the counter (htmx), else as messages on the next page
        errors = show_problems(None if request.htmx else request, exc)
    # The template reads `card.owned`, as on the annotated grid; Card declares no such field.
    card.owned = collection_selectors.owned_of(collection=collection, card=card)  # type: ignore[attr-defined]
    if request.htmx:
        context = {"collection": collection, "card": card, "errors": errors}
        return render(request, "collecting/_owned.html", context)
    return HttpResponseRedirect(back)


@login_required
@require_http_methods(["GET", "POST"])
def collection_card(request, pk: int, code: str):
    """One card in a collection: its entries by condition, notes, and the owner's scans."""
    collection = _mine(request, pk)
    card = get_object_or_404(Card.objects.select_related("card_set"), code=code)
    if request.method == "POST":
        try:
            collection_services.scan_create(
                owner=request.user,
                collection=collection,
                card=card,
                upload=request.FILES.get("image") or b"",
            )
            messages.success(request, "Scan added.")
        except DomainError as exc:
            show_problems(request, exc)
        return redirect("collecting:collection-card", pk=collection.pk, code=card.code)
    context = {
        "collection": collection,
        "card": card,
        "entries": collection.entries.filter(card=card),
        "scans": collection.scans.filter(card=card),
        "conditions": Condition.choices,
        "max_bytes": scans.MAX_BYTES,
        "max_pixels": scans.MAX_PIXELS,
    }
    return render(request, "collecting/card.html", context)


@login_required
@require_GET
def collection_missing(request, pk: int):
    """Cards the collection lacks (or lacks a playset of), optionally in one set."""
    collection = _mine(request, pk)
    card_set = None
    if request.GET.get("set"):
        card_set = get_object_or_404(CardSet, code__iexact=request.GET["set"])
    playset = request.GET.get("playset") == "1"
    cards = collection_selectors.missing_cards(
        collection=collection, card_set=card_set, playset=playset
    )
    page = Paginator(cards, 200).get_page(request.GET.get("page"))
    context = {
        "collection": collection,
        "page": page,
        "set": card_set,
        "playset": playset,
        "sets": CardSet.objects.all(),
    }
    return render(request, "collecting/missing.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def collection_import(request, pk: int):
    """Upload a CSV; a refused file shows every bad row with its line and column."""
    collection = _mine(request, pk)
    errors: list[dict] = []
    if request.method == "POST":
        upload = request.FILES.get("file")
        mode = request.POST.get("mode", "add")
        if upload is None:
            errors = [{"line": 0, "column": None, "detail": "Choose a CSV file."}]
        else:
            try:
                result = collection_services.collection_import_csv(
                    collection=collection, file=upload, mode=mode
                )
            except DomainError as exc:  # a bad row names its line and column, a bad field its attr
                errors = [
                    {"line": 0, "column": problem["attr"], **problem} for problem in exc.problems
                ]
            else:
                messages.success(
                    request,
                    f"Imported {result.rows} rows: {result.card_copies} card copies and "
                    f"{result.chip_copies} kicker chips.",
                )
                return redirect(collection)
    status = 400 if errors else 200
    return render(
        request,
        "collecting/import.html",
        {"collection": collection, "errors": errors},
        status=status,
    )


@login_required
@require_GET
def collection_export(request, pk: int):
    return export_response(_mine(request, pk), request.GET.get("shape", "full"))


@login_required
@require_http_methods(["GET", "POST"])
def collection_open(request, pk: int):
    """Record an opened starter (contents from the catalogue) or a booster (enter its cards)."""
    collection = _mine(request, pk)
    if request.method == "POST":
        condition = request.POST.get("condition") or Condition.NEAR_MINT
        try:
            if request.POST.get("starter"):
                starter = get_object_or_404(StarterDeck, code=request.POST["starter"])
                collection_services.opening_record(
                    collection=collection, starter=starter, condition=condition
                )
            else:
                card_set = get_object_or_404(CardSet, code=request.POST.get("set", ""))
                cards, chips = _contents(request.POST.get("contents", ""))
                collection_services.opening_record(
                    collection=collection,
                    card_set=card_set,
                    cards=cards,
                    kicker_chips=chips,
                    condition=condition,
                )
        except DomainError as exc:
            show_problems(request, exc)
        else:
            messages.success(request, "Opened and added to the collection.")
            return redirect(collection)
    context = {
        "collection": collection,
        "sets": CardSet.objects.all(),
        "starters": StarterDeck.objects.select_related("card_set"),
        "conditions": Condition.choices,
        "contents": request.POST.get("contents", ""),
    }
    return render(request, "collecting/open.html", context)


def _contents(text: str) -> tuple[dict[str, int], dict[str, int]]:
    """Booster contents typed one per line as `CODE` or `CODE QTY` (or `CODE,QTY`)."""
    cards: dict[str, int] = {}
    chips: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        parts = line.replace(",", " ").split()
        if not parts:
            continue
        code = parts[0].upper()
        qty = _int(parts[1]) if len(parts) > 1 else 1
        if qty is None or len(parts) > 2:
            raise DomainError(
                f"Line {number}: write a code and an optional quantity.",
                code="invalid",
                attr="contents",
            )
        target = chips if "-K" in code else cards
        target[code] = target.get(code, 0) + qty
    return cards, chips


@require_http_methods(["GET", "POST"])
def collection_tradelist(request, pk: int):
    """The trade list: the owner may adjust how many to keep; others read a public one."""
    collection = collection_selectors.collection_for_tradelist(user=request.user, pk=pk)
    if collection is None:
        raise Http404
    is_owner = request.user.is_authenticated and collection.owner_id == request.user.pk
    if request.method == "POST":
        if not is_owner:
            raise Http404
        card = get_object_or_404(Card, code=request.POST.get("card", ""))
        raw = request.POST.get("keep", "").strip()
        keep = _int(raw) if raw else None  # blank restores the default
        try:
            if raw and (keep is None or keep < 0):
                raise DomainError("Keep a whole number of copies (0 or more).", code="invalid")
            collection_services.trade_keep_set(collection=collection, card=card, keep=keep)
        except DomainError as exc:
            show_problems(request, exc)
        return redirect("collecting:collection-tradelist", pk=collection.pk)
    cards = collection_selectors.tradelist(collection=collection)
    page = Paginator(cards, 200).get_page(request.GET.get("page"))
    context = {"collection": collection, "page": page, "is_owner": is_owner}
    return render(request, "collecting/tradelist.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def wishlist(request):
    """Your wishlist; adding what you already own says so instead."""
    entries = collection_selectors.wishlist(owner=request.user)
    if request.method == "POST":
        if "remove" in request.POST:
            pk = _int(request.POST["remove"])
            if pk is None:
                messages.error(request, "Choose a wish to remove.")
                context = {"entries": entries}
                return render(request, "collecting/wishlist.html", context, status=400)
            collection_services.wishlist_remove(entry=get_object_or_404(entries, pk=pk))
            return redirect("collecting:wishlist")
        typed = request.POST.get("code", "").strip()[:120]
        found = lookup(typed)
        if found.card is None and found.kicker_chip is None:
            context = {
                "entries": entries,
                "typed": typed,
                "quantity": _int(request.POST.get("quantity"), 1),
                "not_found": f"No card or kicker chip is called “{typed}”.",
                "did_you_mean": found.suggestions,
            }
            return render(request, "collecting/wishlist.html", context, status=400)
        try:
            result = collection_services.wishlist_add(
                owner=request.user,
                card=found.card,
                kicker_chip=found.kicker_chip,
                quantity=_int(request.POST.get("quantity"), 1),
            )
            messages.info(request, result.detail)
        except DomainError as exc:
            show_problems(request, exc)
        return redirect("collecting:wishlist")
    return render(request, "collecting/wishlist.html", {"entries": entries})


@login_required
@require_GET
def trades(request):
    """Match my wishlist with another user's public trade lists, and back."""
    username = request.GET.get("user", "").strip()
    matches, them = None, None
    if username:
        them = {"username": username}
        matches = trade_matches_for(me=request.user, username=username)
    public = (
        Collection.objects.filter(trade_list_public=True)
        .exclude(owner=request.user)
        .select_related("owner")[:50]
    )
    context = {"username": username, "them": them, "matches": matches, "public": public}
    return render(request, "collecting/trades.html", context)


@require_GET
def practice(request):
    """Open a practice booster of a set (seeded); nothing is added to any collection."""
    sets = CardSet.objects.all()
    booster, errors = None, []
    set_code = request.GET.get("set", "").upper()
    if set_code:
        seed = _int(request.GET.get("seed"))
        if request.GET.get("seed") and (seed is None or not 0 <= seed < 2**63):
            errors = ["The seed is a whole number."]
        else:
            try:
                booster = practice_booster(set_code, seed)
            except DomainError as exc:
                errors = show_problems(None, exc)
    if booster:
        cards = Card.objects.in_bulk(booster["cards"], field_name="code")
        booster["card_objects"] = [cards[c] for c in booster["cards"] if c in cards]
    context = {"sets": sets, "booster": booster, "errors": errors, "set_code": set_code}
    return render(request, "collecting/practice.html", context)


@login_required
@require_GET
def scan_file(request, pk: int, which: str):
    """A scan's image or thumbnail, owner only, with headers that stop it being run as
    anything but an image."""
    scan = get_object_or_404(CardScan, pk=pk, owner=request.user)
    field = scan.thumbnail if which == "thumbnail" else scan.image
    try:
        with field.open("rb") as handle:
            data = handle.read()
    except FileNotFoundError:
        raise Http404 from None
    response = HttpResponse(data, content_type=scan.content_type)
    response["X-Content-Type-Options"] = "nosniff"
    response["Content-Disposition"] = (
        f'inline; filename="{scan.card.code}-{which}-{scan.pk}.{scan.extension}"'
    )
    response["Content-Security-Policy"] = "default-src 'none'; sandbox"
    response["Cache-Control"] = "private, max-age=3600"
    response["Cross-Origin-Resource-Policy"] = "same-origin"
    return response


@login_required
@require_POST
def scan_delete(request, pk: int):
    scan = get_object_or_404(CardScan, pk=pk, owner=request.user)
    collection_id, code = scan.collection_id, scan.card.code
    collection_services.scan_delete(scan=scan)
    return redirect("collecting:collection-card", pk=collection_id, code=code)
