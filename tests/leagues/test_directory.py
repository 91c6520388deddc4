"""Where to play (docs/directory.md): venues with their tables, league nights and the
leagues and teams playing there now; "Join a team" and "Looking for a team" posts, moderated
by the league's secretary, expiring on their own, answered through the site with no email
address shown to either side."""

from __future__ import annotations

from datetime import time, timedelta
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from leagues.directory import selectors, services
from leagues.directory.tasks import expire_posts
from leagues.models import (
    DirectoryPost,
    PostConversation,
    PostMessage,
    Season,
    Venue,
    VenueTable,
)
from marker.errors import DomainError
from notifications.events import Event
from notifications.models import Notification
from tests.conftest import make_league
from tests.factories import TeamFactory, UserFactory, VenueFactory, make_site_admin

pytestmark = pytest.mark.django_db

GAME = "bar_billiards_4pin"


def login(client, user):
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client


def join_post(league, *, now=None, days=30, title="Players wanted, Tuesdays"):
    team = league.teams[0]
    return services.post_create(
        league=league.season.league,
        kind=DirectoryPost.Kind.JOIN_TEAM,
        team=team,
        actor=league.captain,
        title=title,
        body="A friendly side; we play at home on Tuesdays.",
        days=days,
        now=now,
    )


def published(league, **kwargs):
    post = join_post(league, **kwargs)
    return services.post_publish(post=post, actor=league.secretary, now=kwargs.get("now"))


# ------------------------------------------------------------------------- venues


def test_a_secretary_of_a_league_playing_there_keeps_the_venue(league):
    venue = league.teams[0].venue
    services.venue_details_set(
        venue=venue,
        actor=league.secretary,
        town="Norwich",
        address="17 Bishopgate",
        notes="Step-free entrance.",
        latitude=Decimal("52.632412"),
        longitude=Decimal("1.2965"),
    )
    services.venue_table_set(
        venue=venue, actor=league.secretary, game_id=GAME, count=2, notes="one in the back room"
    )
    services.venue_table_set(venue=venue, actor=league.secretary, game_id=GAME, count=3)
    services.venue_night_set(
        venue=venue, actor=league.secretary, weekday=1, starts_at=time(19, 30), note="League"
    )
    venue.refresh_from_db()
    assert (venue.town, venue.latitude, venue.longitude) == (
        "Norwich",
        Decimal("52.63241"),
        Decimal("1.29650"),
    )
    assert list(VenueTable.objects.filter(venue=venue).values_list("game_id", "count")) == [
        (GAME, 3)
    ]
    entry = selectors.venue_entry(venue.pk)
    assert entry.map_url == (
        "https://www.openstreetmap.org/?mlat=52.63241&mlon=1.29650#map=18/52.63241/1.29650"
    )
    assert entry.leagues == [league.season.league]
    assert league.teams[0] in entry.teams


def test_who_may_edit_a_venue(league):
    venue = league.teams[0].venue
    other = make_league()
    for actor in (league.captain, league.outsider, other.secretary):
        with pytest.raises(DomainError) as refused:
            services.venue_table_set(venue=venue, actor=actor, game_id=GAME, count=1)
        assert (refused.value.code, refused.value.status) == ("venue_not_yours", 403)
    services.venue_table_set(
        venue=venue, actor=make_site_admin(username="root"), game_id=GAME, count=1
    )
    # A secretary whose league's season there is finished no longer keeps it.
    Season.objects.filter(pk=league.season.pk).update(status=Season.Status.FINISHED)
    with pytest.raises(DomainError):
        services.venue_table_set(venue=venue, actor=league.secretary, game_id=GAME, count=1)


def test_bad_venue_input_is_refused_with_a_code_and_changes_nothing(league):
    venue = league.teams[0].venue
    s = league.secretary
    cases = [
        (
            lambda: services.venue_table_set(venue=venue, actor=s, game_id="snooker", count=1),
            "unknown_game",
        ),
        (
            lambda: services.venue_table_set(venue=venue, actor=s, game_id=GAME, count=0),
            "venue_table_count",
        ),
        (
            lambda: services.venue_table_set(venue=venue, actor=s, game_id=GAME, count=51),
            "venue_table_count",
        ),
        (lambda: services.venue_night_set(venue=venue, actor=s, weekday=7), "venue_night_day"),
        (
            lambda: services.venue_details_set(
                venue=venue, actor=s, town="X", address="", latitude=Decimal("52")
            ),
            "venue_coordinates",
        ),
        (
            lambda: services.venue_details_set(
                venue=venue,
                actor=s,
                town="X",
                address="",
                latitude=Decimal("91"),
                longitude=Decimal("1"),
            ),
            "venue_coordinates",
        ),
    ]
    for call, code in cases:
        with pytest.raises(DomainError) as refused:
            call()
        assert refused.value.code == code
    venue.refresh_from_db()
    assert venue.town == "" and venue.latitude is None
    assert not venue.game_tables.exists() and not venue.nights.exists()


def test_leagues_and_teams_there_are_those_of_seasons_not_finished(league):
    venue = league.teams[0].venue
    old = TeamFactory(venue=venue, name="Old Boys")
    Season.objects.filter(pk=old.season_id).update(status=Season.Status.FINISHED)
    entry = selectors.venue_entry(venue.pk)
    assert old not in entry.teams
    assert entry.leagues == [league.season.league]


def test_search_by_name_or_town_and_filter_by_game(league):
    a = VenueFactory(name="The Fat Cat", town="Norwich")
    b = VenueFactory(name="The Boathouse", town="Chester")
    VenueTable.objects.create(venue=b, game_id="northern_bagatelle", count=1)
    names = lambda **f: [v.name for v in selectors.venues_queryset(**f)]  # noqa: E731
    assert names(q="fat") == [a.name]
    assert names(q="chester") == [b.name]
    assert names(town="norwich") == [a.name]
    assert names(game="northern_bagatelle") == [b.name]
    slug = league.season.league.slug
    assert set(names(league=slug)) == {t.venue.name for t in league.teams}


# -------------------------------------------------------------------------- posts


def test_a_captain_posts_for_their_team_and_the_secretary_publishes_it(league):
    now = timezone.now()
    post = join_post(league, now=now, days=10)
    assert post.status == DirectoryPost.Status.PENDING
    assert not selectors.posts_shown(now=now).exists()
    later = now + timedelta(days=3)
    post = services.post_publish(post=post, actor=league.secretary, now=later)
    assert post.status == DirectoryPost.Status.PUBLISHED
    # Up for the ten days chosen, counted from publication.
    assert post.expires_at == later + timedelta(days=10)
    assert list(selectors.posts_shown(now=later)) == [post]


def test_who_may_post_and_for_which_team(league):
    other = make_league()
    team = league.teams[0]
    slug_league = league.season.league
    for actor, on_team in (
        (league.other_captain, team),
        (league.player_user, team),
        (league.captain, other.teams[0]),
    ):
        with pytest.raises(DomainError) as refused:
            services.post_create(
                league=slug_league,
                kind=DirectoryPost.Kind.JOIN_TEAM,
                team=on_team,
                actor=actor,
                title="Players wanted",
            )
        assert (refused.value.code, refused.value.status) == ("post_not_captain", 403)
    # The vice-captain may; for a team of another league, not in this one.
    services.post_create(
        league=slug_league,
        kind=DirectoryPost.Kind.JOIN_TEAM,
        team=team,
        actor=league.vice_captain,
        title="Players wanted",
    )
    with pytest.raises(DomainError) as refused:
        services.post_create(
            league=slug_league,
            kind=DirectoryPost.Kind.JOIN_TEAM,
            team=other.teams[0],
            actor=other.captain,
            title="Wrong league",
        )
    assert refused.value.code == "post_team"
    looking = services.post_create(
        league=slug_league,
        kind=DirectoryPost.Kind.LOOKING,
        actor=league.outsider,
        title="New in town, keen",
    )
    assert looking.team is None


def test_bad_posts_are_refused_with_a_code_and_change_nothing(league):
    base = {
        "league": league.season.league,
        "kind": DirectoryPost.Kind.JOIN_TEAM,
        "team": league.teams[0],
        "actor": league.captain,
        "title": "Players wanted",
    }
    cases = [
        ({"title": "  "}, "post_title"),
        ({"title": "x" * 121}, "post_title"),
        ({"body": "b" * 2001}, "post_body"),
        ({"body": "Write to carol@example.org"}, "email_in_text"),
        ({"days": 0}, "post_days"),
        ({"days": 91}, "post_days"),
        ({"team": None}, "post_team"),
        ({"kind": "selling"}, "post_kind"),
    ]
    for fields, code in cases:
        with pytest.raises(DomainError) as refused:
            services.post_create(**(base | fields))
        assert refused.value.code == code, fields
    assert not DirectoryPost.objects.exists()
    join_post(league)
    with pytest.raises(DomainError) as refused:
        join_post(league)
    assert (refused.value.code, refused.value.status) == ("post_duplicate", 409)


def test_only_the_leagues_secretary_moderates_and_a_refusal_needs_a_reason(league):
    post = join_post(league)
    other = make_league()
    for actor in (league.captain, other.secretary, league.outsider):
        with pytest.raises(DomainError) as refused:
            services.post_publish(post=post, actor=actor)
        assert (refused.value.code, refused.value.status) == ("not_moderator", 403)
    with pytest.raises(DomainError) as refused:
        services.post_refuse(post=post, actor=league.secretary, reason="  ")
    assert refused.value.code == "refusal_reason"
    post = services.post_refuse(post=post, actor=league.secretary, reason="Say which night")
    assert (post.status, post.refusal_reason) == (DirectoryPost.Status.REFUSED, "Say which night")
    with pytest.raises(DomainError) as refused:
        services.post_publish(post=post, actor=league.secretary)
    assert (refused.value.code, refused.value.status) == ("post_not_pending", 409)


def test_a_post_expires_on_its_own_and_the_daily_task_names_it(league):
    now = timezone.now()
    post = published(league, now=now, days=5)
    assert list(selectors.posts_shown(now=now + timedelta(days=4))) == [post]
    after = now + timedelta(days=5, seconds=1)
    # Gone from the list at its time, without any job having run.
    assert not selectors.posts_shown(now=after).exists()
    with pytest.raises(DomainError) as refused:
        services.post_answer(post=post, actor=league.outsider, body="Still free?", now=after)
    assert refused.value.code == "post_closed"
    assert services.posts_expire(now=after) == 1
    assert services.posts_expire(now=after) == 0
    post.refresh_from_db()
    assert post.status == DirectoryPost.Status.EXPIRED
    # The task runs it for now (nothing left to mark).
    assert expire_posts.delay().get() == 0


def test_the_author_withdraws_their_post(league):
    post = published(league)
    with pytest.raises(DomainError) as refused:
        services.post_withdraw(post=post, actor=league.other_captain)
    assert refused.value.status == 403
    services.post_withdraw(post=post, actor=league.captain)
    assert services.post_withdraw(post=post, actor=league.captain).status == "withdrawn"
    assert not selectors.posts_shown(now=timezone.now()).exists()
    # Withdrawn, another may be posted.
    join_post(league)


def test_an_answer_reaches_the_author_on_the_site_and_they_reply(league):
    post = published(league)
    answerer = league.outsider
    message = services.post_answer(post=post, actor=answerer, body="I play on Tuesdays.")
    services.post_answer(post=post, actor=answerer, body="And Thursdays.")
    conversation = message.conversation
    assert PostConversation.objects.filter(post=post).count() == 1
    told = Notification.objects.filter(event=Event.POST_ANSWERED)
    assert list(told.values_list("recipient__user_id", flat=True)) == [league.captain.pk] * 2
    reply = services.conversation_reply(
        conversation=conversation, actor=league.captain, body="Come along next week."
    )
    assert Notification.objects.filter(
        event=Event.POST_ANSWERED, recipient__user=answerer, key=f"post-message:{reply.pk}"
    ).exists()
    with pytest.raises(DomainError) as refused:
        services.conversation_reply(
            conversation=conversation, actor=league.other_captain, body="Me too"
        )
    assert (refused.value.code, refused.value.status) == ("not_in_conversation", 403)
    for actor, body, code in (
        (league.captain, "Mine", "post_own"),
        (answerer, "   ", "message_body"),
        (answerer, "mail me: a@b.org", "email_in_text"),
    ):
        with pytest.raises(DomainError) as refused:
            services.post_answer(post=post, actor=actor, body=body)
        assert refused.value.code == code
    assert PostMessage.objects.count() == 3


def test_a_pending_post_cannot_be_answered(league):
    post = join_post(league)
    with pytest.raises(DomainError) as refused:
        services.post_answer(post=post, actor=league.outsider, body="Hello")
    assert refused.value.code == "post_closed"


def test_people_are_named_by_their_public_name_never_an_address(league):
    user = UserFactory(username="nobody@example.org", first_name="", email="nobody@example.org")
    assert selectors.user_label(user) == "A Marker user"
    player = league.player_user.player
    player.private_name = True
    player.save(update_fields=["private_name"])
    assert selectors.user_label(league.player_user) == player.initials


# -------------------------------------------------------------------------- pages


def _with_details(league, count: int):
    """`count` venues more, each with tables, a night and a team of the league."""
    for i in range(count):
        venue = VenueFactory(name=f"Extra {count} {i}", town="Norwich")
        VenueTable.objects.create(venue=venue, game_id=GAME, count=1)
        venue.nights.create(weekday=1)
        TeamFactory(season=league.season, division=league.premier, venue=venue)


def test_the_directory_page_lists_venues_in_a_fixed_number_of_queries(
    client, league, django_assert_num_queries
):
    venue = league.teams[0].venue
    services.venue_details_set(
        venue=venue,
        actor=league.secretary,
        town="Norwich",
        address="17 Bishopgate",
        latitude=Decimal("52.63241"),
        longitude=Decimal("1.29650"),
    )
    services.venue_table_set(
        venue=venue, actor=league.secretary, game_id=GAME, count=2, notes="one in the back room"
    )
    services.venue_night_set(venue=venue, actor=league.secretary, weekday=1, starts_at=time(19, 30))
    url = reverse("directory")
    client.get(url)
    with CaptureQueriesContext(connection) as few:
        html = client.get(url).content.decode()
    _with_details(league, 5)
    with django_assert_num_queries(len(few)):
        client.get(url)
    assert venue.name in html
    assert "4-pin bar billiards: 2 tables, one in the back room" in html
    assert "Tuesday from 19:30" in html
    assert league.season.league.name in html and league.teams[0].name in html
    assert (
        "https://www.openstreetmap.org/?mlat=52.63241&amp;mlon=1.29650#map=18/52.63241/1.29650"
        in html
    )
    assert "<iframe" not in html and "tile.openstreetmap" not in html
    search = client.get(url, {"q": "Extra 5 3"}).content.decode()
    assert "Extra 5 3" in search and venue.name not in search


def test_the_venue_page_and_the_league_front_page_link_the_directory(client, league):
    venue = league.teams[0].venue
    post = published(league)
    html = client.get(reverse("directory-venue", args=[venue.pk])).content.decode()
    assert post.title in html and league.teams[0].name in html
    home = client.get(league.season.league.get_absolute_url()).content.decode()
    assert f"{reverse('directory')}?league={league.season.league.slug}" in home
    listed = client.get(reverse("directory"), {"league": league.season.league.slug})
    assert venue.name in listed.content.decode()


def test_the_posts_page_shows_what_is_up_in_a_fixed_number_of_queries(
    client, league, django_assert_num_queries
):
    published(league)
    url = reverse("directory-posts")
    client.get(url)
    with CaptureQueriesContext(connection) as few:
        client.get(url)
    for i in range(4):
        services.post_publish(
            post=services.post_create(
                league=league.season.league,
                kind=DirectoryPost.Kind.LOOKING,
                actor=UserFactory(),
                title=f"Looking {i}",
            ),
            actor=league.secretary,
        )
    with django_assert_num_queries(len(few)):
        html = client.get(url).content.decode()
    assert "Players wanted, Tuesdays" in html and "Looking 3" in html


def test_posting_moderating_and_answering_through_the_pages(client, league):
    captain = login(client, league.captain)
    response = captain.post(
        reverse("directory-post-new"),
        {
            "kind": "join_team",
            "league": league.season.league.pk,
            "team": league.teams[0].pk,
            "title": "Two players wanted",
            "body": "Tuesdays at home.",
            "days": 30,
        },
    )
    assert response.status_code == 302, response.content.decode()
    post = DirectoryPost.objects.get()
    assert post.status == "pending"
    secretary = login(type(client)(), league.secretary)
    queue = secretary.get(reverse("league-posts", args=[league.season.league.slug]))
    assert "Two players wanted" in queue.content.decode()
    secretary.post(
        reverse("league-post-moderate", args=[league.season.league.slug, post.pk]),
        {"action": "publish"},
    )
    post.refresh_from_db()
    assert post.status == "published"
    player = login(type(client)(), league.outsider)
    answer = player.post(reverse("directory-post", args=[post.pk]), {"body": "I'd love to."})
    conversation = PostConversation.objects.get()
    assert answer["Location"] == reverse("directory-conversation", args=[conversation.pk])
    page = captain.get(reverse("directory-conversation", args=[conversation.pk])).content.decode()
    assert "I&#x27;d love to." in page
    for html in (page, player.get(answer["Location"]).content.decode()):
        assert league.outsider.email not in html and league.captain.email not in html
        assert "@example.org" not in html
    refused = login(type(client)(), league.other_captain).get(answer["Location"])
    assert refused.status_code == 403


def test_a_refused_post_shows_its_reason_to_its_author_only(client, league):
    post = services.post_refuse(
        post=join_post(league), actor=league.secretary, reason="Name the night"
    )
    url = reverse("directory-post", args=[post.pk])
    assert "Name the night" in login(client, league.captain).get(url).content.decode()
    assert type(client)().get(url).status_code == 404


# ---------------------------------------------------------------------------- API


def test_api_lists_venues_paginated_and_filtered(client, league):
    venue = league.teams[0].venue
    services.venue_details_set(
        venue=venue,
        actor=league.secretary,
        town="Norwich",
        address="",
        latitude=Decimal("52.6"),
        longitude=Decimal("1.3"),
    )
    services.venue_table_set(venue=venue, actor=league.secretary, game_id=GAME, count=2)
    body = client.get("/api/directory/venues/", {"game": GAME}).json()
    assert body["count"] == 1
    (row,) = body["results"]
    assert row["name"] == venue.name and row["town"] == "Norwich"
    assert row["tables"] == [
        {"game_id": GAME, "game": "4-pin bar billiards", "count": 2, "notes": ""}
    ]
    assert row["map_url"].startswith("https://www.openstreetmap.org/?mlat=52.60000")
    assert row["leagues"] == [
        {"slug": league.season.league.slug, "name": league.season.league.name}
    ]
    assert client.get("/api/directory/venues/", {"town": "norwich"}).json()["count"] == 1
    paged = client.get("/api/directory/venues/", {"limit": 2}).json()
    assert len(paged["results"]) == 2 and paged["count"] == Venue.objects.count()
    assert client.get(f"/api/directory/venues/{venue.pk}/").json()["id"] == venue.pk
    assert client.get("/api/directory/venues/999999/").status_code == 404


def test_api_posts_create_answer_and_moderate(client, league):
    anon = type(client)()
    assert anon.post("/api/directory/posts/", {"kind": "looking_for_team"}).status_code in (
        401,
        403,
    )
    captain = login(client, league.captain)
    created = captain.post(
        "/api/directory/posts/",
        {"kind": "join_team", "team": league.teams[0].pk, "title": "Players wanted"},
        content_type="application/json",
    )
    assert created.status_code == 201, created.json()
    post_id = created.json()["id"]
    assert created.json()["status"] == "pending"
    bad = captain.post(
        "/api/directory/posts/",
        {"kind": "join_team", "team": league.teams[0].pk, "title": "x", "days": 91},
        content_type="application/json",
    )
    assert bad.status_code == 400
    assert anon.get("/api/directory/posts/").json()["count"] == 0
    other = login(type(client)(), league.other_captain)
    assert (
        other.post(
            f"/api/directory/posts/{post_id}/moderate/",
            {"action": "publish"},
            content_type="application/json",
        ).status_code
        == 403
    )
    secretary = login(type(client)(), league.secretary)
    done = secretary.post(
        f"/api/directory/posts/{post_id}/moderate/",
        {"action": "publish"},
        content_type="application/json",
    )
    assert done.status_code == 200 and done.json()["status"] == "published"
    listed = anon.get("/api/directory/posts/").json()
    assert [p["id"] for p in listed["results"]] == [post_id]
    assert "@" not in str(listed)
    answered = other.post(
        f"/api/directory/posts/{post_id}/answers/",
        {"body": "Have you room for one more?"},
        content_type="application/json",
    )
    assert answered.status_code == 201
    own = captain.post(
        f"/api/directory/posts/{post_id}/answers/", {"body": "x"}, content_type="application/json"
    )
    assert (own.status_code, own.json()["error"]) == (409, "post_own")
