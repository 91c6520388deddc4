"""Issue 18's "done when": the demo league has a team Cup and Plate, a Singles with groups
and a Pairs event in progress, scored with the pad, and a newcomer finds each from the
home page."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.urls import reverse

from competitions.models import Competition, Tie, TieFrame

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


def test_the_demo_competitions_are_in_progress_and_reachable_from_home(client):
    call_command("demo_league")
    call_command("demo_competitions")
    call_command("demo_competitions")  # a second run changes nothing
    comps = {c.name: c for c in Competition.objects.filter(organisation=None)}
    assert set(comps) == {"Cup", "Plate", "Singles", "Pairs"}
    # The county's championship across Norwich and Great Yarmouth: A and B teams, drawn.
    county = Competition.objects.get(organisation__slug="norfolk")
    assert (county.name, county.stage, county.settle_by) == (
        "County Championship",
        "drawn",
        "aggregate",
    )
    assert sorted(e.team.name for e in county.entries.select_related("team")) == [
        "Kings Head A",
        "Kings Head B",
        "Red Lion A",
        "Red Lion B",
    ]
    semis = Tie.objects.filter(competition=county, round__number=1).select_related("fixture__home")
    assert len(semis) == 2
    assert all(t.fixture.season_id == t.fixture.home.season_id for t in semis)
    county_page = client.get(reverse("organisation-competitions", args=["norfolk"]))
    assert reverse("competition-detail", args=[county.pk]) in county_page.content.decode()
    cup = comps["Cup"]
    # The Cup's first round was played as match nights, signed off; its losers are in the Plate.
    played = Tie.objects.filter(competition=cup, round__number=1, status="played")
    assert played.exists()
    assert all(t.fixture.match.status == "confirmed" for t in played)
    assert comps["Plate"].entries.count() == played.count()
    assert Tie.objects.filter(competition=comps["Plate"], status="scheduled").exists()
    # The Singles' groups and the Pairs were scored on the pad, and are not over.
    for name in ("Singles", "Pairs"):
        assert TieFrame.objects.filter(tie__competition=comps[name], source="pad").exists()
        assert Tie.objects.filter(competition=comps[name], status="scheduled").exists()
    assert comps["Singles"].groups.count() == 4
    # A newcomer: the home page → the season's competitions → each event.
    home = client.get(reverse("home")).content.decode()
    season = cup.season
    listing = reverse("season-competitions", args=[season.pk])
    assert listing in home
    page = client.get(listing).content.decode()
    for comp in comps.values():
        assert reverse("competition-detail", args=[comp.pk]) in page
        assert client.get(reverse("competition-detail", args=[comp.pk])).status_code == 200
