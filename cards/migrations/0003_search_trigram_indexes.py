"""Trigram indexes so name and ability-text searches (`icontains`, which Django compiles to
UPPER(col) LIKE UPPER('%...%')) use an index on PostgreSQL. SQLite has no equivalent; the
embedded default scans, which is fine at catalogue sizes."""

from django.db import migrations

INDEXES = {
    "card_name_trgm": "UPPER(name)",
    "card_text_trgm": "UPPER(text)",
}


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    for name, expression in INDEXES.items():
        schema_editor.execute(
            f"CREATE INDEX IF NOT EXISTS {name} ON cards_card USING gin ({expression} gin_trgm_ops)"
        )


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for name in INDEXES:
        schema_editor.execute(f"DROP INDEX IF EXISTS {name}")


class Migration(migrations.Migration):
    dependencies = [("cards", "0002_collection_collectionchip_collectionentry_cardscan_and_more")]

    operations = [migrations.RunPython(forwards, backwards, elidable=False)]
