from django.core.management.base import BaseCommand
from django.db import DEFAULT_DB_ALIAS, connections


class Command(BaseCommand):
    help = (
        "Create the PostgreSQL database named in DATABASE_URL when it is missing (idempotent; "
        "SQLite creates its file itself). `make run` calls it before migrating."
    )

    def add_arguments(self, parser):
        parser.add_argument("--database", default=DEFAULT_DB_ALIAS)

    def handle(self, *args, database: str, **options):
        connection = connections[database]
        name = connection.settings_dict["NAME"]
        if connection.vendor != "postgresql":
            self.stdout.write(f"{connection.display_name} creates {name} itself: nothing to do.")
            return
        # Django's own connection to the `postgres` maintenance database, the one it uses to
        # create test databases: the same credentials, and autocommit, which CREATE DATABASE needs.
        with connection._nodb_cursor() as cursor:
            cursor.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name])
            if cursor.fetchone():
                self.stdout.write(f"Database {name} exists.")
                return
            cursor.execute(f"CREATE DATABASE {connection.ops.quote_name(name)}")
        self.stdout.write(self.style.SUCCESS(f"Database {name} created."))
