"""The archive's sections: which rows of which models make up one league's history.

An archive is a list of sections, one per group of models, in the order they are written
and restored. A row's required foreign keys point only at rows of earlier parts; a nullable
one may point forward (a competition's winner, an entry restored after it; a competition's
plate, another competition) and is filled in once every row is restored. Many-to-many
fields travel as lists of the related rows' keys. Each part names a model and the
queryset of the league's rows of it; the generic writer in `exchange.archive` serialises
every concrete field, so a field added to a model later travels without a change here.

To add a group of models (match formats), append a `Section` to `SECTIONS`
(or call `register_section` from a module imported by `exchange.archive`), after the
sections its rows point into. Derived data (statistics, ratings) is not archived: each
section may name a `rebuild` that recomputes it once every row is restored.
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db.models import Max, Model, Q, QuerySet

from competitions.models import (
    Competition,
    CompetitionLog,
    Entry,
    Group,
    GroupMember,
    Round,
    Tie,
    TieFrame,
)
from frames.engine import frame_sealed
from frames.models import (
    Award,
    Frame,
    FrameEvent,
    FramePlayer,
    Friendly,
    Match,
    MatchLog,
    Presence,
)
from frames.ratings.services import ratings_recompute
from frames.stats.record import stats_rebuild
from leagues.models import (
    Division,
    EligibilityLog,
    Fixture,
    Honour,
    Invitation,
    League,
    LeagueRole,
    PersonErasure,
    Player,
    PlayUp,
    PointDeduction,
    Publication,
    Registration,
    Season,
    SeasonRegistrationRules,
    Subscription,
    TableSnapshot,
    Team,
    Transfer,
    Venue,
)
from marker.api_inputs import digits
from marker.personal_data import former_name


@dataclass(frozen=True)
class Part:
    """One model's rows in a league's archive.

    `rows(league)` is the league's rows of the model. `personal` parts (contact details
    of people who are not players' public records: invitations, email subscriptions) go
    only into a full backup, and `scrub` names fields blanked unless it is one (a
    player's email address). `match_existing(values)` may return an existing row the
    restore reuses instead of creating one (a venue shared by two leagues, found by its
    unique name). `renew` names unique fields whose values may clash.
    """

    model: type[Model]
    rows: Callable[[League], QuerySet]
    personal: bool = False
    scrub: tuple[str, ...] = ()
    match_existing: Callable[[dict[str, Any]], Model | None] | None = None
    #: Unique fields given a new value (from the callable) when the instance already has
    #: the archive's (a league restored beside its original: shot ids, email tokens).
    renew: tuple[tuple[str, Callable[[], Any]], ...] = ()
    #: The fields of a row blanked in every archive, a full backup too: a draw's secrets
    #: and commitments before its draw (marker/commit_reveal.py), so that a restored
    #: round starts again rather than draw from secrets someone has read.
    sealed: Callable[[Any], tuple[str, ...]] | None = None
    #: Rewrites a restored row's values that hold keys inside text (an honour's source,
    #: "competition:5"), given the old → new keys of every part restored so far.
    remap: Callable[[dict[str, Any], dict[str, dict[int, int]]], None] | None = None

    @property
    def label(self) -> str:
        return self.model._meta.label_lower


@dataclass(frozen=True)
class Section:
    name: str
    parts: tuple[Part, ...]
    #: Recompute what the section's rows derive (called once the whole archive is in,
    #: with the restored league).
    rebuild: Callable[[League], None] | None = None
    description: str = ""


#: A draw round's fields, sealed in archives until its draw (marker/commit_reveal.py).
_MATCH_ROUND: tuple[str, ...] = tuple(
    f"{who}_{part}" for who in ("home", "away", "server") for part in ("commitment", "secret")
)


#: A frame's setup and engine states hold the private small balls a service drew
#: (frames.engine.frame_sealed): sealed in archives until the game is over.
def _frame_sealed(frame: Frame) -> tuple[str, ...]:
    return ("setup", "state") if frame_sealed(frame) else ()


def _event_sealed(event: FrameEvent) -> tuple[str, ...]:
    return ("state_after",) if frame_sealed(event.frame) else ()


_CUP_ROUND: tuple[str, ...] = tuple(
    f"{who}_{part}" for who in ("secretary", "server") for part in ("commitment", "secret")
)


def _of_league_frames(league: League, prefix: str = "") -> Q:
    """A frame of the league's: of one of its match nights, or of an individual cup tie
    (a friendly-style frame scored on the pad)."""
    return Q(**{f"{prefix}match__fixture__season__league": league}) | Q(
        **{f"{prefix}cup_frame__tie__competition__season__league": league}
    )


def _league_players(league: League) -> QuerySet:
    """Everyone the league's history names: on a roster, present on a night, in a frame
    (a match's or a cup tie's), refereeing one, entered in a competition (or a pair's
    partner), on a competition's list of eligible players, or on the roll of honour (one
    subquery each, so no join multiplies the rows)."""
    of_league = Q(match__fixture__season__league=league)
    entries = Entry.objects.filter(competition__season__league=league)
    ids = (
        Q(pk__in=Registration.objects.filter(season__league=league).values("player_id"))
        | Q(pk__in=Presence.objects.filter(of_league).values("player_id"))
        | Q(
            pk__in=FramePlayer.objects.filter(_of_league_frames(league, "frame__")).values(
                "player_id"
            )
        )
        | Q(
            pk__in=Frame.objects.filter(_of_league_frames(league), referee__isnull=False).values(
                "referee_id"
            )
        )
        | Q(pk__in=entries.filter(player__isnull=False).values("player_id"))
        | Q(pk__in=entries.filter(partner__isnull=False).values("partner_id"))
        | Q(
            pk__in=Competition.eligible_players.through.objects.filter(
                competition__season__league=league
            ).values("player_id")
        )
        | Q(pk__in=Honour.players.through.objects.filter(honour__league=league).values("player_id"))
    )
    return Player.objects.filter(ids)


def _league_venues(league: League) -> QuerySet:
    return Venue.objects.filter(
        Q(pk__in=Team.objects.filter(season__league=league).values("venue_id"))
        | Q(pk__in=Fixture.objects.filter(season__league=league).values("venue_id"))
    )


def _venue_by_name(values: dict[str, Any]) -> Model | None:
    return Venue.objects.filter(name=values.get("name")).first()


def _player_of_account(values: dict[str, Any]) -> Model | None:
    """A restored account that already has a player (in another league): one person,
    one record."""
    user_id = values.get("user_id")
    return Player.objects.filter(user_id=user_id).first() if user_id else None


def _erasure_of_player(values: dict[str, Any]) -> Model | None:
    """A player found by their account (above) who already has an erasure keeps it."""
    player_id = values.get("player_id")
    return PersonErasure.objects.filter(player_id=player_id).first() if player_id else None


#: Erasure numbers this restore has given out (kept beside the keys, so per restore).
_GIVEN = "exchange:erasure-numbers"


def _erasure_number_free(number: int, given: dict[int, int]) -> bool:
    return not (
        number in given
        or Player.objects.filter(erased_number=number).exists()
        or PersonErasure.objects.filter(number=number).exists()
    )


def _erased_player_number(values: dict[str, Any], keys: dict[str, dict[int, int]]) -> None:
    """An erased player whose number the instance already holds (a league restored beside
    its original) becomes 'Former player N' with a new N, one past the highest."""
    number = values.get("erased_number")
    if number is None:
        return
    given = keys.setdefault(_GIVEN, {})
    if not _erasure_number_free(number, given):
        highest = max(
            Player.objects.aggregate(n=Max("erased_number"))["n"] or 0,
            PersonErasure.objects.aggregate(n=Max("number"))["n"] or 0,
            max(given, default=0),
        )
        number = highest + 1
        values["erased_number"], values["name"] = number, former_name(number)
    given[number] = number


def _erasure_number_of_player(values: dict[str, Any], keys: dict[str, dict[int, int]]) -> None:
    """An erasure keeps its player's number (renewed with the player's, above)."""
    player_id = values.get("player_id")
    if player_id is None:
        return
    number = Player.objects.filter(pk=player_id).values_list("erased_number", flat=True).first()
    if number is not None:
        values["number"] = number


def _rebuild_statistics(league: League) -> None:
    """Players' lines from the restored shot logs, and the ratings of every game the
    league played (ratings span the instance, so each game is replayed whole)."""
    for season in league.seasons.all():
        stats_rebuild(season=season)
    games = (
        Frame.objects.filter(match__fixture__season__league=league)
        .values_list("game_id", flat=True)
        .distinct()
    )
    for game_id in sorted(set(games)):
        ratings_recompute(game_id=game_id)


LEAGUE = Section(
    name="league",
    description="The league, its seasons, divisions, venues, players, teams, "
    "registrations, fixtures and results, deductions, and published tables.",
    parts=(
        Part(League, lambda lg: League.objects.filter(pk=lg.pk)),
        Part(LeagueRole, lambda lg: LeagueRole.objects.filter(league=lg), personal=True),
        Part(Season, lambda lg: Season.objects.filter(league=lg)),
        Part(Division, lambda lg: Division.objects.filter(season__league=lg)),
        Part(Venue, _league_venues, match_existing=_venue_by_name),
        Part(
            Player,
            _league_players,
            # Contact and category details (a date of birth) go only into a full backup.
            scrub=("email", "date_of_birth", "plays_ladies"),
            match_existing=_player_of_account,
            remap=_erased_player_number,
        ),
        Part(
            PersonErasure,
            lambda lg: PersonErasure.objects.filter(player__in=_league_players(lg)),
            match_existing=_erasure_of_player,
            remap=_erasure_number_of_player,
        ),
        Part(Team, lambda lg: Team.objects.filter(season__league=lg)),
        Part(Registration, lambda lg: Registration.objects.filter(season__league=lg)),
        Part(
            Invitation,
            lambda lg: Invitation.objects.filter(Q(team__season__league=lg) | Q(league=lg)),
            personal=True,
            renew=(("token", secrets.token_urlsafe),),
        ),
        Part(Fixture, lambda lg: Fixture.objects.filter(season__league=lg)),
        Part(PointDeduction, lambda lg: PointDeduction.objects.filter(team__season__league=lg)),
        # The registration rules (docs/eligibility.md): the season's rules, transfers,
        # appearances up and the log.
        Part(
            SeasonRegistrationRules,
            lambda lg: SeasonRegistrationRules.objects.filter(season__league=lg),
        ),
        Part(Transfer, lambda lg: Transfer.objects.filter(season__league=lg)),
        Part(PlayUp, lambda lg: PlayUp.objects.filter(season__league=lg)),
        Part(EligibilityLog, lambda lg: EligibilityLog.objects.filter(season__league=lg)),
        Part(Publication, lambda lg: Publication.objects.filter(season__league=lg)),
        Part(
            TableSnapshot,
            lambda lg: TableSnapshot.objects.filter(publication__season__league=lg),
        ),
        Part(
            Subscription,
            lambda lg: Subscription.objects.filter(league=lg),
            personal=True,
            renew=(("token", secrets.token_urlsafe),),
        ),
    ),
)

MATCH_NIGHTS = Section(
    name="match_nights",
    description="Every match night: squads, the draw, frames with their players and "
    "their shot logs, sign-off. Players' statistics and ratings are recomputed from "
    "them on restore.",
    parts=(
        Part(
            Match,
            lambda lg: Match.objects.filter(fixture__season__league=lg),
            sealed=lambda m: () if m.seed is not None else _MATCH_ROUND,
        ),
        Part(MatchLog, lambda lg: MatchLog.objects.filter(match__fixture__season__league=lg)),
        Part(Presence, lambda lg: Presence.objects.filter(match__fixture__season__league=lg)),
        Part(
            Frame,
            lambda lg: Frame.objects.filter(match__fixture__season__league=lg),
            sealed=_frame_sealed,
        ),
        Part(
            FramePlayer,
            lambda lg: FramePlayer.objects.filter(frame__match__fixture__season__league=lg),
        ),
        Part(
            FrameEvent,
            lambda lg: FrameEvent.objects.filter(
                frame__match__fixture__season__league=lg
            ).select_related("frame"),
            renew=(("event_id", uuid.uuid4),),
            sealed=_event_sealed,
        ),
    ),
    rebuild=_rebuild_statistics,
)


def _competition_sealed(competition: Competition) -> tuple[str, ...]:
    """A competition's draw round(s) not yet drawn: the draw's, the knock-out's."""
    sealed = () if competition.seed is not None else _CUP_ROUND
    if competition.knockout_seed is None:
        sealed += tuple(f"knockout_{name}" for name in _CUP_ROUND)
    return sealed


def _cup(league: League) -> Q:
    return Q(cup_frame__tie__competition__season__league=league)


COMPETITIONS = Section(
    name="competitions",
    description="Every competition: its entries, eligible players, the draw with its "
    "secrets and seed, rounds, groups and their members, ties (a team tie's cup fixture "
    "and match night are in the sections above), an individual tie's frames with their "
    "shot logs, and the competition's log.",
    parts=(
        # An individual tie's frame is a friendly-style frame (no match): its friendly,
        # the frame, its players and its shot log come first.
        Part(
            Friendly,
            lambda lg: Friendly.objects.filter(
                frame__cup_frame__tie__competition__season__league=lg
            ),
        ),
        Part(Frame, lambda lg: Frame.objects.filter(_cup(lg)), sealed=_frame_sealed),
        Part(
            FramePlayer,
            lambda lg: FramePlayer.objects.filter(
                frame__cup_frame__tie__competition__season__league=lg
            ),
        ),
        Part(
            FrameEvent,
            lambda lg: FrameEvent.objects.filter(
                frame__cup_frame__tie__competition__season__league=lg
            ).select_related("frame"),
            renew=(("event_id", uuid.uuid4),),
            sealed=_event_sealed,
        ),
        Part(
            Competition,
            lambda lg: Competition.objects.filter(season__league=lg),
            sealed=_competition_sealed,
        ),
        Part(Entry, lambda lg: Entry.objects.filter(competition__season__league=lg)),
        Part(Round, lambda lg: Round.objects.filter(competition__season__league=lg)),
        Part(Group, lambda lg: Group.objects.filter(competition__season__league=lg)),
        Part(
            GroupMember,
            lambda lg: GroupMember.objects.filter(group__competition__season__league=lg),
        ),
        Part(Tie, lambda lg: Tie.objects.filter(competition__season__league=lg)),
        Part(TieFrame, lambda lg: TieFrame.objects.filter(tie__competition__season__league=lg)),
        Part(
            CompetitionLog,
            lambda lg: CompetitionLog.objects.filter(competition__season__league=lg),
        ),
    ),
)

#: What an honour's `source` ("division:12", "competition:5") names, by its prefix.
_HONOUR_SOURCES = {
    "division": Division._meta.label_lower,
    "competition": Competition._meta.label_lower,
    "award": Award._meta.label_lower,
}


def _honour_source(values: dict[str, Any], keys: dict[str, dict[int, int]]) -> None:
    """An honour's source names its division or competition by key: the restored one's
    (so recording the honour again still replaces its line)."""
    prefix, _, old = str(values.get("source") or "").partition(":")
    label = _HONOUR_SOURCES.get(prefix)
    if label is not None and digits(old):
        new = keys.get(label, {}).get(int(old))
        if new is not None:
            values["source"] = f"{prefix}:{new}"


HONOURS = Section(
    name="honours",
    description="The roll of honour (each line under the name it was won with, its "
    "players) and the seasons' award definitions (their standings are computed from the "
    "statistics).",
    parts=(
        Part(Award, lambda lg: Award.objects.filter(season__league=lg)),
        Part(Honour, lambda lg: Honour.objects.filter(league=lg), remap=_honour_source),
    ),
)

#: Labels models had in archives written before they moved app (old → new): a restore
#: reads their rows under the new label. Archives are written under the current one.
MOVED_LABELS: dict[str, str] = {"leagues.award": Award._meta.label_lower}

#: The archive's sections, in order. Match formats join here.
SECTIONS: list[Section] = [LEAGUE, MATCH_NIGHTS, COMPETITIONS, HONOURS]


def register_section(section: Section, *, after: str | None = None) -> None:
    """Add a section (after the named one, or at the end). Names are unique."""
    if any(s.name == section.name for s in SECTIONS):
        raise ValueError(f"an archive section named {section.name!r} exists")
    if after is None:
        SECTIONS.append(section)
        return
    index = next(i for i, s in enumerate(SECTIONS) if s.name == after)
    SECTIONS.insert(index + 1, section)
