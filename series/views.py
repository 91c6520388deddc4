"""Ranking series pages: a league's or organisation's series, a series' standings (on a
phone: each player's total, a tap for the explanation), its events, and the secretary's
pages to create and edit a series, add its events and enter off-system placings."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_safe

from competitions.models import Competition
from leagues.models import League, Organisation
from marker.errors import DomainError
from marker.permissions import require_perm

from . import selectors, services
from . import standings as calc
from .forms import EventForm, ResultForm, SeriesForm
from .models import Series, SeriesEvent, SeriesResult


def _form_error(form, exc: DomainError) -> None:
    form.add_error(exc.field if exc.field in form.fields else None, exc.message)


def _series(pk: int) -> Series:
    return get_object_or_404(selectors.series_with_owner(), pk=pk)


def _list(request, owner: League | Organisation):
    template = "series/_panel.html" if request.GET.get("panel") else "series/list.html"
    return render(
        request,
        template,
        {
            "owner": owner,
            "series_list": list(selectors.series_of(owner)),
            "can_manage": request.user.has_perm("series.manage", owner),
            "create_url": _create_url(owner),
            "list_url": reverse(
                "league-series" if isinstance(owner, League) else "organisation-series",
                args=[owner.slug],
            ),
        },
    )


def _create_url(owner: League | Organisation) -> str:
    if isinstance(owner, League):
        return reverse("series-create-league", args=[owner.slug])
    return reverse("series-create-organisation", args=[owner.slug])


@require_safe
def league_series(request, slug: str):
    """A league's ranking series. With `?panel=1`, the list alone (loaded in place)."""
    return _list(request, get_object_or_404(League, slug=slug))


@require_safe
def organisation_series(request, slug: str):
    """An organisation's ranking series. With `?panel=1`, the list alone."""
    return _list(request, get_object_or_404(Organisation, slug=slug))


@require_safe
def series_detail(request, pk: int):
    """The standings: rank, name and total; a tap shows which results counted, which
    were dropped, the tie-break used and what the player needs in the next event."""
    series = _series(pk)
    table = selectors.series_standings(series)
    return render(
        request,
        "series/detail.html",
        {
            "series": series,
            "table": table,
            "fmt": calc.fmt,
            "tie_breakers": [calc.TIE_BREAKERS[c] for c in series.tie_breakers],
            "bands": _bands(series),
            "can_manage": request.user.has_perm("series.manage", series),
        },
    )


def _bands(series: Series) -> list[tuple[str, str]]:
    rules = series.rules
    placings = rules.band_placings()
    rows = [
        (rules.band_label(p), calc.fmt(rules.table[i]))
        for i, p in enumerate(placings[: len(rules.table)])
    ]
    if rules.appearance:
        rows.append(("Beyond", calc.fmt(rules.appearance)))
    return rows


@require_safe
def series_events(request, pk: int):
    """The series' events: each one's weight, whether played, and its placings."""
    series = _series(pk)
    table = selectors.series_standings(series)
    for event in table.events:
        event.placings = table.manual.get(event.pk, [])  # type: ignore[attr-defined]
    return render(
        request,
        "series/events.html",
        {
            "series": series,
            "table": table,
            "can_manage": request.user.has_perm("series.manage", series),
        },
    )


def _edit(request, owner: League | Organisation, series: Series | None):
    require_perm(request.user, "series.manage", series or owner)
    initial = SeriesForm.initial_of(series) if series is not None else {}
    form = SeriesForm(request.POST if request.method == "POST" else None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            if series is None:
                series = services.series_create(
                    actor=request.user, owner=owner, **form.cleaned_data
                )
                messages.success(request, f"The {series.name} is made: now add its events.")
            else:
                series = services.series_update(
                    actor=request.user, series=series, **form.cleaned_data
                )
                messages.success(request, "Saved.")
        except DomainError as exc:
            _form_error(form, exc)
        else:
            return redirect("series-detail", series.pk)
    return render(request, "series/edit.html", {"form": form, "series": series, "owner": owner})


@login_required
@require_http_methods(["GET", "POST"])
def series_create_league(request, slug: str):
    return _edit(request, get_object_or_404(League, slug=slug), None)


@login_required
@require_http_methods(["GET", "POST"])
def series_create_organisation(request, slug: str):
    return _edit(request, get_object_or_404(Organisation, slug=slug), None)


@login_required
@require_http_methods(["GET", "POST"])
def series_edit(request, pk: int):
    series = _series(pk)
    return _edit(request, series.owner, series)


@login_required
@require_http_methods(["GET", "POST"])
def series_event_add(request, pk: int):
    """Add an event: one of the owner's singles or pairs competitions, or off-system."""
    series = _series(pk)
    require_perm(request.user, "series.manage", series)
    competitions = list(selectors.competitions_for(series))
    form = EventForm(request.POST if request.method == "POST" else None, competitions=competitions)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        competition = (
            Competition.objects.filter(pk=d["competition"]).first() if d["competition"] else None
        )
        try:
            event = services.series_event_add(
                actor=request.user,
                series=series,
                name=d["name"],
                competition=competition,
                weight=d["weight"],
                day=d["date"],
            )
        except DomainError as exc:
            _form_error(form, exc)
        else:
            messages.success(request, f"{event.name} is event {event.number}.")
            if event.competition_id is None:
                return redirect("series-event-results", event.pk)
            return redirect("series-events", series.pk)
    return render(request, "series/event_add.html", {"series": series, "form": form})


@login_required
@require_http_methods(["GET", "POST"])
def series_event_results(request, pk: int):
    """An off-system event's placings: add (or change) one, remove one, say they are all
    in."""
    event = get_object_or_404(
        SeriesEvent.objects.select_related("series__league", "series__organisation"), pk=pk
    )
    series = event.series
    require_perm(request.user, "series.manage", series)
    if event.competition_id is not None:
        raise Http404("This event's placings come from its competition.")
    players = list(selectors.players_for(series))
    form = ResultForm(
        request.POST if request.POST.get("action") == "add" else None, players=players
    )
    if request.method == "POST":
        action = request.POST.get("action")
        try:
            if action == "add" and form.is_valid():
                player = next(p for p in players if p.pk == form.cleaned_data["player"])
                services.series_result_set(
                    actor=request.user,
                    event=event,
                    player=player,
                    placing=form.cleaned_data["placing"],
                )
                messages.success(request, f"{player.name}: {form.cleaned_data['placing']}.")
                return redirect("series-event-results", event.pk)
            if action == "remove":
                result = get_object_or_404(
                    SeriesResult, pk=request.POST.get("result") or 0, event=event
                )
                services.series_result_remove(actor=request.user, result=result)
                return redirect("series-event-results", event.pk)
            if action in ("complete", "reopen"):
                services.series_event_update(
                    actor=request.user, event=event, complete=action == "complete"
                )
                return redirect("series-event-results", event.pk)
        except (DomainError, ValueError) as exc:
            if isinstance(exc, DomainError):
                _form_error(form, exc)
    results = list(
        SeriesResult.objects.filter(event=event)
        .select_related("player")
        .order_by("placing", "player__name")
    )
    status = 400 if request.method == "POST" else 200
    return render(
        request,
        "series/event_results.html",
        {"series": series, "event": event, "form": form, "results": results},
        status=status,
    )
