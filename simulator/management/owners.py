"""Who owns the runs a command makes: the user named, else the first superuser, else the first
user, else a new `simulator` user (`simulate` and `bots_ladder`)."""

from __future__ import annotations

from django.contrib.auth import get_user_model


def command_owner(username: str | None = None):
    """The owner of a command's runs (see the module)."""
    User = get_user_model()
    owner = (
        User.objects.filter(username=username).first()
        if username
        else User.objects.filter(is_superuser=True).order_by("pk").first()
        or User.objects.order_by("pk").first()
    )
    if owner is None:
        owner = User.objects.create_user("simulator", password=None)
    return owner
