"""HTML pages of the league: thin — look up, check permission, call a service or selector."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_safe

from . import selectors, services
from .errors import DomainError
from .forms import (
    AcceptInvitationForm,
    AddPlayerForm,
    FixtureMoveForm,
    FixturesGenerateForm,
    InviteForm,
    RemovePlayerForm,
    TeamRegisterForm,
)
from .ical import team_calendar
from .models import Division, Invitation, Player, Registration, Season, Team, Venue


def require_perm(user, perm: str, obj=None) -> None:
    if not user.has_perm(perm, obj):
        raise PermissionDenied


def _form_error(form, exc: DomainError) -> None:
    if not hasattr(form, "cleaned_data"):
        form.full_clean()
    field = exc.field if exc.field in form.fields else None
    form.add_error(field, exc.message)


@require_safe
def home(request):
    return render(request, "leagues/home.html", {"leagues": selectors.league_overview()})


@require_safe
def season_detail(request, pk: int):
    try:
        season = selectors.season_detail(pk)
    except Season.DoesNotExist:
        raise Http404 from None
    return render(request, "leagues/season.html", {"season": season})


@require_safe
def division_detail(request, pk: int):
    try:
        division, teams, fixtures = selectors.division_detail(pk)
    except Division.DoesNotExist:
        raise Http404 from None
    return render(
        request,
        "leagues/division.html",
        {"division": division, "teams": teams, "fixtures": fixtures},
    )


@require_safe
def team_detail(request, pk: int):
    try:
        team, roster, fixtures = selectors.team_detail(pk)
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
        },
    )


@require_safe
def team_ical(request, pk: int):
    team = get_object_or_404(Team.objects.select_related("season__league"), pk=pk)
    body = team_calendar(team, selectors.team_fixtures(team))
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="team-{team.pk}.ics"'
    return response


@require_safe
def venue_detail(request, pk: int):
    try:
        venue, teams, fixtures = selectors.venue_detail(pk)
    except Venue.DoesNotExist:
        raise Http404 from None
    return render(
        request, "leagues/venue.html", {"venue": venue, "teams": teams, "fixtures": fixtures}
    )


@require_safe
def fixture_detail(request, pk: int):
    fixture = get_object_or_404(selectors.fixtures_qs().select_related("season"), pk=pk)
    return render(
        request,
        "leagues/fixture.html",
        {
            "fixture": fixture,
            "can_manage": request.user.has_perm("leagues.manage_fixtures", fixture.season),
        },
    )


@require_safe
def player_detail(request, pk: int):
    player = get_object_or_404(Player, pk=pk)
    registrations = player.registrations.select_related("team", "season").order_by("-season_id")
    return render(
        request, "leagues/player.html", {"player": player, "registrations": registrations}
    )


@login_required
@require_http_methods(["GET", "POST"])
def team_register(request, pk: int):
    season = get_object_or_404(Season, pk=pk)
    require_perm(request.user, "leagues.register_team", season)
    form = TeamRegisterForm(request.POST if request.method == "POST" else None, season=season)
    if request.method == "POST" and form.is_valid():
        try:
            team = services.team_register(
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
            return redirect("team-roster", pk=team.pk)
    return render(request, "leagues/team_register.html", {"season": season, "form": form})


@login_required
@require_http_methods(["GET", "POST"])
def team_roster(request, pk: int):
    team = get_object_or_404(Team.objects.select_related("season"), pk=pk)
    require_perm(request.user, "leagues.change_team", team)
    add_form = AddPlayerForm(prefix="add")
    invite_form = InviteForm(prefix="invite")
    if request.method == "POST":
        action = request.POST.get("action")
        try:
            if action == "add":
                add_form = AddPlayerForm(request.POST, prefix="add")
                if add_form.is_valid():
                    reg = services.roster_add_player(
                        team=team,
                        name=add_form.cleaned_data["name"],
                        email=add_form.cleaned_data["email"],
                    )
                    messages.success(request, f"{reg.player.name} added to the roster.")
                    return redirect("team-roster", pk=team.pk)
            elif action == "remove":
                remove_form = RemovePlayerForm(request.POST)
                if not remove_form.is_valid():
                    raise DomainError("bad_value", "Choose a player to remove.")
                reg = get_object_or_404(
                    Registration, pk=remove_form.cleaned_data["registration"], team=team
                )
                services.roster_remove_player(registration=reg)
                messages.success(request, f"{reg.player.name} removed from the roster.")
                return redirect("team-roster", pk=team.pk)
            elif action == "invite":
                invite_form = InviteForm(request.POST, prefix="invite")
                if invite_form.is_valid():
                    inv = services.invitation_create(
                        team=team,
                        invited_by=request.user,
                        name=invite_form.cleaned_data["name"],
                        email=invite_form.cleaned_data["email"],
                    )
                    messages.success(request, f"Invitation sent to {inv.email}.")
                    return redirect("team-roster", pk=team.pk)
            else:
                messages.error(request, "Unknown action.")
        except DomainError as exc:
            target = invite_form if action == "invite" else add_form
            _form_error(target, exc)
    return render(
        request,
        "leagues/roster.html",
        {
            "team": team,
            "roster": selectors.roster(team),
            "invitations": team.invitations.filter(accepted_at__isnull=True),
            "add_form": add_form,
            "invite_form": invite_form,
        },
        status=400 if request.method == "POST" else 200,
    )


@require_http_methods(["GET", "POST"])
def invitation_accept(request, token: str):
    invitation = get_object_or_404(Invitation.objects.select_related("team"), token=token)
    form = AcceptInvitationForm(request.POST if request.method == "POST" else None)
    if request.method == "POST":
        try:
            with transaction.atomic():
                user = request.user
                if not user.is_authenticated:
                    if not form.is_valid():
                        raise DomainError("invalid", "Choose a username and a password.")
                    # form errors already say which field is wrong
                    user_model = get_user_model()
                    if user_model.objects.filter(username=form.cleaned_data["username"]).exists():
                        raise DomainError(
                            "username_taken", "That username is taken.", field="username"
                        )
                    user = user_model.objects.create_user(
                        username=form.cleaned_data["username"],
                        email=invitation.email,
                        password=form.cleaned_data["password"],
                    )
                services.invitation_accept(token=token, user=user)
        except DomainError as exc:
            _form_error(form, exc)
        else:
            if not request.user.is_authenticated:
                login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, f"Welcome to {invitation.team.name}.")
            return redirect("team-detail", pk=invitation.team_id)
    return render(request, "leagues/invitation.html", {"invitation": invitation, "form": form})


@login_required
@require_http_methods(["GET", "POST"])
def fixtures_generate(request, pk: int):
    season = get_object_or_404(Season.objects.select_related("league"), pk=pk)
    require_perm(request.user, "leagues.manage_fixtures", season)
    form = FixturesGenerateForm(request.POST if request.method == "POST" else None, initial={"start_date": season.start_date})
    if request.method == "POST" and form.is_valid():
        try:
            fixtures = services.fixtures_generate(
                season=season,
                start_date=form.cleaned_data["start_date"],
                blackout_dates=form.cleaned_data["blackout_dates"],
            )
        except DomainError as exc:
            _form_error(form, exc)
        else:
            messages.success(request, f"{len(fixtures)} fixtures generated.")
            return redirect("season-detail", pk=season.pk)
    return render(request, "leagues/fixtures_generate.html", {"season": season, "form": form})


@login_required
@require_http_methods(["GET", "POST"])
def fixture_edit(request, pk: int):
    fixture = get_object_or_404(selectors.fixtures_qs().select_related("season"), pk=pk)
    require_perm(request.user, "leagues.manage_fixtures", fixture.season)
    form = FixtureMoveForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            if form.cleaned_data["action"] == "postpone":
                services.fixture_postpone(fixture=fixture, reason=form.cleaned_data["reason"])
            else:
                services.fixture_move(
                    fixture=fixture,
                    new_date=form.cleaned_data["new_date"],
                    reason=form.cleaned_data["reason"],
                )
        except DomainError as exc:
            _form_error(form, exc)
        else:
            messages.success(request, "Fixture updated.")
            return redirect("fixture-detail", pk=fixture.pk)
    return render(request, "leagues/fixture_edit.html", {"fixture": fixture, "form": form})
