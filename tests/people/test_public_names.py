"""Public names where a name is stored as text: a match's hats, the draw's notes and log
(initials chosen before or after the draw; the published hats still replay the draw), the
awards, the confirming captain; and ties ordered by something no name changes."""

from __future__ import annotations

import json
from datetime import date

import pytest
from django.test import Client
from django.urls import reverse

from frames.draw import cli
from frames.friendly.services import friendly_start
from frames.matchnight import signoff
from frames.models import Award, Frame
from frames.stats import awards, record
from frames.stats import selectors as stats_selectors
from leagues import honours
from leagues.models import Fixture, Honour, Player
from leagues.teams import services as team_services
from people.erasure import person_erase
from tests.frames.matchnight_helpers import NIGHT, drawn, key_all, later, roster
from tests.frames.ratings_support import confirmed_match
from tests.links import league_reverse

pytestmark = pytest.mark.django_db

OLD = "Zebedee Quux"


def name_home_player(league) -> Player:
    """The first home player (in every draw of the helpers) becomes Zebedee Quux."""
    player = roster(league, "home")[0]
    Player.objects.filter(pk=player.pk).update(name=OLD)
    player.refresh_from_db()
    return player


def hide(player: Player) -> None:
    team_services.player_set_private_name(player=player, private=True)


def replay(hats: dict, seed: str, capsys) -> dict:
    """`python -m frames.draw --as-listed` on the hats as published."""
    args = ["--home", ",".join(hats["home"]), "--away", ",".join(hats["away"])]
    assert cli.main([*args, "--seed", seed, "--as-listed"]) == 0
    return json.loads(capsys.readouterr().out)


def check_public_match(match, capsys) -> None:
    """The API and the page name Zebedee by initials only, and the published hats replay
    to the frames the match has."""
    stored = json.dumps([match.home_hat, match.draw_notes])
    assert OLD in stored  # the draw's own labels are the names: the test can fail
    answer = Client().get(reverse("api-match-detail", args=[match.pk]))
    assert answer.status_code == 200
    body = answer.content.decode()
    assert OLD not in body
    data = answer.json()
    assert "Z. Q." in data["home_hat"]
    assert [h.index("Z. Q.") for h in [data["home_hat"]]] == [match.home_hat.index(OLD)]
    page = Client().get(reverse("match-detail", args=[match.pk])).content.decode()
    assert OLD not in page and "--as-listed" in page
    again = replay({"home": data["home_hat"], "away": data["away_hat"]}, data["seed"], capsys)
    assert again["notes"] == data["draw_notes"]
    by_number = {f["number"]: f for f in again["frames"]}
    for row in data["frames"]:
        drawn_frame = by_number[row["number"]]
        assert [p["name"] for p in row["home_players"]] == drawn_frame["home"], row["number"]
        assert [p["name"] for p in row["away_players"]] == drawn_frame["away"], row["number"]


def test_initials_chosen_before_the_draw_hide_the_name_and_the_hats_replay(league, capsys):
    hide(name_home_player(league))
    # Five a side: rule 8's notes name the players drawn again.
    match = drawn(league, home=5, away=5)
    check_public_match(match, capsys)


def test_initials_chosen_after_the_draw_hide_the_name_and_the_hats_replay(league, capsys):
    victim = name_home_player(league)
    match = drawn(league, home=5, away=5)
    assert OLD in Client().get(reverse("api-match-detail", args=[match.pk])).content.decode()
    hide(victim)
    check_public_match(match, capsys)


def test_two_players_with_the_same_initials_stay_apart_in_the_public_hat(league, capsys):
    first, second = roster(league, "home")[:2]
    Player.objects.filter(pk=first.pk).update(name="Ann Bee", private_name=True)
    Player.objects.filter(pk=second.pk).update(name="Abe Bell", private_name=True)
    match = drawn(league, home=6, away=6)
    data = Client().get(reverse("api-match-detail", args=[match.pk])).json()
    shown = [n for n in data["home_hat"] if n.startswith("A. B.")]
    assert sorted(shown) == sorted([f"A. B. #{first.pk}", f"A. B. #{second.pk}"])
    again = replay({"home": data["home_hat"], "away": data["away_hat"]}, data["seed"], capsys)
    labels = {f["number"]: f["home"] for f in again["frames"]}
    for row in data["frames"]:
        # A label "A. B. #99" is player 99, named "A. B." in the scorecard.
        shown = [p["name"] for p in row["home_players"]]
        ids = {p["id"] for p in row["home_players"]}
        assert shown == [label.split(" #")[0] for label in labels[row["number"]]]
        assert {
            int(label.split(" #")[1]) for label in labels[row["number"]] if " #" in label
        } <= ids


def test_the_replay_as_listed_is_the_replay_of_the_sorted_names(capsys):
    home, away = "Ann,Bob,Cat,Dan,Eve", "Gus,Hal,Ivy,Jo,Kim,Lu"
    assert cli.main(["--home", home, "--away", away, "--seed", "42"]) == 0
    sorted_draw = capsys.readouterr().out
    # The same hat order under other spellings gives the same draw under those spellings.
    renamed = "Zed,Bob,Cat,Dan,Eve"
    assert cli.main(["--home", renamed, "--away", away, "--seed", "42", "--as-listed"]) == 0
    assert capsys.readouterr().out.replace("Zed", "Ann") == sorted_draw


# ----------------------------------------------------------------- the captain


def test_the_match_page_names_the_confirming_captain_by_public_name(league):
    Player.objects.create(name="Cora Captain", user=league.captain, private_name=True)
    Player.objects.create(name="Otto Other", user=league.other_captain)
    match = drawn(league)
    key_all(league, match)
    for side, who in (("home", league.captain), ("away", league.other_captain)):
        signoff.match_confirm(match=match, side=side, actor=who, now=later(150))
    page = Client().get(reverse("match-detail", args=[match.pk])).content.decode()
    api = Client().get(reverse("api-match-detail", args=[match.pk])).json()
    for username in (league.captain.get_username(), league.other_captain.get_username()):
        assert username not in page
        assert username not in json.dumps(api)
    assert "confirmed by C. C." in page and "confirmed by Otto Other" in page
    assert "Cora Captain" not in page
    assert api["confirmations"]["home"]["by"] == "C. C."
    assert api["confirmations"]["away"]["by"] == "Otto Other"


# ------------------------------------------------------------ awards and ties


@pytest.fixture
def tied(league):
    """Amy and Bob (Amy registered first) each won their one frame: level on every
    figure; Cat and Dan lost theirs."""
    home, away = league.teams[0], league.teams[1]
    amy, bob = roster(league, "home")[:2]
    cat, dan = roster(league, "away")[:2]
    assert amy.pk < bob.pk
    Player.objects.filter(pk=amy.pk).update(name="Amy Aardvark")
    Player.objects.filter(pk=bob.pk).update(name="Bob Bee")
    fixture = Fixture.objects.get(home=home, away=away)
    confirmed_match(fixture, date(2026, 9, 8), [([amy], [cat], 900, 400), ([bob], [dan], 800, 300)])
    for frame in Frame.objects.filter(match__fixture=fixture):
        record.frame_stats_record(frame_id=frame.pk)
    league.amy, league.bob, league.cat = amy, bob, cat
    return league


def awards_answers(w) -> tuple[str, dict]:
    page = Client().get(league_reverse("season-awards", args=[w.season.pk]))
    api = Client().get(reverse("api-season-awards", args=[w.season.pk]))
    assert page.status_code == api.status_code == 200
    return page.content.decode(), api.json()


def test_the_awards_name_players_who_asked_by_initials_eligible_or_not(tied):
    awards.award_define(
        season=tied.season, actor=tied.secretary, name="Win rate", measure=Award.Measure.WIN_RATE
    )
    awards.award_define(
        season=tied.season,
        actor=tied.secretary,
        name="Regulars' win rate",
        measure=Award.Measure.WIN_RATE,
        min_frames=5,
    )
    page, api = awards_answers(tied)
    assert "Amy Aardvark" in page and "Amy Aardvark" in json.dumps(api)  # can fail
    hide(tied.amy)
    page, api = awards_answers(tied)
    assert "Amy Aardvark" not in page and "Amy Aardvark" not in json.dumps(api)
    regulars = next(a for a in api if a["name"] == "Regulars' win rate")
    assert not regulars["leaders"]
    assert "A. A." in [s["player"] for s in regulars["not_eligible"]]
    assert "A. A." in page


def test_an_erasure_does_not_reorder_equal_rows(tied):
    awards.award_define(
        season=tied.season, actor=tied.secretary, name="Win rate", measure=Award.Measure.WIN_RATE
    )
    award = Award.objects.get(season=tied.season)

    def orders():
        board = stats_selectors.leaderboard(season=tied.season)
        standing = awards.award_standings(award)
        return (
            [r["player_id"] for r in board],
            [s.player_id for s in standing.leaders],
            [(s.player_id, s.position) for s in standing.leaders],
        )

    before = orders()
    assert before[0][:2] == [tied.amy.pk, tied.bob.pk]
    person_erase(player=tied.amy, actor=tied.secretary, now=NIGHT)
    # "Former player N" sorts after "Bob Bee": ordered by name, the two would swap.
    assert orders() == before


# ------------------------------------------------------------------ the roll of honour


def honour_answers(league, player) -> str:
    client = Client()
    api = client.get(reverse("api-league-honours", args=[league.season.league_id]))
    page = client.get(reverse("player-detail", args=[player.pk]))
    roll = client.get(reverse("league-honours", kwargs={"league": league.season.league.slug}))
    assert api.status_code == page.status_code == roll.status_code == 200
    return api.content.decode() + page.content.decode() + roll.content.decode()


@pytest.mark.parametrize("when", ["before", "after"])
def test_the_roll_of_honour_names_a_winner_who_asked_by_initials(league, when):
    victim = name_home_player(league)
    partner = roster(league, "home")[1]
    if when == "before":
        hide(victim)
    honours.honour_record(
        season=league.season,
        title="Pairs",
        kind=Honour.Kind.COMPETITION,
        source="competition:pairs",
        winner=[victim, partner],
    )
    if when == "after":
        assert OLD in honour_answers(league, victim)  # the test can fail
        hide(victim)
    seen = honour_answers(league, victim)
    assert OLD not in seen and "Z. Q." in seen
    assert Honour.objects.get().name == f"Z. Q. & {partner.name}"
    done = person_erase(player=victim, actor=league.secretary, now=NIGHT)
    assert Honour.objects.get().name == f"Former player {done.number} & {partner.name}"


def test_a_friendly_game_names_who_started_it_by_public_name_not_login(league):
    owner = league.player_user  # Rita Referee's account
    owner.player.private_name = True
    owner.player.save(update_fields=["private_name"])
    game = friendly_start(owner=owner, game_id="bar_billiards_4pin", players=["Ann", "Bob"])
    page = Client().get(reverse("friendly-detail", args=[game.pk])).content.decode()
    assert owner.get_username() not in page
    assert "Started by R. R." in page and "Rita Referee" not in page
