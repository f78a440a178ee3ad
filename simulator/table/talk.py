"""Table talk (issue #26): short lines among the seated players, and the spectators where the
host allows; kept with the game, rate-limited, hideable by each reader, removable by the host.
Shown escaped everywhere (the templates escape; clients get plain text). Nothing else a
player writes is ever shown to the others."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from django.utils import timezone

from config.db import writing
from simulator.table import services as table
from simulator.table.models import TableMessage
from simulator.table.selectors import Access, table_access

MAX_CHARS = 300
#: At most this many lines a window per person and table.
RATE = (5, timedelta(seconds=10))


class TalkTooFast(table.DomainError):
    status = 429


def may_talk(access: Access) -> bool:
    """Seated players talk; spectators only where the host allows (and signed in)."""
    if access.seats:
        return True
    user_ok = getattr(access.user, "is_authenticated", False)
    return bool(user_ok and access.game.spectators and access.game.spectators_talk)


def may_read(access: Access) -> bool:
    return bool(access.seats or access.host or access.invited or access.game.spectators_talk)


def talk_list(access: Access, *, after: int = 0) -> QuerySet[TableMessage]:
    """The lines `access`'s viewer may read, oldest first (after the id `after`), without the
    ones they hid; a removed line stays, emptied."""
    if not may_read(access):
        return TableMessage.objects.none()
    rows = TableMessage.objects.filter(table=access.game, id__gt=after).select_related("author")
    if getattr(access.user, "is_authenticated", False):
        rows = rows.exclude(hidden_by=access.user)
    return rows.order_by("id")


@writing()
def talk_post(*, user: Any, pk: Any, text: Any) -> TableMessage:
    """Say `text` at the table; TableRefused for an empty or too long line, TalkTooFast past
    the rate, TableForbidden for a viewer who may not talk; nothing written then."""
    access = table_access(user=user, pk=pk, for_update=True)
    if not may_talk(access):
        raise table.TableForbidden("Only the players talk at this table.", code="no_talk")
    line = " ".join(str(text or "").split())
    if not line:
        raise table.TableRefused("Say something.", code="empty", attr="text")
    if len(line) > MAX_CHARS:
        raise table.TableRefused(
            f"A line of table talk is at most {MAX_CHARS} characters.", code="too_long", attr="text"
        )
    count, window = RATE
    recent = TableMessage.objects.filter(
        table=access.game, author=user, created_at__gte=timezone.now() - window
    ).count()
    if recent >= count:
        raise TalkTooFast(
            f"At most {count} lines in {window.seconds} seconds: wait a moment.", code="too_fast"
        )
    message = TableMessage.objects.create(
        table=access.game,
        author=user,
        seat=access.seats[0] if access.seats else None,
        text=line,
    )
    table.save(access.game)
    return message


def _message(access: Access, message_id: Any) -> TableMessage:
    try:
        return TableMessage.objects.get(table=access.game, pk=int(message_id))
    except (TableMessage.DoesNotExist, ValueError, TypeError, OverflowError):
        raise Http404("No such line.") from None


def talk_hide(*, user: Any, pk: Any, message_id: Any, hide: bool = True) -> None:
    """Hide a line from `user`'s own reading (or show it again)."""
    access = table_access(user=user, pk=pk)
    if not may_read(access) or not getattr(user, "is_authenticated", False):
        raise table.TableForbidden("You do not read this table's talk.", code="no_talk")
    message = _message(access, message_id)
    (message.hidden_by.add if hide else message.hidden_by.remove)(user)


@writing()
def talk_remove(*, user: Any, pk: Any, message_id: Any) -> None:
    """The host removes a line for everyone (it stays, emptied: "removed by the host")."""
    access = table_access(user=user, pk=pk, for_update=True)
    if not access.host:
        raise table.TableForbidden("Only the host removes a line.", code="not_host")
    message = _message(access, message_id)
    if not message.removed:
        message.removed = True
        message.save(update_fields=["removed"])
        table.save(access.game)


def talk_json(message: TableMessage, viewer: Any = None) -> dict[str, Any]:
    """A line as the API and the push channel give it (plain text: the client escapes)."""
    return {
        "id": message.pk,
        "author": message.author.get_username() if message.author and not message.system else None,
        "seat": message.seat,
        "text": "" if message.removed else message.text,
        "system": message.system,
        "removed": message.removed,
        "at": message.created_at.isoformat(),
    }
