"""Seasons and their divisions: starting a season, adding a division. Each function is
one transaction and raises DomainError."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import date
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils.text import slugify

from leagues.models import (
    Division,
    League,
    Season,
)
from marker.errors import DomainError
from marker.formats import PRESETS, parse_format
from marker.permissions import require
from rules import registry
from rules.house import house_rules
from rules.validate import validate_setup
from rules.vocabulary import RuleError

Actor = Any  # an account (settings.AUTH_USER_MODEL): typed loosely, the model is swappable


MAX_DIVISIONS = 20


def _division_names(divisions: Iterable[str]) -> list[str]:
    names = [" ".join((d or "").split()) for d in divisions or []]
    names = [n for n in names if n]
    if not names:
        raise DomainError(
            "no_divisions", "Give the season at least one division.", field="divisions"
        )
    if len(names) > MAX_DIVISIONS:
        raise DomainError(
            "too_many_divisions",
            f"A season has at most {MAX_DIVISIONS} divisions.",
            field="divisions",
        )
    if too_long := [n for n in names if len(n) > 60]:
        raise DomainError(
            "bad_division", f"“{too_long[0][:60]}…” is too long (60 letters).", field="divisions"
        )
    seen: set[str] = set()
    for name in names:
        if name.lower() in seen:
            raise DomainError("duplicate_division", f"“{name}” is named twice.", field="divisions")
        seen.add(name.lower())
    return names


@transaction.atomic
def season_create(
    *,
    league: League,
    actor: Actor,
    name: str,
    slug: str = "",
    game_id: str,
    game_options: dict | None = None,
    start_date: date | None = None,
    divisions: list[str],
    match_format_preset: str = "",
) -> Season:
    """A new season of `league` with its divisions (ranked in the order given), playing
    `game_id` with `game_options`, and optionally a match-format preset (the default
    format otherwise). The season opens for registration."""
    require(
        actor,
        "leagues.manage_league",
        league,
        code="not_secretary",
        message="Only the league's secretary starts a season.",
    )
    name = " ".join((name or "").split())
    if not name or len(name) > 60:
        raise DomainError("bad_name", "Give the season a name (at most 60 letters).", field="name")
    slug_field = "slug" if (slug or "").strip() else "name"
    slug = slugify((slug or "").strip() or name)[:60].strip("-")
    if not slug:
        raise DomainError(
            "bad_slug", "The season's address needs letters or digits.", field=slug_field
        )
    if Season.objects.filter(league=league, slug=slug).exists():
        raise DomainError(
            "slug_taken",
            f"The league already has a season at “{slug}”: choose another name or address.",
            field=slug_field,
        )
    try:
        game = registry.get(game_id or "")
    except registry.UnknownGame as exc:
        raise DomainError("unknown_game", exc.message, field="game_id") from None
    game_id = game.id
    names = _division_names(divisions)
    if match_format_preset and match_format_preset not in PRESETS:
        raise DomainError(
            "unknown_preset",
            f"No preset is called {match_format_preset!r}: choose one of {', '.join(PRESETS)}.",
            field="match_format_preset",
        )
    season = Season(
        league=league,
        name=name,
        slug=slug,
        start_date=start_date,
        game_id=game_id,
        rules_version=game.version,  # a new season plays the newest rules
        game_options=game_options if game_options is not None else {},
    )
    if match_format_preset:
        season.match_format = parse_format(PRESETS[match_format_preset]).to_json()
    try:
        season.clean()
    except ValidationError as exc:
        field, problems = next(iter(exc.message_dict.items()))
        raise DomainError("bad_game_options", problems[0], field=field) from None
    season.save()
    Division.objects.bulk_create(
        Division(season=season, name=div, rank=rank) for rank, div in enumerate(names, start=1)
    )
    return season


@transaction.atomic
def division_add(*, season: Season, actor: Actor, name: str) -> Division:
    """One more division of `season`, ranked below its others."""
    require(
        actor,
        "leagues.manage_league",
        season,
        code="not_secretary",
        message="Only the league's secretary adds a division.",
    )
    name = " ".join((name or "").split())
    if not name or len(name) > 60:
        raise DomainError(
            "bad_name", "Give the division a name (at most 60 letters).", field="name"
        )
    existing = list(Division.objects.select_for_update().filter(season=season))
    if any(d.name.lower() == name.lower() for d in existing):
        raise DomainError("duplicate_division", f"“{name}” is already a division.", field="name")
    if len(existing) >= MAX_DIVISIONS:
        raise DomainError(
            "too_many_divisions", f"A season has at most {MAX_DIVISIONS} divisions.", field="name"
        )
    return Division.objects.create(
        season=season, name=name, rank=max((d.rank for d in existing), default=0) + 1
    )


def season_started(season: Season, *, today: date) -> bool:
    """A season has started once it is no longer open for registration, or once a
    fixture of it has a result or falls on or before `today`: from then on its rules are
    pinned (docs/rules-governance.md)."""
    if season.status != Season.Status.REGISTRATION:
        return True
    return season.fixtures.filter(
        Q(result_confirmed_at__isnull=False) | Q(date__lte=today)
    ).exists()


@transaction.atomic
def season_set_rules(
    *,
    season: Season,
    actor: Actor,
    rules_version: int,
    house_options: Mapping[str, Any],
    today: date,
) -> Season:
    """Pin `season`'s rules: its game's rules version (the same or a newer one) and its
    house rules (`house_options`: option -> value, only the game's house rules,
    `rules.house`; a value equal to the game's default is not stored). Only before the
    season starts (`season_started`): a started season keeps the rules its frames were
    played under."""
    require(
        actor,
        "leagues.manage_league",
        season,
        code="not_secretary",
        message="Only the league's secretary sets the season's rules.",
    )
    season = Season.objects.select_for_update().get(pk=season.pk)
    if season_started(season, today=today):
        raise DomainError(
            "season_started",
            "The season has started: its rules are pinned until it ends.",
            status=409,
        )
    try:
        game = registry.get(season.game_id, rules_version)
    except registry.UnknownGame as exc:
        raise DomainError("unknown_version", exc.message, field="rules_version") from None
    if rules_version < season.rules_version:
        raise DomainError(
            "older_version",
            f"The season plays version {season.rules_version}: it can move only to a newer one.",
            field="rules_version",
        )
    if not isinstance(house_options, Mapping):
        raise DomainError("bad_house_rules", "Give the house rules as option → value.")
    rules = {rule.option: rule for rule in house_rules(game)}
    if unknown := sorted(set(house_options) - set(rules)):
        raise DomainError(
            "unknown_house_rule",
            f"{game.name} has no house rule {unknown[0]!r}.",
            field=unknown[0],
        )
    options: dict[str, Any] = {}
    for name, value in house_options.items():
        field = rules[name].field
        default = field.default if field is not None else None
        plain = list(default) if isinstance(default, tuple) else default
        if value != plain:
            options[name] = value
    try:
        validate_setup(game, options)
    except RuleError as exc:
        raise DomainError("bad_house_rules", exc.message, field="house_options") from None
    season.rules_version = rules_version
    season.game_options = options
    season.save(update_fields=["rules_version", "game_options"])
    return season
