from django.urls import path
from rest_framework.routers import DefaultRouter

from . import api
from .availability import api as availability_api
from .directory import api as directory_api
from .fixtures import api as fixture_api
from .notices import api as notice_api
from .seasons import api as season_api
from .tables import api as table_api
from .teams import api as team_api

router = DefaultRouter()
router.register("leagues", api.LeagueViewSet, basename="api-league")
router.register("seasons", season_api.SeasonViewSet, basename="api-season")
router.register("divisions", season_api.DivisionViewSet, basename="api-division")
router.register("venues", api.VenueViewSet, basename="api-venue")
router.register("teams", team_api.TeamViewSet, basename="api-team")
router.register("players", api.PlayerViewSet, basename="api-player")
router.register("fixtures", fixture_api.FixtureViewSet, basename="api-fixture")

urlpatterns = [
    path("notices/", notice_api.NoticesView.as_view(), name="api-notices"),
    # Where to play (docs/directory.md).
    path("directory/venues/", directory_api.VenuesView.as_view(), name="api-directory-venues"),
    path(
        "directory/venues/<int:pk>/",
        directory_api.VenueView.as_view(),
        name="api-directory-venue",
    ),
    path("directory/posts/", directory_api.PostsView.as_view(), name="api-directory-posts"),
    path(
        "directory/posts/<int:pk>/answers/",
        directory_api.PostAnswerView.as_view(),
        name="api-directory-post-answer",
    ),
    path(
        "directory/posts/<int:pk>/moderate/",
        directory_api.PostModerateView.as_view(),
        name="api-directory-post-moderate",
    ),
    path(
        "leagues/<int:pk>/officers/", api.LeagueOfficersView.as_view(), name="api-league-officers"
    ),
    path(
        "leagues/<int:pk>/officers/<int:role_id>/",
        api.LeagueOfficerView.as_view(),
        name="api-league-officer",
    ),
    path("leagues/<int:pk>/seasons/", api.LeagueSeasonsView.as_view(), name="api-league-seasons"),
    path("teams/<int:pk>/roster/", team_api.RosterView.as_view(), name="api-team-roster"),
    path(
        "teams/<int:pk>/roster/<int:registration_id>/",
        team_api.RosterEntryView.as_view(),
        name="api-team-roster-entry",
    ),
    path(
        "seasons/<int:pk>/registration-rules/",
        team_api.SeasonRegistrationRulesView.as_view(),
        name="api-season-registration-rules",
    ),
    path(
        "teams/<int:pk>/eligibility/",
        team_api.TeamEligibilityView.as_view(),
        name="api-team-eligibility",
    ),
    path(
        "seasons/<int:pk>/transfers/",
        team_api.SeasonTransfersView.as_view(),
        name="api-season-transfers",
    ),
    path(
        "transfers/<int:pk>/decide/",
        team_api.TransferDecideView.as_view(),
        name="api-transfer-decide",
    ),
    path(
        "seasons/<int:pk>/generate-fixtures/",
        fixture_api.FixturesGenerateView.as_view(),
        name="api-fixtures-generate",
    ),
    path(
        "seasons/<int:pk>/rollover/",
        season_api.SeasonRolloverView.as_view(),
        name="api-season-rollover",
    ),
    path(
        "seasons/<int:pk>/import/", season_api.SeasonImportView.as_view(), name="api-season-import"
    ),
    path(
        "seasons/<int:pk>/import/jobs/<int:job>/",
        season_api.SeasonImportJobView.as_view(),
        name="api-season-import-job",
    ),
    path("fixtures/<int:pk>/move/", fixture_api.FixtureMoveView.as_view(), name="api-fixture-move"),
    path(
        "fixtures/<int:pk>/postpone/",
        fixture_api.FixturePostponeView.as_view(),
        name="api-fixture-postpone",
    ),
    # Availability (docs/availability.md)
    path(
        "fixtures/<int:pk>/availability/",
        availability_api.FixtureAvailabilityView.as_view(),
        name="api-fixture-availability",
    ),
    path(
        "fixtures/<int:pk>/availability/ask/",
        availability_api.FixtureAvailabilityAskView.as_view(),
        name="api-fixture-availability-ask",
    ),
    path(
        "fixtures/<int:pk>/availability/chase/",
        availability_api.FixtureAvailabilityChaseView.as_view(),
        name="api-fixture-availability-chase",
    ),
    path(
        "availability/answer/",
        availability_api.AvailabilityAnswerView.as_view(),
        name="api-availability-answer",
    ),
    path("me/away-dates/", availability_api.MyAwayDatesView.as_view(), name="api-my-away-dates"),
    path(
        "me/away-dates/<int:pk>/",
        availability_api.MyAwayDateView.as_view(),
        name="api-my-away-date",
    ),
    # Tables
    path(
        "divisions/<int:pk>/table/",
        table_api.PublishedTableView.as_view(),
        name="api-division-table",
    ),
    path(
        "divisions/<int:pk>/table/provisional/",
        table_api.LiveTableView.as_view(),
        name="api-division-table-live",
    ),
    path(
        "seasons/<int:pk>/publications/",
        table_api.SeasonPublicationsView.as_view(),
        name="api-season-publications",
    ),
    path(
        "seasons/<int:pk>/format/",
        season_api.SeasonFormatView.as_view(),
        name="api-season-format",
    ),
    path(
        "divisions/<int:pk>/format/",
        season_api.DivisionFormatView.as_view(),
        name="api-division-format",
    ),
    path(
        "seasons/<int:pk>/points-scheme/",
        table_api.PointsSchemeView.as_view(),
        name="api-season-points-scheme",
    ),
    path(
        "publications/<int:pk>/", table_api.PublicationView.as_view(), name="api-publication-detail"
    ),
    path(
        "fixtures/<int:pk>/award/", table_api.FixtureAwardView.as_view(), name="api-fixture-award"
    ),
    path(
        "teams/<int:pk>/deductions/",
        table_api.TeamDeductionsView.as_view(),
        name="api-team-deductions",
    ),
    # The roll of honour
    path("leagues/<int:pk>/honours/", api.LeagueHonoursView.as_view(), name="api-league-honours"),
    path(
        "seasons/<int:pk>/finish/", season_api.SeasonFinishView.as_view(), name="api-season-finish"
    ),
    *router.urls,
]
