"""HTML pages of the tables: the secretary's tables page (deductions, awards,
publishing), publications, subscribing to the tables by email."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_safe

from leagues import (
    publishing,
    selectors,
)
from leagues.models import (
    Fixture,
    Publication,
    Season,
    Subscription,
    Team,
)
from leagues.tables import services as table_services
from marker import spreadsheet
from marker.errors import DomainError
from marker.permissions import require_perm


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


def tables_publish(request: HttpRequest, season: Season) -> str | None:
    """Publish the season's tables as of now (the job runs after the commit)."""
    publication = publishing.publication_request(season=season, actor=request.user)
    return f"Publishing the tables as of {timezone.localtime(publication.as_of):%H:%M}."


def tables_retry(request: HttpRequest, season: Season) -> str | None:
    """Try a failed publication again."""
    publication = get_object_or_404(
        Publication, pk=request.POST.get("publication") or 0, season=season
    )
    publishing.publication_retry(publication=publication)
    return "Trying the publication again."


def tables_deduct(request: HttpRequest, season: Season) -> str | None:
    """Deduct points from a team of the season."""
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


def tables_award(request: HttpRequest, season: Season) -> str | None:
    """Record a walkover or a conceded match."""
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


#: The tables page's commands, by the `action` its forms post. Each returns the message of
#: its success, or None when its input was not valid; a DomainError is its refusal.
TABLES_COMMANDS: dict[str, Callable[[HttpRequest, Season], str | None]] = {
    "publish": tables_publish,
    "retry": tables_retry,
    "deduct": tables_deduct,
    "award": tables_award,
}


@login_required
@require_http_methods(["GET", "POST"])
def season_tables(request, league: str, pk: int):
    """The secretary's page: provisional tables, publishing and its progress, deductions,
    walkovers and concessions. Each command its forms post (`action`) is its own view
    above, called once the secretary may manage the league."""
    season = get_object_or_404(Season.objects.select_related("league"), pk=pk, league__slug=league)
    require_perm(request.user, "leagues.manage_league", season)
    status = 200
    if request.method == "POST":
        try:
            command = TABLES_COMMANDS.get(request.POST.get("action", ""))
            done = command(request, season) if command is not None else None
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
