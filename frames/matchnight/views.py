"""Match-night pages: thin — look up, check permission (404/403), call one service or
selector, render. Commands answer with a redirect to the match page, or the match page
again with the error and the error's status (400, 403, 409)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import FileResponse, Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from frames import cards, selectors
from frames.models import SIDES, CardPhoto, Frame, Match, other_side
from leagues import eligibility as eligibility_rules
from leagues.availability import selectors as availability_selectors
from leagues.models import Fixture, League, Player
from leagues.selectors import roster as team_roster
from marker.errors import DomainError
from marker.permissions import require_perm

from . import card_photos, drawing, eligibility, nominating, ordering, seeding, signoff, squads
from .common import public_hats
from .forms import (
    CommitForm,
    DisputeForm,
    IneligibleForm,
    PresenceForm,
    RefereeForm,
    ReorderAnswerForm,
    ReorderForm,
    RevealForm,
    ScoresForm,
    SettleForm,
    SideForm,
)

UPLOAD_CARD = "frames.upload_card"
VIEW_CARD = "frames.view_card"

RUN = "frames.run_match"
CAPTAIN = "frames.captain_match"
SETTLE = "frames.settle_dispute"


def _get_match(pk: int) -> Match:
    return get_object_or_404(selectors.match_qs(), pk=pk)


def _form_message(form) -> str:
    errors = []
    for field, messages_ in form.errors.items():
        label = form.fields[field].label if field in form.fields else ""
        for message in messages_:
            errors.append(f"{label}: {message}" if label and field != "__all__" else message)
    return " ".join(errors) or "Some fields are not valid."


def _context(request, match_id: int, **extra):
    detail = selectors.match_detail(match_id)
    match = detail.match
    user = request.user
    my_sides = [side for side in SIDES if user.has_perm("frames.captain_team", match.team(side))]
    secretary = user.has_perm(SETTLE, match)
    setup = match.status == Match.Status.SETUP
    sides = {}
    # Who answered maybe when asked (leagues' availability): shown beside the present list
    # as suggestions to whoever marks it (one query, only then).
    maybes: dict[int, list[int]] = {}
    if setup and (my_sides or secretary):
        answers = availability_selectors.answers_for_match(match.fixture)
        maybes = {team_id: found["maybe"] for team_id, found in answers.items()}
    for side in SIDES:
        squad = detail.squads[side]
        can_mark = setup and (side in my_sides or secretary)
        sides[side] = {
            "side": side,
            "team": squad.team,
            "squad": squad,
            "can_mark": can_mark,
            "is_mine": side in my_sides,
            "maybe_ids": set(maybes.get(match.team(side).pk, [])) if can_mark else set(),
            "draftable": list(selectors.draftable_players(match, side)[:200]) if can_mark else [],
            "play_up": eligibility_rules.play_up_candidates(match.team(side)) if can_mark else [],
            "committed": bool(getattr(match, f"{side}_commitment")),
            "other_committed": bool(getattr(match, f"{other_side(side)}_commitment")),
            "revealed": bool(getattr(match, f"{side}_secret")),
            "commitment": getattr(match, f"{side}_commitment"),
            "made_by": detail.secret_made_by.get(side, ""),
            "short_agreed": getattr(match, f"short_agreed_{side}"),
            "redraw_asked": getattr(match, f"redraw_{side}_agreed"),
            "confirmed_at": getattr(match, f"{side}_confirmed_at"),
            "confirmed_by": getattr(match, f"{side}_confirmed_by"),
        }
    fmt = match.format
    nominating_format = fmt.nominated
    if nominating_format:
        for side in SIDES:
            _nomination_context(match, fmt, sides[side], setup, secretary)
    all_committed = bool(
        match.home_commitment and match.away_commitment and match.server_commitment
    )
    # A player who asked not to be named is shown in the hats and the notes by their
    # initials (the hats keep their order, so the draw still replays), except to those
    # running the night.
    hats = {side: list(getattr(match, f"{side}_hat")) for side in SIDES}
    notes = list(match.draw_notes)
    if not (my_sides or secretary):
        hats, rewrite = public_hats(detail)
        notes = rewrite(notes)
    context = {
        "hats": hats,
        "draw_notes": notes,
        "match": match,
        "fixture": match.fixture,
        "my_frames": selectors.frames_refereed_by(user, match=match),
        "detail": detail,
        "rows": detail.rows,
        "tally": detail.tally,
        "sides": [sides["home"], sides["away"]],
        "my_sides": my_sides,
        "is_secretary": secretary,
        "can_run": bool(my_sides) or secretary,
        "all_committed": all_committed,
        "can_draw": setup
        and all_committed
        and all(sides[s]["revealed"] for s in SIDES)
        and (bool(my_sides) or secretary),
        "short": any(0 < len(detail.squads[s].present) < match.format.min_players for s in SIDES),
        "proposal_by": match.reorder_proposed_by,
        "dispute_form": DisputeForm(),
        "started": detail.tally.started,
        "nominating": nominating_format,
        "share": cards.match_meta(match),
        # Sign-off's eligibility check (leagues.eligibility), for those running the night.
        "ineligible": (
            eligibility.ineligible_frames(match)
            if match.status in eligibility.SIGN_OFF and (my_sides or secretary)
            else []
        ),
    }
    context.update(extra)
    return context


def card_context(user, match: Match) -> dict:
    """The photos of the signed card as this viewer may see them, and whether they may add
    one; "No card received" when the fixture is overdue (docs/paper-card.md)."""
    can_view = user.has_perm(VIEW_CARD, match)
    photos = selectors.card_photos(match) if can_view else []
    now = timezone.now()
    return {
        "card_photos": photos,
        "can_view_card": can_view,
        "can_upload_card": user.has_perm(UPLOAD_CARD, match),
        "can_remove_cards": can_view and user.has_perm(SETTLE, match),
        # Past the deadline with no photo (asked of the database only when this viewer's
        # list of photos cannot say).
        "no_card": not photos
        and selectors.card_deadline_passed(match.fixture, now=now)
        and (can_view or not CardPhoto.objects.filter(match=match).exists()),
        "card_max_mb": card_photos.MAX_BYTES // 1024 // 1024,
    }


def _nomination_context(match, fmt, s: dict, setup: bool, secretary: bool) -> None:
    """A side's nomination as this viewer may see it (its own captain before both are in,
    everyone after), and the form its captain fills in."""
    side = s["side"]
    names = {p.player_id: p.player.name for p in s["squad"].present}
    viewer = side if s["is_mine"] else None
    shown = nominating.visible_nomination(match, side, viewer)
    s["nominated"] = getattr(match, f"{side}_nomination") is not None
    s["nomination_commitment"] = getattr(match, f"{side}_nomination_commitment")
    both = nominating.both_nominated(match)
    s["nomination_salt"] = getattr(match, f"{side}_nomination_salt") if both else ""
    s["nomination_json"] = nominating.canonical(shown) if both else ""
    rows: list[str] = []
    if shown is not None:
        if fmt.selection == "fixed":
            rows = [names.get(pk, f"#{pk}") for pk in shown]
        else:
            for index, section in enumerate(fmt.sections):
                for number, frame in zip(fmt.numbers(index), shown[index], strict=False):
                    who = " & ".join(names.get(pk, f"#{pk}") for pk in frame) or "conceded"
                    rows.append(f"{section.name}, frame {number}: {who}")
    s["nomination_rows"] = rows
    form: list[dict] = []
    if setup and s["is_mine"] and not nominating.both_nominated(match):
        if fmt.selection == "fixed":
            for n in range(1, fmt.lineup_size() + 1):
                selected = shown[n - 1] if shown and n <= len(shown) else None
                form.append({"name": f"pos-{n}", "label": f"Number {n}", "selected": selected})
        else:
            for index, section in enumerate(fmt.sections):
                for j, number in enumerate(fmt.numbers(index)):
                    for k in range(section.size):
                        try:
                            selected = shown[index][j][k] if shown else None
                        except (IndexError, TypeError):
                            selected = None
                        label = f"{section.name}, frame {number}"
                        if section.size > 1:
                            label += f", player {k + 1}"
                        form.append(
                            {"name": f"slot-{index}-{j}-{k}", "label": label, "selected": selected}
                        )
    s["nomination_form"] = form


def _match_page(request, match_id: int, *, status: int = 200, error: str = "", **extra):
    context = _context(request, match_id, error=error, **extra)
    context.update(card_context(request.user, context["match"]))
    return render(request, "frames/match.html", context, status=status)


def _run_command(request, pk: int, perm: str, form_class, action, **form_kwargs):
    """Look up, check the permission, parse the form, call the service, redirect."""
    match = _get_match(pk)
    require_perm(request.user, perm, match)
    form = form_class(request.POST, **form_kwargs)
    if not form.is_valid():
        return _match_page(request, match.pk, status=400, error=_form_message(form))
    try:
        message = action(match, form.cleaned_data, form)
    except DomainError as exc:
        return _match_page(request, match.pk, status=exc.status, error=exc.message)
    if message:
        messages.success(request, message)
    return redirect("match-detail", pk=match.pk)


# --------------------------------------------------------------------------- pages


@require_http_methods(["GET", "POST"])
def match_open(request, pk: int):
    """The fixture's match night: there if it is open; a captain or the secretary opens it."""
    fixture = get_object_or_404(
        Fixture.objects.select_related("home", "away", "venue", "season__league"), pk=pk
    )
    match = selectors.match_for_fixture(fixture)
    if request.method == "GET":
        if match is not None:
            return redirect("match-detail", pk=match.pk)
        can_open = request.user.has_perm("frames.open_match", fixture)
        return render(request, "frames/match_open.html", {"fixture": fixture, "can_open": can_open})
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    require_perm(request.user, "frames.open_match", fixture)
    try:
        match = squads.match_open(fixture=fixture, actor=request.user)
    except DomainError as exc:
        return render(
            request,
            "frames/match_open.html",
            {"fixture": fixture, "can_open": True, "error": exc.message},
            status=exc.status,
        )
    return redirect("match-detail", pk=match.pk)


@require_safe
def tonight(request):
    """Tonight: the matches being played, each with its live page (anyone), and the frames
    the signed-in user referees, each one tap from its pad. The header links here; the
    home page loads the panel (`?panel=1`) in place."""
    context = {
        "matches": selectors.matches_playing(),
        "my_frames": selectors.frames_refereed_by(request.user),
    }
    if request.GET.get("panel") == "1":
        return render(request, "frames/_tonight.html", context)
    return render(request, "frames/tonight.html", context)


@require_safe
def fixture_night(request, pk: int):
    """The fixture page's match-night links (loaded in place by htmx): the match page,
    its live page once drawn, and the pads of the frames this user referees."""
    fixture = get_object_or_404(
        Fixture.objects.select_related("home", "away", "season__league"), pk=pk
    )
    match = selectors.match_for_fixture(fixture)
    return render(
        request,
        "frames/_fixture_night.html",
        {
            "fixture": fixture,
            "match": match,
            "my_frames": (selectors.frames_refereed_by(request.user, match=match) if match else []),
            "no_card": selectors.card_deadline_passed(fixture, now=timezone.now())
            and selectors.fixture_without_card(fixture, now=timezone.now()),
        },
    )


@require_safe
def match_detail(request, pk: int):
    get_object_or_404(Match, pk=pk)
    return _match_page(request, pk)


@require_safe
def match_scorecard(request, pk: int):
    """The live part of the match page (readiness and scorecard), polled by htmx."""
    get_object_or_404(Match, pk=pk)
    return render(request, "frames/_match_live.html", _context(request, pk))


@require_safe
def match_sheet(request, pk: int):
    """The printable score sheet: the draw, the referees and a blank shot grid."""
    detail = selectors.match_detail(_get_match(pk).pk)
    return render(
        request,
        "frames/match_sheet.html",
        {
            "match": detail.match,
            "fixture": detail.match.fixture,
            "detail": detail,
            "rows": detail.rows or None,
            "blank_frames": selectors.blank_frames(detail.match.format),
            "visits": range(1, 13),
            **card_context(request.user, detail.match),
        },
    )


# --------------------------------------------------------------------------- commands


@login_required
@require_POST
def match_presence(request, pk: int):
    match = _get_match(pk)
    require_perm(request.user, RUN, match)
    side = request.POST.get("side", "")
    roster = [r.player for r in team_roster(match.team(side))] if side in SIDES else []
    form = PresenceForm(request.POST, roster=roster)
    if not form.is_valid():
        return _match_page(request, match.pk, status=400, error=_form_message(form))
    try:
        squads.match_mark_present(
            match=match,
            side=form.cleaned_data["side"],
            players=[*form.cleaned_data["players"], *form.cleaned_data["draft"]],
            new_players=form.new_names(),
            actor=request.user,
        )
    except DomainError as exc:
        return _match_page(request, match.pk, status=exc.status, error=exc.message)
    messages.success(request, f"Squad saved for {match.team(form.cleaned_data['side']).name}.")
    return redirect("match-detail", pk=match.pk)


@login_required
@require_POST
def match_commit(request, pk: int):
    def action(match, data, form):
        seeding.match_commit(
            match=match, side=data["side"], commitment=data["commitment"], actor=request.user
        )
        return "Ready. The draw can start once both captains are ready."

    return _run_command(request, pk, CAPTAIN, CommitForm, action)


@login_required
@require_POST
def match_nominate(request, pk: int):
    """A captain submits their side's blind nomination or numbered lineup."""
    match = _get_match(pk)
    require_perm(request.user, CAPTAIN, match)
    side = request.POST.get("side", "")
    fmt = match.format
    try:
        picked = Player.objects.in_bulk(
            [int(v) for k, v in request.POST.items() if k.startswith(("pos-", "slot-")) and v]
        )
        if fmt.selection == "fixed":
            lineup = []
            for n in range(1, fmt.lineup_size() + 1):
                value = request.POST.get(f"pos-{n}", "")
                if value:
                    lineup.append(picked[int(value)])
            nominating.match_nominate(match=match, side=side, lineup=lineup, actor=request.user)
        else:
            sections = []
            for index, section in enumerate(fmt.sections):
                frames = []
                for j in range(section.frames):
                    values = [
                        request.POST.get(f"slot-{index}-{j}-{k}", "") for k in range(section.size)
                    ]
                    frames.append([picked[int(v)] for v in values if v])
                sections.append(frames)
            nominating.match_nominate(match=match, side=side, sections=sections, actor=request.user)
    except (ValueError, KeyError):
        return _match_page(request, match.pk, status=400, error="Choose players from the list.")
    except DomainError as exc:
        return _match_page(request, match.pk, status=exc.status, error=exc.message)
    messages.success(request, "Submitted. It stays sealed until the other captain's is in too.")
    return redirect("match-detail", pk=match.pk)


@login_required
@require_POST
def match_reveal(request, pk: int):
    def action(match, data, form):
        seeding.match_reveal(
            match=match, side=data["side"], secret=data["secret"], actor=request.user
        )
        return "Your secret is revealed and checked against your commitment."

    return _run_command(request, pk, CAPTAIN, RevealForm, action)


@login_required
@require_POST
def match_restart_ready(request, pk: int):
    def action(match, data, form):
        seeding.match_restart_ready(match=match, side=data["side"], actor=request.user)
        return "Ready starts again: both captains press Ready, and the server has a new secret."

    return _run_command(request, pk, CAPTAIN, SideForm, action)


@login_required
@require_POST
def match_agree_short(request, pk: int):
    def action(match, data, form):
        squads.match_agree_short(match=match, side=data["side"], actor=request.user)
        return "Your agreement to play short is recorded."

    return _run_command(request, pk, CAPTAIN, SideForm, action)


@login_required
@require_POST
def match_draw(request, pk: int):
    match = _get_match(pk)
    require_perm(request.user, RUN, match)
    try:
        drawing.match_draw(match=match, actor=request.user)
    except DomainError as exc:
        return _match_page(request, match.pk, status=exc.status, error=exc.message)
    messages.success(request, "The frames are drawn.")
    return redirect("match-detail", pk=match.pk)


@login_required
@require_POST
def match_redraw(request, pk: int):
    def action(match, data, form):
        match = drawing.match_request_redraw(match=match, side=data["side"], actor=request.user)
        if match.status == Match.Status.SETUP:
            return "Both captains asked: the draw is set aside. Press Ready again for a new one."
        return "Re-draw requested: it happens when the other captain asks too."

    return _run_command(request, pk, CAPTAIN, SideForm, action)


@login_required
@require_http_methods(["GET", "POST"])
def match_reorder(request, pk: int):
    match = _get_match(pk)
    require_perm(request.user, CAPTAIN, match)
    frames = list(Frame.objects.filter(match=match).order_by("order"))
    my_sides = [s for s in SIDES if request.user.has_perm("frames.captain_team", match.team(s))]
    form = ReorderForm(
        request.POST if request.method == "POST" else None,
        frames=frames,
        initial={"side": my_sides[0] if my_sides else ""},
    )
    error, status = "", 200
    if request.method == "POST":
        if form.is_valid():
            try:
                ordering.match_reorder(
                    match=match,
                    side=form.cleaned_data["side"],
                    order=form.order(),
                    actor=request.user,
                )
            except DomainError as exc:
                error, status = exc.message, exc.status
            else:
                messages.success(request, "Proposed. The other captain must accept it.")
                return redirect("match-detail", pk=match.pk)
        else:
            error, status = _form_message(form), 400
    return render(
        request,
        "frames/match_reorder.html",
        {"match": match, "fixture": match.fixture, "form": form, "frames": frames, "error": error},
        status=status,
    )


@login_required
@require_POST
def match_reorder_answer(request, pk: int):
    def action(match, data, form):
        if data["answer"] == "accept":
            ordering.match_reorder_accept(match=match, side=data["side"], actor=request.user)
            return "The new order of play is agreed."
        ordering.match_reorder_reject(match=match, side=data["side"], actor=request.user)
        return "The proposed order is turned down."

    return _run_command(request, pk, CAPTAIN, ReorderAnswerForm, action)


@login_required
@require_http_methods(["GET", "POST"])
def match_referee(request, pk: int, number: int):
    match = _get_match(pk)
    require_perm(request.user, RUN, match)
    frame = get_object_or_404(
        Frame.objects.select_related("referee").prefetch_related("players__player"),
        match=match,
        number=number,
    )
    present = [p.player for p in match.presences.select_related("player")]
    form = RefereeForm(
        request.POST if request.method == "POST" else None,
        present=present,
        initial={"player": frame.referee_id},
    )
    error, status = "", 200
    if request.method == "POST":
        if form.is_valid():
            try:
                drawing.match_set_referee(
                    frame=frame, player=form.cleaned_data["player"], actor=request.user
                )
            except DomainError as exc:
                error, status = exc.message, exc.status
            else:
                messages.success(request, f"Frame {frame.number} has a new referee.")
                return redirect("match-detail", pk=match.pk)
        else:
            error, status = _form_message(form), 400
    return render(
        request,
        "frames/match_referee.html",
        {"match": match, "fixture": match.fixture, "frame": frame, "form": form, "error": error},
        status=status,
    )


@login_required
@require_http_methods(["GET", "POST"])
def match_paper(request, pk: int):
    """Key in a paper score sheet's frame scores (when the phones died)."""
    match = _get_match(pk)
    require_perm(request.user, RUN, match)
    frames = list(Frame.objects.filter(match=match).prefetch_related("players__player"))
    form = ScoresForm(request.POST if request.method == "POST" else None, frames=frames)
    error, status = "", 200
    if request.method == "POST":
        if form.is_valid():
            try:
                signoff.match_key_in_paper(match=match, scores=form.scores(), actor=request.user)
            except DomainError as exc:
                error, status = exc.message, exc.status
            else:
                messages.success(request, "The paper scores are in.")
                return redirect("match-detail", pk=match.pk)
        else:
            error, status = _form_message(form), 400
    return render(
        request,
        "frames/match_paper.html",
        {"match": match, "fixture": match.fixture, "form": form, "error": error},
        status=status,
    )


@login_required
@require_POST
def match_confirm(request, pk: int):
    def action(match, data, form):
        match = signoff.match_confirm(match=match, side=data["side"], actor=request.user)
        if match.status == Match.Status.CONFIRMED:
            return "Both captains confirmed: the result counts in the league."
        return "Confirmed for your side; waiting for the other captain."

    return _run_command(request, pk, CAPTAIN, SideForm, action)


@login_required
@require_POST
def match_dispute(request, pk: int):
    def action(match, data, form):
        signoff.match_dispute(
            match=match, side=data["side"], reason=data["reason"], actor=request.user
        )
        return "Disputed. The secretary will settle it."

    return _run_command(request, pk, CAPTAIN, DisputeForm, action)


@login_required
@require_http_methods(["GET", "POST"])
def match_settle(request, pk: int):
    match = _get_match(pk)
    require_perm(request.user, SETTLE, match)
    frames = list(Frame.objects.filter(match=match).prefetch_related("players__player"))
    form = SettleForm(request.POST if request.method == "POST" else None, frames=frames)
    error, status = "", 200
    if request.method == "POST":
        if form.is_valid():
            try:
                signoff.match_settle(
                    match=match,
                    actor=request.user,
                    decision=form.cleaned_data["decision"],
                    note=form.cleaned_data["note"],
                    scores=form.scores(),
                )
            except DomainError as exc:
                error, status = exc.message, exc.status
            else:
                messages.success(request, "Settled: the result counts in the league.")
                return redirect("match-detail", pk=match.pk)
        else:
            error, status = _form_message(form), 400
    return render(
        request,
        "frames/match_settle.html",
        {
            "match": match,
            "fixture": match.fixture,
            "form": form,
            "error": error,
            **card_context(request.user, match),
        },
        status=status,
    )


# --------------------------------------------------------------------------- the paper card


@login_required
@require_POST
def match_card_upload(request, pk: int):
    """A photo of the signed card, from the match page (a phone's camera)."""
    match = _get_match(pk)
    require_perm(request.user, UPLOAD_CARD, match)
    upload = request.FILES.get("photo")
    if upload is None:
        return _match_page(request, match.pk, status=400, error="Choose a photo of the card.")
    try:
        card_photos.card_photo_add(match=match, upload=upload, size=upload.size, actor=request.user)
    except DomainError as exc:
        return _match_page(request, match.pk, status=exc.status, error=exc.message)
    messages.success(request, "The photo of the card is stored (without its location).")
    target = "match-settle" if request.POST.get("next") == "settle" else "match-detail"
    return redirect(target, pk=match.pk)


@login_required
@require_POST
def card_photo_delete(request, pk: int):
    photo = get_object_or_404(CardPhoto.objects.select_related("match__fixture__season"), pk=pk)
    require_perm(request.user, VIEW_CARD, photo.match)
    try:
        card_photos.card_photo_delete(photo=photo, actor=request.user)
    except DomainError as exc:
        return _match_page(request, photo.match_id, status=exc.status, error=exc.message)
    messages.success(request, "The photo is removed.")
    return redirect("match-detail", pk=photo.match_id)


@require_safe
def card_photo(request, pk: int, size: str = "full"):
    """A card photo's image, read through the storage (never a public media URL): to the
    viewers `frames.view_card` allows; 404 to the public (it does not say one exists)."""
    photo = get_object_or_404(
        CardPhoto.objects.select_related("match__fixture__home", "match__fixture__away"),
        pk=pk,
    )
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    require_perm(request.user, VIEW_CARD, photo.match)
    field = photo.thumbnail if size == "thumb" else photo.image
    try:
        handle = field.storage.open(field.name, "rb")
    except (FileNotFoundError, OSError) as exc:
        raise Http404("The photo is missing from the storage.") from exc
    response = FileResponse(handle, content_type="image/jpeg")
    response["Cache-Control"] = "private, max-age=86400"
    response["Content-Disposition"] = f'inline; filename="card-{photo.match_id}-{photo.pk}.jpg"'
    return response


@login_required
@require_safe
def league_no_card(request, league: str):
    """The secretary's list of fixtures with no result and no photo of their card past the
    league's deadline ("No card received")."""
    league_obj = get_object_or_404(League, slug=league)
    require_perm(request.user, SETTLE, league_obj)
    fixtures = list(
        selectors.fixtures_without_card(
            now=timezone.now(), league_id=league_obj.pk, hours=league_obj.no_card_after_hours
        ).select_related("match")
    )
    return render(
        request,
        "frames/league_no_card.html",
        {"league": league_obj, "fixtures": fixtures},
    )


@login_required
@require_POST
def match_ineligible(request, pk: int):
    """The secretary's decision on a frame played by an ineligible player: apply the
    forfeit (the result is corrected and confirmed) or waive it, with a note."""

    def action(match, data, form):
        player = get_object_or_404(Player, pk=data["player"])
        eligibility.match_ineligible_decide(
            match=match,
            frame_number=data["frame"],
            player=player,
            decision=data["decision"],
            note=data["note"],
            actor=request.user,
        )
        if data["decision"] == eligibility.FORFEIT:
            return f"Frame {data['frame']} is forfeited to the opponents; the result is corrected."
        return f"The forfeit of frame {data['frame']} is waived; the result stands."

    return _run_command(request, pk, SETTLE, IneligibleForm, action)
