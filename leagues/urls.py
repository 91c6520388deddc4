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
    path("teams/<int:pk>/fixtures.ics", views.team_ical, name="team-ical"),
    path("venues/<int:pk>/", views.venue_detail, name="venue-detail"),
    path("fixtures/<int:pk>/", views.fixture_detail, name="fixture-detail"),
    path("fixtures/<int:pk>/edit/", views.fixture_edit, name="fixture-edit"),
    path("players/<int:pk>/", views.player_detail, name="player-detail"),
    path("invitations/<str:token>/", views.invitation_accept, name="invitation-accept"),
]
