"""What the table tells people once a change is committed: every viewer's push channel (a
"new version" note that carries nothing secret: each connection then builds its own viewer's
answer, simulator/table/consumers.py), the table's own lines of talk, and the "your turn"
email of a correspondence game. Nothing here says what a viewer may not see: the pushed note
is a version number, the talk's lines and the email name people, seats and moves only."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.urls import reverse

from simulator.games import service_for
from simulator.table.models import TableMessage

log = logging.getLogger(__name__)


def group(table_id: int) -> str:
    """The push channel's group of one table's viewers."""
    return f"table.{table_id}"


def changed(row: Any) -> None:
    """Once committed, tell every connection watching `row` its new version."""
    # The version, and when it was saved: a table id and version alone could name two tables
    # where a database was emptied and refilled (the viewers' snapshots are kept by both).
    note = {"type": "table.changed", "version": row.version, "saved": row.updated_at.isoformat()}
    table_id = row.pk
    transaction.on_commit(lambda: publish(table_id, note))


#: The event loop of the ASGI server this process runs, if any (`serve_on`).
_LOOP: asyncio.AbstractEventLoop | None = None


def serve_on(loop: asyncio.AbstractEventLoop | None) -> None:
    """The ASGI server's loop (config/asgi.py, at start-up; None at shutdown): a change made in
    a request's thread is handed to it without the request waiting for the loop."""
    global _LOOP
    _LOOP = loop


def publish(table_id: int, message: dict[str, Any]) -> None:
    """Send `message` to the table's group (a push channel that is down loses it; the pages
    and clients fall back to polling the version, so nothing is lost but time)."""
    layer = get_channel_layer()
    if layer is None:
        return
    loop = _LOOP
    if loop is not None and loop.is_running():
        try:
            here = asyncio.get_running_loop()
        except RuntimeError:
            here = None
        sent = layer.group_send(group(table_id), message)
        if here is loop:
            loop.create_task(sent).add_done_callback(lambda done: _failed(table_id, done))
        else:
            future = asyncio.run_coroutine_threadsafe(sent, loop)
            future.add_done_callback(lambda done: _failed(table_id, done))
        return
    try:  # no server in this process (a Celery worker, a command): send and wait
        async_to_sync(layer.group_send)(group(table_id), message)
    except Exception:  # the push channel is best effort: the record is the truth
        log.warning("could not push table %s's change", table_id, exc_info=True)


def _failed(table_id: int, done: Any) -> None:
    if not done.cancelled() and done.exception() is not None:
        log.warning("could not push table %s's change: %r", table_id, done.exception())


def say(row: Any, text: str) -> None:
    """A line the table itself says in its talk ("demo sat down in seat 2")."""
    TableMessage.objects.create(table=row, text=text[:300], system=True)
    row._said = True


def said(row: Any) -> bool:
    """Whether the table said a line (`say`) through this row object."""
    return bool(getattr(row, "_said", False))


def your_turn(row: Any, person: Any) -> None:
    """Tell `person` by email it is their turn in a correspondence game (once a move), after
    the commit. The site's own notice is their list of tables waiting on them."""
    if person.notified_move == row.move or person.user is None:
        return
    person.notified_move = row.move
    person.save(update_fields=["notified_move"])
    address = person.user.email
    if not address:
        return
    subject, body = your_turn_email(row, person)
    transaction.on_commit(
        lambda: send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [address], fail_silently=True)
    )


def your_turn_email(row: Any, person: Any) -> tuple[str, str]:
    """The subject and text of the "your turn" email: the table, the move, who sits there and
    the deadline; never a card."""
    title = service_for(row.game).title
    others = ", ".join(s["label"] for i, s in enumerate(row.seats) if i != person.index)
    url = settings.SITE_URL.rstrip("/") + reverse("play:game", args=[row.pk])
    deadline = f"{row.deadline:%Y-%m-%d %H:%M} UTC" if row.deadline else "none"
    subject = f"Your turn: {title}, table {row.pk}"
    body = (
        f"It is your turn at table {row.pk} ({title}), move {row.move + 1}.\n"
        f"At the table: {others}.\n"
        f"Your deadline: {deadline}.\n\n"
        f"Play your move: {url}\n"
    )
    return subject, body
