"""Setting a competition up: creating it and naming who may enter."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.utils.text import slugify

from leagues.models import Organisation, Player, Season
from marker.errors import DomainError
from marker.permissions import require
from rules import registry

from ..common import log, require_secretary, resolve_now
from ..models import Competition

MAX_BEST_OF = 99


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
    season: Season | None = None,
    organisation: Organisation | None = None,
    game_id: str = "",
    settle_by: str = Competition.SettleBy.FRAMES,
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
    """A new competition, taking entries: a league's, in a season; or an organisation's
    (a county championship), playing `game_id`, its entrants from the member leagues."""
    now = resolve_now(now)
    if (season is None) == (organisation is None):
        raise DomainError(
            "bad_owner", "A competition belongs to a season or to an organisation: name one."
        )
    if organisation is not None:
        require(
            actor,
            "leagues.run_organisation_competitions",
            organisation,
            message=f"Only {organisation.name}'s officers may create its competitions.",
        )
        if not game_id:
            raise DomainError("bad_game", "Name the game the competition plays.", field="game_id")
        try:
            game_id = registry.get(game_id).id
        except registry.UnknownGame:
            raise DomainError(
                "bad_game", f"{game_id!r} is not a game Marker knows.", field="game_id"
            ) from None
    else:
        require_secretary(actor, season, "create a competition")
        if game_id:
            raise DomainError(
                "bad_game",
                "A season's competition plays the season's game: leave the game out.",
                field="game_id",
            )
    if settle_by not in Competition.SettleBy.values:
        raise DomainError(
            "bad_settle_by",
            f"Ties are settled by {' or '.join(Competition.SettleBy.values)}.",
            field="settle_by",
        )
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
    if plate is not None and (
        plate.season_id != (season.pk if season else None)
        or plate.organisation_id != (organisation.pk if organisation else None)
        or plate.entrant != entrant
    ):
        raise DomainError(
            "bad_plate",
            "The plate is a competition of the same season (or organisation) and entrants.",
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
    if not cup_tied and entrant == Competition.Entrant.TEAM:
        # rule 8 (leagues' `_other_team_of`) is what refuses a second team, at match night
        raise DomainError(
            "cup_tied",
            "A team event is always cup-tied: a player plays for only one team a season "
            "(rule 8), in the league and its cups alike.",
            field="cup_tied",
        )
    if settle_by == Competition.SettleBy.AGGREGATE and entrant != Competition.Entrant.TEAM:
        raise DomainError(
            "bad_settle_by",
            "Aggregate settlement is for team ties, whose every frame is played; a singles "
            "or pairs tie stops when it is won.",
            field="settle_by",
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
    owner = {"season": season} if season is not None else {"organisation": organisation}
    while Competition.objects.filter(**owner, slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    competition = Competition.objects.create(
        **owner,
        game_id=game_id,
        settle_by=settle_by,
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
    log(competition, actor, "created", now, kind=kind)
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
    now = resolve_now(now)
    require_secretary(actor, competition, "set who may enter")
    label = " ".join((label or "").split())
    if len(label) > 60:
        raise DomainError("bad_label", "Keep the label under 60 characters.", field="label")
    competition.eligibility_label = label
    competition.save(update_fields=["eligibility_label"])
    competition.eligible_players.set(players)
    log(competition, actor, "eligibility", now, label=label, players=[p.pk for p in players])
    return competition
