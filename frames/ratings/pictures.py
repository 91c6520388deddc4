"""The geometry of the pictures (server-rendered SVG, no charting framework in the
browser): pure functions of the figures the selectors read, so the same data always
draws the same bytes. Numbers are rounded to one decimal; presentation attributes only
(the CSP forbids style attributes). Each picture's template gives it a <title> and an
aria-label, and a table of the same figures."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from frames import svg
from frames.svg import r1

WIDTH = 320
PAD = 24
HOME_COLOUR, AWAY_COLOUR = svg.HOME, svg.AWAY


def plural(count: int, noun: str) -> str:
    """The count and its noun, singular for one: "1 frame", "2 frames", "0 frames".

    >>> plural(1, "rated frame"), plural(0, "pot"), plural(12, "shot")
    ('1 rated frame', '0 pots', '12 shots')
    """
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _scale(lo: float, hi: float, top: float, bottom: float):
    span = (hi - lo) or 1.0
    return lambda v: r1(bottom - (v - lo) * (bottom - top) / span)


def _ticks(lo: float, hi: float, count: int = 4) -> list[float]:
    if hi <= lo:
        return [lo]
    raw = (hi - lo) / count
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    first = math.ceil(lo / step) * step
    out = []
    v = first
    while v <= hi + 1e-9:
        out.append(round(v, 6))
        v += step
    return out


# ------------------------------------------------------------------ rating history


def history_chart(history: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    """μ after each rated frame as a line, μ ± σ as a band, and the conservative rating
    (μ − 3σ) as a dashed line; x is the frame's place in the player's history."""
    if not history:
        return None
    height = 160
    lows = [h["mu"] - 3 * h["sigma"] for h in history]
    highs = [h["mu"] + h["sigma"] for h in history]
    lo, hi = min(min(lows), 0.0), max(highs)
    y = _scale(lo, hi, PAD / 2, height - PAD)
    n = len(history)
    step = (WIDTH - 2 * PAD) / max(n - 1, 1)

    def x(i: int) -> float:
        return r1(PAD + i * step)

    mu = " ".join(f"{x(i)},{y(h['mu'])}" for i, h in enumerate(history))
    upper = [f"{x(i)},{y(h['mu'] + h['sigma'])}" for i, h in enumerate(history)]
    lower = [f"{x(i)},{y(h['mu'] - h['sigma'])}" for i, h in enumerate(history)]
    band = " ".join(upper + lower[::-1])
    ordinal = " ".join(f"{x(i)},{y(v)}" for i, v in enumerate(lows))
    ticks = [{"y": y(t), "label": f"{t:g}"} for t in _ticks(lo, hi)]
    dots = [
        {
            "x": x(i),
            "y": y(h["mu"]),
            "fill": svg.RESULT.get(h.get("result", ""), svg.SHARED),
            "title": f"{h['played_on']:%-d %b %Y} v {h.get('opponent', '')}: {h.get('result', '')}, "
            f"μ {h['mu']:.1f} (σ {h['sigma']:.1f})",
        }
        for i, h in enumerate(history)
    ]
    last = history[-1]
    return {
        "width": WIDTH,
        "height": height,
        "mu": mu,
        "band": band,
        "ordinal": ordinal,
        "ticks": ticks,
        "left": PAD,
        "right": WIDTH - PAD / 2,
        "dots": dots if n <= 60 else [],
        "summary": f"Rating over {plural(n, 'rated frame')}: from μ "
        f"{history[0]['mu']:.1f} to {last['mu']:.1f}, uncertainty σ {last['sigma']:.1f}, "
        f"conservative rating {last['mu'] - 3 * last['sigma']:.1f}.",
    }


# ------------------------------------------------------------------ worm


def worm_chart(points: Sequence[Mapping[str, Any]], home: str, away: str) -> dict[str, Any] | None:
    """Each side's score after every shot: two stepped lines from 0."""
    if len(points) < 2:
        return None
    height = 180
    top = max(max(p["home"], p["away"]) for p in points)
    lo = min(0.0, min(min(p["home"], p["away"]) for p in points))
    y = _scale(lo, max(top, 1.0), PAD / 2, height - PAD)
    n = len(points) - 1
    step = (WIDTH - 2 * PAD) / max(n, 1)

    def line(side: str) -> str:
        out = []
        prev = None
        for p in points:
            px = r1(PAD + p["shot"] * step)
            if prev is not None:
                out.append(f"{px},{y(prev)}")
            out.append(f"{px},{y(p[side])}")
            prev = p[side]
        return " ".join(out)

    end = points[-1]
    return {
        "width": WIDTH,
        "height": height,
        "home": line("home"),
        "away": line("away"),
        "home_colour": HOME_COLOUR,
        "away_colour": AWAY_COLOUR,
        "ticks": [{"y": y(t), "label": f"{t:g}"} for t in _ticks(lo, max(top, 1.0))],
        "left": PAD,
        "right": WIDTH - PAD / 2,
        "base": y(0),
        "summary": f"The worm: {home} and {away}'s scores over {plural(n, 'shot')}, "
        f"ending {end['home']:g}–{end['away']:g}.",
    }


# ------------------------------------------------------------------ hole map


def hole_map_chart(data: Mapping[str, Any]) -> dict[str, Any] | None:
    """The player's pots by place on a drawing of the table, seen from above, each place
    where the game's declaration puts it (`x`, `y` of each place, 0-1 each way; `shape`:
    the holes of a bed or a pocket table). Each circle's area follows the share of the
    pots."""
    places = list(data.get("places") or [])
    if not places:
        return None
    total = sum(p["pots"] for p in places)
    most = max((p["pots"] for p in places), default=0) or 1
    height = 300
    left, right, top, bottom = 60.0, WIDTH - 60.0, 20.0, height - 30.0
    spots = [(p, float(p["x"]), float(p["y"])) for p in places]
    shape = str(data.get("shape") or "pockets")
    circles = []
    for p, px, py in spots:
        share = p["pots"] / total if total else 0.0
        radius = 7 + 18 * math.sqrt(p["pots"] / most) if p["pots"] else 7
        label = str(p["place"]).replace("_", " ")
        circles.append(
            {
                "cx": r1(left + px * (right - left)),
                "cy": r1(top + py * (bottom - top)),
                "r": r1(radius),
                "opacity": r1(0.25 + 0.75 * (p["pots"] / most)) if p["pots"] else 0.1,
                "label": label,
                "pots": p["pots"],
                "share": round(100 * share),
                "title": f"{label}: {plural(p['pots'], 'pot')} ({round(100 * share)}%)",
            }
        )
    busiest = max(places, key=lambda p: p["pots"]) if total else None
    return {
        "width": WIDTH,
        "height": height,
        "shape": shape,
        "table": {
            "x": r1(left - 24),
            "y": r1(top - 12),
            "w": r1(right - left + 48),
            "h": r1(bottom - top + 24),
        },
        "circles": circles,
        "total": total,
        "summary": (
            f"Where {plural(total, 'pot')} went"
            + (
                f"; most into {str(busiest['place']).replace('_', ' ')} ({busiest['pots']})."
                if busiest
                else "."
            )
        ),
    }


# ------------------------------------------------------------------ breaks


def _nice(raw: float) -> float:
    """The smallest of 1, 2, 2.5, 5 × 10ᵏ at least `raw`."""
    if raw <= 0:
        return 1.0
    magnitude = 10 ** math.floor(math.log10(raw))
    return next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)


def histogram(values: Sequence[float], label: str, *, bins: int = 8) -> dict[str, Any] | None:
    """How often each range of values came up: at most `bins` ranges of a round width
    (1, 2, 2.5 or 5 × 10ᵏ) from 0 (or below, for negative values) to the highest."""
    if not values:
        return None
    hi = max(values)
    width = _nice((hi - min(0.0, min(values))) / bins or 1.0)
    lo = math.floor(min(0.0, min(values)) / width) * width
    bins = max(1, min(bins, math.floor((hi - lo) / width) + 1))
    counts = [0] * bins
    for v in values:
        counts[min(int((v - lo) / width), bins - 1)] += 1
    height = 150
    inner = WIDTH - 2 * PAD
    step = inner / bins
    ranges = [(lo + i * width, lo + (i + 1) * width) for i in range(bins)]
    bars = svg.bars(
        counts,
        left=PAD,
        top=PAD,
        width=inner,
        height=height - 2 * PAD,
        fills=svg.BLUE,
        titles=[f"{label} {a:g} to {b:g}: {c}" for (a, b), c in zip(ranges, counts, strict=True)],
        labels=[f"{a:g}" for a, _b in ranges],
        gap=2 / step,
        least=0,
        extras=[
            {"from": f"{a:g}", "to": f"{b:g}", "count": c}
            for (a, b), c in zip(ranges, counts, strict=True)
        ],
    )
    return {
        "width": WIDTH,
        "height": height,
        "bars": bars,
        "palette": svg.palette(),
        "label_y": height - 8,
        "base": height - PAD,
        "left": PAD,
        "right": WIDTH - PAD,
        "label": label,
        "summary": f"{label}: {plural(len(values), 'frame')}, highest {hi:g}, median "
        f"{sorted(values)[len(values) // 2]:g}.",
    }


# ------------------------------------------------------------------ positions


def positions_chart(data: Mapping[str, Any]) -> dict[str, Any] | None:
    """Each team's position after every round: one line a team, 1st at the top."""
    rounds = data.get("rounds") or []
    teams = data.get("teams") or []
    if not rounds or not teams:
        return None
    n = len(teams)
    height = max(120, 22 * n + 2 * PAD)
    label_w = 110
    inner = WIDTH - PAD - label_w
    step = inner / max(len(rounds) - 1, 1)

    def y(pos: int) -> float:
        return r1(PAD + (pos - 1) * (height - 2 * PAD) / max(n - 1, 1))

    lines = []
    for i, team in enumerate(sorted(teams, key=lambda t: t["positions"][-1])):
        pts = [f"{r1(PAD + j * step)},{y(p)}" for j, p in enumerate(team["positions"])]
        last = team["positions"][-1]
        lines.append(
            {
                "points": " ".join(pts),
                "colour": svg.SERIES[i % len(svg.SERIES)],
                "label_x": r1(PAD + (len(rounds) - 1) * step + 6),
                "label_y": r1(y(last) + 4),
                "name": team["name"],
                "title": f"{team['name']}: "
                + ", ".join(
                    f"round {r} {p}" for r, p in zip(rounds, team["positions"], strict=True)
                ),
            }
        )
    return {
        "width": WIDTH,
        "height": height,
        "lines": lines,
        "rounds": [{"x": r1(PAD + j * step), "label": r} for j, r in enumerate(rounds)],
        "base": height - 6,
        "summary": f"Positions after each of {plural(len(rounds), 'round')}; "
        f"top now: {lines[0]['name']}.",
    }
