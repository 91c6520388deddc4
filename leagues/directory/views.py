"""The directory's pages: where to play (venues, their tables and league nights), the
posts ("Join a team", "Looking for a team"), answering one through the site, a person's
posts and conversations, and the secretary's moderation queue."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.paginator import Paginator
from django.db.models import Q, QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from leagues.models import DirectoryPost, League, PostConversation, Team, Venue
from marker.api_inputs import digits
from marker.errors import DomainError
from marker.permissions import require_perm

from . import selectors, services
from .forms import (
    MessageForm,
    ModerateForm,
    PostForm,
    VenueDetailsForm,
    VenueNightForm,
    VenueTableForm,
)

PER_PAGE = 30


def _form_error(form, exc: DomainError) -> None:
    form.add_error(exc.field if exc.field in form.fields else None, exc.message)


@require_safe
def directory(request: HttpRequest) -> HttpResponse:
    """Every venue: search by name or town, filter by town, game or league."""
    q = request.GET.get("q", "")[:120]
    town = request.GET.get("town", "")[:80]
    game = request.GET.get("game", "")[:60]
    league = request.GET.get("league", "")[:60]
    venues = selectors.venues_queryset(q=q, town=town, game=game, league=league)
    page = Paginator(venues, PER_PAGE).get_page(request.GET.get("page"))
    league_obj = League.objects.filter(slug=league).first() if league else None
    return render(
        request,
        "leagues/directory/list.html",
        {
            "page": page,
            "entries": selectors.venue_entries(page.object_list),
            "q": q,
            "town": town,
            "game": game,
            "league": league_obj,
            "towns": selectors.towns(),
            "games": selectors.games_with_tables(),
        },
    )


@require_safe
def venue(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        entry = selectors.venue_entry(pk)
    except Venue.DoesNotExist:
        raise Http404 from None
    return render(
        request,
        "leagues/directory/venue.html",
        {
            "entry": entry,
            "posts": list(selectors.posts_shown(now=timezone.now(), venue_id=pk)),
            "can_edit": request.user.has_perm(services.EDIT_VENUE, entry.venue),
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def venue_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """A secretary of a league playing here keeps the venue's details, tables and nights.
    Each part is its own form (`part`); a row is removed with `remove`."""
    venue = get_object_or_404(Venue, pk=pk)
    require_perm(request.user, services.EDIT_VENUE, venue)
    details = VenueDetailsForm(
        initial={
            "town": venue.town,
            "address": venue.address,
            "notes": venue.notes,
            "latitude": venue.latitude,
            "longitude": venue.longitude,
        }
    )
    table, night = VenueTableForm(), VenueNightForm()
    status = 200
    if request.method == "POST":
        part = request.POST.get("part", "")
        try:
            if part == "details":
                details = VenueDetailsForm(request.POST)
                if details.is_valid():
                    services.venue_details_set(
                        venue=venue, actor=request.user, **details.cleaned_data
                    )
                    messages.success(request, "The venue's details are saved.")
                    return redirect(request.path)
            elif part == "table":
                table = VenueTableForm(request.POST)
                if table.is_valid():
                    services.venue_table_set(venue=venue, actor=request.user, **table.cleaned_data)
                    messages.success(request, "The tables are saved.")
                    return redirect(request.path)
            elif part == "table-remove":
                services.venue_table_remove(
                    venue=venue, actor=request.user, game_id=request.POST.get("game_id", "")
                )
                return redirect(request.path)
            elif part == "night":
                night = VenueNightForm(request.POST)
                if night.is_valid():
                    services.venue_night_set(venue=venue, actor=request.user, **night.cleaned_data)
                    messages.success(request, "The night is saved.")
                    return redirect(request.path)
            elif part == "night-remove":
                day = request.POST.get("weekday", "")
                if digits(day):
                    services.venue_night_remove(venue=venue, actor=request.user, weekday=int(day))
                    return redirect(request.path)
        except DomainError as exc:
            messages.error(request, exc.message)
            status = exc.status
        else:
            status = 400
    entry = selectors.venue_entry(venue.pk)
    return render(
        request,
        "leagues/directory/venue_edit.html",
        {"entry": entry, "details": details, "table": table, "night": night},
        status=status,
    )


# -------------------------------------------------------------------------- posts


@require_safe
def posts(request: HttpRequest) -> HttpResponse:
    """The posts up now, newest first: every league's, or one league's (`league`)."""
    league_slug = request.GET.get("league", "")[:60]
    kind = request.GET.get("kind", "")
    if kind not in DirectoryPost.Kind.values:
        kind = ""
    league = get_object_or_404(League, slug=league_slug) if league_slug else None
    shown = selectors.posts_shown(now=timezone.now(), league_slug=league_slug, kind=kind)
    page = Paginator(shown, PER_PAGE).get_page(request.GET.get("page"))
    return render(
        request,
        "leagues/directory/posts.html",
        {"page": page, "league": league, "kind": kind, "kinds": DirectoryPost.Kind.choices},
    )


def _captained(user) -> QuerySet[Team]:
    return (
        Team.objects.filter(Q(captain=user) | Q(vice_captain=user))
        .filter(season__status__in=selectors.CURRENT)
        .select_related("season__league")
        .order_by("name")
    )


@login_required
@require_http_methods(["GET", "POST"])
def post_new(request: HttpRequest) -> HttpResponse:
    """Post "Join a team" (a captain, for their team) or "Looking for a team"."""
    teams = _captained(request.user)
    initial = {
        "kind": DirectoryPost.Kind.JOIN_TEAM if teams.exists() else DirectoryPost.Kind.LOOKING
    }
    if request.method == "GET":
        form = PostForm(initial=initial, teams=teams)
        return render(request, "leagues/directory/post_new.html", {"form": form})
    form = PostForm(request.POST, teams=teams)
    status = 400
    if form.is_valid():
        data = form.cleaned_data
        team = data["team"] if data["kind"] == DirectoryPost.Kind.JOIN_TEAM else None
        league = team.season.league if team is not None else data["league"]
        try:
            if league is None:
                raise DomainError(
                    "post_league" if data["kind"] == DirectoryPost.Kind.LOOKING else "post_team",
                    "Choose the league."
                    if data["kind"] == DirectoryPost.Kind.LOOKING
                    else "Choose the team the post is for.",
                    field="league" if data["kind"] == DirectoryPost.Kind.LOOKING else "team",
                )
            post = services.post_create(
                league=league,
                kind=data["kind"],
                team=team,
                actor=request.user,
                title=data["title"],
                body=data["body"],
                days=data["days"],
            )
        except DomainError as exc:
            _form_error(form, exc)
            status = exc.status
        else:
            messages.success(
                request, f"Your post waits for {league.name}'s secretary to publish it."
            )
            return redirect(post.get_absolute_url())
    return render(request, "leagues/directory/post_new.html", {"form": form}, status=status)


@require_http_methods(["GET", "POST"])
def post_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A post; a signed-in reader answers it here (their message reaches the author on the
    site, with no address shown either way)."""
    now = timezone.now()
    post = selectors.post_visible(pk, user=request.user, now=now)
    if post is None:
        raise Http404
    form = MessageForm()
    status = 200
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        form = MessageForm(request.POST)
        status = 400
        if form.is_valid():
            try:
                message = services.post_answer(
                    post=post, actor=request.user, body=form.cleaned_data["body"], now=now
                )
            except DomainError as exc:
                _form_error(form, exc)
                status = exc.status
            else:
                messages.success(request, "Your answer is sent.")
                return redirect(message.conversation.get_absolute_url())
    mine = request.user.is_authenticated and post.author_id == request.user.pk
    conversation = None
    if request.user.is_authenticated and not mine:
        conversation = PostConversation.objects.filter(post=post, answerer=request.user).first()
    return render(
        request,
        "leagues/directory/post.html",
        {
            "post": post,
            "author": selectors.user_label(post.author),
            "mine": mine,
            "live": post.status == DirectoryPost.Status.PUBLISHED and post.expires_at > now,
            "conversation": conversation,
            "conversations": (
                list(post.conversations.select_related("answerer__player")) if mine else []
            ),
            "form": form,
        },
        status=status,
    )


@login_required
@require_POST
def post_withdraw(request: HttpRequest, pk: int) -> HttpResponse:
    post = get_object_or_404(DirectoryPost.objects.select_related("league"), pk=pk)
    require_perm(request.user, services.WITHDRAW, post)
    try:
        services.post_withdraw(post=post, actor=request.user)
    except DomainError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, f"“{post.title}” is withdrawn.")
    return redirect("directory-mine")


@login_required
@require_safe
def mine(request: HttpRequest) -> HttpResponse:
    """The signed-in person's posts and conversations."""
    return render(
        request,
        "leagues/directory/mine.html",
        {
            "posts": list(selectors.my_posts(request.user)),
            "conversations": list(selectors.my_conversations(request.user)),
            "now": timezone.now(),
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def conversation(request: HttpRequest, pk: int) -> HttpResponse:
    """One exchange about a post, between its author and the person who answered."""
    try:
        found = selectors.conversation(pk)
    except PostConversation.DoesNotExist:
        raise Http404 from None
    require_perm(request.user, services.SEE_CONVERSATION, found)
    form = MessageForm()
    status = 200
    if request.method == "POST":
        form = MessageForm(request.POST)
        status = 400
        if form.is_valid():
            try:
                services.conversation_reply(
                    conversation=found, actor=request.user, body=form.cleaned_data["body"]
                )
            except DomainError as exc:
                _form_error(form, exc)
                status = exc.status
            else:
                return redirect(request.path)
    post = found.post
    names = {
        post.author_id: selectors.user_label(post.author),
        found.answerer_id: selectors.user_label(found.answerer),
    }
    lines = [
        (m, names.get(m.sender_id, "Someone"), m.sender_id == request.user.pk)
        for m in selectors.messages_of(found)
    ]
    return render(
        request,
        "leagues/directory/conversation.html",
        {
            "conversation": found,
            "post": post,
            "other": names[found.answerer_id]
            if request.user.pk == post.author_id
            else names[post.author_id],
            "lines": lines,
            "form": form,
        },
        status=status,
    )


# ------------------------------------------------------------------- moderation


@login_required
@require_safe
def league_posts(request: HttpRequest, league: str) -> HttpResponse:
    """The secretary's queue: the league's posts waiting, and the latest decided."""
    found = get_object_or_404(League, slug=league)
    require_perm(request.user, services.MODERATE, found)
    return render(
        request,
        "leagues/directory/moderate.html",
        {
            "league": found,
            "waiting": list(selectors.posts_waiting(league=found)),
            "decided": selectors.posts_moderated(league=found),
            "form": ModerateForm(),
        },
    )


@login_required
@require_POST
def post_moderate(request: HttpRequest, league: str, pk: int) -> HttpResponse:
    post = get_object_or_404(
        DirectoryPost.objects.select_related("league"), pk=pk, league__slug=league
    )
    require_perm(request.user, services.MODERATE, post.league)
    form = ModerateForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Choose publish or refuse.")
        return redirect("league-posts", league=league)
    try:
        if form.cleaned_data["action"] == "publish":
            services.post_publish(post=post, actor=request.user)
            messages.success(request, f"“{post.title}” is published.")
        else:
            services.post_refuse(post=post, actor=request.user, reason=form.cleaned_data["reason"])
            messages.success(request, f"“{post.title}” is refused.")
    except DomainError as exc:
        messages.error(request, exc.message)
    return redirect("league-posts", league=league)
