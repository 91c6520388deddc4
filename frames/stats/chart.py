"""A player's form chart (server-rendered SVG, no charting framework)."""

from __future__ import annotations

from datetime import date

from frames import svg
from frames.models import PlayerFrameStat

CHART_WIDTH, CHART_HEIGHT, CHART_PAD = 320, 120, 8


def form_chart(lines: list[PlayerFrameStat]) -> dict | None:
    """Geometry for the server-rendered SVG form chart: one bar per frame (height: the
    side's score; colour: won, lost or shared) and a line for the running win rate.
    Presentation attributes only (the CSP forbids style attributes)."""
    if not lines:
        return None
    top = max(max(line.score for line in lines), 1)
    inner_w = CHART_WIDTH - 2 * CHART_PAD
    inner_h = CHART_HEIGHT - 2 * CHART_PAD
    step = inner_w / len(lines)
    results, titles, points = [], [], []
    won = 0.0
    for i, line in enumerate(lines):
        result = "shared" if line.shared else ("won" if line.won else "lost")
        results.append(result)
        won += 1 if line.won else 0.5 if line.shared else 0
        fixture = line.fixture
        opponent = fixture.away if line.side == "home" else fixture.home
        when = line.played_on.strftime("%-d %b") if isinstance(line.played_on, date) else ""
        titles.append(
            f"{when} v {opponent.name}, frame {line.frame_number}: {result} "
            f"{line.score:,}–{line.opponent_score:,}"
        )
        rate = won / (i + 1)
        points.append(
            f"{svg.r1(CHART_PAD + i * step + step / 2)},{svg.r1(CHART_PAD + inner_h * (1 - rate))}"
        )
    bars = svg.bars(
        [line.score for line in lines],
        left=CHART_PAD,
        top=CHART_PAD,
        width=inner_w,
        height=inner_h,
        highest=top,
        fills=[svg.RESULT[result] for result in results],
        titles=titles,
    )
    n = len(lines)
    last_rate = round(100 * won / n)
    frames = f"{n} frame{'s' if n != 1 else ''}"
    return {
        "title": f"Form over the last {frames}: bars are the side's score (green won, red "
        f"lost, amber shared); the line is the running win rate, {last_rate}% at the end.",
        "caption": f"Last {frames}, oldest first.",
        "width": CHART_WIDTH,
        "height": CHART_HEIGHT,
        "bars": bars,
        "palette": svg.palette(),
        "rate_line": " ".join(points),
        "base_y": CHART_HEIGHT - CHART_PAD,
        "right": CHART_WIDTH - CHART_PAD,
        "pad": CHART_PAD,
        "top": top,
        "last_rate": last_rate,
    }
