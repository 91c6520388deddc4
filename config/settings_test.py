"""Test settings: PostgreSQL when reachable (always in CI), else SQLite with PG-only tests skipped."""

import os
import socket

os.environ.setdefault("SECRET_KEY", "test-secret-key-not-for-production-0123456789abcdefghijklmnop")
os.environ.setdefault("ALLOWED_HOSTS", "testserver,localhost,127.0.0.1")

from django.core.exceptions import ImproperlyConfigured  # noqa: E402


def _postgres_reachable(host: str = "127.0.0.1", port: int = 5432) -> bool:
    try:
        with socket.create_connection((host, port), timeout=1):
            return True
    except OSError:
        return False


if not os.environ.get("DATABASE_URL") and _postgres_reachable():
    os.environ["DATABASE_URL"] = "postgres://postgres@127.0.0.1:5432/marker"

from .settings import *  # noqa: E402,F403
from .settings import DATABASES  # noqa: E402

IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}
if IN_CI and DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
    raise ImproperlyConfigured("CI must run the suite against PostgreSQL, not SQLite.")

# A `replica` alias, a second connection to the test database, for tests/test_replica.py;
# the replica's reads are off (REPLICA_READS) except where that file turns them on.
if "replica" not in DATABASES:
    DATABASES["replica"] = {**DATABASES["default"], "TEST": {"MIRROR": "default"}}
REPLICA_READS = False

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
SECURE_SSL_REDIRECT = False
SESSION_COOKIE_SECURE = False
CSRF_COOKIE_SECURE = False
SECURE_HSTS_SECONDS = 0
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
WHITENOISE_AUTOREFRESH = True
CELERY_BROKER_URL = "memory://"
CELERY_TASK_ALWAYS_EAGER = True
AXES_FAILURE_LIMIT = 5
AXES_ADDRESS_FAILURE_LIMIT = 15
LOGGING = {"version": 1, "disable_existing_loggers": False}
# Every poll reads the cache, so a test sees another process's bump (or a token it
# removed) at once; tests/frames/test_live_versions.py turns the memo on where it is tested.
LIVE_VERSION_MEMO = 0
# Tests sign push messages with keys they make (settings fixture), never a file's, and
# post them to a stub push service on localhost.
VAPID_DEV_KEY_FILE = ""
PUSH_ALLOW_LOCAL_HTTP = True
