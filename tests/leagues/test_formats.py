"""Match formats as plain JSON (marker.formats): presets, every validation error, the
secretary's services and the table's points per section."""

from __future__ import annotations

import copy
from datetime import UTC, datetime
from decimal import Decimal

import pytest

from leagues import formats
from leagues.fixtures import services as fixture_services
from leagues.models import Fixture
from leagues.standings import division_table
from marker.errors import DomainError
from marker.formats import PRESETS, format_problems, parse_format


def preset(key: str) -> dict:
    return copy.deepcopy(PRESETS[key])


@pytest.mark.parametrize("key", list(PRESETS))
def test_every_preset_checks(key):
    assert format_problems(PRESETS[key]) == []
    fmt = parse_format(PRESETS[key])
    assert fmt.rule_draw == (key == "norwich")
    assert fmt.describe()[0].startswith(fmt.sections[0].name)


def fields(data) -> dict[str, str]:
    return dict(format_problems(data))


def test_validation_names_each_bad_field():
    data = preset("snooker_blind")
    data["sections"][0]["kind"] = "quads"
    data["sections"][1]["frames"] = 0
    data["referee"] = "coin toss"
    data["points"] = {"frame": "-1", "section": "two"}
    data["colour"] = "red"
    problems = fields(data)
    assert "singles, doubles or triples, not 'quads'" in problems["sections[1].kind"]
    assert "from 1 to 30, not 0" in problems["sections[2].frames"]
    assert "'norwich_rotation', 'none' or 'named'" in problems["referee"]
    assert "Points per frame" in problems["points.frame"]
    assert "Points per section" in problems["points.section"]
    assert "Unknown field 'colour'" in problems["colour"]


def test_norwich_five_fits_only_norwich_shape_and_the_hat():
    data = preset("norwich")
    data["selection"] = "blind"
    assert "norwich_five" in fields(data)["substitution"]
    data = preset("norwich")
    data["sections"][1]["frames"] = 4
    assert "6 singles then 3 doubles" in fields(data)["substitution"]


def test_a_pairing_schedule_over_the_limit_names_the_rule():
    data = preset("bagatelle_fixed")
    data["sections"][0]["pairings"] = ["1v1", "1v2", "3v3"]
    message = fields(data)["sections[1].pairings"]
    assert "home number 1 plays 2 frames" in message and "max_per_section" in message
    data["sections"][0]["pairings"] = ["1v1", "2 v 2", "one v three"]
    assert "'one v three' is not a pairing" in fields(data)["sections[1].pairings"]
    data["sections"][0]["pairings"] = ["1+2v1", "2v2", "3v3"]
    assert "pairs 1 different lineup position" in fields(data)["sections[1].pairings"]


def test_too_few_players_for_the_sections_is_refused():
    data = preset("pool_captains_order")
    data["min_players"] = 6
    assert "at least 8 players" in fields(data)["min_players"]
    data = {
        "name": "Two a side",
        "sections": [{"name": "D", "kind": "doubles", "frames": 3}],
        "selection": "hat",
        "substitution": "max_per_section",
        "max_per_section": 2,
        "referee": "none",
        "min_players": 2,
    }
    assert "at least 3 players" in fields(data)["min_players"]
    data["min_players"] = 3
    assert fields(data) == {}


def test_sections_cannot_share_a_name_nor_be_missing():
    data = preset("snooker_blind")
    data["sections"][1]["name"] = "singles"
    assert "Two sections are called" in fields(data)["sections[2].name"]
    assert "at least one section" in fields({"name": "x", "sections": []})["sections"]
    assert fields("six singles") == {
        "format": "A format is an object with its name, sections and rules."
    }


# --------------------------------------------------------------------------- services


def test_secretary_sets_a_season_format_from_a_preset_and_a_captain_cannot(league):
    season = league.season
    with pytest.raises(DomainError) as info:
        formats.season_set_format(season=season, actor=league.captain, preset="snooker_blind")
    assert info.value.code == "not_secretary"
    season.refresh_from_db()
    assert parse_format(season.match_format).rule_draw  # unchanged
    formats.season_set_format(season=season, actor=league.secretary, preset="snooker_blind")
    season.refresh_from_db()
    assert season.match_format["name"] == PRESETS["snooker_blind"]["name"]
    assert league.premier.format.selection == "blind"


def test_a_bad_format_is_refused_with_every_problem_and_changes_nothing(league):
    bad = preset("pool_captains_order")
    bad["selection"] = "raffle"
    bad["max_per_section"] = 0
    with pytest.raises(DomainError) as info:
        formats.season_set_format(season=league.season, actor=league.secretary, match_format=bad)
    assert info.value.code == "invalid_format"
    assert {p["field"] for p in info.value.extra["problems"]} >= {"selection", "max_per_section"}
    league.season.refresh_from_db()
    assert parse_format(league.season.match_format).rule_draw


def test_a_division_overrides_then_inherits_the_season_format(league):
    division = league.second
    formats.division_set_format(division=division, actor=league.secretary, preset="bagatelle_fixed")
    division.refresh_from_db()
    assert division.format.name == PRESETS["bagatelle_fixed"]["name"]
    assert league.premier.format.rule_draw
    formats.division_set_format(division=division, actor=league.secretary, inherit=True)
    division.refresh_from_db()
    assert division.match_format is None and division.format.rule_draw


def _record(fixture: Fixture, home, away, home_sections=None, away_sections=None):
    fixture_services.fixture_record_result(
        fixture=fixture,
        home_frames=Decimal(home),
        away_frames=Decimal(away),
        home_score=0,
        away_score=0,
        confirmed_at=datetime(2026, 9, 2, tzinfo=UTC),
        home_sections=home_sections,
        away_sections=away_sections,
    )


def test_points_per_section_and_match_reach_the_table_and_explain_themselves(league):
    formats.division_set_format(
        division=league.premier, actor=league.secretary, preset="bagatelle_fixed"
    )
    league.premier.refresh_from_db()
    home, away = league.teams[0], league.teams[1]
    fixture = Fixture.objects.get(home=home, away=away)
    _record(fixture, 4, 2, Decimal("1.5"), Decimal("0.5"))
    table = division_table(league.premier)
    points = {row.team: row.points for row in table.rows}
    # bagatelle preset: 1 a frame, 1 a section, 2 a match won
    assert points[home.name] == Decimal("4") + Decimal("1.5") + 2
    assert points[away.name] == Decimal("2") + Decimal("0.5")
    assert "1 per section won" in table.scheme.describe()[0]
    assert "2 for a match won" in table.scheme.describe()[0]
    # The other division keeps the season's (Norwich) scheme: one table call, two schemes.
    from leagues.standings import tables

    both = {t.division_id: t for t in tables(league.season)}
    assert both[league.second.pk].scheme.points_per_section == 0
    assert both[league.premier.pk].scheme.points_per_section == 1
