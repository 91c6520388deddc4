from django.urls import path

from . import views

urlpatterns = [
    path("tonight/", views.tonight, name="tonight"),
    path("fixtures/<int:pk>/night/", views.fixture_night, name="fixture-night"),
    path("fixtures/<int:pk>/match/", views.match_open, name="match-open"),
    path("matches/<int:pk>/", views.match_detail, name="match-detail"),
    path("matches/<int:pk>/scorecard/", views.match_scorecard, name="match-scorecard"),
    path("matches/<int:pk>/sheet/", views.match_sheet, name="match-sheet"),
    path("matches/<int:pk>/presence/", views.match_presence, name="match-presence"),
    path("matches/<int:pk>/ready/", views.match_commit, name="match-commit"),
    path("matches/<int:pk>/ready/restart/", views.match_restart_ready, name="match-restart-ready"),
    path("matches/<int:pk>/reveal/", views.match_reveal, name="match-reveal"),
    path("matches/<int:pk>/nominate/", views.match_nominate, name="match-nominate"),
    path("matches/<int:pk>/agree-short/", views.match_agree_short, name="match-agree-short"),
    path("matches/<int:pk>/draw/", views.match_draw, name="match-draw"),
    path("matches/<int:pk>/redraw/", views.match_redraw, name="match-redraw"),
    path("matches/<int:pk>/reorder/", views.match_reorder, name="match-reorder"),
    path(
        "matches/<int:pk>/reorder/answer/",
        views.match_reorder_answer,
        name="match-reorder-answer",
    ),
    path(
        "matches/<int:pk>/frames/<int:number>/referee/",
        views.match_referee,
        name="match-referee",
    ),
    path("matches/<int:pk>/paper/", views.match_paper, name="match-paper"),
    path("matches/<int:pk>/confirm/", views.match_confirm, name="match-confirm"),
    path("matches/<int:pk>/dispute/", views.match_dispute, name="match-dispute"),
    path("matches/<int:pk>/settle/", views.match_settle, name="match-settle"),
    # The paper card: photos of the signed score card, read through a permission check.
    path("matches/<int:pk>/cards/", views.match_card_upload, name="match-card-upload"),
    path("cards/<int:pk>/", views.card_photo, name="card-photo"),
    path("cards/<int:pk>/thumb/", views.card_photo, {"size": "thumb"}, name="card-photo-thumb"),
    path("cards/<int:pk>/delete/", views.card_photo_delete, name="card-photo-delete"),
    path("matches/<int:pk>/ineligible/", views.match_ineligible, name="match-ineligible"),
]

league_urlpatterns = [
    path("fixtures/no-card/", views.league_no_card, name="league-no-card"),
]
