"""Keep the search indexes fast right after a catalogue load (PostgreSQL only; SQLite has none).

- The trigram GIN indexes of 0003 stop using a *pending list*. With `fastupdate` on (the
  default), rows inserted by a load sit in an unsorted list that every search scans in full
  until a VACUUM merges it; a bulk load is followed by no VACUUM (autovacuum comes later, or for
  a small catalogue never), so right after loading 20,000 cards `COUNT(*)` of a name search
  took 10-15 ms by sequential scan instead of 1-2 ms through the index. The catalogue is
  written only by `load_catalogue`, so slower index inserts cost nothing that matters.
- Statistics on `UPPER(faction)`: `f:` compiles to `UPPER(faction) LIKE UPPER('%...%')`, and
  without statistics on that expression PostgreSQL guessed 1 matching row, which made it sort
  every match of `f:outlaws cost<=4 sort:-cost` instead of walking the cost index. The name and
  text expressions already have statistics through their indexes.
"""

from django.db import migrations

TRIGRAM_INDEXES = ("card_name_trgm", "card_text_trgm")


def forwards(apps, schema_editor):
    connection = schema_editor.connection
    if connection.vendor != "postgresql":
        return
    for name in TRIGRAM_INDEXES:
        schema_editor.execute(f"ALTER INDEX IF EXISTS {name} SET (fastupdate = off)")
        # Turning fastupdate off does not flush what is already pending.
        schema_editor.execute(
            f"SELECT gin_clean_pending_list(c.oid) FROM pg_class c WHERE c.relname = '{name}'"
        )
    if connection.pg_version >= 140000:  # statistics on expressions are PostgreSQL 14+
        schema_editor.execute(
            "CREATE STATISTICS IF NOT EXISTS card_faction_upper ON (UPPER(faction)) "
            "FROM cards_card"
        )
        schema_editor.execute("ANALYZE cards_card")


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("DROP STATISTICS IF EXISTS card_faction_upper")
    for name in TRIGRAM_INDEXES:
        schema_editor.execute(f"ALTER INDEX IF EXISTS {name} RESET (fastupdate)")


class Migration(migrations.Migration):
    dependencies = [("cards", "0004_card_set_order")]

    operations = [migrations.RunPython(forwards, backwards, elidable=False)]
