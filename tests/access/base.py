"""Vocabulary for the access matrix: roles, and what each URL allows each role.

Each module in tests/access/ named `matrix_*.py` exports `ACCESS: dict[url_name, Rule]`
and may export `setup(ctx)` to create the objects its URLs need. The walk in
tests/test_access.py fails for any URL pattern that no module covers, so a new page
cannot ship without its permissions being written down and proven.
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
SECRETARY = "secretary"

ROLES = (ANON, OUTSIDER, PLAYER, CAPTAIN, VICE, OTHER_CAPTAIN, SECRETARY)
EVERYONE = frozenset(ROLES)
SIGNED_IN = EVERYONE - {ANON}
TEAM0_CAPTAINS = frozenset({CAPTAIN, VICE, SECRETARY})
STAFF = frozenset({SECRETARY})
NOBODY: frozenset[str] = frozenset()


@dataclass
class Rule:
    """`kwargs(ctx)` builds the URL's arguments; `get`/`post`: roles allowed (None: the
    method is not served, 405 for everyone)."""

    kwargs: Callable[[Any], dict] = field(default=lambda ctx: {})
    get: frozenset[str] | None = EVERYONE
    post: frozenset[str] | None = None
    # For token URLs and the like, a status other roles see that is not a denial.
    note: str = ""
