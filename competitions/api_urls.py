from django.urls import path

from . import api

urlpatterns = [
    path(
        "seasons/<int:pk>/competitions/",
        api.SeasonCompetitionsView.as_view(),
        name="api-season-competitions",
    ),
    path("competitions/<int:pk>/", api.CompetitionView.as_view(), name="api-competition"),
    path(
        "competitions/<int:pk>/entries/", api.EntriesView.as_view(), name="api-competition-entries"
    ),
    path("competitions/<int:pk>/draw/", api.DrawView.as_view(), name="api-competition-draw"),
    path(
        "competitions/<int:pk>/draw/commit/",
        api.DrawCommitView.as_view(),
        name="api-competition-draw-commit",
    ),
    path(
        "competitions/<int:pk>/draw/reveal/",
        api.DrawRevealView.as_view(),
        name="api-competition-draw-reveal",
    ),
    path(
        "competitions/<int:pk>/knockout/",
        api.KnockoutDrawView.as_view(),
        name="api-competition-knockout",
    ),
    path(
        "competitions/<int:pk>/bracket/", api.BracketView.as_view(), name="api-competition-bracket"
    ),
    path("competitions/<int:pk>/groups/", api.GroupsView.as_view(), name="api-competition-groups"),
    path(
        "competition-entries/<int:pk>/withdraw/",
        api.EntryWithdrawView.as_view(),
        name="api-entry-withdraw",
    ),
    path("competition-entries/<int:pk>/paid/", api.EntryPaidView.as_view(), name="api-entry-paid"),
    path(
        "competition-entries/<int:pk>/start/", api.EntryStartView.as_view(), name="api-entry-start"
    ),
    path("rounds/<int:pk>/", api.RoundView.as_view(), name="api-round"),
    path("ties/<int:pk>/", api.TieView.as_view(), name="api-tie"),
    path("ties/<int:pk>/result/", api.TieResultView.as_view(), name="api-tie-result"),
    path("ties/<int:pk>/confirm/", api.TieConfirmView.as_view(), name="api-tie-confirm"),
    path("ties/<int:pk>/frames/", api.TieFrameOpenView.as_view(), name="api-tie-frames"),
    path("ties/<int:pk>/award/", api.TieAwardView.as_view(), name="api-tie-award"),
    path("ties/<int:pk>/walkover/", api.TieWalkoverView.as_view(), name="api-tie-walkover"),
    path("ties/<int:pk>/withdraw/", api.TieWithdrawView.as_view(), name="api-tie-withdraw"),
]
