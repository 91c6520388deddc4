"""Every write of a competition: creating it, entries, the draw (commit, reveal, perform),
rounds and deadlines, ties' results (from paper, from the pad, from a cup match's
confirmed fixture), awards, walkovers and withdrawals, and sending winners through.

Keyword-only, one transaction each, raising `DomainError` having changed nothing.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Mapping, Sequence
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.text import slugify

from frames.engine import frame_outcome, side_result, side_setup
from frames.models import Frame, Friendly
from leagues import honours
from leagues.models import MAX_FRAME_SCORE, Fixture, Player, Registration, Season, Team
from marker.errors import DomainError
from marker.permissions import allowed, require
from rules.vocabulary import RuleError

from . import draw as cupdraw
from .models import (
    Competition,
    CompetitionLog,
    Entry,
    Group,
    GroupMember,
    Round,
    Tie,
    TieFrame,
)
from .permissions import speaks_for_entry
from .selectors import group_table

_HEX64 = re.compile(r"^[0-9a-f]{64}$")
MAX_BEST_OF = 99


def _now(now: datetime | None) -> datetime:
    return now or timezone.now()


def _log(
    competition: Competition,
    actor: Any,
    action: str,
    at: datetime,
    tie: Tie | None = None,
    **detail,
) -> None:
    CompetitionLog.objects.create(
        competition=competition,
        tie=tie,
        actor=actor if getattr(actor, "is_authenticated", False) else None,
        action=action,
        detail=detail,
        at=at,
    )


def _require_secretary(actor: Any, obj: Any, doing: str) -> None:
    require(
        actor,
        "competitions.manage",
        obj,
        message=f"Only the competitions secretary may {doing}.",
    )


def _lock(competition: Competition) -> Competition:
    return Competition.objects.select_for_update().get(pk=competition.pk)


# ----------------------------------------------------------------------- competitions

DEFAULT_ENTRANT = {
    Competition.Kind.TEAM_KNOCKOUT: Competition.Entrant.TEAM,
    Competition.Kind.SINGLES: Competition.Entrant.PLAYER,
    Competition.Kind.PAIRS: Competition.Entrant.PAIR,
    Competition.Kind.GROUP_KNOCKOUT: Competition.Entrant.PLAYER,
}


@transaction.atomic
def competition_create(
    *,
    actor: Any,
    season: Season,
    name: str,
    kind: str,
    entrant: str = "",
    best_of: int = 3,
    final_best_of: int | None = None,
    group_size: int | None = None,
    group_qualifiers: int | None = None,
    group_race_to: int = 2,
    group_others: str = Competition.GroupOthers.OUT,
    plate_rule: str = Competition.PlateRule.NONE,
    plate: Competition | None = None,
    entry_mode: str = Competition.EntryMode.SECRETARY,
    entries_close_at: datetime | None = None,
    fee: Decimal | int | str = 0,
    require_registered: bool = True,
    eligibility_label: str = "",
    eligible_players: Sequence[Player] = (),
    cup_tied: bool = True,
    handicap_rule: str = Competition.HandicapRule.NONE,
    handicap_step: int = 5,
    handicap_min: int = -100,
    handicap_max: int = 100,
    now: datetime | None = None,
) -> Competition:
    """A new competition in a season, taking entries."""
    now = _now(now)
    _require_secretary(actor, season, "create a competition")
    name = " ".join((name or "").split())
    if not name or len(name) > 120:
        raise DomainError(
            "bad_name", "Give the competition a name (up to 120 characters).", field="name"
        )
    if kind not in Competition.Kind.values:
        raise DomainError(
            "bad_kind",
            f"A competition's kind is one of {', '.join(Competition.Kind.values)}.",
            field="kind",
        )
    entrant = entrant or DEFAULT_ENTRANT[Competition.Kind(kind)]
    if entrant not in Competition.Entrant.values:
        raise DomainError("bad_entrant", "Entrants are teams, players or pairs.", field="entrant")
    if (kind == Competition.Kind.TEAM_KNOCKOUT) != (entrant == Competition.Entrant.TEAM):
        raise DomainError(
            "bad_entrant", "A team knock-out is entered by teams, and only it.", field="entrant"
        )
    for field, value in (("best_of", best_of), ("final_best_of", final_best_of)):
        if value is not None and (not 1 <= value <= MAX_BEST_OF or value % 2 == 0):
            raise DomainError(
                "bad_best_of", f"Best of an odd number of frames, 1 to {MAX_BEST_OF}.", field=field
            )
    if not 1 <= group_race_to <= 50:
        raise DomainError("bad_race_to", "A race to 1 to 50 frames.", field="group_race_to")
    if kind == Competition.Kind.GROUP_KNOCKOUT:
        if not group_size or not 2 <= group_size <= 32:
            raise DomainError("bad_group_size", "Groups of 2 to 32.", field="group_size")
        if not group_qualifiers or not 1 <= group_qualifiers < group_size:
            raise DomainError(
                "bad_qualifiers",
                "How many of each group go through: at least one, fewer than the group.",
                field="group_qualifiers",
            )
    if plate is not None and (plate.season_id != season.pk or plate.entrant != entrant):
        raise DomainError(
            "bad_plate",
            "The plate is a competition of the same season and entrants.",
            field="plate",
        )
    needs_plate = plate_rule == Competition.PlateRule.FIRST_ROUND_LOSERS or (
        group_others == Competition.GroupOthers.PLATE
    )
    if needs_plate and plate is None:
        raise DomainError("no_plate", "Name the plate the losers go into.", field="plate")
    try:
        fee_value = Decimal(str(fee))
    except ArithmeticError:
        raise DomainError("bad_fee", "The fee is an amount of money.", field="fee") from None
    if not fee_value.is_finite() or not 0 <= fee_value < 10000:
        raise DomainError("bad_fee", "The fee is from 0 to 9999.99.", field="fee")
    if handicap_min > handicap_max:
        raise DomainError(
            "bad_handicap", "The lowest start is at most the highest.", field="handicap_min"
        )
    if handicap_rule != Competition.HandicapRule.NONE and entrant == Competition.Entrant.TEAM:
        raise DomainError(
            "bad_handicap",
            "Starts are for individual events (singles, pairs).",
            field="handicap_rule",
        )
    if eligibility_label and len(eligibility_label) > 60:
        raise DomainError(
            "bad_label", "Keep the label under 60 characters.", field="eligibility_label"
        )
    base = slugify(name)[:50] or "competition"
    slug, n = base, 1
    while Competition.objects.filter(season=season, slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    competition = Competition.objects.create(
        season=season,
        name=name,
        slug=slug,
        kind=kind,
        entrant=entrant,
        best_of=best_of,
        final_best_of=final_best_of,
        group_size=group_size,
        group_qualifiers=group_qualifiers,
        group_race_to=group_race_to,
        group_others=group_others,
        plate_rule=plate_rule,
        plate=plate,
        entry_mode=entry_mode,
        entries_close_at=entries_close_at,
        fee=fee_value,
        require_registered=require_registered,
        eligibility_label=eligibility_label.strip(),
        cup_tied=cup_tied,
        handicap_rule=handicap_rule,
        handicap_step=handicap_step,
        handicap_min=handicap_min,
        handicap_max=handicap_max,
        created_at=now,
    )
    if eligible_players:
        competition.eligible_players.set(eligible_players)
    _log(competition, actor, "created", now, kind=kind)
    return competition


@transaction.atomic
def competition_set_eligible(
    *,
    actor: Any,
    competition: Competition,
    label: str,
    players: Sequence[Player],
    now: datetime | None = None,
) -> Competition:
    """The secretary names an eligibility rule ("ladies", "over 50s") and its list."""
    now = _now(now)
    _require_secretary(actor, competition, "set who may enter")
    label = " ".join((label or "").split())
    if len(label) > 60:
        raise DomainError("bad_label", "Keep the label under 60 characters.", field="label")
    competition.eligibility_label = label
    competition.save(update_fields=["eligibility_label"])
    competition.eligible_players.set(players)
    _log(competition, actor, "eligibility", now, label=label, players=[p.pk for p in players])
    return competition


# --------------------------------------------------------------------------- entries


def _registered(player: Player, season: Season) -> bool:
    return Registration.objects.filter(
        player=player, season=season, status=Registration.Status.ACTIVE
    ).exists()


def check_eligible(competition: Competition, player: Player) -> None:
    """Refuse a player the competition's rules exclude, naming the rule."""
    if competition.require_registered and not _registered(player, competition.season):
        raise DomainError(
            "not_registered",
            f"{player.name} is not registered with a team this season: the "
            f"{competition.name} is for registered players.",
            field="player",
        )
    if (
        competition.eligibility_label
        and not competition.eligible_players.filter(pk=player.pk).exists()
    ):
        raise DomainError(
            "not_eligible",
            f"{player.name} is not on the {competition.eligibility_label} list: the "
            f"{competition.name} is for {competition.eligibility_label} only.",
            field="player",
        )


def _check_entry_open(competition: Competition, actor: Any, now: datetime) -> bool:
    """Whether the actor enters as the secretary; refuses a closed entry."""
    secretary = allowed(actor, "competitions.manage", competition)
    if competition.stage != Competition.Stage.ENTRIES:
        raise DomainError(
            "entries_closed", f"The {competition.name} has been drawn: entries are closed."
        )
    if secretary:
        return True
    if competition.entry_mode != Competition.EntryMode.OPEN:
        raise DomainError(
            "secretary_enters", f"Only the secretary enters the {competition.name}.", status=403
        )
    if competition.entries_close_at is not None and now >= competition.entries_close_at:
        raise DomainError(
            "entries_closed",
            f"Entries for the {competition.name} closed on "
            f"{timezone.localtime(competition.entries_close_at):%d %b %Y %H:%M}.",
        )
    return False


@transaction.atomic
def entry_create(
    *,
    actor: Any,
    competition: Competition,
    team: Team | None = None,
    player: Player | None = None,
    partner: Player | None = None,
    start: int | None = None,
    source: str = "",
    now: datetime | None = None,
) -> Entry:
    """Enter a team, a player or a pair (the secretary, or the player or captain while
    entries are open), checked against the competition's eligibility rules."""
    now = _now(now)
    competition = _lock(competition)
    secretary = _check_entry_open(competition, actor, now)
    kind = competition.entrant
    if kind == Competition.Entrant.TEAM:
        if team is None or player is not None or partner is not None:
            raise DomainError(
                "bad_entry", "Teams enter this competition: name the team.", field="team"
            )
        if team.season_id != competition.season_id:
            raise DomainError(
                "wrong_season", f"{team.name} is not a team of {competition.season}.", field="team"
            )
        if not secretary and not team.is_captain(actor):
            raise DomainError(
                "not_captain", f"Only {team.name}'s captain enters the team.", status=403
            )
    else:
        if team is not None or player is None:
            raise DomainError(
                "bad_entry", "Players enter this competition: name the player.", field="player"
            )
        if kind == Competition.Entrant.PAIR and partner is None:
            raise DomainError("bad_entry", "A pair: name the partner too.", field="partner")
        if kind == Competition.Entrant.PLAYER and partner is not None:
            raise DomainError("bad_entry", "A singles entry has no partner.", field="partner")
        if partner is not None and partner.pk == player.pk:
            raise DomainError("bad_entry", "A pair is two different players.", field="partner")
        people = [p for p in (player, partner) if p is not None]
        if not secretary and not any(p.user_id == actor.pk for p in people):
            raise DomainError(
                "not_yours",
                "Enter yourself (or a pair you play in); the secretary enters others.",
                status=403,
            )
        for p in people:
            check_eligible(competition, p)
            taken = Entry.objects.filter(
                Q(player=p) | Q(partner=p), competition=competition, status=Entry.Status.ENTERED
            ).exists()
            if taken:
                raise DomainError(
                    "already_entered",
                    f"{p.name} is already entered in the {competition.name}.",
                    field="player",
                )
    if start is not None and not competition.handicap_min <= start <= competition.handicap_max:
        raise DomainError(
            "bad_start",
            f"A start is from {competition.handicap_min} to {competition.handicap_max}.",
            field="start",
        )
    existing = Entry.objects.filter(
        competition=competition, **({"team": team} if team is not None else {"player": player})
    ).first()
    if existing is not None:
        if existing.status == Entry.Status.ENTERED:
            raise DomainError(
                "already_entered",
                f"{existing.name} is already entered.",
                field="team" if team else "player",
            )
        existing.status = Entry.Status.ENTERED
        existing.partner = partner
        existing.withdrawn_at = None
        existing.save(update_fields=["status", "partner", "withdrawn_at"])
        entry = existing
    else:
        try:
            with transaction.atomic():
                entry = Entry.objects.create(
                    competition=competition,
                    team=team,
                    player=player,
                    partner=partner,
                    start=start or 0,
                    entered_by=actor if getattr(actor, "is_authenticated", False) else None,
                    entered_at=now,
                    source=source[:120],
                )
        except IntegrityError:
            raise DomainError("already_entered", "That entry is already in.") from None
    _log(competition, actor, "entered", now, entry=entry.pk, name=entry.name)
    return entry


@transaction.atomic
def entry_withdraw(*, actor: Any, entry: Entry, now: datetime | None = None) -> Entry:
    """Withdraw an entry. Before the draw it simply leaves; after, its undecided tie is
    recorded as a withdrawal and the opponent goes through."""
    now = _now(now)
    require(
        actor,
        "competitions.manage_entry",
        entry,
        message="Only the entrant or the secretary may withdraw it.",
    )
    _lock(entry.competition)
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    if entry.status == Entry.Status.WITHDRAWN:
        return entry
    entry.status = Entry.Status.WITHDRAWN
    entry.withdrawn_at = now
    entry.save(update_fields=["status", "withdrawn_at"])
    _log(entry.competition, actor, "withdrawn", now, entry=entry.pk)
    for tie in Tie.objects.filter(Q(home=entry) | Q(away=entry)).exclude(status__in=Tie.DECIDED):
        if tie.home_id and tie.away_id:
            other = tie.away if tie.home_id == entry.pk else tie.home
            assert other is not None
            _decide(tie, other, Tie.Status.WITHDRAWN, f"{entry.name} withdrew", actor, now)
    return entry


@transaction.atomic
def entry_mark_paid(*, actor: Any, entry: Entry, paid: bool, now: datetime | None = None) -> Entry:
    """Record an entry's fee as paid (or not)."""
    now = _now(now)
    _require_secretary(actor, entry.competition, "record fees")
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    if entry.paid != paid:
        entry.paid = paid
        entry.paid_at = now if paid else None
        entry.save(update_fields=["paid", "paid_at"])
        _log(entry.competition, actor, "paid" if paid else "unpaid", now, entry=entry.pk)
    return entry


@transaction.atomic
def entry_set_start(*, actor: Any, entry: Entry, start: int, now: datetime | None = None) -> Entry:
    """The secretary sets an entrant's handicap start (points a frame)."""
    now = _now(now)
    competition = entry.competition
    _require_secretary(actor, competition, "set starts")
    if competition.handicap_rule == Competition.HandicapRule.NONE:
        raise DomainError("not_handicap", f"The {competition.name} is played level.", field="start")
    if not competition.handicap_min <= start <= competition.handicap_max:
        raise DomainError(
            "bad_start",
            f"A start is from {competition.handicap_min} to {competition.handicap_max}.",
            field="start",
        )
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    entry.start = start
    entry.save(update_fields=["start"])
    # ties still to be played, with no frame yet, take the new start
    unplayed = Tie.objects.filter(status__in=[Tie.Status.PENDING, Tie.Status.SCHEDULED]).filter(
        frames__isnull=True
    )
    unplayed.filter(home=entry).update(home_start=start)
    unplayed.filter(away=entry).update(away_start=start)
    _log(competition, actor, "start", now, entry=entry.pk, start=start)
    return entry


# ------------------------------------------------------------------------------ draw


@transaction.atomic
def draw_commit(
    *, actor: Any, competition: Competition, commitment: str = "", now: datetime | None = None
) -> Competition:
    """The secretary commits to a secret for the draw's seed (the SHA-256 of a secret
    made on their device; without one the server makes it, unknowable to nobody but the
    server). The server commits to its own at the same time. Replacing a commitment is
    allowed until the secrets are revealed."""
    now = _now(now)
    _require_secretary(actor, competition, "commit to the draw")
    competition = _lock(competition)
    if competition.stage != Competition.Stage.ENTRIES:
        raise DomainError("already_drawn", f"The {competition.name} has been drawn.", status=409)
    value = (commitment or "").strip().lower()
    secret = ""
    if value:
        if not _HEX64.match(value):
            raise DomainError(
                "bad_commitment",
                "A commitment is the SHA-256 of the secret: 64 hexadecimal characters.",
                field="commitment",
            )
        made_by = "device"
    else:
        secret = secrets.token_hex(16)
        value = cupdraw.commitment(secret)
        made_by = "server"
    competition.secretary_commitment = value
    competition.secretary_secret = secret
    competition.server_secret = secrets.token_hex(16)
    competition.server_commitment = cupdraw.commitment(competition.server_secret)
    competition.save(
        update_fields=[
            "secretary_commitment",
            "secretary_secret",
            "server_commitment",
            "server_secret",
        ]
    )
    _log(
        competition,
        actor,
        "committed",
        now,
        commitment=value,
        made_by=made_by,
        server_commitment=competition.server_commitment,
    )
    return competition


@transaction.atomic
def draw_reveal(
    *, actor: Any, competition: Competition, secret: str, now: datetime | None = None
) -> Competition:
    """The secretary reveals the secret they committed to; a mismatch is refused."""
    now = _now(now)
    _require_secretary(actor, competition, "reveal the draw's secret")
    competition = _lock(competition)
    if not competition.secretary_commitment:
        raise DomainError("not_committed", "Commit to a secret before revealing it.")
    secret = (secret or "").strip()
    if (
        not secret
        or len(secret) > 128
        or cupdraw.commitment(secret) != competition.secretary_commitment
    ):
        raise DomainError(
            "reveal_mismatch",
            f"That secret does not match the commitment {competition.secretary_commitment[:12]}….",
            field="secret",
        )
    if competition.secretary_secret != secret:
        competition.secretary_secret = secret
        competition.save(update_fields=["secretary_secret"])
        _log(competition, actor, "revealed", now)
    return competition


def _round_best_of(competition: Competition, number: int, rounds: int) -> int | None:
    if competition.is_team_event:
        return None
    if number == rounds and competition.final_best_of:
        return competition.final_best_of
    return competition.best_of


def _make_bracket(
    competition: Competition,
    drawn: cupdraw.KnockoutDraw,
    by_key: Mapping[str, Entry],
    now: datetime,
) -> None:
    names = cupdraw.round_names(drawn.rounds)
    rounds = []
    for number in range(1, drawn.rounds + 1):
        rounds.append(
            Round.objects.create(
                competition=competition,
                number=number,
                name=names[number - 1],
                best_of=_round_best_of(competition, number, drawn.rounds),
            )
        )
    ties = []
    for number, rnd in enumerate(rounds, start=1):
        for slot in range(1, drawn.size // (2**number) + 1):
            ties.append(Tie(competition=competition, round=rnd, slot=slot, best_of=rnd.best_of))
    Tie.objects.bulk_create(ties)
    first = {t.slot: t for t in Tie.objects.filter(round=rounds[0])}
    for d in drawn.ties:
        tie = first[d.slot]
        tie.home = by_key[d.home]
        if d.bye:
            tie.bye = True
            tie.save(update_fields=["home", "bye"])
            _decide(tie, tie.home, Tie.Status.BYE, "", None, now)
        else:
            tie.away = by_key[d.away]  # type: ignore[index]
            tie.status = Tie.Status.SCHEDULED
            tie.save(update_fields=["home", "away", "status"])
            _tie_ready(tie)


@transaction.atomic
def draw_perform(
    *, actor: Any, competition: Competition, now: datetime | None = None
) -> Competition:
    """Perform the draw once the secretary's secret is revealed: the seed is
    `derive_seed(secretary's secret, server's secret)`, the entrants are the entries in,
    and `competitions.draw` places them (a bracket, or groups). Stored: the seed, the
    algorithm, the commitments, the secrets and the draw itself, to replay it."""
    now = _now(now)
    _require_secretary(actor, competition, "draw the competition")
    competition = _lock(competition)
    if competition.stage != Competition.Stage.ENTRIES:
        raise DomainError("already_drawn", f"The {competition.name} has been drawn.", status=409)
    if not (competition.secretary_commitment and competition.secretary_secret):
        raise DomainError(
            "not_revealed", "Commit to a secret and reveal it before the draw is made."
        )
    entries = list(
        Entry.objects.filter(competition=competition, status=Entry.Status.ENTERED).select_related(
            "team", "player", "partner"
        )
    )
    by_key = {str(e.pk): e for e in entries}
    seed = cupdraw.derive_seed(competition.secretary_secret, competition.server_secret)
    try:
        if competition.has_groups:
            assert competition.group_size is not None
            groups = cupdraw.draw_groups(list(by_key), seed, competition.group_size)
            record = groups.to_json()
            _make_groups(competition, groups, by_key)
        else:
            drawn = cupdraw.draw_knockout(list(by_key), seed)
            record = drawn.to_json()
            _make_bracket(competition, drawn, by_key, now)
    except cupdraw.CupDrawError as exc:
        raise DomainError(exc.code, exc.message) from None
    record["entrants"] = {key: e.name for key, e in by_key.items()}
    record["commitments"] = {
        "secretary": competition.secretary_commitment,
        "server": competition.server_commitment,
    }
    competition.seed = seed
    competition.algorithm = cupdraw.ALGORITHM_VERSION
    competition.draw_record = record
    competition.drawn_at = now
    competition.stage = Competition.Stage.DRAWN
    competition.save(update_fields=["seed", "algorithm", "draw_record", "drawn_at", "stage"])
    _log(competition, actor, "drawn", now, seed=str(seed), algorithm=competition.algorithm)
    return competition


def _make_groups(
    competition: Competition, drawn: cupdraw.GroupDraw, by_key: Mapping[str, Entry]
) -> None:
    race_to = competition.group_race_to
    for number, (members, lots) in enumerate(zip(drawn.groups, drawn.lots, strict=True), start=1):
        group = Group.objects.create(
            competition=competition, number=number, name=f"Group {_letters(number)}"
        )
        GroupMember.objects.bulk_create(
            GroupMember(group=group, entry=by_key[key], position=i, lot=lot)
            for i, (key, lot) in enumerate(zip(members, lots, strict=True), start=1)
        )
        Tie.objects.bulk_create(
            Tie(
                competition=competition,
                group=group,
                slot=slot,
                home=by_key[members[a - 1]],
                away=by_key[members[b - 1]],
                status=Tie.Status.SCHEDULED,
                race_to=race_to,
                home_start=by_key[members[a - 1]].start,
                away_start=by_key[members[b - 1]].start,
            )
            for slot, (a, b) in enumerate(cupdraw.group_fixtures(len(members)), start=1)
        )


def _letters(n: int) -> str:
    out = ""
    while n:
        n, r = divmod(n - 1, 26)
        out = chr(65 + r) + out
    return out


@transaction.atomic
def knockout_draw_from_groups(
    *, actor: Any, competition: Competition, now: datetime | None = None
) -> Competition:
    """Once every group match is decided: the qualifiers (each group's top
    `group_qualifiers`, by the group tables) are drawn into the knock-out with the seed
    `derive_seed(secretary's secret, server's secret, "knockout")`; the others go into
    the plate when the competition says so."""
    now = _now(now)
    _require_secretary(actor, competition, "draw the knock-out")
    competition = _lock(competition)
    if not competition.has_groups or competition.stage != Competition.Stage.DRAWN:
        raise DomainError(
            "not_groups", "Only a group event, after its group draw, draws its knock-out."
        )
    if Tie.objects.filter(group__competition=competition).exclude(status__in=Tie.DECIDED).exists():
        raise DomainError("groups_unfinished", "Every group match must be decided first.")
    qualifiers: list[Entry] = []
    others: list[Entry] = []
    assert competition.group_qualifiers is not None
    for group in Group.objects.filter(competition=competition).order_by("number"):
        table = group_table(group)
        for row in table.rows:
            (qualifiers if row.position <= competition.group_qualifiers else others).append(
                row.entry
            )
    seed = cupdraw.derive_seed(competition.secretary_secret, competition.server_secret, "knockout")
    by_key = {str(e.pk): e for e in qualifiers}
    try:
        drawn = cupdraw.draw_knockout(list(by_key), seed)
    except cupdraw.CupDrawError as exc:
        raise DomainError(exc.code, exc.message) from None
    _make_bracket(competition, drawn, by_key, now)
    record = dict(competition.draw_record)
    record["knockout"] = {**drawn.to_json(), "qualifiers": list(by_key)}
    competition.draw_record = record
    competition.knockout_seed = seed
    competition.stage = Competition.Stage.KNOCKOUT
    competition.save(update_fields=["draw_record", "knockout_seed", "stage"])
    if competition.group_others == Competition.GroupOthers.PLATE and competition.plate_id:
        for entry in others:
            _enter_plate(
                competition,
                entry,
                f"did not qualify from the groups of the {competition.name}",
                now,
            )
    _log(competition, actor, "knockout_drawn", now, seed=str(seed))
    return competition


# ---------------------------------------------------------------------------- rounds


@transaction.atomic
def round_set_dates(
    *,
    actor: Any,
    round: Round,
    date: date | None,
    deadline: datetime | None,
    now: datetime | None = None,
) -> Round:
    """The secretary sets a round's date and deadline; the round's cup fixtures take
    the date."""
    now = _now(now)
    _require_secretary(actor, round.competition, "set a round's dates")
    round.date = date
    round.deadline = deadline
    round.save(update_fields=["date", "deadline"])
    Fixture.objects.filter(cup_tie__round=round, result_confirmed_at__isnull=True).update(date=date)
    _log(
        round.competition,
        actor,
        "round_dates",
        now,
        round=round.number,
        date=str(date) if date else None,
        deadline=deadline.isoformat() if deadline else None,
    )
    return round


# ------------------------------------------------------------------------------ ties


def _tie_ready(tie: Tie) -> None:
    """A tie with both entrants: its starts, and for a team tie its cup fixture."""
    competition = tie.competition
    assert tie.home is not None and tie.away is not None
    fields = ["status", "home_start", "away_start"]
    tie.status = Tie.Status.SCHEDULED
    tie.home_start, tie.away_start = tie.home.start, tie.away.start
    if competition.is_team_event and tie.fixture_id is None:
        home, away = tie.home.team, tie.away.team
        assert home is not None and away is not None
        tie.fixture = Fixture.objects.create(
            season=competition.season,
            kind=Fixture.Kind.CUP,
            division=None,
            round=tie.round.number if tie.round else 0,
            home=home,
            away=away,
            venue=home.venue,
            date=tie.round.date if tie.round else None,
            note=f"{competition.name}, {tie.round.name if tie.round else ''}".strip(", ")[:200],
        )
        fields.append("fixture")
    tie.save(update_fields=fields)


def _next_tie(tie: Tie) -> tuple[Tie, str] | None:
    if tie.round is None:
        return None
    nxt = (
        Tie.objects.select_for_update(of=("self",))
        .filter(
            round__competition=tie.competition_id,
            round__number=tie.round.number + 1,
            slot=(tie.slot + 1) // 2,
        )
        .select_related("round", "competition")
        .order_by("pk")
        .first()
    )
    if nxt is None:
        return None
    return nxt, "home" if tie.slot % 2 == 1 else "away"


def _enter_plate(competition: Competition, entry: Entry, why: str, now: datetime) -> None:
    plate = competition.plate
    if plate is None or plate.stage != Competition.Stage.ENTRIES:
        return
    kwargs = {"team": entry.team} if entry.team_id else {"player": entry.player}
    if Entry.objects.filter(competition=plate, **kwargs).exists():
        return
    Entry.objects.create(
        competition=plate,
        team=entry.team,
        player=entry.player,
        partner=entry.partner,
        start=entry.start,
        entered_at=now,
        source=why[:120],
    )
    _log(plate, None, "entered", now, name=entry.name, source=why)


def _move_starts(tie: Tie) -> None:
    competition = tie.competition
    if (
        competition.handicap_rule != Competition.HandicapRule.MOVING
        or tie.status != Tie.Status.PLAYED
    ):
        return
    step = competition.handicap_step
    lo, hi = competition.handicap_min, competition.handicap_max
    for entry, delta in (
        (tie.winner, -step),
        (tie.home if tie.winner_id == tie.away_id else tie.away, step),
    ):
        assert entry is not None
        entry.start = max(lo, min(hi, entry.start + delta))
        entry.save(update_fields=["start"])


def _decide(tie: Tie, winner: Entry, status: str, reason: str, actor: Any, now: datetime) -> Tie:
    """Record a tie's winner and send them through: into the next round's tie (its home
    slot for the upper tie), losers of round one into the plate, the final's winner as the
    competition's."""
    tie.winner = winner
    tie.status = status
    tie.award_reason = reason[:200]
    tie.decided_by = actor if getattr(actor, "is_authenticated", False) else None
    tie.decided_at = now
    tie.save(
        update_fields=[
            "winner",
            "status",
            "award_reason",
            "decided_by",
            "decided_at",
            "home_frames",
            "away_frames",
            "home_score",
            "away_score",
        ]
    )
    competition = tie.competition
    _log(
        competition, actor, "decided", now, tie=tie, winner=winner.pk, status=status, reason=reason
    )
    _move_starts(tie)
    loser = None if tie.bye else (tie.away if winner.pk == tie.home_id else tie.home)
    if tie.round is not None:
        if (
            tie.round.number == 1
            and loser is not None
            and competition.plate_rule == Competition.PlateRule.FIRST_ROUND_LOSERS
            and status != Tie.Status.WITHDRAWN
        ):
            _enter_plate(competition, loser, f"lost in round 1 of the {competition.name}", now)
        nxt = _next_tie(tie)
        if nxt is None:
            competition.winner = winner
            competition.runner_up = loser
            competition.stage = Competition.Stage.FINISHED
            competition.finished_at = now
            competition.save(update_fields=["winner", "runner_up", "stage", "finished_at"])
            _log(competition, actor, "finished", now, winner=winner.pk)
            # The roll of honour, under the names they have now (kept if they change).
            honours.record_honour(
                season=competition.season,
                title=competition.name,
                kind="competition",
                source=f"competition:{competition.pk}",
                winner=_holder(winner),
                runner_up=_holder(loser) if loser is not None else None,
                now=now,
            )
        else:
            next_tie, side = nxt
            setattr(next_tie, side, winner)
            next_tie.save(update_fields=[side])
            if next_tie.home_id and next_tie.away_id:
                _tie_ready(next_tie)
    return tie


def _lock_tie(tie: Tie) -> Tie:
    return (
        Tie.objects.select_for_update(of=("self",))
        .select_related(
            "competition__season",
            "round",
            "home__team",
            "away__team",
            "home__player",
            "away__player",
            "home__partner",
            "away__partner",
        )
        .get(pk=tie.pk)
    )


def _require_open_tie(tie: Tie) -> None:
    if tie.decided:
        raise DomainError("tie_decided", "This tie is already decided.", status=409)
    if not (tie.home_id and tie.away_id):
        raise DomainError("tie_not_ready", "This tie is waiting for its entrants.", status=409)


def _side_entry(tie: Tie, side: str) -> Entry:
    if side not in ("home", "away"):
        raise DomainError("bad_side", "A side is 'home' or 'away'.", field="winner")
    entry = tie.home if side == "home" else tie.away
    assert entry is not None
    return entry


def tie_deadline(tie: Tie) -> datetime | None:
    if tie.round is not None:
        return tie.round.deadline
    return tie.group.deadline if tie.group is not None else None


@transaction.atomic
def tie_award(
    *, actor: Any, tie: Tie, winner: str, reason: str, now: datetime | None = None
) -> Tie:
    """The secretary awards a tie not played by its deadline to one side, with a reason."""
    now = _now(now)
    _require_secretary(actor, tie, "award a tie")
    tie = _lock_tie(tie)
    _require_open_tie(tie)
    reason = " ".join((reason or "").split())
    if not reason:
        raise DomainError("no_reason", "Give the reason for the award.", field="reason")
    deadline = tie_deadline(tie)
    if deadline is None or now < deadline:
        raise DomainError(
            "before_deadline",
            "A tie can be awarded only once its round's deadline has passed"
            + (
                f" ({timezone.localtime(deadline):%d %b %Y %H:%M})."
                if deadline
                else " (it has none)."
            ),
        )
    return _decide(tie, _side_entry(tie, winner), Tie.Status.AWARDED, reason, actor, now)


@transaction.atomic
def tie_walkover(
    *, actor: Any, tie: Tie, winner: str, reason: str, now: datetime | None = None
) -> Tie:
    """The secretary records a walkover (the other side did not turn up), with a reason."""
    now = _now(now)
    _require_secretary(actor, tie, "record a walkover")
    tie = _lock_tie(tie)
    _require_open_tie(tie)
    reason = " ".join((reason or "").split())
    if not reason:
        raise DomainError("no_reason", "Give the reason for the walkover.", field="reason")
    return _decide(tie, _side_entry(tie, winner), Tie.Status.WALKOVER, reason, actor, now)


@transaction.atomic
def tie_withdraw(
    *, actor: Any, tie: Tie, side: str, reason: str = "", now: datetime | None = None
) -> Tie:
    """One side withdraws from a tie (the secretary records it): the other goes through."""
    now = _now(now)
    _require_secretary(actor, tie, "record a withdrawal")
    tie = _lock_tie(tie)
    _require_open_tie(tie)
    leaving = _side_entry(tie, side)
    other = tie.away if leaving.pk == tie.home_id else tie.home
    assert other is not None
    reason = " ".join((reason or "").split()) or f"{leaving.name} withdrew"
    return _decide(tie, other, Tie.Status.WITHDRAWN, reason, actor, now)


def frames_to_win(tie: Tie) -> int:
    if tie.race_to:
        return tie.race_to
    best_of = tie.best_of or tie.competition.best_of
    return best_of // 2 + 1


def _winner_of_frames(tie: Tie, wins: Mapping[str, int]) -> str | None:
    need = frames_to_win(tie)
    for side in ("home", "away"):
        if wins[side] >= need:
            return side
    return None


def _check_frames(tie: Tie, frames: Sequence[Mapping[str, Any]]) -> list[tuple[int, int, str]]:
    """Paper frames: each {home, away} scores; the winner is the higher score. They must
    end exactly when one side has won the tie."""
    if not isinstance(frames, list | tuple) or not frames:
        raise DomainError("bad_frames", "Give each frame's scores, in order.", field="frames")
    need = frames_to_win(tie)
    if len(frames) > 2 * need - 1:
        raise DomainError("bad_frames", f"At most {2 * need - 1} frames.", field="frames")
    out = []
    wins = {"home": 0, "away": 0}
    for i, frame in enumerate(frames, start=1):
        if _winner_of_frames(tie, wins) is not None:
            raise DomainError(
                "bad_frames", f"Frame {i} comes after the tie was won.", field="frames"
            )
        try:
            home, away = frame["home"], frame["away"]
        except (TypeError, KeyError):
            raise DomainError(
                "bad_frames", f"Frame {i}: give home and away scores.", field="frames"
            ) from None
        if not all(
            isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= MAX_FRAME_SCORE
            for v in (home, away)
        ):
            raise DomainError(
                "bad_frames", f"Frame {i}: scores are whole numbers from 0.", field="frames"
            )
        winner = frame.get("winner") or ("home" if home > away else "away" if away > home else "")
        if winner not in ("home", "away"):
            raise DomainError(
                "bad_frames",
                f"Frame {i} is level: say who won it (winner: home or away).",
                field="frames",
            )
        wins[winner] += 1
        out.append((home, away, winner))
    if _winner_of_frames(tie, wins) is None:
        raise DomainError(
            "bad_frames", f"Nobody has won {need} frames: the tie is not finished.", field="frames"
        )
    return out


def _tally(tie: Tie, frames: Sequence[tuple[int, int, str]]) -> str:
    tie.home_frames = Decimal(sum(1 for f in frames if f[2] == "home"))
    tie.away_frames = Decimal(sum(1 for f in frames if f[2] == "away"))
    tie.home_score = sum(f[0] for f in frames)
    tie.away_score = sum(f[1] for f in frames)
    return "home" if tie.home_frames > tie.away_frames else "away"


@transaction.atomic
def tie_record_paper(
    *, actor: Any, tie: Tie, frames: Sequence[Mapping[str, Any]], now: datetime | None = None
) -> Tie:
    """An individual tie's frames keyed in from the paper scoresheet. From the secretary
    the result counts at once; from a player it counts once the other side confirms
    (`tie_confirm`)."""
    now = _now(now)
    require(
        actor,
        "competitions.play_tie",
        tie,
        message="Only the tie's players or the secretary may enter its result.",
    )
    tie = _lock_tie(tie)
    _require_open_tie(tie)
    if tie.competition.is_team_event:
        raise DomainError(
            "team_tie", "A team tie is played as a match: enter its scores on the match's page."
        )
    checked = _check_frames(tie, frames)
    TieFrame.objects.filter(tie=tie).delete()
    TieFrame.objects.bulk_create(
        TieFrame(tie=tie, number=i, home_score=h, away_score=a, winner=w, source="paper")
        for i, (h, a, w) in enumerate(checked, start=1)
    )
    _tally(tie, checked)
    tie.home_confirmed_by = tie.away_confirmed_by = None
    _log(tie.competition, actor, "paper", now, tie=tie, frames=[list(f) for f in checked])
    return _sign(tie, actor, now)


def _sign(tie: Tie, actor: Any, now: datetime) -> Tie:
    """The side(s) the actor speaks for sign the result; the secretary's word is final.
    Both sides signed: the tie is played and its winner goes through."""
    secretary = allowed(actor, "competitions.manage", tie)
    for side, entry in (("home", tie.home), ("away", tie.away)):
        if secretary or speaks_for_entry(actor, entry):
            setattr(tie, f"{side}_confirmed_by", actor)
    tie.save(
        update_fields=[
            "home_frames",
            "away_frames",
            "home_score",
            "away_score",
            "home_confirmed_by",
            "away_confirmed_by",
        ]
    )
    if tie.home_confirmed_by_id and tie.away_confirmed_by_id:
        winner = "home" if (tie.home_frames or 0) > (tie.away_frames or 0) else "away"
        _decide(tie, _side_entry(tie, winner), Tie.Status.PLAYED, "", actor, now)
    return tie


def _pad_frames(tie: Tie) -> list[tuple[int, int, str]]:
    out = []
    for tf in TieFrame.objects.filter(tie=tie).select_related("frame").order_by("number"):
        frame = tf.frame
        if frame is not None and frame.status == Frame.Status.COMPLETE:
            result = side_result(frame_outcome(frame), frame.parties)
            tf.home_score, tf.away_score = result.home or 0, result.away or 0
            tf.winner = result.winner
            tf.source = "pad"
            tf.save(update_fields=["home_score", "away_score", "winner", "source"])
        if tf.winner not in ("home", "away"):
            raise DomainError(
                "frame_unfinished", f"Frame {tf.number} has no winner yet.", status=409
            )
        out.append((tf.home_score or 0, tf.away_score or 0, tf.winner))
    return out


@transaction.atomic
def tie_confirm(*, actor: Any, tie: Tie, now: datetime | None = None) -> Tie:
    """A side (or the secretary) signs off the tie's frames, scored on the pad or keyed
    in by the other side. Once both sides have, the winner goes through."""
    now = _now(now)
    require(
        actor,
        "competitions.play_tie",
        tie,
        message="Only the tie's players or the secretary may confirm it.",
    )
    tie = _lock_tie(tie)
    _require_open_tie(tie)
    frames = _pad_frames(tie)
    if (
        not frames
        or _winner_of_frames(
            tie,
            {
                "home": sum(1 for f in frames if f[2] == "home"),
                "away": sum(1 for f in frames if f[2] == "away"),
            },
        )
        is None
    ):
        raise DomainError("tie_unfinished", "Nobody has won the tie yet.", status=409)
    _tally(tie, frames)
    _log(tie.competition, actor, "confirmed", now, tie=tie)
    return _sign(tie, actor, now)


@transaction.atomic
def tie_frame_open(*, actor: Any, tie: Tie, now: datetime | None = None) -> TieFrame:
    """Open the tie's next frame for the pad: a frame of the season's game between the
    two entrants, each side starting on its handicap start, scored by whoever opened it
    (the pad's friendly-frame flow). Refused once the tie is won."""
    now = _now(now)
    require(
        actor,
        "competitions.play_tie",
        tie,
        message="Only the tie's players or the secretary may score it.",
    )
    tie = _lock_tie(tie)
    _require_open_tie(tie)
    competition = tie.competition
    if competition.is_team_event:
        raise DomainError("team_tie", "A team tie is played as a match: open its match night.")
    existing = list(TieFrame.objects.filter(tie=tie).select_related("frame").order_by("number"))
    wins = {"home": 0, "away": 0}
    for tf in existing:
        frame = tf.frame
        if frame is not None and frame.status != Frame.Status.COMPLETE:
            return tf  # the frame in play
        winner = tf.winner
        if frame is not None:
            winner = side_result(frame_outcome(frame), frame.parties).winner
        if winner in wins:
            wins[winner] += 1
    if _winner_of_frames(tie, wins) is not None:
        raise DomainError("tie_won", "The tie is won: confirm its result.", status=409)
    season = competition.season
    names = {
        side: [p.name for p in (entry.player, entry.partner) if p is not None]
        for side, entry in (("home", tie.home), ("away", tie.away))
        if entry is not None
    }
    options = dict(season.game_options or {})
    if tie.home_start or tie.away_start:
        options["starts"] = {"home": tie.home_start, "away": tie.away_start}
    try:
        setup, parties = side_setup(season.game_id, names, options)
    except RuleError as exc:
        raise DomainError(exc.code, exc.message, field="start") from None
    number = len(existing) + 1
    friendly = Friendly.objects.create(
        owner=actor, title=f"{competition.name}: {tie}, frame {number}"[:120], created_at=now
    )
    frame = Frame.objects.create(
        friendly=friendly,
        number=1,
        order=1,
        kind=Frame.Kind.SINGLES if len(names.get("home", [])) < 2 else Frame.Kind.DOUBLES,
        game_id=season.game_id,
        setup=setup,
        parties=parties,
    )
    tf = TieFrame.objects.create(tie=tie, number=number, frame=frame, source="pad")
    _log(competition, actor, "frame_opened", now, tie=tie, frame=frame.pk)
    return tf


def tie_fixture_result(fixture: Fixture) -> None:
    """The leagues hook: a cup fixture's confirmed result decides its tie (more frames
    wins; level on frames, the higher aggregate; level on both, the secretary awards)."""
    tie = Tie.objects.filter(fixture=fixture).first()
    if tie is None:
        return
    tie = _lock_tie(tie)
    if tie.decided:
        return
    tie.home_frames, tie.away_frames = fixture.home_frames, fixture.away_frames
    tie.home_score, tie.away_score = fixture.home_score, fixture.away_score
    key = ((fixture.home_frames or 0), (fixture.home_score or 0))
    other = ((fixture.away_frames or 0), (fixture.away_score or 0))
    now = fixture.result_confirmed_at or timezone.now()
    if key == other:
        tie.save(update_fields=["home_frames", "away_frames", "home_score", "away_score"])
        _log(tie.competition, None, "level", now, tie=tie)
        return
    _decide(tie, tie.home if key > other else tie.away, Tie.Status.PLAYED, "", None, now)  # type: ignore[arg-type]


def _holder(entry: Entry) -> Team | list[Player]:
    """Who an entry is on the roll of honour: its team, or its player (and partner)."""
    if entry.team is not None:
        return entry.team
    return [p for p in (entry.player, entry.partner) if p is not None]
