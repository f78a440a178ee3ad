"""Settings: embedded defaults with no environment, DEBUG off unless asked for, HTTPS hardening
when served beyond this machine."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

BASE_DIR = Path(__file__).resolve().parent.parent
PROBE = (
    "import json, django; django.setup(); from django.conf import settings as s; "
    "print(json.dumps({'engine': s.DATABASES['default']['ENGINE'], "
    "'broker': s.CELERY_BROKER_URL, 'acks_late': s.CELERY_TASK_ACKS_LATE, "
    "'prefetch': s.CELERY_WORKER_PREFETCH_MULTIPLIER, "
    "'reject': s.CELERY_TASK_REJECT_ON_WORKER_LOST,"
    "'serializer': s.CELERY_TASK_SERIALIZER, 'mode': s.DATABASES['default'].get('OPTIONS', {})"
    ".get('transaction_mode'), 'conn_max_age': s.DATABASES['default']['CONN_MAX_AGE'], "
    "'pool': bool(s.DATABASES['default'].get('OPTIONS', {}).get('pool')), "
    "'layer': s.CHANNEL_LAYERS['default']['BACKEND']}))"
)


def _settings_in(env: dict) -> dict:
    clean = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "CELERY_BROKER_URL"}}
    clean.update(env, DJANGO_SETTINGS_MODULE="config.settings")
    out = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=BASE_DIR, env=clean, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_with_no_environment_it_runs_on_sqlite_and_the_filesystem_broker():
    s = _settings_in({})
    assert s["engine"] == "django.db.backends.sqlite3"
    assert s["mode"] == "IMMEDIATE"
    assert s["broker"] == "filesystem://"
    # Under ASGI each request has a thread of its own: a connection kept past the request would
    # outlive its thread (docs/operations.md, "Settings").
    assert s["conn_max_age"] == 0 and not s["pool"]
    # One web process, the push channel in its memory (docs/operations.md).
    assert s["layer"] == "channels.layers.InMemoryChannelLayer"
    assert (s["acks_late"], s["reject"], s["prefetch"], s["serializer"]) == (True, True, 1, "json")


def test_database_and_broker_urls_switch_to_postgres_and_redis():
    s = _settings_in(
        {"DATABASE_URL": "postgres://u@127.0.0.1:5432/x", "CELERY_BROKER_URL": "redis://h:6379/0"}
    )
    assert s["engine"] == "django.db.backends.postgresql"
    assert s["broker"] == "redis://h:6379/0"
    # Not kept, and not pooled unless asked (a forked process would inherit the pool); the push
    # channel goes through Redis.
    assert s["conn_max_age"] == 0 and not s["pool"]
    assert s["layer"] == "channels_redis.core.RedisChannelLayer"


@pytest.mark.django_db
def test_sqlite_runs_in_wal_mode():
    if connection.vendor != "sqlite":
        pytest.skip("the WAL pragma applies to the embedded SQLite default only")
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA journal_mode")
        assert cursor.fetchone()[0] == "wal"


def test_production_settings_pass_check_deploy():
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    }
    env.update(
        DJANGO_DEBUG="false",
        SECRET_KEY="x" * 20 + "-a-long-random-production-secret-key-0987654321",
        ALLOWED_HOSTS="drifter.example.com",
    )
    out = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=BASE_DIR, env=env, capture_output=True, text=True,
    )  # fmt: skip
    assert out.returncode == 0, out.stdout + out.stderr


SERVING = (
    "import json, django; django.setup(); from django.conf import settings as s; "
    "print(json.dumps({n: getattr(s, n) for n in ('DEBUG', 'SECRET_KEY', 'ALLOWED_HOSTS', "
    "'SECURE_SSL_REDIRECT', 'SESSION_COOKIE_SECURE', 'CSRF_COOKIE_SECURE', "
    "'SECURE_HSTS_SECONDS')}))"
)
OPERATOR_CHOICES = ("DJANGO_DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "DRIFTER_HTTPS", "DATABASE_URL")


def _serving_settings(var_dir: Path, **env: str) -> dict:
    """Settings as a process started with only `env` set (and its own var/) sees them."""
    clean = {k: v for k, v in os.environ.items() if k not in OPERATOR_CHOICES}
    clean.update(env, DJANGO_SETTINGS_MODULE="config.settings", DRIFTER_VAR_DIR=str(var_dir))
    out = subprocess.run(
        [sys.executable, "-c", SERVING], cwd=BASE_DIR, env=clean, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_with_no_environment_debug_is_off_and_a_secret_key_is_made_once_into_var(tmp_path):
    first = _serving_settings(tmp_path)
    again = _serving_settings(tmp_path)

    key_file = tmp_path / "secret_key"
    assert first["DEBUG"] is False
    assert first["SECRET_KEY"] == key_file.read_text().strip()
    assert len(first["SECRET_KEY"]) >= 50
    assert key_file.stat().st_mode & 0o777 == 0o600
    assert again["SECRET_KEY"] == first["SECRET_KEY"]
    assert _serving_settings(tmp_path / "elsewhere")["SECRET_KEY"] != first["SECRET_KEY"]
    given = _serving_settings(tmp_path / "given", SECRET_KEY="k" * 50)
    assert given["SECRET_KEY"] == "k" * 50
    assert not (tmp_path / "given" / "secret_key").exists()


def test_served_on_this_machine_over_http_cookies_are_not_secure_and_nothing_redirects(tmp_path):
    s = _serving_settings(tmp_path, DJANGO_DEBUG="false")

    assert s["DEBUG"] is False
    assert {"127.0.0.1", "localhost"} <= set(s["ALLOWED_HOSTS"])
    assert (s["SECURE_SSL_REDIRECT"], s["SESSION_COOKIE_SECURE"], s["CSRF_COOKIE_SECURE"]) == (
        False, False, False
    )  # fmt: skip
    assert s["SECURE_HSTS_SECONDS"] == 0


def test_a_deployment_host_turns_on_https_redirect_secure_cookies_and_hsts(tmp_path):
    s = _serving_settings(tmp_path, ALLOWED_HOSTS="drifter.example.com")

    assert s["DEBUG"] is False
    assert (s["SECURE_SSL_REDIRECT"], s["SESSION_COOKIE_SECURE"], s["CSRF_COOKIE_SECURE"]) == (
        True, True, True
    )  # fmt: skip
    assert s["SECURE_HSTS_SECONDS"] == 31536000


def test_drifter_https_says_whether_it_is_served_over_https_whatever_the_hosts(tmp_path):
    plain = _serving_settings(tmp_path, ALLOWED_HOSTS="drifter.lan", DRIFTER_HTTPS="false")
    proxied = _serving_settings(tmp_path, DRIFTER_HTTPS="true")

    assert (plain["SESSION_COOKIE_SECURE"], plain["SECURE_SSL_REDIRECT"]) == (False, False)
    assert (proxied["SESSION_COOKIE_SECURE"], proxied["SECURE_SSL_REDIRECT"]) == (True, True)
