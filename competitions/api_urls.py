from django.urls import path

from .api import draws, entries, setup, ties

urlpatterns = [
    path(
        "seasons/<int:pk>/competitions/",
        setup.SeasonCompetitionsView.as_view(),
        name="api-season-competitions",
    ),
    path(
        "organisations/<slug:slug>/competitions/",
        setup.OrganisationCompetitionsView.as_view(),
        name="api-organisation-competitions",
    ),
    path("competitions/<int:pk>/", setup.CompetitionView.as_view(), name="api-competition"),
    path(
        "competitions/<int:pk>/entries/",
        entries.EntriesView.as_view(),
        name="api-competition-entries",
    ),
    path("competitions/<int:pk>/draw/", draws.DrawView.as_view(), name="api-competition-draw"),
    path(
        "competitions/<int:pk>/draw/commit/",
        draws.DrawCommitView.as_view(),
        name="api-competition-draw-commit",
    ),
    path(
        "competitions/<int:pk>/draw/reveal/",
        draws.DrawRevealView.as_view(),
        name="api-competition-draw-reveal",
    ),
    path(
        "competitions/<int:pk>/knockout/",
        draws.KnockoutDrawView.as_view(),
        name="api-competition-knockout",
    ),
    path(
        "competitions/<int:pk>/bracket/",
        draws.BracketView.as_view(),
        name="api-competition-bracket",
    ),
    path(
        "competitions/<int:pk>/groups/", draws.GroupsView.as_view(), name="api-competition-groups"
    ),
    path(
        "competition-entries/<int:pk>/withdraw/",
        entries.EntryWithdrawView.as_view(),
        name="api-entry-withdraw",
    ),
    path(
        "competition-entries/<int:pk>/paid/", entries.EntryPaidView.as_view(), name="api-entry-paid"
    ),
    path(
        "competition-entries/<int:pk>/start/",
        entries.EntryStartView.as_view(),
        name="api-entry-start",
    ),
    path("rounds/<int:pk>/", ties.RoundView.as_view(), name="api-round"),
    path("groups/<int:pk>/", ties.GroupView.as_view(), name="api-group"),
    path("ties/<int:pk>/", ties.TieView.as_view(), name="api-tie"),
    path("ties/<int:pk>/result/", ties.TieResultView.as_view(), name="api-tie-result"),
    path("ties/<int:pk>/confirm/", ties.TieConfirmView.as_view(), name="api-tie-confirm"),
    path("ties/<int:pk>/frames/", ties.TieFrameOpenView.as_view(), name="api-tie-frames"),
    path("ties/<int:pk>/award/", ties.TieAwardView.as_view(), name="api-tie-award"),
    path("ties/<int:pk>/walkover/", ties.TieWalkoverView.as_view(), name="api-tie-walkover"),
    path("ties/<int:pk>/withdraw/", ties.TieWithdrawView.as_view(), name="api-tie-withdraw"),
    path("ties/<int:pk>/correct/", ties.TieCorrectView.as_view(), name="api-tie-correct"),
]
