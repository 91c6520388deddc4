"""No card received: a fixture with neither a confirmed result nor a photo of its signed
card `League.no_card_after_hours` after its date is overdue
(`frames.selectors.fixtures_without_card`): its pages say "No card received", the secretary
lists it (`views.league_no_card`), and a beat task reminds both captains once."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from frames.models import Match
from frames.selectors import fixtures_without_card
from leagues.models import Fixture
from notifications.events import Event
from notifications.services import To, notify

#: A fixture overdue for longer than this is listed for the secretary, but its captains are
#: not reminded any more (a reminder weeks late helps nobody, and a new deployment must not
#: remind every captain of every old fixture).
REMIND_WITHIN = timedelta(days=14)


def _captains(fixture: Fixture) -> list[To]:
    out: dict[int, To] = {}
    for team in (fixture.home, fixture.away):
        user = team.captain
        if user is not None and user.is_active:
            out[user.pk] = To(user_id=user.pk, email=user.email or "")
    return list(out.values())


@transaction.atomic
def no_card_remind(*, now: datetime | None = None) -> list[int]:
    """Remind both captains of each overdue fixture, once ever (the outbox's key
    `no-card:<fixture>`): a second run queues nothing new. The ids of fixtures reminded."""
    now = now or timezone.now()
    fixtures = fixtures_without_card(now=now).filter(date__gte=(now - REMIND_WITHIN).date())
    reminded = []
    for fixture in fixtures.select_related("home__captain", "away__captain", "season__league"):
        to = _captains(fixture)
        if not to:
            continue
        when = fixture.date.strftime("%a %-d %b") if fixture.date else "the match"
        queued = notify(
            event=Event.NO_CARD,
            to=to,
            key=f"no-card:{fixture.pk}",
            title=f"No card received: {fixture.home.name} v {fixture.away.name}",
            body=(
                f"{fixture.season.league.name}: there is no result or photo of the signed "
                f"card for {fixture.home.name} v {fixture.away.name} ({when}). Please "
                "confirm the result or photograph the card from the match page."
            ),
            url=_fixture_path(fixture),
            league_id=fixture.season.league_id,
            now=now,
        )
        if queued:
            reminded.append(fixture.pk)
    return reminded


def _fixture_path(fixture: Fixture) -> str:
    match_id = Match.objects.filter(fixture=fixture).values_list("pk", flat=True).first()
    if match_id is not None:
        return reverse("match-detail", args=[match_id])
    return fixture.get_absolute_url()
