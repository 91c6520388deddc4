"""factory_boy factories for the league and for match night (matches, frames, who plays)."""

from __future__ import annotations

import factory
from django.contrib.auth import get_user_model

from frames.models import Frame, FramePlayer, Match
from leagues.models import (
    Division,
    Fixture,
    League,
    LeagueRole,
    Player,
    Registration,
    Season,
    Team,
    Venue,
)


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.org")
    password = factory.django.Password("pw-for-tests-1")


class LeagueFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = League

    name = factory.Sequence(lambda n: f"League {n}")
    slug = factory.Sequence(lambda n: f"league-{n}")


def make_secretary(league, user=None, role: str = LeagueRole.Role.SECRETARY, **user_fields):
    """`user` (a new account unless given) made an officer of `league` (a League, or
    anything with a `.league`/`.season`): a secretary unless `role` says otherwise."""
    while not isinstance(league, League):
        league = getattr(league, "league", None) or league.season
    user = user or UserFactory(**user_fields)
    LeagueRole.objects.get_or_create(league=league, user=user, role=role)
    if hasattr(user, "_marker_league_roles"):
        del user._marker_league_roles
    return user


def make_site_admin(**user_fields):
    """A site administrator: a superuser (staff too, so the Django admin opens)."""
    return UserFactory(is_superuser=True, is_staff=True, **user_fields)


class SeasonFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Season

    league = factory.SubFactory(LeagueFactory)
    name = factory.Sequence(lambda n: f"Season {n}")
    slug = factory.Sequence(lambda n: f"season-{n}")
    status = Season.Status.REGISTRATION


class DivisionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Division

    season = factory.SubFactory(SeasonFactory)
    name = factory.Sequence(lambda n: f"Division {n}")


class VenueFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Venue

    name = factory.Sequence(lambda n: f"The Pub {n}")
    address = "1 High Street"
    tables = 1


class TeamFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Team

    division = factory.SubFactory(DivisionFactory)
    season = factory.LazyAttribute(lambda t: t.division.season)
    name = factory.Sequence(lambda n: f"Team {n}")
    venue = factory.SubFactory(VenueFactory)
    captain = factory.SubFactory(UserFactory)


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    name = factory.Sequence(lambda n: f"Player {n}")


class RegistrationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Registration

    team = factory.SubFactory(TeamFactory)
    season = factory.LazyAttribute(lambda r: r.team.season)
    player = factory.SubFactory(PlayerFactory)


class FixtureFactory(factory.django.DjangoModelFactory):
    """Two new teams of one division, at the home team's venue."""

    class Meta:
        model = Fixture

    division = factory.SubFactory(DivisionFactory)
    season = factory.LazyAttribute(lambda f: f.division.season)
    round = 1
    home = factory.SubFactory(TeamFactory, division=factory.SelfAttribute("..division"))
    away = factory.SubFactory(TeamFactory, division=factory.SelfAttribute("..division"))
    venue = factory.LazyAttribute(lambda f: f.home.venue)


class MatchFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Match

    fixture = factory.SubFactory(FixtureFactory)
    status = Match.Status.IN_PLAY


class FrameFactory(factory.django.DjangoModelFactory):
    """A scheduled singles frame of bar billiards, played in the order of its number."""

    class Meta:
        model = Frame

    match = factory.SubFactory(MatchFactory)
    number = factory.Sequence(lambda n: n + 1)
    order = factory.LazyAttribute(lambda f: f.number)
    kind = "singles"
    game_id = "bar_billiards_4pin"


class FramePlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = FramePlayer

    frame = factory.SubFactory(FrameFactory)
    side = "home"
    position = 1
    player = factory.SubFactory(PlayerFactory)
