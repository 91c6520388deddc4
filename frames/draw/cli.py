"""``python -m frames.draw``: replay a night's draw from a bare checkout."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from marker.formats import PRESETS, FormatError, MatchFormat, parse_format

from .base import ALGORITHM_VERSION, DrawError
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
    try:
        draw = draw_match(
            _names(args.home),
            _names(args.away),
            seed,
            agreed=args.agreed,
            match_format=match_format,
            nominations=nominations,
        )
    except DrawError as error:
        _fail(error.code, error.message)
    print(json.dumps(draw.to_json(), indent=2, ensure_ascii=False))
    return 0
