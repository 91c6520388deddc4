"""The league's pages. `urlpatterns` are the site's own (the home page listing the leagues,
players, invitations, the site administrator's leagues page, and the old addresses, which
redirect); `league_urlpatterns` live under a league (`/<league-slug>/…`, config/urls.py)
and every view of theirs takes the `league` slug and 404s an object of another league."""

from django.urls import path

from . import views
from .availability import views as availability_views
from .directory import views as directory_views
from .fixtures import views as fixture_views
from .notices import views as notice_views
from .organisations import views as organisation_views
from .seasons import views as season_views
from .tables import views as table_views
from .teams import views as team_views

urlpatterns = [
    path("", views.home, name="home"),
    path("players/<int:pk>/", views.player_detail, name="player-detail"),
    path("invitations/<str:token>/", team_views.invitation_accept, name="invitation-accept"),
    path(
        "officer-invitations/<str:token>/",
        views.officer_invitation_accept,
        name="officer-invitation-accept",
    ),
    path("unsubscribe/<str:token>/", table_views.table_unsubscribe, name="table-unsubscribe"),
    path("site/leagues/", views.site_leagues, name="site-leagues"),
    # Availability: a player's signed link (no login) and their own page.
    path(
        "availability/<str:token>/",
        availability_views.availability_answer,
        name="availability-answer",
    ),
    path("me/availability/", availability_views.my_availability, name="my-availability"),
    path("site/notices/", notice_views.site_notices, name="site-notices"),
    path("notices/<int:pk>/end/", notice_views.notice_end, name="notice-end"),
    # Where to play: venues, their tables and nights, and "Join a team" posts (docs/directory.md).
    path("where-to-play/", directory_views.directory, name="directory"),
    path("where-to-play/<int:pk>/", directory_views.venue, name="directory-venue"),
    path("where-to-play/<int:pk>/edit/", directory_views.venue_edit, name="directory-venue-edit"),
    path("where-to-play/posts/", directory_views.posts, name="directory-posts"),
    path("where-to-play/posts/new/", directory_views.post_new, name="directory-post-new"),
    path("where-to-play/posts/mine/", directory_views.mine, name="directory-mine"),
    path("where-to-play/posts/<int:pk>/", directory_views.post_detail, name="directory-post"),
    path(
        "where-to-play/posts/<int:pk>/withdraw/",
        directory_views.post_withdraw,
        name="directory-post-withdraw",
    ),
    path(
        "where-to-play/conversations/<int:pk>/",
        directory_views.conversation,
        name="directory-conversation",
    ),
    path("org/", organisation_views.organisation_list, name="organisation-list"),
    path("org/<slug:slug>/", organisation_views.organisation_home, name="organisation-home"),
    path(
        "org/<slug:slug>/ranking-rules/",
        organisation_views.organisation_ranking_rules,
        name="organisation-ranking-rules",
    ),
    # The secretary's import (with the data page, exchange/urls.py: by the season's id).
    path("seasons/<int:pk>/import/", season_views.season_import, name="season-import"),
    path(
        "seasons/<int:pk>/import/jobs/<int:job>/",
        season_views.season_import_job,
        name="season-import-job",
    ),
    # The addresses before leagues were tenants: permanent redirects.
    path("seasons/<int:pk>/", views.legacy_redirect, {"kind": "season"}, name="legacy-season"),
    path(
        "divisions/<int:pk>/", views.legacy_redirect, {"kind": "division"}, name="legacy-division"
    ),
    path("teams/<int:pk>/", views.legacy_redirect, {"kind": "team"}, name="legacy-team"),
    path("fixtures/<int:pk>/", views.legacy_redirect, {"kind": "fixture"}, name="legacy-fixture"),
    path(
        "publications/<int:pk>/",
        views.legacy_redirect,
        {"kind": "publication"},
        name="legacy-publication",
    ),
]

league_urlpatterns = [
    path("", views.league_home, name="league-home"),
    path("officers/", views.league_officers, name="league-officers"),
    path("notices/", notice_views.league_notices, name="league-notices"),
    path("honours/", views.league_honours, name="league-honours"),
    path("posts/", directory_views.league_posts, name="league-posts"),
    path("posts/<int:pk>/moderate/", directory_views.post_moderate, name="league-post-moderate"),
    # The rule book: this season's, and each season's kept for ever (docs/rules-governance.md).
    path("rules/", season_views.league_rules, name="league-rules"),
    path("seasons/<int:pk>/rules/", season_views.season_rules, name="season-rules"),
    path("seasons/<int:pk>/rules/edit/", season_views.season_rules_edit, name="season-rules-edit"),
    path("seasons/new/", season_views.season_create, name="season-create"),
    path("seasons/<int:pk>/", season_views.season_detail, name="season-detail"),
    path("seasons/<int:pk>/register/", team_views.team_register, name="team-register"),
    path(
        "seasons/<int:pk>/fixtures/generate/",
        fixture_views.fixtures_generate,
        name="fixtures-generate",
    ),
    path("seasons/<int:pk>/format/", season_views.season_format, name="season-format"),
    path("seasons/<int:pk>/rollover/", season_views.season_rollover, name="season-rollover"),
    path(
        "seasons/<int:pk>/registration/",
        team_views.season_registration_rules,
        name="season-registration-rules",
    ),
    path("seasons/<int:pk>/transfers/", team_views.season_transfers, name="season-transfers"),
    path("divisions/<int:pk>/", season_views.division_detail, name="division-detail"),
    path("divisions/<int:pk>/format/", season_views.division_format, name="division-format"),
    path("teams/<int:pk>/", team_views.team_detail, name="team-detail"),
    path("teams/<int:pk>/roster/", team_views.team_roster, name="team-roster"),
    path(
        "teams/<int:pk>/roster/players/", team_views.team_roster_suggest, name="team-roster-suggest"
    ),
    path("teams/<int:pk>/fixtures.ics", team_views.team_ical, name="team-ical"),
    path("venues/<int:pk>/", views.venue_detail, name="venue-detail"),
    path("fixtures/<int:pk>/", fixture_views.fixture_detail, name="fixture-detail"),
    path("fixtures/<int:pk>/edit/", fixture_views.fixture_edit, name="fixture-edit"),
    path(
        "fixtures/<int:pk>/availability/<int:team>/",
        availability_views.fixture_availability,
        name="fixture-availability",
    ),
    # Tables: the secretary's page, publications (progress, printable page, CSV), emails.
    path("seasons/<int:pk>/tables/", table_views.season_tables, name="season-tables"),
    path("seasons/<int:pk>/subscribe/", table_views.table_subscribe, name="table-subscribe"),
    path("publications/<int:pk>/", table_views.publication_detail, name="publication-detail"),
    path(
        "publications/<int:pk>/status/", table_views.publication_status, name="publication-status"
    ),
    path("publications/<int:pk>/tables.csv", table_views.publication_csv, name="publication-csv"),
    # The secretary finishes a season: its honours go on the roll.
    path("seasons/<int:pk>/finish/", season_views.season_finish, name="season-finish"),
]
