"""Reads of the table: who may see a table and as whom, a person's tables, the lobby."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Case, Exists, F, IntegerField, OuterRef, Q, QuerySet, Value, When
from django.http import Http404

from simulator.table.models import TableGame, TableSeat


@dataclass
class Access:
    """A table as one viewer may reach it: the seats they hold (seated, or out of the game),
    whether they host it, hold an invitation to it, or may only watch."""

    game: TableGame
    user: Any
    seats: list[int] = field(default_factory=list)
    host: bool = False
    invited: list[int] = field(default_factory=list)
    #: The invitation link's token was given and is the table's.
    token: bool = False

    @property
    def spectator(self) -> bool:
        return not self.seats


def _user_id(user: Any) -> int | None:
    return user.pk if getattr(user, "is_authenticated", False) else None


def table_access(
    *, user: Any, pk: Any, for_update: bool = False, token: str = "", everyone: bool = False
) -> Access:
    """The table `pk` as `user` may see it (locked for a write with `for_update`); Http404 for
    a table they may not see: neither host nor seated nor invited, not listed in the lobby
    while it waits, not open to spectators, and not named by its invitation's `token`.
    `everyone`: read every person's seat with it (for a caller that changes none of them but
    through those rows)."""
    rows = TableGame.objects.select_related("owner")
    if for_update:
        rows = rows.select_for_update(of=("self",))
    try:
        row = rows.get(pk=int(pk))
    except (TableGame.DoesNotExist, ValueError, TypeError, OverflowError):
        raise Http404("No such table.") from None
    uid = _user_id(user)
    if everyone:  # every person's seat, read once (`services._people` finds them on the row)
        people = list(TableSeat.objects.filter(table=row).select_related("user"))
        row._people_cache = {p.index: p for p in people}  # type: ignore[attr-defined]
        return access_of(row, people, user, token)
    mine = TableSeat.objects.filter(table=row, user_id=uid) if uid is not None else []
    return access_of(row, mine, user, token)


def access_of(row: TableGame, people: Iterable[TableSeat], user: Any, token: str = "") -> Access:
    """`table_access` for a row and its people's seats already read (the push channel reads a
    table once for all its viewers); Http404 for a viewer who may not see it."""
    uid = _user_id(user)
    access = Access(game=row, user=user, host=uid is not None and row.owner_id == uid)
    for person in people:
        if uid is None or person.user_id != uid:
            continue
        if person.state in (TableSeat.State.SEATED, TableSeat.State.OUT):
            access.seats.append(person.index)
        elif person.state == TableSeat.State.INVITED:
            access.invited.append(person.index)
    access.token = bool(token) and row.invite_token is not None and token == row.invite_token
    visible = (
        access.host
        or access.seats
        or access.invited
        or access.token
        or row.spectators
        or (row.listed and row.is_waiting)
    )
    if not visible:
        raise Http404("No such table.")
    return access


def table_by_token(token: str) -> TableGame:
    """The table an invitation link names; Http404 for a token that names none (revoked)."""
    if not token or len(token) > 64:
        raise Http404("This invitation is not valid (any more).")
    try:
        return TableGame.objects.get(invite_token=token)
    except TableGame.DoesNotExist:
        raise Http404("This invitation is not valid (any more).") from None


def table_game_get(*, owner, pk: Any, for_update: bool = False) -> TableGame:
    """A table `owner` holds a seat at or hosts (locked with `for_update`); Http404 else."""
    access = table_access(user=owner, pk=pk, for_update=for_update)
    if not (access.host or access.seats):
        raise Http404("No such table.")
    return access.game


def _waiting_on(uid: int) -> Exists:
    return Exists(
        TableSeat.objects.filter(
            table=OuterRef("pk"),
            user_id=uid,
            state=TableSeat.State.SEATED,
            standing_in=False,
            index=OuterRef("to_act"),
        )
    )


def table_game_list(*, owner) -> QuerySet[TableGame]:
    """`owner`'s tables (hosted, seated at or invited to): those waiting on them first, then
    the unfinished, then the most recently played."""
    uid = _user_id(owner)
    if uid is None:
        return TableGame.objects.none()
    mine = Q(owner_id=uid) | Q(people__user_id=uid)
    return (
        TableGame.objects.filter(mine)
        .distinct()
        .annotate(
            waiting_on_me=_waiting_on(uid),
            rank=Case(
                When(Q(status=TableGame.Status.PLAYING) & _waiting_on(uid), then=Value(0)),
                When(status=TableGame.Status.OVER, then=Value(2)),
                default=Value(1),
                output_field=IntegerField(),
            ),
        )
        .prefetch_related("people__user")
        .order_by("rank", "-updated_at", "-id")
    )


def tables_waiting_on(user) -> QuerySet[TableGame]:
    """The games in which it is `user`'s turn."""
    uid = _user_id(user)
    if uid is None:
        return TableGame.objects.none()
    return (
        TableGame.objects.filter(status=TableGame.Status.PLAYING)
        .filter(_waiting_on(uid))
        .order_by("deadline", "-updated_at")
    )


def invitations(user) -> QuerySet[TableSeat]:
    """The seats kept for `user` at tables still waiting for them."""
    uid = _user_id(user)
    if uid is None:
        return TableSeat.objects.none()
    return TableSeat.objects.filter(
        user_id=uid, state=TableSeat.State.INVITED, table__status=TableGame.Status.WAITING
    ).select_related("table", "table__owner")


def lobby() -> QuerySet[TableGame]:
    """Listed tables waiting for players, newest first, with their free seats counted."""
    return (
        TableGame.objects.filter(status=TableGame.Status.WAITING, listed=True)
        .select_related("owner")
        .prefetch_related("people", "people__user")
        .order_by("-created_at")
    )


def history(user) -> QuerySet[TableGame]:
    """`user`'s finished games against other people."""
    uid = _user_id(user)
    if uid is None:
        return TableGame.objects.none()
    others = TableSeat.objects.filter(table=OuterRef("pk")).exclude(user_id=uid).exclude(user=None)
    return (
        TableGame.objects.filter(status=TableGame.Status.OVER, people__user_id=uid)
        .filter(Exists(others))
        .distinct()
        .prefetch_related("people", "people__user")
        .order_by("-updated_at")
    )


def clock_due(now) -> list[int]:
    """The tables whose person to act is out of time, or away past the table's grace."""
    late = TableGame.objects.filter(status=TableGame.Status.PLAYING, deadline__lte=now).values_list(
        "pk", flat=True
    )
    away = TableSeat.objects.filter(
        table__status=TableGame.Status.PLAYING,
        table__pace=TableGame.Pace.LIVE,
        table__clock_seconds__isnull=False,
        state=TableSeat.State.SEATED,
        standing_in=False,
        away_at__lte=now,
        index=F("table__to_act"),
    ).values_list("table_id", flat=True)
    return sorted(set(late) | set(away))
