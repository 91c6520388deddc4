"""The players' statistics lines of a fixture's frames, written onto the league by
`frames.stats`."""

from __future__ import annotations

from django.db import transaction

from leagues.models import (
    Fixture,
    PlayerFrameStat,
)
from marker.errors import DomainError

STAT_FIELDS = ("won", "shared", "score", "opponent_score", "has_shots", "game_id", "values")


@transaction.atomic
def player_frame_stats_replace(
    *, fixture: Fixture, frame_number: int, lines: list[dict], source_seq: int = 0
) -> list[PlayerFrameStat]:
    """Replace the players' lines for one frame of a fixture (written by `frames.stats`
    from the shot log, as a result is written onto its fixture). Each line is a dict with
    player_id, side ("home"/"away"), doubles, and STAT_FIELDS (`values`: the statistics the
    game declares, name → number)."""
    teams = {"home": fixture.home_id, "away": fixture.away_id}
    new = []
    for line in lines:
        side = line["side"]
        if side not in teams:
            raise DomainError("bad_value", f"{side!r} is not a side.", field="side")
        values = line.get("values") or {}
        if not all(
            isinstance(k, str) and isinstance(v, int | float) and not isinstance(v, bool)
            for k, v in values.items()
        ):
            raise DomainError("bad_value", "Statistics are numbers by name.", field="values")
        new.append(
            PlayerFrameStat(
                season_id=fixture.season_id,
                division_id=fixture.division_id,
                fixture=fixture,
                frame_number=frame_number,
                player_id=line["player_id"],
                team_id=teams[side],
                side=side,
                doubles=bool(line.get("doubles")),
                played_on=line.get("played_on") or fixture.date,
                source_seq=source_seq,
                **{k: line[k] for k in STAT_FIELDS if k in line},
            )
        )
    PlayerFrameStat.objects.filter(fixture=fixture, frame_number=frame_number).delete()
    return PlayerFrameStat.objects.bulk_create(new)
