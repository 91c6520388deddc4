"""Helpers for the rankings tests: rating histories written directly (the rankings read
only `Rating` and `RatingChange`, derived rows), so a hand-worked example can say exactly
which frame each player played where and what their rating was after it."""

from __future__ import annotations

import itertools
from collections import defaultdict
from datetime import date

from frames.models import Rating, RatingChange, Side
from leagues.models import League, Organisation, Player
from tests.factories import LeagueFactory, PlayerFactory

BB = "bar_billiards_4pin"
SIGMA = 2.0
_frames = itertools.count(10_000_000)


def history(player: Player, changes: list[tuple[date, League, float]], game_id: str = BB):
    """`player`'s rated frames of `game_id`: each (day, league, conservative rating
    after it), in order; their `Rating` is their rating after the last."""
    rows = []
    done = RatingChange.objects.filter(player=player, game_id=game_id).count()
    for i, (day, league, ordinal) in enumerate(changes, start=done + 1):
        rows.append(
            RatingChange(
                player=player,
                frame_id=next(_frames),
                fixture_id=1,
                league=league,
                game_id=game_id,
                # the game's order of play: by day, then in the order given
                seq=day.toordinal() * 100 + i,
                played_on=day,
                side=Side.HOME,
                mu=ordinal + 3 * SIGMA,
                sigma=SIGMA,
                ordinal=ordinal,
                delta=0.0,
                expected=0.5,
                frames=i,
            )
        )
    RatingChange.objects.bulk_create(rows)
    last = rows[-1]
    Rating.objects.update_or_create(
        player=player,
        game_id=game_id,
        defaults={
            "mu": last.mu,
            "sigma": SIGMA,
            "ordinal": last.ordinal,
            "frames": last.frames,
            "last_played_on": last.played_on,
        },
    )


def county(*leagues: League, slug: str = "norfolk", min_frames: int = 3) -> Organisation:
    organisation = Organisation.objects.create(
        name="Norfolk County Bar Billiards Association",
        slug=slug,
        ranking_min_frames=min_frames,
    )
    organisation.leagues.set(leagues)
    return organisation


def worked_example(today: date) -> dict:
    """The hand-worked example of docs/ratings.md (*Rankings*), relative to `today` =
    15 June 2026: a county of Norwich and Yarmouth (at least 3 frames), and Lowestoft
    outside it. A month before is 15 May 2026; the windows are (15 Jun 2025, 15 Jun 2026]
    and (15 May 2025, 15 May 2026].

    | player | frames (day, league, rating after) | then (15 May) | now (15 Jun) |
    |---|---|---|---|
    | Alan | 3 Norwich in April (10, 11, 12), 2 Yarmouth on 1 June (13, 14) | 3rd, 12 | 2nd, 14: up 1, +2 |
    | Barry | 4 Norwich in March (20), 1 Norwich on 1 June (9) | 1st, 20 | 3rd, 9: down 2, −11 |
    | Carol | 2 Norwich on 1 May (15), 2 Norwich on 2 June (16) | 2 frames: not ranked | 1st, 16: new |
    | Dave | 3 Lowestoft on 3 June (15): not a member league | — | — |
    | Emma | 5 Norwich on 20 May 2025 (18) | 2nd, 18 | no frames in the window |
    | Nora Nobbs (initials only) | 3 Yarmouth on 5 June (5) | — | 4th, 5: new, "N. N." |
    | Former player 1 (erased) | 4 Norwich on 1 June 2026 and April (30) | left out | left out |
    | Harry | 2 Norwich on 10 June (25) | — | 2 frames: not ranked |
    """
    norwich = LeagueFactory(name="Norwich & District", slug="norwich")
    yarmouth = LeagueFactory(name="Great Yarmouth", slug="yarmouth")
    lowestoft = LeagueFactory(name="Lowestoft", slug="lowestoft")
    organisation = county(norwich, yarmouth)
    d = lambda y, m, day: date(y, m, day)  # noqa: E731
    people = {
        name: PlayerFactory(name=name)
        for name in ("Alan Adcock", "Barry Bunn", "Carol Cubitt", "Dave Dye", "Emma Eke")
    }
    people["Nora"] = PlayerFactory(name="Nora Nobbs", private_name=True)
    people["erased"] = PlayerFactory(name="Former player 1", erased_number=1)
    people["Harry"] = PlayerFactory(name="Harry Howlett")
    history(
        people["Alan Adcock"],
        [
            (d(2026, 4, 1), norwich, 10),
            (d(2026, 4, 8), norwich, 11),
            (d(2026, 4, 15), norwich, 12),
            (d(2026, 6, 1), yarmouth, 13),
            (d(2026, 6, 1), yarmouth, 14),
        ],
    )
    history(
        people["Barry Bunn"],
        [(d(2026, 3, day), norwich, 20) for day in (2, 9, 16, 23)] + [(d(2026, 6, 1), norwich, 9)],
    )
    history(
        people["Carol Cubitt"],
        [(d(2026, 5, 1), norwich, 15), (d(2026, 5, 1), norwich, 15)]
        + [(d(2026, 6, 2), norwich, 16), (d(2026, 6, 2), norwich, 16)],
    )
    history(people["Dave Dye"], [(d(2026, 6, 3), lowestoft, 15)] * 3)
    history(people["Emma Eke"], [(d(2025, 5, 20), norwich, 18)] * 5)
    history(people["Nora"], [(d(2026, 6, 5), yarmouth, 5)] * 3)
    history(people["erased"], [(d(2026, 4, 1), norwich, 30)] * 3 + [(d(2026, 6, 1), norwich, 30)])
    history(people["Harry"], [(d(2026, 6, 10), norwich, 25)] * 2)
    return {
        "organisation": organisation,
        "norwich": norwich,
        "yarmouth": yarmouth,
        "lowestoft": lowestoft,
        "people": people,
    }


def many_players(league: League, count: int, day: date, frames: int = 3) -> list[Player]:
    """`count` players each with `frames` frames in `league` on `day`."""
    players = [PlayerFactory() for _ in range(count)]
    for n, player in enumerate(players):
        history(player, [(day, league, float(n))] * frames)
    return players


def leagues_of(rows) -> dict[str, list[str]]:
    out: dict[str, list[str]] = defaultdict(list)
    for r in rows:
        out[r.name] = r.leagues
    return out
