"""HTML pages of the league: thin — look up, check permission, call a service or selector."""

from __future__ import annotations

import json
from decimal import Decimal

from django import forms
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.http import Http404, HttpResponse, HttpResponsePermanentRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_safe

from marker import spreadsheet
from marker.errors import DomainError
from marker.formats import effective_format
from marker.permissions import require_perm

from . import (
    formats,
    honours,
    imports,
    invitations,
    publishing,
    rollover,
    selectors,
    tenancy,
)
from .fixtures import services as fixture_services
from .forms import (
    AcceptInvitationForm,
    AddExistingPlayerForm,
    AddPlayerForm,
    FixtureMoveForm,
    FixturesGenerateForm,
    InviteForm,
    LeagueCreateForm,
    MatchFormatForm,
    OfficerAddForm,
    OfficerRemoveForm,
    RemovePlayerForm,
    SeasonCreateForm,
    TeamRegisterForm,
)
from .ical import team_calendar
from .models import (
    Division,
    Fixture,
    Invitation,
    League,
    LeagueRole,
    Player,
    Publication,
    Registration,
    Season,
    Subscription,
    Team,
    Venue,
)
from .seasons import services as season_services
from .tables import services as table_services
from .teams import services as team_services


def team_url(name: str, team: Team) -> str:
    """A page of `team` under its league (its season and league loaded with it)."""
    return reverse(name, args=[team.season.league.slug, team.pk])


def _form_error(form, exc: DomainError) -> None:
    if not hasattr(form, "cleaned_data"):
        form.full_clean()
    field = exc.field if exc.field in form.fields else None
    form.add_error(field, exc.message)


@require_safe
def home(request):
    """The site's home page: its leagues, each with its game and current season."""
    return render(request, "leagues/home.html", {"leagues": selectors.league_overview()})


@require_safe
def league_home(request, league: str):
    try:
        page = selectors.league_home(league)
    except League.DoesNotExist:
        raise Http404 from None
    page["can_manage"] = request.user.has_perm("leagues.manage_league", page["league"])
    return render(request, "leagues/league_home.html", page)


LEGACY = {
    "season": (Season, "season-detail"),
    "division": (Division, "division-detail"),
    "team": (Team, "team-detail"),
    "fixture": (Fixture, "fixture-detail"),
    "publication": (Publication, "publication-detail"),
}


@require_safe
def legacy_redirect(request, pk: int, kind: str):
    """An address from before leagues were tenants: a permanent redirect to its league's."""
    obj = get_object_or_404(LEGACY[kind][0], pk=pk)
    return HttpResponsePermanentRedirect(obj.get_absolute_url())


@require_safe
def season_detail(request, league: str, pk: int):
    try:
        season = selectors.season_detail(pk, league)
    except Season.DoesNotExist:
        raise Http404 from None
    return render(
        request,
        "leagues/season.html",
        {
            "season": season,
            "season_format": effective_format(season.match_format),
            "can_manage": request.user.has_perm("leagues.manage_league", season),
        },
    )


@require_safe
def division_detail(request, league: str, pk: int):
    try:
        division, teams, fixtures = selectors.division_detail(pk, league)
    except Division.DoesNotExist:
        raise Http404 from None
    return render(
        request,
        "leagues/division.html",
        {
            "division": division,
            "teams": teams,
            "fixtures": fixtures,
            "can_manage_tables": request.user.has_perm("leagues.manage_league", division.season),
            **selectors.division_table_page(division, fixtures),
        },
    )


@require_safe
def team_detail(request, league: str, pk: int):
    try:
        team, roster, fixtures = selectors.team_detail(pk, league)
    except Team.DoesNotExist:
        raise Http404 from None
    return render(
        request,
        "leagues/team.html",
        {
            "team": team,
            "roster": roster,
            "fixtures": fixtures,
            "can_edit": request.user.has_perm("leagues.change_team", team),
            "honours": honours.team_honours(team),
        },
    )


@require_safe
def team_ical(request, league: str, pk: int):
    team = get_object_or_404(
        Team.objects.select_related("season__league"), pk=pk, season__league__slug=league
    )
    body = team_calendar(team, selectors.team_fixtures(team))
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="team-{team.pk}.ics"'
    return response


@require_safe
def venue_detail(request, league: str, pk: int):
    try:
        venue, teams, fixtures = selectors.venue_detail(pk, league)
    except Venue.DoesNotExist:
        raise Http404 from None
    return render(
        request, "leagues/venue.html", {"venue": venue, "teams": teams, "fixtures": fixtures}
    )


@require_safe
def fixture_detail(request, league: str, pk: int):
    fixture = get_object_or_404(
        selectors.fixtures_qs().select_related("season__league"), pk=pk, season__league__slug=league
    )
    return render(
        request,
        "leagues/fixture.html",
        {
            "fixture": fixture,
            "can_manage": request.user.has_perm("leagues.manage_fixtures", fixture),
        },
    )


@require_safe
def player_detail(request, pk: int):
    """One person, one page: their teams in every league."""
    player = get_object_or_404(Player, pk=pk)
    registrations = player.registrations.select_related("team", "season__league").order_by(
        "-season_id"
    )
    return render(
        request,
        "leagues/player.html",
        {
            "player": player,
            "registrations": registrations,
            "can_erase": request.user.is_authenticated
            and request.user.has_perm("leagues.erase_person", player),
            "honours": honours.player_honours(player),
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def team_register(request, league: str, pk: int):
    season = get_object_or_404(Season.objects.select_related("league"), pk=pk, league__slug=league)
    require_perm(request.user, "leagues.register_team", season)
    form = TeamRegisterForm(request.POST if request.method == "POST" else None, season=season)
    if request.method == "POST" and form.is_valid():
        try:
            team = team_services.team_register(
                season=season,
                name=form.cleaned_data["name"],
                venue=form.cleaned_data["venue"],
                division=form.cleaned_data["division"],
                captain=request.user,
            )
        except DomainError as exc:
            _form_error(form, exc)
        else:
            messages.success(request, f"{team.name} is entered for {season}.")
            return redirect(team_url("team-roster", team))
    return render(request, "leagues/team_register.html", {"season": season, "form": form})


def _roster_registration(request, team: Team, *, pending: bool = False) -> Registration:
    form = RemovePlayerForm(request.POST)
    if not form.is_valid():
        raise DomainError("bad_value", "Choose a player on the roster.")
    found = Registration.objects.select_related("player").filter(team=team)
    if pending:
        found = found.filter(status=Registration.Status.PENDING)
    return get_object_or_404(found, pk=form.cleaned_data["registration"])


@login_required
@require_http_methods(["GET", "POST"])
def team_roster(request, league: str, pk: int):
    """A captain's roster: add a player (an existing one, found as the name is typed, or
    someone new once the captain confirms it is someone else), remove one (with Undo),
    invite by email."""
    team = get_object_or_404(
        Team.objects.select_related("season__league"), pk=pk, season__league__slug=league
    )
    require_perm(request.user, "leagues.change_team", team)
    add_form = AddPlayerForm(prefix="add")
    invite_form = InviteForm(prefix="invite")
    same_name: list[dict] = []
    error = ""
    if request.method == "POST":
        action = request.POST.get("action")
        try:
            if action == "add" and request.POST.get("existing"):
                # A suggested player, chosen as the name was typed.
                existing = AddExistingPlayerForm(request.POST)
                if not existing.is_valid():
                    raise DomainError("bad_value", "Choose a player to add.")
                player = get_object_or_404(Player, pk=existing.cleaned_data["existing"])
                reg = team_services.roster_add_player(team=team, player=player)
                messages.success(request, f"{reg.player.name} added to the roster.")
                return redirect(team_url("team-roster", team))
            elif action == "add":
                add_form = AddPlayerForm(request.POST, prefix="add")
                if add_form.is_valid():
                    reg = team_services.roster_add_player(
                        team=team,
                        name=add_form.cleaned_data["name"],
                        email=add_form.cleaned_data["email"],
                        someone_else=add_form.cleaned_data["someone_else"],
                    )
                    messages.success(request, f"{reg.player.name} added to the roster.")
                    return redirect(team_url("team-roster", team))
            elif action == "remove":
                reg = _roster_registration(request, team)
                team_services.roster_remove_player(registration=reg, actor=request.user)
                messages.success(request, f"{reg.player.name} removed from the roster.")
                return redirect(f"{team_url('team-roster', team)}?removed={reg.pk}")
            elif action in ("confirm", "decline"):
                reg = _roster_registration(request, team, pending=True)
                team_services.registration_confirm(registration=reg, accept=action == "confirm")
                verb = "is on the roster" if action == "confirm" else "stays off the roster"
                messages.success(request, f"{reg.player.name} {verb}.")
                return redirect(team_url("team-roster", team))
            elif action == "restore":
                reg = _roster_registration(request, team)
                team_services.roster_add_player(team=team, player=reg.player, kind=reg.kind)
                messages.success(request, f"{reg.player.name} is back on the roster.")
                return redirect(team_url("team-roster", team))
            elif action == "invite":
                invite_form = InviteForm(request.POST, prefix="invite")
                if invite_form.is_valid():
                    inv = invitations.invitation_create(
                        team=team,
                        invited_by=request.user,
                        name=invite_form.cleaned_data["name"],
                        email=invite_form.cleaned_data["email"],
                        someone_else=invite_form.cleaned_data["someone_else"],
                    )
                    messages.success(request, f"Invitation sent to {inv.email}.")
                    return redirect(team_url("team-roster", team))
            else:
                error = "Unknown action."
        except DomainError as exc:
            if action in ("add", "invite") and not request.POST.get("existing"):
                _form_error(invite_form if action == "invite" else add_form, exc)
                if exc.code == "same_name":
                    same_name = selectors.player_suggestions(
                        team, request.POST.get(f"{action}-name", "")
                    )
            else:
                error = exc.message
    removed = None
    if request.method == "GET" and request.GET.get("removed", "").isdigit():
        removed = (
            Registration.objects.filter(
                pk=int(request.GET["removed"][:18]),
                team=team,
                status=Registration.Status.REMOVED,
            )
            .select_related("player")
            .first()
        )
    return render(
        request,
        "leagues/roster.html",
        {
            "team": team,
            "roster": selectors.roster(team),
            "pending": selectors.pending_registrations(team),
            "invitations": team.invitations.filter(accepted_at__isnull=True),
            "add_form": add_form,
            "invite_form": invite_form,
            "same_name": same_name,
            "same_name_for": request.POST.get("action") if same_name else "",
            "removed": removed,
            "error": error,
        },
        status=400 if request.method == "POST" else 200,
    )


@login_required
@require_safe
def team_roster_suggest(request, league: str, pk: int):
    """Players already in the league whose name matches what the captain is typing (htmx
    swaps this list under the name field; one person, one record)."""
    team = get_object_or_404(
        Team.objects.select_related("season__league"), pk=pk, season__league__slug=league
    )
    require_perm(request.user, "leagues.change_team", team)
    text = request.GET.get("add-name") or request.GET.get("invite-name") or ""
    return render(
        request,
        "leagues/_player_suggestions.html",
        {
            "team": team,
            "suggestions": selectors.player_suggestions(team, text[:120]),
            "text": " ".join(text.split())[:120],
        },
    )


@require_http_methods(["GET", "POST"])
def invitation_accept(request, token: str):
    invitation = get_object_or_404(
        Invitation.objects.select_related("team__season__league"),
        token=token,
        kind=Invitation.Kind.ROSTER,
    )
    form = AcceptInvitationForm(request.POST if request.method == "POST" else None)
    if request.method == "POST":
        registration = _accept_invitation(
            request, form, token, invitations.invitation_accept, lambda reg: reg.player.user
        )
        if registration is not None:
            messages.success(request, f"Welcome to {invitation.team.name}.")
            return redirect(invitation.team.get_absolute_url())
    return render(request, "leagues/invitation.html", {"invitation": invitation, "form": form})


def _accept_invitation(request, form, token: str, accept, account_of):
    """What both invitation pages do on POST: accept as the signed-in user, or with the new
    account the form names (then signed in). Returns what `accept` returns, or None with
    the refusal on the form."""
    try:
        if not request.user.is_authenticated and not form.is_valid():
            raise DomainError("invalid", "Choose a username and a password.")
        data = form.cleaned_data if form.is_bound and form.is_valid() else {}
        accepted = accept(
            token=token,
            user=request.user,
            username=data.get("username", ""),
            password=data.get("password", ""),
        )
    except DomainError as exc:
        _form_error(form, exc)
        return None
    if not request.user.is_authenticated:
        login(request, account_of(accepted), backend="django.contrib.auth.backends.ModelBackend")
    return accepted


@login_required
@require_http_methods(["GET", "POST"])
def fixtures_generate(request, league: str, pk: int):
    season = get_object_or_404(Season.objects.select_related("league"), pk=pk, league__slug=league)
    require_perm(request.user, "leagues.manage_league", season)
    form = FixturesGenerateForm(
        request.POST if request.method == "POST" else None,
        initial={"start_date": season.start_date},
    )
    if request.method == "POST" and form.is_valid():
        try:
            fixtures = fixture_services.fixtures_generate(
                season=season,
                start_date=form.cleaned_data["start_date"],
                blackout_dates=form.cleaned_data["blackout_dates"],
            )
        except DomainError as exc:
            _form_error(form, exc)
        else:
            messages.success(request, f"{len(fixtures)} fixtures generated.")
            return redirect(season.get_absolute_url())
    return render(request, "leagues/fixtures_generate.html", {"season": season, "form": form})


@login_required
@require_http_methods(["GET", "POST"])
def fixture_edit(request, league: str, pk: int):
    fixture = get_object_or_404(
        selectors.fixtures_qs().select_related("season__league"), pk=pk, season__league__slug=league
    )
    require_perm(request.user, "leagues.manage_fixtures", fixture)
    form = FixtureMoveForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            if form.cleaned_data["action"] == "postpone":
                fixture_services.fixture_postpone(
                    fixture=fixture, reason=form.cleaned_data["reason"]
                )
            else:
                fixture_services.fixture_move(
                    fixture=fixture,
                    new_date=form.cleaned_data["new_date"],
                    reason=form.cleaned_data["reason"],
                )
        except DomainError as exc:
            _form_error(form, exc)
        else:
            messages.success(request, "Fixture updated.")
            return redirect(fixture.get_absolute_url())
    return render(request, "leagues/fixture_edit.html", {"fixture": fixture, "form": form})


# ----------------------------------------------------------------------------- tables
# The forms of the tables pages live here with their views (leagues/forms.py belongs to
# the registration pages).


class DeductionForm(forms.Form):
    team = forms.IntegerField()
    points = forms.DecimalField(min_value=Decimal("0.5"), max_digits=5, decimal_places=1)
    reason = forms.CharField(max_length=200)


class AwardForm(forms.Form):
    fixture = forms.IntegerField()
    outcome = forms.ChoiceField(
        choices=[(Fixture.Outcome.WALKOVER, "Walkover"), (Fixture.Outcome.CONCEDED, "Conceded")]
    )
    home_frames = forms.DecimalField(min_value=0, max_digits=4, decimal_places=1)
    away_frames = forms.DecimalField(min_value=0, max_digits=4, decimal_places=1)
    reason = forms.CharField(max_length=200)


class ConfirmForm(forms.Form):
    confirm = forms.BooleanField(required=True)


def _tables_action(request, season: Season) -> str | None:
    """Carry out one POSTed action of the secretary's tables page; a message on success,
    None if the input was not valid (DomainError propagates)."""
    action = request.POST.get("action")
    if action == "publish":
        publication = publishing.publication_request(season=season, actor=request.user)
        return f"Publishing the tables as of {timezone.localtime(publication.as_of):%H:%M}."
    if action == "retry":
        publication = get_object_or_404(
            Publication, pk=request.POST.get("publication") or 0, season=season
        )
        publishing.publication_retry(publication=publication)
        return "Trying the publication again."
    if action == "deduct":
        form = DeductionForm(request.POST)
        if not form.is_valid():
            return None
        team = get_object_or_404(Team, pk=form.cleaned_data["team"], season=season)
        d = table_services.point_deduction_add(
            team=team,
            points=form.cleaned_data["points"],
            reason=form.cleaned_data["reason"],
            by=request.user,
        )
        return f"{d.points.normalize():f} point(s) deducted from {team.name}."
    if action == "award":
        form = AwardForm(request.POST)
        if not form.is_valid():
            return None
        fixture = get_object_or_404(Fixture, pk=form.cleaned_data["fixture"], season=season)
        table_services.fixture_award(
            fixture=fixture,
            outcome=form.cleaned_data["outcome"],
            home_frames=form.cleaned_data["home_frames"],
            away_frames=form.cleaned_data["away_frames"],
            reason=form.cleaned_data["reason"],
        )
        return f"{fixture} recorded as {fixture.get_outcome_display().lower()}."
    return None


def _format_page(request, *, season: Season, division: Division | None):
    """The secretary's format page for a season, or for one division of it."""
    require_perm(request.user, "leagues.manage_league", season)
    current = division.format if division is not None else effective_format(season.match_format)
    inherited = division is not None and division.match_format is None
    initial = {"format": json.dumps(current.to_json(), indent=2), "inherit": inherited}
    form = MatchFormatForm(request.POST or None, initial=initial)
    problems: list[dict] = []
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            try:
                if division is None:
                    formats.season_set_format(
                        season=season,
                        actor=request.user,
                        match_format=None if data["preset"] else data["format"],
                        preset=data["preset"],
                    )
                else:
                    formats.division_set_format(
                        division=division,
                        actor=request.user,
                        match_format=None if data["preset"] else data["format"],
                        preset=data["preset"],
                        inherit=data["inherit"],
                    )
            except DomainError as exc:
                problems = exc.extra.get("problems") or [
                    {"field": exc.field or "", "message": exc.message}
                ]
                status = 400
            else:
                messages.success(request, "The match format is saved.")
                target = division if division is not None else season
                return redirect(target.get_absolute_url())
        else:
            status = 400
    return render(
        request,
        "leagues/format_edit.html",
        {
            "season": season,
            "division": division,
            "current": current,
            "inherited": inherited,
            "form": form,
            "problems": problems,
        },
        status=status,
    )


@login_required
@require_http_methods(["GET", "POST"])
def season_format(request, league: str, pk: int):
    """The secretary chooses the season's match format."""
    season = get_object_or_404(Season.objects.select_related("league"), pk=pk, league__slug=league)
    return _format_page(request, season=season, division=None)


@login_required
@require_http_methods(["GET", "POST"])
def division_format(request, league: str, pk: int):
    """The secretary gives a division its own match format (or the season's)."""
    division = get_object_or_404(
        Division.objects.select_related("season__league"), pk=pk, season__league__slug=league
    )
    return _format_page(request, season=division.season, division=division)


@login_required
@require_http_methods(["GET", "POST"])
def season_tables(request, league: str, pk: int):
    """The secretary's page: provisional tables, publishing and its progress, deductions,
    walkovers and concessions."""
    season = get_object_or_404(Season.objects.select_related("league"), pk=pk, league__slug=league)
    require_perm(request.user, "leagues.manage_league", season)
    status = 200
    if request.method == "POST":
        try:
            done = _tables_action(request, season)
        except DomainError as exc:
            messages.error(request, exc.message)
            status = 400
        else:
            if done:
                messages.success(request, done)
                return redirect(reverse("season-tables", args=[league, season.pk]))
            messages.error(request, "Check the form: something was missing or not valid.")
            status = 400
    return render(
        request,
        "leagues/tables_manage.html",
        {"season": season, **selectors.season_tables_page(season)},
        status=status,
    )


@login_required
@require_safe
def publication_status(request, league: str, pk: int):
    """The progress of a publication (htmx polls it while the job runs)."""
    publication = get_object_or_404(
        Publication.objects.select_related("season__league"), pk=pk, season__league__slug=league
    )
    require_perm(request.user, "leagues.manage_league", publication.season)
    return render(request, "leagues/publication_status.html", {"p": publication})


@require_safe
def publication_detail(request, league: str, pk: int):
    """The printable tables, exactly as rendered when they were published."""
    publication = get_object_or_404(
        Publication, pk=pk, state=Publication.State.DONE, season__league__slug=league
    )
    return HttpResponse(publication.printable_html)


@require_safe
def publication_csv(request, league: str, pk: int):
    publication = get_object_or_404(
        Publication.objects.select_related("season"),
        pk=pk,
        state=Publication.State.DONE,
        season__league__slug=league,
    )
    # Made safe again as it is served: publications written before cells were made safe.
    body = spreadsheet.make_safe(publication.csv)
    response = HttpResponse(body, content_type="text/csv; charset=utf-8")
    name = f"{publication.season.slug}-tables-{publication.as_of:%Y-%m-%d}.csv"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@login_required
@require_http_methods(["GET", "POST"])
def table_subscribe(request, league: str, pk: int):
    """Email me this league's tables whenever they are published (to my account's
    address)."""
    season = get_object_or_404(Season.objects.select_related("league"), pk=pk, league__slug=league)
    form = ConfirmForm(request.POST if request.method == "POST" else None)
    if request.method == "POST":
        if form.is_valid():
            try:
                table_services.subscription_create(league=season.league, user=request.user)
            except DomainError as exc:
                messages.error(request, exc.message)
            else:
                messages.success(
                    request, f"The {season.league.name} tables will be emailed to you."
                )
                return redirect(season.get_absolute_url())
    return render(
        request,
        "leagues/table_subscribe.html",
        {"season": season, "form": form},
        status=400 if request.method == "POST" else 200,
    )


@require_http_methods(["GET", "POST"])
def table_unsubscribe(request, token: str):
    """Stop the tables emails (the token in each email is the credential)."""
    subscription = get_object_or_404(Subscription.objects.select_related("league"), token=token)
    form = ConfirmForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        subscription = table_services.subscription_cancel(token=token)
    return render(
        request,
        "leagues/table_unsubscribe.html",
        {"subscription": subscription, "form": form},
        status=400 if request.method == "POST" and not form.is_valid() else 200,
    )


# --------------------------------------------------------------------------- rollover


def _int_field(data, key: str, *, default: int = 0) -> int:
    value = (data.get(key) or "").strip()
    if not value:
        return default
    if not value.isdigit() or len(value) > 3:
        raise DomainError("bad_value", "Give a whole number of teams.", field="boundaries")
    return int(value)


def _rollover_input(data, season: Season) -> tuple[dict[int, int], dict[int, int]]:
    """The boundaries (`n_<division id>`, teams up and down below that division) and the
    secretary's adjustments (`team_<team id>` → a division id), from a GET or a POST."""
    boundaries, placements = {}, {}
    for key in data:
        if key.startswith("n_") and key[2:].isdigit():
            boundaries[int(key[2:][:18])] = _int_field(data, key)
        elif key.startswith("team_") and key[5:].isdigit():
            placements[int(key[5:][:18])] = _int_field(data, key)
    return boundaries, placements


# ----------------------------------------------------------------------------- import
# The upload is read once; the preview page carries its rows, signed (nobody can change
# them on the way back), so the secretary can map columns and import with no upload
# stored on the server.

IMPORT_SALT = "leagues.import"
IMPORT_MAX_AGE = 2 * 60 * 60


class ImportUploadForm(forms.Form):
    kind = forms.ChoiceField(
        label="What the file holds",
        choices=[(k.key, k.label) for k in imports.KINDS.values()],
    )
    file = forms.FileField(label="CSV or XLSX file", help_text="At most 512 KB.")


def _import_payload(request, season: Season, kind: str, table: imports.Table) -> str:
    return signing.dumps(
        {"season": season.pk, "user": request.user.pk, "kind": kind, "table": table.as_data()},
        salt=IMPORT_SALT,
        compress=True,
    )


def _import_unpack(request, season: Season) -> tuple[str, imports.Table]:
    try:
        data = signing.loads(
            request.POST.get("payload", ""), salt=IMPORT_SALT, max_age=IMPORT_MAX_AGE
        )
    except signing.BadSignature:
        raise DomainError(
            "upload_expired", "The upload has expired or was changed: upload the file again."
        ) from None
    if data.get("season") != season.pk or data.get("user") != request.user.pk:
        raise DomainError("upload_expired", "That upload was for another season: upload again.")
    return str(data.get("kind")), imports.Table.from_data(data.get("table"))


@login_required
@require_http_methods(["GET", "POST"])
def season_rollover(request, league: str, pk: int):
    """The secretary starts next season from this one: promotions and relegations are
    proposed from the final tables (the numbers per boundary set here), each team can be
    moved, and nothing happens until the secretary confirms."""
    season = get_object_or_404(Season.objects.select_related("league"), pk=pk, league__slug=league)
    require_perm(request.user, "leagues.manage_league", season)
    following = Season.objects.filter(rolled_from=season).first()
    data = request.POST if request.method == "POST" else request.GET
    error, status = "", 200
    try:
        boundaries, placements = _rollover_input(data, season)
        proposal = rollover.rollover_proposal(season, boundaries=boundaries)
    except DomainError as exc:
        error, status = exc.message, 400
        boundaries, placements = {}, {}
        proposal = rollover.rollover_proposal(season)
    for d in proposal.divisions:  # show the secretary's moves on the proposal
        for row in d.rows:
            if placements.get(row.team_id) in {x.division_id for x in proposal.divisions}:
                row.to_division_id = placements[row.team_id]
    if request.method == "POST" and not error:
        if request.POST.get("confirm") != "1":
            error, status = "Tick the box to confirm the promotions and relegations.", 400
        else:
            try:
                new = rollover.season_rollover(
                    season=season,
                    actor=request.user,
                    name=request.POST.get("name", "")[:60],
                    slug=request.POST.get("slug", "")[:60],
                    boundaries=boundaries,
                    placements=placements,
                    override_unfinished=request.POST.get("override") == "1",
                )
            except DomainError as exc:
                error, status = exc.message, 409 if exc.status == 409 else 400
            else:
                messages.success(
                    request,
                    f"{new.name} is open for registration: captains confirm their players.",
                )
                return redirect(new.get_absolute_url())
    return render(
        request,
        "leagues/rollover.html",
        {
            "season": season,
            "following": following,
            "proposal": proposal,
            "divisions": proposal.divisions,
            "error": error,
            "name": request.POST.get("name", "") if request.method == "POST" else "",
            "slug": request.POST.get("slug", "") if request.method == "POST" else "",
            "override": request.POST.get("override") == "1",
        },
        status=status,
    )


# ----------------------------------------------------------------------------- tenancy


@login_required
@require_http_methods(["GET", "POST"])
def site_leagues(request):
    """The site administrator's page: every league, and a new one with its first
    secretary."""
    require_perm(request.user, "leagues.create_league")
    form = LeagueCreateForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            league, appointment = tenancy.league_create(actor=request.user, **form.cleaned_data)
        except DomainError as exc:
            _form_error(form, exc)
        else:
            who = (
                appointment.user.get_username()
                if isinstance(appointment, LeagueRole)
                else f"{appointment.email} (invited by email)"
            )
            messages.success(request, f"{league.name} created; its secretary is {who}.")
            return redirect(league.get_absolute_url())
    return render(
        request,
        "leagues/site_leagues.html",
        {"form": form, "leagues": selectors.league_overview()},
        status=400 if request.method == "POST" else 200,
    )


@login_required
@require_http_methods(["GET", "POST"])
def season_create(request, league: str):
    """A league's secretary starts a season: name, game, start date, divisions, format."""
    the_league = get_object_or_404(League, slug=league)
    require_perm(request.user, "leagues.manage_league", the_league)
    form = SeasonCreateForm(request.POST if request.method == "POST" else None, league=the_league)
    if request.method == "POST" and form.is_valid():
        try:
            season = season_services.season_create(
                league=the_league, actor=request.user, **form.cleaned_data
            )
        except DomainError as exc:
            _form_error(form, exc)
        else:
            messages.success(request, f"{season.name} started, open for registration.")
            return redirect(season.get_absolute_url())
    return render(
        request,
        "leagues/season_create.html",
        {"league": the_league, "form": form},
        status=400 if request.method == "POST" else 200,
    )


@login_required
@require_http_methods(["GET", "POST"])
def league_officers(request, league: str):
    """A league's secretary appoints and removes its officers (and invites by email)."""
    the_league = get_object_or_404(League, slug=league)
    require_perm(request.user, "leagues.manage_officers", the_league)
    action = request.POST.get("action") if request.method == "POST" else None
    form = OfficerAddForm(request.POST if action == "add" else None)
    error = ""
    if request.method == "POST":
        try:
            if action == "add":
                if form.is_valid():
                    tenancy.officer_appoint(
                        actor=request.user, league=the_league, **form.cleaned_data
                    )
                    messages.success(request, f"{form.cleaned_data['who']} appointed or invited.")
                    return redirect("league-officers", league=league)
            elif action in ("remove", "cancel"):
                remove = OfficerRemoveForm(request.POST)
                if not remove.is_valid():
                    raise DomainError("bad_value", "Choose an officer.")
                if action == "remove":
                    role = get_object_or_404(
                        LeagueRole.objects.select_related("user"),
                        pk=remove.cleaned_data["role"],
                        league=the_league,
                    )
                    tenancy.officer_remove(actor=request.user, role=role)
                    messages.success(
                        request,
                        f"{role.user.get_username()} is no longer {role.get_role_display().lower()}.",
                    )
                else:
                    invitation = get_object_or_404(
                        Invitation,
                        pk=remove.cleaned_data["role"],
                        league=the_league,
                        kind=Invitation.Kind.OFFICER,
                    )
                    tenancy.officer_invitation_cancel(actor=request.user, invitation=invitation)
                    messages.success(request, f"The invitation to {invitation.email} is cancelled.")
                return redirect("league-officers", league=league)
            else:
                error = "Unknown action."
        except DomainError as exc:
            if action == "add":
                _form_error(form, exc)
            else:
                error = exc.message
    return render(
        request,
        "leagues/officers.html",
        {
            "league": the_league,
            "form": form,
            "error": error,
            **selectors.league_officers(the_league),
        },
        status=400 if request.method == "POST" else 200,
    )


@require_http_methods(["GET", "POST"])
def officer_invitation_accept(request, token: str):
    invitation = get_object_or_404(
        Invitation.objects.select_related("league"), token=token, kind=Invitation.Kind.OFFICER
    )
    form = AcceptInvitationForm(request.POST if request.method == "POST" else None)
    if request.method == "POST":
        role = _accept_invitation(
            request, form, token, tenancy.officer_invitation_accept, lambda role: role.user
        )
        if role is not None:
            messages.success(
                request, f"You are {role.get_role_display().lower()} of {invitation.league.name}."
            )
            return redirect(invitation.league.get_absolute_url())
    return render(
        request,
        "leagues/officer_invitation.html",
        {"invitation": invitation, "form": form},
        status=400 if request.method == "POST" else 200,
    )


@login_required
@require_http_methods(["GET", "POST"])
def season_import(request, pk: int):
    """The secretary's import: upload, preview (what would be created or changed, every
    problem by row and column, the columns mapped by hand), then import all or nothing."""
    season = get_object_or_404(Season.objects.select_related("league"), pk=pk)
    require_perm(request.user, "leagues.import_data", season)
    upload = ImportUploadForm(
        request.POST if request.method == "POST" and "payload" not in request.POST else None,
        request.FILES or None,
    )
    context: dict = {"season": season, "upload": upload, "kinds": imports.KINDS}
    if request.method == "GET":
        return render(request, "leagues/import.html", context)
    try:
        if "payload" in request.POST:
            kind, table = _import_unpack(request, season)
            mapping = [request.POST.get(f"map-{i}", "") for i in range(len(table.headers))]
        elif upload.is_valid():
            kind = upload.cleaned_data["kind"]
            handle = upload.cleaned_data["file"]
            table = imports.read_table(handle.name, handle.read(imports.MAX_BYTES + 1), kind)
            mapping = None
        else:
            return render(request, "leagues/import.html", context, status=400)
        if request.POST.get("action") == "import":
            try:
                done = imports.import_apply(
                    season=season, actor=request.user, kind=kind, table=table, mapping=mapping
                )
            except DomainError as exc:
                if exc.code != "import_invalid":
                    raise
                messages.error(request, exc.message)
            else:
                messages.success(
                    request,
                    f"Imported {table.filename or 'the file'}: {done.changes} change(s).",
                )
                return redirect("season-import", pk=season.pk)
        result = imports.plan(season=season, kind=kind, table=table, mapping=mapping)
    except DomainError as exc:
        if upload.is_bound:
            _form_error(upload, exc)
        else:
            messages.error(request, exc.message)
        return render(request, "leagues/import.html", context, status=400)
    problems_by_row: dict[int, list] = {}
    for problem in result.problems:
        problems_by_row.setdefault(problem.row, []).append(problem)
    actions_by_row: dict[int, list] = {}
    for step in result.steps:
        actions_by_row.setdefault(step.row, []).append(step)
    context |= {
        "plan": result,
        "kind": imports.KINDS[kind],
        "table": table,
        "payload": _import_payload(request, season, kind, table),
        "columns": list(zip(table.headers, result.mapping, strict=True)),
        "preview_rows": [
            (number, cells, actions_by_row.get(number, []), problems_by_row.get(number, []))
            for number, cells in table.rows[:300]
        ],
        "more_rows": max(0, len(table.rows) - 300),
        "file_problems": problems_by_row.get(0, []),
    }
    return render(
        request, "leagues/import_preview.html", context, status=400 if result.problems else 200
    )


# ------------------------------------------------------------------ the roll of honour


@require_safe
def league_honours(request, league: str):
    """The league's roll of honour: every season's winners and runners-up, under the
    names they won with."""
    league = get_object_or_404(League, slug=league)
    return render(
        request,
        "leagues/honours.html",
        {"league": league, "seasons": honours.league_honours(league)},
    )


class SeasonFinishForm(forms.Form):
    force = forms.BooleanField(
        required=False,
        label="Finish anyway: the tables are final as they stand",
    )


@login_required
@require_http_methods(["GET", "POST"])
def season_finish(request, league: str, pk: int):
    """The secretary finishes a season: the divisions' winners and runners-up go on the
    roll of honour from the final tables."""
    season = get_object_or_404(Season.objects.select_related("league"), pk=pk, league__slug=league)
    require_perm(request.user, "leagues.manage_league", season)
    form = SeasonFinishForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            honours.season_finish(
                season=season, actor=request.user, force=form.cleaned_data["force"]
            )
        except DomainError as exc:
            _form_error(form, exc)
        else:
            messages.success(request, f"{season} is finished; its honours are on the roll.")
            return redirect("league-honours", league=season.league.slug)
    unfinished = Fixture.objects.filter(season=season, result_confirmed_at__isnull=True).count()
    return render(
        request,
        "leagues/season_finish.html",
        {"season": season, "form": form, "unfinished": unfinished},
    )
