"""Where to play (docs/directory.md): anyone reads the venues and the posts up now; a
secretary of a league playing at a venue edits it; anyone signed in posts and answers; the
author withdraws; only the two people in a conversation read it; the league's secretary
moderates its posts."""

from __future__ import annotations

from leagues.directory import services
from leagues.models import DirectoryPost

from .base import CAPTAIN, EVERYONE, PLAYER, SIGNED_IN, STAFF, Rule


def setup(ctx) -> None:
    league = ctx.league
    ctx.dir_venue = league.teams[0].venue
    post = services.post_create(
        league=league.season.league,
        kind=DirectoryPost.Kind.JOIN_TEAM,
        team=league.teams[0],
        actor=league.captain,
        title="Players wanted",
    )
    ctx.dir_post = services.post_publish(post=post, actor=league.secretary)
    # The registered player (PLAYER) answered the captain's post.
    ctx.dir_conversation = services.post_answer(
        post=ctx.dir_post, actor=league.player_user, body="Room for one more?"
    ).conversation


post = lambda c: {"pk": c.dir_post.pk}  # noqa: E731
PARTIES = frozenset({CAPTAIN, PLAYER})

ACCESS = {
    "directory": Rule(get=EVERYONE),
    "directory-venue": Rule(kwargs=lambda c: {"pk": c.dir_venue.pk}, get=EVERYONE),
    "directory-venue-edit": Rule(kwargs=lambda c: {"pk": c.dir_venue.pk}, get=STAFF, post=STAFF),
    "directory-posts": Rule(get=EVERYONE),
    "directory-post-new": Rule(get=SIGNED_IN, post=SIGNED_IN),
    "directory-mine": Rule(get=SIGNED_IN),
    # Anyone reads a post up now; anyone signed in answers it (the author's own answer is
    # refused as a conflict, not denied).
    "directory-post": Rule(kwargs=post, get=EVERYONE, post=SIGNED_IN),
    "directory-post-withdraw": Rule(kwargs=post, get=None, post=frozenset({CAPTAIN})),
    "directory-conversation": Rule(
        kwargs=lambda c: {"pk": c.dir_conversation.pk}, get=PARTIES, post=PARTIES
    ),
    "league-posts": Rule(kwargs=lambda c: {"league": c.slug}, get=STAFF, post=None),
    "league-post-moderate": Rule(
        kwargs=lambda c: {"league": c.slug, "pk": c.dir_post.pk}, get=None, post=STAFF
    ),
    "api-directory-venues": Rule(get=EVERYONE),
    "api-directory-venue": Rule(kwargs=lambda c: {"pk": c.dir_venue.pk}, get=EVERYONE),
    "api-directory-posts": Rule(get=EVERYONE, post=SIGNED_IN),
    "api-directory-post-answer": Rule(kwargs=post, get=None, post=SIGNED_IN),
    "api-directory-post-moderate": Rule(kwargs=post, get=None, post=STAFF),
}
