"""Each player's private small ball (forty-one, Kelly and pin pool), shown to that player
only while the game is on: the options a service drew (`frames.engine.frame_sealed`) are
in no other view.

Two ways to see one's ball, both plain pages (no script, nothing kept on the phone):

* on one's own phone: a signed-in player of a league or cup frame sees their own ball;
* by the referee handing the pad round: whoever may score the frame taps a player's name,
  hands the phone over, the player confirms and sees their ball, then hides it. One ball
  is on the screen at a time, and only after the confirmation.

After the game every ball is shown to everyone (the state's `private`).
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from frames.engine import drawn_options, frame_over, frame_sealed
from frames.models import Frame

from . import selectors

ENTER = "frames.enter_event"


def _own_names(frame: Frame, user: Any, names: list[str]) -> list[str]:
    """The names in the frame's setup that are the signed-in user's own (a league or cup
    frame's player labels: the name, or the name and the player's number)."""
    if not user.is_authenticated:
        return []
    mine: set[str] = set()
    for slot in frame.players.all():
        player = slot.player
        if player.user_id is not None and player.user_id == user.pk:
            name = " ".join(player.name.split())
            mine |= {name, f"{name} #{player.pk}"}
    return [n for n in names if n in mine]


@never_cache
@require_http_methods(["GET", "POST"])
def frame_private_ball(request, pk: int):
    """The page of the frame's private balls: the hand-round flow, or one's own ball."""
    try:
        frame = selectors.frame_for_pad(pk)
    except Frame.DoesNotExist:
        raise Http404 from None
    drawn = drawn_options(frame.game_id)
    if not drawn or not isinstance((frame.setup or {}).get(drawn[0]), dict):
        raise Http404("This game has no private balls.")
    balls: dict[str, Any] = frame.setup[drawn[0]]
    names = list(balls)
    context: dict[str, Any] = {"frame": frame, "names": names, "step": "list"}
    if not frame_sealed(frame) and frame_over(frame):
        context.update(step="over", all_balls=balls)
        return render(request, "frames/private_ball.html", context)
    can_hand_round = request.user.has_perm(ENTER, frame)
    own = _own_names(frame, request.user, names)
    context.update(can_hand_round=can_hand_round, own=own)
    if request.method == "POST":
        name = request.POST.get("player", "")
        step = request.POST.get("step", "")
        if name not in own and not can_hand_round:
            context["error"] = "Only the player, or the referee handing the pad round, may see it."
            return render(request, "frames/private_ball.html", context, status=403)
        if name not in names or step not in ("confirm", "show"):
            context["error"] = "Choose a player from the list."
            return render(request, "frames/private_ball.html", context, status=400)
        if step == "confirm" and name not in own:
            context.update(step="confirm", player=name)
        else:
            context.update(step="show", player=name, ball=balls[name])
        return render(request, "frames/private_ball.html", context)
    if not can_hand_round and not own:
        context["note"] = (
            "Each player's ball is secret until the game is over. Sign in as a player of "
            "this frame to see yours, or ask the referee to hand you the pad."
        )
    return render(request, "frames/private_ball.html", context)
