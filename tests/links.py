"""Addresses of league pages in tests: `league_reverse("team-roster", args=[team.pk])` finds
the league's slug from the object the page is about (one query), as the pages do."""

from __future__ import annotations

from django.urls import reverse

from leagues.models import Division, Fixture, League, Publication, Season, Team

# Which object the first argument of each league page names.
_KIND = {
    "season-detail": Season,
    "team-register": Season,
    "fixtures-generate": Season,
    "season-tables": Season,
    "table-subscribe": Season,
    "season-leaderboard": Season,
    "division-detail": Division,
    "division-leaderboard": Division,
    "division-positions": Division,
    "team-detail": Team,
    "team-roster": Team,
    "team-roster-suggest": Team,
    "team-ical": Team,
    "fixture-detail": Fixture,
    "fixture-edit": Fixture,
    "publication-detail": Publication,
    "publication-status": Publication,
    "publication-csv": Publication,
}


_PREFIX = {
    "season": Season,
    "division": Division,
    "team": Team,
    "fixture": Fixture,
    "publication": Publication,
}


def league_slug_of(name: str, pk: int) -> str:
    # A page not listed names its object by its name's first word ("season-format").
    model = _KIND.get(name) or _PREFIX[name.split("-")[0]]
    if model is Season:
        return Season.objects.values_list("league__slug", flat=True).get(pk=pk)
    return model.objects.values_list("season__league__slug", flat=True).get(pk=pk)


def league_reverse(name: str, args: list | tuple = ()) -> str:
    """reverse() of a page under a league, given the arguments it had before leagues were
    tenants (the league's own pages take its id: `league-ratings`)."""
    if name in ("league-ratings", "league-home", "league-officers", "season-create"):
        slug = League.objects.values_list("slug", flat=True).get(pk=args[0])
        return reverse(name, args=[slug, *args[1:]])
    return reverse(name, args=[league_slug_of(name, args[0]), *args])


def venue_url(team: Team) -> str:
    """A venue's page as the league of `team` sees it."""
    return reverse("venue-detail", args=[team.season.league.slug, team.venue_id])
