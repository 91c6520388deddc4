"""Registration windows and transfers (docs/eligibility.md): the season's rules, each
refusal naming its rule on the roster page and in the API, transfers decided by the rules
or the secretary, every step logged."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from leagues import eligibility
from leagues.models import (
    EligibilityLog,
    Fixture,
    Registration,
    SeasonRegistrationRules,
    Transfer,
)
from leagues.teams import eligibility_services
from leagues.teams import services as team_services
from marker.errors import DomainError
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def login(client, user):
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def roster_url(team) -> str:
    return reverse("team-roster", args=[team.season.league.slug, team.pk])


def set_rules(league, **values) -> SeasonRegistrationRules:
    return eligibility_services.season_rules_update(
        season=league.season, actor=league.secretary, **values
    )


def huddersfield(league) -> date:
    """No new registrations after the first match of the New Year: a fixture on 5 January
    (of this year, or last year early in January) is that first match. Its day."""
    today = timezone.localdate()
    year = today.year if today >= date(today.year, 1, 6) else today.year - 1
    first = date(year, 1, 5)
    Fixture.objects.filter(pk=Fixture.objects.filter(season=league.season).first().pk).update(
        date=first
    )
    set_rules(league, close_at_first_match_after=date(year, 1, 1))
    return first


# ---------------------------------------------------------------- Huddersfield


def test_huddersfield_window_closes_at_the_first_match_of_the_new_year(league):
    first = huddersfield(league)
    team = league.teams[0]
    before = first - timedelta(days=1)
    at = datetime(before.year, before.month, before.day, 12, tzinfo=UTC)
    reg = team_services.roster_add_player(team=team, name="Early Bird", now=at)
    assert reg.status == Registration.Status.ACTIVE
    with pytest.raises(DomainError) as refused:
        team_services.roster_add_player(team=team, name="Late Comer", now=at + timedelta(days=1))
    assert refused.value.code == "registration_closed"
    assert refused.value.message.startswith(
        f"Registrations closed at the first match of the New Year ({eligibility.day(first)})"
    )
    assert not Registration.objects.filter(player__name="Late Comer").exists()


def test_huddersfield_refusal_names_the_rule_on_the_roster_page(league, client):
    first = huddersfield(league)
    team = league.teams[0]
    response = login(client, league.captain).post(
        roster_url(team), {"action": "add", "add-name": "Late Comer", "add-email": ""}
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert (
        f"Registrations closed at the first match of the New Year ({eligibility.day(first)})"
        in page
    )
    assert not Registration.objects.filter(player__name="Late Comer").exists()


def test_huddersfield_refusal_names_the_rule_in_the_api(league):
    first = huddersfield(league)
    response = api(league.captain).post(
        reverse("api-team-roster", args=[league.teams[0].pk]),
        {"name": "Late Comer"},
        format="json",
    )
    assert response.status_code == 400
    body = response.json()
    assert body["error"] == "registration_closed"
    assert body["rule"] == "registration_closed"
    assert body["rule_name"] == (
        f"Registrations closed at the first match of the New Year ({eligibility.day(first)})"
    )


def test_huddersfield_transfer_of_a_player_who_played_is_refused_page_and_api(league, client):
    """Transfers only for players who have not played: through the roster page and the API,
    the refusal is recorded on the transfer, logged, and the registration stays."""
    mover, stayer = (
        Registration.objects.filter(team=league.teams[1], status="active")
        .select_related("player")
        .order_by("id")[:2]
    )
    team_services.registration_mark_played(team=league.teams[1], player=mover.player)
    response = login(client, league.captain).post(
        roster_url(league.teams[0]), {"action": "transfer", "transfer-player": mover.player_id}
    )
    assert response.status_code == 400
    assert "Transfers only for players who have not played (rule 8)" in response.content.decode()
    transfer = Transfer.objects.get(player=mover.player)
    assert (transfer.status, transfer.rule) == ("refused", "transfer_played")
    assert Registration.objects.get(pk=mover.pk).status == "active"

    body = (
        api(league.captain)
        .post(
            reverse("api-season-transfers", args=[league.season.pk]),
            {"player": mover.player_id, "to_team": league.teams[0].pk},
            format="json",
        )
        .json()
    )
    assert (body["status"], body["rule"]) == ("refused", "transfer_played")
    assert "Transfers only for players who have not played" in body["rule_message"]
    actions = list(EligibilityLog.objects.filter(player=mover.player).values_list("action", "rule"))
    assert actions.count(("transfer_refused", "transfer_played")) == 2


def test_a_transfer_the_rules_allow_moves_the_registration_and_is_logged(league):
    player = Registration.objects.filter(team=league.teams[1], status="active").first().player
    transfer = eligibility_services.transfer_request(
        player=player, to_team=league.teams[0], actor=league.captain, reason="Moved house"
    )
    assert transfer.status == "approved"
    assert Registration.objects.get(player=player, status="active").team == league.teams[0]
    assert Registration.objects.get(team=league.teams[1], player=player).status == "removed"
    assert [e.action for e in EligibilityLog.objects.filter(transfer=transfer).order_by("id")] == [
        "transfer_requested",
        "transfer_approved",
    ]


def test_a_transfer_needing_approval_waits_and_only_the_secretary_decides(league, client):
    set_rules(league, transfers_need_approval=True)
    player = Registration.objects.filter(team=league.teams[1], status="active").first().player
    transfer = eligibility_services.transfer_request(
        player=player, to_team=league.teams[0], actor=league.captain
    )
    assert (transfer.status, transfer.rule) == ("pending", "transfer_needs_approval")
    assert Registration.objects.get(player=player, status="active").team == league.teams[1]

    decide = reverse("api-transfer-decide", args=[transfer.pk])
    assert api(league.captain).post(decide, {"approve": True}, format="json").status_code == 403
    assert Transfer.objects.get(pk=transfer.pk).status == "pending"
    page = reverse("season-transfers", args=[league.season.league.slug, league.season.pk])
    assert login(client, league.captain).get(page).status_code == 403

    secretary = login(client.__class__(), league.secretary)
    assert player.name in secretary.get(page).content.decode()
    response = secretary.post(
        page, {"transfer": transfer.pk, "decision": "approve", "note": "Handbook 4.2"}
    )
    assert response.status_code == 302
    assert Transfer.objects.get(pk=transfer.pk).status == "approved"
    assert Registration.objects.get(player=player, status="active").team == league.teams[0]
    log = EligibilityLog.objects.filter(transfer=transfer).order_by("id")
    assert [(e.action, e.actor_id) for e in log] == [
        ("transfer_requested", league.captain.pk),
        ("transfer_pending", None),
        ("transfer_approved", league.secretary.pk),
    ]
    again = api(league.secretary).post(decide, {"approve": False}, format="json")
    assert (again.status_code, again.json()["error"]) == (409, "transfer_decided")


def test_transfers_only_while_open_names_the_window(league):
    huddersfield(league)
    set_rules(league, transfers_only_while_open=True)
    player = Registration.objects.filter(team=league.teams[1], status="active").first().player
    transfer = eligibility_services.transfer_request(
        player=player, to_team=league.teams[0], actor=league.captain
    )
    assert (transfer.status, transfer.rule) == ("refused", "transfer_window_closed")
    assert "Registrations closed at the first match of the New Year" in transfer.rule_message


def test_a_captain_cannot_ask_for_a_transfer_into_another_team(league):
    player = Registration.objects.filter(team=league.teams[2], status="active").first().player
    response = api(league.captain).post(
        reverse("api-season-transfers", args=[league.season.pk]),
        {"player": player.pk, "to_team": league.teams[1].pk},
        format="json",
    )
    assert (response.status_code, response.json()["error"]) == (403, "not_captain")
    assert not Transfer.objects.exists()


# ---------------------------------------------------------------- Chester (the API's answer)


def test_chester_notice_in_the_eligibility_api(league):
    set_rules(league, min_notice_days=3)
    team = league.teams[0]
    reg = team_services.roster_add_player(team=team, name="New Face")
    today = timezone.localdate(reg.created_at)
    answer = api(league.captain).get(
        reverse("api-team-eligibility", args=[team.pk]),
        {"player": reg.player_id, "date": (today + timedelta(days=2)).isoformat()},
    )
    body = answer.json()
    assert (body["eligible"], body["refusals"][0]["rule"]) == (False, "notice_period")
    assert body["refusals"][0]["rule_name"] == "Players are registered 3 days before they play"
    later = api(league.captain).get(
        reverse("api-team-eligibility", args=[team.pk]),
        {"player": reg.player_id, "date": (today + timedelta(days=3)).isoformat()},
    )
    assert later.json()["eligible"] is True
    outsider = api(league.outsider).get(
        reverse("api-team-eligibility", args=[team.pk]), {"player": reg.player_id}
    )
    assert outsider.status_code == 403


# ---------------------------------------------------------------- the rules themselves


def test_the_secretary_sets_the_rules_on_the_page_and_in_the_api(league, client):
    url = reverse("season-registration-rules", args=[league.season.league.slug, league.season.pk])
    assert login(client, league.captain).get(url).status_code == 403
    secretary = login(client.__class__(), league.secretary)
    response = secretary.post(
        url,
        {
            "min_notice_days": 3,
            "play_up_allowed": "on",
            "play_up_cap": 6,
            "transfers_allowed": "on",
            "penalty": "forfeit_frame",
        },
    )
    assert response.status_code == 302
    page = secretary.get(url).content.decode()
    assert "Players are registered 3 days before they play" in page
    assert "at most 6 appearances" in page
    rules_api = reverse("api-season-registration-rules", args=[league.season.pk])
    body = api(league.outsider).get(rules_api).json()
    assert (body["min_notice_days"], body["play_up_cap"]) == (3, 6)
    assert api(league.captain).put(rules_api, {"play_up_cap": 2}, format="json").status_code == 403
    bad = api(league.secretary).put(
        rules_api,
        {"registrations_open": "2026-09-10", "registrations_close": "2026-09-01"},
        format="json",
    )
    assert (bad.status_code, bad.json()["error"]) == (400, "bad_window")
    assert SeasonRegistrationRules.objects.get(season=league.season).registrations_open is None
    ok = api(league.secretary).put(rules_api, {"play_up_cap": 2}, format="json")
    assert ok.json()["play_up_cap"] == 2
    assert EligibilityLog.objects.filter(action="rules_changed").count() == 2


def test_no_rules_change_nothing_for_rule_8(league):
    """A season without registration rules: registering and playing follow rule 8 alone."""
    other = Registration.objects.filter(team=league.teams[1], status="active").first().player
    answer = eligibility.may_play(team=league.teams[0], player=other, on=date(2026, 9, 1))
    assert [r.code for r in answer.refusals] == ["plays_for_another_team"]
    newcomer = PlayerFactory()
    assert eligibility.may_play(team=league.teams[0], player=newcomer, on=date(2026, 9, 1)).eligible


def test_the_roster_page_shows_the_rules_and_the_log_in_a_fixed_number_of_queries(
    league, client, django_assert_num_queries
):
    set_rules(league, min_notice_days=3)
    team = league.teams[0]
    captain = login(client, league.captain)
    url = roster_url(team)
    captain.get(url)
    with django_assert_num_queries(
        14
    ) as few:  # with the notices and the next fixtures to ask about
        page = captain.get(url).content.decode()
    assert "Players are registered 3 days before they play" in page
    for reg in Registration.objects.filter(team=league.teams[1], status="active")[:3]:
        eligibility_services.transfer_request(player=reg.player, to_team=team, actor=league.captain)
    with django_assert_num_queries(len(few.captured_queries)):
        page = captain.get(url).content.decode()
    assert page.count("Transfer approved") == 3


def test_the_transfers_page_is_a_fixed_number_of_queries(league, client, django_assert_num_queries):
    set_rules(league, transfers_need_approval=True)
    secretary = login(client, league.secretary)
    url = reverse("season-transfers", args=[league.season.league.slug, league.season.pk])
    regs = list(Registration.objects.filter(team=league.teams[1], status="active")[:4])
    eligibility_services.transfer_request(
        player=regs[0].player, to_team=league.teams[0], actor=league.captain
    )
    secretary.get(url)
    with django_assert_num_queries(9) as one:  # with the notices
        secretary.get(url)
    for reg in regs[1:]:
        eligibility_services.transfer_request(
            player=reg.player, to_team=league.teams[0], actor=league.captain
        )
    with django_assert_num_queries(len(one.captured_queries)):
        page = secretary.get(url).content.decode()
    assert page.count('name="decision" value="approve"') == 4


def test_a_persons_transfers_are_in_their_data_and_renamed_when_erased(league):
    from leagues.personal_data import _eligibility, _eligibility_erase
    from marker.personal_data import Erasure, Person

    player = Registration.objects.filter(team=league.teams[1], status="active").first().player
    team_services.registration_mark_played(team=league.teams[1], player=player)
    eligibility_services.transfer_request(
        player=player, to_team=league.teams[0], actor=league.captain
    )
    data = _eligibility(Person.of(player))
    assert data["transfers"][0]["rule"] == "transfer_played"
    assert any(player.name in line["message"] for line in data["log"])
    erasure = Erasure(
        Person.of(player),
        7,
        "Former player 7",
        {player.name: "Former player 7"},
        (),
        None,
        timezone.now(),
    )
    _eligibility_erase(erasure)
    assert not EligibilityLog.objects.filter(message__contains=player.name).exists()
    assert not Transfer.objects.filter(rule_message__contains=player.name).exists()
