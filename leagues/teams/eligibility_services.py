"""The writes of the registration rules (docs/eligibility.md): the season's rules, a
transfer requested, decided and applied, an appearance playing up, and the secretary's
decision on a frame played by an ineligible player. Every step is logged
(`EligibilityLog`: who, when, which rule)."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from leagues import eligibility
from leagues.models import (
    EligibilityLog,
    Fixture,
    Player,
    PlayUp,
    Registration,
    Season,
    SeasonRegistrationRules,
    Team,
    Transfer,
)
from leagues.teams.services import registration_mark_played, roster_add_player
from marker.errors import DomainError
from marker.permissions import require

Actor = Any

#: The fields of SeasonRegistrationRules the secretary sets.
RULE_FIELDS = (
    "registrations_open",
    "registrations_close",
    "close_at_first_match_after",
    "min_notice_days",
    "play_up_allowed",
    "play_up_cap",
    "play_up_divisions",
    "transfers_allowed",
    "transfers_only_while_open",
    "transfers_need_approval",
    "penalty",
)
MAX_NOTICE_DAYS = 365
MAX_PLAY_UP_CAP = 100
MAX_NOTE = 500


def _log(season: Season, action: str, actor: Actor, now: datetime, **fields: Any) -> EligibilityLog:
    if fields.get("message"):
        fields["message"] = fields["message"][:400]
    return EligibilityLog.objects.create(
        season=season,
        action=action,
        actor=actor if getattr(actor, "pk", None) else None,
        at=now,
        **fields,
    )


@transaction.atomic
def season_rules_update(
    *, season: Season, actor: Actor, now: datetime | None = None, **values: Any
) -> SeasonRegistrationRules:
    """The secretary sets the season's registration rules (every field given; those not
    given keep their value). Checked as a whole: a window that closes before it opens,
    a negative or absurd number, an unknown penalty are refused and nothing changes."""
    now = now or timezone.now()
    require(
        actor,
        "leagues.manage_league",
        season,
        code="not_secretary",
        message="Only the league's secretary sets the registration rules.",
    )
    unknown = set(values) - set(RULE_FIELDS)
    if unknown:
        raise DomainError("bad_value", f"Unknown rule(s): {', '.join(sorted(unknown))}.")
    rules = SeasonRegistrationRules.objects.select_for_update().filter(
        season=season
    ).first() or SeasonRegistrationRules(season=season)
    before = {name: getattr(rules, name) for name in RULE_FIELDS}
    for name, value in values.items():
        setattr(rules, name, value)
    if rules.penalty not in SeasonRegistrationRules.Penalty.values:
        raise DomainError("bad_value", f"Unknown penalty {rules.penalty!r}.", field="penalty")
    for name, most in (("min_notice_days", MAX_NOTICE_DAYS), ("play_up_cap", MAX_PLAY_UP_CAP)):
        value = getattr(rules, name)
        if value is not None and not 0 <= value <= most:
            raise DomainError("bad_value", f"Give a number from 0 to {most}.", field=name)
    if rules.play_up_divisions is not None and not 1 <= rules.play_up_divisions <= 20:
        raise DomainError(
            "bad_value", "Count at least one division above.", field="play_up_divisions"
        )
    if (
        rules.registrations_open is not None
        and rules.registrations_close is not None
        and rules.registrations_open >= rules.registrations_close
    ):
        raise DomainError(
            "bad_window",
            "Registrations must open before they close.",
            field="registrations_close",
        )
    changed = {
        name: [_json(before[name]), _json(getattr(rules, name))]
        for name in RULE_FIELDS
        if before[name] != getattr(rules, name)
    }
    if rules.pk is not None and not changed:
        return rules
    rules.save()
    _log(
        season,
        EligibilityLog.Action.RULES_CHANGED,
        actor,
        now,
        message="; ".join(f"{name}: {old} → {new}" for name, (old, new) in changed.items()),
    )
    return rules


def _json(value: Any) -> Any:
    return value.isoformat() if isinstance(value, date) else value


# ---------------------------------------------------------------- transfers


def _current_registration(player: Player, season: Season) -> Registration | None:
    return (
        Registration.objects.select_for_update()
        .filter(player=player, season=season, status=Registration.Status.ACTIVE)
        .select_related("team")
        .first()
    )


def _refuse(transfer: Transfer, refusal: eligibility.Refusal, actor: Actor, now: datetime) -> None:
    transfer.status = Transfer.Status.REFUSED
    transfer.rule, transfer.rule_message = refusal.code, refusal.message[:300]
    transfer.decided_by = actor if getattr(actor, "pk", None) else None
    transfer.decided_at = now
    transfer.save(update_fields=["status", "rule", "rule_message", "decided_by", "decided_at"])
    _log(
        transfer.season,
        EligibilityLog.Action.TRANSFER_REFUSED,
        actor,
        now,
        player=transfer.player,
        team=transfer.to_team,
        transfer=transfer,
        rule=refusal.code,
        message=refusal.message,
    )


def _apply(transfer: Transfer, actor: Actor, now: datetime, rule: str, message: str) -> None:
    """Move the registration: off the old roster, a new active one on the new (rule 8's
    index still holds: one active registration a season)."""
    reg = _current_registration(transfer.player, transfer.season)
    if reg is None or reg.team_id != transfer.from_team_id:
        raise DomainError(
            "not_on_roster",
            f"{transfer.player.name} is no longer on {transfer.from_team.name}'s roster.",
            status=409,
        )
    reg.status = Registration.Status.REMOVED
    reg.removed_at = now
    reg.save(update_fields=["status", "removed_at"])
    roster_add_player(team=transfer.to_team, player=transfer.player, now=now, check_window=False)
    transfer.status = Transfer.Status.APPROVED
    transfer.rule, transfer.rule_message = rule, message[:300]
    transfer.decided_by = actor if getattr(actor, "pk", None) else None
    transfer.decided_at = now
    transfer.save(update_fields=["status", "rule", "rule_message", "decided_by", "decided_at"])
    _log(
        transfer.season,
        EligibilityLog.Action.TRANSFER_APPROVED,
        actor,
        now,
        player=transfer.player,
        team=transfer.to_team,
        transfer=transfer,
        rule=rule,
        message=message,
    )


@transaction.atomic
def transfer_request(
    *,
    player: Player,
    to_team: Team,
    actor: Actor,
    reason: str = "",
    now: datetime | None = None,
) -> Transfer:
    """The captain of `to_team` (or the secretary) asks to move a player from the roster
    they are on this season. The season's rules decide at once: refused (naming the
    rule), approved and applied, or waiting for the secretary's approval. Each outcome is
    returned and logged; only a malformed request raises."""
    now = now or timezone.now()
    season = to_team.season
    require(
        actor,
        "leagues.change_team",
        to_team,
        code="not_captain",
        message=f"Only {to_team.name}'s captain or the secretary may ask for a transfer to it.",
    )
    reason = " ".join((reason or "").split())
    if len(reason) > 300:
        raise DomainError(
            "reason_too_long", "Keep the reason under 300 characters.", field="reason"
        )
    if season.status == Season.Status.FINISHED:
        raise DomainError("season_finished", f"{season} has finished.", field="season")
    reg = _current_registration(player, season)
    if reg is None:
        raise DomainError(
            "not_on_a_roster",
            f"{player.name} is on no team's roster this season: add them to the roster instead.",
            field="player",
        )
    if reg.team_id == to_team.pk:
        raise DomainError(
            "already_registered",
            f"{player.name} is already on {to_team.name}'s roster.",
            field="player",
        )
    if Transfer.objects.filter(player=player, season=season, status="pending").exists():
        raise DomainError(
            "transfer_pending",
            f"{player.name}'s transfer already awaits the secretary.",
            field="player",
            status=409,
        )
    transfer = Transfer.objects.create(
        season=season,
        player=player,
        from_team=reg.team,
        to_team=to_team,
        requested_by=actor,
        reason=reason,
        created_at=now,
    )
    _log(
        season,
        EligibilityLog.Action.TRANSFER_REQUESTED,
        actor,
        now,
        player=player,
        team=to_team,
        transfer=transfer,
        message=f"{player.name}: {reg.team.name} → {to_team.name}",
        note=reason,
    )
    refusal = eligibility.transfer_refusal(
        player=player, from_team=reg.team, to_team=to_team, on=eligibility.local_day(now)
    )
    if refusal is not None:
        _refuse(transfer, refusal, None, now)
        return transfer
    rules = eligibility.rules_of(season)
    if rules.transfers_need_approval:
        transfer.rule = "transfer_needs_approval"
        transfer.rule_message = eligibility.RULES["transfer_needs_approval"]
        transfer.save(update_fields=["rule", "rule_message"])
        _log(
            season,
            EligibilityLog.Action.TRANSFER_PENDING,
            None,
            now,
            player=player,
            team=to_team,
            transfer=transfer,
            rule="transfer_needs_approval",
            message=eligibility.RULES["transfer_needs_approval"],
        )
        return transfer
    _apply(transfer, None, now, "transfer_allowed", "Allowed by the season's transfer rules.")
    return transfer


@transaction.atomic
def transfer_decide(
    *,
    transfer: Transfer,
    actor: Actor,
    approve: bool,
    note: str = "",
    now: datetime | None = None,
) -> Transfer:
    """The secretary approves or refuses a transfer awaiting approval. An approval is
    checked against the rules again (the player may have played since): a rule that
    refuses now refuses it, naming the rule."""
    now = now or timezone.now()
    require(
        actor,
        "leagues.manage_league",
        transfer.season,
        code="not_secretary",
        message="Only the league's secretary approves or refuses a transfer.",
    )
    transfer = (
        Transfer.objects.select_for_update()
        .select_related("player", "from_team", "to_team", "season")
        .get(pk=transfer.pk)
    )
    if transfer.status != Transfer.Status.PENDING:
        raise DomainError(
            "transfer_decided",
            f"This transfer was already {transfer.get_status_display().lower()}.",
            status=409,
        )
    note = " ".join((note or "").split())[:MAX_NOTE]
    if not approve:
        _refuse(
            transfer,
            eligibility.Refusal(
                "transfer_needs_approval",
                eligibility.RULES["transfer_needs_approval"],
                f"the secretary refused it{': ' + note if note else '.'}",
            ),
            actor,
            now,
        )
        return transfer
    refusal = eligibility.transfer_refusal(
        player=transfer.player,
        from_team=transfer.from_team,
        to_team=transfer.to_team,
        on=eligibility.local_day(now),
    )
    if refusal is not None:
        _refuse(transfer, refusal, actor, now)
        return transfer
    _apply(
        transfer,
        actor,
        now,
        "transfer_needs_approval",
        f"Approved by the secretary{': ' + note if note else '.'}",
    )
    return transfer


# ---------------------------------------------------------------- match night


def appearance_record(
    *, team: Team, player: Player, fixture: Fixture, now: datetime | None = None
) -> Registration | PlayUp:
    """Record that a player played for a team in a fixture (the draw calls this): on the
    roster or drafted, their registration is marked played (rule 8); a player of a lower
    team of the club playing up, where the season allows it, is one appearance up."""
    return registration_mark_played(team=team, player=player, now=now, fixture=fixture)


@transaction.atomic
def ineligible_frame_decide(
    *,
    fixture: Fixture,
    frame_number: int,
    player: Player,
    team: Team,
    refusal: eligibility.Refusal,
    forfeit: bool,
    note: str,
    actor: Actor,
    now: datetime,
) -> EligibilityLog:
    """Record the secretary's decision on a frame played by an ineligible player (match
    night's sign-off applies a forfeit through its correction path, then calls this)."""
    try:
        with transaction.atomic():
            return _log(
                fixture.season,
                EligibilityLog.Action.FORFEIT_APPLIED
                if forfeit
                else EligibilityLog.Action.FORFEIT_WAIVED,
                actor,
                now,
                player=player,
                team=team,
                fixture=fixture,
                frame_number=frame_number,
                rule=refusal.code,
                message=refusal.message,
                note=" ".join((note or "").split())[:MAX_NOTE],
            )
    except IntegrityError:
        raise DomainError(
            "already_decided",
            f"Frame {frame_number}'s ineligible player is already decided.",
            status=409,
        ) from None
