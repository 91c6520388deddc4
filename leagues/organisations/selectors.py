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
