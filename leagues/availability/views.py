"""Availability's pages: the answer page a signed link opens (no login), the player's own
"My availability" (answers and away dates), and the captain's sheet for a fixture."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from leagues import selectors as league_selectors
from leagues.models import AvailabilityAnswer, AwayDates, Fixture, Player, Season
from marker.api_inputs import digits
from marker.errors import DomainError
from marker.permissions import require_perm

from . import selectors, services

THANKS = {
    "yes": "Thanks: you're in.",
    "maybe": "Thanks: you're a maybe. Change it when you know.",
    "no": "Thanks: you're out this time.",
}


class AnswerForm(forms.Form):
    answer = forms.ChoiceField(choices=AvailabilityAnswer.choices)
    note = forms.CharField(max_length=services.MAX_NOTE, required=False)


def _form_message(form: forms.Form) -> str:
    return " ".join(str(m) for errors in form.errors.values() for m in errors)


def _kept_private(response: HttpResponse) -> HttpResponse:
    """The link is the key: it is never sent on to another site, nor indexed. (Not
    `no-referrer`: the browser would then send `Origin: null` with the answer's POST, which
    Django's CSRF check refuses.)"""
    response["Referrer-Policy"] = "same-origin"
    response["X-Robots-Tag"] = "noindex"
    return response


@never_cache
@require_http_methods(["GET", "POST"])
def availability_answer(request, token: str):
    """A player's answer page, from the link in their message: three big buttons."""
    try:
        target = services.link_target(token)
    except DomainError as exc:
        response = render(
            request, "leagues/availability/link_error.html", {"error": exc}, status=exc.status
        )
        return _kept_private(response)
    error, status = "", 200
    if request.method == "POST":
        form = AnswerForm(request.POST)
        if not form.is_valid():
            error, status = _form_message(form), 400
        else:
            try:
                answer = services.availability_answer_by_link(
                    token=token,
                    answer=form.cleaned_data["answer"],
                    note=form.cleaned_data["note"],
                )
            except DomainError as exc:
                error, status = exc.message, exc.status
            else:
                messages.success(request, THANKS[answer.answer])
                return redirect(request.path)
    sheet = selectors.availability_sheet(target.fixture, target.team)
    row = next((r for r in sheet.rows if r.registration.player_id == target.player.pk), None)
    mine = row.answer if row is not None else None
    response = render(
        request,
        "leagues/availability/answer.html",
        {
            "target": target,
            "fixture": target.fixture,
            "answer": mine,
            "request_": sheet.request,
            "closed": sheet.closed,
            "on_roster": row is not None,
            "error": error,
            "choices": AvailabilityAnswer.choices,
        },
        status=status,
    )
    return _kept_private(response)


class AwayForm(forms.Form):
    season = forms.IntegerField()
    start = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}))
    end = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}))
    note = forms.CharField(max_length=services.MAX_NOTE, required=False)


@login_required
@require_http_methods(["GET", "POST"])
def my_availability(request):
    """The signed-in player's coming fixtures, each with the three buttons, and their away
    dates for the season (add, remove)."""
    player = Player.objects.filter(user=request.user).first()
    error, status = "", 200
    away_form = AwayForm(prefix="away")
    if player is not None and request.method == "POST":
        action = request.POST.get("action", "")
        try:
            if action == "answer":
                form = AnswerForm(request.POST)
                fixture = get_object_or_404(
                    Fixture.objects.select_related("home", "away"),
                    pk=_int(request.POST.get("fixture")),
                )
                if not form.is_valid():
                    raise DomainError("invalid", _form_message(form))
                answer = services.availability_answer_as_player(
                    actor=request.user,
                    fixture=fixture,
                    answer=form.cleaned_data["answer"],
                    note=form.cleaned_data["note"],
                )
                messages.success(request, f"{fixture}: {THANKS[answer.answer]}")
            elif action == "away_add":
                away_form = AwayForm(request.POST, prefix="away")
                if not away_form.is_valid():
                    raise DomainError("invalid", _form_message(away_form))
                season = get_object_or_404(Season, pk=away_form.cleaned_data["season"])
                away = services.away_add(
                    player=player,
                    season=season,
                    start=away_form.cleaned_data["start"],
                    end=away_form.cleaned_data["end"],
                    note=away_form.cleaned_data["note"],
                    actor=request.user,
                )
                messages.success(
                    request,
                    f"Away from {services.day_label(away.start)} to "
                    f"{services.day_label(away.end)} is marked.",
                )
            elif action == "away_remove":
                away = get_object_or_404(
                    AwayDates, pk=_int(request.POST.get("away")), player=player
                )
                services.away_remove(away=away, actor=request.user)
                messages.success(request, "Those away dates are removed.")
            else:
                raise DomainError("bad_action", "That is not something this page does.")
        except DomainError as exc:
            error, status = exc.message, exc.status
        else:
            return redirect("my-availability")
    context = {
        "player": player,
        "upcoming": selectors.player_upcoming(player) if player else [],
        "away_dates": selectors.away_dates_of(player) if player else [],
        "seasons": selectors.seasons_of(player) if player else [],
        "away_form": away_form,
        "error": error,
        "choices": AvailabilityAnswer.choices,
    }
    return render(request, "leagues/availability/mine.html", context, status=status)


def _int(value: str | None) -> int:
    if value is None or not digits(value) or len(value) > 18:
        raise Http404
    return int(value)


class AskForm(forms.Form):
    answer_by = forms.DateTimeField(
        required=False, widget=forms.DateTimeInput(attrs={"type": "datetime-local"})
    )


@login_required
@require_http_methods(["GET", "POST"])
def fixture_availability(request, league: str, pk: int, team: int):
    """The captain's sheet for their side of a fixture: who is in, maybe, out and not
    answered; ask the squad, chase, and record an answer given another way."""
    fixture = get_object_or_404(
        league_selectors.fixtures_qs().select_related("season__league"),
        pk=pk,
        season__league__slug=league,
    )
    chosen = {fixture.home_id: fixture.home, fixture.away_id: fixture.away}.get(team)
    if chosen is None:
        raise Http404
    require_perm(request.user, "leagues.ask_availability", chosen)
    error, status = "", 200
    if request.method == "POST":
        action = request.POST.get("action", "")
        try:
            if action == "ask":
                form = AskForm(request.POST)
                if not form.is_valid():
                    raise DomainError("invalid", _form_message(form), field="answer_by")
                result = services.availability_ask(
                    fixture=fixture,
                    team=chosen,
                    actor=request.user,
                    answer_by=form.cleaned_data["answer_by"],
                )
                messages.success(request, _asked_message(result))
            elif action == "chase":
                chased = services.availability_chase(
                    fixture=fixture, team=chosen, actor=request.user
                )
                messages.success(
                    request,
                    f"Chased {len(chased.chased)} player{'s' if len(chased.chased) != 1 else ''}"
                    " who had not answered.",
                )
            elif action == "set":
                answer_form = AnswerForm(request.POST)
                if not answer_form.is_valid():
                    raise DomainError("invalid", _form_message(answer_form))
                player = get_object_or_404(
                    Player,
                    pk=_int(request.POST.get("player")),
                    registrations__team=chosen,
                    registrations__status="active",
                )
                services.availability_answer_for(
                    actor=request.user,
                    fixture=fixture,
                    team=chosen,
                    player=player,
                    answer=answer_form.cleaned_data["answer"],
                )
                messages.success(request, f"{player.name}: {answer_form.cleaned_data['answer']}.")
            else:
                raise DomainError("bad_action", "That is not something this page does.")
        except DomainError as exc:
            error, status = exc.message, exc.status
        else:
            return redirect(request.path)
    sheet = selectors.availability_sheet(fixture, chosen)
    now = timezone.now()
    return render(
        request,
        "leagues/availability/sheet.html",
        {
            "fixture": fixture,
            "team": chosen,
            "sheet": sheet,
            "can_chase": sheet.can_chase(now),
            "next_chase_at": sheet.next_chase_at(),
            "error": error,
            "choices": AvailabilityAnswer.choices,
            "default_answer_by": (
                services.default_answer_by(fixture, now) if fixture.date is not None else None
            ),
        },
        status=status,
    )


def _asked_message(result: services.AskResult) -> str:
    if not result.first and not result.asked:
        parts = ["Everyone on the roster has been asked already: nobody new to ask."]
    else:
        parts = [f"Asked {result.asked} player{'s' if result.asked != 1 else ''}."]
    if result.away:
        names = ", ".join(p.name for p in result.away)
        parts.append(f"Away on the day (answered no): {names}.")
    if result.unreachable:
        names = ", ".join(p.name for p in result.unreachable)
        parts.append(f"No email or login, so not asked: {names}; mark their answer below.")
    return " ".join(parts)
