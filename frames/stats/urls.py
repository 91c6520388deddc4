"""Statistics pages (included from config/urls.py): leaderboards under their league
(`league_urlpatterns`, `/<league-slug>/…`), a player's statistics on the site."""

from django.urls import path

from . import views

urlpatterns = [
    path("players/<int:pk>/stats/", views.player_stats, name="player-stats"),
]

league_urlpatterns = [
    path(
        "divisions/<int:pk>/leaderboard/",
        views.division_leaderboard,
        name="division-leaderboard",
    ),
    path("seasons/<int:pk>/leaderboard/", views.season_leaderboard, name="season-leaderboard"),
    path("seasons/<int:pk>/awards/", views.season_awards, name="season-awards"),
]
