"""HTML pages of the league itself (the home pages, the site's leagues, officers and their
invitations, honours, venues, players, old addresses) and what the sub-packages' pages
share. Thin: look up, check permission, call a service or selector."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
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
    """The site's home page: the leagues, each with its game and current season, fifty to
    a page, searched by name and town (`?q=`)."""
    q = request.GET.get("q", "")[:100].strip()
    page = Paginator(selectors.league_search(q), selectors.LEAGUES_PER_PAGE).get_page(
        request.GET.get("page")
    )
    return render(
        request,
        "leagues/home.html",
        {"leagues": selectors.league_overview(page.object_list), "page": page, "q": q},
    )


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
            # The date of birth (age categories) is the player's and the officers' only.
            "sees_private": request.user.is_authenticated
            and request.user.has_perm("leagues.see_full_name", player),
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


def _officers_page(
    request: HttpRequest, league: League, *, form: OfficerAddForm | None = None, error: str = ""
) -> HttpResponse:
    """The officers page: as asked for, or again (400) after a command that did not go."""
    return render(
        request,
        "leagues/officers.html",
        {
            "league": league,
            "form": form if form is not None else OfficerAddForm(None),
            "error": error,
            **selectors.league_officers(league),
        },
        status=400 if request.method == "POST" else 200,
    )


def officers_add(request: HttpRequest, league: League) -> HttpResponse:
    """Appoint an officer: an existing account at once, anyone else by email."""
    form = OfficerAddForm(request.POST)
    if not form.is_valid():
        return _officers_page(request, league, form=form)
    try:
        tenancy.officer_appoint(actor=request.user, league=league, **form.cleaned_data)
    except DomainError as exc:
        form_error(form, exc)
        return _officers_page(request, league, form=form)
    messages.success(request, f"{form.cleaned_data['who']} appointed or invited.")
    return redirect("league-officers", league=league.slug)


def _officer_chosen(request: HttpRequest) -> int:
    remove = OfficerRemoveForm(request.POST)
    if not remove.is_valid():
        raise DomainError("bad_value", "Choose an officer.")
    return remove.cleaned_data["role"]


def officers_remove(request: HttpRequest, league: League) -> HttpResponse:
    """Take a role away (a league keeps at least one secretary)."""
    try:
        role = get_object_or_404(
            LeagueRole.objects.select_related("user"), pk=_officer_chosen(request), league=league
        )
        tenancy.officer_remove(actor=request.user, role=role)
    except DomainError as exc:
        return _officers_page(request, league, error=exc.message)
    messages.success(
        request, f"{role.user.get_username()} is no longer {role.get_role_display().lower()}."
    )
    return redirect("league-officers", league=league.slug)


def officers_cancel(request: HttpRequest, league: League) -> HttpResponse:
    """Cancel an officer's invitation not yet accepted."""
    try:
        invitation = get_object_or_404(
            Invitation,
            pk=_officer_chosen(request),
            league=league,
            kind=Invitation.Kind.OFFICER,
        )
        tenancy.officer_invitation_cancel(actor=request.user, invitation=invitation)
    except DomainError as exc:
        return _officers_page(request, league, error=exc.message)
    messages.success(request, f"The invitation to {invitation.email} is cancelled.")
    return redirect("league-officers", league=league.slug)


#: The officers page's commands, by the `action` its forms post.
OFFICERS_COMMANDS: dict[str, Callable[[HttpRequest, League], HttpResponse]] = {
    "add": officers_add,
    "remove": officers_remove,
    "cancel": officers_cancel,
}


@login_required
@require_http_methods(["GET", "POST"])
def league_officers(request: HttpRequest, league: str) -> HttpResponse:
    """A league's secretary appoints and removes its officers (and invites by email). Each
    command the page posts (`action`) is its own view above, called once the secretary
    may manage the officers."""
    the_league = get_object_or_404(League, slug=league)
    require_perm(request.user, "leagues.manage_officers", the_league)
    if request.method == "GET":
        return _officers_page(request, the_league)
    command = OFFICERS_COMMANDS.get(request.POST.get("action", ""))
    if command is None:
        return _officers_page(request, the_league, error="Unknown action.")
    return command(request, the_league)


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
