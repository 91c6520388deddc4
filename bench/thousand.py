"""A thousand leagues (issue 33): a seeded generator writing a large Marker straight into
PostgreSQL with COPY, in the shapes the models hold, then ANALYZE.

    .venv/bin/python bench/thousand.py --leagues 1000            # database marker_thousand
    .venv/bin/python bench/thousand.py --leagues 1 --database marker_thousand_1

Per league (everything scales with `--leagues`): a running season of four divisions of ten
teams (40 teams), 300 players of its own (and 20 of the league before it: people who play in
two leagues), a double round robin of which 16 of 18 weeks are played, 16 singles frames a
match (5,120 frames), each frame's two players, their statistics lines (`PlayerFrameStat`)
and rating changes, every player's rating per game, and a team cup of 32 entries drawn and
two rounds played. Leagues play one of four games (bar billiards, English bagatelle, snooker
pool, pyramids), so each game's ratings table spans a quarter of the leagues.

Shot logs: each league's first `--shot-frames` frames (default 20) were scored on the pad,
their `FrameEvent` rows exactly as the app writes them (payload, the state and view after
each event), taken from seeded simulated frames (`rules.simulate`); the others were keyed
in from paper. A full shot log for every frame would be 5 M frames × ~50 events × ~1 KB:
the generator prints the measured bytes per logged frame and the projection.

`--history-seasons K` gives the first league K finished seasons before the current one
(the archive export's ten-season league: `--history-seasons 9`).

The database is dropped and created fresh, migrated with `manage.py migrate`; the big
tables' indexes and constraints are dropped during the COPY and made again after it.
Deterministic: the same arguments give the same rows.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

SERVER = "postgres://postgres@127.0.0.1:5432"
GAMES = ("bar_billiards_4pin", "english_bagatelle", "snooker_pool_hoyle", "english_pyramids")
DIVISIONS, TEAMS_PER_DIVISION, PLAYERS, SHARED = 4, 10, 300, 20
WEEKS, PLAYED_WEEKS, FRAMES_PER_MATCH = 18, 16, 16
CUP_ENTRIES = 32
#: The current season's last played week (a Tuesday): the data do not move with the clock.
ANCHOR = date(2026, 11, 24)
TEMPLATES_PER_GAME = 24
TOWNS = (
    "Witney", "Hastings", "Chester", "Banbury", "Oxford", "Abingdon", "Bicester", "Thame",
    "Didcot", "Wantage", "Faringdon", "Chipping Norton", "Burford", "Woodstock", "Kidlington",
    "Henley", "Wallingford", "Carterton", "Eynsham", "Charlbury", "Rye", "Battle", "Bexhill",
    "Lewes", "Seaford", "Newhaven", "Crowborough", "Uckfield", "Heathfield", "Wadhurst",
    "Northwich", "Nantwich", "Crewe", "Frodsham", "Ellesmere Port", "Tarporley", "Malpas",
    "Winsford", "Middlewich", "Sandbach", "Congleton", "Macclesfield", "Knutsford", "Wilmslow",
    "Canterbury", "Whitstable", "Herne Bay", "Faversham", "Margate", "Ramsgate",
)  # fmt: skip
FIRST = (
    "Alan", "Beth", "Carl", "Dawn", "Eddie", "Fran", "Gary", "Hazel", "Ian", "Jean", "Keith",
    "Linda", "Mick", "Nora", "Owen", "Pat", "Ray", "Sue", "Terry", "Una", "Vic", "Wendy",
    "Yusuf", "Zoe", "Dave", "Sam", "Jo", "Chris", "Kim", "Lee",
)  # fmt: skip
LAST = (
    "Archer", "Baker", "Cooper", "Dyer", "Ellis", "Fletcher", "Garner", "Hughes", "Irwin",
    "Jones", "Kemp", "Lowe", "Mason", "Nash", "Owens", "Price", "Quinn", "Reed", "Shaw",
    "Turner", "Upton", "Vaughan", "Walsh", "Young", "Webb", "Hale", "Pike", "Cole", "Dean",
    "Fox", "Hart", "Lamb", "Moss", "Page", "Rowe", "Stone", "Ward", "Wood", "Bell", "Hill",
)  # fmt: skip
PUBS = (
    "Red Lion", "Crown", "Royal Oak", "White Hart", "Plough", "Swan", "Bell", "Kings Arms",
    "Queens Head", "Rose & Crown", "Black Horse", "George", "Angel", "Fox", "Star",
    "Wheatsheaf", "Globe", "Ship", "Anchor", "Cross Keys",
)  # fmt: skip

#: The tables whose indexes and constraints (all but the primary key) are dropped around
#: the COPY and made again after it.
BIG = (
    "leagues_player",
    "leagues_team",
    "leagues_registration",
    "leagues_fixture",
    "frames_match",
    "frames_frame",
    "frames_frameplayer",
    "frames_frameevent",
    "leagues_playerframestat",
    "frames_ratingchange",
    "frames_rating",
    "competitions_entry",
    "competitions_tie",
)


# ----------------------------------------------------------------------------- setup


def django_setup(database_url: str) -> None:
    os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("DEBUG", "1")
    import django

    django.setup()


def fresh_database(name: str) -> str:
    import psycopg

    with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    url = f"{SERVER}/{name}"
    env = dict(os.environ, DATABASE_URL=url, DEBUG="1")
    subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "migrate", "--noinput", "-v", "0"],
        check=True,
        env=env,
        cwd=ROOT,
    )
    return url


class Table:
    """COPY into one model's table: the named columns from each row, every other column
    its field's default (None for a nullable one), JSON dumped once."""

    def __init__(self, cursor: Any, label: str, columns: tuple[str, ...]):
        from django.apps import apps

        model = apps.get_model(label)
        self.table = model._meta.db_table
        fields = {f.column: f for f in model._meta.concrete_fields}
        unknown = set(columns) - set(fields)
        if unknown:
            raise SystemExit(f"{label}: no column {sorted(unknown)}")
        rest = [c for c in fields if c not in columns]
        self.extra = tuple(_db(fields[c].get_default()) for c in rest)
        self.cursor = cursor
        self.columns = (*columns, *rest)
        self.rows = 0

    def write(self, rows: Iterable[tuple]) -> None:
        extra = self.extra
        names = ", ".join(f'"{c}"' for c in self.columns)
        sql = f"COPY {self.table} ({names}) FROM STDIN"
        with self.cursor.copy(sql) as copy:
            write = copy.write_row
            n = 0
            for row in rows:
                write(row + extra)
                n += 1
        self.rows += n


def _db(value: Any) -> Any:
    if isinstance(value, dict | list):
        return json.dumps(value)
    return value


def drop_indexes(cursor: Any) -> list[str]:
    """Drop the big tables' indexes and unique/foreign-key constraints; the statements
    that make them again, constraints after indexes."""
    again_idx: list[str] = []
    again_con: list[str] = []
    for table in BIG:
        cursor.execute(
            "SELECT conname, pg_get_constraintdef(oid), contype FROM pg_constraint "
            "WHERE conrelid = %s::regclass AND contype IN ('u', 'f')",
            [table],
        )
        for name, definition, _kind in cursor.fetchall():
            cursor.execute(f'ALTER TABLE {table} DROP CONSTRAINT "{name}"')
            again_con.append(f'ALTER TABLE {table} ADD CONSTRAINT "{name}" {definition}')
        cursor.execute(
            "SELECT i.relname, pg_get_indexdef(i.oid) FROM pg_index x "
            "JOIN pg_class i ON i.oid = x.indexrelid WHERE x.indrelid = %s::regclass "
            "AND NOT x.indisprimary",
            [table],
        )
        for name, definition in cursor.fetchall():
            cursor.execute(f'DROP INDEX "{name}"')
            again_idx.append(definition)
    return again_idx + again_con


# ----------------------------------------------------------------------------- shots


class Template:
    """One simulated frame of a game: its setup, events and final state, as the app's rows
    hold them (JSON text made once)."""

    def __init__(self, game_id: str, seed: int):
        from frames.engine import side_setup
        from rules import registry
        from rules.simulate import simulate_game

        game = registry.get(game_id)
        setup, parties = side_setup(game_id, {"home": ["Home"], "away": ["Away"]}, None)
        shots = simulate_game(game_id, setup, seed=seed)
        state = game.initial(setup)
        self.events: list[tuple[str, str, str]] = []
        for shot in shots:
            state = game.apply(state, shot)
            self.events.append(
                (json.dumps(shot), json.dumps(game.dump(state)), json.dumps(game.view(state)))
            )
        outcome = game.outcome(state)
        self.setup = json.dumps(setup)
        self.parties = json.dumps(parties)
        self.state, self.view = self.events[-1][1], self.events[-1][2]
        self.home = int(outcome.scores.get("home", 0))
        self.away = int(outcome.scores.get("away", 0))
        self.winner = outcome.winner or ""
        self.bytes = sum(len(p) + len(s) + len(v) for p, s, v in self.events)


# ----------------------------------------------------------------------------- the data


class Ids:
    def __init__(self) -> None:
        self.next: dict[str, int] = {}

    def take(self, kind: str, n: int = 1) -> int:
        first = self.next.get(kind, 1)
        self.next[kind] = first + n
        return first


def person(rng: random.Random) -> str:
    return f"{rng.choice(FIRST)} {rng.choice(LAST)}"


def round_robin(teams: list[int]) -> list[list[tuple[int, int]]]:
    """A double round robin: 2(n − 1) weeks of n/2 pairs (the circle method)."""
    n = len(teams)
    ring = list(teams)
    weeks = []
    for _week in range(n - 1):
        weeks.append([(ring[i], ring[n - 1 - i]) for i in range(n // 2)])
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return weeks + [[(b, a) for a, b in week] for week in weeks]


def _adder(out: dict[str, list[tuple]]) -> Callable[[str, tuple], None]:
    """`add(label, row)`: a row for a model's table, kept until the batch is copied."""

    def add(label: str, row: tuple) -> None:
        out.setdefault(label, []).append(row)

    return add


def at(day: date, hour: int, minute: int = 0) -> datetime:
    return datetime(day.year, day.month, day.day, hour, minute, tzinfo=UTC)


class Generator:
    def __init__(self, cursor: Any, leagues: int, shot_frames: int, history: int, seed: int):
        self.cursor = cursor
        self.leagues = leagues
        self.shot_frames = shot_frames
        self.history = history
        self.seed = seed
        self.ids = Ids()
        self.templates = {
            g: [Template(g, seed * 1000 + i) for i in range(TEMPLATES_PER_GAME)] for g in GAMES
        }
        #: (player, game) → [mu, sigma, frames, last day]
        self.ratings: dict[tuple[int, str], list] = {}
        self.rating_seq: dict[str, int] = dict.fromkeys(GAMES, 0)
        self.logged_frames = 0
        self.logged_bytes = 0
        self.venue_names: set[str] = set()
        self.t: dict[str, Table] = {}

    def table(self, label: str, columns: tuple[str, ...]) -> Table:
        if label not in self.t:
            self.t[label] = Table(self.cursor, label, columns)
        return self.t[label]

    # The league by league plan is built in memory a league at a time and copied in batches
    # of leagues, so memory stays flat whatever --leagues is.
    def run(self, batch: int = 10, stop_at: datetime | None = None) -> None:
        for start in range(0, self.leagues, batch):
            if stop_at is not None and datetime.now(UTC) >= stop_at:
                print(f"  stopped at {start} leagues (--stop-at)", file=sys.stderr)
                break
            chunk: dict[str, list[tuple]] = {}
            for index in range(start, min(self.leagues, start + batch)):
                self.league(index, chunk)
            self.flush(chunk)
            done = min(self.leagues, start + batch)
            print(f"  {done:>5} leagues written", file=sys.stderr, flush=True)
        self.write_ratings()

    COLUMNS: dict[str, tuple[str, ...]] = {
        "leagues.League": ("id", "name", "slug", "town", "game_id"),
        "leagues.Season": ("id", "league_id", "name", "slug", "status", "start_date", "game_id"),
        "leagues.Division": ("id", "season_id", "name", "rank"),
        "leagues.Venue": ("id", "name", "address", "tables"),
        "leagues.Player": ("id", "name", "private_name"),
        "leagues.Team": ("id", "season_id", "division_id", "name", "venue_id", "previous_id"),
        "leagues.Registration": ("id", "season_id", "team_id", "player_id", "created_at"),
        "leagues.Fixture": (
            "id",
            "season_id",
            "kind",
            "division_id",
            "round",
            "home_id",
            "away_id",
            "venue_id",
            "date",
            "status",
            "home_frames",
            "away_frames",
            "home_score",
            "away_score",
            "result_confirmed_at",
        ),
        "frames.Match": (
            "id",
            "fixture_id",
            "status",
            "game_id",
            "home_frames",
            "away_frames",
            "home_score",
            "away_score",
            "completed_at",
            "confirmed_at",
            "created_at",
        ),
        "frames.Frame": (
            "id",
            "match_id",
            "number",
            "order",
            "kind",
            "game_id",
            "status",
            "setup",
            "parties",
            "state",
            "view",
            "last_seq",
            "top_seq",
            "home_score",
            "away_score",
            "winner",
            "result_source",
            "started_at",
            "completed_at",
        ),
        "frames.FramePlayer": ("id", "frame_id", "side", "position", "player_id"),
        "frames.FrameEvent": (
            "id",
            "frame_id",
            "seq",
            "event_id",
            "payload",
            "top_before",
            "top_after",
            "state_after",
            "view_after",
            "device_id",
            "created_at",
        ),
        "frames.PlayerFrameStat": (
            "id",
            "season_id",
            "division_id",
            "fixture_id",
            "frame_number",
            "player_id",
            "team_id",
            "side",
            "played_on",
            "won",
            "score",
            "opponent_score",
            "has_shots",
            "game_id",
            "source_seq",
        ),
        "frames.RatingChange": (
            "id",
            "player_id",
            "frame_id",
            "fixture_id",
            "league_id",
            "game_id",
            "seq",
            "played_on",
            "side",
            "mu",
            "sigma",
            "ordinal",
            "delta",
            "expected",
            "frames",
            "winner",
            "home_score",
            "away_score",
        ),
        "competitions.Competition": (
            "id",
            "season_id",
            "game_id",
            "name",
            "slug",
            "kind",
            "entrant",
            "stage",
            "drawn_at",
            "created_at",
        ),
        "competitions.Entry": ("id", "competition_id", "team_id", "entered_at", "source"),
        "competitions.Round": ("id", "competition_id", "number", "name", "date"),
        "competitions.Tie": (
            "id",
            "competition_id",
            "round_id",
            "slot",
            "home_id",
            "away_id",
            "status",
            "winner_id",
            "fixture_id",
            "decided_at",
        ),
    }
    ORDER = tuple(COLUMNS)

    def flush(self, chunk: dict[str, list[tuple]]) -> None:
        for label in self.ORDER:
            rows = chunk.get(label)
            if rows:
                self.table(label, self.COLUMNS[label]).write(rows)

    def league(self, index: int, out: dict[str, list[tuple]]) -> None:
        rng = random.Random(self.seed * 1_000_003 + index)
        add = _adder(out)
        game = GAMES[index % len(GAMES)]
        town = TOWNS[index % len(TOWNS)]
        number = index // len(TOWNS) + 1
        league_id = self.ids.take("league")
        name = f"{town} & District {['Bar Billiards', 'Bagatelle', 'Pool', 'Pyramids'][index % 4]}"
        name += f" League {number}" if number > 1 else " League"
        add("leagues.League", (league_id, name, f"league-{index + 1}", town, game))
        # Players: its own 300, and 20 of the league before it.
        first_player = self.ids.take("player", PLAYERS)
        own = list(range(first_player, first_player + PLAYERS))
        for pid in own:
            add("leagues.Player", (pid, person(rng), rng.random() < 0.05))
        pool = own + (
            list(range(first_player - PLAYERS, first_player - PLAYERS + SHARED)) if index else []
        )
        # Venues: 20, two teams each.
        venues = []
        for v in range(20):
            vid = self.ids.take("venue")
            pub = f"{PUBS[v]}, {town}"
            vname = pub if pub not in self.venue_names else f"{pub} ({league_id})"
            self.venue_names.add(vname)
            add("leagues.Venue", (vid, vname, f"{v + 1} High Street, {town}", 1 + v % 2))
            venues.append(vid)
        history = self.history if index == 0 else 0
        previous: list[int] | None = None
        for back in range(history, -1, -1):
            year = ANCHOR.year - back
            start = ANCHOR - timedelta(weeks=PLAYED_WEEKS - 1) - timedelta(weeks=52 * back)
            current = back == 0
            previous = self.season(
                out,
                rng,
                league_id,
                game,
                f"{year}/{(year + 1) % 100:02d}",
                start,
                current,
                pool,
                venues,
                previous,
            )

    def season(
        self,
        out: dict[str, list[tuple]],
        rng: random.Random,
        league_id: int,
        game: str,
        name: str,
        start: date,
        current: bool,
        pool: list[int],
        venues: list[int],
        previous: list[int] | None,
    ) -> list[int]:
        add = _adder(out)
        season_id = self.ids.take("season")
        status = "running" if current else "finished"
        slug = name.replace("/", "-")
        add("leagues.Season", (season_id, league_id, name, slug, status, start, game))
        team_ids: list[int] = []
        divisions: list[tuple[int, list[int]]] = []
        roster: dict[int, list[int]] = {}
        players = list(pool)
        rng.shuffle(players)
        per_team, spare = divmod(len(players), DIVISIONS * TEAMS_PER_DIVISION)
        for d in range(DIVISIONS):
            did = self.ids.take("division")
            add("leagues.Division", (did, season_id, f"Division {d + 1}", d + 1))
            teams = []
            for t in range(TEAMS_PER_DIVISION):
                n = d * TEAMS_PER_DIVISION + t
                tid = self.ids.take("team")
                prev = previous[n] if previous else None
                add(
                    "leagues.Team",
                    (tid, season_id, did, f"{PUBS[n // 2]} {'AB'[n % 2]}", venues[n // 2], prev),
                )
                teams.append(tid)
                team_ids.append(tid)
                extra = 1 if n < spare else 0
                members = players[: per_team + extra]
                players = players[per_team + extra :]
                roster[tid] = members
                joined = at(start - timedelta(days=14), 20)
                for pid in members:
                    add(
                        "leagues.Registration",
                        (self.ids.take("registration"), season_id, tid, pid, joined),
                    )
            divisions.append((did, teams))
        venue_of = {tid: venues[i // 2] for i, tid in enumerate(team_ids)}
        templates = self.templates[game]
        logged = 0
        for did, teams in divisions:
            for week, pairs in enumerate(round_robin(teams)):
                day = start + timedelta(weeks=week)
                played = not current or week < PLAYED_WEEKS
                for home, away in pairs:
                    fid = self.ids.take("fixture")
                    if not played:
                        add(
                            "leagues.Fixture",
                            (
                                fid,
                                season_id,
                                "league",
                                did,
                                week + 1,
                                home,
                                away,
                                venue_of[home],
                                day,
                                "scheduled",
                                None,
                                None,
                                None,
                                None,
                                None,
                            ),
                        )
                        continue
                    logged = self.match(
                        out,
                        rng,
                        fid,
                        season_id,
                        league_id,
                        did,
                        week,
                        home,
                        away,
                        venue_of[home],
                        day,
                        game,
                        roster,
                        templates,
                        logged,
                    )
        self.cup(out, rng, season_id, game, team_ids, start, current)
        return team_ids

    def match(
        self,
        out: dict[str, list[tuple]],
        rng: random.Random,
        fid: int,
        season_id: int,
        league_id: int,
        did: int,
        week: int,
        home: int,
        away: int,
        venue: int,
        day: date,
        game: str,
        roster: dict[int, list[int]],
        templates: list[Template],
        logged: int,
    ) -> int:
        add = _adder(out)
        mid = self.ids.take("match")
        first_frame = self.ids.take("frame", FRAMES_PER_MATCH)
        clock = at(day, 19, 30)
        won = {"home": 0, "away": 0}
        score = {"home": 0, "away": 0}
        for number in range(1, FRAMES_PER_MATCH + 1):
            frame_id = first_frame + number - 1
            state: str | None
            view: str | None
            hp = roster[home][(number - 1) % len(roster[home])]
            ap = roster[away][(number * 3) % len(roster[away])]
            pad = logged < self.shot_frames
            if pad:
                tpl = templates[rng.randrange(len(templates))]
                hs, aw, winner = tpl.home, tpl.away, tpl.winner
                if winner not in ("home", "away"):
                    winner = "home" if hs >= aw else "away"
                events = tpl.events
                setup, parties = tpl.setup, tpl.parties
                state, view = tpl.state, tpl.view
                seq = len(events)
            else:
                hs, aw = rng.randrange(200, 1500), rng.randrange(200, 1500)
                if hs == aw:
                    hs += 10
                winner = "home" if hs > aw else "away"
                setup = parties = "{}"
                state = view = None
                seq = 0
            won[winner] += 1
            score["home"] += hs
            score["away"] += aw
            started = clock
            clock += timedelta(minutes=12)
            add(
                "frames.Frame",
                (
                    frame_id,
                    mid,
                    number,
                    number,
                    "singles",
                    game,
                    "complete",
                    setup,
                    parties,
                    state,
                    view,
                    seq,
                    seq,
                    hs,
                    aw,
                    winner,
                    "pad" if pad else "paper",
                    started,
                    clock,
                ),
            )
            add("frames.FramePlayer", (self.ids.take("frameplayer"), frame_id, "home", 1, hp))
            add("frames.FramePlayer", (self.ids.take("frameplayer"), frame_id, "away", 1, ap))
            if pad:
                first_event = self.ids.take("frameevent", seq)
                shot_at = started
                for n, (payload, state_after, view_after) in enumerate(events, start=1):
                    add(
                        "frames.FrameEvent",
                        (
                            first_event + n - 1,
                            frame_id,
                            n,
                            uuid.UUID(int=rng.getrandbits(128)),
                            payload,
                            n - 1,
                            n,
                            state_after,
                            view_after,
                            "bench",
                            shot_at,
                        ),
                    )
                    shot_at += timedelta(seconds=9)
                logged += 1
                self.logged_frames += 1
                self.logged_bytes += tpl.bytes
            for side, pid, tid, mine, theirs in (
                ("home", hp, home, hs, aw),
                ("away", ap, away, aw, hs),
            ):
                add(
                    "frames.PlayerFrameStat",
                    (
                        self.ids.take("stat"),
                        season_id,
                        did,
                        fid,
                        number,
                        pid,
                        tid,
                        side,
                        day,
                        winner == side,
                        mine,
                        theirs,
                        pad,
                        game,
                        seq,
                    ),
                )
            self.rate(out, game, frame_id, fid, league_id, day, hp, ap, winner, hs, aw)
        home_frames, away_frames = Decimal(won["home"]), Decimal(won["away"])
        confirmed = clock + timedelta(hours=1)
        add(
            "leagues.Fixture",
            (
                fid,
                season_id,
                "league",
                did,
                week + 1,
                home,
                away,
                venue,
                day,
                "played",
                home_frames,
                away_frames,
                score["home"],
                score["away"],
                confirmed,
            ),
        )
        add(
            "frames.Match",
            (
                mid,
                fid,
                "confirmed",
                game,
                home_frames,
                away_frames,
                score["home"],
                score["away"],
                clock,
                confirmed,
                at(day, 19),
            ),
        )
        return logged

    def rate(
        self,
        out: dict[str, list[tuple]],
        game: str,
        frame_id: int,
        fixture_id: int,
        league_id: int,
        day: date,
        home: int,
        away: int,
        winner: str,
        hs: int,
        aw: int,
    ) -> None:
        """A rating change per player, OpenSkill-shaped (μ 25, σ 25/3, σ shrinking)."""
        a = self.ratings.setdefault((home, game), [25.0, 25 / 3, 0, None])
        b = self.ratings.setdefault((away, game), [25.0, 25 / 3, 0, None])
        expected = 1 / (1 + 10 ** ((b[0] - a[0]) / 8))
        self.rating_seq[game] += 1
        seq = self.rating_seq[game]
        for side, me, result, chance in (
            ("home", a, 1.0 if winner == "home" else 0.0, expected),
            ("away", b, 1.0 if winner == "away" else 0.0, 1 - expected),
        ):
            delta = 1.2 * (result - chance)
            me[0] += delta
            me[1] = max(1.5, me[1] * 0.97)
            me[2] += 1
            me[3] = day
            pid = home if side == "home" else away
            out.setdefault("frames.RatingChange", []).append(
                (
                    self.ids.take("ratingchange"),
                    pid,
                    frame_id,
                    fixture_id,
                    league_id,
                    game,
                    seq,
                    day,
                    side,
                    me[0],
                    me[1],
                    me[0] - 3 * me[1],
                    delta,
                    chance,
                    me[2],
                    winner,
                    hs,
                    aw,
                )
            )

    def cup(
        self,
        out: dict[str, list[tuple]],
        rng: random.Random,
        season_id: int,
        game: str,
        teams: list[int],
        start: date,
        current: bool,
    ) -> None:
        """A team cup: 32 entries drawn, the first two rounds played (on cup fixtures)."""
        add = _adder(out)
        cid = self.ids.take("competition")
        drawn = at(start - timedelta(days=7), 12)
        add(
            "competitions.Competition",
            (
                cid,
                season_id,
                game,
                "League Cup",
                "cup",
                "team_knockout",
                "team",
                "knockout",
                drawn,
                drawn,
            ),
        )
        entrants = teams[:CUP_ENTRIES]
        entries = []
        for tid in entrants:
            eid = self.ids.take("entry")
            add("competitions.Entry", (eid, cid, tid, drawn - timedelta(days=7), "entered"))
            entries.append((eid, tid))
        rng.shuffle(entries)
        names = ["Round 1", "Round 2", "Quarter-finals", "Semi-finals", "Final"]
        alive = entries
        for r, rname in enumerate(names, start=1):
            rid = self.ids.take("round")
            day = start + timedelta(weeks=2 + 3 * r, days=2)
            add("competitions.Round", (rid, cid, r, rname, day))
            played = r <= 2 or not current
            winners = []
            for slot in range(len(alive) // 2):
                (he, ht), (ae, at_) = alive[2 * slot], alive[2 * slot + 1]
                tie = self.ids.take("tie")
                if played and (r <= 2 or not current):
                    fid = self.ids.take("fixture")
                    hf = rng.randrange(0, 9)
                    af = 8 - hf if hf != 4 else 3
                    win = (he, ht) if hf > af else (ae, at_)
                    winners.append(win)
                    add(
                        "leagues.Fixture",
                        (
                            fid,
                            season_id,
                            "cup",
                            None,
                            r,
                            ht,
                            at_,
                            self.venue_for(out, ht),
                            day,
                            "played",
                            Decimal(hf),
                            Decimal(af),
                            hf * 100,
                            af * 100,
                            at(day, 23),
                        ),
                    )
                    add(
                        "competitions.Tie",
                        (tie, cid, rid, slot + 1, he, ae, "played", win[0], fid, at(day, 23)),
                    )
                else:
                    add(
                        "competitions.Tie",
                        (tie, cid, rid, slot + 1, he, ae, "pending", None, None, None),
                    )
            if not winners:
                # Later rounds: drawn slots whose entrants are not known yet.
                left = len(alive) // 2
                while left > 1:
                    r += 1
                    if r > len(names):
                        break
                    rid = self.ids.take("round")
                    add(
                        "competitions.Round",
                        (rid, cid, r, names[r - 1], start + timedelta(weeks=2 + 3 * r, days=2)),
                    )
                    for slot in range(left // 2):
                        add(
                            "competitions.Tie",
                            (
                                self.ids.take("tie"),
                                cid,
                                rid,
                                slot + 1,
                                None,
                                None,
                                "pending",
                                None,
                                None,
                                None,
                            ),
                        )
                    left //= 2
                break
            alive = winners

    def venue_for(self, out: dict[str, list[tuple]], team: int) -> int:
        for row in reversed(out["leagues.Team"]):
            if row[0] == team:
                return row[4]
        raise KeyError(team)

    def write_ratings(self) -> None:
        table = self.table(
            "frames.Rating",
            ("id", "player_id", "game_id", "mu", "sigma", "ordinal", "frames", "last_played_on"),
        )

        def rows() -> Iterator[tuple]:
            for n, ((pid, game), (mu, sigma, frames, day)) in enumerate(
                sorted(self.ratings.items()), start=1
            ):
                yield (n, pid, game, mu, sigma, mu - 3 * sigma, frames, day)

        table.write(rows())


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--leagues", type=int, default=1000)
    parser.add_argument("--database", default="marker_thousand")
    parser.add_argument("--shot-frames", type=int, default=20, help="pad-scored frames a league")
    parser.add_argument("--history-seasons", type=int, default=0)
    parser.add_argument("--seed", type=int, default=33)
    parser.add_argument(
        "--stop-at",
        help="UTC time (HH:MM) after which no more leagues are begun: the database is the "
        "size reached by then, indexed and ANALYZEd (for a shared, slow machine)",
    )
    args = parser.parse_args(argv)
    stop_at = None
    if args.stop_at:
        hour, minute = map(int, args.stop_at.split(":"))
        stop_at = datetime.now(UTC).replace(hour=hour, minute=minute, second=0, microsecond=0)
    started = time.perf_counter()
    cpu = time.process_time()
    url = fresh_database(args.database)
    django_setup(url)
    migrated = time.perf_counter()
    print(f"{args.database}: created and migrated in {migrated - started:.1f} s")
    import psycopg

    with psycopg.connect(url) as conn, conn.cursor() as cursor:
        again = drop_indexes(cursor)
        gen = Generator(cursor, args.leagues, args.shot_frames, args.history_seasons, args.seed)
        gen.run(stop_at=stop_at)
        copied = time.perf_counter()
        print(f"COPY: {copied - migrated:.1f} s")
        for statement in again:
            cursor.execute(statement)
        for label in gen.t.values():
            cursor.execute(
                f"SELECT setval(pg_get_serial_sequence('{label.table}', 'id'), "
                f"GREATEST((SELECT max(id) FROM {label.table}), 1))"
            )
        conn.commit()
        indexed = time.perf_counter()
        print(f"indexes and constraints again: {indexed - copied:.1f} s")
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("ANALYZE")
        size = conn.execute("SELECT pg_database_size(current_database())").fetchone()
        events = conn.execute("SELECT pg_total_relation_size('frames_frameevent')").fetchone()
    done = time.perf_counter()
    print(f"ANALYZE: {done - indexed:.1f} s")
    print(f"{'table':<28}{'rows':>14}")
    for _label, t in sorted(gen.t.items()):
        print(f"{t.table:<28}{t.rows:>14,}")
    assert size is not None and events is not None
    print(f"database: {size[0] / 1e9:.2f} GB; shot log {events[0] / 1e9:.2f} GB")
    if gen.logged_frames:
        per_frame = events[0] / gen.logged_frames
        frames = gen.t["frames.Frame"].rows
        events_per = gen.t["frames.FrameEvent"].rows / gen.logged_frames
        print(
            f"shot log: {gen.logged_frames:,} frames scored on the pad, {events_per:.0f} events "
            f"and {per_frame / 1e3:.0f} kB a frame (table and indexes); every frame's log "
            f"({frames:,}) would take {per_frame * frames / 1e9:.0f} GB"
        )
    print(
        f"total: {done - started:.1f} s wall, {time.process_time() - cpu:.1f} s CPU "
        "(this process; PostgreSQL's not included)"
    )


if __name__ == "__main__":
    main()
