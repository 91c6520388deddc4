"""A cup tie's result card (a PNG to share, docs/result-cards.md) and its page's Open Graph
tags: the tie read here, drawn by `frames.cards` like a match's or a frame's card."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.urls import reverse
from django.views.decorators.http import require_safe

from frames import cards

from .. import selectors
from ..models import Entry, Tie, TieFrame


def _stage(tie: Tie) -> str:
    if tie.round is not None:
        return tie.round.name
    return tie.group.name if tie.group is not None else ""


def _winner(tie: Tie) -> Entry | None:
    """The winning entry, as the tie's side (its names are read with the tie's sides)."""
    if tie.winner_id is None:
        return None
    return tie.home if tie.winner_id == tie.home_id else tie.away


def _frame_scores(tf: TieFrame) -> tuple[int | None, int | None, str]:
    """A tie frame's scores and winner: keyed in on paper, or its pad frame's."""
    if tf.home_score is not None:
        return tf.home_score, tf.away_score, tf.winner
    frame = tf.frame
    if frame is not None and frame.home_score is not None:
        return frame.home_score, frame.away_score, tf.winner or frame.winner
    return None, None, tf.winner


def _words(tie: Tie) -> tuple[str, str, str, str]:
    """(title, the result in words, the home figure, the away figure) of a decided tie."""
    assert tie.home is not None and tie.away is not None
    home, away = tie.home.name, tie.away.name
    winner = "home" if tie.winner_id == tie.home_id else "away"
    result = tie.result
    if tie.status != Tie.Status.PLAYED or result.home_frames is None:
        status = tie.get_status_display()
        entry = _winner(tie)
        who = entry.name if entry is not None else ""
        return f"{home} v {away}: {status.lower()}", f"{who} won ({status.lower()})", "", ""
    hf, af = cards.frames_figure(result.home_frames), cards.frames_figure(result.away_frames)
    return f"{home} {hf}–{af} {away}", cards.score_words(home, away, hf, af, winner), hf, af


def shareable(tie: Tie) -> bool:
    """Whether the tie has a card: decided between two entrants (a bye has none)."""
    return tie.decided and not tie.bye and tie.home is not None and tie.away is not None


def tie_card(tie: Tie) -> cards.ResultCard:
    """The tie's card from the tie as `selectors.tie_detail` reads it (its frames
    prefetched): the competition and round, the entrants, frames won big (or the award),
    a bar a frame of an individual tie."""
    if not shareable(tie):
        raise cards.NoCard
    assert tie.home is not None and tie.away is not None
    competition = tie.competition
    title, words, hf, af = _words(tie)
    home_won = tie.winner_id == tie.home_id
    lines: list[str] = []
    bars: list[cards.CardBar] = []
    for tf in tie.frames.all():
        hs, as_, side = _frame_scores(tf)
        if hs is None or as_ is None:
            continue
        bars.append(
            cards.CardBar(
                value=max(hs, as_),
                winner=side if side in ("home", "away") else "",
                label=str(tf.number),
                title=f"Frame {tf.number}: {hs}–{as_}",
            )
        )
    result = tie.result
    if hf and result.home_score is not None:
        lines.append(f"Frames won · aggregate {result.home_score:,}–{result.away_score or 0:,}")
    elif tie.award_reason:
        lines.append(f"{tie.get_status_display()}: {tie.award_reason}")
    through = _winner(tie)
    if through is not None:
        lines.append(f"Winner: {through.name}")
    when = tie.round.date if tie.round is not None and tie.round.date else None
    if when is None and tie.fixture is not None:
        when = tie.fixture.date
    if when is None and tie.decided_at is not None:
        when = tie.decided_at.date()
    return cards.ResultCard(
        kind="tie",
        league=competition.owner_name
        if competition.season is None
        else competition.season.league.name,
        context=" · ".join(p for p in (competition.name, _stage(tie)) if p),
        when=when,
        home=cards.CardSide((tie.home.name,), hf, home_won),
        away=cards.CardSide((tie.away.name,), af, not home_won),
        headline=f"{words}, {competition.name}" + (f", {_stage(tie)}" if _stage(tie) else "") + ".",
        title=title,
        lines=tuple(lines),
        bars=tuple(bars),
        score_word="" if hf else tie.get_status_display(),
    )


def tie_meta(tie: Tie) -> dict[str, Any]:
    """The tie page's Open Graph tags: the card's words and image once decided."""
    page = reverse("tie-detail", args=[tie.pk])
    if not shareable(tie):
        return cards.share_meta(
            title=f"{tie} · {tie.competition.name}",
            description=f"{tie}, {tie.competition.name}"
            + (f", {_stage(tie)}" if _stage(tie) else "")
            + f": {tie.get_status_display().lower()}.",
            page=page,
            image=None,
        )
    card = tie_card(tie)
    result = tie.result
    return cards.share_meta(
        title=card.title,
        description=card.headline,
        page=page,
        image=reverse("tie-card", args=[tie.pk]),
        version=cards.result_version(
            tie.status, tie.winner_id, result.home_frames, result.away_frames, result.home_score
        ),
    )


@require_safe
def tie_card_png(request, pk: int):
    """A decided tie's result card; 404 for an unknown tie, one not decided, or a bye."""
    try:
        tie = selectors.tie_detail(pk)
        return cards.card_response(request, tie_card(tie))
    except (Tie.DoesNotExist, cards.NoCard):
        raise Http404("This tie has no result card.") from None
