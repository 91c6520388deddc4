"""The league's REST API. Reference data are read-only viewsets; each command has its own
view with an input serializer. Permissions are checked on every object."""

from __future__ import annotations

from django.db.models import Q
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.exceptions import PermissionDenied
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.permissions import BasePermission, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from marker.api_inputs import int_param
from marker.formats import effective_format

from . import (
    formats,
    honours,
    imports,
    publishing,
    rollover,
    selectors,
    standings,
    tenancy,
)
from .fixtures import services as fixture_services
from .models import (
    Division,
    Fixture,
    Invitation,
    League,
    LeagueRole,
    Player,
    PointDeduction,
    Publication,
    Registration,
    Season,
    Team,
    Venue,
)
from .seasons import services as season_services
from .serializers import (
    BoundarySerializer,
    DivisionSerializer,
    ErrorSerializer,
    FixtureAwardSerializer,
    FixtureMoveSerializer,
    FixturePostponeSerializer,
    FixtureSerializer,
    FixturesGenerateSerializer,
    HonourSerializer,
    ImportInputSerializer,
    ImportPlanSerializer,
    LeagueCreatedSerializer,
    LeagueCreateSerializer,
    LeagueSerializer,
    LiveTableSerializer,
    MatchFormatInputSerializer,
    MatchFormatSerializer,
    OfficerAddedSerializer,
    OfficerAddSerializer,
    OfficersSerializer,
    PlayerSerializer,
    PointDeductionCreateSerializer,
    PointDeductionSerializer,
    PointsSchemeSerializer,
    ProvisionalResultSerializer,
    PublicationSerializer,
    PublishedTableSerializer,
    RegistrationSerializer,
    RolloverProposalSerializer,
    RolloverSerializer,
    RosterAddSerializer,
    SeasonCreatedSerializer,
    SeasonCreateSerializer,
    SeasonFinishSerializer,
    SeasonSerializer,
    TeamCreateSerializer,
    TeamSerializer,
    TeamUpdateSerializer,
    VenueSerializer,
)
from .tables import services as table_services
from .teams import services as team_services

ERRORS = {400: ErrorSerializer, 403: ErrorSerializer, 404: ErrorSerializer}


class LeagueViewSet(viewsets.ReadOnlyModelViewSet):
    """The leagues of this site: anyone reads them; a site administrator creates one, with
    its first secretary (an account, or an email address to invite)."""

    queryset = League.objects.all()
    serializer_class = LeagueSerializer

    def get_permissions(self):
        if self.action == "create":
            return [IsAuthenticated()]
        return super().get_permissions()

    @extend_schema(
        request=LeagueCreateSerializer,
        responses={201: LeagueCreatedSerializer, 400: ErrorSerializer, 403: ErrorSerializer},
    )
    def create(self, request, *args, **kwargs):
        if not request.user.has_perm("leagues.create_league"):
            raise PermissionDenied("Only a site administrator creates leagues.")
        data = LeagueCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        league, appointment = tenancy.league_create(actor=request.user, **data.validated_data)
        return Response(
            LeagueCreatedSerializer(
                {
                    "league": league,
                    "secretary": appointment if isinstance(appointment, LeagueRole) else None,
                    "invitation": appointment if isinstance(appointment, Invitation) else None,
                }
            ).data,
            status=status.HTTP_201_CREATED,
        )


class LeagueOfficersView(APIView):
    """A league's officers and pending invitations (its secretaries only), and appointing
    one: an existing account at once, anyone else by an emailed invitation."""

    permission_classes = [IsAuthenticated]  # and manage_officers on the league, below

    def get_league(self) -> League:
        league = get_object_or_404(League, pk=self.kwargs["pk"])
        if not self.request.user.has_perm("leagues.manage_officers", league):
            raise PermissionDenied("Only the league's secretary manages its officers.")
        return league

    @extend_schema(responses={200: OfficersSerializer, 403: ErrorSerializer, 404: ErrorSerializer})
    def get(self, request, pk: int):
        page = selectors.league_officers(self.get_league())
        return Response(
            OfficersSerializer({"officers": page["roles"], "invitations": page["invitations"]}).data
        )

    @extend_schema(request=OfficerAddSerializer, responses={201: OfficerAddedSerializer, **ERRORS})
    def post(self, request, pk: int):
        league = self.get_league()
        data = OfficerAddSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        made = tenancy.officer_appoint(actor=request.user, league=league, **data.validated_data)
        return Response(
            OfficerAddedSerializer(
                {
                    "officer": made if isinstance(made, LeagueRole) else None,
                    "invitation": made if isinstance(made, Invitation) else None,
                }
            ).data,
            status=status.HTTP_201_CREATED,
        )


class LeagueSeasonsView(APIView):
    """Start a season of a league (its secretary): its game, divisions and format."""

    permission_classes = [IsAuthenticated]  # and manage_league on the league, below

    @extend_schema(
        request=SeasonCreateSerializer, responses={201: SeasonCreatedSerializer, **ERRORS}
    )
    def post(self, request, pk: int):
        league = get_object_or_404(League, pk=pk)
        if not request.user.has_perm("leagues.manage_league", league):
            raise PermissionDenied("Only the league's secretary starts a season.")
        data = SeasonCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        season = season_services.season_create(
            league=league, actor=request.user, **data.validated_data
        )
        return Response(SeasonCreatedSerializer(season).data, status=status.HTTP_201_CREATED)


class LeagueOfficerView(APIView):
    """Remove an officer (a league keeps at least one secretary: 409)."""

    permission_classes = [IsAuthenticated]  # and manage_officers on the league, below

    @extend_schema(
        request=None,
        responses={204: None, 403: ErrorSerializer, 404: ErrorSerializer, 409: ErrorSerializer},
    )
    def delete(self, request, pk: int, role_id: int):
        role = get_object_or_404(LeagueRole, pk=role_id, league_id=pk)
        if not request.user.has_perm("leagues.manage_officers", role.league):
            raise PermissionDenied("Only the league's secretary manages its officers.")
        tenancy.officer_remove(actor=request.user, role=role)
        return Response(status=status.HTTP_204_NO_CONTENT)


class SeasonViewSet(viewsets.ReadOnlyModelViewSet):
    queryset = Season.objects.all()
    serializer_class = SeasonSerializer

    @extend_schema(parameters=[OpenApiParameter("league", int)])
    def list(self, request, *args, **kwargs):
        return super().list(request, *args, **kwargs)

    def get_queryset(self):
        qs = super().get_queryset()
        if (league := int_param(self.request, "league")) is not None:
            qs = qs.filter(league_id=league)
        return qs


class DivisionViewSet(viewsets.ReadOnlyModelViewSet):
    queryset = Division.objects.all()
    serializer_class = DivisionSerializer

    @extend_schema(parameters=[OpenApiParameter("season", int)])
    def list(self, request, *args, **kwargs):
        return super().list(request, *args, **kwargs)

    def get_queryset(self):
        qs = super().get_queryset()
        if (season := int_param(self.request, "season")) is not None:
            qs = qs.filter(season_id=season)
        return qs


class VenueViewSet(viewsets.ReadOnlyModelViewSet):
    queryset = Venue.objects.all()
    serializer_class = VenueSerializer


class PlayerViewSet(viewsets.ReadOnlyModelViewSet):
    queryset = Player.objects.all()
    serializer_class = PlayerSerializer


@extend_schema(parameters=[OpenApiParameter("season", int), OpenApiParameter("division", int)])
class TeamViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    viewsets.GenericViewSet,
):
    """Teams. Any signed-in user may enter a team (and becomes its captain); only its
    captain, vice-captain or the secretary may change it."""

    queryset = Team.objects.all()
    serializer_class = TeamSerializer
    write_permission = "leagues.change_team"
    http_method_names = ["get", "post", "patch", "head", "options"]

    def get_queryset(self):
        qs = super().get_queryset()
        if (season := int_param(self.request, "season")) is not None:
            qs = qs.filter(season_id=season)
        if (division := int_param(self.request, "division")) is not None:
            qs = qs.filter(division_id=division)
        return qs

    def get_permissions(self):
        if self.action == "create":
            return [IsAuthenticated()]
        return super().get_permissions()

    @extend_schema(
        request=TeamCreateSerializer,
        responses={201: TeamSerializer, 400: ErrorSerializer, 403: ErrorSerializer},
    )
    def create(self, request, *args, **kwargs):
        data = TeamCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        team = team_services.team_register(captain=request.user, **data.validated_data)
        return Response(TeamSerializer(team).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=TeamUpdateSerializer, responses={200: TeamSerializer, **ERRORS})
    def partial_update(self, request, *args, **kwargs):
        team = self.get_object()
        data = TeamUpdateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        team = team_services.team_update(team=team, **data.validated_data)
        return Response(TeamSerializer(team).data)

    def update(self, request, *args, **kwargs):
        return self.partial_update(request, *args, **kwargs)


class RosterView(APIView):
    """A team's roster: anyone reads it; the team's captains and the secretary change it."""

    write_permission = "leagues.change_team"

    def get_team(self) -> Team:
        return get_object_or_404(Team.objects.select_related("season"), pk=self.kwargs["pk"])

    def get_permission_object(self):
        return self.get_team()

    @extend_schema(responses={200: RegistrationSerializer(many=True)})
    def get(self, request, pk: int):
        regs = self.get_team().registrations.filter(status="active").select_related("player")
        return Response(RegistrationSerializer(regs, many=True).data)

    @extend_schema(request=RosterAddSerializer, responses={201: RegistrationSerializer, **ERRORS})
    def post(self, request, pk: int):
        team = self.get_team()
        data = RosterAddSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        reg = team_services.roster_add_player(
            team=team,
            player=data.validated_data.get("player"),
            name=data.validated_data.get("name", ""),
            email=data.validated_data.get("email", ""),
            kind=data.validated_data["kind"],
        )
        return Response(RegistrationSerializer(reg).data, status=status.HTTP_201_CREATED)


class RosterEntryView(APIView):
    write_permission = "leagues.change_team"

    def get_permission_object(self):
        return get_object_or_404(Team, pk=self.kwargs["pk"])

    @extend_schema(request=None, responses={200: RegistrationSerializer, **ERRORS})
    def delete(self, request, pk: int, registration_id: int):
        reg = get_object_or_404(
            Registration.objects.select_related("player"), pk=registration_id, team_id=pk
        )
        reg = team_services.roster_remove_player(registration=reg)
        return Response(RegistrationSerializer(reg).data)


@extend_schema(
    parameters=[
        OpenApiParameter("season", int),
        OpenApiParameter("division", int),
        OpenApiParameter("team", int),
        OpenApiParameter("venue", int),
    ]
)
class FixtureViewSet(viewsets.ReadOnlyModelViewSet):
    serializer_class = FixtureSerializer

    def get_queryset(self):
        qs = Fixture.objects.select_related("home", "away", "venue").order_by("date", "id")
        for key in ("season", "division", "venue"):
            if (value := int_param(self.request, key)) is not None:
                qs = qs.filter(**{f"{key}_id": value})
        if (team := int_param(self.request, "team")) is not None:
            qs = qs.filter(Q(home_id=team) | Q(away_id=team))
        return qs


class FixturesGenerateView(APIView):
    write_permission = "leagues.manage_league"

    def get_permission_object(self):
        return get_object_or_404(Season.objects.select_related("league"), pk=self.kwargs["pk"])

    @extend_schema(
        request=FixturesGenerateSerializer, responses={201: FixtureSerializer(many=True), **ERRORS}
    )
    def post(self, request, pk: int):
        season = self.get_permission_object()
        data = FixturesGenerateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        fixtures = fixture_services.fixtures_generate(season=season, **data.validated_data)
        return Response(
            {"created": len(fixtures)}
            | {
                "fixtures": FixtureSerializer(
                    Fixture.objects.filter(season=season).select_related("home", "away", "venue"),
                    many=True,
                ).data
            },
            status=status.HTTP_201_CREATED,
        )


class FixtureMoveView(APIView):
    write_permission = "leagues.manage_fixtures"

    def get_permission_object(self):
        return get_object_or_404(Fixture, pk=self.kwargs["pk"]).season

    @extend_schema(request=FixtureMoveSerializer, responses={200: FixtureSerializer, **ERRORS})
    def post(self, request, pk: int):
        data = FixtureMoveSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        fixture = fixture_services.fixture_move(
            fixture=get_object_or_404(Fixture, pk=pk),
            new_date=data.validated_data["date"],
            reason=data.validated_data["reason"],
        )
        return Response(FixtureSerializer(fixture).data)


class FixturePostponeView(APIView):
    write_permission = "leagues.manage_fixtures"

    def get_permission_object(self):
        return get_object_or_404(Fixture, pk=self.kwargs["pk"]).season

    @extend_schema(request=FixturePostponeSerializer, responses={200: FixtureSerializer, **ERRORS})
    def post(self, request, pk: int):
        data = FixturePostponeSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        fixture = fixture_services.fixture_postpone(
            fixture=get_object_or_404(Fixture, pk=pk), reason=data.validated_data["reason"]
        )
        return Response(FixtureSerializer(fixture).data)


# ----------------------------------------------------------------------------- tables


class ManagesLeague(BasePermission):
    """Reads and writes for the secretary only (the view's `get_permission_object`)."""

    def has_permission(self, request, view) -> bool:
        return request.user.has_perm("leagues.manage_league", view.get_permission_object())


class PublishedTableView(APIView):
    """A division's latest published table, and the results confirmed since (provisional)."""

    @extend_schema(responses={200: PublishedTableSerializer, 404: ErrorSerializer})
    def get(self, request, pk: int):
        division = get_object_or_404(Division, pk=pk)
        fixtures = list(
            selectors.fixtures_qs().filter(division=division, result_confirmed_at__isnull=False)
        )
        page = selectors.division_table_page(division, fixtures)
        snapshot = page["snapshot"]
        return Response(
            {
                "division": division.pk,
                "published": snapshot is not None,
                "as_of": snapshot.as_of if snapshot else None,
                "publication": snapshot.publication_id if snapshot else None,
                "rows": snapshot.rows if snapshot else [],
                "notes": snapshot.notes if snapshot else [],
                "provisional_results": ProvisionalResultSerializer(
                    page["provisional_results"], many=True
                ).data,
            }
        )


class LiveTableView(APIView):
    """The provisional table from every confirmed result (the secretary's view)."""

    permission_classes = [ManagesLeague]

    def get_permission_object(self):
        return get_object_or_404(Division.objects.select_related("season"), pk=self.kwargs["pk"])

    @extend_schema(responses={200: LiveTableSerializer, 403: ErrorSerializer})
    def get(self, request, pk: int):
        table = standings.division_table(self.get_permission_object())
        return Response(
            {
                "division": table.division_id,
                "provisional": True,
                "rows": table.as_rows(),
                "notes": [{"team": n["team"], "text": n["text"]} for n in table.notes],
                "scheme": table.scheme.describe(),
            }
        )


class SeasonPublicationsView(APIView):
    """The season's publications (GET), or publish its tables now (POST): answers 202
    with the publication; poll `publications/<id>/` for its progress."""

    permission_classes = [ManagesLeague]

    def get_permission_object(self):
        return get_object_or_404(Season, pk=self.kwargs["pk"])

    @extend_schema(responses={200: PublicationSerializer(many=True), 403: ErrorSerializer})
    def get(self, request, pk: int):
        publications = Publication.objects.filter(season_id=pk)[:50]
        return Response(PublicationSerializer(publications, many=True).data)

    @extend_schema(request=None, responses={202: PublicationSerializer, **ERRORS})
    def post(self, request, pk: int):
        publication = publishing.publication_request(
            season=self.get_permission_object(), actor=request.user
        )
        publication.refresh_from_db()  # in-process, the job may already have run
        return Response(PublicationSerializer(publication).data, status=status.HTTP_202_ACCEPTED)


class PublicationView(APIView):
    permission_classes = [ManagesLeague]

    def get_permission_object(self):
        return get_object_or_404(Publication, pk=self.kwargs["pk"]).season

    @extend_schema(responses={200: PublicationSerializer, 403: ErrorSerializer})
    def get(self, request, pk: int):
        return Response(PublicationSerializer(get_object_or_404(Publication, pk=pk)).data)


class FixtureAwardView(APIView):
    """Record a walkover or a conceded match (awarded frames, reason shown on the table)."""

    write_permission = "leagues.manage_fixtures"

    def get_permission_object(self):
        return get_object_or_404(Fixture, pk=self.kwargs["pk"]).season

    @extend_schema(request=FixtureAwardSerializer, responses={200: FixtureSerializer, **ERRORS})
    def post(self, request, pk: int):
        data = FixtureAwardSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        fixture = table_services.fixture_award(
            fixture=get_object_or_404(Fixture, pk=pk), **data.validated_data
        )
        return Response(FixtureSerializer(fixture).data)


class TeamDeductionsView(APIView):
    """A team's point deductions: anyone reads them; the secretary adds one."""

    write_permission = "leagues.manage_league"

    def get_permission_object(self):
        return get_object_or_404(Team, pk=self.kwargs["pk"]).season

    @extend_schema(responses={200: PointDeductionSerializer(many=True)})
    def get(self, request, pk: int):
        deductions = PointDeduction.objects.filter(team_id=pk).select_related("team")
        return Response(PointDeductionSerializer(deductions, many=True).data)

    @extend_schema(
        request=PointDeductionCreateSerializer, responses={201: PointDeductionSerializer, **ERRORS}
    )
    def post(self, request, pk: int):
        data = PointDeductionCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        deduction = table_services.point_deduction_add(
            team=get_object_or_404(Team, pk=pk), by=request.user, **data.validated_data
        )
        return Response(PointDeductionSerializer(deduction).data, status=status.HTTP_201_CREATED)


def _format_body(fmt, inherited: bool) -> dict:
    return {"format": fmt.to_json(), "description": fmt.describe(), "inherited": inherited}


class SeasonFormatView(APIView):
    """A season's match format: anyone reads it; the secretary sets it (a preset, or the
    format's JSON; an invalid one is refused with every problem listed)."""

    write_permission = "leagues.manage_league"

    def get_permission_object(self):
        return get_object_or_404(Season.objects.select_related("league"), pk=self.kwargs["pk"])

    @extend_schema(responses={200: MatchFormatSerializer})
    def get(self, request, pk: int):
        season = self.get_permission_object()
        fmt = effective_format(season.match_format)
        return Response(MatchFormatSerializer(_format_body(fmt, False)).data)

    @extend_schema(
        request=MatchFormatInputSerializer, responses={200: MatchFormatSerializer, **ERRORS}
    )
    def post(self, request, pk: int):
        data = MatchFormatInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        season = formats.season_set_format(
            season=self.get_permission_object(),
            actor=request.user,
            match_format=data.validated_data["format"],
            preset=data.validated_data["preset"],
        )
        fmt = effective_format(season.match_format)
        return Response(MatchFormatSerializer(_format_body(fmt, False)).data)


class DivisionFormatView(APIView):
    """A division's match format (its own, or its season's): anyone reads it; the
    secretary sets it, or `inherit` to play the season's."""

    write_permission = "leagues.manage_league"

    def get_permission_object(self):
        return get_object_or_404(
            Division.objects.select_related("season__league"), pk=self.kwargs["pk"]
        )

    @extend_schema(responses={200: MatchFormatSerializer})
    def get(self, request, pk: int):
        division = self.get_permission_object()
        body = _format_body(division.format, division.match_format is None)
        return Response(MatchFormatSerializer(body).data)

    @extend_schema(
        request=MatchFormatInputSerializer, responses={200: MatchFormatSerializer, **ERRORS}
    )
    def post(self, request, pk: int):
        data = MatchFormatInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        division = formats.division_set_format(
            division=self.get_permission_object(),
            actor=request.user,
            match_format=data.validated_data["format"],
            preset=data.validated_data["preset"],
            inherit=data.validated_data["inherit"],
        )
        body = _format_body(division.format, division.match_format is None)
        return Response(MatchFormatSerializer(body).data)


class PointsSchemeView(APIView):
    """A season's points scheme and tie-breaker order: anyone reads it; the secretary
    changes it (POST the fields to change)."""

    write_permission = "leagues.manage_league"

    def get_permission_object(self):
        return get_object_or_404(Season, pk=self.kwargs["pk"])

    @extend_schema(responses={200: PointsSchemeSerializer})
    def get(self, request, pk: int):
        return Response(PointsSchemeSerializer(self.get_permission_object()).data)

    @extend_schema(
        request=PointsSchemeSerializer, responses={200: PointsSchemeSerializer, **ERRORS}
    )
    def post(self, request, pk: int):
        season = self.get_permission_object()
        data = PointsSchemeSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        season = table_services.season_set_points_scheme(season=season, **data.validated_data)
        return Response(PointsSchemeSerializer(season).data)


# --------------------------------------------------------------------------- rollover


def _proposal_data(proposal: rollover.Proposal, rolled_into: Season | None) -> dict:
    return {
        "final": proposal.final,
        "unconfirmed_fixtures": len(proposal.unfinished),
        "divisions": [
            {
                "division_id": d.division_id,
                "division": d.division,
                "rank": d.rank,
                "down": d.down,
                "rows": [vars(row) for row in d.rows],
            }
            for d in proposal.divisions
        ],
        "rolled_into": rolled_into.pk if rolled_into else None,
    }


class SeasonRolloverView(APIView):
    """The secretary's season rollover. GET proposes promotions and relegations from the
    final tables (`?above=<division id>&teams=<n>` pairs, repeated, set each boundary);
    POST starts the next season with the moves (and the adjustments in `placements`)."""

    permission_classes = [ManagesLeague]

    def get_permission_object(self):
        return get_object_or_404(Season.objects.select_related("league"), pk=self.kwargs["pk"])

    @extend_schema(
        parameters=[
            OpenApiParameter("above", int, many=True, description="A boundary's upper division."),
            OpenApiParameter("teams", int, many=True, description="Teams up and down across it."),
        ],
        responses={200: RolloverProposalSerializer, **ERRORS},
    )
    def get(self, request, pk: int):
        season = self.get_permission_object()
        above = request.query_params.getlist("above")[:50]
        teams = request.query_params.getlist("teams")[:50]
        data = BoundarySerializer(
            data=[{"above": a, "teams": t} for a, t in zip(above, teams, strict=False)], many=True
        )
        data.is_valid(raise_exception=True)
        boundaries = {b["above"]: b["teams"] for b in data.validated_data}
        proposal = rollover.rollover_proposal(season, boundaries=boundaries)
        return Response(
            RolloverProposalSerializer(
                _proposal_data(proposal, Season.objects.filter(rolled_from=season).first())
            ).data
        )

    @extend_schema(
        request=RolloverSerializer,
        responses={201: SeasonSerializer, 409: ErrorSerializer, **ERRORS},
    )
    def post(self, request, pk: int):
        season = self.get_permission_object()
        data = RolloverSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        new = rollover.season_rollover(
            season=season,
            actor=request.user,
            name=v["name"],
            slug=v["slug"],
            start_date=v["start_date"],
            boundaries={b["above"]: b["teams"] for b in v["boundaries"]},
            placements={p["team"]: p["division"] for p in v["placements"]},
            override_unfinished=v["override_unfinished"],
        )
        return Response(SeasonSerializer(new).data, status=status.HTTP_201_CREATED)


class SeasonImportView(APIView):
    """Import a spreadsheet into a season (docs/data.md): a dry run says what would be
    created or changed and every problem by row and column; a real run imports every row
    or, when any has a problem, none (`import_invalid`, with the problems)."""

    parser_classes = [MultiPartParser, FormParser]
    write_permission = "leagues.import_data"

    def get_permission_object(self):
        return get_object_or_404(Season, pk=self.kwargs["pk"])

    @extend_schema(
        request={"multipart/form-data": ImportInputSerializer},
        responses={200: ImportPlanSerializer, **ERRORS},
    )
    def post(self, request, pk: int):
        season = get_object_or_404(Season, pk=pk)
        data = ImportInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        kind = data.validated_data["kind"]
        upload = data.validated_data["file"]
        table = imports.read_table(upload.name or "", upload.read(imports.MAX_BYTES + 1), kind)
        mapping = data.validated_data.get("mapping")
        if data.validated_data["dry_run"]:
            plan = imports.plan(season=season, kind=kind, table=table, mapping=mapping)
        else:
            plan = imports.import_apply(
                season=season, actor=request.user, kind=kind, table=table, mapping=mapping
            )
        body = plan.as_dict() | {"imported": not data.validated_data["dry_run"]}
        return Response(ImportPlanSerializer(body).data)


class LeagueHonoursView(APIView):
    """The league's roll of honour: every winner and runner-up of its divisions and
    competitions, newest season first, under the name each had when it won."""

    @extend_schema(responses={200: HonourSerializer(many=True), 404: ErrorSerializer})
    def get(self, request, pk: int):
        league = get_object_or_404(League, pk=pk)
        lines = [
            honour
            for season in honours.league_honours(league)
            for line in season.lines
            for honour in (line.winner, line.runner_up)
            if honour is not None
        ]
        return Response(HonourSerializer(lines, many=True).data)


class SeasonFinishView(APIView):
    """Finish a season: each division's winner and runner-up go on the roll of honour
    from the final tables."""

    write_permission = "leagues.manage_league"

    def get_permission_object(self):
        return get_object_or_404(Season, pk=self.kwargs["pk"])

    @extend_schema(
        request=SeasonFinishSerializer,
        responses={200: HonourSerializer(many=True), **ERRORS},
    )
    def post(self, request, pk: int):
        data = SeasonFinishSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        lines = honours.season_finish(
            season=self.get_permission_object(), actor=request.user, **data.validated_data
        )
        return Response(HonourSerializer(lines, many=True).data)
