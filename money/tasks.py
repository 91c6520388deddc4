"""Background jobs of the league's money. Every task is safe to run twice: what a rule
raises carries a unique key, and a reminder is sent once an account a week."""

from __future__ import annotations

from celery import shared_task

from . import services


@shared_task(name="money.raise_by_rule", acks_late=True)
def raise_by_rule() -> dict[str, int]:
    """Daily (beat): table money for played home matches, fines for fixtures postponed
    without a new date past the season's number of days."""
    return {
        "table_money": services.table_money_raise(),
        "postponement_fines": services.postponement_fines_raise(),
    }


@shared_task(name="money.send_reminders", acks_late=True)
def send_reminders() -> int:
    """Weekly (beat): remind every account in debt, through its notification choices."""
    return services.reminders_send_all()
