"""gunicorn's production configuration (deploy/gunicorn.conf.py) plus one fault for
tests/faults/test_gunicorn_worker_killed.py: a request carrying `X-Fault: die-after-commit`
is handled in full (its transaction commits), then the worker process is SIGKILLed before
a byte of the answer leaves. Only this test's server has it; the app knows nothing of it."""

import os
import signal
from pathlib import Path

exec(
    compile(
        Path(__file__).resolve().parents[2].joinpath("deploy", "gunicorn.conf.py").read_text(),
        "deploy/gunicorn.conf.py",
        "exec",
    )
)  # noqa: S102


def post_worker_init(worker):
    app = worker.wsgi

    def dying(environ, start_response):
        if environ.get("HTTP_X_FAULT") != "die-after-commit":
            return app(environ, start_response)
        body = b"".join(app(environ, lambda *args, **kwargs: None))
        assert body  # the view ran to the end: the shot is committed
        os.kill(os.getpid(), signal.SIGKILL)

    worker.wsgi = dying
