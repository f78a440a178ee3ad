from django.core.management.base import BaseCommand

from cards.services import catalogue_load


class Command(BaseCommand):
    help = "Load (or refresh) every card set in fixtures/sets into the database. Idempotent."

    def handle(self, *args, **options):
        result = catalogue_load()
        self.stdout.write(
            f"Loaded {result.sets} sets: {result.cards} cards, {result.kicker_chips} kicker "
            f"chips, {result.starters} starter decks."
        )
