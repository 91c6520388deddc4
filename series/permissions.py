"""Who runs a ranking series: registered into the one predicate table
(marker.permissions) when the app loads.

`series.manage` (create a series, edit it, add its events, enter an off-system event's
placings): for a league's series, its competitions secretary (or secretary); for an
organisation's, its officers. The object is a series, one of its events, or the league
or organisation a new series is for. Standings are public.
"""

from __future__ import annotations

from typing import Any

from leagues.models import League, Organisation
from leagues.permissions import is_organisation_officer
from marker.permissions import is_competitions_secretary, register


def _owner(obj: Any) -> League | Organisation | None:
    if isinstance(obj, League | Organisation):
        return obj
    series = getattr(obj, "series", None) if hasattr(obj, "series_id") else obj
    if series is None or not hasattr(series, "best_n"):
        return None
    return series.league if series.league_id is not None else series.organisation


def runs_series(user: Any, obj: Any) -> bool:
    owner = _owner(obj)
    if isinstance(owner, Organisation):
        return is_organisation_officer(user, owner)
    if isinstance(owner, League):
        return is_competitions_secretary(user, owner)
    return False


register("series.manage", runs_series)
