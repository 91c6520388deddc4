"""``python -m frames.draw``: replay a night's draw from a bare checkout."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from marker.formats import PRESETS, FormatError, MatchFormat, parse_format

from .base import ALGORITHM_VERSION, AWAY, HOME, SIDES, DrawError, _hat
from .format_draw import draw_match


class _JsonArgumentParser(argparse.ArgumentParser):
    """Usage errors as ``{"error": "usage", "message": ...}`` on stderr, exit status 2."""

    def error(self, message: str) -> NoReturn:
        _fail("usage", f"{message} (usage: {self.format_usage().strip().removeprefix('usage: ')})")


def _fail(code: str, message: str) -> NoReturn:
    print(json.dumps({"error": code, "message": message}, ensure_ascii=False), file=sys.stderr)
    raise SystemExit(2)


def _names(value: str) -> list[str]:
    return [] if not value.strip() else [part.strip() for part in value.split(",")]


def _as_listed(
    names: dict[str, list[str]], nominations: Any
) -> tuple[dict[str, list[str]], Any, dict[str, str]]:
    """Hats taken in the order given (as a match publishes them), not sorted: each name is
    replaced by a stand-in that sorts in its place, and put back in the result. A draw
    depends on its hats' order and the seed, not on how the names are spelt."""
    stand_ins: dict[str, list[str]] = {}
    back: dict[str, str] = {}
    for side in SIDES:
        _hat(side, names[side])  # the same checks as a sorted hat: empty, duplicates
        stand_ins[side] = []
        for index, name in enumerate(names[side]):
            token = f"\u2060{side[0]}{index:04d}\u2060"
            stand_ins[side].append(token)
            back[token] = name
    if isinstance(nominations, dict):
        forth = {side: dict(zip(names[side], stand_ins[side], strict=True)) for side in SIDES}
        nominations = {
            side: _replace(value, forth[side].get) if side in forth else value
            for side, value in nominations.items()
        }
    return stand_ins, nominations, back


def _replace(value: Any, exact: Any) -> Any:
    """`value` (JSON) with each string `s` replaced by `exact(s)` where that is not None."""
    if isinstance(value, str):
        found = exact(value)
        return value if found is None else found
    if isinstance(value, list):
        return [_replace(v, exact) for v in value]
    if isinstance(value, dict):
        return {k: _replace(v, exact) for k, v in value.items()}
    return value


def _put_back(value: Any, back: dict[str, str]) -> Any:
    """The draw's JSON with every stand-in (in a name or a note) replaced by its name."""
    if isinstance(value, str):
        for token, name in back.items():
            if token in value:
                value = value.replace(token, name)
        return value
    if isinstance(value, list):
        return [_put_back(v, back) for v in value]
    if isinstance(value, dict):
        return {_put_back(k, back): _put_back(v, back) for k, v in value.items()}
    return value


def _load_json(path: str, code: str) -> Any:
    try:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except (OSError, ValueError) as exc:
        _fail(code, f"Cannot read {path}: {exc}")


def _load_format(value: str) -> MatchFormat:
    data = PRESETS.get(value)
    if data is None:
        data = _load_json(value, "invalid_format")
    try:
        return parse_format(data)
    except FormatError as exc:
        _fail("invalid_format", str(exc))


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m frames.draw --home A,B,... --away C,D,... --seed N [--agreed]``.

    Prints the draw as JSON on stdout (status 0), or ``{"error", "message"}`` on stderr
    with status 2 when the squads cannot be drawn.
    """
    parser = _JsonArgumentParser(
        prog="python -m frames.draw",
        description="Draw a 4-pin bar billiards league match (rules 6-8) and its referees.",
    )
    parser.add_argument("--home", required=True, help="home players present, comma-separated")
    parser.add_argument("--away", required=True, help="away players present, comma-separated")
    parser.add_argument("--seed", required=True, help="integer seed, 0 to 2**63-1")
    parser.add_argument(
        "--agreed",
        action="store_true",
        help="both captains agree to play although a side has fewer than five",
    )
    parser.add_argument(
        "--format",
        help="the match format: a preset name (" + ", ".join(PRESETS) + ") or a JSON file "
        "(the match's stored format); Norwich's when left out",
    )
    parser.add_argument(
        "--nominations",
        help='a JSON file of the captains\' nominations, {"home": ..., "away": ...} '
        "(blind: names per section per frame; fixed: the numbered lineup)",
    )
    parser.add_argument(
        "--as-listed",
        action="store_true",
        help="take each hat in the order given, as a match page and the API publish it "
        "(players who asked not to be named are shown there by their initials), instead of "
        "sorting the names",
    )
    parser.add_argument("--version", action="version", version=ALGORITHM_VERSION)
    args = parser.parse_args(argv)
    try:
        seed = int(args.seed)
    except ValueError:
        _fail("invalid_seed", f"The seed must be an integer, not {args.seed!r}.")
    match_format = None
    if args.format:
        match_format = _load_format(args.format)
    nominations = None
    if args.nominations:
        nominations = _load_json(args.nominations, "invalid_nominations")
    hats = {HOME: _names(args.home), AWAY: _names(args.away)}
    back: dict[str, str] = {}
    try:
        if args.as_listed:
            hats, nominations, back = _as_listed(hats, nominations)
        draw = draw_match(
            hats[HOME],
            hats[AWAY],
            seed,
            agreed=args.agreed,
            match_format=match_format,
            nominations=nominations,
        )
    except DrawError as error:
        _fail(error.code, error.message)
    print(json.dumps(_put_back(draw.to_json(), back), indent=2, ensure_ascii=False))
    return 0
