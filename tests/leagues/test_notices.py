"""Site notices: a site administrator posts one for every page, a league's secretary one
for the league's pages; shown from its start until its end (or until ended), warnings
first; dismissible per browser; the pad reads them from GET /api/notices/."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone

from leagues.models import Notice
from leagues.notices import selectors, services
from marker.errors import DomainError
from tests.factories import LeagueFactory, UserFactory, make_secretary, make_site_admin

pytestmark = pytest.mark.django_db


def login(client, user):
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client


@pytest.fixture
def two_leagues():
    norwich = LeagueFactory(name="Norwich", slug="norwich")
    chester = LeagueFactory(name="Chester", slug="chester")
    return norwich, chester, make_secretary(norwich, username="norwich-sec")


def test_who_may_post_and_end_notices(two_leagues):
    norwich, chester, secretary = two_leagues
    admin = make_site_admin(username="root")
    captain = UserFactory(username="a-captain")
    site = services.notice_create(league=None, title="Down for upgrade", actor=admin)
    mine = services.notice_create(league=norwich, title="AGM on Friday", actor=secretary)
    for actor, league in ((secretary, None), (secretary, chester), (captain, norwich)):
        with pytest.raises(DomainError) as refused:
            services.notice_create(league=league, title="No", actor=actor)
        assert refused.value.status == 403
    with pytest.raises(DomainError):
        services.notice_end(notice=site, actor=secretary)
    assert services.notice_create(league=chester, title="Chester", actor=admin).league == chester
    assert Notice.objects.count() == 3
    ended = services.notice_end(notice=mine, actor=secretary)
    assert ended.ends_at is not None and ended.ends_at <= timezone.now()
    assert services.notice_end(notice=mine, actor=secretary).ends_at == ended.ends_at


def test_bad_input_is_refused_with_a_code_and_changes_nothing(two_leagues):
    norwich, _, secretary = two_leagues
    now = timezone.now()
    cases = [
        ({"title": "   "}, "notice_title"),
        ({"title": "x" * 121}, "notice_title"),
        ({"title": "T", "body": "b" * 1001}, "notice_body"),
        ({"title": "T", "level": "shouting"}, "notice_level"),
        ({"title": "T", "starts_at": now, "ends_at": now}, "notice_ends_before_start"),
        (
            {
                "title": "T",
                "starts_at": now - timedelta(days=2),
                "ends_at": now - timedelta(days=1),
            },
            "notice_ended",
        ),
    ]
    for fields, code in cases:
        with pytest.raises(DomainError) as refused:
            services.notice_create(league=norwich, actor=secretary, now=now, **fields)
        assert refused.value.code == code
    assert not Notice.objects.exists()


def test_shown_from_start_to_end_warnings_first_and_only_on_their_league(two_leagues):
    norwich, chester, secretary = two_leagues
    admin = make_site_admin(username="root")
    now = timezone.now()
    info = services.notice_create(league=None, title="Site info", actor=admin, now=now)
    warning = services.notice_create(
        league=norwich, title="Norwich warning", level="warning", actor=secretary, now=now
    )
    later = services.notice_create(
        league=None, title="Tomorrow", starts_at=now + timedelta(days=1), actor=admin, now=now
    )
    over = services.notice_create(
        league=None, title="Brief", ends_at=now + timedelta(minutes=5), actor=admin, now=now
    )
    services.notice_create(league=chester, title="Chester only", actor=admin, now=now)

    at = now + timedelta(minutes=1)
    assert selectors.notices_shown(now=at, league_id=norwich.pk) == [warning, over, info]
    assert [n.title for n in selectors.notices_shown(now=at)] == ["Brief", "Site info"]
    an_hour = now + timedelta(hours=1)
    assert selectors.notices_shown(now=an_hour, league_slug="norwich") == [warning, info]
    assert later in selectors.notices_shown(now=now + timedelta(days=2))


@pytest.fixture
def shared_cache(settings):
    """Version tokens trusted (as with Redis; local memory is one process in a test)."""
    settings.LIVE_VERSIONS = True
    settings.LIVE_VERSION_MEMO = 0
    cache.clear()
    yield
    cache.clear()


def test_with_a_shared_cache_an_unchanged_page_reads_no_notice_and_a_post_shows_at_once(
    two_leagues, shared_cache, django_assert_num_queries, django_capture_on_commit_callbacks
):
    norwich, chester, secretary = two_leagues
    admin = make_site_admin(username="root")
    now = timezone.now()
    with django_capture_on_commit_callbacks(execute=True):
        site = services.notice_create(league=None, title="Site info", actor=admin, now=now)
        later = services.notice_create(
            league=norwich, title="Tomorrow", starts_at=now + timedelta(days=1), actor=secretary
        )
    with django_assert_num_queries(1):
        assert selectors.notices_shown(now=now, league_id=norwich.pk) == [site]
    with django_assert_num_queries(0):
        assert selectors.notices_shown(now=now, league_id=norwich.pk) == [site]
        # One starting later shows when its time comes, without a write.
        assert selectors.notices_shown(now=now + timedelta(days=2), league_id=norwich.pk) == [
            later,
            site,
        ]
    # Posting or ending one is seen by the next page at once.
    with django_capture_on_commit_callbacks(execute=True):
        warning = services.notice_create(
            league=norwich, title="Table 2 closed", level="warning", actor=secretary, now=now
        )
    assert selectors.notices_shown(now=now, league_id=norwich.pk) == [warning, site]
    with django_capture_on_commit_callbacks(execute=True):
        services.notice_end(notice=site, actor=admin, now=now + timedelta(minutes=1))
    after = now + timedelta(minutes=2)
    assert selectors.notices_shown(now=after, league_id=norwich.pk) == [warning]
    assert selectors.notices_shown(now=after, league_slug="chester") == []


def test_the_banner_on_every_page_and_the_leagues_own_on_its_pages(two_leagues, client):
    norwich, chester, secretary = two_leagues
    admin = make_site_admin(username="root")
    services.notice_create(league=None, title="Maintenance tonight", actor=admin)
    services.notice_create(
        league=norwich,
        title="Norwich AGM",
        body="At the Kings Head.",
        level="warning",
        actor=secretary,
    )
    home = client.get(reverse("home")).content.decode()
    assert "Maintenance tonight" in home and "Norwich AGM" not in home
    page = client.get(reverse("league-home", args=["norwich"])).content.decode()
    assert page.index("Norwich AGM") < page.index("Maintenance tonight")  # warnings first
    assert "At the Kings Head." in page and "data-notice-dismiss" in page
    assert "frames/notices.js" in page and "<script>" not in page  # CSP: no inline script
    other = client.get(reverse("league-home", args=["chester"])).content.decode()
    assert "Maintenance tonight" in other and "Norwich AGM" not in other
    # An ended notice is gone at once.
    services.notice_end(notice=Notice.objects.get(title="Maintenance tonight"), actor=admin)
    assert "Maintenance tonight" not in client.get(reverse("home")).content.decode()


def test_the_pads_json(two_leagues, client, django_assert_num_queries):
    norwich, _, secretary = two_leagues
    admin = make_site_admin(username="root")
    services.notice_create(league=None, title="Site", actor=admin)
    services.notice_create(league=norwich, title="League", level="warning", actor=secretary)
    url = reverse("api-notices")
    with django_assert_num_queries(1):
        site_only = client.get(url).json()
    assert [n["title"] for n in site_only] == ["Site"]
    with django_assert_num_queries(2):  # the league by its slug, the notices
        both = client.get(url, {"league": "norwich"}).json()
    assert [(n["title"], n["level"], n["league"]) for n in both] == [
        ("League", "warning", "norwich"),
        ("Site", "info", None),
    ]
    assert set(both[0]) == {"id", "title", "body", "level", "starts_at", "ends_at", "league"}
    missing = client.get(url, {"league": "nowhere"})
    assert missing.status_code == 404 and missing.json()["error"] == "not_found"


def test_the_notices_pages(two_leagues, client, django_assert_num_queries):
    norwich, chester, secretary = two_leagues
    admin = make_site_admin(username="root")
    site_url = reverse("site-notices")
    league_url = reverse("league-notices", args=["norwich"])
    assert client.get(league_url).status_code == 302  # to log in
    login(client, secretary)
    assert client.get(site_url).status_code == 403
    assert client.get(reverse("league-notices", args=["chester"])).status_code == 403
    assert client.get(league_url).status_code == 200

    response = client.post(league_url, {"title": "Cup draw on Friday", "level": "info"})
    assert response.status_code == 302
    notice = Notice.objects.get()
    assert (notice.league, notice.created_by) == (norwich, secretary)
    bad = client.post(
        league_url,
        {
            "title": "Back",
            "level": "info",
            "starts_at": "2030-01-02T10:00",
            "ends_at": "2030-01-01T10:00",
        },
    )
    assert bad.status_code == 400 and "must end after it starts" in bad.content.decode()

    for n in range(5):
        services.notice_create(league=norwich, title=f"Notice {n}", actor=secretary)
    with django_assert_num_queries(8) as few:
        page = client.get(league_url).content.decode()
    assert "Cup draw on Friday" in page and "End “Notice 4” now" in page
    for n in range(5):
        services.notice_create(league=norwich, title=f"More {n}", actor=secretary)
    with django_assert_num_queries(len(few.captured_queries)):
        client.get(league_url)

    # Ending: its poster, not a secretary of another league.
    end = reverse("notice-end", args=[notice.pk])
    other = make_secretary(chester, username="chester-sec")
    assert login(client.__class__(), other).post(end).status_code == 403
    assert client.post(end)["Location"] == league_url
    notice.refresh_from_db()
    assert notice.ends_at is not None

    admin_client = login(client.__class__(), admin)
    assert admin_client.post(site_url, {"title": "Upgrade", "level": "warning"}).status_code == 302
    assert Notice.objects.get(title="Upgrade").league is None
    assert "Notices" in admin_client.get(reverse("home")).content.decode()
