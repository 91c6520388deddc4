"""Reads of a season's rules: the rule book (the game's rules in our words, its version and
changelog, the house rules in force, the match format, sign-off), and the newer versions a
secretary may move a season to (docs/rules-governance.md)."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from markdown_it import MarkdownIt

from leagues.models import League, Season
from marker.formats import effective_format
from rules import registry
from rules.core import Game, RuleChange
from rules.docgen import BEGIN, page_path
from rules.house import HouseRule, in_force


@dataclass(frozen=True)
class HouseLine:
    """One house rule as the rule book shows it: its words, the value in force, whether
    the league changed it from the book's, and where the rule comes from."""

    rule: HouseRule
    value: str
    changed: bool


@dataclass(frozen=True)
class Version:
    """A newer version of a season's game: its number and the changelog lines between the
    season's version and it (what would change)."""

    number: int
    changes: list[RuleChange]


@dataclass(frozen=True)
class RuleBook:
    """Everything `/<league>/rules/` shows for one season."""

    season: Season
    game: Game[Any]
    changelog: list[RuleChange]
    newer: list[Version]
    house: list[HouseLine]
    format_name: str
    format_lines: list[str]
    division_formats: list[tuple[str, str, list[str]]]
    confirm_after_hours: int
    page_html: str


def shown(value: Any) -> str:
    """A house rule's value in words (a list comma-separated, no value: no limit)."""
    if value is None:
        return "no limit"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


@functools.lru_cache(maxsize=128)
def game_page_html(game_id: str) -> str:
    """The hand-written part of the game's page in `docs/games/` (the game's rules in our
    own words), as HTML, without its title; empty when the game has no page. The pages
    are ours and raw HTML in them is escaped."""
    try:
        path = page_path(registry.get(game_id))
        text = path.read_text(encoding="utf-8")
    except (registry.UnknownGame, OSError):
        return ""
    text = text.split(BEGIN, 1)[0]
    lines = text.splitlines()
    if lines and lines[0].startswith("# "):
        lines = lines[1:]
    md = MarkdownIt("commonmark", {"html": False})
    return md.render("\n".join(lines))


def house_lines(season: Season) -> list[HouseLine]:
    """The season's house rules in force, each with its value in words (none when the
    engine no longer knows the season's game or version)."""
    try:
        game = registry.get(season.game_id, season.rules_version)
    except registry.UnknownGame:
        return []
    return [
        HouseLine(rule, shown(value), changed)
        for rule, value, changed in in_force(game, season.game_options or {})
    ]


def newer_versions(season: Season) -> list[Version]:
    """The versions of the season's game newer than the season's, each with the
    changelog lines a move to it brings."""
    return [
        Version(g.version, registry.changes(season.game_id, season.rules_version, g.version))
        for g in registry.versions(season.game_id)
        if g.version > season.rules_version
    ]


def season_rule_book(season: Season) -> RuleBook:
    """The rule book of `season` (its league and divisions read here). Raises
    `registry.UnknownGame` when the engine does not know the season's game or version."""
    game = registry.get(season.game_id, season.rules_version)
    fmt = effective_format(season.match_format)
    divisions = []
    for d in season.divisions.all():
        if d.match_format is not None:
            own = effective_format(season.match_format, d.match_format)
            divisions.append((d.name, own.name, own.describe()))
    return RuleBook(
        season=season,
        game=game,
        changelog=registry.changes(season.game_id, 1, season.rules_version),
        newer=newer_versions(season),
        house=house_lines(season),
        format_name=fmt.name,
        format_lines=fmt.describe(),
        division_formats=divisions,
        confirm_after_hours=season.league.confirm_after_hours,
        page_html=game_page_html(game.id),
    )


def season_for_rules(league: str, pk: int | None = None) -> Season:
    """The season whose rule book `/<league>/rules/` shows (the current one: running,
    else open for registration, else the latest), or season `pk` of the league. Raises
    `Season.DoesNotExist`."""
    seasons = Season.objects.select_related("league").prefetch_related("divisions")
    if pk is not None:
        return seasons.get(pk=pk, league__slug=league)
    the_league = League.objects.get(slug=league)
    for status in (Season.Status.RUNNING, Season.Status.REGISTRATION):
        found = seasons.filter(league=the_league, status=status).first()
        if found is not None:
            return found
    latest = seasons.filter(league=the_league).first()
    if latest is None:
        raise Season.DoesNotExist
    return latest
