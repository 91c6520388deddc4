"""HTML pages of teams: a team, its calendar, registering one, its roster (one view per
command), accepting a roster invitation."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_safe

from leagues import (
    eligibility,
    honours,
    invitations,
    selectors,
)
from leagues.availability import selectors as availability_selectors
from leagues.forms import (
    AcceptInvitationForm,
    AddExistingPlayerForm,
    AddPlayerForm,
    InviteForm,
    RegistrationRulesForm,
    RemovePlayerForm,
    TeamRegisterForm,
    TransferDecideForm,
    TransferRequestForm,
)
from leagues.ical import team_calendar
from leagues.models import (
    Invitation,
    Player,
    Registration,
    Season,
    Team,
    Transfer,
)
from leagues.teams import eligibility_services
from leagues.teams import services as team_services
from leagues.views import accept_invitation, form_error, team_url
from marker.api_inputs import digits
from marker.errors import DomainError
from marker.permissions import require_perm


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
            form_error(form, exc)
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


def _roster_page(
    request: HttpRequest,
    team: Team,
    *,
    add_form: AddPlayerForm | None = None,
    invite_form: InviteForm | None = None,
    same_name: list[dict] | None = None,
    same_name_for: str = "",
    error: str = "",
    refused: Transfer | None = None,
) -> HttpResponse:
    """The roster page: as asked for, or again (400) after a command that did not go."""
    removed = None
    if request.method == "GET" and digits(request.GET.get("removed", "")):
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
            "add_form": add_form if add_form is not None else AddPlayerForm(prefix="add"),
            "invite_form": invite_form if invite_form is not None else InviteForm(prefix="invite"),
            "same_name": same_name or [],
            "same_name_for": same_name_for if same_name else "",
            "removed": removed,
            "error": error,
            "next_fixtures": availability_selectors.next_fixtures(team),
            # The registration rules (docs/eligibility.md): in force, transfers, the log.
            "rules_in_force": eligibility.rules_summary(eligibility.rules_of(team.season)),
            "transfer_candidates": selectors.transfer_candidates(team),
            "refused": refused,
            "eligibility_log": selectors.eligibility_log(team.season, team=team, limit=30),
        },
        status=400 if request.method == "POST" else 200,
    )


def _roster_form_refused(
    request: HttpRequest,
    team: Team,
    action: str,
    form: AddPlayerForm | InviteForm,
    exc: DomainError,
) -> HttpResponse:
    """The page again with the service's refusal beside the form, and the players of the
    same name to choose from when that was the refusal."""
    form_error(form, exc)
    same_name = (
        selectors.player_suggestions(team, request.POST.get(f"{action}-name", ""))
        if exc.code == "same_name"
        else []
    )
    if isinstance(form, InviteForm):
        return _roster_page(
            request, team, invite_form=form, same_name=same_name, same_name_for=action
        )
    return _roster_page(request, team, add_form=form, same_name=same_name, same_name_for=action)


def roster_add_existing(request: HttpRequest, team: Team) -> HttpResponse:
    """Add a suggested player, chosen as the name was typed."""
    existing = AddExistingPlayerForm(request.POST)
    try:
        if not existing.is_valid():
            raise DomainError("bad_value", "Choose a player to add.")
        player = get_object_or_404(Player, pk=existing.cleaned_data["existing"])
        reg = team_services.roster_add_player(team=team, player=player)
    except DomainError as exc:
        return _roster_page(request, team, error=exc.message)
    messages.success(request, f"{reg.player.name} added to the roster.")
    return redirect(team_url("team-roster", team))


def roster_add(request: HttpRequest, team: Team) -> HttpResponse:
    """Add a player by name: someone new, once the captain confirms it is someone else."""
    form = AddPlayerForm(request.POST, prefix="add")
    if not form.is_valid():
        return _roster_page(request, team, add_form=form)
    try:
        reg = team_services.roster_add_player(
            team=team,
            name=form.cleaned_data["name"],
            email=form.cleaned_data["email"],
            someone_else=form.cleaned_data["someone_else"],
        )
    except DomainError as exc:
        return _roster_form_refused(request, team, "add", form, exc)
    messages.success(request, f"{reg.player.name} added to the roster.")
    return redirect(team_url("team-roster", team))


def roster_remove(request: HttpRequest, team: Team) -> HttpResponse:
    """Take a player off the roster; the page offers Undo."""
    try:
        reg = _roster_registration(request, team)
        team_services.roster_remove_player(registration=reg, actor=request.user)
    except DomainError as exc:
        return _roster_page(request, team, error=exc.message)
    messages.success(request, f"{reg.player.name} removed from the roster.")
    return redirect(f"{team_url('team-roster', team)}?removed={reg.pk}")


def _roster_answer(request: HttpRequest, team: Team, *, accept: bool) -> HttpResponse:
    try:
        reg = _roster_registration(request, team, pending=True)
        team_services.registration_confirm(registration=reg, accept=accept)
    except DomainError as exc:
        return _roster_page(request, team, error=exc.message)
    verb = "is on the roster" if accept else "stays off the roster"
    messages.success(request, f"{reg.player.name} {verb}.")
    return redirect(team_url("team-roster", team))


def roster_confirm(request: HttpRequest, team: Team) -> HttpResponse:
    """Confirm a pending registration: the player is on the roster."""
    return _roster_answer(request, team, accept=True)


def roster_decline(request: HttpRequest, team: Team) -> HttpResponse:
    """Decline a pending registration: the player stays off the roster."""
    return _roster_answer(request, team, accept=False)


def roster_restore(request: HttpRequest, team: Team) -> HttpResponse:
    """Undo a removal: the player is back on the roster."""
    try:
        reg = _roster_registration(request, team)
        team_services.roster_add_player(team=team, player=reg.player, kind=reg.kind)
    except DomainError as exc:
        return _roster_page(request, team, error=exc.message)
    messages.success(request, f"{reg.player.name} is back on the roster.")
    return redirect(team_url("team-roster", team))


def roster_invite(request: HttpRequest, team: Team) -> HttpResponse:
    """Invite someone by email to join the roster."""
    form = InviteForm(request.POST, prefix="invite")
    if not form.is_valid():
        return _roster_page(request, team, invite_form=form)
    try:
        inv = invitations.invitation_create(
            team=team,
            invited_by=request.user,
            name=form.cleaned_data["name"],
            email=form.cleaned_data["email"],
            someone_else=form.cleaned_data["someone_else"],
        )
    except DomainError as exc:
        return _roster_form_refused(request, team, "invite", form, exc)
    messages.success(request, f"Invitation sent to {inv.email}.")
    return redirect(team_url("team-roster", team))


#: The roster page's commands, by the `action` its forms post.
ROSTER_COMMANDS: dict[str, Callable[[HttpRequest, Team], HttpResponse]] = {
    "add": roster_add,
    "remove": roster_remove,
    "confirm": roster_confirm,
    "decline": roster_decline,
    "restore": roster_restore,
    "invite": roster_invite,
}


@login_required
@require_http_methods(["GET", "POST"])
def team_roster(request: HttpRequest, league: str, pk: int) -> HttpResponse:
    """A captain's roster: add a player (an existing one, found as the name is typed, or
    someone new once the captain confirms it is someone else), remove one (with Undo),
    invite by email. The page posts each command (`action`) to this address; each is
    its own view above, called once the captain may change the team."""
    team = get_object_or_404(
        Team.objects.select_related("season__league"), pk=pk, season__league__slug=league
    )
    require_perm(request.user, "leagues.change_team", team)
    if request.method == "GET":
        return _roster_page(request, team)
    action = request.POST.get("action", "")
    if action == "add" and request.POST.get("existing"):
        return roster_add_existing(request, team)
    command = ROSTER_COMMANDS.get(action)
    if command is None:
        return _roster_page(request, team, error="Unknown action.")
    return command(request, team)


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
    team = invitation.team
    if team is None:  # never: a roster invitation has its team (a check constraint)
        raise Http404
    form = AcceptInvitationForm(request.POST if request.method == "POST" else None)
    if request.method == "POST":
        registration = accept_invitation(
            request, form, token, invitations.invitation_accept, lambda reg: reg.player.user
        )
        if registration is not None:
            messages.success(request, f"Welcome to {team.name}.")
            return redirect(team.get_absolute_url())
    return render(request, "leagues/invitation.html", {"invitation": invitation, "form": form})


# ---- registration rules (docs/eligibility.md)


@login_required
@require_http_methods(["GET", "POST"])
def season_registration_rules(request: HttpRequest, league: str, pk: int) -> HttpResponse:
    """The secretary's page of the season's registration rules: windows, notice, playing
    up, transfers and the penalty; each shown as the handbook words it."""
    season = get_object_or_404(Season.objects.select_related("league"), pk=pk, league__slug=league)
    require_perm(request.user, "leagues.manage_league", season)
    rules = eligibility.rules_of(season)
    initial = {name: getattr(rules, name) for name in eligibility_services.RULE_FIELDS}
    form = RegistrationRulesForm(
        request.POST if request.method == "POST" else None, initial=initial
    )
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                eligibility_services.season_rules_update(
                    season=season, actor=request.user, **form.cleaned_data
                )
            except DomainError as exc:
                form_error(form, exc)
            else:
                messages.success(request, "The registration rules are saved.")
                return redirect(season_url_of("season-registration-rules", season))
    return render(
        request,
        "leagues/registration_rules.html",
        {"season": season, "form": form, "in_force": eligibility.rules_summary(rules)},
        status=status,
    )


def season_url_of(name: str, season: Season) -> str:
    return reverse(name, args=[season.league.slug, season.pk])


@login_required
@require_http_methods(["GET", "POST"])
def season_transfers(request: HttpRequest, league: str, pk: int) -> HttpResponse:
    """The secretary's transfers page: those awaiting approval (approve or refuse, with a
    note), every transfer with the rule that decided it, and the log."""
    season = get_object_or_404(Season.objects.select_related("league"), pk=pk, league__slug=league)
    require_perm(request.user, "leagues.manage_league", season)
    error, status = "", 200
    if request.method == "POST":
        form = TransferDecideForm(request.POST)
        try:
            if not form.is_valid():
                raise DomainError("bad_value", "Choose a transfer and a decision.")
            transfer = get_object_or_404(
                Transfer.objects.filter(season=season), pk=form.cleaned_data["transfer"]
            )
            transfer = eligibility_services.transfer_decide(
                transfer=transfer,
                actor=request.user,
                approve=form.cleaned_data["decision"] == "approve",
                note=form.cleaned_data["note"],
            )
        except DomainError as exc:
            error, status = exc.message, exc.status
        else:
            messages.success(
                request,
                f"{transfer.player.name}'s transfer to {transfer.to_team.name}: "
                f"{transfer.get_status_display().lower()}.",
            )
            return redirect(season_url_of("season-transfers", season))
    transfers = list(selectors.season_transfers(season))
    return render(
        request,
        "leagues/transfers.html",
        {
            "season": season,
            "pending": [t for t in transfers if t.status == Transfer.Status.PENDING],
            "transfers": transfers,
            "log": selectors.eligibility_log(season),
            "error": error,
        },
        status=status,
    )


def roster_transfer(request: HttpRequest, team: Team) -> HttpResponse:
    """Ask for a player of another team to transfer in: the season's rules decide at once
    (refused with the rule, approved, or waiting for the secretary)."""
    form = TransferRequestForm(request.POST, prefix="transfer")
    try:
        if not form.is_valid():
            raise DomainError("bad_value", "Choose a player of another team.")
        player = get_object_or_404(Player, pk=form.cleaned_data["player"])
        transfer = eligibility_services.transfer_request(
            player=player, to_team=team, actor=request.user, reason=form.cleaned_data["reason"]
        )
    except DomainError as exc:
        return _roster_page(request, team, error=exc.message)
    if transfer.status == Transfer.Status.REFUSED:
        return _roster_page(
            request, team, error=f"Transfer refused. {transfer.rule_message}", refused=transfer
        )
    if transfer.status == Transfer.Status.PENDING:
        messages.success(request, f"{player.name}'s transfer awaits the secretary's approval.")
    else:
        messages.success(request, f"{player.name} has transferred to {team.name}.")
    return redirect(team_url("team-roster", team))


ROSTER_COMMANDS["transfer"] = roster_transfer
