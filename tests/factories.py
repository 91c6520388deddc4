"""factory_boy factories for the league."""

from __future__ import annotations

import factory
from django.contrib.auth import get_user_model

from leagues.models import Division, League, Player, Registration, Season, Team, Venue


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
