"""Teams, rosters, invitations and the drafted-player rule (rule 8)."""

from __future__ import annotations

import pytest
from django.core import mail
from django.db import IntegrityError, transaction
from django.utils import timezone

from leagues import invitations, tasks
from leagues.models import Invitation, Registration, Season
from leagues.teams import services as team_services
from marker.errors import DomainError
from tests.factories import PlayerFactory, SeasonFactory, TeamFactory, UserFactory, VenueFactory

pytestmark = pytest.mark.django_db


def test_captain_registers_team_and_is_on_its_roster():
    season = SeasonFactory()
    user = UserFactory(username="cap", first_name="Carol", last_name="Cubitt")
    team = team_services.team_register(
        season=season, name="The Crown", venue=VenueFactory(), captain=user
    )
    assert team.captain == user
    names = [r.player.name for r in team.registrations.all()]
    assert names == ["Carol Cubitt"]


def test_team_cannot_register_for_a_season_that_is_not_open():
    season = SeasonFactory(status=Season.Status.RUNNING)
    with pytest.raises(DomainError) as err:
        team_services.team_register(
            season=season, name="X", venue=VenueFactory(), captain=UserFactory()
        )
    assert err.value.code == "season_closed"
    assert season.teams.count() == 0


def test_duplicate_team_name_in_a_season_is_refused_case_insensitively():
    season = SeasonFactory()
    team_services.team_register(
        season=season, name="The Crown", venue=VenueFactory(), captain=UserFactory()
    )
    with pytest.raises(DomainError) as err:
        team_services.team_register(
            season=season, name="the crown", venue=VenueFactory(), captain=UserFactory()
        )
    assert err.value.code == "name_taken"
    assert err.value.field == "name"


def test_player_on_one_roster_cannot_join_another_and_message_names_the_team():
    a = TeamFactory(name="The Crown")
    b = TeamFactory(name="The Anchor", division=a.division, season=a.season)
    player = PlayerFactory(name="Dan Dye")
    team_services.roster_add_player(team=a, player=player)
    with pytest.raises(DomainError) as err:
        team_services.roster_add_player(team=b, player=player)
    assert err.value.code == "plays_for_another_team"
    assert "The Crown" in err.value.message and "Dan Dye" in err.value.message
    assert not Registration.objects.filter(team=b).exists()


def test_player_who_played_can_never_play_for_another_team_that_season():
    a = TeamFactory(name="The Crown")
    b = TeamFactory(name="The Anchor", division=a.division, season=a.season)
    player = PlayerFactory()
    reg = team_services.roster_add_player(team=a, player=player)
    team_services.registration_mark_played(team=a, player=player, now=timezone.now())
    team_services.roster_remove_player(registration=reg)
    with pytest.raises(DomainError) as err:
        team_services.roster_add_player(team=b, player=player)
    assert err.value.extra["other_team"] == "The Crown"
    with pytest.raises(DomainError):
        team_services.registration_mark_played(team=b, player=player)


def test_database_refuses_a_second_team_for_a_player_who_played():
    a = TeamFactory()
    b = TeamFactory(division=a.division, season=a.season)
    player = PlayerFactory()
    Registration.objects.create(
        team=a, season=a.season, player=player, status="removed", first_played_at=timezone.now()
    )
    with pytest.raises(IntegrityError), transaction.atomic():
        Registration.objects.create(team=b, season=b.season, player=player)


def test_removed_player_who_never_played_may_join_another_team():
    a = TeamFactory()
    b = TeamFactory(division=a.division, season=a.season)
    player = PlayerFactory()
    reg = team_services.roster_add_player(team=a, player=player)
    team_services.roster_remove_player(registration=reg)
    team_services.roster_add_player(team=b, player=player)
    assert Registration.objects.get(team=b, player=player).status == "active"


def test_same_player_may_play_for_another_team_next_season():
    a = TeamFactory()
    next_season = SeasonFactory(league=a.season.league)
    next_season_team = TeamFactory(division__season=next_season)
    player = PlayerFactory()
    team_services.roster_add_player(team=a, player=player)
    team_services.registration_mark_played(team=a, player=player)
    team_services.roster_add_player(team=next_season_team, player=player)
    played = team_services.registration_mark_played(team=next_season_team, player=player)
    assert next_season_team.season != a.season
    assert next_season_team.season.league == a.season.league
    assert played.team == next_season_team and played.season == next_season
    assert played.status == "active" and played.kind == "registered"
    assert played.first_played_at is not None
    # This season's registration with the first team stands.
    first = Registration.objects.get(team=a, player=player)
    assert first.status == "active" and first.first_played_at is not None


def test_drafted_player_is_recorded_as_drafted_when_playing_off_roster():
    a = TeamFactory()
    player = PlayerFactory()
    reg = team_services.registration_mark_played(team=a, player=player)
    assert reg.kind == "drafted" and reg.first_played_at is not None


def test_adding_a_player_already_on_the_roster_is_refused():
    a = TeamFactory()
    player = PlayerFactory()
    team_services.roster_add_player(team=a, player=player)
    with pytest.raises(DomainError) as err:
        team_services.roster_add_player(team=a, player=player)
    assert err.value.code == "already_registered"


def test_readding_a_removed_player_reactivates_the_same_registration():
    a = TeamFactory()
    player = PlayerFactory()
    reg = team_services.roster_add_player(team=a, player=player)
    team_services.roster_remove_player(registration=reg)
    again = team_services.roster_add_player(team=a, player=player)
    assert again.pk == reg.pk and again.status == "active"


def test_invitation_email_is_sent_once_even_when_the_task_runs_twice(
    django_capture_on_commit_callbacks,
):
    team = TeamFactory(name="The Crown")
    with django_capture_on_commit_callbacks(execute=True):
        inv = invitations.invitation_create(
            team=team, invited_by=team.captain, name="Ann", email="ANN@example.org"
        )
    assert inv.email == "ann@example.org"
    assert len(mail.outbox) == 1  # eager: sent on commit
    assert tasks.send_invitation(inv.pk) is False
    assert len(mail.outbox) == 1
    assert "The Crown" in mail.outbox[0].subject
    assert inv.token in mail.outbox[0].body


def test_accepting_an_invitation_puts_the_player_on_the_roster():
    team = TeamFactory()
    inv = invitations.invitation_create(
        team=team, invited_by=team.captain, name="Ann", email="ann@example.org"
    )
    user = UserFactory()
    reg = invitations.invitation_accept(token=inv.token, user=user)
    assert reg.team == team and reg.player.user == user
    with pytest.raises(DomainError) as err:
        invitations.invitation_accept(token=inv.token, user=user)
    assert err.value.code == "already_accepted"


def test_invalid_invitation_email_saves_nothing():
    team = TeamFactory()
    with pytest.raises(DomainError) as err:
        invitations.invitation_create(team=team, invited_by=team.captain, name="Ann", email="nope")
    assert err.value.field == "email"
    assert not Invitation.objects.exists()
    assert mail.outbox == []


# -------------------------------------- one person, one record (issue 11, item 1)


def test_a_name_already_in_the_league_is_that_player_until_the_captain_says_otherwise():
    a = TeamFactory(name="The Crown")
    b = TeamFactory(name="The Anchor", division=a.division, season=a.season)
    dan = PlayerFactory(name="Dan Dye")
    team_services.roster_add_player(team=a, player=dan)
    with pytest.raises(DomainError) as err:
        team_services.roster_add_player(team=b, name="  dan   DYE ")
    assert err.value.code == "same_name" and err.value.field == "name"
    assert err.value.extra["players"] == [{"id": dan.pk, "name": "Dan Dye", "team": "The Crown"}]
    assert not Registration.objects.filter(team=b).exists()
    # Confirmed as someone else: a new record, on b's roster.
    reg = team_services.roster_add_player(team=b, name="Dan Dye", someone_else=True)
    assert reg.player != dan and reg.team == b


def test_an_invitation_to_someone_who_plays_elsewhere_is_refused_by_email_or_name():
    a = TeamFactory(name="The Crown")
    b = TeamFactory(name="The Anchor", division=a.division, season=a.season)
    dan = PlayerFactory(name="Dan Dye", email="dan@example.org")
    team_services.roster_add_player(team=a, player=dan)
    with pytest.raises(DomainError) as err:
        invitations.invitation_create(
            team=b, invited_by=b.captain, name="Daniel", email="DAN@example.org"
        )
    assert err.value.code == "plays_for_another_team"
    with pytest.raises(DomainError) as err:
        invitations.invitation_create(
            team=b, invited_by=b.captain, name="dan dye", email="other@example.org"
        )
    assert err.value.code == "same_name"
    assert not Invitation.objects.exists()


def test_accepting_an_invitation_links_the_existing_player_so_rule_8_sees_them():
    """Invited while free, then drafted by another team: the new account is the same
    person, and accepting is refused rather than making a second record."""
    a = TeamFactory(name="The Crown")
    b = TeamFactory(name="The Anchor", division=a.division, season=a.season)
    dan = PlayerFactory(name="Dan Dye", email="dan@example.org")
    inv = invitations.invitation_create(
        team=b, invited_by=b.captain, name="Dan Dye", email="dan@example.org"
    )
    team_services.roster_add_player(team=a, player=dan)
    user = UserFactory()
    with pytest.raises(DomainError) as err:
        invitations.invitation_accept(token=inv.token, user=user)
    assert err.value.code == "plays_for_another_team"
    team_services.roster_remove_player(registration=a.registrations.get(player=dan))
    reg = invitations.invitation_accept(token=inv.token, user=user)
    assert reg.player == dan and reg.player.user == user
