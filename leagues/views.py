"""HTML pages of the league: thin — look up, check permission, call a service or selector."""

from __future__ import annotations

from decimal import Decimal

from django import forms
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_safe

from marker import spreadsheet
from marker.errors import DomainError
from marker.permissions import require_perm

from . import honours, invitations, publishing, selectors, services
from .forms import (
    AcceptInvitationForm,
    AddExistingPlayerForm,
    AddPlayerForm,
    FixtureMoveForm,
    FixturesGenerateForm,
    InviteForm,
    RemovePlayerForm,
    TeamRegisterForm,
)
from .ical import team_calendar
from .models import (
    Division,
    Fixture,
    Invitation,
    League,
    Player,
    Publication,
    Registration,
    Season,
    Subscription,
    Team,
    Venue,
)


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
        {
            "division": division,
            "teams": teams,
            "fixtures": fixtures,
            "can_manage_tables": request.user.has_perm("leagues.manage_league", division.season),
            **selectors.division_table_page(division, fixtures),
        },
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
            "honours": honours.team_honours(team),
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
        request,
        "leagues/player.html",
        {
            "player": player,
            "registrations": registrations,
            "honours": honours.player_honours(player),
        },
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


def _roster_registration(request, team: Team) -> Registration:
    form = RemovePlayerForm(request.POST)
    if not form.is_valid():
        raise DomainError("bad_value", "Choose a player on the roster.")
    return get_object_or_404(
        Registration.objects.select_related("player"),
        pk=form.cleaned_data["registration"],
        team=team,
    )


@login_required
@require_http_methods(["GET", "POST"])
def team_roster(request, pk: int):
    """A captain's roster: add a player (an existing one, found as the name is typed, or
    someone new once the captain confirms it is someone else), remove one (with Undo),
    invite by email."""
    team = get_object_or_404(Team.objects.select_related("season"), pk=pk)
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
                reg = services.roster_add_player(team=team, player=player)
                messages.success(request, f"{reg.player.name} added to the roster.")
                return redirect("team-roster", pk=team.pk)
            elif action == "add":
                add_form = AddPlayerForm(request.POST, prefix="add")
                if add_form.is_valid():
                    reg = services.roster_add_player(
                        team=team,
                        name=add_form.cleaned_data["name"],
                        email=add_form.cleaned_data["email"],
                        someone_else=add_form.cleaned_data["someone_else"],
                    )
                    messages.success(request, f"{reg.player.name} added to the roster.")
                    return redirect("team-roster", pk=team.pk)
            elif action == "remove":
                reg = _roster_registration(request, team)
                services.roster_remove_player(registration=reg, actor=request.user)
                messages.success(request, f"{reg.player.name} removed from the roster.")
                return redirect(f"{reverse('team-roster', args=[team.pk])}?removed={reg.pk}")
            elif action == "restore":
                reg = _roster_registration(request, team)
                services.roster_add_player(team=team, player=reg.player, kind=reg.kind)
                messages.success(request, f"{reg.player.name} is back on the roster.")
                return redirect("team-roster", pk=team.pk)
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
                    return redirect("team-roster", pk=team.pk)
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
def team_roster_suggest(request, pk: int):
    """Players already in the league whose name matches what the captain is typing (htmx
    swaps this list under the name field; one person, one record)."""
    team = get_object_or_404(Team.objects.select_related("season"), pk=pk)
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
    invitation = get_object_or_404(Invitation.objects.select_related("team"), token=token)
    form = AcceptInvitationForm(request.POST if request.method == "POST" else None)
    if request.method == "POST":
        try:
            if not request.user.is_authenticated and not form.is_valid():
                raise DomainError("invalid", "Choose a username and a password.")
            data = form.cleaned_data if form.is_bound and form.is_valid() else {}
            registration = invitations.invitation_accept(
                token=token,
                user=request.user,
                username=data.get("username", ""),
                password=data.get("password", ""),
            )
        except DomainError as exc:
            _form_error(form, exc)
        else:
            if not request.user.is_authenticated:
                login(
                    request,
                    registration.player.user,
                    backend="django.contrib.auth.backends.ModelBackend",
                )
            messages.success(request, f"Welcome to {invitation.team.name}.")
            return redirect("team-detail", pk=invitation.team_id)
    return render(request, "leagues/invitation.html", {"invitation": invitation, "form": form})


@login_required
@require_http_methods(["GET", "POST"])
def fixtures_generate(request, pk: int):
    season = get_object_or_404(Season.objects.select_related("league"), pk=pk)
    require_perm(request.user, "leagues.manage_fixtures", season)
    form = FixturesGenerateForm(
        request.POST if request.method == "POST" else None,
        initial={"start_date": season.start_date},
    )
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
        d = services.point_deduction_add(
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
        services.fixture_award(
            fixture=fixture,
            outcome=form.cleaned_data["outcome"],
            home_frames=form.cleaned_data["home_frames"],
            away_frames=form.cleaned_data["away_frames"],
            reason=form.cleaned_data["reason"],
        )
        return f"{fixture} recorded as {fixture.get_outcome_display().lower()}."
    return None


@login_required
@require_http_methods(["GET", "POST"])
def season_tables(request, pk: int):
    """The secretary's page: provisional tables, publishing and its progress, deductions,
    walkovers and concessions."""
    season = get_object_or_404(Season.objects.select_related("league"), pk=pk)
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
                return redirect("season-tables", pk=season.pk)
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
def publication_status(request, pk: int):
    """The progress of a publication (htmx polls it while the job runs)."""
    publication = get_object_or_404(Publication.objects.select_related("season"), pk=pk)
    require_perm(request.user, "leagues.manage_league", publication.season)
    return render(request, "leagues/publication_status.html", {"p": publication})


@require_safe
def publication_detail(request, pk: int):
    """The printable tables, exactly as rendered when they were published."""
    publication = get_object_or_404(Publication, pk=pk, state=Publication.State.DONE)
    return HttpResponse(publication.printable_html)


@require_safe
def publication_csv(request, pk: int):
    publication = get_object_or_404(
        Publication.objects.select_related("season"), pk=pk, state=Publication.State.DONE
    )
    # Made safe again as it is served: publications written before cells were made safe.
    body = spreadsheet.make_safe(publication.csv)
    response = HttpResponse(body, content_type="text/csv; charset=utf-8")
    name = f"{publication.season.slug}-tables-{publication.as_of:%Y-%m-%d}.csv"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@login_required
@require_http_methods(["GET", "POST"])
def table_subscribe(request, pk: int):
    """Email me this league's tables whenever they are published (to my account's
    address)."""
    season = get_object_or_404(Season.objects.select_related("league"), pk=pk)
    form = ConfirmForm(request.POST if request.method == "POST" else None)
    if request.method == "POST":
        if form.is_valid():
            try:
                services.subscription_create(league=season.league, user=request.user)
            except DomainError as exc:
                messages.error(request, exc.message)
            else:
                messages.success(
                    request, f"The {season.league.name} tables will be emailed to you."
                )
                return redirect("season-detail", pk=season.pk)
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
        subscription = services.subscription_cancel(token=token)
    return render(
        request,
        "leagues/table_unsubscribe.html",
        {"subscription": subscription, "form": form},
        status=400 if request.method == "POST" and not form.is_valid() else 200,
    )


# ------------------------------------------------------------------ the roll of honour


@require_safe
def league_honours(request, league_slug: str):
    """The league's roll of honour: every season's winners and runners-up, under the
    names they won with."""
    league = get_object_or_404(League, slug=league_slug)
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
def season_finish(request, pk: int):
    """The secretary finishes a season: the divisions' winners and runners-up go on the
    roll of honour from the final tables."""
    season = get_object_or_404(Season.objects.select_related("league"), pk=pk)
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
            return redirect("league-honours", league_slug=season.league.slug)
    unfinished = Fixture.objects.filter(season=season, result_confirmed_at__isnull=True).count()
    return render(
        request,
        "leagues/season_finish.html",
        {"season": season, "form": form, "unfinished": unfinished},
    )
