"""The draw of a competition: a knock-out bracket or groups, as a pure function of the
entrants and a seed (docs/competitions.md). Standard library only, so
``python -m competitions.draw`` replays a draw from a bare checkout.

Knock-out (``draw_knockout``):

* the entrants are **sorted** (by their id as text, zero-padded by the caller or not: the
  order is only ever the sort), so the draw depends on the set of entrants and the seed;
* the bracket has ``size`` = the smallest power of two at least the number of entrants,
  ``size // 2`` first-round ties, and ``size - n`` byes;
* one Fisher–Yates shuffle (``random.Random(seed).shuffle``) puts the entrants in drawn
  order; then ``rng.sample`` picks which first-round ties hold a bye. A tie holds at most
  one bye (there are fewer byes than ties), so two byes never meet, and byes exist only
  in round one: every later tie is between winners;
* the ties are filled in order from the drawn order: a bye tie takes one entrant (it goes
  through), any other takes two, **the first drawn at home**.

Every entrant is equally likely to be in every place of the first round: the shuffle is
uniform and independent of where the byes fall.

Groups (``draw_groups``): the same shuffle, then the drawn order is dealt round the groups
(first drawn into group A, next into B, …), so sizes differ by at most one; each group's
lots (the last tie-breaker, lower wins) are a second shuffle, drawn at once and stored.

>>> d = draw_knockout(["a", "b", "c", "d", "e"], seed=7)
>>> d.size, len(d.ties), sum(t.bye for t in d.ties)
(8, 4, 3)
>>> validate_knockout(d, ["a", "b", "c", "d", "e"])
[]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from marker.commit_reveal import MAX_SEED, commitment, derive_seed

__all__ = [
    "ALGORITHM_VERSION",
    "MAX_ENTRANTS",
    "MAX_SEED",
    "CupDrawError",
    "DrawnTie",
    "GroupDraw",
    "KnockoutDraw",
    "commitment",
    "derive_seed",
    "draw_groups",
    "draw_knockout",
    "group_fixtures",
    "main",
    "round_names",
    "validate_knockout",
]

#: Stored with every draw; changed whenever the same seed and entrants could draw differently.
ALGORITHM_VERSION = "marker-cup-draw-1"
MAX_ENTRANTS = 1024


class CupDrawError(ValueError):
    """The entrants or the seed cannot be drawn (``code`` names why)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class DrawnTie:
    """A first-round tie: ``home`` (drawn first), ``away`` (None for a bye)."""

    slot: int
    home: str
    away: str | None

    @property
    def bye(self) -> bool:
        return self.away is None

    def to_json(self) -> dict[str, Any]:
        return {"slot": self.slot, "home": self.home, "away": self.away, "bye": self.bye}


@dataclass(frozen=True)
class KnockoutDraw:
    seed: int
    size: int
    order: tuple[str, ...]
    bye_slots: tuple[int, ...]
    ties: tuple[DrawnTie, ...]
    algorithm: str = ALGORITHM_VERSION

    @property
    def rounds(self) -> int:
        return self.size.bit_length() - 1

    def to_json(self) -> dict[str, Any]:
        return {
            "algorithm": self.algorithm,
            "seed": self.seed,
            "size": self.size,
            "rounds": self.rounds,
            "order": list(self.order),
            "bye_slots": list(self.bye_slots),
            "ties": [t.to_json() for t in self.ties],
        }


@dataclass(frozen=True)
class GroupDraw:
    seed: int
    order: tuple[str, ...]
    groups: tuple[tuple[str, ...], ...]
    lots: tuple[tuple[int, ...], ...]
    algorithm: str = ALGORITHM_VERSION

    def to_json(self) -> dict[str, Any]:
        return {
            "algorithm": self.algorithm,
            "seed": self.seed,
            "order": list(self.order),
            "groups": [list(g) for g in self.groups],
            "lots": [list(lot) for lot in self.lots],
        }


def _check(entrants: Sequence[str], seed: int, minimum: int = 2) -> list[str]:
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise CupDrawError("invalid_seed", f"The seed is an integer from 0 to {MAX_SEED}.")
    names = [str(e) for e in entrants]
    if len(set(names)) != len(names):
        raise CupDrawError("duplicate_entrant", "Each entrant may be drawn once.")
    if len(names) < minimum:
        raise CupDrawError("too_few_entrants", f"A draw needs at least {minimum} entrants.")
    if len(names) > MAX_ENTRANTS:
        raise CupDrawError("too_many_entrants", f"At most {MAX_ENTRANTS} entrants.")
    return sorted(names)


def draw_knockout(entrants: Sequence[str], seed: int) -> KnockoutDraw:
    """The first round of a knock-out bracket (see the module's docstring).

    >>> [t.to_json() for t in draw_knockout(["x", "y"], seed=1).ties]
    [{'slot': 1, 'home': 'y', 'away': 'x', 'bye': False}]
    """
    names = _check(entrants, seed)
    n = len(names)
    size = 1 << (n - 1).bit_length()
    ties = size // 2
    rng = random.Random(seed)
    order = list(names)
    rng.shuffle(order)
    bye_slots = sorted(s + 1 for s in rng.sample(range(ties), size - n))
    byes = set(bye_slots)
    drawn = iter(order)
    out = []
    for slot in range(1, ties + 1):
        home = next(drawn)
        away = None if slot in byes else next(drawn)
        out.append(DrawnTie(slot, home, away))
    return KnockoutDraw(seed, size, tuple(order), tuple(bye_slots), tuple(out))


def validate_knockout(draw: KnockoutDraw, entrants: Sequence[str]) -> list[str]:
    """What is wrong with a knock-out draw (an empty list: nothing)."""
    problems = []
    placed = [t.home for t in draw.ties] + [t.away for t in draw.ties if t.away is not None]
    if sorted(placed) != sorted(map(str, entrants)):
        problems.append("each entrant is placed exactly once")
    if draw.size & (draw.size - 1) or draw.size < len(placed) or draw.size >= 2 * len(placed):
        problems.append("the bracket is the smallest power of two holding the entrants")
    if len(draw.ties) != draw.size // 2:
        problems.append("the first round has size/2 ties")
    if sum(t.bye for t in draw.ties) != draw.size - len(placed):
        problems.append("size - n byes")
    return problems


def draw_groups(entrants: Sequence[str], seed: int, group_size: int) -> GroupDraw:
    """Entrants into groups of about ``group_size`` (at least 2 a group), dealt in drawn
    order; each group's lots drawn at once.

    >>> g = draw_groups(["a", "b", "c", "d", "e", "f", "g"], seed=3, group_size=3)
    >>> [len(x) for x in g.groups]
    [3, 2, 2]
    """
    if isinstance(group_size, bool) or not isinstance(group_size, int) or group_size < 2:
        raise CupDrawError("bad_group_size", "A group has at least two entrants.")
    names = _check(entrants, seed)
    count = max(1, -(-len(names) // group_size))
    while count > 1 and len(names) // count < 2:
        count -= 1
    rng = random.Random(seed)
    order = list(names)
    rng.shuffle(order)
    groups = tuple(tuple(order[i::count]) for i in range(count))
    lots = []
    for group in groups:
        lot = list(range(1, len(group) + 1))
        rng.shuffle(lot)
        lots.append(tuple(lot))
    return GroupDraw(seed, tuple(order), groups, tuple(lots))


def group_fixtures(size: int) -> list[tuple[int, int]]:
    """Every pair of a group of ``size`` once, by the circle method (as positions 1..size,
    home first): round by round, so nobody plays twice before everyone has played once.

    >>> group_fixtures(3)
    [(2, 3), (1, 3), (1, 2)]
    """
    players: list[int | None] = list(range(1, size + 1))
    if size % 2:
        players.append(None)
    m = len(players)
    out = []
    for _ in range(m - 1):
        for i in range(m // 2):
            a, b = players[i], players[m - 1 - i]
            if a is not None and b is not None:
                out.append((min(a, b), max(a, b)))
        players = [players[0], players[-1], *players[1:-1]]
    return out


def round_names(rounds: int) -> list[str]:
    """Names of a bracket's rounds, first to last.

    >>> round_names(4)
    ['Round 1', 'Quarter-finals', 'Semi-finals', 'Final']
    """
    tail = ["Final", "Semi-finals", "Quarter-finals"]
    return [
        tail[rounds - r] if rounds - r < len(tail) else f"Round {r}" for r in range(1, rounds + 1)
    ]


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m competitions.draw --entrants 1,2,3 (--seed N | --secrets A,B)
    [--groups SIZE]``: prints the draw as JSON (status 0), or ``{"error", "message"}`` on
    stderr (status 2)."""
    parser = argparse.ArgumentParser(
        prog="python -m competitions.draw",
        description="Replay a competition's draw: a knock-out bracket, or groups.",
    )
    parser.add_argument("--entrants", required=True, help="entry ids, comma-separated")
    parser.add_argument("--seed", help="integer seed, 0 to 2**63-1")
    parser.add_argument(
        "--secrets", help="the revealed secrets, comma-separated (secretary's, server's)"
    )
    parser.add_argument("--groups", type=int, help="draw groups of this size")
    parser.add_argument("--version", action="version", version=ALGORITHM_VERSION)
    args = parser.parse_args(argv)
    entrants = [e.strip() for e in args.entrants.split(",") if e.strip()]
    try:
        if args.secrets is not None:
            seed = derive_seed(*args.secrets.split(","))
        elif args.seed is not None:
            try:
                seed = int(args.seed)
            except ValueError:
                raise CupDrawError("invalid_seed", "The seed must be an integer.") from None
        else:
            raise CupDrawError("no_seed", "Give --seed or --secrets.")
        if args.groups:
            result: Any = draw_groups(entrants, seed, args.groups)
        else:
            result = draw_knockout(entrants, seed)
    except CupDrawError as exc:
        print(json.dumps({"error": exc.code, "message": exc.message}), file=sys.stderr)
        return 2
    print(json.dumps(result.to_json(), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
