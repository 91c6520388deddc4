"""Rankings across leagues (frames.ratings.rankings, docs/ratings.md *Rankings*): who is
ranked (the twelve months, the minimum), movement since a month before against the
hand-worked example, privacy (initials, erased players), pages of 50, query counts that do
not grow with the players, the API, and the organisation's rules."""

from __future__ import annotations

from datetime import date

import pytest
from django.urls import reverse
from django.utils import timezone

from frames.ratings import rankings
from leagues.models import OrganisationRole
from leagues.organisations import services as organisation_services
from marker.errors import DomainError
from tests.factories import LeagueFactory, PlayerFactory, UserFactory
from tests.frames.rankings_support import (
    BB,
    county,
    history,
    many_players,
    worked_example,
)

pytestmark = pytest.mark.django_db

TODAY = date(2026, 6, 15)


@pytest.fixture
def on_the_day(monkeypatch):
    """The pages and the API rank as of TODAY."""
    monkeypatch.setattr(timezone, "localdate", lambda *a, **k: TODAY)


@pytest.fixture
def example():
    return worked_example(TODAY)


def org_ranking(example, **kw) -> rankings.Ranking:
    organisation = example["organisation"]
    return rankings.ranking(
        BB,
        league_ids=list(organisation.leagues.values_list("pk", flat=True)),
        min_frames=organisation.ranking_min_frames,
        today=TODAY,
        **kw,
    )


def table(ranking: rankings.Ranking) -> list[tuple]:
    return [
        (
            r.rank,
            r.name,
            r.frames,
            r.ordinal,
            "new" if r.new else r.movement,
            None if r.new else round(r.rating_change or 0, 6),
        )
        for r in ranking.rows
    ]


# ---------------------------------------------------------------- the worked example


def test_the_worked_example_ranks_moves_and_marks_new_entries(example):
    ranking = org_ranking(example)
    assert (ranking.since, ranking.compared_with) == (date(2025, 6, 15), date(2026, 5, 15))
    assert table(ranking) == [
        (1, "Carol Cubitt", 4, 16.0, "new", None),  # 2 frames by 15 May: not ranked then
        (2, "Alan Adcock", 5, 14.0, 1, 2.0),  # 3rd then (12), up one
        (3, "Barry Bunn", 5, 9.0, -2, -11.0),  # 1st then (20), down two
        (4, "N. N.", 3, 5.0, "new", None),  # initials only
    ]
    assert (ranking.ranked, ranking.unranked) == (4, 1)  # Harry: 2 frames


def test_the_ranking_a_month_ago_counts_players_no_longer_ranked(example):
    """Emma (18, 5 frames in May 2025) was 2nd on 15 May: Alan was 3rd behind her, so
    he moved up one, not zero, when she dropped out of the window."""
    alan = next(r for r in org_ranking(example).rows if r.name == "Alan Adcock")
    assert alan.previous_rank == 3 and alan.previous_ordinal == 12.0


def test_each_row_names_the_member_leagues_played_in_the_twelve_months(example):
    rows = {r.name: r.leagues for r in org_ranking(example).rows}
    assert rows["Alan Adcock"] == ["Great Yarmouth", "Norwich & District"]
    assert rows["Barry Bunn"] == ["Norwich & District"]
    assert rows["N. N."] == ["Great Yarmouth"]


def test_a_non_member_leagues_player_is_not_in_the_countys_ranking_but_in_every_leagues(
    example,
):
    assert "Dave Dye" not in [r.name for r in org_ranking(example).rows]
    everywhere = rankings.ranking(BB, league_ids=None, min_frames=3, today=TODAY)
    assert [(r.rank, r.name) for r in everywhere.rows] == [
        (1, "Carol Cubitt"),
        (2, "Dave Dye"),
        (3, "Alan Adcock"),
        (4, "Barry Bunn"),
        (5, "N. N."),
    ]


def test_frames_in_other_leagues_do_not_count_towards_the_countys_minimum():
    member, other = LeagueFactory(), LeagueFactory()
    organisation = county(member, slug="c", min_frames=3)
    player = PlayerFactory(name="Wendy Wegg")
    history(player, [(date(2026, 6, 1), member, 5.0)] * 2 + [(date(2026, 6, 2), other, 6.0)] * 5)
    ranking = rankings.ranking(
        BB, league_ids=[member.pk], min_frames=organisation.ranking_min_frames, today=TODAY
    )
    assert ranking.rows == [] and ranking.unranked == 1
    # the rating shown is the one rating across every league
    ranking = rankings.ranking(BB, league_ids=[member.pk], min_frames=2, today=TODAY)
    assert [(r.name, r.frames, r.ordinal) for r in ranking.rows] == [("Wendy Wegg", 2, 6.0)]


# ---------------------------------------------------------------- who is ranked


@pytest.mark.parametrize(
    ("day", "ranked"),
    [
        (date(2025, 6, 15), False),  # twelve months to the day: outside the window
        (date(2025, 6, 16), True),
        (TODAY, True),
        (date(2026, 6, 16), False),  # not played yet on TODAY
    ],
)
def test_the_twelve_months_run_from_the_day_after_a_year_before_to_today(day, ranked):
    league = LeagueFactory()
    history(PlayerFactory(name="Una Utting"), [(day, league, 1.0)] * 3)
    ranking = rankings.ranking(BB, league_ids=[league.pk], min_frames=3, today=TODAY)
    assert bool(ranking.rows) is ranked


def test_a_player_with_the_minimum_is_ranked_and_one_frame_fewer_is_not():
    league = LeagueFactory()
    history(PlayerFactory(name="Ten Frames"), [(date(2026, 6, 1), league, 4.0)] * 10)
    history(PlayerFactory(name="Nine Frames"), [(date(2026, 6, 1), league, 9.0)] * 9)
    ranking = rankings.ranking(BB, league_ids=[league.pk], min_frames=10, today=TODAY)
    assert [r.name for r in ranking.rows] == ["Ten Frames"]
    assert ranking.unranked == 1


def test_equal_ratings_share_a_rank_and_the_next_rank_skips():
    league = LeagueFactory()
    for name, ordinal in (("A One", 9.0), ("B Two", 7.0), ("C Three", 7.0), ("D Four", 1.0)):
        history(PlayerFactory(name=name), [(date(2026, 6, 1), league, ordinal)] * 3)
    rows = rankings.ranking(BB, league_ids=[league.pk], min_frames=3, today=TODAY).rows
    assert [(r.rank, r.tied) for r in rows] == [(1, False), (2, True), (2, True), (4, False)]


def test_other_games_are_not_mixed_in():
    league = LeagueFactory()
    history(PlayerFactory(name="Bagatelle Only"), [(date(2026, 6, 1), league, 9.0)] * 3, "x")
    assert rankings.ranking(BB, league_ids=[league.pk], min_frames=1, today=TODAY).rows == []


# ---------------------------------------------------------------- privacy


def test_an_erased_player_is_never_ranked_nor_named_and_moves_nobody(example):
    """Former player 1 (30, the best rating, in both rankings) is left out of both, so
    Barry was 1st then, and nobody's rank counts them."""
    ranking = org_ranking(example)
    assert all(r.player_id != example["people"]["erased"].pk for r in ranking.rows)
    barry = next(r for r in ranking.rows if r.name == "Barry Bunn")
    assert barry.previous_rank == 1
    assert ranking.unranked == 1  # not counted among those with too few frames either


def test_the_page_shows_initials_and_never_an_erased_or_private_name(client, example, on_the_day):
    page = client.get(reverse("organisation-ranking", args=["norfolk", BB]))
    html = page.content.decode()
    assert page.status_code == 200
    assert "N. N." in html and "Nora Nobbs" not in html
    assert "Former player" not in html
    assert "Erased players are not ranked" in html


# ---------------------------------------------------------------- the pages


def test_the_page_explains_who_is_not_ranked_and_shows_movement(client, example, on_the_day):
    html = client.get(reverse("organisation-ranking", args=["norfolk", BB])).content.decode()
    assert "Players with fewer than 3 rated frames in the last twelve months" in html
    assert "(1 player this time)" in html
    assert "▲ 1" in html and "▼ 2" in html and html.count(">new<") == 2
    assert "+2.0" in html and "-11.0" in html
    assert reverse("player-ratings", args=[example["people"]["Alan Adcock"].pk]) in html


def test_the_rankings_page_lists_the_games_it_ranks_and_its_rules(client, example):
    html = client.get(reverse("organisation-rankings", args=["norfolk"])).content.decode()
    assert reverse("organisation-ranking", args=["norfolk", BB]) in html
    assert "at least 3 rated frames" in html
    assert reverse("organisation-ranking-rules", args=["norfolk"]) not in html  # not an officer


def test_a_game_the_organisation_does_not_rank_is_not_found(client, example):
    assert (
        client.get(reverse("organisation-ranking", args=["norfolk", "snooker"])).status_code == 404
    )
    assert client.get(reverse("organisation-ranking", args=["nowhere", BB])).status_code == 404
    assert client.get(reverse("site-ranking", args=["no_such_game"])).status_code == 404


def test_the_site_ranking_uses_the_default_minimum(client, on_the_day):
    league = LeagueFactory()
    history(PlayerFactory(name="Ten Frames"), [(date(2026, 6, 1), league, 4.0)] * 10)
    history(PlayerFactory(name="Three Frames"), [(date(2026, 6, 1), league, 9.0)] * 3)
    html = client.get(reverse("site-ranking", args=[BB])).content.decode()
    assert "Ten Frames" in html and "Three Frames" not in html
    assert "fewer than 10 rated frames" in html


def test_pages_of_fifty_continue_the_ranks_and_a_page_past_the_end_is_not_found(client, on_the_day):
    league = LeagueFactory()
    county(league, slug="big", min_frames=3)
    many_players(league, 120, date(2026, 6, 1))
    url = reverse("organisation-ranking", args=["big", BB])
    first = client.get(url).context["ranking"]
    third = client.get(url + "?page=3").context["ranking"]
    assert len(first.rows) == 50 and first.rows[0].rank == 1 and first.pages == 3
    assert [r.rank for r in third.rows] == list(range(101, 121))
    assert client.get(url + "?page=4").status_code == 404
    assert client.get(url + "?page=x").context["ranking"].page == 1
    assert client.get(url + "?page=²").context["ranking"].page == 1


def players_in(league, count):
    """`count` players ranked now and a month before (every row has a movement)."""
    for player in many_players(league, count, date(2026, 5, 1)):
        history(player, [(date(2026, 6, 1), league, float(player.pk % 7))])


@pytest.mark.parametrize("count", [3, 60])
def test_the_ranking_page_costs_the_same_queries_however_many_players(
    client, on_the_day, django_assert_num_queries, count
):
    league = LeagueFactory()
    county(league, slug="q", min_frames=3)
    players_in(league, count)
    url = reverse("organisation-ranking", args=["q", BB])
    # the organisation, its games (its leagues' seasons), its leagues, the page of rows
    # with the counts, the leagues of the page's players; the site's notices (base.html)
    with django_assert_num_queries(6):
        page = client.get(url)
    assert len(page.context["ranking"].rows) == min(count, 50)


@pytest.mark.parametrize("count", [3, 60])
def test_the_ranking_api_costs_the_same_queries_however_many_players(
    client, on_the_day, django_assert_num_queries, count
):
    league = LeagueFactory()
    county(league, slug="q", min_frames=3)
    players_in(league, count)
    with django_assert_num_queries(5):
        answer = client.get(reverse("api-organisation-ranking", args=["q", BB]))
    assert answer.json()["count"] == count


def test_the_league_ratings_page_and_the_organisation_page_link_to_the_ranking(client, example):
    ranking_url = reverse("organisation-ranking", args=["norfolk", BB])
    league = example["norwich"]
    league.game_id = BB
    league.save()
    ratings = client.get(reverse("league-ratings", args=[league.slug])).content.decode()
    assert ranking_url in ratings
    home = client.get(reverse("organisation-home", args=["norfolk"])).content.decode()
    assert reverse("organisation-rankings", args=["norfolk"]) in home


# ---------------------------------------------------------------- the API


def test_the_api_answers_a_page_with_movement_and_links(client, example, on_the_day):
    url = reverse("api-organisation-ranking", args=["norfolk", BB])
    data = client.get(url, {"limit": 2}).json()
    assert data["count"] == 4 and data["unranked"] == 1 and data["min_frames"] == 3
    assert data["compared_with"] == "2026-05-15" and data["since"] == "2025-06-15"
    assert [(r["rank"], r["name"], r["new"], r["movement"]) for r in data["results"]] == [
        (1, "Carol Cubitt", True, None),
        (2, "Alan Adcock", False, 1),
    ]
    assert data["results"][1]["leagues"] == ["Great Yarmouth", "Norwich & District"]
    assert data["results"][1]["rating_change"] == 2.0
    assert data["previous"] is None and data["next"].endswith("?limit=2&offset=2")
    second = client.get(url, {"limit": 2, "offset": 2}).json()
    assert [(r["rank"], r["name"], r["movement"]) for r in second["results"]] == [
        (3, "Barry Bunn", -2),
        (4, "N. N.", None),
    ]
    assert second["next"] is None and second["previous"].endswith("?limit=2&offset=0")


@pytest.mark.parametrize(
    "query",
    [{"limit": "0"}, {"limit": "501"}, {"limit": "x"}, {"offset": "-1"}, {"offset": "²"}],
)
def test_the_api_refuses_bad_paging(client, example, query):
    answer = client.get(reverse("api-organisation-ranking", args=["norfolk", BB]), query)
    assert answer.status_code == 400 and answer.json()["error"] == "bad_parameter"


def test_the_api_answers_404_for_no_such_organisation_game_or_unranked_game(client, example):
    assert client.get(reverse("api-organisation-ranking", args=["nowhere", BB])).status_code == 404
    assert (
        client.get(reverse("api-organisation-ranking", args=["norfolk", "snooker"])).status_code
        == 404
    )
    assert client.get(reverse("api-site-ranking", args=["no_such_game"])).status_code == 404


def test_the_site_api_ranks_every_league(client, example, on_the_day):
    # The site-wide ranking's minimum is the default (10): nobody in the example has it.
    data = client.get(reverse("api-site-ranking", args=[BB])).json()
    assert data["min_frames"] == 10 and data["count"] == 0 and data["unranked"] == 6


# ---------------------------------------------------------------- the rules


def officer_of(organisation, role=OrganisationRole.Role.COMPETITIONS_OFFICER):
    user = UserFactory()
    OrganisationRole.objects.create(organisation=organisation, user=user, role=role)
    return user


def test_an_officer_sets_the_minimum_and_the_games_and_the_ranking_follows(example):
    organisation = example["organisation"]
    organisation_services.organisation_set_ranking_rules(
        organisation=organisation, actor=officer_of(organisation), min_frames=5, games=[BB]
    )
    organisation.refresh_from_db()
    assert (organisation.ranking_min_frames, organisation.ranked_games) == (5, [BB])
    assert [r.name for r in org_ranking({"organisation": organisation}).rows] == [
        "Alan Adcock",
        "Barry Bunn",
    ]


@pytest.mark.parametrize(
    ("min_frames", "games", "code"),
    [(0, [BB], "bad_value"), (1001, [BB], "bad_value"), (3, ["no_such_game"], "unknown_game")],
)
def test_bad_rules_are_refused_and_nothing_changes(example, min_frames, games, code):
    organisation = example["organisation"]
    with pytest.raises(DomainError) as refused:
        organisation_services.organisation_set_ranking_rules(
            organisation=organisation,
            actor=officer_of(organisation),
            min_frames=min_frames,
            games=games,
        )
    assert refused.value.code == code
    organisation.refresh_from_db()
    assert (organisation.ranking_min_frames, organisation.ranked_games) == (3, [])


def test_only_the_organisations_officers_set_its_rules(example):
    organisation = example["organisation"]
    with pytest.raises(DomainError) as refused:
        organisation_services.organisation_set_ranking_rules(
            organisation=organisation, actor=UserFactory(), min_frames=5, games=[]
        )
    assert refused.value.status == 403


def test_the_rules_page_saves_the_rules_and_a_game_not_ranked_is_then_not_found(client, example):
    organisation = example["organisation"]
    example["yarmouth"].game_id = "bagatelle_1908"  # its leagues play two games
    example["yarmouth"].save()
    officer = officer_of(organisation)
    url = reverse("organisation-ranking-rules", args=["norfolk"])
    client.force_login(UserFactory())
    assert client.get(url).status_code == 403
    client.force_login(officer)
    assert client.get(url).status_code == 200
    answer = client.post(url, {"min_frames": "4", "games": ["bagatelle_1908"]})
    assert answer.status_code == 302
    organisation.refresh_from_db()
    assert (organisation.ranking_min_frames, organisation.ranked_games) == (4, ["bagatelle_1908"])
    assert client.get(reverse("organisation-ranking", args=["norfolk", BB])).status_code == 404
    listing = client.get(reverse("organisation-rankings", args=["norfolk"])).content.decode()
    assert url in listing  # the officer sees where to change them


def test_an_organisation_with_no_games_chosen_ranks_every_game_its_leagues_play(example):
    from leagues.organisations.selectors import ranked_games

    example["yarmouth"].game_id = "bagatelle_1908"
    example["yarmouth"].save()
    assert ranked_games(example["organisation"]) == sorted([BB, "bagatelle_1908"])


def test_months_before_clamps_to_the_months_last_day():
    assert rankings.months_before(date(2026, 3, 31), 1) == date(2026, 2, 28)
    assert rankings.months_before(date(2026, 1, 15), 1) == date(2025, 12, 15)
    assert rankings.months_before(date(2028, 2, 29), 12) == date(2027, 2, 28)
