"""`manage.py import_collection USER FILE [--collection NAME] [--mode add|replace]`."""

from __future__ import annotations

from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from collecting import services as collection_services
from collecting.models import Collection
from collecting.services import CollectionImportError
from config.api import DomainError


def collection_named(username: str, name: str | None, *, create: bool) -> Collection:
    """The user's collection called `name` (created if asked), or their first one."""
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise CommandError(f"No user {username!r}.")
    if name is None:
        return collection_services.collection_default(owner=user)
    collection = Collection.objects.filter(owner=user, name=name).first()
    if collection is None:
        if not create:
            raise CommandError(f"{username} has no collection {name!r}.")
        collection = collection_services.collection_create(owner=user, name=name)
    return collection


class Command(BaseCommand):
    help = "Import a collection CSV (docs/collections.md) for a user: all rows or none."

    def add_arguments(self, parser):
        parser.add_argument("user", help="username")
        parser.add_argument("file", type=Path)
        parser.add_argument("--collection", help="collection name (created if missing)")
        parser.add_argument("--mode", choices=["add", "replace"], default="add")

    def handle(self, *args, user, file, collection, mode, **options):
        target = collection_named(user, collection, create=True)
        try:
            with file.open("rb") as handle:
                result = collection_services.collection_import_csv(
                    collection=target, file=handle, mode=mode
                )
        except OSError as exc:
            raise CommandError(f"Cannot read {file}: {exc}") from exc
        except CollectionImportError as exc:
            lines = [
                f"line {e['line']}"
                + (f", {e['column']}" if e.get("column") else "")
                + f": {e['detail']}"
                for e in exc.problems
            ]
            raise CommandError("Nothing imported.\n" + "\n".join(lines)) from exc
        except DomainError as exc:
            raise CommandError(exc.detail) from exc
        self.stdout.write(
            f"Imported {result.rows} rows into {target.name}: {result.card_copies} card copies, "
            f"{result.chip_copies} kicker chips."
        )
