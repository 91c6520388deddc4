"""The ratings API (included under /api/ from config/urls.py)."""

from django.urls import path

from . import api

urlpatterns = [
    path("players/<int:pk>/ratings/", api.PlayerRatingsView.as_view(), name="api-player-ratings"),
    path("players/<int:pk>/hole-map/", api.PlayerHoleMapView.as_view(), name="api-player-hole-map"),
    path("players/<int:pk>/breaks/", api.PlayerBreaksView.as_view(), name="api-player-breaks"),
    path("leagues/<int:pk>/ratings/", api.LeagueRatingsView.as_view(), name="api-league-ratings"),
    path(
        "matches/<int:pk>/expectation/",
        api.MatchExpectationView.as_view(),
        name="api-match-expectation",
    ),
    path("frames/<int:pk>/worm/", api.FrameWormView.as_view(), name="api-frame-worm"),
    path(
        "divisions/<int:pk>/positions/",
        api.DivisionPositionsView.as_view(),
        name="api-division-positions",
    ),
    path(
        "head-to-head/players/<int:a>/<int:b>/",
        api.HeadToHeadPlayersView.as_view(),
        name="api-head-to-head-players",
    ),
    path(
        "head-to-head/teams/<int:a>/<int:b>/",
        api.HeadToHeadTeamsView.as_view(),
        name="api-head-to-head-teams",
    ),
    path("ratings/runs/", api.RatingRunsView.as_view(), name="api-rating-runs"),
    path(
        "organisations/<slug:slug>/rankings/<slug:game_id>/",
        api.OrganisationRankingView.as_view(),
        name="api-organisation-ranking",
    ),
    path("rankings/<slug:game_id>/", api.SiteRankingView.as_view(), name="api-site-ranking"),
]
