from django.urls import path
from rest_framework.routers import DefaultRouter

from . import api

router = DefaultRouter()
router.register("leagues", api.LeagueViewSet, basename="api-league")
router.register("seasons", api.SeasonViewSet, basename="api-season")
router.register("divisions", api.DivisionViewSet, basename="api-division")
router.register("venues", api.VenueViewSet, basename="api-venue")
router.register("teams", api.TeamViewSet, basename="api-team")
router.register("players", api.PlayerViewSet, basename="api-player")
router.register("fixtures", api.FixtureViewSet, basename="api-fixture")

urlpatterns = [
    path(
        "leagues/<int:pk>/officers/", api.LeagueOfficersView.as_view(), name="api-league-officers"
    ),
    path(
        "leagues/<int:pk>/officers/<int:role_id>/",
        api.LeagueOfficerView.as_view(),
        name="api-league-officer",
    ),
    path("leagues/<int:pk>/seasons/", api.LeagueSeasonsView.as_view(), name="api-league-seasons"),
    path("teams/<int:pk>/roster/", api.RosterView.as_view(), name="api-team-roster"),
    path(
        "teams/<int:pk>/roster/<int:registration_id>/",
        api.RosterEntryView.as_view(),
        name="api-team-roster-entry",
    ),
    path(
        "seasons/<int:pk>/generate-fixtures/",
        api.FixturesGenerateView.as_view(),
        name="api-fixtures-generate",
    ),
    path(
        "seasons/<int:pk>/rollover/", api.SeasonRolloverView.as_view(), name="api-season-rollover"
    ),
    path("seasons/<int:pk>/import/", api.SeasonImportView.as_view(), name="api-season-import"),
    path("fixtures/<int:pk>/move/", api.FixtureMoveView.as_view(), name="api-fixture-move"),
    path(
        "fixtures/<int:pk>/postpone/",
        api.FixturePostponeView.as_view(),
        name="api-fixture-postpone",
    ),
    # Tables
    path("divisions/<int:pk>/table/", api.PublishedTableView.as_view(), name="api-division-table"),
    path(
        "divisions/<int:pk>/table/provisional/",
        api.LiveTableView.as_view(),
        name="api-division-table-live",
    ),
    path(
        "seasons/<int:pk>/publications/",
        api.SeasonPublicationsView.as_view(),
        name="api-season-publications",
    ),
    path(
        "seasons/<int:pk>/format/",
        api.SeasonFormatView.as_view(),
        name="api-season-format",
    ),
    path(
        "divisions/<int:pk>/format/",
        api.DivisionFormatView.as_view(),
        name="api-division-format",
    ),
    path(
        "seasons/<int:pk>/points-scheme/",
        api.PointsSchemeView.as_view(),
        name="api-season-points-scheme",
    ),
    path("publications/<int:pk>/", api.PublicationView.as_view(), name="api-publication-detail"),
    path("fixtures/<int:pk>/award/", api.FixtureAwardView.as_view(), name="api-fixture-award"),
    path(
        "teams/<int:pk>/deductions/", api.TeamDeductionsView.as_view(), name="api-team-deductions"
    ),
    # The roll of honour
    path("leagues/<int:pk>/honours/", api.LeagueHonoursView.as_view(), name="api-league-honours"),
    path("seasons/<int:pk>/finish/", api.SeasonFinishView.as_view(), name="api-season-finish"),
    *router.urls,
]
