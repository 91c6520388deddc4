"""The order of play: one captain proposes, the other accepts (rule 6); the referees follow
the new order while no frame has started."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import F

from frames.models import (
    Frame,
    Match,
    MatchLog,
)
from frames.results import (
    lock_match,
)
from marker.errors import DomainError

from .common import (
    OPEN,
    User,
    frames_for_update,
    frames_started,
    require_captain,
    require_status,
    resolve_now,
)
from .drawing import resolve_referees


def _check_order(frames: Sequence[Frame], order: Sequence[Any]) -> list[int]:
    numbers = sorted(f.number for f in frames)
    try:
        order = [int(n) for n in order]
    except (TypeError, ValueError):
        raise DomainError(
            "bad_order", "Give the frame numbers in the new order.", field="order"
        ) from None
    if sorted(order) != numbers:
        raise DomainError(
            "bad_order",
            f"The new order must list each of frames {', '.join(map(str, numbers))} once.",
            field="order",
        )
    for frame in frames:
        if frame.status != Frame.Status.SCHEDULED and order.index(frame.number) + 1 != frame.order:
            raise DomainError(
                "frame_fixed",
                f"Frame {frame.number} is {frame.get_status_display().lower()}: it keeps its "
                f"place ({frame.order}) in the order of play.",
                field="order",
            )
    if order == [f.number for f in sorted(frames, key=lambda f: f.order)]:
        raise DomainError("same_order", "That is already the order of play.", field="order")
    return order


@transaction.atomic
def match_reorder(
    *, match: Match, side: str, order: Sequence[int], actor: User, now: datetime | None = None
) -> Match:
    """A captain proposes another order of play (frame numbers, first to last). Frames
    that have started keep their place. Nothing changes until the other captain accepts
    (rule 6: only with both captains' agreement); a new proposal replaces the old one."""
    now = resolve_now(now)
    match = lock_match(match)
    require_captain(match, side, actor, "propose an order of play for this side")
    require_status(match, *OPEN)
    order = _check_order(list(Frame.objects.filter(match=match)), order)
    if match.reorder_proposal == order and match.reorder_proposed_by == side:
        return match
    match.reorder_proposal, match.reorder_proposed_by = order, side
    match.save(update_fields=["reorder_proposal", "reorder_proposed_by"])
    MatchLog.add(match, actor, "reorder_proposed", now, side=side, order=order)
    return match


@transaction.atomic
def match_reorder_accept(
    *, match: Match, side: str, actor: User, now: datetime | None = None
) -> Match:
    """The other captain accepts the proposed order: frames take their new places. If no
    frame has started, the referees are solved again for the new order (the rota follows
    the order of play) from the draw's seed; otherwise they stay as they are."""
    now = resolve_now(now)
    match = lock_match(match, frames=True)
    require_captain(match, side, actor, "accept an order of play for this side")
    require_status(match, *OPEN)
    if not match.reorder_proposal:
        raise DomainError("no_proposal", "No change to the order of play has been proposed.")
    if match.reorder_proposed_by == side:
        raise DomainError(
            "own_proposal",
            f"{match.team(side).name} proposed this order: the other captain must accept it.",
        )
    frames = list(frames_for_update(match))
    order = _check_order(frames, match.reorder_proposal)
    previous = [f.number for f in sorted(frames, key=lambda f: f.order)]
    by_number = {f.number: f for f in frames}
    Frame.objects.filter(match=match).update(order=F("order") + 100)
    for position, number in enumerate(order, start=1):
        by_number[number].order = position
        by_number[number].save(update_fields=["order"])
    # Referees are re-solved only where the format draws them (the Norwich rotation).
    resolved = not frames_started(match) and match.format.referee == "norwich_rotation"
    notes: tuple[str, ...] = ()
    if resolved:
        notes = resolve_referees(match, [by_number[n] for n in order])
    proposed_by = match.reorder_proposed_by
    match.reorder_proposal, match.reorder_proposed_by = [], ""
    match.save(update_fields=["reorder_proposal", "reorder_proposed_by"])
    MatchLog.add(
        match,
        actor,
        "reorder_accepted",
        now,
        side=side,
        proposed_by=proposed_by,
        previous=previous,
        order=order,
        referees_resolved=resolved,
        notes=list(notes),
    )
    return match


@transaction.atomic
def match_reorder_reject(
    *, match: Match, side: str, actor: User, now: datetime | None = None
) -> Match:
    """Either captain turns the proposal down (or its author withdraws it)."""
    now = resolve_now(now)
    match = lock_match(match)
    require_captain(match, side, actor, "answer a proposed order of play for this side")
    if not match.reorder_proposal:
        return match
    order, proposed_by = match.reorder_proposal, match.reorder_proposed_by
    match.reorder_proposal, match.reorder_proposed_by = [], ""
    match.save(update_fields=["reorder_proposal", "reorder_proposed_by"])
    MatchLog.add(
        match, actor, "reorder_rejected", now, side=side, proposed_by=proposed_by, order=order
    )
    return match
