"""Every write of match night. Each function is one transaction, keyword-only, and raises
DomainError (a stable code and a message for people) having changed nothing.

The night runs: open → mark who is present → each captain presses Ready (commits to a
secret) → reveal → draw (the server reveals its own secret; the seed is derived from all
three) → frames are played on the pad or keyed in from paper → both captains confirm, or
one disputes and the secretary settles (or the league's period passes and the result is
confirmed automatically) → the result is written onto the fixture. Every step is logged to
MatchLog: who, what, when. docs/match-night.md explains the choices.
"""

from __future__ import annotations

import re
import secrets
import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from leagues.errors import DomainError
from leagues.models import Fixture, Player, Registration
from leagues.permissions import is_secretary, is_team_captain
from leagues.services import (
    _drafted_rule_error,  # leagues' rule-8 message, shared so both apps say the same
    _other_team_of,  # leagues' rule-8 check, without marking the player as played
    fixture_record_result,
    registration_mark_played,
    roster_add_player,
)
from rules import registry
from rules.core import RuleError

from .draw import (
    ALGORITHM_VERSION,
    MINIMUM_PLAYERS,
    DrawError,
    DrawnFrame,
    derive_seed,
    draw_match,
    reassign_referees,
)
from .draw import commitment as sha256_commitment
from .models import Frame, FrameEvent, FramePlayer, Match, MatchLog, Presence, Side
from .selectors import (
    SIDES,
    frame_winner,
    matches_awaiting_confirmation,
    other_side,
    tally,
)

User = Any  # settings.AUTH_USER_MODEL instance (or None for the system)

#: A frame conceded by both short sides (the model stores one word).
BOTH = "both"
FRAME_NUMBERS = tuple(range(1, 10))
_HEX64 = re.compile(r"^[0-9a-f]{64}$")
_OPEN = (Match.Status.DRAWN, Match.Status.IN_PLAY)


# --------------------------------------------------------------------------- helpers


def _now(now: datetime | None) -> datetime:
    return now or timezone.now()


def _log(match: Match, actor: User, action: str, at: datetime, **detail: Any) -> MatchLog:
    return MatchLog.objects.create(
        match=match,
        actor=actor if getattr(actor, "is_authenticated", False) else None,
        action=action,
        detail=detail,
        at=at,
    )


def _lock(match: Match, *, frames: bool = False) -> Match:
    """The match row, locked for this transaction (two captains press at once).

    With `frames`, the match's frames are locked first: the pad locks a frame, then the
    match (frames.events.frame_confirm), so every service takes them in that order.
    """
    if frames:
        list(
            Frame.objects.select_for_update()
            .filter(match_id=match.pk)
            .order_by("pk")
            .values_list("pk", flat=True)
        )
    return (
        Match.objects.select_for_update(of=("self",))
        .select_related("fixture__home", "fixture__away", "fixture__season__league")
        .get(pk=match.pk)
    )


def _check_side(side: str) -> str:
    if side not in SIDES:
        raise DomainError("bad_side", f"A side is 'home' or 'away', not {side!r}.", field="side")
    return side


def _require_captain(match: Match, side: str, actor: User, doing: str, *, secretary: bool = False):
    """Only the side's captain or vice-captain (or, where allowed, the secretary)."""
    _check_side(side)
    if secretary and is_secretary(actor):
        return
    if not is_team_captain(actor, match.team(side)):
        who = f"{match.team(side).name}'s captain or vice-captain"
        raise DomainError(
            "not_captain",
            f"Only {who}{' or the secretary' if secretary else ''} can {doing}.",
            status=403,
        )


def _require_runner(match: Match, actor: User, doing: str) -> None:
    """A captain of either side, or the secretary."""
    if is_secretary(actor) or any(is_team_captain(actor, match.team(s)) for s in SIDES):
        return
    raise DomainError(
        "not_captain", f"Only a captain of either team or the secretary can {doing}.", status=403
    )


def _require_status(match: Match, *allowed: str) -> None:
    if match.status in allowed:
        return
    messages = {
        Match.Status.SETUP: ("not_drawn", "The match has not been drawn yet."),
        Match.Status.DRAWN: ("already_drawn", "The match has been drawn."),
        Match.Status.IN_PLAY: ("in_play", "The match is being played."),
        Match.Status.COMPLETE: (
            "complete",
            "Every frame is finished; the result awaits confirmation.",
        ),
        Match.Status.DISPUTED: (
            "match_disputed",
            "The result is disputed; the secretary settles it.",
        ),
        Match.Status.CONFIRMED: (
            "already_confirmed",
            "The result is confirmed; it can no longer change.",
        ),
    }
    code, message = messages[match.status]
    raise DomainError(code, message, status=409)


def _name_key(name: str) -> str:
    """Names people read as the same (the draw refuses them in one hat)."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def player_labels(players: Iterable[Player]) -> dict[str, Player]:
    """A side's hat: one stable, unique label per player. The label is the player's name;
    two present players whose names read the same both get their id appended, so the draw
    depends only on who is present and the seed.

    >>> sorted(player_labels([Player(pk=3, name="Dave"), Player(pk=4, name="dave ")]))
    ['Dave #3', 'dave #4']
    """
    players = list(players)
    keys = Counter(_name_key(p.name) for p in players)
    labels = {}
    for player in sorted(players, key=lambda p: p.pk):
        name = " ".join(player.name.split())
        labels[
            name if name and keys[_name_key(name)] == 1 else f"{name or 'Player'} #{player.pk}"
        ] = player
    return labels


def _present(match: Match) -> dict[str, dict[str, Player]]:
    """Label → player for each side's present players."""
    by_side: dict[str, list[Player]] = {side: [] for side in SIDES}
    for presence in Presence.objects.filter(match=match).select_related("player"):
        by_side[presence.side].append(presence.player)
    return {side: player_labels(players) for side, players in by_side.items()}


def _new_server_secret(match: Match) -> None:
    match.server_secret = secrets.token_hex(16)
    match.server_commitment = sha256_commitment(match.server_secret)


def _check_score(value: Any, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0 or value % 10:
        raise DomainError(
            "bad_score",
            f"A frame score is a whole number of points, 0 or more, in tens (not {value!r}).",
            field=field,
        )
    return value


def _clear_confirmations(match: Match) -> list[str]:
    cleared = []
    for side in SIDES:
        if getattr(match, f"{side}_confirmed_at") is not None:
            setattr(match, f"{side}_confirmed_by", None)
            setattr(match, f"{side}_confirmed_at", None)
            cleared.append(side)
    return cleared


def _frames_started(match: Match) -> bool:
    return (
        Frame.objects.filter(match=match)
        .exclude(status__in=[Frame.Status.SCHEDULED, Frame.Status.CONCEDED])
        .exists()
        or FrameEvent.objects.filter(frame__match=match).exists()
    )


# --------------------------------------------------------------------------- opening


@transaction.atomic
def match_open(*, fixture: Fixture, actor: User = None, now: datetime | None = None) -> Match:
    """The Match of a fixture, created on first call (safe to call again). Its game is
    the league's; the server commits to its own secret for the draw at once."""
    now = _now(now)
    fixture = (
        Fixture.objects.select_for_update(of=("self",))
        .select_related("home", "away", "season__league")
        .get(pk=fixture.pk)
    )
    existing = Match.objects.filter(fixture=fixture).first()
    if existing is not None:
        return existing
    match = Match(fixture=fixture, game_id=fixture.season.league.game_id)
    if actor is not None:
        _require_runner(match, actor, "open match night")
    if fixture.status == Fixture.Status.POSTPONED:
        raise DomainError(
            "fixture_postponed", "This fixture is postponed: move it to a date first."
        )
    if fixture.result_confirmed_at is not None:
        raise DomainError("already_played", "This fixture already has a confirmed result.")
    try:
        registry.get(match.game_id)
    except KeyError:
        raise DomainError(
            "unknown_game", f"The league's game {match.game_id!r} is not one Marker knows."
        ) from None
    _new_server_secret(match)
    match.save()
    _log(match, actor, "opened", now, game=match.game_id, server_commitment=match.server_commitment)
    return match


# --------------------------------------------------------------------------- squads


@transaction.atomic
def match_mark_present(
    *,
    match: Match,
    side: str,
    players: Iterable[Player],
    actor: User,
    new_players: Iterable[str] = (),
    now: datetime | None = None,
) -> Match:
    """Set who is present for a side (the whole list: calling again with the same list
    changes nothing). Players come from the team's roster, or are drafted: a player on
    no other team's roster who has not played for another team this season (rule 8);
    `new_players` are names of newcomers, put on the roster as drafted players. A change
    withdraws the side's Ready (its commitment), since Ready means "these are my players".
    """
    now = _now(now)
    match = _lock(match)
    _require_captain(match, side, actor, "mark who is present for this side", secretary=True)
    _require_status(match, Match.Status.SETUP)
    team = match.team(side)
    season = match.fixture.season
    roster = {
        reg.player_id: reg.kind
        for reg in Registration.objects.filter(team=team, status=Registration.Status.ACTIVE)
    }
    elsewhere = {
        p.player_id: p
        for p in Presence.objects.filter(match=match).exclude(side=side).select_related("player")
    }
    chosen: dict[int, Player] = {}
    for player in players:
        if player.pk in elsewhere:
            raise DomainError(
                "present_for_other_side",
                f"{player.name} is already marked present for {match.team(other_side(side)).name}.",
                field="players",
            )
        if player.pk not in roster:
            other = _other_team_of(player, season, team)
            if other is not None:
                raise _drafted_rule_error(player, other)
        chosen[player.pk] = player
    for name in new_players:
        name = " ".join(name.split())
        if not name:
            continue
        # A retried form finds the newcomer it put on the roster the first time.
        reg = (
            Registration.objects.filter(
                team=team, status=Registration.Status.ACTIVE, player__name__iexact=name
            )
            .select_related("player")
            .first()
        ) or roster_add_player(team=team, name=name, kind=Registration.Kind.DRAFTED)
        roster[reg.player_id] = reg.kind
        chosen[reg.player_id] = reg.player

    current = {p.player_id: p for p in Presence.objects.filter(match=match, side=side)}
    if set(current) == set(chosen):
        return match
    Presence.objects.filter(match=match, side=side).exclude(player_id__in=chosen).delete()
    Presence.objects.bulk_create(
        [
            Presence(
                match=match,
                side=side,
                player=player,
                drafted=roster.get(pk) != Registration.Kind.REGISTERED,
                marked_by=actor,
                marked_at=now,
            )
            for pk, player in chosen.items()
            if pk not in current
        ]
    )
    withdrawn = bool(getattr(match, f"{side}_commitment"))
    if withdrawn:
        setattr(match, f"{side}_commitment", "")
        setattr(match, f"{side}_secret", "")
        match.save(update_fields=[f"{side}_commitment", f"{side}_secret"])
    _log(
        match,
        actor,
        "presence",
        now,
        side=side,
        players=sorted(chosen),
        added=sorted(set(chosen) - set(current)),
        removed=sorted(set(current) - set(chosen)),
        drafted=sorted(pk for pk in chosen if roster.get(pk) != Registration.Kind.REGISTERED),
        ready_withdrawn=withdrawn,
    )
    return match


@transaction.atomic
def match_agree_short(
    *, match: Match, side: str, actor: User, now: datetime | None = None
) -> Match:
    """A captain agrees to play although a side has fewer than five (rule 8). The draw
    needs both captains' agreement for that; calling again changes nothing."""
    now = _now(now)
    match = _lock(match)
    _require_captain(match, side, actor, "agree to play short for this side")
    _require_status(match, Match.Status.SETUP)
    field = f"short_agreed_{side}"
    if not getattr(match, field):
        setattr(match, field, True)
        match.save(update_fields=[field])
        _log(match, actor, "short_agreed", now, side=side)
    return match


# --------------------------------------------------------------------------- the seed


@transaction.atomic
def match_commit(
    *,
    match: Match,
    side: str,
    actor: User,
    commitment: str = "",
    now: datetime | None = None,
) -> Match:
    """A captain presses Ready: their side commits to a secret for the seed.

    With `commitment` (the SHA-256 of a secret made on the captain's phone), the
    secret stays on the phone until every commitment is in, then is revealed with
    match_reveal. Without it, the server makes the secret for the captain: unknowable to
    the other captain, though not to the server. Pressing Ready again with a new
    commitment replaces the old one (a lost phone); the server made its own commitment
    when the match was opened, so no party learns anything from the others' secrets.
    """
    now = _now(now)
    match = _lock(match)
    _require_captain(match, side, actor, "press Ready for this side")
    _require_status(match, Match.Status.SETUP)
    if not Presence.objects.filter(match=match, side=side).exists():
        raise DomainError(
            "no_players", "Mark who is present for your side before pressing Ready.", field="side"
        )
    current = getattr(match, f"{side}_commitment")
    held = getattr(match, f"{side}_secret")
    value = (commitment or "").strip().lower()
    if value:
        if not _HEX64.match(value):
            raise DomainError(
                "bad_commitment",
                "A commitment is the SHA-256 of the secret: 64 hexadecimal characters.",
                field="commitment",
            )
        if value == current:
            return match
        secret, made_by = "", "device"
    else:
        if current and held:
            return match  # already Ready with a secret the server holds
        secret = secrets.token_hex(16)
        value, made_by = sha256_commitment(secret), "server"
    if not match.server_commitment:
        _new_server_secret(match)
    setattr(match, f"{side}_commitment", value)
    setattr(match, f"{side}_secret", secret)
    match.save(
        update_fields=[f"{side}_commitment", f"{side}_secret", "server_commitment", "server_secret"]
    )
    _log(
        match,
        actor,
        "committed",
        now,
        side=side,
        commitment=value,
        made_by=made_by,
        replaced=bool(current),
    )
    return match


def _all_committed(match: Match) -> bool:
    return bool(match.home_commitment and match.away_commitment and match.server_commitment)


@transaction.atomic
def match_reveal(
    *, match: Match, side: str, secret: str, actor: User, now: datetime | None = None
) -> Match:
    """A captain's phone reveals the secret it committed to, once all three commitments
    are in. A secret that does not match its commitment is refused."""
    now = _now(now)
    match = _lock(match)
    _require_captain(match, side, actor, "reveal this side's secret")
    _require_status(match, Match.Status.SETUP)
    if not _all_committed(match):
        raise DomainError(
            "not_all_committed",
            "Wait until both captains have pressed Ready: no secret is revealed before all "
            "three commitments are in.",
        )
    secret = (secret or "").strip()
    recorded = getattr(match, f"{side}_commitment")
    if not secret or sha256_commitment(secret) != recorded:
        raise DomainError(
            "reveal_mismatch",
            f"That secret does not match the {side} commitment {recorded[:12]}…; "
            "reveal the secret this side committed to (or press Ready again).",
            field="secret",
        )
    if getattr(match, f"{side}_secret") == secret:
        return match
    setattr(match, f"{side}_secret", secret)
    match.save(update_fields=[f"{side}_secret"])
    _log(match, actor, "revealed", now, side=side)
    return match


# --------------------------------------------------------------------------- the draw


def _frame_setup(drawn: DrawnFrame) -> dict[str, Any]:
    players = {side: list(drawn.players(side)) for side in SIDES if drawn.players(side)}
    return {"sides": list(SIDES), "breaks_first": "home", "white_balls": 7, "players": players}


@transaction.atomic
def match_draw(*, match: Match, actor: User, now: datetime | None = None) -> Match:
    """Draw the nine frames. The server reveals its secret; the seed is
    derive_seed(home_secret, away_secret, server_secret); frames.draw does the rest.
    Each frame gets its game, players, engine setup, referee and status (conceded where
    a short side cannot fill it); every player drawn to play is marked as played for
    their team (drafting those off the roster, rule 8)."""
    now = _now(now)
    match = _lock(match)
    _require_runner(match, actor, "start the draw")
    _require_status(match, Match.Status.SETUP)
    present = _present(match)
    for side in SIDES:
        if not present[side]:
            raise DomainError(
                "empty_squad", f"Nobody is marked present for {match.team(side).name}."
            )
    agreed = match.short_agreed_home and match.short_agreed_away
    for side in SIDES:
        if len(present[side]) < MINIMUM_PLAYERS and not agreed:
            raise DomainError(
                "too_few_players",
                f"{match.team(side).name} has {len(present[side])} players present: rule 8 "
                "needs five a side unless both captains record their agreement to play.",
            )
    if not _all_committed(match):
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
    if sha256_commitment(match.server_secret) != match.server_commitment:
        raise DomainError(
            "server_secret_mismatch",
            "The server's secret does not match its commitment; the draw cannot go ahead.",
            status=500,
        )
    seed = derive_seed(match.home_secret, match.away_secret, match.server_secret)
    try:
        draw = draw_match(list(present["home"]), list(present["away"]), seed, agreed=agreed)
    except DrawError as exc:
        raise DomainError(exc.code, exc.message) from None

    game = registry.get(match.game_id)
    frames, slots = [], []
    for position, drawn in enumerate(draw.frames, start=1):
        conceded = drawn.conceded_by
        frame = Frame(
            match=match,
            number=drawn.number,
            order=position,
            kind=drawn.kind,
            game_id=match.game_id,
            setup=_frame_setup(drawn),
        )
        if conceded:
            frame.status = Frame.Status.CONCEDED
            frame.conceded_by = BOTH if len(conceded) == 2 else conceded[0]
            frame.completed_at = now
            frame.winner = frame_winner(frame)
        else:
            # Checked here; the state itself is the pad's to start (frames.events).
            try:
                game.initial(frame.setup)
            except RuleError as exc:
                raise DomainError("bad_setup", f"Frame {drawn.number}: {exc}") from None
        if drawn.referee is not None:
            frame.referee = present[drawn.referee.side][drawn.referee.player]
            frame.referee_side = drawn.referee.side
            frame.referee_note = _relaxed_note(drawn.referee.rule_relaxed)
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
        registration_mark_played(team=match.team(side), player=player, now=now)

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
    _log(
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
    return _update_result(match)


def _relaxed_note(rule_relaxed: str | None) -> str:
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
    now = _now(now)
    match = _lock(match, frames=True)
    _require_captain(match, side, actor, "ask for a re-draw for this side")
    _require_status(match, Match.Status.DRAWN)
    if _frames_started(match):
        raise DomainError(
            "frames_started", "A frame has started: the draw can no longer be redone."
        )
    field = f"redraw_{side}_agreed"
    if getattr(match, field):
        return match
    setattr(match, field, True)
    match.save(update_fields=[field])
    _log(match, actor, "redraw_requested", now, side=side)
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
    _new_server_secret(match)
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
    _log(match, actor, "redrawn", now, previous=old, server_commitment=match.server_commitment)


# --------------------------------------------------------------------------- order of play


def _check_order(frames: Sequence[Frame], order: Sequence[Any]) -> list[int]:
    numbers = sorted(f.number for f in frames)
    try:
        order = [int(n) for n in order]
    except (TypeError, ValueError):
        raise DomainError(
            "bad_order", "Give the frame numbers in the new order.", field="order"
        ) from None
    if sorted(order) != numbers:
        raise DomainError(
            "bad_order",
            f"The new order must list each of frames {', '.join(map(str, numbers))} once.",
            field="order",
        )
    for frame in frames:
        if frame.status != Frame.Status.SCHEDULED and order.index(frame.number) + 1 != frame.order:
            raise DomainError(
                "frame_fixed",
                f"Frame {frame.number} is {frame.get_status_display().lower()}: it keeps its "
                f"place ({frame.order}) in the order of play.",
                field="order",
            )
    if order == [f.number for f in sorted(frames, key=lambda f: f.order)]:
        raise DomainError("same_order", "That is already the order of play.", field="order")
    return order


@transaction.atomic
def match_reorder(
    *, match: Match, side: str, order: Sequence[int], actor: User, now: datetime | None = None
) -> Match:
    """A captain proposes another order of play (frame numbers, first to last). Frames
    that have started keep their place. Nothing changes until the other captain accepts
    (rule 6: only with both captains' agreement); a new proposal replaces the old one."""
    now = _now(now)
    match = _lock(match)
    _require_captain(match, side, actor, "propose an order of play for this side")
    _require_status(match, *_OPEN)
    order = _check_order(list(Frame.objects.filter(match=match)), order)
    if match.reorder_proposal == order and match.reorder_proposed_by == side:
        return match
    match.reorder_proposal, match.reorder_proposed_by = order, side
    match.save(update_fields=["reorder_proposal", "reorder_proposed_by"])
    _log(match, actor, "reorder_proposed", now, side=side, order=order)
    return match


@transaction.atomic
def match_reorder_accept(
    *, match: Match, side: str, actor: User, now: datetime | None = None
) -> Match:
    """The other captain accepts the proposed order: frames take their new places. If no
    frame has started, the referees are solved again for the new order (the rota follows
    the order of play) from the draw's seed; otherwise they stay as they are."""
    now = _now(now)
    match = _lock(match, frames=True)
    _require_captain(match, side, actor, "accept an order of play for this side")
    _require_status(match, *_OPEN)
    if not match.reorder_proposal:
        raise DomainError("no_proposal", "No change to the order of play has been proposed.")
    if match.reorder_proposed_by == side:
        raise DomainError(
            "own_proposal",
            f"{match.team(side).name} proposed this order: the other captain must accept it.",
        )
    frames = list(frames_for_update(match))
    order = _check_order(frames, match.reorder_proposal)
    previous = [f.number for f in sorted(frames, key=lambda f: f.order)]
    by_number = {f.number: f for f in frames}
    Frame.objects.filter(match=match).update(order=F("order") + 100)
    for position, number in enumerate(order, start=1):
        by_number[number].order = position
        by_number[number].save(update_fields=["order"])
    resolved = not _frames_started(match)
    notes: tuple[str, ...] = ()
    if resolved:
        notes = _resolve_referees(match, [by_number[n] for n in order])
    proposed_by = match.reorder_proposed_by
    match.reorder_proposal, match.reorder_proposed_by = [], ""
    match.save(update_fields=["reorder_proposal", "reorder_proposed_by"])
    _log(
        match,
        actor,
        "reorder_accepted",
        now,
        side=side,
        proposed_by=proposed_by,
        previous=previous,
        order=order,
        referees_resolved=resolved,
        notes=list(notes),
    )
    return match


def frames_for_update(match: Match):
    return Frame.objects.select_for_update().filter(match=match).prefetch_related("players")


def _resolve_referees(match: Match, frames_in_order: list[Frame]) -> tuple[str, ...]:
    present = _present(match)
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
    solved, notes = reassign_referees(
        drawn, list(present["home"]), list(present["away"]), match.seed
    )
    for frame, result in zip(frames_in_order, solved, strict=True):
        referee = result.referee
        frame.referee = None if referee is None else present[referee.side][referee.player]
        frame.referee_side = "" if referee is None else referee.side
        frame.referee_note = "" if referee is None else _relaxed_note(referee.rule_relaxed)
        frame.save(update_fields=["referee", "referee_side", "referee_note"])
    return notes


@transaction.atomic
def match_reorder_reject(
    *, match: Match, side: str, actor: User, now: datetime | None = None
) -> Match:
    """Either captain turns the proposal down (or its author withdraws it)."""
    now = _now(now)
    match = _lock(match)
    _require_captain(match, side, actor, "answer a proposed order of play for this side")
    if not match.reorder_proposal:
        return match
    order, proposed_by = match.reorder_proposal, match.reorder_proposed_by
    match.reorder_proposal, match.reorder_proposed_by = [], ""
    match.save(update_fields=["reorder_proposal", "reorder_proposed_by"])
    _log(match, actor, "reorder_rejected", now, side=side, proposed_by=proposed_by, order=order)
    return match


# --------------------------------------------------------------------------- referees


@transaction.atomic
def match_set_referee(
    *, frame: Frame, player: Player, actor: User, now: datetime | None = None
) -> Frame:
    """Appoint another referee for a frame not yet finished: a present player who does not
    play in it, chosen by a captain of that player's side or by the secretary."""
    now = _now(now)
    frame = Frame.objects.select_for_update().get(pk=frame.pk)
    match = _lock(frame.match)
    _require_status(match, *_OPEN)
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
    _require_captain(
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
    _log(
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


# --------------------------------------------------------------------------- results


def _update_result(match: Match) -> Match:
    if match.status in (Match.Status.SETUP, Match.Status.CONFIRMED):
        return match
    frames = list(Frame.objects.filter(match=match))
    result = tally(frames)
    match.home_frames, match.away_frames = result.home_frames, result.away_frames
    match.home_score, match.away_score = result.home_score, result.away_score
    fields = ["home_frames", "away_frames", "home_score", "away_score"]
    if match.status != Match.Status.DISPUTED:
        if result.finished:
            status = Match.Status.COMPLETE
        elif result.started:
            status = Match.Status.IN_PLAY
        else:
            status = Match.Status.DRAWN
        if status == Match.Status.COMPLETE and match.status != status:
            finished = [f.completed_at for f in frames if f.completed_at]
            match.completed_at = max(finished) if finished else timezone.now()
            fields.append("completed_at")
            _log(
                match,
                None,
                "completed",
                match.completed_at,
                home_frames=str(result.home_frames),
                away_frames=str(result.away_frames),
                home_score=result.home_score,
                away_score=result.away_score,
            )
        elif status != Match.Status.COMPLETE:
            if match.completed_at is not None:
                match.completed_at = None
                fields.append("completed_at")
            if _clear_confirmations(match):
                fields += [
                    "home_confirmed_by",
                    "home_confirmed_at",
                    "away_confirmed_by",
                    "away_confirmed_at",
                ]
        match.status = status
        fields.append("status")
    match.save(update_fields=sorted(set(fields)))
    return match


@transaction.atomic
def match_update_result(*, match: Match) -> Match:
    """Recompute the match result from its frames (frames won, a shared frame being half
    each, and the aggregate score) and its status: drawn, in play, or complete (awaiting
    the captains' confirmation). The pad calls this whenever a frame starts or ends."""
    return _update_result(_lock(match))


def _key_frame(
    frame: Frame, home_score: int, away_score: int, actor: User, now: datetime, *, allow_shots: bool
) -> dict[str, Any] | None:
    """Write paper scores onto a locked frame; the change for the log, or None."""
    _check_score(home_score, "home_score")
    _check_score(away_score, "away_score")
    if frame.status == Frame.Status.CONCEDED:
        raise DomainError("frame_conceded", f"Frame {frame.number} was conceded: it has no scores.")
    if not allow_shots and (frame.last_seq > 0 or FrameEvent.objects.filter(frame=frame).exists()):
        raise DomainError(
            "frame_has_shots",
            f"Frame {frame.number} was scored shot by shot on the pad; only the secretary can "
            "replace its result with paper scores.",
            status=403,
        )
    if (
        frame.status == Frame.Status.COMPLETE
        and frame.home_score == home_score
        and frame.away_score == away_score
    ):
        return None
    previous = {
        "status": frame.status,
        "home_score": frame.home_score,
        "away_score": frame.away_score,
        "result_source": frame.result_source,
    }
    frame.home_score, frame.away_score = home_score, away_score
    frame.shared = home_score == away_score
    frame.winner = "" if frame.shared else (Side.HOME if home_score > away_score else Side.AWAY)
    frame.status = Frame.Status.COMPLETE
    frame.result_source = "paper"
    frame.completed_at = now
    frame.save(
        update_fields=[
            "home_score",
            "away_score",
            "shared",
            "winner",
            "status",
            "result_source",
            "completed_at",
        ]
    )
    from .stats import record_frame_stats  # stats imports the pad's module: import when used

    record_frame_stats.delay_on_commit(frame.pk)  # the players' statistics, after commit
    return {
        "frame": frame.number,
        "home_score": home_score,
        "away_score": away_score,
        "previous": previous,
    }


@transaction.atomic
def frame_key_in_paper(
    *, frame: Frame, home_score: int, away_score: int, actor: User, now: datetime | None = None
) -> Frame:
    """Key in one frame's scores from the paper sheet: the frame is complete without
    shots (result_source 'paper'); the winner, or a shared frame, follows from the scores.
    A frame scored on the pad can be overwritten by the secretary only."""
    match = match_key_in_paper(
        match=frame.match, scores={frame.number: (home_score, away_score)}, actor=actor, now=now
    )
    return Frame.objects.get(match=match, number=frame.number)


@transaction.atomic
def match_key_in_paper(
    *,
    match: Match,
    scores: Mapping[int, tuple[int, int]],
    actor: User,
    now: datetime | None = None,
) -> Match:
    """Key in frame scores from the paper sheet (frame number → (home, away)), all or
    nothing. A result awaiting confirmation that changes needs confirming again."""
    now = _now(now)
    match = _lock(match, frames=True)
    _require_runner(match, actor, "key in a paper score sheet")
    _require_status(match, *_OPEN, Match.Status.COMPLETE)
    if not scores:
        raise DomainError("no_scores", "Key in at least one frame's scores.")
    frames = {f.number: f for f in frames_for_update(match)}
    changes = []
    for number, (home_score, away_score) in sorted(scores.items()):
        if number not in frames:
            raise DomainError("no_such_frame", f"This match has no frame {number}.", field="frame")
        change = _key_frame(
            frames[number], home_score, away_score, actor, now, allow_shots=is_secretary(actor)
        )
        if change:
            changes.append(change)
    if not changes:
        return match
    _log(match, actor, "paper_keyed", now, frames=changes)
    if match.status == Match.Status.COMPLETE:
        cleared = _clear_confirmations(match)
        if cleared:
            match.save(
                update_fields=[
                    "home_confirmed_by",
                    "home_confirmed_at",
                    "away_confirmed_by",
                    "away_confirmed_at",
                ]
            )
            _log(
                match,
                actor,
                "confirmations_cleared",
                now,
                sides=cleared,
                reason="the result changed",
            )
    return _update_result(match)


def _record(match: Match, actor: User, now: datetime, how: str) -> Match:
    """The result counts: the match is confirmed and written onto its fixture."""
    match.status = Match.Status.CONFIRMED
    match.confirmed_at = now
    match.save(update_fields=["status", "confirmed_at"])
    fixture_record_result(
        fixture=match.fixture,
        home_frames=match.home_frames,
        away_frames=match.away_frames,
        home_score=match.home_score,
        away_score=match.away_score,
        confirmed_at=now,
    )
    _log(
        match,
        actor,
        "result_recorded",
        now,
        how=how,
        home_frames=str(match.home_frames),
        away_frames=str(match.away_frames),
        home_score=match.home_score,
        away_score=match.away_score,
    )
    return match


def _require_complete(match: Match) -> None:
    if match.status in (Match.Status.DRAWN, Match.Status.IN_PLAY):
        unfinished = (
            Frame.objects.filter(match=match)
            .exclude(status__in=[Frame.Status.COMPLETE, Frame.Status.CONCEDED])
            .values_list("number", flat=True)
        )
        raise DomainError(
            "not_complete",
            f"Frames {', '.join(map(str, sorted(unfinished)))} are not finished yet.",
            status=409,
        )
    _require_status(match, Match.Status.COMPLETE)


@transaction.atomic
def match_confirm(*, match: Match, side: str, actor: User, now: datetime | None = None) -> Match:
    """A captain confirms the result for their side. When both have, the result counts:
    it is written onto the fixture (once; confirming again changes nothing)."""
    now = _now(now)
    match = _lock(match)
    _require_captain(match, side, actor, "confirm the result for this side")
    if match.status == Match.Status.CONFIRMED:
        return match
    _require_complete(match)
    if getattr(match, f"{side}_confirmed_at") is None:
        setattr(match, f"{side}_confirmed_by", actor)
        setattr(match, f"{side}_confirmed_at", now)
        match.save(update_fields=[f"{side}_confirmed_by", f"{side}_confirmed_at"])
        _log(match, actor, "confirmed", now, side=side)
    if match.home_confirmed_at and match.away_confirmed_at:
        _record(match, actor, now, "both captains confirmed")
    return match


@transaction.atomic
def match_dispute(
    *, match: Match, side: str, actor: User, reason: str, now: datetime | None = None
) -> Match:
    """A captain disputes the result, with a reason; the secretary settles it. The
    result does not count meanwhile, and is never confirmed automatically."""
    now = _now(now)
    match = _lock(match)
    _require_captain(match, side, actor, "dispute the result for this side")
    reason = (reason or "").strip()
    if not reason:
        raise DomainError("reason_required", "Say what is wrong with the result.", field="reason")
    if len(reason) > 2000:
        raise DomainError(
            "reason_too_long", "Keep the reason under 2,000 characters.", field="reason"
        )
    if (
        match.status == Match.Status.DISPUTED
        and match.disputed_by == side
        and match.dispute_reason == reason
    ):
        return match
    if match.status != Match.Status.DISPUTED:
        _require_complete(match)
    match.status = Match.Status.DISPUTED
    match.disputed_by, match.dispute_reason, match.disputed_at = side, reason, now
    fields = ["status", "disputed_by", "dispute_reason", "disputed_at"]
    if getattr(match, f"{side}_confirmed_at") is not None:
        setattr(match, f"{side}_confirmed_by", None)
        setattr(match, f"{side}_confirmed_at", None)
        fields += [f"{side}_confirmed_by", f"{side}_confirmed_at"]
    match.save(update_fields=fields)
    _log(match, actor, "disputed", now, side=side, reason=reason)
    return match


SETTLE_ACCEPT = "accept"
SETTLE_CORRECT = "correct"


@transaction.atomic
def match_settle(
    *,
    match: Match,
    actor: User,
    decision: str,
    note: str = "",
    scores: Mapping[int, tuple[int, int]] | None = None,
    now: datetime | None = None,
) -> Match:
    """The secretary settles a disputed (or unconfirmed) result: accept it as it stands,
    or correct frame scores (frame number → (home, away)); either way it is confirmed."""
    now = _now(now)
    match = _lock(match, frames=True)
    if not is_secretary(actor):
        raise DomainError(
            "not_secretary", "Only the league secretary settles a result.", status=403
        )
    if match.status != Match.Status.DISPUTED:
        _require_complete(match)
    if decision not in (SETTLE_ACCEPT, SETTLE_CORRECT):
        raise DomainError("bad_decision", "Decide 'accept' or 'correct'.", field="decision")
    changes = []
    if decision == SETTLE_CORRECT:
        if not scores:
            raise DomainError("no_scores", "Give the corrected frame scores.", field="scores")
        frames = {f.number: f for f in frames_for_update(match)}
        for number, (home_score, away_score) in sorted(scores.items()):
            if number not in frames:
                raise DomainError(
                    "no_such_frame", f"This match has no frame {number}.", field="frame"
                )
            change = _key_frame(
                frames[number], home_score, away_score, actor, now, allow_shots=True
            )
            if change:
                changes.append(change)
        result = tally(frames.values())
        if not result.finished:
            raise DomainError("not_complete", "Every frame needs a result before settling.")
        match.home_frames, match.away_frames = result.home_frames, result.away_frames
        match.home_score, match.away_score = result.home_score, result.away_score
        match.save(update_fields=["home_frames", "away_frames", "home_score", "away_score"])
    _log(
        match,
        actor,
        "settled",
        now,
        decision=decision,
        note=note.strip(),
        corrections=changes,
        dispute={"side": match.disputed_by, "reason": match.dispute_reason},
    )
    return _record(match, actor, now, f"settled by the secretary ({decision})")


@transaction.atomic
def match_autoconfirm(*, match: Match, now: datetime | None = None) -> Match:
    """Confirm one complete, undisputed result whose confirmation period has passed."""
    now = _now(now)
    match = _lock(match)
    if match.status != Match.Status.COMPLETE or match.completed_at is None:
        return match
    hours = match.fixture.season.league.confirm_after_hours
    if match.completed_at + timedelta(hours=hours) > now:
        return match
    _log(
        match,
        None,
        "auto_confirmed",
        now,
        after_hours=hours,
        confirmed_by=[s for s in SIDES if getattr(match, f"{s}_confirmed_at")],
    )
    return _record(match, None, now, f"confirmed automatically after {hours} hours")


def match_autoconfirm_due(*, now: datetime | None = None) -> list[Match]:
    """Confirm every complete, undisputed result older than its league's period
    (League.confirm_after_hours, 48 by default). Each match is its own transaction, so
    one failure does not hold the others back; running it twice changes nothing."""
    now = _now(now)
    confirmed = []
    for match in matches_awaiting_confirmation():
        hours = match.fixture.season.league.confirm_after_hours
        if match.completed_at + timedelta(hours=hours) <= now:
            match = match_autoconfirm(match=match, now=now)
            if match.status == Match.Status.CONFIRMED and match.confirmed_at == now:
                confirmed.append(match)
    return confirmed


__all__ = [
    "ALGORITHM_VERSION",
    "frame_key_in_paper",
    "match_agree_short",
    "match_autoconfirm",
    "match_autoconfirm_due",
    "match_commit",
    "match_confirm",
    "match_dispute",
    "match_draw",
    "match_key_in_paper",
    "match_mark_present",
    "match_open",
    "match_reorder",
    "match_reorder_accept",
    "match_reorder_reject",
    "match_request_redraw",
    "match_reveal",
    "match_set_referee",
    "match_settle",
    "match_update_result",
    "player_labels",
]
