"""The pieces every server-drawn picture shares: the palette, text that fits its room, and
bars. The charts (`frames.stats.chart`, `frames.ratings.pictures`) and the result cards
(`frames.cards`) draw with these, and their templates draw bars with one include
(`templates/frames/svg/_bars.html`), so a colour or a bar is defined once.

Pure functions of plain numbers and strings: no Django, no model. Numbers are rounded to
one decimal; presentation attributes only (the CSP forbids style attributes)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

# ------------------------------------------------------------------ the palette

INK = "#1d232a"  # text
MUTED = "#5c6670"  # labels, ticks
RULE = "#ddd8cc"  # axes, grid lines
PAPER = "#f6f4ef"  # the page's background
CARD = "#ffffff"
FELT = "#0e5a3c"  # the header's green
HOME = "#0b6e4f"  # the home side, a frame won
AWAY = "#b3261e"  # the away side, a frame lost
SHARED = "#9a6700"  # a shared frame, the amber of a warning
BLUE = "#1f5fa8"  # one series with no side (a histogram)
# Results by word: a frame won, lost or shared, from one side's point of view.
RESULT = {"won": HOME, "lost": AWAY, "shared": SHARED}
# A winner by side ("" for a shared or undecided frame).
SIDE = {"home": HOME, "away": AWAY, "": SHARED}
# Many series at once (a division's positions): the sides' colours first.
SERIES = (
    HOME,
    AWAY,
    BLUE,
    SHARED,
    "#6f3fa0",
    "#0f7c8c",
    "#a1457a",
    "#4d5b1f",
    "#c2541b",
    "#34495e",
    "#7a6f00",
    "#5b3a29",
)
# The fonts the pictures name: the browser's own sans-serif on a page; DejaVu Sans on the
# server (Debian's fonts-dejavu-core, which cairo finds) when a card becomes a PNG.
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"


def palette() -> dict[str, str]:
    """The palette by name, for a template's context."""
    return {
        "ink": INK,
        "muted": MUTED,
        "rule": RULE,
        "paper": PAPER,
        "card": CARD,
        "felt": FELT,
        "home": HOME,
        "away": AWAY,
        "shared": SHARED,
        "blue": BLUE,
        "font": FONT,
    }


def r1(value: float) -> float:
    """One decimal, and never "-0.0".

    >>> r1(2.345), r1(-0.04)
    (2.3, 0.0)
    """
    out = round(value, 1)
    return 0.0 if out == 0 else out


# ------------------------------------------------------------------ text

# The advance of an average character, in ems, of DejaVu Sans (regular and bold): wide
# enough that an estimate never overflows the room it was fitted to.
_EM = {False: 0.60, True: 0.68}


def text_width(text: str, size: float, *, bold: bool = False) -> float:
    """An upper estimate of `text`'s width at font size `size` (no font metrics needed)."""
    return len(text) * size * _EM[bold]


@dataclass(frozen=True)
class FittedText:
    text: str
    size: float


def fit_text(
    text: str, width: float, *, size: float, smallest: float, bold: bool = False
) -> FittedText:
    """`text` at the largest size from `size` down to `smallest` that fits in `width`;
    still too long at `smallest`, it is cut with an ellipsis.

    >>> fit_text("Kings Head A", 400, size=60, smallest=30, bold=True)
    FittedText(text='Kings Head A', size=49.0)
    >>> fit_text("The Very Long Name of a Pub by the River", 200, size=40, smallest=20)
    FittedText(text='The Very Long N…', size=20.0)
    """
    text = " ".join(text.split())
    fitted = width / max(len(text), 1) / _EM[bold]
    if fitted >= smallest:
        return FittedText(text, float(min(size, int(fitted))))
    room = max(int(width / (smallest * _EM[bold])) - 1, 1)
    return FittedText(text[:room].rstrip() + "…", float(smallest))


# ------------------------------------------------------------------ bars


@dataclass(frozen=True)
class Bar:
    """One bar: its box, its colour and its tooltip (`title`); `label` is drawn under it
    by the pictures that label their bars, `extra` carries what a template shows beside."""

    x: float
    y: float
    w: float
    h: float
    fill: str
    title: str = ""
    label: str = ""
    extra: dict[str, Any] | None = None

    @property
    def cx(self) -> float:
        """The bar's middle, across."""
        return r1(self.x + self.w / 2)


def bars(
    values: Sequence[float],
    *,
    left: float,
    top: float,
    width: float,
    height: float,
    fills: Sequence[str] | str = BLUE,
    titles: Sequence[str] = (),
    labels: Sequence[str] = (),
    highest: float | None = None,
    gap: float = 0.3,
    least: float = 1.0,
    extras: Sequence[dict[str, Any]] = (),
) -> list[Bar]:
    """Vertical bars standing on a base line (`top + height`), one per value, side by side
    across `width`: each as tall as its value against `highest` (the largest value when
    not given), at least `least` (a zero stays visible), `gap` of each step left empty.

    >>> [(b.x, b.y, b.w, b.h) for b in bars([1, 2], left=0, top=0, width=100, height=50)]
    [(7.5, 25.0, 35.0, 25.0), (57.5, 0.0, 35.0, 50.0)]
    """
    if not values:
        return []
    top_value = highest if highest is not None else max(max(values), 0)
    top_value = top_value or 1
    step = width / len(values)
    bar_w = max(step * (1 - gap), 1.0)
    out = []
    for i, value in enumerate(values):
        h = min(max(height * value / top_value, least), height)
        out.append(
            Bar(
                x=r1(left + i * step + (step - bar_w) / 2),
                y=r1(top + height - h),
                w=r1(bar_w),
                h=r1(h),
                fill=fills if isinstance(fills, str) else fills[i],
                title=titles[i] if i < len(titles) else "",
                label=labels[i] if i < len(labels) else "",
                extra=extras[i] if i < len(extras) else None,
            )
        )
    return out
