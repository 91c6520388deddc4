"""Every main page on a phone (390 × 844), as the people who use it: nothing wider than the
screen, every tap target at least 44 × 44 px, and no serious or critical axe-core
violation at WCAG 2.2 AA (issue 11, items 13, 14 and 16). The `phone` fixture of
tests/e2e/conftest.py runs axe again on every page visited when the test ends.

`MARKER_SHOTS=/some/dir` saves a screenshot of each page there, to look at."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from datetime import time, timedelta
from decimal import Decimal
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from frames.friendly import services as friendly
from frames.matchnight import drawing, seeding, signoff, squads
from frames.models import Frame, Match
from frames.results import match_update_result
from leagues.availability.links import answer_path, answer_token
from leagues.directory import services as directory
from leagues.models import Fixture
from leagues.tables import services as table_services
from tests.conftest import make_league
from tests.factories import make_site_admin
from tests.links import league_reverse

from .conftest import assert_accessible

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = os.environ.get("MARKER_SHOTS", "")

#: What a thumb aims at. Links inside a sentence are exempt (WCAG 2.5.8's inline
#: exception): their target is the line of text they sit in.
TAP_TARGETS = "a[href], button, summary, select, textarea, input:not([type=hidden])"
MEASURE = """(selector) => {
  const small = [];
  for (const el of document.querySelectorAll(selector)) {
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || el.closest('[hidden]') || !el.getClientRects().length) continue;
    // A checkbox or radio is tapped through its label.
    const target = (el.matches('input[type=checkbox], input[type=radio]') && el.closest('label')) || el;
    const box = target.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    const block = target.parentElement;
    const inline = target.tagName === 'A' && getComputedStyle(target).display === 'inline'
      && block && block.textContent.trim().length > target.textContent.trim().length + 15;
    if (inline) continue;
    if (box.width < 44 - 0.5 || box.height < 44 - 0.5) {
      small.push(`${target.tagName.toLowerCase()} "${(target.textContent || target.value || target.name || '').trim().slice(0, 40)}" ${Math.round(box.width)}x${Math.round(box.height)}`);
    }
  }
  return small;
}"""


WIDEST = """() => Array.from(document.querySelectorAll('body *'))
  .filter(el => el.getBoundingClientRect().right > 391 && !el.closest('.table-scroll, [hidden]'))
  .slice(-3).map(el => `${el.tagName.toLowerCase()}.${el.className} ${Math.round(el.getBoundingClientRect().right)}`)"""


@dataclass
class Night:
    league: object
    setup: Match
    drawn: Match
    in_play: Match
    complete: Match
    disputed: Match
    confirmed: Match


def captain_of(team):
    return team.captain


def squad(team, count=6):
    regs = team.registrations.filter(status="active").select_related("player").order_by("id")
    return [r.player for r in regs[:count]]


def opened(fixture) -> Match:
    match = squads.match_open(fixture=fixture, actor=fixture.home.captain)
    for side, team in (("home", fixture.home), ("away", fixture.away)):
        squads.match_mark_present(
            match=match, side=side, players=squad(team), actor=captain_of(team)
        )
    return match


def drawn(fixture) -> Match:
    match = opened(fixture)
    for side, team in (("home", fixture.home), ("away", fixture.away)):
        seeding.match_commit(match=match, side=side, actor=captain_of(team))
    return drawing.match_draw(match=match, actor=fixture.home.captain)


def completed(fixture) -> Match:
    match = drawn(fixture)
    scores = {
        f.number: (1000, 500) for f in Frame.objects.filter(match=match) if f.status != "conceded"
    }
    return signoff.match_key_in_paper(match=match, scores=scores, actor=fixture.home.captain)


def a_night() -> Night:
    league = make_league()
    fixtures = list(
        Fixture.objects.filter(division=league.premier)
        .select_related("home__captain", "away__captain")
        .order_by("id")
    )
    # The league's captain and Rita (teams[0]) are at home in the first match being played.
    first = next(f for f in fixtures if f.home == league.teams[0] and f.away == league.teams[1])
    rest = [f for f in fixtures if f.pk != first.pk and league.teams[0] not in (f.home, f.away)]
    in_play = drawn(first)
    frame = Frame.objects.filter(match=in_play).order_by("order").first()
    Frame.objects.filter(pk=frame.pk).update(status=Frame.Status.IN_PLAY)
    in_play = match_update_result(match=in_play)
    # Rita referees a frame tonight.
    rita = league.player_user.player
    later = (
        Frame.objects.filter(match=in_play, status="scheduled")
        .exclude(players__player=rita)
        .order_by("order")
        .first()
    )
    Frame.objects.filter(pk=later.pk).update(referee=rita, referee_side="home")
    disputed = completed(rest[0])
    signoff.match_dispute(
        match=disputed,
        side="away",
        reason="Frame 3 was 1,200 to 500",
        actor=rest[0].away.captain,
    )
    confirmed = completed(rest[1])
    for side, team in (("home", rest[1].home), ("away", rest[1].away)):
        signoff.match_confirm(match=confirmed, side=side, actor=team.captain)
    table_services.point_deduction_add(
        team=league.teams[3], points="1.5", reason="Late result sheet", by=league.secretary
    )
    return Night(
        league=league,
        setup=opened(rest[2]),
        drawn=drawn(rest[3]),
        in_play=in_play,
        complete=completed(rest[4]),
        disputed=disputed,
        confirmed=confirmed,
    )


def visit(page, path: str, name: str, problems: list[str]):
    """Open a page and note what is wrong with it on a phone (all pages are looked at
    before the test fails, so one run shows everything)."""
    response = page.goto(path)
    assert response is not None and response.status == 200, (path, response and response.status)
    return look(page, path, name, problems)


def look(page, path: str, name: str, problems: list[str]):
    """Note what is wrong with the page as it is now (after a form was posted, say)."""
    page.wait_for_load_state("networkidle")  # htmx panels loaded in place
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True)
    width = page.evaluate("() => document.documentElement.scrollWidth")
    if width > 390:
        wide = page.evaluate(WIDEST)
        problems.append(f"{name} ({path}) is {width}px wide on a 390px phone: {wide}")
    small = page.evaluate(MEASURE, TAP_TARGETS)
    if small:
        problems.append(f"{name} ({path}) has tap targets under 44 x 44 px: {small}")
    try:
        assert_accessible(page, name)
    except AssertionError as exc:
        problems.append(str(exc))
    return page


def test_every_main_page_fits_a_phone_is_tappable_and_passes_axe(phone):
    problems: list[str] = []
    night = a_night()
    league = night.league
    fixture = night.setup.fixture
    game = friendly.friendly_start(
        owner=league.player_user, game_id="bar_billiards_4pin", players=["Ann", "Bob"]
    )

    anyone = phone().new_page()
    visit(anyone, "/", "home", problems)
    visit(anyone, league.season.league.get_absolute_url(), "league-home", problems)
    visit(anyone, league_reverse("season-detail", args=[league.season.pk]), "season", problems)
    visit(anyone, league_reverse("division-detail", args=[league.premier.pk]), "division", problems)
    visit(anyone, league_reverse("team-detail", args=[league.teams[0].pk]), "team", problems)
    visit(anyone, league_reverse("fixture-detail", args=[fixture.pk]), "fixture", problems)
    visit(
        anyone,
        league_reverse("season-leaderboard", args=[league.season.pk]),
        "leaderboard",
        problems,
    )
    visit(
        anyone,
        league_reverse("division-leaderboard", args=[league.premier.pk]),
        "leaderboard-div",
        problems,
    )
    player = league.teams[0].registrations.first().player
    visit(anyone, reverse("player-detail", args=[player.pk]), "player", problems)
    visit(anyone, reverse("tonight"), "tonight", problems)
    visit(anyone, reverse("match-live", args=[night.in_play.pk]), "live", problems)
    for stage in ("drawn", "in_play", "complete", "disputed", "confirmed"):
        visit(anyone, getattr(night, stage).get_absolute_url(), f"match-{stage}-anyone", problems)
    visit(anyone, reverse("login"), "login", problems)
    visit(anyone, reverse("password_reset"), "password-reset", problems)

    captain = phone(league.captain).new_page()
    visit(captain, league_reverse("team-roster", args=[league.teams[0].pk]), "roster", problems)
    captain.get_by_label("Player's name").fill(player.name[:4])
    expect(captain.locator("#add-suggestions li").first).to_be_visible()
    visit(captain, night.in_play.get_absolute_url(), "match-in_play-captain", problems)
    visit(
        captain,
        reverse("match-reorder", args=[night.in_play.pk]),
        "match-reorder-captain",
        problems,
    )

    # Availability (docs/availability.md): a fixture of theirs a week ahead.
    ahead = Fixture.objects.filter(home=league.teams[0], match__isnull=True).order_by("id").first()
    Fixture.objects.filter(pk=ahead.pk).update(date=timezone.localdate() + timedelta(days=7))
    sheet = league_reverse("fixture-availability", args=[ahead.pk, league.teams[0].pk])
    visit(captain, sheet, "availability-sheet", problems)
    captain.get_by_role("button", name="Ask the squad").click()
    look(captain, sheet, "availability-sheet-asked", problems)

    for stage in ("setup", "drawn", "complete", "disputed", "confirmed"):
        match = getattr(night, stage)
        home = phone(match.fixture.home.captain).new_page()
        visit(home, match.get_absolute_url(), f"match-{stage}-captain", problems)
    visit(home, reverse("match-paper", args=[night.complete.pk]), "match-paper", problems)

    secretary = phone(league.secretary).new_page()
    visit(secretary, reverse("match-settle", args=[night.disputed.pk]), "match-settle", problems)
    visit(
        secretary,
        league_reverse("season-tables", args=[league.season.pk]),
        "season-tables",
        problems,
    )

    visit(
        secretary,
        reverse("league-officers", args=[league.season.league.slug]),
        "league-officers",
        problems,
    )
    visit(
        secretary,
        reverse("season-create", args=[league.season.league.slug]),
        "season-create",
        problems,
    )
    site_admin = phone(make_site_admin(username="siteadmin")).new_page()
    visit(site_admin, reverse("site-leagues"), "site-leagues", problems)
    visit(
        secretary,
        league_reverse("season-format", args=[league.season.pk]),
        "season-format",
        problems,
    )
    visit(
        secretary,
        league_reverse("division-format", args=[league.premier.pk]),
        "division-format",
        problems,
    )
    visit(
        secretary,
        league_reverse("season-rollover", args=[league.season.pk]) + f"?n_{league.premier.pk}=1",
        "season-rollover",
        problems,
    )
    visit(secretary, reverse("person-erase", args=[player.pk]), "person-erase", problems)
    visit(secretary, reverse("season-data", args=[league.season.pk]), "season-data", problems)
    path = reverse("season-import", args=[league.season.pk])
    visit(secretary, path, "season-import", problems)
    secretary.get_by_label("What the file holds").select_option("results")
    secretary.get_by_label("CSV or XLSX file").set_input_files(
        files=[
            {
                "name": "results.csv",
                "mimeType": "text/csv",
                "buffer": b"Date,Home,Away,HF,AF,Notes\n01/01/2020,Nobody FC,Somebody,x,4,a long note\n",
            }
        ]
    )
    secretary.get_by_role("button", name="Preview").click()
    look(secretary, path, "season-import-preview", problems)

    # Where to play (docs/directory.md): the directory, a venue, the posts, a post and its
    # conversation, posting, the secretary's queue and a venue's edit page.
    venue = league.teams[0].venue
    directory.venue_details_set(
        venue=venue,
        actor=league.secretary,
        town="Norwich",
        address="1 High Street",
        latitude=Decimal("52.63380"),
        longitude=Decimal("1.30170"),
    )
    directory.venue_table_set(
        venue=venue,
        actor=league.secretary,
        game_id="bar_billiards_4pin",
        count=2,
        notes="one in the back room",
    )
    directory.venue_night_set(
        venue=venue, actor=league.secretary, weekday=1, starts_at=time(19, 30)
    )
    wanted = directory.post_create(
        league=league.season.league,
        kind="join_team",
        team=league.teams[0],
        actor=league.captain,
        title="Two players wanted, Tuesdays",
    )
    slug = league.season.league.slug
    visit(secretary, reverse("league-posts", args=[slug]), "league-posts", problems)
    directory.post_publish(post=wanted, actor=league.secretary)
    talk = directory.post_answer(
        post=wanted, actor=league.player_user, body="Room for one more?"
    ).conversation
    visit(anyone, reverse("directory"), "directory", problems)
    visit(anyone, reverse("directory-venue", args=[venue.pk]), "directory-venue", problems)
    visit(anyone, reverse("directory-posts"), "directory-posts", problems)
    visit(anyone, reverse("directory-post", args=[wanted.pk]), "directory-post", problems)
    visit(
        secretary,
        reverse("directory-venue-edit", args=[venue.pk]),
        "directory-venue-edit",
        problems,
    )
    visit(captain, reverse("directory-post-new"), "directory-post-new", problems)
    visit(captain, reverse("directory-mine"), "directory-mine", problems)
    visit(
        captain,
        reverse("directory-conversation", args=[talk.pk]),
        "directory-conversation",
        problems,
    )

    referee = phone(league.player_user).new_page()
    rita_id = league.player_user.player.pk
    visit(referee, "/", "home-referee", problems)
    visit(referee, reverse("friendly-list"), "games", problems)
    visit(referee, reverse("friendly-new"), "games-new", problems)
    visit(referee, reverse("friendly-detail", args=[game.pk]), "game", problems)
    visit(referee, reverse("my-data"), "my-data", problems)
    visit(referee, reverse("my-availability"), "my-availability", problems)
    token = answer_token(player_id=rita_id, fixture_id=ahead.pk, team_id=league.teams[0].pk)
    visit(phone().new_page(), answer_path(token), "availability-answer", problems)
    assert problems == [], "\n".join(problems)


def test_a_referee_is_one_tap_from_their_pad_and_anyone_from_the_live_page(phone):
    """Item 11: the home page, the header, the fixture page and the match page take the
    referee to the pad of the frame they referee tonight, and anyone to the live page."""
    night = a_night()
    league = night.league
    match = night.in_play
    mine = Frame.objects.get(match=match, referee=league.player_user.player)
    page = phone(league.player_user).new_page()

    page.goto("/")
    page.get_by_role("link", name=f"Pad: frame {mine.number}").click()
    expect(page).to_have_url(re.compile(rf"/frames/{mine.pk}/pad/$"))

    for path in (
        league_reverse("fixture-detail", args=[match.fixture_id]),
        match.get_absolute_url(),
    ):
        page.goto(path)
        page.get_by_role("link", name=f"Your pad: frame {mine.number}").first.click()
        expect(page).to_have_url(re.compile(rf"/frames/{mine.pk}/pad/$"))

    page.goto(league_reverse("season-detail", args=[league.season.pk]))
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Tonight").click()
    page.get_by_role("link", name=f"Pad: frame {mine.number}").click()
    expect(page).to_have_url(re.compile(rf"/frames/{mine.pk}/pad/$"))

    anyone = phone().new_page()
    teams = f"{match.fixture.home.name} v {match.fixture.away.name}"
    for path, link in (
        ("/", f"Live: {teams}"),
        (league_reverse("fixture-detail", args=[match.fixture_id]), "Live scores"),
    ):
        anyone.goto(path)
        anyone.get_by_role("link", name=link, exact=True).click()
        expect(anyone).to_have_url(re.compile(rf"/matches/{match.pk}/live/$"))
    anyone.goto(match.get_absolute_url())
    anyone.get_by_role("link", name="Live scores").click()
    expect(anyone.get_by_role("heading", level=1)).to_contain_text(match.fixture.home.name)
