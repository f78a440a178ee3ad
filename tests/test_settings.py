"""Settings: embedded defaults with no environment, production hardening with DEBUG off."""

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
    ".get('transaction_mode')}))"
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
    assert (s["acks_late"], s["reject"], s["prefetch"], s["serializer"]) == (True, True, 1, "json")


def test_database_and_broker_urls_switch_to_postgres_and_redis():
    s = _settings_in(
        {"DATABASE_URL": "postgres://u@127.0.0.1:5432/x", "CELERY_BROKER_URL": "redis://h:6379/0"}
    )
    assert s["engine"] == "django.db.backends.postgresql"
    assert s["broker"] == "redis://h:6379/0"


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
