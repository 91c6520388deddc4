"""Who may open the referee pad and live pages, and who may write to a frame's log: the
frame's referee (PLAYER here), a captain or vice-captain of either team, a results secretary
or secretary of the league (not another league's secretary, nor the competitions
secretary)."""

from __future__ import annotations

from frames.engine import service_draws, side_setup
from frames.models import SIDES
from frames.pad.views import engine_bundle
from tests.frames.pad_helpers import make_frame, make_match, referee_player

from .base import ANON, COMPETITIONS, EVERYONE, NOBODY, OUTSIDER, SECRETARY_B, Rule

# The referee, both captains' sides, the league's results secretaries and secretaries.
PAD_EDITORS = EVERYONE - {ANON, OUTSIDER, SECRETARY_B, COMPETITIONS}


def setup(ctx) -> None:
    ctx.pad_match = make_match(ctx.league, home=1, away=0)
    ctx.pad_frame = make_frame(ctx.pad_match, number=1, referee=referee_player(ctx.league))
    # a frame of a game with private balls, drawn as the match night draws them
    ball = make_frame(
        ctx.pad_match, number=2, referee=referee_player(ctx.league), game_id="kelly_pool"
    )
    names = {side: [fp.player.name for fp in ball.players.filter(side=side)] for side in SIDES}
    ball.setup, ball.parties = side_setup("kelly_pool", names, None, rng=service_draws())
    ball.save(update_fields=["setup", "parties"])
    ctx.ball_frame = ball


frame = lambda c: {"pk": c.pad_frame.pk}  # noqa: E731
match = lambda c: {"pk": c.pad_match.pk}  # noqa: E731

ACCESS = {
    "pad-home": Rule(),
    "frame-pad": Rule(kwargs=frame),
    # a player sees their own ball; whoever scores the frame hands the pad round
    "frame-private-ball": Rule(kwargs=lambda c: {"pk": c.ball_frame.pk}, post=PAD_EDITORS),
    "match-live": Rule(kwargs=match),
    "pad-sw": Rule(),
    "pad-manifest": Rule(),
    "pad-engine": Rule(kwargs=lambda c: {"digest": engine_bundle()[0]}),
    "api-frame-events": Rule(kwargs=frame, get=EVERYONE, post=PAD_EDITORS),
    "api-frame-state": Rule(kwargs=frame),
    "api-frame-confirm": Rule(kwargs=frame, get=None, post=PAD_EDITORS),
    "api-game-describe": Rule(kwargs=lambda c: {"game_id": "bar_billiards_4pin"}),
    "api-match-live": Rule(kwargs=match),
    "api-pad-session": Rule(),
}

UNUSED = NOBODY
