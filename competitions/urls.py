"""Competition pages (included from config/urls.py)."""

from django.urls import path

from . import views

urlpatterns = [
    path(
        "seasons/<int:pk>/competitions/",
        views.season_competitions,
        name="season-competitions",
    ),
    path("competitions/<int:pk>/", views.competition_detail, name="competition-detail"),
    path("ties/<int:pk>/", views.tie_detail, name="tie-detail"),
    path("ties/<int:pk>/pad/", views.tie_pad, name="tie-pad"),
    path("players/<int:pk>/ties.ics", views.player_ties_ical, name="player-ties-ical"),
    path("teams/<int:pk>/ties.ics", views.team_ties_ical, name="team-ties-ical"),
]
