"""May this player play for this team on this date? The season's registration rules
(`SeasonRegistrationRules`: windows, notice, playing up, transfers) applied in one place,
each refusal naming its rule: a stable code and the handbook's words (docs/eligibility.md).

The roster (registering), match night (present marking, drafting), the API and sign-off
all ask here; the writes that follow live in `leagues.teams.eligibility_services`."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

from django.db.models import Q
from django.utils import timezone

from leagues.models import (
    Fixture,
    Player,
    PlayUp,
    Registration,
    Season,
    SeasonRegistrationRules,
    Team,
)
from marker.errors import DomainError

#: Every rule by its stable code, and its name in the handbook's words (the names that
#: depend on the season's settings are completed by `Refusal.rule`).
RULES: dict[str, str] = {
    "registration_not_open": "Registrations open on {date}",
    "registration_closed": "Registrations closed on {date}",
    "notice_period": "Players are registered {days} days before they play",
    "plays_for_another_team": "One team a season (rule 8)",
    "play_up_not_higher": "Playing up only for a higher division of the same club",
    "play_up_cap": "At most {cap} appearances in a higher division",
    "transfers_not_allowed": "No transfers this season",
    "transfer_played": "Transfers only for players who have not played (rule 8)",
    "transfer_window_closed": "Transfers only while registrations are open",
    "transfer_needs_approval": "Transfers need the secretary's approval",
    "not_registered": "Only a registered player may play; an unregistered player forfeits "
    "the frame",
}


def day(value: date) -> str:
    """A date as the handbook writes it: '6 Jan 2027'."""
    return f"{value.day} {value:%b %Y}"


@dataclass(frozen=True)
class Refusal:
    """One rule that refuses: its code, its name (the handbook's words) and what it means
    for this player."""

    code: str
    rule: str
    detail: str
    extra: dict[str, str] = field(default_factory=dict, compare=False)

    @property
    def message(self) -> str:
        return f"{self.rule}: {self.detail}"

    def as_dict(self) -> dict[str, str]:
        return {"rule": self.code, "rule_name": self.rule, "message": self.message}

    def error(self, field: str = "player") -> DomainError:
        return DomainError(
            self.code,
            self.message,
            field=field,
            extra={"rule": self.code, "rule_name": self.rule, **self.extra},
        )


@dataclass(frozen=True)
class Eligibility:
    """The answer: eligible or not, the refusals (empty when eligible), and whether the
    player plays up (for a higher team of their club, not on its roster)."""

    refusals: tuple[Refusal, ...] = ()
    play_up: bool = False
    home_team: Team | None = field(default=None, compare=False)

    @property
    def eligible(self) -> bool:
        return not self.refusals

    def raise_first(self, field: str = "player") -> None:
        if self.refusals:
            raise self.refusals[0].error(field)


def rules_of(season: Season) -> SeasonRegistrationRules:
    """The season's rules; an unsaved default (no rule but rule 8) when it has none."""
    try:
        return season.registration_rules
    except SeasonRegistrationRules.DoesNotExist:
        default = SeasonRegistrationRules(season=season)
        # Remembered on this season object, so one request asks the database once.
        Season.registration_rules.related.set_cached_value(season, default)
        return default


def local_day(now: datetime | None) -> date:
    return timezone.localdate(now or timezone.now())


def closing(rules: SeasonRegistrationRules) -> tuple[date | None, str]:
    """The day registrations close (none: they never do) and the rule's name for it."""
    closes, name = rules.registrations_close, ""
    if rules.registrations_close is not None:
        name = f"Registrations closed on {day(rules.registrations_close)}"
    after = rules.close_at_first_match_after
    if after is not None:
        first = (
            Fixture.objects.filter(season_id=rules.season_id, date__gte=after)
            .exclude(status=Fixture.Status.POSTPONED)
            .order_by("date")
            .values_list("date", flat=True)
            .first()
        )
        if first is not None and (closes is None or first < closes):
            closes = first
            which = (
                "the first match of the New Year"
                if (after.month, after.day) == (1, 1)
                else f"the first match on or after {day(after)}"
            )
            name = f"Registrations closed at {which} ({day(first)})"
    return closes, name


def window_refusal(rules: SeasonRegistrationRules, on: date) -> Refusal | None:
    """Registrations are not open on this day: not yet, or no longer."""
    if rules.registrations_open is not None and on < rules.registrations_open:
        return Refusal(
            "registration_not_open",
            f"Registrations open on {day(rules.registrations_open)}",
            f"no registration before then (today is {day(on)}).",
        )
    closes, name = closing(rules)
    if closes is not None and on >= closes:
        return Refusal("registration_closed", name, "no new registrations this season.")
    return None


def registration_refusal(*, season: Season, on: date) -> Refusal | None:
    """May a player be registered for a team of this season on this day?"""
    return window_refusal(rules_of(season), on)


def _notice(
    rules: SeasonRegistrationRules, player: Player, registered: date, on: date
) -> Refusal | None:
    days = rules.min_notice_days
    if not days:
        return None
    may_play = registered + timedelta(days=days)
    if on >= may_play:
        return None
    return Refusal(
        "notice_period",
        f"Players are registered {days} day{'s' if days != 1 else ''} before they play",
        f"{player.name} was registered on {day(registered)} and may play from {day(may_play)}.",
    )


def _rule_8(player: Player, other: Team) -> Refusal:
    return Refusal(
        "plays_for_another_team",
        RULES["plays_for_another_team"],
        f"{player.name} already plays for {other.name} this season; "
        "a player can play for only one team a season.",
        {"other_team": other.name},
    )


def _home_registration(player: Player, season: Season, team: Team) -> Registration | None:
    """The player's registration with another team this season that binds them (on its
    roster, or played for it)."""
    return (
        Registration.objects.filter(player=player, season=season)
        .filter(Q(status=Registration.Status.ACTIVE) | Q(first_played_at__isnull=False))
        .exclude(team=team)
        .select_related("team__division")
        .order_by("-status", "-id")  # an active one first
        .first()
    )


def play_up_refusal(
    rules: SeasonRegistrationRules, player: Player, team: Team, home: Registration
) -> Refusal | None:
    """May a player of `home.team` play up for `team`? Same club (home venue), a higher
    division, within the divisions the season counts as higher."""
    own = home.team
    if not rules.play_up_allowed or home.status != Registration.Status.ACTIVE:
        return _rule_8(player, own)
    higher = own.division is not None and team.division is not None
    gap = (own.division.rank - team.division.rank) if higher else 0  # type: ignore[union-attr]
    if own.venue_id != team.venue_id or gap <= 0:
        return Refusal(
            "play_up_not_higher",
            RULES["play_up_not_higher"],
            f"{player.name} plays for {own.name}; {team.name} is not a higher team of "
            "the same club.",
        )
    if rules.play_up_divisions is not None and gap > rules.play_up_divisions:
        above = rules.play_up_divisions
        return Refusal(
            "play_up_not_higher",
            RULES["play_up_not_higher"],
            f"{player.name} may play up at most {above} division{'s' if above != 1 else ''} "
            f"above {own.name}'s.",
        )
    return None


def play_up_count(player: Player, season: Season, *, before: Fixture | None = None) -> int:
    """A player's appearances for higher teams this season (other than `before`)."""
    found = PlayUp.objects.filter(player=player, season=season)
    if before is not None:
        found = found.exclude(fixture=before)
    return found.count()


def _cap_refusal(
    rules: SeasonRegistrationRules, player: Player, season: Season, fixture: Fixture | None
) -> Refusal | None:
    cap = rules.play_up_cap
    if cap is None:
        return None
    count = play_up_count(player, season, before=fixture)
    if count < cap:
        return None
    return Refusal(
        "play_up_cap",
        f"At most {cap} appearance{'s' if cap != 1 else ''} in a higher division",
        f"{player.name} has played up {count} time{'s' if count != 1 else ''} this season.",
    )


def may_play(
    *, team: Team, player: Player, on: date, fixture: Fixture | None = None
) -> Eligibility:
    """May `player` play for `team` on `on` (in `fixture`, when it is known)?

    On the team's roster: only the notice period can refuse. Not on any roster: they
    would be drafted, which is a registration on the night (the window, then the notice).
    On another team's roster: rule 8, unless the season lets them play up (same club,
    higher division, under the cap, past their own notice)."""
    season = team.season
    rules = rules_of(season)
    own = (
        Registration.objects.filter(team=team, player=player, status=Registration.Status.ACTIVE)
        .order_by("-id")
        .first()
    )
    if own is not None:
        notice = _notice(rules, player, timezone.localdate(own.created_at), on)
        return Eligibility((notice,) if notice else ())
    home = _home_registration(player, season, team)
    if home is None:
        refusal = window_refusal(rules, on) or _notice(rules, player, on, on)
        return Eligibility((refusal,) if refusal else ())
    refusal = (
        play_up_refusal(rules, player, team, home)
        or _notice(rules, player, timezone.localdate(home.created_at), on)
        or _cap_refusal(rules, player, season, fixture)
    )
    return Eligibility((refusal,) if refusal else (), play_up=refusal is None, home_team=home.team)


def played_refusals(
    *, fixture: Fixture, played: list[tuple[Team, Player]], on: date
) -> dict[tuple[int, int], Refusal]:
    """Were these players eligible when they played for these teams in `fixture`
    (sign-off)? Each refusal by (team id, player id): not registered for the team (nor
    playing up for it in this fixture), drafted while registrations were closed, inside
    the notice period, or over the play-up cap. A fixed number of queries, whatever the
    number of players."""
    if not played:
        return {}
    season = fixture.season
    rules = rules_of(season)
    players = {p.pk for _, p in played}
    regs: dict[tuple[int, int], Registration] = {}
    for found_reg in (
        Registration.objects.filter(season=season, player_id__in=players)
        .filter(Q(status=Registration.Status.ACTIVE) | Q(first_played_at__isnull=False))
        .order_by("id")
    ):
        regs[(found_reg.team_id, found_reg.player_id)] = found_reg  # the latest wins
    ups = {
        (up.team_id, up.player_id)
        for up in PlayUp.objects.filter(fixture=fixture, player_id__in=players)
    }
    counts: dict[int, int] = {}  # appearances up before this fixture's, by player
    if rules.play_up_cap is not None and ups:
        season_ups = list(
            PlayUp.objects.filter(season=season, player_id__in=players).order_by("at", "id")
        )
        here = {up.player_id: (up.at, up.pk) for up in season_ups if up.fixture_id == fixture.pk}
        for up in season_ups:
            if up.player_id in here and (up.at, up.pk) < here[up.player_id]:
                counts[up.player_id] = counts.get(up.player_id, 0) + 1
    closes: tuple[date | None, str] | None = None
    found: dict[tuple[int, int], Refusal] = {}
    for team, player in played:
        key = (team.pk, player.pk)
        reg = regs.get(key)
        refusal: Refusal | None = None
        if reg is None:
            if key not in ups:
                refusal = Refusal(
                    "not_registered",
                    RULES["not_registered"],
                    f"{player.name} was not registered for {team.name}.",
                )
            elif rules.play_up_cap is not None and counts.get(player.pk, 0) >= rules.play_up_cap:
                cap, count = rules.play_up_cap, counts.get(player.pk, 0)
                refusal = Refusal(
                    "play_up_cap",
                    f"At most {cap} appearance{'s' if cap != 1 else ''} in a higher division",
                    f"{player.name} had already played up {count} time"
                    f"{'s' if count != 1 else ''} this season.",
                )
        else:
            registered = timezone.localdate(reg.created_at)
            if reg.kind == Registration.Kind.DRAFTED:
                if closes is None:
                    closes = closing(rules)
                if closes[0] is not None and registered >= closes[0]:
                    refusal = Refusal(
                        "registration_closed",
                        closes[1],
                        f"{player.name} was drafted on {day(registered)}.",
                    )
                elif rules.registrations_open is not None and registered < rules.registrations_open:
                    refusal = Refusal(
                        "registration_not_open",
                        f"Registrations open on {day(rules.registrations_open)}",
                        f"{player.name} was drafted on {day(registered)}.",
                    )
            refusal = refusal or _notice(rules, player, registered, on)
        if refusal is not None:
            found[key] = refusal
    return found


def transfer_refusal(*, player: Player, from_team: Team, to_team: Team, on: date) -> Refusal | None:
    """May `player` move from `from_team` to `to_team` on `on`, by the season's rules?
    (Approval is not a refusal: see `SeasonRegistrationRules.transfers_need_approval`.)"""
    season = from_team.season
    rules = rules_of(season)
    if not rules.transfers_allowed:
        return Refusal(
            "transfers_not_allowed", RULES["transfers_not_allowed"], "the season allows none."
        )
    played = (
        Registration.objects.filter(
            player=player, season=season, first_played_at__isnull=False
        ).exists()
        or PlayUp.objects.filter(player=player, season=season).exists()
    )
    if played:
        return Refusal(
            "transfer_played",
            RULES["transfer_played"],
            f"{player.name} has already played this season.",
        )
    if rules.transfers_only_while_open:
        window = window_refusal(rules, on)
        if window is not None:
            return Refusal(
                "transfer_window_closed",
                f"{RULES['transfer_window_closed']} ({window.rule})",
                f"{player.name} cannot move to {to_team.name} now.",
            )
    return None


def rules_summary(rules: SeasonRegistrationRules) -> list[tuple[str, str]]:
    """The season's rules in force, as (code, the handbook's words), for the pages."""
    lines: list[tuple[str, str]] = []
    if rules.registrations_open is not None:
        lines.append(
            ("registration_not_open", f"Registrations open on {day(rules.registrations_open)}")
        )
    if rules.registrations_close is not None:
        lines.append(
            ("registration_closed", f"Registrations close on {day(rules.registrations_close)}")
        )
    if rules.close_at_first_match_after is not None:
        after = rules.close_at_first_match_after
        which = (
            "the first match of the New Year"
            if (after.month, after.day) == (1, 1)
            else f"the first match on or after {day(after)}"
        )
        lines.append(("registration_closed", f"No new registrations after {which}"))
    if rules.min_notice_days:
        lines.append(
            (
                "notice_period",
                f"Players are registered {rules.min_notice_days} days before they play",
            )
        )
    if rules.play_up_allowed:
        cap = f"at most {rules.play_up_cap} appearances" if rules.play_up_cap is not None else ""
        reach = (
            f"up to {rules.play_up_divisions} division(s) above"
            if rules.play_up_divisions is not None
            else "any higher division"
        )
        lines.append(
            (
                "play_up_cap",
                f"Players may play up for their club ({reach}){', ' + cap if cap else ''}",
            )
        )
    if not rules.transfers_allowed:
        lines.append(("transfers_not_allowed", RULES["transfers_not_allowed"]))
    else:
        lines.append(("transfer_played", RULES["transfer_played"]))
        if rules.transfers_only_while_open:
            lines.append(("transfer_window_closed", RULES["transfer_window_closed"]))
        if rules.transfers_need_approval:
            lines.append(("transfer_needs_approval", RULES["transfer_needs_approval"]))
    lines.append(("penalty", f"An ineligible player: {rules.get_penalty_display().lower()}"))
    return lines


def play_up_candidates(team: Team) -> list[Registration]:
    """The registrations of players who may play up for `team` this season, where the
    season allows it: on the roster of a team of the same club (home venue) in a division
    the season counts as lower (the cap is checked when they are marked present)."""
    rules = rules_of(team.season)
    if not rules.play_up_allowed or team.division_id is None:
        return []
    rank = team.division.rank  # type: ignore[union-attr]
    lower = Registration.objects.filter(
        season_id=team.season_id,
        status=Registration.Status.ACTIVE,
        team__venue_id=team.venue_id,
        team__division__rank__gt=rank,
    )
    if rules.play_up_divisions is not None:
        lower = lower.filter(team__division__rank__lte=rank + rules.play_up_divisions)
    return list(lower.select_related("player", "team").order_by("team__name", "player__name"))
