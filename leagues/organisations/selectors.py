"""Reads of organisations."""

from __future__ import annotations

from django.db.models import Prefetch, QuerySet

from ..models import League, Organisation, OrganisationRole


def organisations() -> QuerySet[Organisation]:
    return Organisation.objects.prefetch_related(
        Prefetch("leagues", queryset=League.objects.order_by("name"))
    ).order_by("name")


def organisation_page(slug: str) -> dict:
    """An organisation's front page: its member leagues and officers (two queries)."""
    organisation = organisations().get(slug=slug)
    officers = list(
        OrganisationRole.objects.filter(organisation=organisation)
        .select_related("user")
        .order_by("role", "user__username")
    )
    return {
        "organisation": organisation,
        "member_leagues": list(organisation.leagues.all()),
        "officers": officers,
    }


def organisations_of_league(league: League) -> list[Organisation]:
    """The organisations a league belongs to (its pages link to them)."""
    return list(league.organisations.order_by("name"))


def member_games(organisation: Organisation) -> list[str]:
    """The games its member leagues play or have played (their own and their seasons'):
    one query."""
    rows = organisation.leagues.values_list("game_id", "seasons__game_id")
    games = {g for pair in rows for g in pair if g}
    return sorted(games)


def ranked_games(organisation: Organisation) -> list[str]:
    """The games the organisation ranks: those it chose, else every game its member
    leagues play (its rules, docs/ratings.md)."""
    return list(organisation.ranked_games) or member_games(organisation)
