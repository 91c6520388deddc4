"""Competition pages (included from config/urls.py)."""

from django.urls import path

from .views import cards, setup, ties

urlpatterns = [
    path(
        "seasons/<int:pk>/competitions/",
        setup.season_competitions,
        name="season-competitions",
    ),
    path(
        "org/<slug:slug>/competitions/",
        setup.organisation_competitions,
        name="organisation-competitions",
    ),
    path("competitions/<int:pk>/", setup.competition_detail, name="competition-detail"),
    path("groups/<int:pk>/deadline/", setup.group_deadline, name="group-deadline"),
    path("ties/<int:pk>/", ties.tie_detail, name="tie-detail"),
    path("ties/<int:pk>/card.png", cards.tie_card_png, name="tie-card"),
    path("ties/<int:pk>/pad/", ties.tie_pad, name="tie-pad"),
    path("ties/<int:pk>/correct/", ties.tie_correct, name="tie-correct"),
    path("players/<int:pk>/ties.ics", ties.player_ties_ical, name="player-ties-ical"),
    path("teams/<int:pk>/ties.ics", ties.team_ties_ical, name="team-ties-ical"),
]
