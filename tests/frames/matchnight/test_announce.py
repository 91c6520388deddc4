"""What match night tells people through the outbox: a result to confirm (the other
side's captains), a result that counts (both teams' players), a dispute (the league's
secretaries and the other captains) and its settlement (both captains). Each once per
person, however often the service or the delivery task runs."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.core import mail

from frames.matchnight import signoff
from leagues.models import LeagueRole
from notifications import delivery, tasks
from notifications.events import Event
from notifications.models import Delivery, Notification, Recipient
from tests.factories import make_secretary
from tests.frames.matchnight_helpers import drawn, key_all, roster

pytestmark = pytest.mark.django_db
DAY = datetime(2026, 9, 2, 12, 0, tzinfo=UTC)  # outside everyone's quiet hours


def told(event: str, key: str | None = None) -> list[int]:
    """Who was told `event` (their login ids, 0 for an address alone), sorted."""
    rows = Notification.objects.filter(event=event).select_related("recipient")
    if key:
        rows = rows.filter(key=key)
    return sorted(r.recipient.user_id or 0 for r in rows)


def users(*people) -> list[int]:
    return sorted(p.pk for p in people)


def send_everything(now: datetime) -> int:
    """The delivery tasks, run as a worker would (and a retry would)."""
    sent = tasks.deliver(list(Notification.objects.values_list("id", flat=True)))
    sent += sum(delivery.deliver_one(pk, now=now) == "sent" for pk in delivery.due_deliveries(now))
    return sent


@pytest.fixture
def keyed(league):
    """The home captain keyed in the whole paper sheet (home wins)."""
    return key_all(league, drawn(league), now=DAY)


def test_keying_the_sheet_asks_the_other_captain_to_confirm_once(league, keyed):
    assert told(Event.RESULT_TO_CONFIRM) == users(league.other_captain)
    n = Notification.objects.get()
    assert n.key == f"confirm:{keyed.pk}:away"
    assert n.title.startswith("Confirm the result: Premier Team 1 ") and "Premier Team 2" in n.title
    assert n.url == f"/matches/{keyed.pk}/"
    assert n.league_id == league.season.league_id
    # Keyed again (nothing changed), and the home captain confirming: still one message.
    key_all(league, keyed, now=DAY)
    signoff.match_confirm(match=keyed, side="home", actor=league.captain, now=DAY)
    assert Notification.objects.filter(event=Event.RESULT_TO_CONFIRM).count() == 1


def test_one_side_confirming_asks_the_others_captains(league, keyed):
    signoff.match_confirm(match=keyed, side="away", actor=league.other_captain, now=DAY)
    signoff.match_confirm(match=keyed, side="away", actor=league.other_captain, now=DAY)
    assert told(Event.RESULT_TO_CONFIRM, f"confirm:{keyed.pk}:home") == users(
        league.captain, league.vice_captain
    )


def test_a_confirmed_result_tells_both_teams_players_once(
    league, keyed, django_capture_on_commit_callbacks
):
    for side in ("home", "away"):
        for n, player in enumerate(roster(league, side)[:2]):
            player.email = f"{side}{n}@example.com"
            player.save(update_fields=["email"])
    with django_capture_on_commit_callbacks(execute=True):
        signoff.match_confirm(match=keyed, side="home", actor=league.captain, now=DAY)
        signoff.match_confirm(match=keyed, side="away", actor=league.other_captain, now=DAY)
    addresses = sorted(
        r.address
        for r in Recipient.objects.filter(
            notifications__event=Event.MATCH_RESULT, notifications__key=f"result:{keyed.pk}"
        )
    )
    assert addresses == sorted(
        ["home0@example.com", "home1@example.com", "away0@example.com", "away1@example.com"]
        + [league.player_user.email]  # Rita has a login
    )
    result_mail = [m for m in mail.outbox if m.subject.startswith("Result:")]
    assert len(result_mail) == 5
    assert "Premier Team 1 " in result_mail[0].subject
    send_everything(DAY)  # the request to confirm, keyed in before
    # Confirmed again, the tasks run again, the sweeper: nobody hears it twice.
    with django_capture_on_commit_callbacks(execute=True):
        signoff.match_confirm(match=keyed, side="away", actor=league.other_captain, now=DAY)
    assert send_everything(DAY + timedelta(minutes=1)) == 0
    assert len([m for m in mail.outbox if m.subject.startswith("Result:")]) == 5


def test_autoconfirm_run_twice_tells_the_players_once(league, keyed):
    player = roster(league, "away")[0]
    player.email = "away0@example.com"
    player.save(update_fields=["email"])
    due = keyed.completed_at + timedelta(hours=49)
    assert len(signoff.match_autoconfirm_due(now=due)) == 1
    assert signoff.match_autoconfirm_due(now=due) == []
    rows = Notification.objects.filter(event=Event.MATCH_RESULT)
    assert sorted(r.recipient.address for r in rows) == sorted(
        ["away0@example.com", league.player_user.email]
    )


def test_a_dispute_tells_the_secretaries_and_the_other_captains(league, keyed):
    results = make_secretary(league.season, role=LeagueRole.Role.RESULTS_SECRETARY)
    make_secretary(league.season, role=LeagueRole.Role.COMPETITIONS_SECRETARY)  # not theirs
    signoff.match_dispute(
        match=keyed, side="away", actor=league.other_captain, reason="Frame 3 was 400", now=DAY
    )
    # Disputed again (a new reason): the same dispute, no second message.
    signoff.match_dispute(
        match=keyed, side="away", actor=league.other_captain, reason="And frame 4", now=DAY
    )
    assert told(Event.DISPUTE) == users(
        league.secretary, results, league.captain, league.vice_captain
    )
    n = Notification.objects.filter(event=Event.DISPUTE).first()
    assert n.key == f"dispute:{keyed.pk}"
    assert "Premier Team 2 dispute the result: Frame 3 was 400" in n.body


def test_settling_tells_both_captains_and_the_players(league, keyed):
    signoff.match_dispute(
        match=keyed, side="away", actor=league.other_captain, reason="Frame 3", now=DAY
    )
    Notification.objects.all().delete()
    signoff.match_settle(match=keyed, actor=league.secretary, decision="accept", now=DAY)
    assert told(Event.DISPUTE, f"dispute:{keyed.pk}:settled") == users(
        league.captain, league.vice_captain, league.other_captain
    )
    assert "accepted as it stood" in Notification.objects.filter(event=Event.DISPUTE)[0].body
    assert told(Event.MATCH_RESULT) == users(league.player_user)


def test_settling_an_undisputed_result_is_no_dispute(league, keyed):
    signoff.match_settle(match=keyed, actor=league.secretary, decision="accept", now=DAY)
    assert not Notification.objects.filter(event=Event.DISPUTE).exists()
    assert Notification.objects.filter(event=Event.MATCH_RESULT).count() == 1


def test_a_refused_confirmation_tells_nobody(league, keyed):
    from marker.errors import DomainError

    with pytest.raises(DomainError):
        signoff.match_confirm(match=keyed, side="home", actor=league.other_captain, now=DAY)
    assert not Notification.objects.filter(event=Event.MATCH_RESULT).exists()
    assert Delivery.objects.count() == Notification.objects.count()  # the keying's only
