"""`manage.py export_collection USER [--collection NAME] [FILE] [--shape full|short]`."""

from __future__ import annotations

import sys
from pathlib import Path

from django.core.management.base import BaseCommand

from collecting import csv_format as collection_csv
from collecting.management.commands.import_collection import collection_named
from collecting.selectors import export_rows


class Command(BaseCommand):
    help = "Export a user's collection as CSV (to FILE, or standard output)."

    def add_arguments(self, parser):
        parser.add_argument("user", help="username")
        parser.add_argument("file", nargs="?", type=Path)
        parser.add_argument("--collection", help="collection name (default: the first one)")
        parser.add_argument("--shape", choices=["full", "short"], default="full")

    def handle(self, *args, user, file, collection, shape, **options):
        source = collection_named(user, collection, create=False)
        header, rows = export_rows(collection=source, shape=shape)
        chunks = collection_csv.write(rows, header=header)
        if file is None:
            out = self.stdout if options.get("stdout") else sys.stdout
            for chunk in chunks:
                out.write(chunk, ending="") if out is self.stdout else out.write(chunk)
            return
        with file.open("w", encoding="utf-8", newline="") as handle:
            handle.writelines(chunks)
