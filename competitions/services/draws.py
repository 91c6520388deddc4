"""The draw: the secretary's and the server's commitments, the reveal, the draw itself
(a bracket or groups) and the knock-out drawn from the groups."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.db import transaction

from marker import commit_reveal
from marker.errors import DomainError

from .. import draw as cupdraw
from ..common import lock_competition, log, require_secretary, resolve_now
from ..models import Competition, Entry, Group, GroupMember, Round, Tie
from ..results import enter_plate, tie_decide, tie_ready
from ..selectors import group_table
from .notices import cup_draw_notify

#: The prefix of a group event's knock-out draw fields (its own commit and reveal).
KNOCKOUT = "knockout_"


def _groups_decided(competition: Competition) -> bool:
    return (
        not Tie.objects.filter(group__competition=competition)
        .exclude(status__in=Tie.DECIDED)
        .exists()
    )


def _draw_round(competition: Competition) -> str:
    """The prefix of the fields of the draw still to make: ``""`` (the draw itself) while
    entries are open, ``"knockout_"`` for a group event's knock-out once its groups are
    drawn. The knock-out has its own commit and reveal: the group draw's secrets are
    public from the group draw on, so a seed made from them would be known in advance."""
    if competition.stage == Competition.Stage.ENTRIES:
        return ""
    if competition.has_groups and competition.stage == Competition.Stage.DRAWN:
        return KNOCKOUT
    raise DomainError("already_drawn", f"The {competition.name} has been drawn.", status=409)


@transaction.atomic
def draw_commit(
    *, actor: Any, competition: Competition, commitment: str = "", now: datetime | None = None
) -> Competition:
    """The secretary commits to a secret for the draw's seed (the SHA-256 of a secret
    made on their device; without one the server makes it, unknowable to nobody but the
    server). The server commits to its own at the same time. Replacing a commitment is
    allowed until the secrets are revealed. A group event's knock-out is committed to
    afresh once every group match is decided (marker/commit_reveal.py)."""
    now = resolve_now(now)
    require_secretary(actor, competition, "commit to the draw")
    competition = lock_competition(competition)
    prefix = _draw_round(competition)
    if prefix == KNOCKOUT and not _groups_decided(competition):
        raise DomainError(
            "groups_unfinished",
            "The knock-out's draw is committed to once every group match is decided.",
        )
    value = commit_reveal.normalise_commitment(commitment)
    secret = ""
    if value:
        if not commit_reveal.is_commitment(value):
            raise DomainError(
                "bad_commitment",
                "A commitment is the SHA-256 of the secret: 64 hexadecimal characters.",
                field="commitment",
            )
        made_by = "device"
    else:
        secret = commit_reveal.new_secret()
        value = commit_reveal.commitment(secret)
        made_by = "server"
    server_secret = commit_reveal.new_secret()
    server_commitment = commit_reveal.commitment(server_secret)
    setattr(competition, f"{prefix}secretary_commitment", value)
    setattr(competition, f"{prefix}secretary_secret", secret)
    setattr(competition, f"{prefix}server_secret", server_secret)
    setattr(competition, f"{prefix}server_commitment", server_commitment)
    competition.save(
        update_fields=[
            f"{prefix}secretary_commitment",
            f"{prefix}secretary_secret",
            f"{prefix}server_commitment",
            f"{prefix}server_secret",
        ]
    )
    detail: dict[str, Any] = {"knockout": True} if prefix else {}
    log(
        competition,
        actor,
        "committed",
        now,
        commitment=value,
        made_by=made_by,
        server_commitment=server_commitment,
        **detail,
    )
    return competition


@transaction.atomic
def draw_reveal(
    *, actor: Any, competition: Competition, secret: str, now: datetime | None = None
) -> Competition:
    """The secretary reveals the secret they committed to (the knock-out's, for a group
    event drawn into groups); a mismatch is refused."""
    now = resolve_now(now)
    require_secretary(actor, competition, "reveal the draw's secret")
    competition = lock_competition(competition)
    prefix = (
        KNOCKOUT
        if competition.has_groups and competition.stage != Competition.Stage.ENTRIES
        else ""
    )
    recorded = getattr(competition, f"{prefix}secretary_commitment")
    if not recorded:
        raise DomainError("not_committed", "Commit to a secret before revealing it.")
    secret = (secret or "").strip()
    if len(secret) > 128 or not commit_reveal.verify(secret, recorded):
        raise DomainError(
            "reveal_mismatch",
            f"That secret does not match the commitment {recorded[:12]}….",
            field="secret",
        )
    if getattr(competition, f"{prefix}secretary_secret") != secret:
        setattr(competition, f"{prefix}secretary_secret", secret)
        competition.save(update_fields=[f"{prefix}secretary_secret"])
        detail: dict[str, Any] = {"knockout": True} if prefix else {}
        log(competition, actor, "revealed", now, **detail)
    return competition


def _revealed_seed(competition: Competition, prefix: str, *labels: str) -> int:
    """The seed of a revealed round: both secrets checked against their commitments."""
    secretary = getattr(competition, f"{prefix}secretary_secret")
    if not (getattr(competition, f"{prefix}secretary_commitment") and secretary):
        raise DomainError(
            "not_revealed", "Commit to a secret and reveal it before the draw is made."
        )
    server = getattr(competition, f"{prefix}server_secret")
    if not commit_reveal.verify(server, getattr(competition, f"{prefix}server_commitment")):
        raise DomainError(
            "server_secret_mismatch",
            "The server's secret does not match its commitment; commit again.",
            status=409,
        )
    return commit_reveal.derive_seed(secretary, server, *labels)


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
            tie_decide(tie, tie.home, Tie.Status.BYE, "", None, now)
        else:
            tie.away = by_key[d.away]  # type: ignore[index]
            tie.status = Tie.Status.SCHEDULED
            tie.save(update_fields=["home", "away", "status"])
            tie_ready(tie)


@transaction.atomic
def draw_perform(
    *, actor: Any, competition: Competition, now: datetime | None = None
) -> Competition:
    """Perform the draw once the secretary's secret is revealed: the seed is
    `derive_seed(secretary's secret, server's secret)`, the entrants are the entries in,
    and `competitions.draw` places them (a bracket, or groups). Stored: the seed, the
    algorithm, the commitments, the secrets and the draw itself, to replay it."""
    now = resolve_now(now)
    require_secretary(actor, competition, "draw the competition")
    competition = lock_competition(competition)
    if competition.stage != Competition.Stage.ENTRIES:
        raise DomainError("already_drawn", f"The {competition.name} has been drawn.", status=409)
    seed = _revealed_seed(competition, "")
    entries = list(
        Entry.objects.filter(competition=competition, status=Entry.Status.ENTERED).select_related(
            "team", "player", "partner"
        )
    )
    by_key = {str(e.pk): e for e in entries}
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
    log(competition, actor, "drawn", now, seed=str(seed), algorithm=competition.algorithm)
    cup_draw_notify(competition=competition, knockout=False, now=now)
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
    `derive_seed(knock-out secretary's secret, knock-out server's secret, "knockout")`,
    from the knock-out's own commit and reveal made once the groups were decided; the
    others go into the plate when the competition says so."""
    now = resolve_now(now)
    require_secretary(actor, competition, "draw the knock-out")
    competition = lock_competition(competition)
    if not competition.has_groups or competition.stage != Competition.Stage.DRAWN:
        raise DomainError(
            "not_groups", "Only a group event, after its group draw, draws its knock-out."
        )
    if not _groups_decided(competition):
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
    seed = _revealed_seed(competition, KNOCKOUT, "knockout")
    by_key = {str(e.pk): e for e in qualifiers}
    try:
        drawn = cupdraw.draw_knockout(list(by_key), seed)
    except cupdraw.CupDrawError as exc:
        raise DomainError(exc.code, exc.message) from None
    _make_bracket(competition, drawn, by_key, now)
    record = dict(competition.draw_record)
    record["knockout"] = {
        **drawn.to_json(),
        "qualifiers": list(by_key),
        "commitments": {
            "secretary": competition.knockout_secretary_commitment,
            "server": competition.knockout_server_commitment,
        },
    }
    competition.draw_record = record
    competition.knockout_seed = seed
    competition.stage = Competition.Stage.KNOCKOUT
    competition.save(update_fields=["draw_record", "knockout_seed", "stage"])
    if competition.group_others == Competition.GroupOthers.PLATE and competition.plate_id:
        for entry in others:
            enter_plate(
                competition,
                entry,
                f"did not qualify from the groups of the {competition.name}",
                now,
            )
    log(competition, actor, "knockout_drawn", now, seed=str(seed))
    cup_draw_notify(competition=competition, knockout=True, now=now)
    return competition
