"""Indexes in the exact orders of `sort:` on a dude stat (PostgreSQL), so a page of
`t:dude sort:-skill` walks an index and stops after `limit` rows instead of sorting every match.

cards.query orders a stat with NULLs (non-dudes) last either way, then by name and code:
`skill ASC NULLS LAST, name, code` is a plain btree's own order; the descending one needs
`DESC NULLS LAST` spelled out, which SQLite's CREATE INDEX does not accept (the embedded default
scans, which is fine at the catalogue's size). On 20,225 cards, `t:dude sort:skill` went from a
4.2 ms scan and sort to 0.06 ms (docs/search.md "Speed")."""

from django.db import migrations

STATS = ("smarts", "skill", "luck", "kicker_limit")


def _indexes():
    for stat in STATS:
        yield f"card_{stat}_order", f"{stat} ASC NULLS LAST, name, code"
        yield f"card_{stat}_desc_order", f"{stat} DESC NULLS LAST, name, code"


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for name, columns in _indexes():
        schema_editor.execute(f"CREATE INDEX IF NOT EXISTS {name} ON cards_card ({columns})")


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for name, _ in _indexes():
        schema_editor.execute(f"DROP INDEX IF EXISTS {name}")


class Migration(migrations.Migration):
    dependencies = [("cards", "0006_search_cost_order")]

    operations = [migrations.RunPython(forwards, backwards, elidable=False)]
