"""Celery application. Without CELERY_BROKER_URL, tasks run in-process (eager)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("marker", task_cls="celery.contrib.django.task:DjangoTask")
app.config_from_object("django.conf:settings", namespace="CELERY")
# Tasks live in a `tasks.py` beside their services: each app's own (`leagues.tasks`), and
# those of the sub-packages listed here, the one place a new one is added.
TASK_PACKAGES = [
    "frames.matchnight",
    "frames.ratings",
    "frames.stats",
    "leagues.directory",
    "leagues.fixtures",
    "leagues.imports",
]
app.autodiscover_tasks()
app.autodiscover_tasks(TASK_PACKAGES)
