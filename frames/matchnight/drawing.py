"""The draw and the referees: the nine frames drawn from the seed (frames.draw does the
pure part), a re-draw by both captains' agreement, and a referee changed by hand."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction

from frames.draw import (
    DrawError,
    DrawnFrame,
    draw_match,
    reassign_referees,
)
from frames.engine import service_draws, side_setup
from frames.models import (
    SIDES,
    Frame,
    FramePlayer,
    Match,
    MatchLog,
    Presence,
)
from frames.results import (
    frame_winner,
    lock_match,
    update_result,
)
from leagues.models import Player
from leagues.teams.eligibility_services import appearance_record
from marker import commit_reveal
from marker.errors import DomainError
from rules.vocabulary import RuleError

from .common import (
    BOTH,
    OPEN,
    User,
    frame_names,
    frames_started,
    new_server_secret,
    present_players,
    require_captain,
    require_runner,
    require_status,
    resolve_now,
)
from .nominating import both_nominated, nomination_labels
from .seeding import all_committed


def _frame_setup(
    drawn: DrawnFrame,
    present: dict[str, dict[str, Player]],
    game_id: str,
    options: dict[str, Any],
    version: int,
) -> tuple[dict[str, Any], dict[str, str]]:
    """The engine setup of a drawn frame (its players by their hat labels, or their
    initials for those who asked not to be named: `frame_names`; the season's options for
    the game) and which side each party plays for. A frame a short side concedes is not
    played: the engine's verdict on it is not asked."""
    names = frame_names(
        {side: [(label, present[side][label]) for label in drawn.players(side)] for side in SIDES}
    )
    if drawn.conceded_by:
        return {}, {side: side for side in SIDES}
    try:
        return side_setup(game_id, names, options, version, rng=service_draws())
    except RuleError as exc:
        raise DomainError("bad_setup", f"Frame {drawn.number}: {exc}") from None


@transaction.atomic
def match_draw(*, match: Match, actor: User, now: datetime | None = None) -> Match:
    """Draw the frames of the match's format (Norwich's nine by default). The server
    reveals its secret; the seed is derive_seed(home_secret, away_secret, server_secret);
    frames.draw does the rest, with the captains' nominations where the format takes
    them (blind or fixed order: both must be in). Each frame gets its game, players,
    engine setup, referee (by the format's rule) and status (conceded where a short side
    cannot fill it); every player drawn to play is marked as played for their team
    (drafting those off the roster, rule 8)."""
    now = resolve_now(now)
    match = lock_match(match)
    require_runner(match, actor, "start the draw")
    require_status(match, Match.Status.SETUP)
    present = present_players(match)
    for side in SIDES:
        if not present[side]:
            raise DomainError(
                "empty_squad", f"Nobody is marked present for {match.team(side).name}."
            )
    agreed = match.short_agreed_home and match.short_agreed_away
    fmt = match.format
    for side in SIDES:
        if len(present[side]) < fmt.min_players and not agreed:
            raise DomainError(
                "too_few_players",
                f"{match.team(side).name} has {len(present[side])} players present: {fmt.rule_citation} "
                f"needs {'five' if fmt.min_players == 5 else fmt.min_players} a side unless "
                "both captains record their agreement to play.",
            )
    nominations = None
    if fmt.nominated:
        if not both_nominated(match):
            missing = [s for s in SIDES if getattr(match, f"{s}_nomination") is None]
            raise DomainError(
                "not_all_nominated",
                "Both captains must submit their nomination before the frames are laid out "
                f"(waiting for: {', '.join(match.team(s).name for s in missing)}).",
            )
        nominations = {
            s: nomination_labels(match, s, getattr(match, f"{s}_nomination")) for s in SIDES
        }
    if not all_committed(match):
        missing = [s for s in SIDES if not getattr(match, f"{s}_commitment")]
        raise DomainError(
            "not_all_committed",
            "Both captains must press Ready before the draw "
            f"(waiting for: {', '.join(match.team(s).name for s in missing)}).",
        )
    unrevealed = [s for s in SIDES if not getattr(match, f"{s}_secret")]
    if unrevealed:
        raise DomainError(
            "not_revealed",
            "Waiting for the secret of: "
            f"{', '.join(match.team(s).name for s in unrevealed)} (their phone reveals it).",
        )
    if not commit_reveal.verify(match.server_secret, match.server_commitment):
        raise DomainError(
            "server_secret_mismatch",
            "The server's secret does not match its commitment; the draw cannot go ahead.",
            status=500,
        )
    seed = commit_reveal.derive_seed(match.home_secret, match.away_secret, match.server_secret)
    try:
        draw = draw_match(
            list(present["home"]),
            list(present["away"]),
            seed,
            agreed=agreed,
            match_format=fmt,
            nominations=nominations,
        )
    except DrawError as exc:
        raise DomainError(exc.code, exc.message) from None

    options = match.fixture.season.game_options
    version = match.fixture.season.rules_version  # the season's pinned rules
    frames, slots = [], []
    for position, drawn in enumerate(draw.frames, start=1):
        conceded = drawn.conceded_by
        # Checked here (setup_for starts the engine); the state is the pad's to keep.
        setup, parties = _frame_setup(drawn, present, match.game_id, options, version)
        frame = Frame(
            match=match,
            number=drawn.number,
            order=position,
            kind=drawn.kind,
            game_id=match.game_id,
            rules_version=version,
            setup=setup,
            parties=parties,
        )
        if conceded:
            frame.status = Frame.Status.CONCEDED
            frame.conceded_by = BOTH if len(conceded) == 2 else conceded[0]
            frame.completed_at = now
            frame.winner = frame_winner(frame)
        if drawn.referee is not None:
            frame.referee = present[drawn.referee.side][drawn.referee.player]
            frame.referee_side = drawn.referee.side
            frame.referee_note = relaxed_note(drawn.referee.rule_relaxed)
        frames.append(frame)
        for side in SIDES:
            for index, label in enumerate(drawn.players(side), start=1):
                slots.append((frame, side, index, present[side][label]))
    Frame.objects.bulk_create(frames)
    FramePlayer.objects.bulk_create(
        [FramePlayer(frame=f, side=s, position=i, player=p) for f, s, i, p in slots]
    )
    played = {(side, player.pk): player for _, side, _, player in slots}
    for (side, _), player in sorted(played.items(), key=lambda kv: kv[0]):
        appearance_record(team=match.team(side), player=player, fixture=match.fixture, now=now)

    match.seed = seed
    match.algorithm = draw.algorithm
    match.home_hat = list(draw.home_hat)
    match.away_hat = list(draw.away_hat)
    match.draw_notes = list(draw.notes)
    match.drawn_at = now
    match.status = Match.Status.DRAWN
    match.redraw_home_agreed = match.redraw_away_agreed = False
    match.reorder_proposal, match.reorder_proposed_by = [], ""
    match.save(
        update_fields=[
            "seed",
            "algorithm",
            "home_hat",
            "away_hat",
            "draw_notes",
            "drawn_at",
            "status",
            "redraw_home_agreed",
            "redraw_away_agreed",
            "reorder_proposal",
            "reorder_proposed_by",
        ]
    )
    MatchLog.add(
        match,
        actor,
        "drawn",
        now,
        seed=str(seed),
        algorithm=draw.algorithm,
        agreed_short=agreed,
        secrets={s: getattr(match, f"{s}_secret") for s in (*SIDES, "server")},
        commitments={s: getattr(match, f"{s}_commitment") for s in (*SIDES, "server")},
        players={side: {label: p.pk for label, p in present[side].items()} for side in SIDES},
        draw=draw.to_json(),
    )
    return update_result(match)


def relaxed_note(rule_relaxed: str | None) -> str:
    notes = {
        "one_frame_each": "also referees another frame (too few players free)",
        "side_rotation": "from the other side (the rota side's players all play)",
    }
    return "; ".join(notes.get(code, code) for code in (rule_relaxed or "").split(",") if code)


@transaction.atomic
def match_request_redraw(
    *, match: Match, side: str, actor: User, now: datetime | None = None
) -> Match:
    """A captain asks for the draw to be done again. Once both have asked (and no frame
    has started), the draw is set aside — it stays in the log — and the match goes back
    to Ready: a new draw needs a fresh seed, so new secrets from both captains and the
    server. Asking twice changes nothing."""
    now = resolve_now(now)
    match = lock_match(match, frames=True)
    require_captain(match, side, actor, "ask for a re-draw for this side")
    require_status(match, Match.Status.DRAWN)
    if frames_started(match):
        raise DomainError(
            "frames_started", "A frame has started: the draw can no longer be redone."
        )
    field = f"redraw_{side}_agreed"
    if getattr(match, field):
        return match
    setattr(match, field, True)
    match.save(update_fields=[field])
    MatchLog.add(match, actor, "redraw_requested", now, side=side)
    if match.redraw_home_agreed and match.redraw_away_agreed:
        _reset_draw(match, actor, now)
    return match


def _reset_draw(match: Match, actor: User, now: datetime) -> None:
    old = {
        "seed": str(match.seed),
        "algorithm": match.algorithm,
        "secrets": {s: getattr(match, f"{s}_secret") for s in (*SIDES, "server")},
        "home_hat": match.home_hat,
        "away_hat": match.away_hat,
        "frames": [
            {
                "number": f.number,
                "order": f.order,
                "status": f.status,
                "players": {
                    s: [fp.player_id for fp in f.players.all() if fp.side == s] for s in SIDES
                },
                "referee": f.referee_id,
            }
            for f in Frame.objects.filter(match=match).prefetch_related("players")
        ],
    }
    FramePlayer.objects.filter(frame__match=match).delete()
    Frame.objects.filter(match=match).delete()
    for s in SIDES:
        setattr(match, f"{s}_commitment", "")
        setattr(match, f"{s}_secret", "")
    new_server_secret(match)
    match.seed = None
    match.algorithm = ""
    match.home_hat, match.away_hat, match.draw_notes = [], [], []
    match.drawn_at = None
    match.status = Match.Status.SETUP
    match.redraw_home_agreed = match.redraw_away_agreed = False
    match.reorder_proposal, match.reorder_proposed_by = [], ""
    match.home_frames = match.away_frames = 0
    match.home_score = match.away_score = 0
    match.save()
    MatchLog.add(
        match, actor, "redrawn", now, previous=old, server_commitment=match.server_commitment
    )


def resolve_referees(match: Match, frames_in_order: list[Frame]) -> tuple[str, ...]:
    present = present_players(match)
    label_of = {(side, p.pk): label for side in SIDES for label, p in present[side].items()}
    drawn = []
    for frame in frames_in_order:
        names = {
            s: tuple(label_of[(s, fp.player_id)] for fp in frame.players.all() if fp.side == s)
            for s in SIDES
        }
        conceded = (
            ()
            if frame.status != Frame.Status.CONCEDED
            else SIDES
            if frame.conceded_by == BOTH
            else (frame.conceded_by,)
        )
        drawn.append(
            DrawnFrame(
                frame.number, frame.kind, names["home"], names["away"], None, tuple(conceded)
            )
        )
    assert match.seed is not None  # a drawn match has its seed
    solved, notes = reassign_referees(
        drawn, list(present["home"]), list(present["away"]), match.seed
    )
    for frame, result in zip(frames_in_order, solved, strict=True):
        referee = result.referee
        frame.referee = None if referee is None else present[referee.side][referee.player]
        frame.referee_side = "" if referee is None else referee.side
        frame.referee_note = "" if referee is None else relaxed_note(referee.rule_relaxed)
        frame.save(update_fields=["referee", "referee_side", "referee_note"])
    return notes


@transaction.atomic
def match_set_referee(
    *, frame: Frame, player: Player, actor: User, now: datetime | None = None
) -> Frame:
    """Appoint another referee for a frame not yet finished: a present player who does not
    play in it, chosen by a captain of that player's side or by the secretary."""
    now = resolve_now(now)
    frame = Frame.objects.select_for_update().get(pk=frame.pk)
    if frame.match is None:
        raise DomainError("not_a_league_frame", "A friendly game has no referee to appoint.")
    match = lock_match(frame.match)
    require_status(match, *OPEN)
    if frame.status not in (Frame.Status.SCHEDULED, Frame.Status.IN_PLAY):
        raise DomainError(
            "frame_finished",
            f"Frame {frame.number} is {frame.get_status_display().lower()}: its referee stays.",
        )
    presence = Presence.objects.filter(match=match, player=player).first()
    if presence is None:
        raise DomainError(
            "not_present",
            f"{player.name} is not marked present tonight: a referee is one of the players present.",
            field="player",
        )
    require_captain(
        match, presence.side, actor, "appoint this side's players as referees", secretary=True
    )
    if FramePlayer.objects.filter(frame=frame, player=player).exists():
        raise DomainError(
            "referee_plays_frame",
            f"{player.name} plays in frame {frame.number} and cannot referee it (rule 6).",
            field="player",
        )
    if frame.referee_id == player.pk:
        return frame
    also = list(
        Frame.objects.filter(match=match, referee=player)
        .exclude(pk=frame.pk)
        .values_list("number", flat=True)
    )
    previous = frame.referee_id
    frame.referee = player
    frame.referee_side = presence.side
    frame.referee_note = f"also referees frame {', '.join(map(str, also))}" if also else ""
    frame.save(update_fields=["referee", "referee_side", "referee_note"])
    MatchLog.add(
        match,
        actor,
        "referee_changed",
        now,
        frame=frame.number,
        previous=previous,
        referee=player.pk,
        side=presence.side,
        also_referees=also,
    )
    return frame
