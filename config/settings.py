"""Drifter's one settings module: everything comes from the environment, with embedded defaults.

With no environment at all Drifter runs on SQLite (WAL, immediate transactions) and Celery's
`filesystem://` broker under ./var. Set DATABASE_URL and CELERY_BROKER_URL for PostgreSQL and
Redis. DEBUG is off unless DJANGO_DEBUG=true (`make dev`); without SECRET_KEY a key is made once
into var/secret_key. A deployment sets ALLOWED_HOSTS, which turns on the HTTPS hardening
(`manage.py check --deploy` passes then). See docs/operations.md.
"""

import contextlib
import os
import tempfile
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import environ

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(environ.Env().str("DRIFTER_VAR_DIR", default=str(BASE_DIR / "var")))

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

# Off unless asked for: `make run` serves as production does; `make dev` sets DJANGO_DEBUG=true.
DEBUG = env.bool("DJANGO_DEBUG", default=False)


def _secret_key_file(path: Path) -> str:
    """The key kept in `path`, made once with Django's generator on the first start.

    Written to a private temporary file and hard-linked into place, so that processes starting
    together (gunicorn workers, the Celery worker) all end up reading the one key that won.
    """
    from django.core.management.utils import get_random_secret_key

    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".secret_key-")  # mode 0600
        try:
            with os.fdopen(fd, "w") as f:
                f.write(get_random_secret_key())
            with contextlib.suppress(FileExistsError):
                os.link(tmp, path)
        finally:
            os.unlink(tmp)
    return path.read_text().strip()


SECRET_KEY = env.str("SECRET_KEY", default="") or _secret_key_file(VAR_DIR / "secret_key")
LOCAL_HOSTS = ["127.0.0.1", "localhost", "[::1]", "testserver"]
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=LOCAL_HOSTS)
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])
# Served over HTTPS (secure cookies, HSTS, the redirect; with DEBUG off): by default whenever a
# host beyond this machine is allowed, so `make run` on http://127.0.0.1 keeps working.
DRIFTER_HTTPS = env.bool("DRIFTER_HTTPS", default=not set(ALLOWED_HOSTS) <= set(LOCAL_HOSTS))

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "rest_framework",
    "rest_framework.authtoken",
    "channels",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "axes",
    "config.apps.AccountsConfig",
    "cards",
    "collecting",
    "decks",
    "simulator",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Pages and API answers gzipped for a client that accepts it (static files come gzipped
    # already, pictures compressed); Django pads each with random bytes against BREACH, and
    # CSRF tokens are masked.
    "config.compression.GZipText",
    # A NUL in a path or query is a 400 before any view looks a code up with it.
    "config.api.refuse_nul_characters",
    "config.api.refuse_repeated_query_parameters",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # A run's status poll answered with the answer kept for its owner, before the rest
    # (docs/operations.md, "Watching a run").
    "simulator.runs.status_polls.kept_status",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, as django-axes asks: turns a locked-out log-in into the lockout answer.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Database: SQLite by default (WAL + BEGIN IMMEDIATE so concurrent writers queue instead of
# failing with "database is locked"), PostgreSQL when DATABASE_URL says so.
VAR_DIR.mkdir(parents=True, exist_ok=True)
DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'drifter.sqlite3'}")}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": (
                "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA busy_timeout=20000;"
            ),
        }
    )
    # A file (not :memory:) so worker processes can share it; one per test process so
    # concurrent runs don't clobber each other.
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / f"test-{os.getpid()}.sqlite3")}
# Connections: opening one costs more than a status poll's whole query (SQLite runs its PRAGMAs
# and registers its functions on every open; PostgreSQL forks a backend), docs/operations.md.
# The web server (config/asgi.py) keeps them: its requests run on WEB_THREADS lasting threads,
# each with its connection, and the Procfile's web process sets CONN_MAX_AGE (600 s).
# Elsewhere (Celery, commands) one is opened for each use. PostgreSQL's pool (psycopg's) is
# there to turn on (DATABASE_POOL), but not by default: a forked process (the local simulation
# pool, Celery's prefork) would inherit the parent's pooled connections mid-transaction.
DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=0)
#: The threads a web process runs its requests' synchronous code on (config.asgi.LaneHandler).
WEB_THREADS = env.int("WEB_THREADS", default=4)
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env.bool(
    "DATABASE_POOL", default=False
):
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {"min_size": 1, "max_size": 20}
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# --- Throttling and login protection (docs/operations.md). The API's rates are in
# REST_FRAMEWORK below; false turns every throttle off (load tests; the test suite).
THROTTLE_ENABLED = env.bool("THROTTLE_ENABLED", default=True)
# django-axes: after LOGIN_FAILURE_LIMIT wrong passwords for a username from one client address
# (log-in page, admin, POST /api/v1/tokens/), that pair is refused, even with the right password,
# until LOGIN_COOLOFF_MINUTES pass without another try. By username and address together, so
# that nobody can lock a user out from everywhere by guessing wrong on purpose.
AUTHENTICATION_BACKENDS = [
    "config.auth.LockoutBackend",  # first: refuses a locked-out pair before any password check
    "django.contrib.auth.backends.ModelBackend",
]
AXES_ENABLED = env.bool("LOGIN_LOCKOUT_ENABLED", default=True)
AXES_FAILURE_LIMIT = env.int("LOGIN_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = timedelta(minutes=env.int("LOGIN_COOLOFF_MINUTES", default=15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_CLIENT_IP_CALLABLE = "config.api.client_address"
AXES_LOCKOUT_CALLABLE = "config.views.login_locked_out"
AXES_RESET_ON_SUCCESS = True
AXES_DISABLE_ACCESS_LOG = True  # failures are kept (that is the lockout); successes need not be

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# Static files are served by WhiteNoise in every mode, gzipped and under content-hashed names
# by `collectstatic` (which `make run` runs): browsers keep a hashed file for a year. Before a
# collect (the tests never collect), templates link the plain names (config/staticstorage.py).
STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # WhiteNoise warns of a missing one until collected
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "config.staticstorage.HashedStaticFiles"},
}
# /favicon.ico, which browsers ask for whatever the page links.
WHITENOISE_ROOT = BASE_DIR / "config" / "root"
MEDIA_URL = "media/"
MEDIA_ROOT = Path(env.str("MEDIA_ROOT", default=str(VAR_DIR / "media")))
FIXTURES_DIR = BASE_DIR / "fixtures"
# Rendered card and chip images are cached here, keyed by a hash of what they show.
CARD_IMAGE_CACHE = Path(env.str("CARD_IMAGE_CACHE", default=str(VAR_DIR / "card-images")))

# Uploads: refuse big bodies before they reach a view.
DATA_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024
DATA_UPLOAD_MAX_NUMBER_FIELDS = 5000

# --- REST framework: one error shape, limit/offset with a ceiling, session + token auth.
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Token first: an unauthenticated request then gets 401 + WWW-Authenticate, not 403.
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_PAGINATION_CLASS": "config.api.LimitOffsetPagination",
    "DEFAULT_FILTER_BACKENDS": [
        "config.api.FilterBackend",
        "rest_framework.filters.OrderingFilter",
    ],
    # JSON bodies only: one content type per body, which generated clients need. The upload
    # endpoints (card scans, collection CSV import) take multipart themselves.
    "DEFAULT_PARSER_CLASSES": ["config.api.JSONParser"],
    "DEFAULT_SCHEMA_CLASS": "config.schema.AutoSchema",
    "EXCEPTION_HANDLER": "config.api.exception_handler",
    # Rates are "N/s|min|hour|day", per client address (anonymous) or per user; see
    # "Throttling and login protection" in docs/operations.md. THROTTLE_ENABLED (above) turns
    # them all off.
    "DEFAULT_THROTTLE_CLASSES": [
        "config.api.AnonThrottle",
        "config.api.UserThrottle",
        "config.api.CostlyWriteThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": env.str("THROTTLE_ANON", default="120/min"),
        "user": env.str("THROTTLE_USER", default="1200/min"),
        "tokens": env.str("THROTTLE_TOKENS", default="20/hour"),
        "signup": env.str("THROTTLE_SIGNUP", default="10/hour"),
        "simulations": env.str("THROTTLE_SIMULATIONS", default="30/hour"),
        "table_games": env.str("THROTTLE_TABLE_GAMES", default="120/hour"),
    },
    # Proxies in front of Drifter that append to X-Forwarded-For; 0 trusts only REMOTE_ADDR, so
    # a client cannot pick its own address by sending the header.
    "NUM_PROXIES": env.int("NUM_PROXIES", default=0),
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Drifter API",
    "DESCRIPTION": (
        "The High Stakes Drifter catalogue, decks, collections and deck simulations. "
        'Errors always have the shape {"errors": [{"code", "detail", "attr"}]} (`ErrorList`). '
        "Reading the catalogue needs nothing; everything you own needs "
        "`Authorization: Token <key>` (a key from `POST /api/v1/tokens/`) or a session. "
        "Guide: docs/api.md."
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # Tags and operation ids by area (config/schema.py): a generated client's modules.
    "TAGS": [
        {"name": "cards", "description": "The catalogue: cards, sets, kicker chips."},
        {"name": "decks", "description": "Decks, validation, sealed pools and draft pods."},
        {"name": "collections", "description": "Collections, wishlist, trade lists and matching."},
        {"name": "simulations", "description": "Simulation runs and their results."},
        {"name": "games", "description": "The games a run can play and its sampled games."},
        {"name": "tokens", "description": "API tokens."},
    ],
    # One name per choice set, so that generated clients get one enum type for each.
    "ENUM_NAME_OVERRIDES": {
        "StatEnum": "cards.models.KickerChip.Stat",
        "CardTypeEnum": "cards.models.Card.Type",
        "CardSetKindEnum": "cards.models.CardSet.Kind",
        "PoolKindEnum": "decks.models.Pool.Kind",
        "DraftStatusEnum": "decks.models.DraftPod.Status",
        "RunKindEnum": "simulator.runs.models.SimulationRun.Kind",
        "RunStatusEnum": "simulator.runs.models.SimulationRun.Status",
        "FieldTargetEnum": "simulator.metagame.models.Target",
        # an ability's target, named before the metagame lab's `target` (above) shared the name
        "TargetEnum": ["all", "chosen_opponent", "opponents", "other_players", "player", "self"],
        "PutIntoPlayEnum": ["dude", "gear"],
        "TableGameStatusEnum": ["waiting", "your_turn", "their_turn", "over"],
    },
}

# --- Celery: JSON only, late acks, prefetch 1, time limits. The embedded default broker is the
# filesystem transport, so `make run` needs no server.
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="filesystem://")
BROKER_DIR = Path(env.str("CELERY_FS_BROKER_DIR", default=str(VAR_DIR / "broker")))
# The test suite runs in several processes (pytest-xdist's gw0, gw1, ...): each on a broker of
# its own, so that one process's workers never take another's tasks. tests/conftest.py then
# writes these into the environment its subprocesses inherit, with DRIFTER_TEST_BROKER_PINNED
# set so that they use them as they are (docs/operations.md, "The test suite").
TEST_WORKER = env.str("PYTEST_XDIST_WORKER", default="")
if env.bool("DRIFTER_TEST_BROKER_PINNED", default=False):
    TEST_WORKER = ""
if TEST_WORKER:
    BROKER_DIR = BROKER_DIR / TEST_WORKER
    if CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
        # One Redis database each, after the configured one: gw0 on /1, gw1 on /2 (kombu keeps
        # its broadcasts apart by database too).
        _redis = urlsplit(CELERY_BROKER_URL)
        _db = int(_redis.path.strip("/") or 0) + 1 + int(TEST_WORKER.removeprefix("gw"))
        CELERY_BROKER_URL = urlunsplit(_redis._replace(path=f"/{_db}"))
if CELERY_BROKER_URL.startswith("filesystem://"):
    for sub in ("in", "processed", "control"):
        (BROKER_DIR / sub).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(BROKER_DIR / "in"),
        "data_folder_out": str(BROKER_DIR / "in"),
        "processed_folder": str(BROKER_DIR / "processed"),
        "control_folder": str(BROKER_DIR / "control"),
        "store_processed": False,
        # An idle worker looks for a message this often (kombu's default is every second: a
        # run's first chunk then waited half a second on average); a look lists one folder.
        # Every 50 ms an idle worker uses 0.5% of a core (0.35% at 100 ms, 1% at 20 ms) and a
        # run's first chunk waits 25 ms on average for each worker instead of 50.
        "polling_interval": env.float("CELERY_FS_POLLING_SECONDS", default=0.05),
    }
else:
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600}
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_TIME_LIMIT = 300
CELERY_TASK_SOFT_TIME_LIMIT = 240
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=False)
# Celery's Django fixup closes every database connection before and after each task unless
# this is set (it then closes them every 2 x this many): a new connection for every chunk.
# simulator.runs.tasks closes them as Django does between two requests instead, by CONN_MAX_AGE
# (0 unless set: at every task, as before; `simulation_workers` gives its workers 600 s).
CELERY_DB_REUSE_MAX = 1_000_000_000

# --- The table's push channel (issue #26, docs/operations.md): one web process on the embedded
# default keeps its channel layer in memory; with Redis (CHANNEL_LAYER_URL, else a redis://
# CELERY_BROKER_URL) several web processes, on several machines, share one.
ASGI_APPLICATION = "config.asgi.application"
CHANNEL_LAYER_URL = env.str(
    "CHANNEL_LAYER_URL",
    default=CELERY_BROKER_URL if CELERY_BROKER_URL.startswith(("redis://", "rediss://")) else "",
)
if CHANNEL_LAYER_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            # No client read timeout: redis-py 8 reads for at most 5 s by default, and the
            # layer's receive is a blocking pop that waits as long: every idle connection's
            # consumer failed every few seconds (redis.exceptions.TimeoutError).
            "CONFIG": {
                "hosts": [{"address": CHANNEL_LAYER_URL, "socket_timeout": None}],
                "prefix": "drifter:asgi",
            },
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
#: How often each web process's table clock looks for people out of time (0: never).
TABLE_CLOCK_SECONDS = env.float("TABLE_CLOCK_SECONDS", default=1.0)
#: How often a table's page tells the server its player is still here.
TABLE_HEARTBEAT_SECONDS = env.int("TABLE_HEARTBEAT_SECONDS", default=10)
#: How often a table's page asks for the table's version when its push channel is down.
TABLE_POLL_SECONDS = env.int("TABLE_POLL_SECONDS", default=3)

# --- Email ("your turn" in a correspondence game): files under var/mail on the embedded
# default, SMTP by EMAIL_URL (e.g. smtp+tls://user:password@smtp.example.com:587).
if env.str("EMAIL_URL", default=""):
    vars().update(env.email_url("EMAIL_URL"))
else:
    EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    EMAIL_FILE_PATH = env.str("EMAIL_FILE_PATH", default=str(VAR_DIR / "mail"))
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Drifter <drifter@localhost>")
#: Where the site is reached from outside: the links in emails.
SITE_URL = env.str("SITE_URL", default="http://127.0.0.1:8000")

# Seconds the read-only catalogue API answers are cached (0 turns it off).
CATALOGUE_CACHE_SECONDS = env.int("CATALOGUE_CACHE_SECONDS", default=60)
CACHES = {
    "default": env.cache("CACHE_URL", default="locmemcache://"),
}

# --- Production hardening: applied whenever DEBUG is off; the HTTPS part only when served over
# HTTPS (DRIFTER_HTTPS above), since secure cookies never come back over plain http.
if not DEBUG:
    SECURE_CONTENT_TYPE_NOSNIFF = True
    X_FRAME_OPTIONS = "DENY"
    if DRIFTER_HTTPS:
        SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
        SESSION_COOKIE_SECURE = True
        CSRF_COOKIE_SECURE = True
        SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31536000)
        SECURE_HSTS_INCLUDE_SUBDOMAINS = True
        SECURE_HSTS_PRELOAD = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="WARNING")},
}
