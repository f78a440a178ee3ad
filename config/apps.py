from django.apps import AppConfig


class AccountsConfig(AppConfig):
    """Accounts: sign-up, log-in and API tokens live in `config` (Django auth does the rest)."""

    name = "config"
    label = "accounts"
    verbose_name = "Accounts"
