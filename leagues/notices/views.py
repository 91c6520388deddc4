"""The pages where site administrators and secretaries post and end notices."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST

from leagues.models import League, Notice
from marker.errors import DomainError
from marker.permissions import require_perm

from . import selectors, services
from .forms import NoticeForm


def _page(request, league: League | None, form: NoticeForm, *, error: str = "", status=200):
    now = timezone.now()
    notices = list(selectors.notices_posted(league_id=league.pk if league else None))
    for notice in notices:
        notice.ended = notice.ends_at is not None and notice.ends_at <= now  # type: ignore[attr-defined]
    return render(
        request,
        "leagues/notices.html",
        {
            "league": league,
            "form": form,
            "notices": notices,
            "error": error,
        },
        status=status,
    )


def _notices(request: HttpRequest, league: League | None) -> HttpResponse:
    require_perm(request.user, services.POST, league)
    if request.method == "GET":
        return _page(request, league, NoticeForm())
    form = NoticeForm(request.POST)
    if not form.is_valid():
        return _page(request, league, form, error="Check the fields marked.", status=400)
    try:
        services.notice_create(league=league, actor=request.user, **form.cleaned_data)
    except DomainError as exc:
        if exc.field in form.fields:
            form.add_error(exc.field, exc.message)
        return _page(request, league, form, error=exc.message, status=exc.status)
    messages.success(request, "The notice is posted.")
    return redirect(request.path)


@login_required
@require_http_methods(["GET", "POST"])
def site_notices(request: HttpRequest) -> HttpResponse:
    """The site administrator's notices, shown on every page of every league."""
    return _notices(request, None)


@login_required
@require_http_methods(["GET", "POST"])
def league_notices(request: HttpRequest, league: str) -> HttpResponse:
    """A league secretary's notices, shown on the league's pages."""
    return _notices(request, get_object_or_404(League, slug=league))


@login_required
@require_POST
def notice_end(request: HttpRequest, pk: int) -> HttpResponse:
    notice = get_object_or_404(Notice.objects.select_related("league"), pk=pk)
    require_perm(request.user, services.POST, notice.league)
    services.notice_end(notice=notice, actor=request.user)
    messages.success(request, f"“{notice.title}” is no longer shown.")
    if notice.league is None:
        return redirect("site-notices")
    return redirect("league-notices", league=notice.league.slug)
