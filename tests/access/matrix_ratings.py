"""Who may open the ratings and pictures pages and endpoints: everyone (results and
ratings are the league's, like the statistics); none of them takes a post."""

from __future__ import annotations

from leagues.models import Organisation

from .base import Rule

BB = "bar_billiards_4pin"


def setup(ctx) -> None:
    # An organisation of league A ranking bar billiards (its rankings are public).
    ctx.ranking_organisation = Organisation.objects.create(
        name=f"Rankings {ctx.slug}", slug=f"rankings-{ctx.slug}", ranked_games=[BB]
    )
    ctx.ranking_organisation.leagues.add(ctx.league.season.league)


def _players(c):
    regs = c.league.teams[0].registrations.order_by("id")
    return regs[0].player_id, c.league.teams[1].registrations.order_by("id")[0].player_id


player = lambda c: {"pk": _players(c)[0]}  # noqa: E731
pair = lambda c: {"a": _players(c)[0], "b": _players(c)[1]}  # noqa: E731
teams = lambda c: {"a": c.league.teams[0].pk, "b": c.league.teams[1].pk}  # noqa: E731
league = lambda c: {"league": c.slug}  # noqa: E731
api_league = lambda c: {"pk": c.league.season.league_id}  # noqa: E731
match = lambda c: {"pk": c.pad_match.pk}  # noqa: E731
frame = lambda c: {"pk": c.pad_frame.pk}  # noqa: E731
division = lambda c: {"league": c.slug, "pk": c.league.premier.pk}  # noqa: E731
api_division = lambda c: {"pk": c.league.premier.pk}  # noqa: E731

ACCESS = {
    "player-ratings": Rule(kwargs=player),
    "league-ratings": Rule(kwargs=league),
    "match-expectation": Rule(kwargs=match),
    "frame-worm": Rule(kwargs=frame),
    # Result cards (PNG): public, like the results (404 until there is a result).
    "match-card": Rule(kwargs=match),
    "frame-card": Rule(kwargs=frame),
    "division-positions": Rule(kwargs=division),
    "head-to-head-players": Rule(kwargs=pair),
    "head-to-head-teams": Rule(kwargs=teams),
    # Rankings across leagues: public, like the ratings.
    "organisation-rankings": Rule(kwargs=lambda c: {"slug": c.ranking_organisation.slug}),
    "organisation-ranking": Rule(
        kwargs=lambda c: {"slug": c.ranking_organisation.slug, "game_id": BB}
    ),
    "site-ranking": Rule(kwargs=lambda c: {"game_id": BB}),
    # API
    "api-player-ratings": Rule(kwargs=player),
    "api-player-hole-map": Rule(kwargs=player, note="400 without a game: not a denial"),
    "api-player-breaks": Rule(kwargs=player, note="400 without a game: not a denial"),
    "api-league-ratings": Rule(kwargs=api_league),
    "api-match-expectation": Rule(kwargs=match),
    "api-frame-worm": Rule(kwargs=frame),
    "api-division-positions": Rule(kwargs=api_division),
    "api-head-to-head-players": Rule(kwargs=pair),
    "api-head-to-head-teams": Rule(kwargs=teams),
    "api-rating-runs": Rule(),
    "api-organisation-ranking": Rule(
        kwargs=lambda c: {"slug": c.ranking_organisation.slug, "game_id": BB}
    ),
    "api-site-ranking": Rule(kwargs=lambda c: {"game_id": BB}),
}
