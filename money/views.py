"""The league's money pages: the ledger with who owes what, the fees, charges, payments
and reversals (the treasurer or secretary); a team's statement (its captains) and a
player's (that player); the AGM summary; exports."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from leagues.models import Player, Season, Team
from marker.errors import DomainError
from marker.permissions import require_perm

from . import exports, selectors, services
from .accounts import PlayerAccount
from .forms import ChargeForm, PaymentForm, ReverseForm, ScheduleForm, account_choices
from .models import LedgerEntry


def _season(pk: int) -> Season:
    return get_object_or_404(Season.objects.select_related("league"), pk=pk)


def _form_error(form, exc: DomainError) -> None:
    form.add_error(exc.field if exc.field in form.fields else None, exc.message)


def _ledger_context(season: Season, **forms) -> dict:
    teams, players = selectors.balances(season)
    choices = account_choices(season)
    return {
        "season": season,
        "schedule": services.schedule_of(season),
        "teams": teams,
        "players": players,
        "owed": sum(b.balance for b in teams + players if b.balance > 0),
        "lines": list(selectors.lines(season).reverse()[:20]),
        "charge_form": forms.get("charge_form") or ChargeForm(season=season, choices=choices),
        "payment_form": forms.get("payment_form") or PaymentForm(season=season, choices=choices),
        "sheets": exports.SHEETS,
        "formats": exports.FORMATS,
    }


@login_required
@require_safe
def ledger(request, pk: int):
    """The season's ledger: balances per team and player, the latest lines, the forms."""
    season = _season(pk)
    require_perm(request.user, "money.manage", season)
    return render(request, "money/ledger.html", _ledger_context(season))


@login_required
@require_http_methods(["GET", "POST"])
def fees(request, pk: int):
    season = _season(pk)
    require_perm(request.user, "money.manage", season)
    schedule = services.schedule_of(season)
    initial = {
        "team_fee": services.pounds(schedule.team_fee)[1:],
        "player_sub": services.pounds(schedule.player_sub)[1:],
        "table_money": services.pounds(schedule.table_money)[1:],
        "postponement_fine": services.pounds(schedule.postponement_fine)[1:],
        "fine_after_days": schedule.fine_after_days,
    }
    form = ScheduleForm(request.POST if request.method == "POST" else None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            services.schedule_set(actor=request.user, season=season, **form.cleaned_data)
        except DomainError as exc:
            _form_error(form, exc)
        else:
            messages.success(request, "The season's fees are saved.")
            return redirect("money-ledger", season.pk)
    competitions = season.competitions.order_by("name")
    return render(
        request,
        "money/fees.html",
        {"season": season, "form": form, "competitions": competitions},
    )


@login_required
@require_POST
def fees_raise(request, pk: int):
    season = _season(pk)
    require_perm(request.user, "money.manage", season)
    try:
        made = services.season_fees_raise(actor=request.user, season=season)
    except DomainError as exc:
        messages.error(request, exc.message)
    else:
        total = sum(made.values())
        if total:
            messages.success(
                request,
                f"Raised {made['team_fee']} team fees, {made['player_sub']} player subs, "
                f"{made['cup_entry']} cup entry fees and {made['table_money']} table money "
                "charges.",
            )
        else:
            messages.info(request, "Nothing new to raise: every fee is already charged.")
    return redirect("money-ledger", season.pk)


@login_required
@require_POST
def charge(request, pk: int):
    season = _season(pk)
    require_perm(request.user, "money.manage", season)
    form = ChargeForm(request.POST, season=season)
    if form.is_valid():
        try:
            entry = services.charge_add(
                actor=request.user,
                season=season,
                kind=form.cleaned_data["kind"],
                amount=form.cleaned_data["amount"],
                description=form.cleaned_data["description"],
                **form.account_kwargs(),
            )
        except DomainError as exc:
            _form_error(form, exc)
        else:
            messages.success(
                request, f"Charged {entry.account.name} {services.pounds(entry.amount)}."
            )
            return redirect("money-ledger", season.pk)
    return render(
        request, "money/ledger.html", _ledger_context(season, charge_form=form), status=400
    )


@login_required
@require_POST
def payment(request, pk: int):
    season = _season(pk)
    require_perm(request.user, "money.manage", season)
    form = PaymentForm(request.POST, season=season)
    if form.is_valid():
        data = form.cleaned_data
        try:
            entry = services.payment_record(
                actor=request.user,
                season=season,
                amount=data["amount"],
                method=data["method"],
                paid_on=data["paid_on"],
                reference=data["reference"],
                description=data["description"],
                **form.account_kwargs(),
            )
        except DomainError as exc:
            _form_error(form, exc)
        else:
            messages.success(
                request,
                f"Recorded {services.pounds(-entry.amount)} from {entry.account.name}.",
            )
            return redirect("money-ledger", season.pk)
    return render(
        request, "money/ledger.html", _ledger_context(season, payment_form=form), status=400
    )


@login_required
@require_http_methods(["GET", "POST"])
def reverse_entry(request, pk: int):
    entry = get_object_or_404(
        LedgerEntry.objects.select_related("season__league", "team", "player"), pk=pk
    )
    require_perm(request.user, "money.manage", entry.season)
    form = ReverseForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            services.entry_reverse(
                actor=request.user, entry=entry, reason=form.cleaned_data["reason"]
            )
        except DomainError as exc:
            _form_error(form, exc)
        else:
            messages.success(request, "Reversed.")
            return redirect("money-ledger", entry.season_id)
    return render(request, "money/reverse.html", {"entry": entry, "form": form})


@login_required
@require_POST
def reminders(request, pk: int):
    season = _season(pk)
    require_perm(request.user, "money.manage", season)
    sent = services.reminders_send(actor=request.user, season=season)
    messages.success(
        request,
        f"Reminders queued for {sent} people (each account is reminded once a week; "
        "people who turned these off are skipped).",
    )
    return redirect("money-ledger", season.pk)


@login_required
@require_safe
def summary(request, pk: int):
    season = _season(pk)
    require_perm(request.user, "money.manage", season)
    return render(
        request,
        "money/summary.html",
        {"season": season, "summary": selectors.agm_summary(season), "formats": exports.FORMATS},
    )


@login_required
@require_safe
def export(request, pk: int, sheet: str, fmt: str):
    season = _season(pk)
    require_perm(request.user, "money.manage", season)
    if sheet not in exports.SHEETS or fmt not in exports.FORMATS:
        raise Http404
    body, content_type, name = exports.export(season=season, sheet=sheet, fmt=fmt)
    response = HttpResponse(body, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def _statement_page(request, account, title: str):
    return render(
        request,
        "money/statement.html",
        {
            "statement": selectors.statement(account),
            "season": account.season,
            "title": title,
            "manage": request.user.has_perm("money.manage", account.season),
        },
    )


@login_required
@require_safe
def team_statement(request, pk: int):
    """A team's statement: its captains, the treasurer and the secretary."""
    team = get_object_or_404(Team.objects.select_related("season__league"), pk=pk)
    require_perm(request.user, "money.view_statement", team)
    return _statement_page(request, team, team.name)


@login_required
@require_safe
def player_statement(request, season: int, pk: int):
    """A player's statement for a season: that player, the treasurer and the secretary."""
    season_obj = _season(season)
    player = get_object_or_404(Player, pk=pk)
    account = PlayerAccount(season=season_obj, player=player)
    require_perm(request.user, "money.view_statement", account)
    return _statement_page(request, account, player.name)
