"""Production settings are safe: `check --deploy` is clean and the dev key is refused."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROD_ENV = {
    "DJANGO_SETTINGS_MODULE": "config.settings",
    "DEBUG": "0",
    "SECRET_KEY": "prod-" + "k9$Qz!x7@Lm2#vR8^tB4&nW6*pY1(eU3)" * 2,
    "ALLOWED_HOSTS": "league.example.org",
    "DATABASE_URL": "sqlite:////tmp/marker-deploy-check.sqlite3",
}


def _manage(*args, env):
    # A production process's environment: none of the test run's own variables.
    test_only = (
        "DEBUG",
        "SECRET_KEY",
        "DATABASE_URL",
        "DJANGO_ALLOW_ASYNC_UNSAFE",
        "DJANGO_SETTINGS_MODULE",
        "CELERY_LOG_LEVEL",
    )
    full = {k: v for k, v in os.environ.items() if k not in test_only}
    full.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=full,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_is_clean_with_production_settings():
    result = _manage("check", "--deploy", "--fail-level", "WARNING", env=PROD_ENV)
    assert result.returncode == 0, result.stdout + result.stderr


def test_app_refuses_to_start_with_debug_off_and_the_development_key():
    env = dict(PROD_ENV)
    env.pop("SECRET_KEY")
    result = _manage("check", env=env)
    assert result.returncode != 0
    assert "development SECRET_KEY" in result.stderr


def test_pages_send_a_content_security_policy(client, db):
    response = client.get("/")
    csp = response["Content-Security-Policy"]
    assert "default-src 'self'" in csp and "object-src 'none'" in csp
    assert response["X-Frame-Options"] == "DENY"
