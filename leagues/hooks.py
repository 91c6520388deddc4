"""Hooks other apps register to hear of league events, without leagues importing them.

The competitions app registers a function here to send a cup tie's winner through once
its fixture's result is confirmed: leagues (and frames, which calls leagues) never import
competitions. A hook runs inside the transaction that wrote the result, so a hook's
refusal rolls the result back with it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

FixtureHook = Callable[[Any], None]

_FIXTURE_RESULT: list[FixtureHook] = []


def on_fixture_result(hook: FixtureHook) -> FixtureHook:
    """Register `hook(fixture)`, called when a fixture's result is confirmed (or
    confirmed again by a settlement). Registering the same function twice is once."""
    if hook not in _FIXTURE_RESULT:
        _FIXTURE_RESULT.append(hook)
    return hook


def fixture_result_confirmed(fixture: Any) -> None:
    """Tell every registered hook that `fixture` has a confirmed result."""
    for hook in list(_FIXTURE_RESULT):
        hook(fixture)
