"""Result cards: a match's, a frame's or a cup tie's result as a picture to share.

A card is plain data (`ResultCard`), drawn as an SVG of the Open Graph size (1200 × 630)
from the same pieces as the charts (`frames.svg`: the palette, text fitted to its room,
bars) and made a PNG on the server with cairosvg, so a link pasted in a chat unfurls with
the score. The matches' and frames' cards are read here (`match_card`, `frame_card`); a
cup tie's in `competitions` (which frames does not import), then drawn here too.

What a card shows is public: team names, and players by `Player.public_name` (initials
for a player who asked not to be named, 'Former player N' for an erased one). Which
results have a card (docs/result-cards.md):

- a match once a frame has a result; until both captains confirm (or the secretary
  settles) it says *Provisional* across the top, with the match's state;
- a frame of a league or cup match once it has a result (provisional as its match is);
- never a friendly game's frame: a game outside a league is its players' own (404);
- a cup tie once decided (not a bye).

A PNG is kept in the cache under the hash of its SVG, and the hash is its ETag: any change
the card shows (a corrected score, a name made private, an erasure) draws a new card,
whatever wrote it, with no version to bump.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.http import urlencode

from frames import svg
from frames.models import Frame, FramePlayer, Match, PlayerFrameStat
from frames.ratings.selectors import break_statistic
from rules import registry

logger = logging.getLogger(__name__)

WIDTH, HEIGHT = 1200, 630
# Bumped when the drawing changes, so no kept PNG of the old drawing is served.
DRAWING = 1
CACHE_SECONDS = 7 * 24 * 3600
# How long a browser or a chat's crawler may keep a card without asking again (the ETag
# makes asking cheap): a final result for an hour, a provisional one for a minute.
MAX_AGE_FINAL, MAX_AGE_PROVISIONAL = 3600, 60

# Why a match's result may still change, by its state (a confirmed result is final).
STATUS_WORDS: dict[str, str] = {
    Match.Status.IN_PLAY.value: "In play",
    Match.Status.COMPLETE.value: "Awaiting confirmation",
    Match.Status.DISPUTED.value: "Disputed",
}


def provisional(match: Match) -> str:
    """Why the match's result may still change, or "" once confirmed."""
    if match.status == Match.Status.CONFIRMED:
        return ""
    return STATUS_WORDS.get(str(match.status), "Not confirmed")


class NoCard(Exception):
    """There is no card for this (unknown, private, or no result yet): a 404."""


class CardsUnavailable(Exception):
    """The server cannot make PNGs (cairosvg or its libcairo is missing): a 503."""


@dataclass(frozen=True)
class CardSide:
    names: tuple[str, ...]  # a team's name, or the players' public names
    score: str  # the big figure: frames won, or the frame's score
    won: bool = False


@dataclass(frozen=True)
class CardBar:
    """One bar of the strip under the score (a frame of a match or a tie)."""

    value: float
    winner: str  # "home", "away" or "" (shared, or no winner)
    label: str
    title: str


@dataclass(frozen=True)
class ResultCard:
    kind: str  # "match", "frame" or "tie"
    league: str
    context: str  # the division, the competition and round, the frame
    when: date | None
    home: CardSide
    away: CardSide
    headline: str  # the score in words (og:description)
    title: str  # og:title
    lines: tuple[str, ...] = ()  # under the score: the aggregate, the breaks, the round
    bars: tuple[CardBar, ...] = ()
    provisional: str = ""  # why the result may still change, or "" when it is final
    score_word: str = ""  # instead of the figures: "Walkover", "Awarded"
    extra: dict[str, Any] = field(default_factory=dict)


# ---------------------------------------------------------------------- words


def frames_figure(value: Decimal | float | int | None) -> str:
    """Frames won as the scorecards write them: a shared frame is a half.

    >>> frames_figure(Decimal("5.5")), frames_figure(Decimal("3.0")), frames_figure(None)
    ('5½', '3', '–')
    """
    if value is None:
        return "–"
    whole = int(value)
    half = Decimal(str(value)) - whole
    return f"{whole}½" if half else str(whole)


def score_words(home: str, away: str, home_figure: str, away_figure: str, winner: str) -> str:
    """The result in words, the winner first.

    >>> score_words("Wig and Pen", "Plasterers", "3½", "5½", "away")
    'Plasterers beat Wig and Pen 5½–3½'
    >>> score_words("A", "B", "4½", "4½", "")
    'A and B drew 4½–4½'
    """
    if winner == "home":
        return f"{home} beat {away} {home_figure}–{away_figure}"
    if winner == "away":
        return f"{away} beat {home} {away_figure}–{home_figure}"
    return f"{home} and {away} drew {home_figure}–{away_figure}"


def _winner(home: float | Decimal | None, away: float | Decimal | None) -> str:
    if home is None or away is None or home == away:
        return ""
    return "home" if home > away else "away"


def _day(value: date | None) -> str:
    return f"{value:%a %-d %b %Y}" if value else ""


def _game_name(game_id: str) -> str:
    try:
        return registry.get(game_id).name
    except registry.UnknownGame:
        return ""


# ---------------------------------------------------------------------- reads


def _fixture_context(fixture: Any) -> str:
    return fixture.division.name if fixture.division_id else "Cup match"


def match_card(match_id: int) -> ResultCard:
    """A match's card: the teams, frames won big, the aggregate, a bar a frame (2 queries).
    No card (NoCard) for an unknown match, or one with no frame result yet."""
    try:
        match = Match.objects.select_related(
            "fixture__home", "fixture__away", "fixture__division", "fixture__season__league"
        ).get(pk=match_id)
    except Match.DoesNotExist:
        raise NoCard from None
    frames = list(
        Frame.objects.filter(match_id=match.pk)
        .order_by("number")
        .only("pk", "number", "kind", "home_score", "away_score", "winner", "shared", "status")
    )
    decided = [f for f in frames if f.status in (Frame.Status.COMPLETE, Frame.Status.CONCEDED)]
    if not decided and match.status != Match.Status.CONFIRMED:
        raise NoCard
    fixture = match.fixture
    home, away = fixture.home.name, fixture.away.name
    winner = _winner(match.home_frames, match.away_frames)
    hf, af = frames_figure(match.home_frames), frames_figure(match.away_frames)
    pending = provisional(match)
    words = score_words(home, away, hf, af, winner)
    aggregate = f"Aggregate {match.home_score:,}–{match.away_score:,}"
    headline = f"{words} ({aggregate.lower()})."
    if pending:
        headline = f"Provisional: {headline} {pending}."
    bars = tuple(
        CardBar(
            value=max(f.home_score or 0, f.away_score or 0),
            winner=f.winner if not f.shared else "",
            label=str(f.number),
            title=f"Frame {f.number}: {f.home_score or 0}–{f.away_score or 0}",
        )
        for f in frames
        if f.status in (Frame.Status.COMPLETE, Frame.Status.CONCEDED)
    )
    return ResultCard(
        kind="match",
        league=fixture.season.league.name,
        context=_fixture_context(fixture),
        when=fixture.date,
        home=CardSide((home,), hf, winner == "home"),
        away=CardSide((away,), af, winner == "away"),
        headline=headline,
        title=f"{home} {hf}–{af} {away}",
        lines=(f"Frames won · {aggregate.lower()}",),
        bars=bars,
        provisional=pending,
    )


def frame_card(frame_id: int) -> ResultCard:
    """A frame's card: its players, its score big, each side's best break (or turn, as
    the game declares) when it was scored shot by shot (3 queries). No card (NoCard) for
    an unknown frame, a friendly game's, or one without a result."""
    try:
        frame = (
            Frame.objects.select_related(
                "match__fixture__home",
                "match__fixture__away",
                "match__fixture__division",
                "match__fixture__season__league",
            )
            .prefetch_related(
                Prefetch(
                    "players",
                    queryset=FramePlayer.objects.select_related("player").order_by(
                        "side", "position"
                    ),
                )
            )
            .get(pk=frame_id, match__isnull=False)
        )
    except Frame.DoesNotExist:
        raise NoCard from None
    if frame.status not in (Frame.Status.COMPLETE, Frame.Status.CONCEDED):
        raise NoCard
    match = frame.match
    assert match is not None
    fixture = match.fixture
    names: dict[str, list[str]] = {"home": [], "away": []}
    for slot in frame.players.all():
        names[slot.side].append(slot.player.public_name)
    teams = {"home": fixture.home.name, "away": fixture.away.name}
    for side in ("home", "away"):
        names[side] = names[side] or [teams[side]]
    hs, as_ = frame.home_score or 0, frame.away_score or 0
    winner = "" if frame.shared else frame.winner
    lines = [f"{teams['home']} v {teams['away']}"]
    stat = break_statistic(frame.game_id)
    if stat is not None and frame.result_source == "pad":
        best = {"home": 0.0, "away": 0.0}
        found = False
        for side, values in PlayerFrameStat.objects.filter(
            fixture_id=fixture.pk, frame_number=frame.number
        ).values_list("side", "values"):
            value = values.get(stat[0]) if isinstance(values, dict) else None
            if isinstance(value, int | float) and side in best:
                best[side] = max(best[side], float(value))
                found = True
        if found:
            lines.append(f"{stat[1]} {best['home']:g}–{best['away']:g}")
    if frame.status == Frame.Status.CONCEDED:
        lines.append("Conceded")
    pending = provisional(match)
    home_words, away_words = " & ".join(names["home"]), " & ".join(names["away"])
    words = score_words(home_words, away_words, f"{hs:,}", f"{as_:,}", winner)
    headline = f"{words}, frame {frame.number} of {teams['home']} v {teams['away']}."
    if pending:
        headline = f"Provisional: {headline} {pending}."
    return ResultCard(
        kind="frame",
        league=fixture.season.league.name,
        context=f"Frame {frame.number}, {frame.get_kind_display().lower()}"
        + (f" · {_game_name(frame.game_id)}" if _game_name(frame.game_id) else ""),
        when=fixture.date,
        home=CardSide(tuple(names["home"]), f"{hs:,}", winner == "home"),
        away=CardSide(tuple(names["away"]), f"{as_:,}", winner == "away"),
        headline=headline,
        title=f"{home_words} {hs:,}–{as_:,} {away_words}",
        lines=tuple(lines),
        provisional=pending,
    )


# ---------------------------------------------------------------------- drawing


def _wrap(name: str) -> list[str]:
    """A long name in two lines, split at the space nearest its middle.

    >>> _wrap("The Rosary Rockets Social Club")
    ['The Rosary Rockets', 'Social Club']
    """
    words = name.split()
    if len(words) < 2:
        return [name]
    cuts = [len(" ".join(words[:i])) for i in range(1, len(words))]
    best = min(range(len(cuts)), key=lambda i: abs(cuts[i] - len(name) / 2))
    return [" ".join(words[: best + 1]), " ".join(words[best + 1 :])]


def _names(side: CardSide, x: float, anchor: str, width: float, fill: str) -> list[dict[str, Any]]:
    """A side's name lines (a team's name, or one line a player), all at the size the
    longest fits in the side's room (a team's long name in two lines), stacked upwards from
    the score's rule."""
    texts = list(side.names)
    size, smallest = (54, 28) if len(texts) == 1 else (40, 24)
    if (
        len(texts) == 1
        and svg.fit_text(texts[0], width, size=size, smallest=1, bold=True).size < 40
    ):
        texts, size = _wrap(texts[0]), 44
    fitted = [svg.fit_text(n, width, size=size, smallest=smallest, bold=True) for n in texts]
    common = min((f.size for f in fitted), default=size)
    lines = [svg.fit_text(n, width, size=common, smallest=common, bold=True) for n in texts]
    return [
        {"text": line.text, "size": common, "x": x, "anchor": anchor, "fill": fill, "i": i}
        for i, line in enumerate(lines)
    ]


def _stack(names: list[dict[str, Any]]) -> None:
    """Each side's lines upwards from above the rule, at the size both sides share."""
    common = min(n["size"] for n in names)  # a smaller size always still fits
    counts: dict[str, int] = {}
    for n in names:
        counts[n["anchor"]] = counts.get(n["anchor"], 0) + 1
    for n in names:
        n["size"] = common
        n["y"] = svg.r1(262 - (counts[n["anchor"]] - 1 - n["i"]) * common * 1.15)


def card_svg(card: ResultCard) -> str:
    """The card as SVG source (1200 × 630), every text escaped by the template."""
    palette = svg.palette()
    side_width = 500.0
    if card.score_word:
        score_size = svg.fit_text(card.score_word, 900, size=130, smallest=60, bold=True).size
    else:
        longest = max(card.home.score, card.away.score, key=len)
        score_size = svg.fit_text(longest, 440, size=150, smallest=60, bold=True).size
    strip = None
    if card.bars:
        # A bar at most 120 wide: a short match's strip sits in the middle.
        strip_width = min(WIDTH - 160, 120 * len(card.bars))
        strip = svg.bars(
            [b.value for b in card.bars],
            left=(WIDTH - strip_width) / 2,
            top=490,
            width=strip_width,
            height=46,
            fills=[svg.SIDE[b.winner] for b in card.bars],
            titles=[b.title for b in card.bars],
            labels=[b.label for b in card.bars],
            gap=0.25 if len(card.bars) < 30 else 0.1,
            least=4,
        )
    # Over a strip of bars there is room for one line: the lines are joined.
    lines = [" · ".join(card.lines)] if strip and card.lines else list(card.lines)
    # Without figures (a walkover, an award) the winner's name carries its side's colour.
    ink = palette["ink"]
    home_ink = palette["home"] if card.score_word and card.home.won else ink
    away_ink = palette["away"] if card.score_word and card.away.won else ink
    names = _names(card.home, 80, "start", side_width, home_ink)
    names += _names(card.away, WIDTH - 80, "end", side_width, away_ink)
    _stack(names)
    return render_to_string(
        "frames/cards/card.svg",
        {
            "card": card,
            "width": WIDTH,
            "height": HEIGHT,
            "palette": palette,
            "league": svg.fit_text(card.league, 760, size=34, smallest=22, bold=True),
            "context": (
                svg.fit_text(card.context, WIDTH - 160, size=28, smallest=20)
                if card.context
                else None
            ),
            "day": _day(card.when),
            "names": names,
            "score_size": score_size,
            "dash_y": svg.r1(420 - score_size * 0.36),
            "home_fill": palette["home"] if card.home.won else palette["ink"],
            "away_fill": palette["away"] if card.away.won else palette["ink"],
            "lines": [
                {"y": 470 + 40 * i, **vars(svg.fit_text(line, WIDTH - 160, size=28, smallest=18))}
                for i, line in enumerate(lines)
            ],
            "strip": strip,
            "strip_label_y": 562,
        },
    )


def card_png(source: str) -> bytes:
    """The SVG as a PNG of the card's size. cairosvg is imported here, not at the top: a
    server without libcairo still runs every other page (CardsUnavailable, a 503)."""
    try:
        import cairosvg  # type: ignore[import-untyped]
    except (ImportError, OSError) as exc:
        raise CardsUnavailable(str(exc)) from exc
    png = cairosvg.svg2png(
        bytestring=source.encode("utf-8"), output_width=WIDTH, output_height=HEIGHT
    )
    assert isinstance(png, bytes)
    return png


def card_etag(source: str) -> str:
    return hashlib.sha256(f"{DRAWING}:{source}".encode()).hexdigest()[:32]


UNAVAILABLE = (
    "Result cards are not available on this server: it cannot draw PNG images (cairosvg "
    "needs the cairo library, Debian's libcairo2). The result itself is on its page."
)


def card_response(request: HttpRequest, card: ResultCard) -> HttpResponse:
    """The card as a PNG: 304 when the client holds this drawing (its ETag), else from
    the cache, else drawn (and kept). A 503 saying why when PNGs cannot be made."""
    source = card_svg(card)
    tag = card_etag(source)
    quoted = f'"{tag}"'
    max_age = MAX_AGE_PROVISIONAL if card.provisional else MAX_AGE_FINAL
    cache_control = f"public, max-age={max_age}"
    held = [t.strip() for t in request.headers.get("If-None-Match", "").split(",")]
    if quoted in held or f"W/{quoted}" in held:
        response: HttpResponse = HttpResponseNotModified()
        response["ETag"] = quoted
        response["Cache-Control"] = cache_control
        return response
    key = f"card:png:{tag}"
    try:
        png = cache.get(key)
    except Exception:
        logger.warning("cache unreachable: drawing a card without it")
        png = None
    if not isinstance(png, bytes):
        try:
            png = card_png(source)
        except CardsUnavailable as exc:
            logger.warning("result card not drawn: %s", exc)
            response = HttpResponse(UNAVAILABLE, status=503, content_type="text/plain")
            response["Retry-After"] = "3600"
            return response
        try:
            cache.set(key, png, CACHE_SECONDS)
        except Exception:
            logger.warning("cache unreachable: a card not kept")
    response = HttpResponse(png, content_type="image/png")
    response["ETag"] = quoted
    response["Cache-Control"] = cache_control
    response["Content-Length"] = str(len(png))
    return response


# ---------------------------------------------------------------------- the pages' tags


def absolute(path: str) -> str:
    """A path of ours as an absolute URL on the site's address (`SITE_URL`: https in
    production), as a crawler fetching an og:image needs."""
    return settings.SITE_URL.rstrip("/") + path


def result_version(*parts: Any) -> str:
    """A short token of the result's figures, put on the og:image's URL: a corrected
    result's link names a new image, which a chat that kept the old one fetches anew."""
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:10]


def share_meta(
    *, title: str, description: str, page: str, image: str | None, version: str = ""
) -> dict[str, Any]:
    """What `templates/frames/cards/_meta.html` writes (Open Graph and Twitter's card) and
    the Share button sends: `page` and `image` are paths of ours."""
    image_url = None
    if image is not None:
        image_url = absolute(image) + (f"?{urlencode({'v': version})}" if version else "")
    return {
        "title": title,
        "description": description,
        "url": absolute(page),
        "image": image_url,
        "width": WIDTH,
        "height": HEIGHT,
    }


def match_meta(match: Match) -> dict[str, Any]:
    """The match page's tags from the match in hand (no query): the image only once a
    result is there to show (the card's rule, `match_card`, from the match's tally)."""
    fixture = match.fixture
    home, away = fixture.home.name, fixture.away.name
    has_result = match.status in (
        Match.Status.COMPLETE,
        Match.Status.DISPUTED,
        Match.Status.CONFIRMED,
    ) or bool(match.home_frames or match.away_frames)
    if not has_result:
        return share_meta(
            title=f"{home} v {away}",
            description=f"Match night: {home} v {away}"
            + (f", {_day(fixture.date)}" if fixture.date else "")
            + ".",
            page=reverse("match-detail", args=[match.pk]),
            image=None,
        )
    hf, af = frames_figure(match.home_frames), frames_figure(match.away_frames)
    winner = _winner(match.home_frames, match.away_frames)
    words = score_words(home, away, hf, af, winner)
    aggregate = f"aggregate {match.home_score:,}–{match.away_score:,}"
    pending = provisional(match)
    description = f"{words} ({aggregate})."
    if pending:
        description = f"Provisional: {description} {pending}."
    return share_meta(
        title=f"{home} {hf}–{af} {away}",
        description=description,
        page=reverse("match-detail", args=[match.pk]),
        image=reverse("match-card", args=[match.pk]),
        version=result_version(
            match.status, match.home_frames, match.away_frames, match.home_score, match.away_score
        ),
    )


def frame_meta(frame: Frame, players: Sequence[FramePlayer], page: str) -> dict[str, Any]:
    """A frame page's tags: the image for a league or cup match's frame with a result."""
    match = frame.match
    if match is None:
        return share_meta(title=str(frame), description=str(frame), page=page, image=None)
    fixture = match.fixture
    names: dict[str, list[str]] = {"home": [], "away": []}
    for slot in players:
        names[slot.side].append(slot.player.public_name)
    home = " & ".join(names["home"]) or fixture.home.name
    away = " & ".join(names["away"]) or fixture.away.name
    of = f"frame {frame.number} of {fixture.home.name} v {fixture.away.name}"
    if frame.status not in (Frame.Status.COMPLETE, Frame.Status.CONCEDED):
        return share_meta(
            title=f"{home} v {away}",
            description=f"{home} v {away}, {of}.",
            page=page,
            image=None,
        )
    hs, as_ = frame.home_score or 0, frame.away_score or 0
    words = score_words(home, away, f"{hs:,}", f"{as_:,}", "" if frame.shared else frame.winner)
    pending = provisional(match)
    description = f"{words}, {of}."
    if pending:
        description = f"Provisional: {description} {pending}."
    return share_meta(
        title=f"{home} {hs:,}–{as_:,} {away}",
        description=description,
        page=page,
        image=reverse("frame-card", args=[frame.pk]),
        version=result_version(match.status, frame.status, hs, as_, frame.winner),
    )
