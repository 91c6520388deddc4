"""Marker settings: one file, driven by the environment, with safe local defaults.

Production sets at least SECRET_KEY, ALLOWED_HOSTS, DATABASE_URL and CELERY_BROKER_URL
(see README, "Running in production"). Local development (`make run`) sets DEBUG=1 and
uses SQLite and in-process Celery.
"""

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from celery.schedules import crontab
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent

DEV_SECRET_KEY = "django-insecure-marker-development-key-never-use-in-production"


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", default=False)
SECRET_KEY = os.environ.get("SECRET_KEY", DEV_SECRET_KEY)
if not DEBUG and SECRET_KEY == DEV_SECRET_KEY:
    raise ImproperlyConfigured(
        "Refusing to start with DEBUG off and the development SECRET_KEY. "
        "Set SECRET_KEY (production) or DEBUG=1 (local development)."
    )

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "axes",
    "csp",
    "notifications",
    "leagues",
    "frames",
    "exchange",
    "competitions",
    "money",
    "series",
]

MIDDLEWARE = [
    # The live match poll, answered before the rest (frames/pad/live_polls.py).
    "frames.pad.live_polls.LivePolls",
    "django.middleware.security.SecurityMiddleware",
    "marker.middleware.RequestSizeLimit",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Public reads from the replica, writers pinned to the primary (marker/replica.py).
    "marker.replica.ReplicaReads",
    "leagues.links.ForgetLeagueSlugs",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "marker.middleware.CSPMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
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
            "builtins": ["leagues.templatetags.league_urls"],
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "leagues.context_processors.roles",
                "leagues.context_processors.notices",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "600")),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several writers (web + in-process tasks) on one file: wait instead of failing.
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 20


# PgBouncer in transaction mode in front of PostgreSQL (README, "Growing past one machine"):
# DATABASE_POOLER=pgbouncer. A server-side cursor outlives the transaction that opened it,
# so Django's are turned off. Prepared statements (marker/prepared.py: the shot path's)
# need PgBouncer 1.21+ with `max_prepared_statements` set; Debian 12 has 1.18, so behind a
# pooler they are off unless DATABASE_PREPARED_STATEMENTS=1 says the pooler keeps them.
DATABASE_POOLER = os.environ.get("DATABASE_POOLER", "").strip().lower()
if DATABASE_POOLER not in ("", "pgbouncer"):
    raise ImproperlyConfigured(
        f"DATABASE_POOLER must be 'pgbouncer' or empty, not {DATABASE_POOLER!r}"
    )
DATABASE_PREPARED_STATEMENTS = env_bool(
    "DATABASE_PREPARED_STATEMENTS", default=DATABASE_POOLER != "pgbouncer"
)

# A streaming replica for public reads (marker/replica.py): DATABASE_REPLICA_URL. GET pages
# of visitors not signed in read from it; writes, signed-in users and anyone who wrote in
# the last REPLICA_PIN_SECONDS stay on the primary; so does everyone while the replica is
# down or more than REPLICA_MAX_LAG_SECONDS behind (checked once a REPLICA_CHECK_SECONDS).
DATABASE_REPLICA_URL = os.environ.get("DATABASE_REPLICA_URL", "")
if DATABASE_REPLICA_URL:
    DATABASES["replica"] = dj_database_url.parse(
        DATABASE_REPLICA_URL,
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "600")),
        conn_health_checks=True,
    )
    # A replica that does not answer must not hold a request for long.
    DATABASES["replica"].setdefault("OPTIONS", {}).setdefault("connect_timeout", 2)
    DATABASES["replica"]["TEST"] = {"MIRROR": "default"}
    DATABASE_ROUTERS = ["marker.replica.ReplicaRouter"]
# Whether public reads use the `replica` alias (only tests set it apart from the URL).
REPLICA_READS = bool(DATABASE_REPLICA_URL)
if DATABASE_POOLER == "pgbouncer":
    for _database in DATABASES.values():
        _database["DISABLE_SERVER_SIDE_CURSORS"] = True
REPLICA_PIN_COOKIE = "marker_primary"
REPLICA_MAX_LAG_SECONDS = float(os.environ.get("REPLICA_MAX_LAG_SECONDS", "5"))
REPLICA_PIN_SECONDS = int(os.environ.get("REPLICA_PIN_SECONDS", "10"))
REPLICA_CHECK_SECONDS = float(os.environ.get("REPLICA_CHECK_SECONDS", "1"))
REPLICA_RETRY_SECONDS = float(os.environ.get("REPLICA_RETRY_SECONDS", "5"))
if REPLICA_PIN_SECONDS <= REPLICA_MAX_LAG_SECONDS:
    raise ImproperlyConfigured(
        "REPLICA_PIN_SECONDS must exceed REPLICA_MAX_LAG_SECONDS, or a writer could read "
        "from a replica that has not yet seen the write."
    )

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "marker.permissions.PredicateBackend",
    "django.contrib.auth.backends.ModelBackend",
]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en-gb"
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/London")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# Where collectstatic puts the files (nginx serves them from there in deploy/).
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
# Uploaded files (photos of signed score cards, docs/paper-card.md): the filesystem under
# MEDIA_ROOT by default; S3-compatible object storage (django-storages) with MEDIA_STORAGE=s3,
# AWS_STORAGE_BUCKET_NAME, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and, for a server other
# than Amazon's (MinIO, Garage, Ceph…), AWS_S3_ENDPOINT_URL. Never served as public media:
# a view checks who may see each file and reads it through the storage.
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT") or BASE_DIR / "media")
MEDIA_URL = "media/"
MEDIA_STORAGE = os.environ.get("MEDIA_STORAGE", "filesystem").lower()
if MEDIA_STORAGE == "s3":
    DEFAULT_STORAGE: dict = {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": os.environ["AWS_STORAGE_BUCKET_NAME"],
            "access_key": os.environ.get("AWS_ACCESS_KEY_ID"),
            "secret_key": os.environ.get("AWS_SECRET_ACCESS_KEY"),
            "endpoint_url": os.environ.get("AWS_S3_ENDPOINT_URL") or None,
            "region_name": os.environ.get("AWS_S3_REGION_NAME") or None,
            "addressing_style": os.environ.get("AWS_S3_ADDRESSING_STYLE") or None,
            "location": os.environ.get("AWS_LOCATION", ""),
            # Private objects, never overwritten (each name is random anyway).
            "default_acl": None,
            "file_overwrite": False,
            "querystring_auth": True,
        },
    }
elif MEDIA_STORAGE == "filesystem":
    DEFAULT_STORAGE = {"BACKEND": "django.core.files.storage.FileSystemStorage"}
else:
    raise ImproperlyConfigured(f"MEDIA_STORAGE must be 'filesystem' or 's3', not {MEDIA_STORAGE!r}")
STORAGES = {
    "default": DEFAULT_STORAGE,
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "marker.staticfiles.StaticFilesStorage"
        )
    },
}

# Email: the console locally; SMTP in production via EMAIL_URL-like settings.
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS")
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Marker <marker@localhost>")
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000")
# Web Push (notifications/delivery.py): the VAPID key pair that signs every push message
# (`manage.py vapid_keys` makes one) and the contact the push services see.
VAPID_PRIVATE_KEY = os.environ.get("VAPID_PRIVATE_KEY", "")
VAPID_PUBLIC_KEY = os.environ.get("VAPID_PUBLIC_KEY", "")
VAPID_SUBJECT = os.environ.get(
    "VAPID_SUBJECT", "mailto:" + DEFAULT_FROM_EMAIL.split("<")[-1].rstrip(">")
)
# Without keys push is off, except with DEBUG (`make run`): a pair is made once into this
# file (kept out of git) so push works in the demo (notifications/vapid.py).
VAPID_DEV_KEY_FILE = os.environ.get("VAPID_DEV_KEY_FILE", str(BASE_DIR / ".vapid.pem"))
# A push endpoint must be https; plain http to localhost only in development and tests.
PUSH_ALLOW_LOCAL_HTTP = DEBUG

# Cache: Redis when configured (shared by several app servers), else local memory.
REDIS_CACHE_URL = os.environ.get("CACHE_URL", "")
CACHES = {
    "default": (
        # Django's Redis cache, one client per pool (marker/cache.py).
        {"BACKEND": "marker.cache.RedisCache", "LOCATION": REDIS_CACHE_URL}
        if REDIS_CACHE_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}

# Live polls answer 304 from version tokens in the cache (marker/versions.py): on by
# default with a shared cache (Redis), off with local memory unless LIVE_VERSIONS=1 says
# there is one process (`make run`); LIVE_VERSIONS=0 builds every poll.
LIVE_VERSIONS = env_bool("LIVE_VERSIONS") if os.environ.get("LIVE_VERSIONS") else None
LIVE_VERSION_TTL = int(os.environ.get("LIVE_VERSION_TTL", "300"))
# Seconds a process keeps the tokens it read (marker/versions.py): another process's change
# reaches a poll at most this much later; 0 reads the cache on every poll.
LIVE_VERSION_MEMO = float(os.environ.get("LIVE_VERSION_MEMO", "0.25"))

# Sessions: read through the shared cache when there is one (a signed-in request then reads
# no session row; writes still go to the database, so a cache restart signs nobody out).
# Without Redis the sessions stay in the database: a per-process local-memory cache would
# let one process keep a session another has ended.
SESSION_ENGINE = os.environ.get(
    "SESSION_ENGINE",
    "django.contrib.sessions.backends.cached_db"
    if REDIS_CACHE_URL
    else "django.contrib.sessions.backends.db",
)

# Failed logins (marker/throttle.py, README "Running in production"): a username at one
# address locks after AXES_FAILURE_LIMIT failures, an address across every username it
# tries (spraying) after AXES_ADDRESS_FAILURE_LIMIT, each for 15 minutes. A username is
# never locked everywhere, so nobody can lock a captain out from elsewhere; a locked
# account can still reset its password, which lifts its lock.
# The client's address: behind TRUSTED_PROXY_COUNT proxies (TLS in front: 1), the address
# they saw in X-Forwarded-For; with none (the default), the connection's address.
TRUSTED_PROXY_COUNT = int(os.environ.get("TRUSTED_PROXY_COUNT", "0"))
AXES_CLIENT_IP_CALLABLE = "marker.throttle.client_ip"
AXES_HANDLER = "marker.throttle.Handler"
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "10"))
AXES_ADDRESS_FAILURE_LIMIT = int(os.environ.get("AXES_ADDRESS_FAILURE_LIMIT", "30"))
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]
AXES_RESET_ON_SUCCESS = True
AXES_USERNAME_CALLABLE = "marker.login_names.axes_username"  # at most 150 characters, no NUL
AXES_LOCKOUT_TEMPLATE = "registration/locked.html"

# Request bodies: 1 MiB at most (the largest real one, a squad or a score sheet, is a few
# KiB). marker.middleware.RequestSizeLimit answers 413 above it, before anything reads it.
DATA_UPLOAD_MAX_MEMORY_SIZE = int(os.environ.get("DATA_UPLOAD_MAX_MEMORY_SIZE", str(1024 * 1024)))
# Paths that take one large file (a photo of a score card: at most 15 MB, refused by the
# service beyond), with their own request-size limit (marker.middleware.RequestSizeLimit;
# nginx's is in deploy/nginx/marker.conf).
LARGE_UPLOAD_PATHS = [r"^/matches/[0-9]+/cards/$"]
LARGE_UPLOAD_MAX_SIZE = 16 * 1024 * 1024

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "marker.api_schema.AutoSchema",
    # The pad and the pages use the session (with its CSRF token); nothing uses HTTP Basic,
    # which would put every guessed username through django-axes.
    "DEFAULT_AUTHENTICATION_CLASSES": ["rest_framework.authentication.SessionAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["marker.permissions.ReadOnlyOrPredicate"],
    "DEFAULT_PARSER_CLASSES": [
        "marker.api_inputs.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_PAGINATION_CLASS": "marker.api_inputs.Pagination",
    "PAGE_SIZE": 100,
    "EXCEPTION_HANDLER": "marker.api_errors.exception_handler",
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Marker API",
    "DESCRIPTION": (
        "Leagues, fixtures, match nights and shot-by-shot frames for cue-sport leagues.\n\n"
        'Every error, 4xx or 5xx, is JSON: `{"error": code, "message": text}` (the '
        "`Error` schema), with `fields` when the input did not validate. Reads marked "
        "public need no credentials; writes use the session cookie and its CSRF token "
        "(`GET /api/pad/session/`). Request bodies are at most 1 MiB (413 `too_large`)."
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Two fields are called "kind": a registration's keeps its name, an import's gets its own.
    "COMPONENT_SPLIT_REQUEST": True,
    # The docs page's assets are ours (drf-spectacular-sidecar): no CDN, and the CSP holds.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_SETTINGS": {"deepLinking": True, "docExpansion": "none", "filter": True},
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "ENUM_NAME_OVERRIDES": {
        "CompetitionKindEnum": "competitions.models.Competition.Kind",
        "CompetitionStageEnum": "competitions.models.Competition.Stage",
        "EntryStatusEnum": "competitions.models.Entry.Status",
        "TieStatusEnum": "competitions.models.Tie.Status",
        "FixtureKindEnum": "leagues.models.Fixture.Kind",
        "KindEnum": "leagues.models.Registration.Kind",
        "ImportKindEnum": "leagues.imports.KIND_CHOICES",
        "SideEnum": "frames.models.Side",
        "SeasonStatusEnum": "leagues.models.Season.Status",
        "DirectoryPostKindEnum": "leagues.models.DirectoryPost.Kind",
        "DirectoryPostStatusEnum": "leagues.models.DirectoryPost.Status",
        "FormatPresetEnum": "marker.formats.PRESET_CHOICES",
    },
}

# Celery: without a broker, tasks run in-process (eager) so `make run` needs nothing else.
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "")
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
if not CELERY_BROKER_URL:
    CELERY_BROKER_URL = "memory://"  # never used while eager; stops kombu guessing amqp://localhost
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_TIME_LIMIT = 300
CELERY_TASK_SOFT_TIME_LIMIT = 240
# A spreadsheet import of more rows than this runs as a background job with its progress
# on the page (leagues/imports/job.py); smaller ones are imported in the request.
IMPORT_BACKGROUND_ROWS = int(os.environ.get("IMPORT_BACKGROUND_ROWS", "500"))
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600}
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND", None)
CELERY_TIMEZONE = TIME_ZONE
CELERY_BEAT_SCHEDULE: dict = {
    # The tables (docs/tables.md): heal publications whose worker vanished; remind captains
    # of tomorrow's fixtures; record statistics of frames the match-night code missed.
    "tables-sweep-publications": {
        "task": "leagues.publishing.sweep_publications",
        "schedule": 60.0,
    },
    "tables-fixture-reminders": {
        "task": "leagues.tasks.send_fixture_reminders",
        "schedule": crontab(hour=10, minute=0),
    },
    "stats-sync-frames": {"task": "frames.stats.tasks.sync_frame_stats", "schedule": 300.0},
    # Ratings: re-queue recomputes whose worker vanished; recompute where results changed.
    "ratings-sweep": {"task": "frames.ratings.tasks.sweep_ratings", "schedule": 300.0},
    # Match night: confirm results left unconfirmed past their league's period (48 h).
    "match-autoconfirm": {"task": "frames.matchnight.tasks.autoconfirm_matches", "schedule": 900.0},
    # Cups: tell both sides of a tie not played two days before its deadline.
    "competitions-tie-deadlines": {
        "task": "competitions.tasks.tie_deadlines",
        "schedule": crontab(hour=9, minute=0),
    },
    # The paper card: remind both captains, once, of a fixture with no result or card photo
    # past its league's deadline (docs/paper-card.md).
    "match-no-card-reminders": {
        "task": "frames.matchnight.tasks.remind_no_card",
        "schedule": crontab(minute=20),
    },
    # Where to play (docs/directory.md): mark posts past their time expired (the lists hide
    # them by query already).
    "directory-expire-posts": {
        "task": "leagues.directory.tasks.expire_posts",
        "schedule": crontab(hour=3, minute=30),
    },
    # Notifications: send what came due (quiet hours over, a back-off elapsed) and digests.
    "notifications-sweep": {"task": "notifications.sweep", "schedule": 60.0},
    # Money (docs/money.md): table money for played matches and postponement fines, daily;
    # reminders of what is owed, weekly (Monday 09:00), once per account and week.
    "money-raise-by-rule": {"task": "money.raise_by_rule", "schedule": crontab(hour=6, minute=0)},
    "money-reminders": {
        "task": "money.send_reminders",
        "schedule": crontab(hour=9, minute=0, day_of_week=1),
    },
}

# Security: strict in production, relaxed only where DEBUG needs plain HTTP.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=not DEBUG)
# The load balancer asks app servers directly over plain HTTP (deploy/nginx).
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SESSION_COOKIE_SECURE = not DEBUG
CSRF_COOKIE_SECURE = not DEBUG
SECURE_HSTS_SECONDS = 0 if DEBUG else int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
SECURE_HSTS_PRELOAD = not DEBUG
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "manifest-src": [SELF],
        "worker-src": [SELF],
        "frame-ancestors": [NONE],
        "form-action": [SELF],
        "base-uri": [SELF],
        "object-src": [NONE],
    }
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    # In-process (eager) tasks would log every run at INFO.
    "loggers": {"celery": {"level": "WARNING"}},
}
