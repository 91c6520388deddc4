"""Vocabulary for the access matrix: roles, and what each URL allows each role.

Each module in tests/access/ named `matrix_*.py` exports `ACCESS: dict[url_name, Rule]`
and may export `setup(ctx)` to create the objects its URLs need. The walk in
tests/test_access.py fails for any URL pattern that no module covers, so a new page
cannot ship without its permissions being written down and proven.

Two leagues: the rules speak of league A (`ctx.league`, its pages under `ctx.slug`); league
B (`ctx.league_b`) has its own season, teams, fixture, match and frame. Its secretary is a
stranger to every write of league A, and the walk is run again on league B's objects to
prove the converse (tests/test_access.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

ANON = "anonymous"
OUTSIDER = "outsider"  # signed in, no team
PLAYER = "player"  # registered player of team 0 (the referee role)
CAPTAIN = "captain"  # captain of team 0
VICE = "vice_captain"  # vice-captain of team 0
OTHER_CAPTAIN = "other_captain"  # captain of team 1
SECRETARY = "secretary"  # secretary of league A
SECRETARY_B = "secretary_of_b"  # secretary of league B: a stranger to league A
RESULTS = "results_secretary"  # results secretary of league A
COMPETITIONS = "competitions_secretary"  # competitions secretary of league A
SITE_ADMIN = "site_admin"  # a superuser: holds every permission (added to every rule)

ROLES = (
    ANON,
    OUTSIDER,
    PLAYER,
    CAPTAIN,
    VICE,
    OTHER_CAPTAIN,
    SECRETARY,
    SECRETARY_B,
    RESULTS,
    COMPETITIONS,
    SITE_ADMIN,
)
EVERYONE = frozenset(ROLES)
SIGNED_IN = EVERYONE - {ANON}
#: A (full) secretary of league A: seasons, divisions, teams, tables, publishing, officers.
STAFF = frozenset({SECRETARY, SITE_ADMIN})
SECRETARIES = STAFF
#: League A's results: fixtures, paper scores, disputes, walkovers (secretaries too).
RESULTS_OFFICERS = STAFF | {RESULTS}
#: League A's competitions (secretaries too).
COMPETITIONS_OFFICERS = STAFF | {COMPETITIONS}
TEAM0_CAPTAINS = frozenset({CAPTAIN, VICE}) | STAFF
NOBODY: frozenset[str] = frozenset()
#: What only the site administrator may do (create leagues).
SITE_ADMIN_ONLY = frozenset({SITE_ADMIN})


@dataclass
class Rule:
    """`kwargs(ctx)` builds the URL's arguments; `get`/`post`: roles allowed (None: the
    method is not served, 405 for everyone). The site administrator is allowed wherever
    anyone is (the walk adds it)."""

    kwargs: Callable[[Any], dict] = field(default=lambda ctx: {})
    get: frozenset[str] | None = EVERYONE
    post: frozenset[str] | None = None
    # For token URLs and the like, a status other roles see that is not a denial.
    note: str = ""
