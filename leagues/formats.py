"""Choosing a season's or a division's match format (docs/formats.md): the secretary's
writes. The format is plain JSON checked by `marker.formats` (the one source of truth);
a refused format changes nothing and names every problem."""

from __future__ import annotations

import copy
from typing import Any

from django.db import transaction

from marker.errors import DomainError
from marker.formats import PRESETS, FormatError, MatchFormat, parse_format
from marker.permissions import require

from .models import Division, Season

User = Any


def _checked(match_format: Any, preset: str) -> MatchFormat:
    if preset:
        if preset not in PRESETS:
            raise DomainError(
                "unknown_preset",
                f"No preset is called {preset!r}: choose one of {', '.join(PRESETS)}.",
                field="preset",
            )
        if match_format is None:
            match_format = copy.deepcopy(PRESETS[preset])
    if match_format is None:
        raise DomainError("invalid_format", "Give a format or choose a preset.", field="format")
    try:
        return parse_format(match_format)
    except FormatError as exc:
        problems = [{"field": f, "message": m} for f, m in exc.problems]
        raise DomainError(
            "invalid_format",
            "The format cannot be used: " + " ".join(m for _, m in exc.problems),
            field=exc.problems[0][0],
            extra={"problems": problems},
        ) from None


@transaction.atomic
def season_set_format(
    *, season: Season, actor: User, match_format: Any = None, preset: str = ""
) -> Season:
    """Set the match format a season's divisions play (those without their own). Matches
    already opened keep the format they were opened with."""
    require(
        actor,
        "leagues.manage_league",
        season,
        code="not_secretary",
        message="Only the league's secretary can choose the season's match format.",
    )
    fmt = _checked(match_format, preset)
    season.match_format = fmt.to_json()
    season.save(update_fields=["match_format"])
    return season


@transaction.atomic
def division_set_format(
    *,
    division: Division,
    actor: User,
    match_format: Any = None,
    preset: str = "",
    inherit: bool = False,
) -> Division:
    """Give a division its own match format, or (`inherit`) let it play its season's."""
    require(
        actor,
        "leagues.manage_league",
        division.season,
        code="not_secretary",
        message="Only the league's secretary can choose a division's match format.",
    )
    division.match_format = None if inherit else _checked(match_format, preset).to_json()
    division.save(update_fields=["match_format"])
    return division


__all__ = ["division_set_format", "season_set_format"]
