"""The league list on the home page at a thousand leagues (issue 33): fifty to a page, found
by name or town, in a fixed number of queries."""

from __future__ import annotations

import pytest
from django.urls import reverse

from leagues.models import League, Season
from leagues.selectors import LEAGUES_PER_PAGE
from tests.factories import UserFactory, make_site_admin

pytestmark = pytest.mark.django_db


def make_leagues(n: int, *, start: int = 0) -> list[League]:
    towns = ("Witney", "Hastings", "Chester")
    leagues = League.objects.bulk_create(
        League(name=f"League {i:04d}", slug=f"league-{i:04d}", town=towns[i % 3])
        for i in range(start, start + n)
    )
    Season.objects.bulk_create(
        Season(league=league, name="2026/27", slug="2026-27", status=Season.Status.RUNNING)
        for league in leagues
    )
    return leagues


def names_on(html: str) -> list[str]:
    return [part.split("<")[0] for part in html.split('">League ')[1:]]


def test_the_list_shows_fifty_leagues_a_page_with_the_next_page_linked(client):
    make_leagues(LEAGUES_PER_PAGE + 10)
    first = client.get(reverse("home")).content.decode()
    assert len(names_on(first)) == LEAGUES_PER_PAGE
    assert "Page 1 of 2" in first and "page=2" in first
    second = client.get(reverse("home"), {"page": 2}).content.decode()
    assert names_on(second) == [f"{i:04d}" for i in range(LEAGUES_PER_PAGE, LEAGUES_PER_PAGE + 10)]
    assert "page=1" in second and "page=3" not in second


def test_a_town_finds_the_leagues_that_play_there(client):
    make_leagues(9)
    html = client.get(reverse("home"), {"q": "hastings"}).content.decode()
    assert names_on(html) == ["0001", "0004", "0007"]
    assert "3 leagues matching “hastings”" in html


def test_every_word_must_be_in_the_name_or_the_town(client):
    make_leagues(9)
    League.objects.filter(slug="league-0004").update(name="Hastings Bar Billiards League")
    html = client.get(reverse("home"), {"q": "billiards HASTINGS"}).content.decode()
    assert "Hastings Bar Billiards League" in html and "1 league matching" in html
    assert names_on(html) == []
    nothing = client.get(reverse("home"), {"q": "Oxford"}).content.decode()
    assert "No league's name or town holds “Oxford”." in nothing


def test_a_search_keeps_its_words_on_the_next_page(client):
    make_leagues(3 * LEAGUES_PER_PAGE + 3)
    html = client.get(reverse("home"), {"q": "Witney"}).content.decode()
    assert "q=Witney&amp;page=2" in html


def test_the_list_reads_the_same_queries_for_three_leagues_or_a_hundred(
    client, django_assert_num_queries
):
    make_leagues(3)
    with django_assert_num_queries(5) as few:  # the count, the leagues, their seasons, notices…
        client.get(reverse("home"))
    make_leagues(100, start=3)
    with django_assert_num_queries(len(few.captured_queries)):
        client.get(reverse("home"), {"page": 2})
    with django_assert_num_queries(len(few.captured_queries)):
        client.get(reverse("home"), {"q": "Chester"})


def test_a_new_league_is_given_its_town_and_found_by_it(client):
    admin = make_site_admin()
    UserFactory(username="margaret")
    client.force_login(admin)
    response = client.post(
        reverse("site-leagues"),
        {
            "name": "Dee Valley Bagatelle League",
            "slug": "dee-valley",
            "town": " Chester ",
            "game_id": "northern_bagatelle",
            "match_night": 2,
            "secretary": "margaret",
        },
    )
    assert response.status_code == 302
    assert League.objects.get(slug="dee-valley").town == "Chester"
    html = client.get(reverse("home"), {"q": "chester"}).content.decode()
    assert "Dee Valley Bagatelle League" in html
    assert client.get("/api/leagues/").json()["results"][0]["town"] == "Chester"
