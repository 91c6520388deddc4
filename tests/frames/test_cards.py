"""Result cards (frames.cards, docs/result-cards.md): a match's, a frame's and a cup tie's
result as a 1200 × 630 PNG with the score; public names only; a new card after a
correction; 404 for what has no card; the pages' Open Graph tags; the query counts."""

from __future__ import annotations

import doctest
import io
import sys
from datetime import date
from html.parser import HTMLParser

import pytest
from django.core.cache import cache
from django.urls import reverse
from PIL import Image

from competitions.models import Tie
from competitions.services.entries import entry_create
from competitions.services.setup import competition_create
from competitions.services.ties import tie_record_paper, tie_walkover
from competitions.views.cards import tie_card
from frames import cards, svg
from frames.models import Frame, Friendly, Match, PlayerFrameStat
from leagues.models import Player
from people.erasure import person_erase

from ..competitions.helpers import NOW, drawn, registered_players
from .ratings_support import add_frame, confirmed_match, fixtures_of, roster

pytestmark = pytest.mark.django_db
SITE = "https://league.example.org"


@pytest.fixture(autouse=True)
def _fresh_cache(settings):
    settings.SITE_URL = SITE
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def played(league):
    """A confirmed match of the premier division, 2–1 to the home side."""
    fixture = fixtures_of(league)[0]
    home, away = roster(fixture.home), roster(fixture.away)
    match = confirmed_match(
        fixture,
        date(2026, 9, 8),
        [
            ([home[0]], [away[0]], 620, 380),
            ([home[1]], [away[1]], 200, 450),
            ([home[2], home[3]], [away[2], away[3]], 900, 310),
        ],
    )
    return match


class Meta(HTMLParser):
    """The page's <meta> tags, by property or name."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.tags: dict[str, str] = {}
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "meta" and ("property" in a or "name" in a):
            self.tags[a.get("property") or a["name"]] = a.get("content", "")


def png_of(response) -> Image.Image:
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"] == "image/png"
    image = Image.open(io.BytesIO(response.content))
    image.load()
    return image


def test_the_shared_pieces_and_the_cards_words_keep_their_doctests():
    for module in (svg, cards):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0, module.__name__


# --------------------------------------------------------------------- the PNG


def test_a_confirmed_match_has_a_png_card_of_the_open_graph_size(client, played):
    response = client.get(reverse("match-card", args=[played.pk]))
    image = png_of(response)
    assert image.format == "PNG" and image.size == (1200, 630)
    assert response["Cache-Control"] == "public, max-age=3600"
    assert response["ETag"].startswith('"') and len(response["ETag"]) == 34
    source = cards.card_svg(cards.match_card(played.pk))
    fixture = played.fixture
    assert fixture.home.name in source and fixture.away.name in source
    assert ">2<" in source and ">1<" in source  # the frames won, big
    assert "aggregate 1,720–1,140" in source
    assert "PROVISIONAL" not in source


def test_a_card_304s_for_the_etag_it_gave_and_serves_a_kept_png(client, played):
    url = reverse("match-card", args=[played.pk])
    first = client.get(url)
    again = client.get(url, headers={"if-none-match": first["ETag"]})
    assert again.status_code == 304 and again["ETag"] == first["ETag"]
    assert client.get(url).content == first.content


def test_a_corrected_result_draws_a_new_card(client, played):
    url = reverse("match-card", args=[played.pk])
    before = client.get(url)
    frame = played.frames.get(number=2)
    Frame.objects.filter(pk=frame.pk).update(home_score=500, away_score=450, winner="home")
    Match.objects.filter(pk=played.pk).update(home_frames=3, away_frames=0, home_score=2020)
    after = client.get(url, headers={"if-none-match": before["ETag"]})
    assert after.status_code == 200 and after["ETag"] != before["ETag"]
    assert png_of(after).size == (1200, 630) and after.content != before.content
    assert ">3<" in cards.card_svg(cards.match_card(played.pk))


def test_a_match_not_yet_confirmed_is_marked_provisional_and_kept_a_minute(client, played):
    Match.objects.filter(pk=played.pk).update(status=Match.Status.COMPLETE, confirmed_at=None)
    response = client.get(reverse("match-card", args=[played.pk]))
    png_of(response)
    assert response["Cache-Control"] == "public, max-age=60"
    source = cards.card_svg(cards.match_card(played.pk))
    assert "PROVISIONAL · Awaiting confirmation" in source
    Match.objects.filter(pk=played.pk).update(status=Match.Status.DISPUTED)
    assert "PROVISIONAL · Disputed" in cards.card_svg(cards.match_card(played.pk))


def test_no_card_for_an_unknown_match_one_without_a_result_or_a_friendly_frame(client, league):
    assert client.get(reverse("match-card", args=[999999])).status_code == 404
    assert client.get(reverse("frame-card", args=[999999])).status_code == 404
    fixture = fixtures_of(league)[1]
    match = Match.objects.create(fixture=fixture, game_id="bar_billiards_4pin")
    assert client.get(reverse("match-card", args=[match.pk])).status_code == 404
    home, away = roster(fixture.home), roster(fixture.away)
    waiting = add_frame(match, 1, [home[0]], [away[0]], 0, 0)
    Frame.objects.filter(pk=waiting.pk).update(status=Frame.Status.IN_PLAY)
    assert client.get(reverse("frame-card", args=[waiting.pk])).status_code == 404
    friendly = Friendly.objects.create(owner=league.player_user, title="Ann v Bob", created_at=NOW)
    private = Frame.objects.create(
        friendly=friendly,
        number=1,
        order=1,
        kind="singles",
        game_id="bar_billiards_4pin",
        status=Frame.Status.COMPLETE,
        home_score=300,
        away_score=200,
        winner="home",
    )
    assert client.get(reverse("frame-card", args=[private.pk])).status_code == 404
    worm = client.get(reverse("frame-worm", args=[private.pk])).content.decode()
    assert "og:image" not in worm and "data-share" not in worm


def test_a_frame_card_names_players_by_their_public_names_and_shows_the_breaks(
    client, league, played
):
    frame = played.frames.get(number=1)
    home_player = frame.players.get(side="home").player
    away_player = frame.players.get(side="away").player
    Player.objects.filter(pk=home_player.pk).update(name="Zoe Quinlan", private_name=True)
    Frame.objects.filter(pk=frame.pk).update(result_source="pad")
    for side, player, team, best in (
        ("home", home_player, played.fixture.home, 240),
        ("away", away_player, played.fixture.away, 110),
    ):
        PlayerFrameStat.objects.create(
            season=league.season,
            division=league.premier,
            fixture=played.fixture,
            frame_number=1,
            player=player,
            team=team,
            side=side,
            values={"high_break": best},
        )
    erased = person_erase(player=away_player, actor=league.secretary, now=NOW)
    away_name = f"Former player {erased.number}"
    response = client.get(reverse("frame-card", args=[frame.pk]))
    assert png_of(response).size == (1200, 630)
    source = cards.card_svg(cards.frame_card(frame.pk))
    assert "Zoe" not in source and "Quinlan" not in source
    assert "Z. Q." in source and away_name in source
    assert "High break 240–110" in source and ">620<" in source and ">380<" in source
    page = client.get(reverse("frame-worm", args=[frame.pk])).content.decode()
    tags = Meta(page).tags
    assert "Quinlan" not in page
    assert tags["og:title"] == f"Z. Q. 620–380 {away_name}"
    assert f'<p class="frame-result">Z. Q. beat {away_name} 620–380, frame 1 of ' in page
    assert tags["og:image"].startswith(f"{SITE}/frames/{frame.pk}/card.png?v=")


def test_without_cairo_a_card_answers_503_saying_why_and_the_pages_still_work(
    client, played, monkeypatch
):
    monkeypatch.setitem(sys.modules, "cairosvg", None)  # import cairosvg: ImportError
    response = client.get(reverse("match-card", args=[played.pk]))
    assert response.status_code == 503
    assert "cairo" in response.content.decode() and response["Content-Type"].startswith("text")
    assert client.get(reverse("match-detail", args=[played.pk])).status_code == 200


def test_the_card_views_make_few_queries(client, played, django_assert_num_queries):
    frame = played.frames.get(number=1)
    with django_assert_num_queries(2):  # the match and its teams; its frames
        client.get(reverse("match-card", args=[played.pk]))
    Frame.objects.filter(pk=frame.pk).update(result_source="pad")
    with django_assert_num_queries(3):  # the frame and its match; players; break lines
        client.get(reverse("frame-card", args=[frame.pk]))


# --------------------------------------------------------------------- the pages' tags


def test_the_match_page_unfurls_as_a_card(client, played):
    page = client.get(reverse("match-detail", args=[played.pk])).content.decode()
    tags = Meta(page).tags
    home, away = played.fixture.home.name, played.fixture.away.name
    assert tags["og:title"] == f"{home} 2–1 {away}"
    assert tags["og:description"] == f"{home} beat {away} 2–1 (aggregate 1,720–1,140)."
    assert tags["og:type"] == "website"
    assert tags["og:url"] == f"{SITE}/matches/{played.pk}/"
    assert tags["og:image"].startswith(f"{SITE}/matches/{played.pk}/card.png?v=")
    assert (tags["og:image:width"], tags["og:image:height"]) == ("1200", "630")
    assert tags["twitter:card"] == "summary_large_image"
    assert 'data-share-url="https://league.example.org/matches/' in page
    assert 'src="/static/frames/share.js"' in page


def test_a_corrected_result_names_a_new_image_on_the_page(client, played):
    url = reverse("match-detail", args=[played.pk])
    before = Meta(client.get(url).content.decode()).tags["og:image"]
    Match.objects.filter(pk=played.pk).update(home_frames=3, away_frames=0)
    after = Meta(client.get(url).content.decode()).tags["og:image"]
    assert before != after and after.split("?")[0] == before.split("?")[0]


def test_a_match_without_a_result_has_tags_but_no_image(client, league):
    fixture = fixtures_of(league)[1]
    match = Match.objects.create(fixture=fixture, game_id="bar_billiards_4pin")
    tags = Meta(client.get(reverse("match-detail", args=[match.pk])).content.decode()).tags
    assert tags["og:title"] == f"{fixture.home.name} v {fixture.away.name}"
    assert "og:image" not in tags and tags["twitter:card"] == "summary"


# --------------------------------------------------------------------- cup ties


def _singles(league, n=2, name="Card Singles"):
    comp = competition_create(
        actor=league.secretary, season=league.season, name=name, kind="singles", now=NOW
    )
    for player in registered_players(league, n):
        entry_create(actor=league.secretary, competition=comp, player=player, now=NOW)
    return drawn(comp, league.secretary)


def test_a_decided_tie_has_a_card_and_its_page_unfurls(client, league, django_assert_num_queries):
    comp = _singles(league)
    tie = Tie.objects.get(competition=comp, status="scheduled")
    assert client.get(reverse("tie-card", args=[tie.pk])).status_code == 404  # not played
    page = client.get(reverse("tie-detail", args=[tie.pk])).content.decode()
    assert "og:image" not in Meta(page).tags
    tie_record_paper(
        actor=league.secretary,
        tie=tie,
        frames=[{"home": 300, "away": 200}, {"home": 120, "away": 250}, {"home": 310, "away": 0}],
        now=NOW,
    )
    url = reverse("tie-card", args=[tie.pk])
    with django_assert_num_queries(2):  # the tie and its joins; its frames
        response = client.get(url)
    assert png_of(response).size == (1200, 630)
    tie.refresh_from_db()
    home, away = tie.home.name, tie.away.name
    tags = Meta(client.get(reverse("tie-detail", args=[tie.pk])).content.decode()).tags
    assert tags["og:title"] == f"{home} 2–1 {away}"
    assert tags["og:description"].startswith(f"{home} beat {away} 2–1, Card Singles")
    assert tags["og:image"].startswith(f"{SITE}/ties/{tie.pk}/card.png?v=")
    assert tags["twitter:card"] == "summary_large_image"
    source = cards.card_svg(tie_card(tie))
    assert "Card Singles" in source and f"Winner: {home}" in source


def test_a_tie_given_by_walkover_says_so_and_a_bye_has_no_card(client, league):
    comp = _singles(league, n=3, name="Odd Singles")
    bye = Tie.objects.filter(competition=comp, bye=True).first()
    assert bye is not None
    assert client.get(reverse("tie-card", args=[bye.pk])).status_code == 404
    tie = Tie.objects.get(competition=comp, status="scheduled")
    tie_walkover(actor=league.secretary, tie=tie, winner="away", reason="No show", now=NOW)
    response = client.get(reverse("tie-card", args=[tie.pk]))
    assert png_of(response).size == (1200, 630)
    tie.refresh_from_db()
    source = cards.card_svg(tie_card(tie))
    assert ">Walkover<" in source and "Walkover: No show" in source


def test_a_team_ties_card_reads_its_cup_fixtures_result(client, league):
    cup = competition_create(
        actor=league.secretary, season=league.season, name="Card Cup", kind="team_knockout", now=NOW
    )
    for team in league.teams[:2]:
        entry_create(actor=league.secretary, competition=cup, team=team, now=NOW)
    drawn(cup, league.secretary)
    tie = Tie.objects.select_related("fixture", "home__team", "away__team").get(competition=cup)
    assert tie.fixture is not None
    assert client.get(reverse("tie-card", args=[tie.pk])).status_code == 404  # not played
    type(tie.fixture).objects.filter(pk=tie.fixture_id).update(
        home_frames=4, away_frames=5, home_score=2100, away_score=2350
    )
    Tie.objects.filter(pk=tie.pk).update(status=Tie.Status.PLAYED, winner=tie.away_id)
    response = client.get(reverse("tie-card", args=[tie.pk]))
    assert png_of(response).size == (1200, 630)
    tie = Tie.objects.get(pk=tie.pk)
    source = cards.card_svg(tie_card(tie))
    assert tie.home.team.name in source and tie.away.team.name in source
    assert ">4<" in source and ">5<" in source and "aggregate 2,100–2,350" in source
    tags = Meta(client.get(reverse("tie-detail", args=[tie.pk])).content.decode()).tags
    assert tags["og:description"].startswith(f"{tie.away.team.name} beat {tie.home.team.name} 5–4")
