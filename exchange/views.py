"""The secretary's data pages: a season's import and exports, the league's archive."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.views.decorators.http import require_safe

from leagues.models import League, Season
from marker.permissions import require_perm

from . import archive, exports


@login_required
@require_safe
def season_data(request, pk: int):
    """Import and export, for a season's secretary."""
    season = get_object_or_404(Season.objects.select_related("league"), pk=pk)
    require_perm(request.user, "leagues.export_data", season)
    return render(
        request,
        "exchange/season_data.html",
        {"season": season, "sheets": exports.SHEETS, "formats": exports.FORMATS},
    )


@login_required
@require_safe
def season_export(request, pk: int, sheet: str, fmt: str):
    season = get_object_or_404(Season.objects.select_related("league"), pk=pk)
    require_perm(request.user, "leagues.export_data", season)
    if sheet not in exports.SHEETS or fmt not in exports.FORMATS:
        raise Http404
    body, content_type, name = exports.season_export(season=season, sheet=sheet, fmt=fmt)
    response = HttpResponse(body, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@login_required
@require_safe
def league_archive(request, slug: str):
    """The league's whole history as a portable archive (no accounts or email addresses:
    a full backup is the operator's `manage.py league_export`)."""
    league = get_object_or_404(League, slug=slug)
    require_perm(request.user, "leagues.export_data", league)
    # Streamed: a chunk of rows in memory at a time, whatever the league's history.
    response = StreamingHttpResponse(
        archive.league_export_text(league=league, full=False),
        content_type="application/json; charset=utf-8",
    )
    name = f"{league.slug}-archive-{timezone.localdate():%Y-%m-%d}.json"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response
