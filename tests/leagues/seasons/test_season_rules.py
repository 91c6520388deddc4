"""A season pins its rules (issue 29, items 2 and 3): its game, rules version and house
rules; the secretary moves a season that has not started to a newer version, reading the
changes first, and sets the house rules on a form with one field each; archives carry the
versions and restore them."""

from __future__ import annotations

import json
import uuid
from dataclasses import replace
from datetime import UTC, date, datetime

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from exchange.archive import league_export, league_import
from frames.models import Frame
from frames.pad import events
from leagues import rollover
from leagues.models import Season
from leagues.seasons import services as season_services
from marker.errors import DomainError
from rules import RuleChange, registry
from rules.bar_billiards import FOUR_PIN, BarBilliards
from tests.exchange.test_archive import empty_the_database
from tests.frames.matchnight_helpers import drawn, frames_of
from tests.frames.pad_helpers import make_frame, make_match, referee_player

pytestmark = pytest.mark.django_db

BB = "bar_billiards_4pin"
TODAY = date(2026, 8, 1)
CUTOFF = RuleChange(2, "the white cut-off is 300 points", "a test AGM, rule 2i")


@pytest.fixture
def v2():
    game = BarBilliards(replace(FOUR_PIN, cutoff_white=300)).as_version(2, CUTOFF)
    registry.register(game)
    yield game
    registry.unregister(BB, version=2)


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def new_season(league, game_id=BB, **kw) -> Season:
    return season_services.season_create(
        league=league.season.league,
        actor=league.secretary,
        name=kw.pop("name", "Spring 2027"),
        game_id=game_id,
        divisions=["Only"],
        **kw,
    )


def edit_url(season: Season) -> str:
    return reverse("season-rules-edit", args=[season.league.slug, season.pk])


def test_a_new_season_plays_the_newest_rules(league_of_the_module, v2):
    lg = league_of_the_module
    assert new_season(lg).rules_version == 2
    answer = logged_in(lg.secretary).post(
        reverse("api-league-seasons", args=[lg.season.league.pk]),
        {"name": "By the API", "game_id": BB, "divisions": ["Only"]},
        content_type="application/json",
    )
    assert answer.status_code == 201 and answer.json()["rules_version"] == 2


def test_the_secretary_sees_the_changes_before_moving_to_a_newer_version(league_of_the_module):
    lg = league_of_the_module
    season = new_season(lg)
    assert season.rules_version == 1
    game = BarBilliards(replace(FOUR_PIN, cutoff_white=300)).as_version(2, CUTOFF)
    registry.register(game)
    try:
        client = logged_in(lg.secretary)
        page = client.get(edit_url(season)).content.decode()
        assert "Version 2" in page and CUTOFF.change in page and CUTOFF.source in page

        # Without ticking that the changes were read: refused, nothing changed.
        answer = client.post(edit_url(season), {"rules_version": "2", "house_white_balls": "7"})
        assert answer.status_code == 400
        assert "Read the changes" in answer.content.decode()
        season.refresh_from_db()
        assert season.rules_version == 1

        answer = client.post(
            edit_url(season),
            {"rules_version": "2", "changes_read": "on", "house_white_balls": "6"},
        )
        assert answer.status_code == 302
        season.refresh_from_db()
        assert (season.rules_version, season.game_options) == (2, {"white_balls": 6})
        # No newer version is left to offer; the page says which the season plays.
        page = client.get(edit_url(season)).content.decode()
        assert "Newer versions" not in page and "rules version 2" in page
    finally:
        registry.unregister(BB, version=2)
    # The season's version is gone from the engine: refused by name, nothing changed.
    with pytest.raises(DomainError, match="no rules version 2"):
        season_services.season_set_rules(
            season=season,
            actor=lg.secretary,
            rules_version=2,
            house_options={},
            today=TODAY,
        )


def test_a_started_season_keeps_its_rules(league_of_the_module, v2):
    lg = league_of_the_module
    season = lg.season  # running, with fixtures
    before = (season.rules_version, dict(season.game_options))
    answer = logged_in(lg.secretary).post(
        edit_url(season),
        {"rules_version": "2", "changes_read": "on", "house_white_balls": "6"},
    )
    assert answer.status_code == 409
    assert "has started" in answer.content.decode()
    season.refresh_from_db()
    assert (season.rules_version, season.game_options) == before
    # A season no longer open for registration has started.
    fresh = new_season(lg, name="Summer 2027")
    assert not season_services.season_started(fresh, today=TODAY)
    Season.objects.filter(pk=fresh.pk).update(status=Season.Status.FINISHED)
    fresh.refresh_from_db()
    assert season_services.season_started(fresh, today=TODAY)


@pytest.mark.parametrize(
    ("version", "options", "code"),
    [
        (1, {"white_balls": 5}, "bad_house_rules"),
        (1, {"sides": ["a", "b"]}, "unknown_house_rule"),
        (1, {"no_such_rule": 1}, "unknown_house_rule"),
        (9, {}, "unknown_version"),
    ],
)
def test_bad_rules_are_refused_and_change_nothing(league_of_the_module, version, options, code):
    lg = league_of_the_module
    season = new_season(lg)
    with pytest.raises(DomainError) as refused:
        season_services.season_set_rules(
            season=season,
            actor=lg.secretary,
            rules_version=version,
            house_options=options,
            today=TODAY,
        )
    assert refused.value.code == code
    season.refresh_from_db()
    assert (season.rules_version, season.game_options) == (1, {})


def test_a_rolled_over_season_keeps_its_rules_until_the_secretary_moves_it(
    league_of_the_module, v2
):
    lg = league_of_the_module
    Season.objects.filter(pk=lg.season.pk).update(game_options={"white_balls": 6})
    lg.season.refresh_from_db()
    new = rollover.season_rollover(
        season=lg.season, actor=lg.secretary, name="Next", override_unfinished=True
    )
    assert (new.rules_version, new.game_options) == (1, {"white_balls": 6})
    season_services.season_set_rules(
        season=new,
        actor=lg.secretary,
        rules_version=2,
        house_options={"white_balls": 6},
        today=TODAY,
    )
    new.refresh_from_db()
    assert (new.rules_version, new.game_options) == (2, {"white_balls": 6})


def test_a_season_never_moves_to_an_older_version(league_of_the_module, v2):
    lg = league_of_the_module
    season = new_season(lg)
    assert season.rules_version == 2
    with pytest.raises(DomainError) as refused:
        season_services.season_set_rules(
            season=season, actor=lg.secretary, rules_version=1, house_options={}, today=TODAY
        )
    assert refused.value.code == "older_version"


def test_only_the_secretary_sets_the_rules(league_of_the_module):
    lg = league_of_the_module
    season = new_season(lg)
    for user in (lg.captain, lg.outsider):
        with pytest.raises(DomainError) as refused:
            season_services.season_set_rules(
                season=season, actor=user, rules_version=1, house_options={}, today=TODAY
            )
        assert refused.value.code == "not_secretary"
    assert logged_in(lg.captain).get(edit_url(season)).status_code == 403


def test_house_rules_are_a_form_of_named_fields_not_json(league_of_the_module):
    """Northern bagatelle's house rules: each by the name a secretary knows, with its
    source, validated; the values are shown on the season page."""
    lg = league_of_the_module
    season = new_season(lg, game_id="northern_bagatelle", name="Bagatelle 2027")
    client = logged_in(lg.secretary)
    page = client.get(edit_url(season)).content.decode()
    for label in ("Points that win a game", "The board&#x27;s cup values", "A tie at the end"):
        assert label in page
    assert "usually played to 120 points" in page  # the source line
    assert "<textarea" not in page and "JSON" not in page

    bad = client.post(
        edit_url(season),
        {"rules_version": "1", "house_target": "150", "house_cups": "1, two, 3"},
    )
    assert bad.status_code == 400 and "is not a whole number" in bad.content.decode()
    season.refresh_from_db()
    assert season.game_options == {}

    good = client.post(
        edit_url(season),
        {
            "rules_version": "1",
            "house_target": "150",
            "house_ties": "shared",
            "house_cups": "1, 2, 3, 4, 5, 6, 7, 8, 10",
            "house_black_multiplier": "2",
            "house_capacity": "1",
            "house_rounds": "",
        },
    )
    assert good.status_code == 302
    season.refresh_from_db()
    assert season.game_options == {
        "target": 150,
        "ties": "shared",
        "cups": [1, 2, 3, 4, 5, 6, 7, 8, 10],
    }
    shown = client.get(season.get_absolute_url()).content.decode()
    assert "Points that win a game: <strong>150</strong> (the league's choice)" in shown
    assert "What the black scores (times its cup): <strong>2</strong>" in shown


def test_the_pad_shows_the_house_rules_its_frame_is_played_under(league_of_the_module):
    lg = league_of_the_module
    Season.objects.filter(pk=lg.season.pk).update(game_options={"white_balls": 6})
    frame = next(f for f in frames_of(drawn(lg)) if f.status == Frame.Status.SCHEDULED)
    page = logged_in(lg.secretary).get(reverse("frame-pad", args=[frame.pk])).content.decode()
    assert "House rules: White balls in the set 6" in page
    rules = reverse("season-rules", args=[lg.season.league.slug, lg.season.pk])
    assert f'href="{rules}">What\'s the rule?' in page
    # A frame played as the book says shows no house rules.
    plain = make_frame(make_match(lg, home=2, away=3), referee=referee_player(lg))
    page = logged_in(lg.secretary).get(reverse("frame-pad", args=[plain.pk])).content.decode()
    assert "House rules" not in page


def test_an_archive_carries_and_restores_rules_versions(league, v2):
    Season.objects.filter(pk=league.season.pk).update(
        rules_version=2, game_options={"white_balls": 6}
    )
    match = drawn(league)
    frame = next(f for f in frames_of(match) if f.status == Frame.Status.SCHEDULED)
    assert frame.rules_version == 2 and frame.setup["white_balls"] == 6
    events.frame_record_event(
        frame_id=frame.pk,
        event_id=uuid.uuid4(),
        expected_seq=1,
        payload={"type": "shot", "pots": [{"ball": "white", "hole": 50}]},
        kind="event",
        user=None,
        device_id="d1",
        now=datetime(2026, 10, 6, 20, tzinfo=UTC),
    )
    slug = league.season.league.slug
    text = json.dumps(league_export(league=league.season.league, full=True))

    empty_the_database()
    restored = league_import(archive=json.loads(text))
    assert restored.slug == slug
    season = restored.seasons.get()
    assert (season.rules_version, season.game_options) == (2, {"white_balls": 6})
    assert set(Frame.objects.values_list("rules_version", flat=True)) == {2}
    call_command("frames_check")  # each restored frame replays under its own version
