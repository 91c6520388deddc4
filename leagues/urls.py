from django.urls import path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("seasons/<int:pk>/", views.season_detail, name="season-detail"),
    path("seasons/<int:pk>/register/", views.team_register, name="team-register"),
    path("seasons/<int:pk>/fixtures/generate/", views.fixtures_generate, name="fixtures-generate"),
    path("divisions/<int:pk>/", views.division_detail, name="division-detail"),
    path("teams/<int:pk>/", views.team_detail, name="team-detail"),
    path("teams/<int:pk>/roster/", views.team_roster, name="team-roster"),
    path("teams/<int:pk>/roster/players/", views.team_roster_suggest, name="team-roster-suggest"),
    path("teams/<int:pk>/fixtures.ics", views.team_ical, name="team-ical"),
    path("venues/<int:pk>/", views.venue_detail, name="venue-detail"),
    path("fixtures/<int:pk>/", views.fixture_detail, name="fixture-detail"),
    path("fixtures/<int:pk>/edit/", views.fixture_edit, name="fixture-edit"),
    path("players/<int:pk>/", views.player_detail, name="player-detail"),
    path("invitations/<str:token>/", views.invitation_accept, name="invitation-accept"),
    # Tables: the secretary's page, publications (progress, printable page, CSV), emails.
    path("seasons/<int:pk>/tables/", views.season_tables, name="season-tables"),
    path("seasons/<int:pk>/subscribe/", views.table_subscribe, name="table-subscribe"),
    path("publications/<int:pk>/", views.publication_detail, name="publication-detail"),
    path("publications/<int:pk>/status/", views.publication_status, name="publication-status"),
    path("publications/<int:pk>/tables.csv", views.publication_csv, name="publication-csv"),
    path("unsubscribe/<str:token>/", views.table_unsubscribe, name="table-unsubscribe"),
    # The roll of honour (public league pages live under the league's slug).
    path("seasons/<int:pk>/finish/", views.season_finish, name="season-finish"),
    path("<slug:league_slug>/honours/", views.league_honours, name="league-honours"),
]
