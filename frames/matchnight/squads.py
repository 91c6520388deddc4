"""Match night opens, and each captain marks who is present (rule 8: drafted players,
playing short by agreement)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from django.db import transaction

from frames.models import (
    Match,
    MatchLog,
    Presence,
    other_side,
)
from frames.results import (
    lock_match,
)
from leagues import eligibility
from leagues.availability import selectors as availability_selectors
from leagues.availability import services as availability_services
from leagues.models import Fixture, Player, Registration
from leagues.teams.services import (
    _drafted_rule_error,  # leagues' rule-8 message, shared so both apps say the same
    _other_team_of,  # leagues' rule-8 check, without marking the player as played
    player_name_key,
    players_named,
    roster_add_player,
)
from marker.errors import DomainError
from marker.formats import effective_format
from rules import registry

from .common import (
    ROUND_FIELDS,
    User,
    new_server_secret,
    require_captain,
    require_runner,
    require_status,
    resolve_now,
    restart_round,
)

#: The most players a side may have present, drafted newcomers included: a night needs
#: five to nine, and a squad of twenty is already a crowd. It bounds what one request drafts.
MAX_PRESENT = 20
#: A newcomer's name, as long as a player's name may be.
MAX_NAME = Player._meta.get_field("name").max_length or 120


@transaction.atomic
def match_open(*, fixture: Fixture, actor: User = None, now: datetime | None = None) -> Match:
    """The Match of a fixture, created on first call (safe to call again). Its game is
    the league's; the server commits to its own secret for the draw at once."""
    now = resolve_now(now)
    fixture = (
        Fixture.objects.select_for_update(of=("self",))
        .select_related("home", "away", "season__league", "division")
        .get(pk=fixture.pk)
    )
    existing = Match.objects.filter(fixture=fixture).first()
    if existing is not None:
        return existing
    match = Match(
        fixture=fixture,
        game_id=fixture.season.game_id,
        # A cup tie (no division) plays its season's format.
        match_format=(
            fixture.division.format
            if fixture.division is not None
            else effective_format(fixture.season.match_format)
        ).to_json(),
    )
    if actor is not None:
        require_runner(match, actor, "open match night")
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
            "unknown_game", f"The season's game {match.game_id!r} is not one Marker knows."
        ) from None
    new_server_secret(match)
    match.save()
    MatchLog.add(
        match,
        actor,
        "opened",
        now,
        game=match.game_id,
        server_commitment=match.server_commitment,
    )
    _present_from_answers(match, fixture, actor, now)
    # From now on the answers are final (the fixture's row is locked: no answer slips in).
    availability_services.availability_close(fixture=fixture, now=now)
    return match


def _present_from_answers(match: Match, fixture: Fixture, actor: User, now: datetime) -> None:
    """Each side's present list starts from its players who answered yes (still on the
    roster); its captain changes it as usual. Maybes are shown beside the list, not marked."""
    answers = availability_selectors.answers_for_match(fixture)
    yes = {
        side: answers[team_id]["yes"][:MAX_PRESENT]
        for side, team_id in (("home", fixture.home_id), ("away", fixture.away_id))
    }
    if not any(yes.values()):
        return
    kinds = dict(
        Registration.objects.filter(
            team_id__in=(fixture.home_id, fixture.away_id),
            status=Registration.Status.ACTIVE,
            player_id__in=[pk for ids in yes.values() for pk in ids],
        ).values_list("player_id", "kind")
    )
    Presence.objects.bulk_create(
        [
            Presence(
                match=match,
                side=side,
                player_id=pk,
                drafted=kinds.get(pk) != Registration.Kind.REGISTERED,
                marked_by=actor,
                marked_at=now,
            )
            for side, ids in yes.items()
            for pk in ids
        ]
    )
    for side, ids in yes.items():
        if ids:
            MatchLog.add(
                match, actor, "presence_from_availability", now, side=side, players=sorted(ids)
            )


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
    withdraws the side's Ready (its commitment), since Ready means "these are my players";
    once both sides are Ready a commitment is final, so a change starts Ready again for
    both sides and the server.
    """
    now = resolve_now(now)
    players, new_players = list(players), [" ".join(name.split()) for name in new_players]
    if any(len(name) > MAX_NAME for name in new_players):
        raise DomainError(
            "name_too_long", f"Keep names to {MAX_NAME} characters.", field="new_players"
        )
    match = lock_match(match)
    require_captain(match, side, actor, "mark who is present for this side", secretary=True)
    require_status(match, Match.Status.SETUP)
    if len({p.pk for p in players} | {n.lower() for n in new_players if n}) > MAX_PRESENT:
        raise DomainError(
            "too_many_players",
            f"At most {MAX_PRESENT} players may be present for a side.",
            field="players",
        )
    team = match.team(side)
    season = match.fixture.season
    # The season's registration rules (leagues.eligibility): a player inside the notice
    # period is refused, as is a draft once registrations have closed; a player of a
    # lower team of the club may play up where the season allows it, under its cap.
    rules = eligibility.rules_of(season)
    on = match.fixture.date or eligibility.local_day(now)
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
        if player.pk not in roster or rules.min_notice_days:
            eligibility.may_play(
                team=team, player=player, on=on, fixture=match.fixture
            ).raise_first("players")
        chosen[player.pk] = player
    for name in new_players:
        name = player_name_key(name)
        if not name:
            continue
        # A retried form finds the newcomer it put on the roster the first time.
        reg = (
            Registration.objects.filter(
                team=team, status=Registration.Status.ACTIVE, player__name__iexact=name
            )
            .select_related("player")
            .first()
        )
        if reg is None:
            # One person, one record: a name an existing player has is that player, and
            # rule 8 applies to them; someone else of that name is added on the roster page.
            for known in players_named(name):
                if known.pk in elsewhere:
                    raise DomainError(
                        "present_for_other_side",
                        f"{known.name} is already marked present for "
                        f"{match.team(other_side(side)).name}.",
                        field="new_players",
                    )
                other = _other_team_of(known, season, team)
                if other is not None:
                    raise _drafted_rule_error(known, other)
            try:
                reg = roster_add_player(
                    team=team, name=name, kind=Registration.Kind.DRAFTED, now=now
                )
            except DomainError as exc:
                if exc.code != "same_name":
                    raise
                raise DomainError(
                    "same_name",
                    f"{name} is already a player in the league: draft them from the list of "
                    "players (rule 8 applies), or add someone else of that name on "
                    f"{team.name}'s roster page first.",
                    field="new_players",
                    extra=exc.extra,
                ) from None
        if rules.min_notice_days:
            eligibility.may_play(
                team=team, player=reg.player, on=on, fixture=match.fixture
            ).raise_first("new_players")
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
    restarted = withdrawn and bool(getattr(match, f"{other_side(side)}_commitment"))
    if restarted:
        # Both were Ready: a commitment is final once the other side has committed, so
        # the round starts again for both (and the server) rather than this side alone.
        restart_round(match)
        match.save(update_fields=ROUND_FIELDS)
    elif withdrawn:
        setattr(match, f"{side}_commitment", "")
        setattr(match, f"{side}_secret", "")
        match.save(update_fields=[f"{side}_commitment", f"{side}_secret"])
    MatchLog.add(
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
        ready_restarted=restarted,
    )
    return match


@transaction.atomic
def match_agree_short(
    *, match: Match, side: str, actor: User, now: datetime | None = None
) -> Match:
    """A captain agrees to play although a side has fewer than five (rule 8). The draw
    needs both captains' agreement for that; calling again changes nothing."""
    now = resolve_now(now)
    match = lock_match(match)
    require_captain(match, side, actor, "agree to play short for this side")
    require_status(match, Match.Status.SETUP)
    field = f"short_agreed_{side}"
    if not getattr(match, field):
        setattr(match, field, True)
        match.save(update_fields=[field])
        MatchLog.add(match, actor, "short_agreed", now, side=side)
    return match
