from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

DEMO_USERNAME = "demo"
DEMO_PASSWORD = "drifter-demo-2005"


class Command(BaseCommand):
    help = "Create the demo user for local runs (idempotent) and print its login."

    def handle(self, *args, **options):
        user, created = get_user_model().objects.get_or_create(username=DEMO_USERNAME)
        if created:
            user.set_password(DEMO_PASSWORD)
            user.email = "demo@example.com"
            user.save()
        state = "created" if created else "exists"
        self.stdout.write(
            f"Demo user {state}: log in at http://127.0.0.1:8000/accounts/login/ "
            f"as {DEMO_USERNAME} / {DEMO_PASSWORD}"
        )
