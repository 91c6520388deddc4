"""A group's table: ranked by matches won, then frame difference, then the score
difference in the matches between the entrants still level, then the lots drawn with the
groups (lower first). Each row explains what placed it where it is, like the league table.

Pure functions over rows already read (`competitions.selectors.group_tables` reads a whole
competition's groups in a constant number of queries).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

TIE_BREAKERS = ("matches won", "frame difference", "score difference between the tied", "lots")


@dataclass
class GroupRow:
    entry: Any
    lot: int
    played: int = 0
    won: int = 0
    lost: int = 0
    frames_for: int = 0
    frames_against: int = 0
    score_for: int = 0
    score_against: int = 0
    position: int = 0
    h2h_score_difference: int | None = None
    explanation: str = ""

    @property
    def frame_difference(self) -> int:
        return self.frames_for - self.frames_against

    @property
    def score_difference(self) -> int:
        return self.score_for - self.score_against


@dataclass
class GroupTable:
    group: Any
    rows: list[GroupRow]
    complete: bool
    tie_breakers: tuple[str, ...] = field(default=TIE_BREAKERS)


def _n(value: Any) -> int:
    return int(value or 0)


def rank_group(group: Any, members: Sequence[Any], ties: Iterable[Any]) -> GroupTable:
    """The table of one group from its members (with `.entry`, `.lot`) and its ties
    (decided ones count)."""
    rows = {m.entry_id: GroupRow(entry=m.entry, lot=m.lot) for m in members}
    ties = list(ties)
    complete = True
    for tie in ties:
        if tie.status not in ("played", "awarded", "walkover", "withdrawn"):
            complete = False
            continue
        home, away = rows.get(tie.home_id), rows.get(tie.away_id)
        if home is None or away is None:
            continue
        for row, mine, theirs in (
            (home, ("home_frames", "home_score"), ("away_frames", "away_score")),
            (away, ("away_frames", "away_score"), ("home_frames", "home_score")),
        ):
            row.played += 1
            row.frames_for += _n(getattr(tie, mine[0]))
            row.frames_against += _n(getattr(tie, theirs[0]))
            row.score_for += _n(getattr(tie, mine[1]))
            row.score_against += _n(getattr(tie, theirs[1]))
        winner = home if tie.winner_id == tie.home_id else away
        loser = away if winner is home else home
        winner.won += 1
        loser.lost += 1

    def h2h(block: list[GroupRow]) -> dict[int, int]:
        ids = {r.entry.pk for r in block}
        diff = {pk: 0 for pk in ids}
        for tie in ties:
            if tie.home_id in ids and tie.away_id in ids and tie.status == "played":
                d = _n(tie.home_score) - _n(tie.away_score)
                diff[tie.home_id] += d
                diff[tie.away_id] -= d
        return diff

    ordered = sorted(rows.values(), key=lambda r: (-r.won, -r.frame_difference, r.lot))
    out: list[GroupRow] = []
    i = 0
    while i < len(ordered):
        j = i
        while (
            j + 1 < len(ordered)
            and ordered[j + 1].won == ordered[i].won
            and ordered[j + 1].frame_difference == ordered[i].frame_difference
        ):
            j += 1
        block = ordered[i : j + 1]
        if len(block) > 1:
            diff = h2h(block)
            for r in block:
                r.h2h_score_difference = diff[r.entry.pk]
            block.sort(key=lambda r: (-(r.h2h_score_difference or 0), r.lot))
            names = ", ".join(r.entry.name for r in block)
            for r in block:
                level = [
                    o
                    for o in block
                    if o is not r and o.h2h_score_difference == r.h2h_score_difference
                ]
                reason = (
                    f"level on lots drawn with the groups (lot {r.lot})"
                    if level
                    else f"score difference between them {r.h2h_score_difference:+d}"
                )
                if level:
                    reason = (
                        f"level with {', '.join(o.entry.name for o in level)} on score difference "
                        f"between them ({r.h2h_score_difference:+d}); placed by lot ({r.lot}, lower first)"
                    )
                r.explanation = (
                    f"{r.won} won, frame difference {r.frame_difference:+d}, level with "
                    f"{len(block) - 1} other(s) ({names}): {reason}."
                )
        else:
            r = block[0]
            r.explanation = f"{r.won} won, frame difference {r.frame_difference:+d}."
        out.extend(block)
        i = j + 1
    for position, r in enumerate(out, start=1):
        r.position = position
    return GroupTable(group=group, rows=out, complete=complete)
