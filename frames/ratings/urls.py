"""Ratings and pictures pages (included from config/urls.py): a league's ratings table and
a division's positions under the league (`league_urlpatterns`), the rest on the site."""

from django.urls import path

from . import views

urlpatterns = [
    path("players/<int:pk>/ratings/", views.player_ratings, name="player-ratings"),
    path("matches/<int:pk>/expectation/", views.match_expectation, name="match-expectation"),
    path("frames/<int:pk>/worm/", views.frame_worm, name="frame-worm"),
    # Result cards (frames.cards): a PNG to share, named by the pages' og:image.
    path("matches/<int:pk>/card.png", views.match_card_png, name="match-card"),
    path("frames/<int:pk>/card.png", views.frame_card_png, name="frame-card"),
    path(
        "head-to-head/players/<int:a>/<int:b>/",
        views.head_to_head_players,
        name="head-to-head-players",
    ),
    path(
        "head-to-head/teams/<int:a>/<int:b>/", views.head_to_head_teams, name="head-to-head-teams"
    ),
    # Rankings across leagues (frames.ratings.rankings): an organisation's, and the site's.
    path("org/<slug:slug>/rankings/", views.organisation_rankings, name="organisation-rankings"),
    path(
        "org/<slug:slug>/rankings/<slug:game_id>/",
        views.organisation_ranking,
        name="organisation-ranking",
    ),
    path("rankings/<slug:game_id>/", views.site_ranking, name="site-ranking"),
]

league_urlpatterns = [
    path("ratings/", views.league_ratings, name="league-ratings"),
    path("divisions/<int:pk>/positions/", views.division_positions, name="division-positions"),
]
