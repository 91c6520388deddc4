"""HTML pages of seasons and divisions: starting a season, its match format, rolling it
over, importing into it, finishing it."""

from __future__ import annotations

import json

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_http_methods, require_safe

from leagues import (
    formats,
    honours,
    imports,
    rollover,
    selectors,
)
from leagues.forms import (
    MatchFormatForm,
    SeasonCreateForm,
)
from leagues.imports import job as import_job
from leagues.imports import services as import_services
from leagues.models import (
    Division,
    Fixture,
    ImportJob,
    League,
    Season,
)
from leagues.seasons import selectors as rule_selectors
from leagues.seasons import services as season_services
from leagues.seasons.forms import SeasonRulesForm
from leagues.tables.selectors import provisional_table
from leagues.views import form_error
from marker.api_inputs import digits
from marker.errors import DomainError
from marker.formats import effective_format
from marker.permissions import require_perm


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
            "house": rule_selectors.house_lines(season),
            "can_manage": request.user.has_perm("leagues.manage_league", season),
        },
    )


def _rule_book_page(request, season: Season, *, current: bool):
    book = rule_selectors.season_rule_book(season)
    return render(
        request,
        "leagues/rules.html",
        {
            "book": book,
            "season": season,
            "page_html": mark_safe(book.page_html),  # our docs/games page; raw HTML escaped
            "current": current,
            "can_manage": request.user.has_perm("leagues.manage_league", season),
        },
    )


@require_safe
def league_rules(request, league: str):
    """The rules the league plays this season: the rule book (printable, offline on the
    pad)."""
    try:
        season = rule_selectors.season_for_rules(league)
    except (Season.DoesNotExist, League.DoesNotExist):
        raise Http404 from None
    return _rule_book_page(request, season, current=True)


@require_safe
def season_rules(request, league: str, pk: int):
    """One season's rule book, kept for ever (a past season's rules as it played them)."""
    try:
        season = rule_selectors.season_for_rules(league, pk)
    except Season.DoesNotExist:
        raise Http404 from None
    return _rule_book_page(request, season, current=False)


@login_required
@require_http_methods(["GET", "POST"])
def season_rules_edit(request, league: str, pk: int):
    """The secretary pins a season's rules before it starts: a newer rules version (its
    changes shown first) and the house rules."""
    season = get_object_or_404(Season.objects.select_related("league"), pk=pk, league__slug=league)
    require_perm(request.user, "leagues.manage_league", season)
    today = timezone.localdate()
    form = SeasonRulesForm(request.POST if request.method == "POST" else None, season=season)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                season_services.season_set_rules(
                    season=season,
                    actor=request.user,
                    rules_version=form.cleaned_data["rules_version"],
                    house_options=form.house_options(),
                    today=today,
                )
            except DomainError as exc:
                form_error(form, exc)
                status = exc.status if exc.status in (400, 409) else 400
            else:
                messages.success(request, "The season's rules are saved.")
                return redirect("season-rules", league=season.league.slug, pk=season.pk)
        else:
            status = 400
    return render(
        request,
        "leagues/rules_edit.html",
        {
            "season": season,
            "form": form,
            "newer": rule_selectors.newer_versions(season),
            "started": season_services.season_started(season, today=today),
        },
        status=status,
    )


@require_safe
def division_detail(request, league: str, pk: int):
    try:
        division, teams, fixtures = selectors.division_detail(pk, league)
    except Division.DoesNotExist:
        raise Http404 from None
    table_page = selectors.division_table_page(division, fixtures)
    return render(
        request,
        "leagues/division.html",
        {
            "division": division,
            "teams": teams,
            "fixtures": fixtures,
            "can_manage_tables": request.user.has_perm("leagues.manage_league", division.season),
            "provisional_table": provisional_table(
                division,
                published=table_page["snapshot"] is not None,
                results=len(table_page["provisional_results"]),
            ),
            **table_page,
        },
    )


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


def _int_field(data, key: str, *, default: int = 0) -> int:
    value = (data.get(key) or "").strip()
    if not value:
        return default
    if not digits(value) or len(value) > 3:
        raise DomainError("bad_value", "Give a whole number of teams.", field="boundaries")
    return int(value)


def _rollover_input(data, season: Season) -> tuple[dict[int, int], dict[int, int]]:
    """The boundaries (`n_<division id>`, teams up and down below that division) and the
    secretary's adjustments (`team_<team id>` → a division id), from a GET or a POST."""
    boundaries, placements = {}, {}
    for key in data:
        if key.startswith("n_") and digits(key[2:]):
            boundaries[int(key[2:][:18])] = _int_field(data, key)
        elif key.startswith("team_") and digits(key[5:]):
            placements[int(key[5:][:18])] = _int_field(data, key)
    return boundaries, placements


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
            form_error(form, exc)
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
                if import_job.runs_in_background(table):
                    # A large file: a worker imports it while the next page shows how far.
                    queued = import_services.import_queue(
                        season=season,
                        actor=request.user,
                        kind=kind,
                        table=table,
                        mapping=mapping,
                        now=timezone.now(),
                    )
                    return redirect("season-import-job", pk=season.pk, job=queued.pk)
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
            form_error(upload, exc)
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
        "background": import_job.runs_in_background(table),
    }
    return render(
        request, "leagues/import_preview.html", context, status=400 if result.problems else 200
    )


@login_required
@require_safe
def season_import_job(request, pk: int, job: int):
    """A background import's progress (htmx polls its status part while it runs), then
    what it did, or every problem that stopped it."""
    season = get_object_or_404(Season.objects.select_related("league"), pk=pk)
    require_perm(request.user, "leagues.import_data", season)
    the_job = get_object_or_404(ImportJob, pk=job, season=season)
    progress, step = import_job.job_progress(the_job)
    context = {"season": season, "job": the_job, "progress": progress, "step": step}
    if request.headers.get("HX-Request"):
        return render(request, "leagues/import_job_status.html", context)
    return render(request, "leagues/import_job.html", context)


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
            form_error(form, exc)
        else:
            messages.success(request, f"{season} is finished; its honours are on the roll.")
            return redirect("league-honours", league=season.league.slug)
    unfinished = Fixture.objects.filter(season=season, result_confirmed_at__isnull=True).count()
    return render(
        request,
        "leagues/season_finish.html",
        {"season": season, "form": form, "unfinished": unfinished},
    )
