"""The whole match night through the pages (Django test client), as the captains, the
secretary and everyone else see it."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from frames.draw import commitment, derive_seed
from frames.matchnight import signoff
from frames.models import Frame, Match, MatchLog, Presence
from leagues.models import Fixture
from tests.frames.matchnight_helpers import (
    drawn,
    fixture_of,
    frames_of,
    mark,
    open_match,
    roster,
    snapshot,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def league(league_of_the_module):
    """Built once for this module: its tests only read it, and their writes roll back."""
    return league_of_the_module


def login(client, user):
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client


def post(client, name, match, data=None, **kwargs):
    return client.post(reverse(name, args=[match.pk], **kwargs), data or {})


def test_the_whole_match_night_through_the_pages(league, client, django_user_model):
    home_client = login(client, league.captain)
    away_client = login(client.__class__(), league.other_captain)
    fixture = fixture_of(league)

    # The fixture page leads to match night; a captain opens it.
    page = home_client.get(fixture.get_absolute_url()).content.decode()
    open_url = reverse("match-open", args=[fixture.pk])
    assert open_url in page
    assert "Open match night" in home_client.get(open_url).content.decode()
    response = home_client.post(open_url)
    match = Match.objects.get(fixture=fixture)
    assert response["Location"] == match.get_absolute_url()
    assert home_client.get(open_url)["Location"] == match.get_absolute_url()

    # Each captain marks their own side present; only their own side's form shows.
    page = home_client.get(match.get_absolute_url()).content.decode()
    assert "Save Premier Team 1's squad" in page and "Save Premier Team 2's squad" not in page
    home_ids = [p.pk for p in roster(league, "home")[:6]]
    away_ids = [p.pk for p in roster(league, "away")]
    assert (
        post(
            home_client, "match-presence", match, {"side": "home", "players": home_ids}
        ).status_code
        == 302
    )
    assert (
        post(
            away_client,
            "match-presence",
            match,
            {"side": "away", "players": away_ids, "new_players": "Nina Newcomer"},
        ).status_code
        == 302
    )
    assert Presence.objects.filter(match=match).count() == 13

    # Ready: the home captain's phone commits (match.js); the away captain lets the
    # server make the secret (no JavaScript).
    home_secret = "0123456789abcdef0123456789abcdef"
    assert (
        post(
            home_client,
            "match-commit",
            match,
            {"side": "home", "commitment": commitment(home_secret)},
        ).status_code
        == 302
    )
    page = home_client.get(match.get_absolute_url()).content.decode()
    assert "Draw the frames" not in page
    assert post(away_client, "match-commit", match, {"side": "away"}).status_code == 302
    page = home_client.get(match.get_absolute_url()).content.decode()
    assert f'data-commitment="{commitment(home_secret)}"' in page  # the phone reveals now
    assert "Draw the frames" not in page
    assert (
        post(
            home_client, "match-reveal", match, {"side": "home", "secret": home_secret}
        ).status_code
        == 302
    )
    page = home_client.get(match.get_absolute_url()).content.decode()
    assert "Draw the frames" in page

    # The draw: both captains see the seed, the three secrets, the hats, the algorithm.
    assert post(away_client, "match-draw", match).status_code == 302
    match.refresh_from_db()
    assert match.seed == derive_seed(home_secret, match.away_secret, match.server_secret)
    page = away_client.get(match.get_absolute_url()).content.decode()
    for text in (
        str(match.seed),
        home_secret,
        match.away_secret,
        match.server_secret,
        match.algorithm,
        "Nina Newcomer",
        match.home_commitment,
    ):
        assert text in page
    for frame in frames_of(match):
        assert frame.referee.name in page

    # The phones died: the home captain keys the paper sheet in.
    scores = {f"home_{n}": 1000 for n in range(1, 10)} | {f"away_{n}": 500 for n in range(1, 10)}
    scores["home_4"], scores["away_4"] = 300, 300
    assert home_client.post(reverse("match-paper", args=[match.pk]), scores).status_code == 302
    page = home_client.get(match.get_absolute_url()).content.decode()
    assert "Frames <strong>8½–½</strong>" in page and "shared" in page

    # Both captains confirm; the result counts on the fixture.
    assert post(home_client, "match-confirm", match, {"side": "home"}).status_code == 302
    assert post(away_client, "match-confirm", match, {"side": "away"}).status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED
    fixture.refresh_from_db()
    assert (fixture.home_frames, fixture.away_frames, fixture.home_score) == (8.5, 0.5, 8300)
    page = home_client.get(fixture.get_absolute_url()).content.decode()
    assert "Result: 8½–0½ frames" in page  # leagues formats the fixture result
    actions = list(MatchLog.objects.filter(match=match).values_list("action", flat=True))
    for action in (
        "opened",
        "presence",
        "committed",
        "revealed",
        "drawn",
        "paper_keyed",
        "completed",
        "confirmed",
        "result_recorded",
    ):
        assert action in actions


def test_a_bad_squad_gets_a_clear_error_and_changes_nothing(league, client):
    match = open_match(league)
    login(client, league.captain)
    before = snapshot()
    stranger = roster(league, "away")[0]
    response = post(
        client,
        "match-presence",
        match,
        {
            "side": "home",
            "players": [p.pk for p in roster(league, "home")[:5]],
            "draft": [stranger.pk],
        },
    )
    assert response.status_code == 400
    assert f"{stranger.name} already plays for Premier Team 2" in response.content.decode()
    assert snapshot() == before


def test_a_non_captain_confirming_is_forbidden_and_changes_nothing(league, client):
    match = drawn(league)
    Frame.objects.filter(match=match).update(
        status="complete", home_score=500, away_score=0, winner="home", result_source="paper"
    )
    from frames import results

    results.match_update_result(match=match)
    before = snapshot()
    for user in (league.player_user, league.outsider, league.secretary):
        response = post(login(client, user), "match-confirm", match, {"side": "home"})
        assert response.status_code == 403
    response = post(login(client, league.other_captain), "match-confirm", match, {"side": "home"})
    assert response.status_code == 403
    assert "Premier Team 1's captain or vice-captain" in html.unescape(response.content.decode())
    assert snapshot() == before


def test_fewer_than_five_needs_both_captains_to_agree_on_the_page(league, client):
    match = mark(league, open_match(league), home=4, away=6)
    home = login(client, league.captain)
    away = login(client.__class__(), league.other_captain)
    for c, side in ((home, "home"), (away, "away")):
        post(c, "match-commit", match, {"side": side})
    page = home.get(match.get_absolute_url()).content.decode()
    assert "agrees to play short" in page
    response = post(home, "match-draw", match)
    assert response.status_code == 400
    assert "both captains record their agreement" in response.content.decode()
    post(home, "match-agree-short", match, {"side": "home"})
    post(away, "match-agree-short", match, {"side": "away"})
    assert post(home, "match-draw", match).status_code == 302
    page = home.get(match.get_absolute_url()).content.decode()
    assert page.count("conceded by Premier Team 1") == 3


def test_a_redraw_and_a_new_order_need_both_captains_on_the_page(league, client):
    match = drawn(league)
    home = login(client, league.captain)
    away = login(client.__class__(), league.other_captain)
    reorder = reverse("match-reorder", args=[match.pk])
    page = home.get(reorder).content.decode()
    assert page.count("<select") == 9
    data = {"side": "home"} | {
        f"place_{i}": n for i, n in enumerate([3, 1, 2, 4, 5, 6, 7, 8, 9], 1)
    }
    assert home.post(reorder, data).status_code == 302
    assert (
        "proposes playing the frames in this order"
        in away.get(match.get_absolute_url()).content.decode()
    )
    assert (
        post(away, "match-reorder-answer", match, {"side": "away", "answer": "accept"}).status_code
        == 302
    )
    assert [f.number for f in frames_of(match)] == [3, 1, 2, 4, 5, 6, 7, 8, 9]

    assert post(home, "match-redraw", match, {"side": "home"}).status_code == 302
    assert Frame.objects.filter(match=match).count() == 9
    assert post(away, "match-redraw", match, {"side": "away"}).status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.SETUP and not Frame.objects.filter(match=match).exists()


def test_changing_a_referee_on_the_page(league, client):
    match = drawn(league)
    frame = frames_of(match)[0]
    login(client, league.captain)
    url = reverse("match-referee", args=[match.pk, frame.number])
    playing = frame.players.get(side="home").player
    response = client.post(url, {"player": playing.pk})
    assert response.status_code == 400
    assert "cannot referee it (rule 6)" in response.content.decode()
    free = next(
        p
        for p in Presence.objects.filter(match=match, side="home")
        if not frame.players.filter(player=p.player).exists() and p.player_id != frame.referee_id
    )
    assert client.post(url, {"player": free.player_id}).status_code == 302
    frame.refresh_from_db()
    assert frame.referee_id == free.player_id


def test_dispute_and_settle_on_the_pages(league, client):
    match = drawn(league)

    signoff.match_key_in_paper(
        match=match, scores={n: (900, 100) for n in range(1, 10)}, actor=league.captain
    )
    away = login(client, league.other_captain)
    assert post(away, "match-dispute", match, {"side": "away", "reason": ""}).status_code == 400
    assert (
        post(
            away, "match-dispute", match, {"side": "away", "reason": "Frame 2 was ours"}
        ).status_code
        == 302
    )
    page = away.get(match.get_absolute_url()).content.decode()
    assert "Frame 2 was ours" in page
    assert away.get(reverse("match-settle", args=[match.pk])).status_code == 403
    secretary = login(client.__class__(), league.secretary)
    settle = reverse("match-settle", args=[match.pk])
    assert "Frame 2 was ours" in secretary.get(settle).content.decode()
    data = {"decision": "correct", "note": "Checked the sheet"}
    data |= {f"home_{n}": 900 for n in range(1, 10)} | {f"away_{n}": 100 for n in range(1, 10)}
    data["home_2"], data["away_2"] = 100, 900
    assert secretary.post(settle, data).status_code == 302
    fixture = Fixture.objects.get(pk=match.fixture_id)
    assert (fixture.home_frames, fixture.away_frames) == (8, 1)


def test_the_match_page_is_a_fixed_number_of_queries(league, client, django_assert_num_queries):
    match = drawn(league)
    url = match.get_absolute_url()
    client.get(url)
    # The match night's 7, the site notices, and (the fixture's deadline for a card passed)
    # whether a photo of the card is in.
    with django_assert_num_queries(9):
        assert client.get(url).status_code == 200

    signoff.match_key_in_paper(
        match=match, scores={n: (900, 100) for n in range(1, 10)}, actor=league.captain
    )
    with django_assert_num_queries(9):
        client.get(url)
    with django_assert_num_queries(7):
        client.get(reverse("match-scorecard", args=[match.pk]))


def test_the_live_part_polls_and_has_no_inline_script_or_style(league, client):
    match = drawn(league)
    page = client.get(match.get_absolute_url()).content.decode()
    assert f'hx-get="{reverse("match-scorecard", args=[match.pk])}"' in page
    assert "frames/match.js" in page
    assert not re.search(r"<script(?![^>]*\bsrc=)", page)
    assert "<style" not in page and " style=" not in page
    live = client.get(reverse("match-scorecard", args=[match.pk])).content.decode()
    assert "<html" not in live and 'class="scorecard"' in live


def test_anonymous_visitors_see_the_scorecard_but_no_buttons(league, client):
    match = drawn(league)
    page = client.get(match.get_absolute_url()).content.decode()
    assert 'class="scorecard"' in page
    assert '<form method="post" action="/matches/' not in page
    assert match.server_secret in page  # the draw is public once made


def test_a_captains_squad_page_does_not_grow_with_the_roster(league, client):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from leagues.teams import services as team_services
    from tests.factories import PlayerFactory

    match = mark(league, open_match(league), home=6, away=6)
    login(client, league.captain)
    url = match.get_absolute_url()
    client.get(url)
    with CaptureQueriesContext(connection) as small:
        assert client.get(url).status_code == 200
    for _ in range(8):
        team_services.roster_add_player(team=league.teams[0], player=PlayerFactory())
        PlayerFactory()  # draftable
    with CaptureQueriesContext(connection) as large:
        assert client.get(url).status_code == 200
    # the page, its notices, the maybes of availability and the play-up candidates
    assert len(large) == len(small) <= 19


def test_a_drafted_player_stays_ticked_when_the_squad_is_saved_again(league, client):
    from tests.factories import PlayerFactory

    match = open_match(league)
    guest = PlayerFactory(name="Gina Guest")
    login(client, league.captain)
    players = [p.pk for p in roster(league, "home")[:5]]
    data = {"side": "home", "players": players, "draft": [guest.pk]}
    assert post(client, "match-presence", match, data).status_code == 302
    page = client.get(match.get_absolute_url()).content.decode()
    assert f'name="draft" value="{guest.pk}" checked' in page
    # the page posts back what it shows: the same squad again, nothing changes
    assert post(client, "match-presence", match, data).status_code == 302
    assert Presence.objects.get(match=match, player=guest).drafted
    assert MatchLog.objects.filter(match=match, action="presence").count() == 1


def test_a_lost_phone_once_both_are_ready_starts_ready_again_on_the_page(league, client):
    from frames.matchnight import seeding

    match = mark(league, open_match(league))
    seeding.match_commit(
        match=match, side="home", commitment=commitment("on-a-lost-phone"), actor=league.captain
    )
    seeding.match_commit(match=match, side="away", actor=league.other_captain)
    home = login(client, league.captain)
    page = home.get(match.get_absolute_url()).content.decode()
    assert "Start Ready again for both sides" in page
    # Ready again alone is refused: the commitment is final.
    response = post(home, "match-commit", match, {"side": "home", "commitment": ""})
    assert response.status_code == 409
    assert "final once the other side has committed" in html.unescape(response.content.decode())
    response = post(home, "match-restart-ready", match, {"side": "home"})
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.home_commitment == match.away_commitment == ""
    page = home.get(match.get_absolute_url()).content.decode()
    assert "Ready: Premier Team 1's squad is right" in page
