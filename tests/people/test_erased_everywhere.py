"""Issue 34's "done when": a person who chose initials, played match nights (a frame on
the pad) and a cup (its final on the pad), won an honour and leads an award, started a
friendly game, and was then erased, is found by their old name, username or email on no
page or API answer (every URL pattern of the access matrix, as the public and as the
secretary, and the addresses of their own frames, cup and records), in no export or
archive and nowhere in the database; while tables, leaderboards, ratings, the cup and the
draw's replay stay as they were."""

from __future__ import annotations

import io
import json
import uuid

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from competitions.models import Competition, Tie, TieFrame
from competitions.services.entries import entry_create
from competitions.services.pad import tie_confirm
from competitions.services.setup import competition_create
from exchange.archive import league_export
from frames.draw import cli
from frames.friendly.services import friendly_start
from frames.matchnight import signoff
from frames.models import Award, Frame, Rating, RatingChange
from frames.pad.events import frame_confirm, frame_rebuild, frame_record_event
from frames.ratings.services import ratings_recompute
from frames.stats import awards, record
from frames.stats import selectors as stats_selectors
from leagues import standings
from leagues.models import Honour, Player
from people.erasure import person_erase
from people.export import person_data
from people.naming import person_set_private_name
from tests.competitions.helpers import NOW as CUP_DAY
from tests.competitions.helpers import drawn as cup_drawn
from tests.conftest import built_once, make_league
from tests.factories import make_site_admin
from tests.frames.matchnight_helpers import later
from tests.links import league_reverse
from tests.people.test_cup_erasure import play_on_pad
from tests.test_access import _league_context, _rules

pytestmark = pytest.mark.django_db

OLD = "Zebedee Quux"
USERNAME = "zeb-quux-login"
EMAILS = ("zebedee@example.org", "zeb.player@example.org")
SECRETS = (OLD, USERNAME, *EMAILS)

# A whole frame of bar billiards, ended on the cut-off (as in tests/frames).
SCRIPT = [
    {"type": "bar_down"},
    {"type": "shot", "pots": [{"ball": "white", "hole": 200}, {"ball": "red", "hole": 200}]},
    {"type": "shot", "pots": [{"ball": "white", "hole": 200}, {"ball": "white", "hole": 200}]},
    {"type": "shot", "pots": [{"ball": "white", "hole": 50}]},
    {"type": "shot"},
    {"type": "shot", "pots": [{"ball": "white", "hole": 100}]},
    {"type": "shot"},
    {"type": "shot", "fouls": ["miss"]},
    {"type": "shot", "pots": [{"ball": "white", "hole": 30}]},
]


def _play_league_frame(frame: Frame) -> None:
    for seq, payload in enumerate(SCRIPT, start=1):
        frame_record_event(
            frame_id=frame.pk,
            event_id=uuid.uuid4(),
            expected_seq=seq,
            payload=payload,
            kind="event",
            user=None,
            device_id="test",
            now=later(30 + seq),
        )
    frame_confirm(frame_id=frame.pk, seq=len(SCRIPT), user=None, now=later(60))


def _world(chosen: str = "flag"):
    """The access matrix's two leagues and objects, league A's registered player with an
    account (the PLAYER role) being Zebedee Quux, who asked to be shown by initials; then
    their match night played and confirmed, their cup won, and their friendly started.
    `chosen`: how they asked: "flag" (the flag set in the database before anything was
    drawn), "before" (through the service, before anything was drawn), "not" (not yet:
    the caller asks after they played)."""
    league = make_league(teams_per_division=4, players_per_team=5)
    league_b = make_league(teams_per_division=4, players_per_team=5)
    user = league.player_user
    victim = user.player
    get_user_model().objects.filter(pk=user.pk).update(username=USERNAME, email=EMAILS[0])
    Player.objects.filter(pk=victim.pk).update(
        name=OLD, email=EMAILS[1], private_name=chosen == "flag"
    )
    user.refresh_from_db()
    victim.refresh_from_db()
    if chosen == "before":
        person_set_private_name(player=victim, private=True)
    site_admin = make_site_admin(username="siteadmin")
    ctx = _league_context(league, league_b)
    ctx_b = _league_context(league_b, league)
    ctx.b, ctx_b.b = ctx_b, ctx
    ctx.league_b, ctx_b.league_b = league_b, league
    ctx.site_admin = ctx_b.site_admin = site_admin

    # The match night the matrix drew (teams[0] at home: Zebedee is in the hat): their
    # frame on the pad, the rest on paper, confirmed by both captains.
    match = ctx.match
    mine = Frame.objects.filter(match=match, players__player=victim).order_by("order").first()
    _play_league_frame(mine)
    scores = {
        f.number: (900, 400 + 10 * f.number)
        for f in Frame.objects.filter(match=match)
        if f.status not in (Frame.Status.COMPLETE, Frame.Status.CONCEDED)
    }
    signoff.match_key_in_paper(match=match, scores=scores, actor=league.captain, now=later(90))
    for side, captain in (("home", league.captain), ("away", league.other_captain)):
        signoff.match_confirm(match=match, side=side, actor=captain, now=later(100))
    record.stats_sync()
    ratings_recompute(game_id=match.game_id)

    # A singles cup of two, its final (two frames) scored on the pad: the winner and the
    # runner-up go on the roll of honour.
    rival = league.teams[1].registrations.order_by("id").first().player
    cup = competition_create(
        actor=league.secretary, season=league.season, name="Quux Cup", kind="singles", now=CUP_DAY
    )
    for player in (victim, rival):
        entry_create(actor=league.secretary, competition=cup, player=player, now=CUP_DAY)
    cup_drawn(cup, league.secretary)
    final = Tie.objects.get(competition=cup)
    cup_frames = [play_on_pad(final, league.secretary).frame_id for _ in range(2)]
    tie_confirm(actor=league.secretary, tie=final, now=CUP_DAY)

    award = awards.award_define(
        season=league.season,
        actor=league.secretary,
        name="Quux Trophy",
        measure=Award.Measure.WIN_RATE,
    )
    friendly = friendly_start(
        owner=user, game_id="bar_billiards_4pin", players=[OLD, "Ann Other"], now=CUP_DAY
    )
    ctx.victim, ctx.user, ctx.cup, ctx.final = victim, user, cup, final
    ctx.my_frame, ctx.cup_frames, ctx.my_award, ctx.my_friendly = mine, cup_frames, award, friendly
    return ctx


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    yield from built_once(django_db_blocker, _world)


def _own_addresses(w) -> list[str]:
    """The addresses of the person's own records, frames, cup and awards."""
    c, season = w.cup.pk, w.league.season
    frames = [w.my_frame.pk, *w.cup_frames, w.my_friendly.frame.pk]
    return [
        reverse("player-detail", args=[w.victim.pk]),
        reverse("player-ratings", args=[w.victim.pk]),
        reverse("api-player-detail", args=[w.victim.pk]),
        reverse("api-player-list"),
        reverse("match-detail", args=[w.match.pk]),
        reverse("match-sheet", args=[w.match.pk]),
        reverse("api-match-detail", args=[w.match.pk]),
        league_reverse("season-leaderboard", args=[season.pk]),
        league_reverse("season-awards", args=[season.pk]),
        reverse("api-season-awards", args=[season.pk]),
        reverse("api-league-honours", args=[season.league_id]),
        f"/api/competitions/{c}/",
        f"/api/competitions/{c}/entries/",
        f"/api/competitions/{c}/draw/",
        f"/api/competitions/{c}/bracket/",
        f"/api/ties/{w.final.pk}/",
        *(f"/api/frames/{pk}/state/" for pk in frames),
        *(f"/api/frames/{pk}/events/?since=0" for pk in frames),
        *(f"/frames/{pk}/worm/" for pk in frames),
        reverse("friendly-detail", args=[w.my_friendly.pk]),
    ]


def _answers(w) -> dict[str, str]:
    """Every GET of the access matrix's URL patterns (league A's objects) and of the
    person's own addresses, as the public and as league A's secretary."""
    rules, _ = _rules()
    urls = [
        reverse(name, kwargs=rule.kwargs(w)) for name, rule in sorted(rules.items()) if rule.get
    ]
    urls += _own_addresses(w)
    seen: dict[str, str] = {}
    for who, client in (("anonymous", Client()), ("secretary", Client())):
        if who == "secretary":
            client.force_login(
                w.league.secretary, backend="django.contrib.auth.backends.ModelBackend"
            )
        for url in urls:
            response = client.get(url)
            body = b"".join(response) if response.streaming else response.content
            seen[f"{who} {url}"] = body.decode("utf-8", "replace")
    return seen


def _exports(w) -> dict[str, str]:
    out = io.StringIO()
    call_command("league_export", w.league.season.league.slug, stdout=out)
    return {
        "archive (full backup)": json.dumps(league_export(league=w.league_obj, full=True)),
        "archive (portable)": json.dumps(league_export(league=w.league_obj, full=False)),
        "league_export command": out.getvalue(),
        "the person's download": json.dumps(
            person_data(Player.objects.get(pk=w.victim.pk)), default=str
        ),
    }


def _database() -> str:
    out = io.StringIO()
    call_command("dumpdata", "--natural-foreign", stdout=out)
    return out.getvalue()


def _found(texts: dict[str, str]) -> list[str]:
    return [
        f"{where}: {secret!r}"
        for where, text in texts.items()
        for secret in SECRETS
        if secret.lower() in text.lower()
    ]


def _results(w) -> dict:
    board = stats_selectors.leaderboard(season=w.league.season)
    return {
        "tables": [t.as_rows() for t in standings.tables(w.league.season)],
        "leaderboard": [{k: v for k, v in r.items() if k != "player__name"} for r in board],
        "award": [
            (s.player_id, s.position, s.value)
            for s in awards.award_standings(Award.objects.get(pk=w.my_award.pk)).leaders
        ],
        "ratings": sorted(
            Rating.objects.values_list("player_id", "game_id", "mu", "sigma", "frames")
        ),
        "changes": sorted(
            RatingChange.objects.values_list("player_id", "frame_id", "mu", "sigma", "delta")
        ),
        "cup": (
            list(Tie.objects.filter(competition=w.cup).values_list("winner_id", "status")),
            list(
                TieFrame.objects.filter(tie__competition=w.cup).values("home_score", "away_score")
            ),
            Competition.objects.values_list("winner_id", "runner_up_id").get(pk=w.cup.pk),
        ),
        "honours": sorted(
            (h.source, h.position, tuple(p.pk for p in h.players.all()))
            for h in Honour.objects.prefetch_related("players")
        ),
    }


def _replayed_draw(w, capsys) -> list:
    """The draw as the match's API publishes it, replayed with `python -m frames.draw`:
    each frame's players by hat position (the labels may change, never the positions)."""
    data = Client().get(reverse("api-match-detail", args=[w.match.pk])).json()
    hats = {side: data[f"{side}_hat"] for side in ("home", "away")}
    args = ["--home", ",".join(hats["home"]), "--away", ",".join(hats["away"])]
    capsys.readouterr()
    assert cli.main([*args, "--seed", data["seed"], "--as-listed"]) == 0
    again = json.loads(capsys.readouterr().out)
    for row in data["frames"]:  # the replay gives the frames the match has
        drawn = next(f for f in again["frames"] if f["number"] == row["number"])
        assert [p["name"] for p in row["home_players"]] == drawn["home"]
        assert [p["name"] for p in row["away_players"]] == drawn["away"]
    return [
        (
            f["number"],
            [hats["home"].index(n) for n in f["home"]],
            [hats["away"].index(n) for n in f["away"]],
        )
        for f in again["frames"]
    ]


def test_an_erased_person_is_found_nowhere_and_nothing_else_changes(world, capsys):
    w = world
    # The person is there to be found before (so none of this can pass by finding nothing)
    # — stored, and in the admin's and the officers' views — but not on a public page.
    assert OLD in _database() and USERNAME in _database()
    before = _answers(w)
    assert [k for k in _found(before) if k.startswith("secretary")]
    assert _found(_exports(w))
    results = _results(w)
    draw = _replayed_draw(w, capsys)

    done = person_erase(player=w.victim, actor=w.league.secretary)

    found = _found(_answers(w)) + _found(_exports(w))
    assert not found, "\n".join(found)
    stored = _database()
    assert not [s for s in SECRETS if s.lower() in stored.lower()]
    assert f"Former player {done.number}" in stored
    assert _results(w) == results
    assert _replayed_draw(w, capsys) == draw
    for pk in [w.my_frame.pk, *w.cup_frames, w.my_friendly.frame.pk]:
        report = frame_rebuild(frame_id=pk)
        assert report.ok, report.problems
