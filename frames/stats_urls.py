"""Statistics pages (included from config/urls.py)."""

from django.urls import path

from . import stats_views

urlpatterns = [
    path(
        "divisions/<int:pk>/leaderboard/",
        stats_views.division_leaderboard,
        name="division-leaderboard",
    ),
    path(
        "seasons/<int:pk>/leaderboard/", stats_views.season_leaderboard, name="season-leaderboard"
    ),
    path("players/<int:pk>/stats/", stats_views.player_stats, name="player-stats"),
]
