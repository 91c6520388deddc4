"""Who may photograph a match's signed card and see it (the league's members, not the
public), the secretary's "no card received" list, and who posts and ends site and league
notices. Empty posts are refused as invalid and change nothing."""

from __future__ import annotations

import io

from frames.matchnight import card_photos
from leagues.models import Fixture
from leagues.notices import services as notices
from tests.frames.card_helpers import phone_jpeg

from .base import (
    CAPTAIN,
    EVERYONE,
    OTHER_CAPTAIN,
    PLAYER,
    RESULTS_OFFICERS,
    SITE_ADMIN_ONLY,
    STAFF,
    VICE,
    Rule,
)

CAPTAINS = frozenset({CAPTAIN, VICE, OTHER_CAPTAIN})
#: Who sees a photographed card: the league's players (on a roster), the match's captains
#: and referees, its results officers; not the public, not another league's officers.
MEMBERS = CAPTAINS | RESULTS_OFFICERS | {PLAYER}


def setup(ctx) -> None:
    from frames.models import Frame, Match

    fixture = Fixture.objects.get(
        home=ctx.league.teams[0], away=ctx.league.teams[1], division=ctx.league.premier
    )
    match = Match.objects.get(fixture=fixture)  # opened and drawn by matrix_match
    # The player role referees a frame of the match (the draw's rotation may not pick
    # them: say so here, on a frame the walk's referee changes leave alone).
    last = Frame.objects.filter(match=match).order_by("-number")[:1].get()
    Frame.objects.filter(pk=last.pk).update(referee=ctx.league.player_user.player)
    data = phone_jpeg()
    ctx.card_match = match
    ctx.card_photo = card_photos.card_photo_add(
        match=match, upload=io.BytesIO(data), size=len(data), actor=ctx.league.captain
    )
    ctx.notice = notices.notice_create(
        league=ctx.league.season.league, title="Planned maintenance", actor=ctx.league.secretary
    )


card = lambda c: {"pk": c.card_photo.pk}  # noqa: E731

ACCESS = {
    "match-card-upload": Rule(
        kwargs=lambda c: {"pk": c.card_match.pk},
        get=None,
        post=CAPTAINS | RESULTS_OFFICERS | {PLAYER},
        note="the player role referees a frame of the match",
    ),
    "card-photo": Rule(kwargs=card, get=MEMBERS, post=None),
    "card-photo-thumb": Rule(kwargs=card, get=MEMBERS, post=None),
    # Who added it (the captain here), or a results officer.
    "card-photo-delete": Rule(kwargs=card, get=None, post=frozenset({CAPTAIN}) | RESULTS_OFFICERS),
    "league-no-card": Rule(kwargs=lambda c: {"league": c.slug}, get=RESULTS_OFFICERS),
    "api-notices": Rule(get=EVERYONE, post=None),
    "site-notices": Rule(get=SITE_ADMIN_ONLY, post=SITE_ADMIN_ONLY),
    "league-notices": Rule(kwargs=lambda c: {"league": c.slug}, get=STAFF, post=STAFF),
    "notice-end": Rule(kwargs=lambda c: {"pk": c.notice.pk}, get=None, post=STAFF),
}
