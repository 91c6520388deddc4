"""gunicorn's configuration for Marker: threaded workers (gthread), sized from the
environment. Used by the systemd unit, the Procfile, deploy/rehearse and
bench/league_night.py:

    gunicorn -c deploy/gunicorn.conf.py config.wsgi

| variable | default | meaning |
|---|---|---|
| GUNICORN_BIND | 127.0.0.1:8000 | where to listen (nginx proxies to it) |
| WEB_CONCURRENCY | 2 × cores | worker processes |
| GUNICORN_THREADS | 8 | threads per worker (each holds one request at a time) |
| GUNICORN_TIMEOUT | 30 | seconds before a silent worker is killed and replaced |
| GUNICORN_KEEPALIVE | 5 | seconds an idle keep-alive connection stays open (nginx's upstream keepalive_timeout is shorter) |
| GUNICORN_MAX_REQUESTS | 0 | recycle a worker after this many requests (0: never) |
| GUNICORN_ACCESS_LOG | (off) | `-` for stdout, or a file |

Why gthread: the app is synchronous Django; under ASGI each request pays for the
sync-middleware emulation, and plain sync workers hold no keep-alive connections.
"""

import multiprocessing
import os


def _int(name: str, default: int) -> int:
    value = os.environ.get(name, "")
    return int(value) if value.strip() else default


wsgi_app = "config.wsgi:application"
bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000").split(",")
worker_class = "gthread"
workers = _int("WEB_CONCURRENCY", 2 * multiprocessing.cpu_count())
threads = _int("GUNICORN_THREADS", 8)
timeout = _int("GUNICORN_TIMEOUT", 30)
graceful_timeout = _int("GUNICORN_GRACEFUL_TIMEOUT", 30)
keepalive = _int("GUNICORN_KEEPALIVE", 5)
max_requests = _int("GUNICORN_MAX_REQUESTS", 0)
max_requests_jitter = max_requests // 10
# Connections each worker holds open (idle keep-alive ones included).
worker_connections = _int("GUNICORN_WORKER_CONNECTIONS", 1000)
accesslog = os.environ.get("GUNICORN_ACCESS_LOG") or None
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "info")
# nginx on the same host or network sets X-Forwarded-Proto; trust it from these addresses.
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1,::1")
proc_name = os.environ.get("GUNICORN_PROC_NAME", "marker")
# The app is imported in each worker (a deploy can replace code with a HUP).
preload_app = False
