"""HTML pages of the league itself (the home pages, the site's leagues, officers and their
invitations, honours, venues, players, old addresses) and what the sub-packages' pages
share. Thin: look up, check permission, call a service or selector."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render, resolve_url
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_safe

from marker.errors import DomainError
from marker.permissions import require_perm

from . import (
    honours,
    selectors,
    tenancy,
)
from .forms import (
    AcceptInvitationForm,
    LeagueCreateForm,
    OfficerAddForm,
    OfficerRemoveForm,
)
from .models import (
    Division,
    Fixture,
    Invitation,
    League,
    LeagueRole,
    Player,
    Publication,
    Season,
    Team,
    Venue,
)


def team_url(name: str, team: Team) -> str:
    """A page of `team` under its league (its season and league loaded with it)."""
    return reverse(name, args=[team.season.league.slug, team.pk])


def form_error(form, exc: DomainError) -> None:
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


LEGACY: dict[str, tuple[type[Season | Division | Team | Fixture | Publication], str]] = {
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
    return redirect(resolve_url(obj), permanent=True)  # resolve_url: its get_absolute_url()


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


def accept_invitation(request, form, token: str, accept, account_of):
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
        form_error(form, exc)
        return None
    if not request.user.is_authenticated:
        login(request, account_of(accepted), backend="django.contrib.auth.backends.ModelBackend")
    return accepted


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
            form_error(form, exc)
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
                form_error(form, exc)
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
    the_league = invitation.league
    if the_league is None:  # never: an officer's invitation has its league (a check constraint)
        raise Http404
    form = AcceptInvitationForm(request.POST if request.method == "POST" else None)
    if request.method == "POST":
        role = accept_invitation(
            request, form, token, tenancy.officer_invitation_accept, lambda role: role.user
        )
        if role is not None:
            messages.success(
                request, f"You are {role.get_role_display().lower()} of {the_league.name}."
            )
            return redirect(the_league.get_absolute_url())
    return render(
        request,
        "leagues/officer_invitation.html",
        {"invitation": invitation, "form": form},
        status=400 if request.method == "POST" else 200,
    )


@require_safe
def league_honours(request, league: str):
    """The league's roll of honour: every season's winners and runners-up, under the
    names they won with."""
    the_league = get_object_or_404(League, slug=league)
    return render(
        request,
        "leagues/honours.html",
        {"league": the_league, "seasons": honours.league_honours(the_league)},
    )
