"""Table-driven scenarios: the test vectors BB1-BB16 of the games survey, section 6.4.

Each vector starts from a fresh frame or from a position built directly (``start``),
applies its events and checks the listed keys of the final view (``last.x`` reaches into
the summary of the last event).
"""

from __future__ import annotations

from typing import Any

import pytest

from rules import replay

try:  # the tests directory may or may not be a package
    from .conftest import BB, INVOKE, MISS, R, W, position, run, shot
except ImportError:
    from conftest import BB, INVOKE, MISS, R, W, position, run, shot  # type: ignore[no-redef]

#: home: break-off W200 + R100 (200 + 200), break-off again W200 (600), then a miss
#: banks 600; away misses. home is back at the table with 600 banked, break 0.
HOME_600 = [shot(W(200), R(100)), shot(W(200)), MISS, MISS]


def two_left(home: int, away: int, last: str) -> dict[str, Any]:
    """Bar down, two balls on the table (the ``last`` ball and a white), home at the table."""
    return {
        "bar": True,
        "red": "table" if last == "red" else "out",
        "w_table": 1 if last == "red" else 2,
        "w_trough": 0,
        "scores": (home, away),
        "at": 0,
        "visits": (1, 1),
    }


def endgame(home: int, away: int, at: int = 1, brk: int = 0) -> dict[str, Any]:
    """Endgame play with one white left."""
    return {
        "bar": True,
        "red": "out",
        "w_table": 1,
        "w_trough": 0,
        "scores": (home, away),
        "at": at,
        "visits": (1, 1),
        "phase": "endgame",
        "brk": brk,
    }


# home fouls while potting the other white: away's visit with one ball left
HOME_FOULS_POTTING_A_WHITE = shot(W(10), fouls=["pin_50"])

VECTORS = [
    pytest.param(
        None,
        [shot(W(50), R(100))],
        {"break": 250, "next": "break_off", "at_table": "home", "on_table": 0},
        id="BB1-both-break-off-balls-potted-break-off-again",
    ),
    pytest.param(
        None,
        [shot(W(50), R(100)), shot(W(200))],
        {"break": 450, "red": "table", "next": "play", "on_table": 1},
        id="BB2-second-break-off-pots-the-white",
    ),
    pytest.param(
        None,
        [shot(W(50), R(100)), shot(W(200)), shot(W(10))],
        {"break": 460, "last.brought": ["white"]},
        id="BB2-next-ball-in-the-D-is-a-white",
    ),
    pytest.param(
        None,
        [shot(W(50), R(100)), shot(W(200)), MISS],
        {"scores": {"home": 450, "away": 0}, "at_table": "away", "break": 0, "last.banked": 450},
        id="BB3-miss-banks-450",
    ),
    pytest.param(
        None,
        [*HOME_600, shot(R(50)), shot(fouls=["pin_50"])],
        {
            "scores": {"home": 600, "away": 0},
            "at_table": "away",
            "last.lost": 100,
            "last.penalty": "break",
        },
        id="BB4-pin-50-loses-the-break-only",
    ),
    pytest.param(
        None,
        [*HOME_600, shot(W(200)), shot(W(100)), shot(fouls=["pin_200"])],
        {"scores": {"home": 0, "away": 0}, "last.lost": 300, "last.wiped": 600},
        id="BB5-black-pin-loses-everything",
    ),
    pytest.param(
        None,
        [*HOME_600, shot(fouls=["pin_50", "pin_200"])],
        {"scores": {"home": 0, "away": 0}, "last.foul": "pin_200", "last.penalty": "entire_score"},
        id="BB6-heaviest-penalty-applies",
    ),
    pytest.param(
        None,
        [shot(R(50)), shot(W(50), fouls=["red_not_played"])],
        {"scores": {"home": 0, "away": 0}, "last.lost": 100, "at_table": "away", "red": "trough"},
        id="BB7-white-played-with-the-red-in-the-trough",
    ),
    pytest.param(
        None,
        [shot(W(50), R(50)), shot(W(20), fouls=["break_off_repeat"])],
        {"scores": {"home": 0, "away": 0}, "last.lost": 150, "last.break_off": True},
        id="BB8-fourth-identical-break-off",
    ),
    pytest.param(
        two_left(1200, 1050, "white"),
        [HOME_FOULS_POTTING_A_WHITE],
        {"phase": "endgame", "at_table": "away", "gap": 150, "cutoff": 200},
        id="BB9-gap-150-goes-to-endgame",
    ),
    pytest.param(
        two_left(1200, 1050, "white"),
        [HOME_FOULS_POTTING_A_WHITE, shot(W(200), cushion=True)],
        {"over": True, "winner": "away", "scores": {"home": 1200, "away": 1250}},
        id="BB9-away-doubles-the-white-into-the-200-and-wins",
    ),
    pytest.param(
        two_left(1300, 950, "red"),
        [HOME_FOULS_POTTING_A_WHITE],
        {"phase": "endgame", "gap": 350, "cutoff": 400},
        id="BB10-last-red-gap-350-goes-to-endgame",
    ),
    pytest.param(
        two_left(1300, 950, "red"),
        [HOME_FOULS_POTTING_A_WHITE, shot(R(200), cushion=True)],
        {"winner": "away", "scores": {"home": 1300, "away": 1350}},
        id="BB10-red-into-the-200-scores-400",
    ),
    pytest.param(
        two_left(1300, 950, "red"),
        [HOME_FOULS_POTTING_A_WHITE, shot(R(100), cushion=True)],
        {"winner": "home", "scores": {"home": 1300, "away": 1150}},
        id="BB10-red-into-the-100-scores-200",
    ),
    pytest.param(
        two_left(1000, 700, "white"),
        [HOME_FOULS_POTTING_A_WHITE],
        {"over": True, "winner": "home", "end": "cutoff", "can_invoke_endgame": True},
        id="BB11-gap-300-ends-the-frame",
    ),
    pytest.param(
        two_left(1000, 700, "white"),
        [HOME_FOULS_POTTING_A_WHITE, INVOKE],
        {"over": False, "phase": "endgame", "at_table": "away", "endgame_invoked": True},
        id="BB11-leader-may-still-play-the-endgame",
    ),
    pytest.param(
        endgame(1000, 900),
        [shot(W(100), cushion=True)],
        {"over": True, "shared": True, "winner": None, "scores": {"home": 1000, "away": 1000}},
        id="BB12-level-scores-share-the-frame",
    ),
    pytest.param(
        endgame(1000, 900),
        [shot(W(200), cushion=False)],
        {"scores": {"home": 1000, "away": 0}, "last.foul": "endgame_no_cushion", "last.wiped": 900},
        id="BB13-straight-into-the-200-loses-everything",
    ),
    pytest.param(
        endgame(1000, 900, brk=40),
        [shot(cushion=True)],
        {
            "scores": {"home": 1000, "away": 940},
            "at_table": "home",
            "phase": "endgame",
            "last.banked": 40,
        },
        id="BB14-legal-miss-banks-and-passes",
    ),
    pytest.param(
        None,
        [MISS, shot(W(50))],
        {"break": 50, "at_table": "away", "on_table": 2},
        id="BB15-stationary-ball-replaced-50-stands",
    ),
    pytest.param(
        two_left(1200, 1000, "white"),
        [HOME_FOULS_POTTING_A_WHITE],
        {"phase": "endgame"},
        id="BB16-white-200-inclusive",
    ),
    pytest.param(
        two_left(1210, 1000, "white"),
        [HOME_FOULS_POTTING_A_WHITE],
        {"phase": "over", "end": "cutoff"},
        id="BB16-white-210-over",
    ),
    pytest.param(
        two_left(1400, 1000, "red"),
        [HOME_FOULS_POTTING_A_WHITE],
        {"phase": "endgame"},
        id="BB16-red-400-inclusive",
    ),
    pytest.param(
        two_left(1410, 1000, "red"),
        [HOME_FOULS_POTTING_A_WHITE],
        {"phase": "over", "end": "cutoff"},
        id="BB16-red-410-over",
    ),
]


def lookup(view: dict[str, Any], key: str) -> Any:
    value: Any = view
    for part in key.split("."):
        value = value[part]
    return value


@pytest.mark.parametrize(("start", "events", "expected"), VECTORS)
def test_vector(start, events, expected):
    if start is None:
        state = replay(BB, {}, events)
    else:
        state = run(position(**start), *events)
    v = BB.view(state)
    assert {k: lookup(v, k) for k in expected} == expected
