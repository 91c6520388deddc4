"""The demo (`make run`): the Norfolk association's bar billiards ranking has players of
both its member leagues, rated by the demo itself (no worker needed)."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.urls import reverse

from frames.models import Rating

pytestmark = pytest.mark.django_db


@pytest.mark.slow
def test_the_demo_county_ranks_players_of_norwich_and_great_yarmouth(client):
    call_command("demo_league")
    call_command("demo_match_nights", weeks=2)
    assert Rating.objects.filter(game_id="bar_billiards_4pin").exists()
    data = client.get(
        reverse("api-organisation-ranking", args=["norfolk", "bar_billiards_4pin"]),
        {"limit": 500},
    ).json()
    assert data["count"] > 20
    leagues = {name for row in data["results"] for name in row["leagues"]}
    assert leagues == {
        "Norwich 4-Pin Bar Billiards League",
        "Great Yarmouth & District 4-Pin League",
    }
    page = client.get(reverse("organisation-ranking", args=["norfolk", "bar_billiards_4pin"]))
    assert page.status_code == 200 and "Great Yarmouth" in page.content.decode()
