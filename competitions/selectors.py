"""The reads of a competition: its bracket and its group tables, each in a constant
number of queries whatever the number of entrants (the pages and the API use them)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Prefetch, Q, QuerySet, Sum

from .models import Competition, CompetitionLog, Entry, Group, GroupMember, Round, Tie, TieFrame
from .standings import GroupTable, rank_group

ENTRY_JOINS = ("team", "player", "partner")
TIE_JOINS = (
    *(f"{side}__{j}" for side in ("home", "away") for j in ENTRY_JOINS),
    # a team's league, which an organisation's bracket names (joins, no extra query)
    "home__team__season__league",
    "away__team__season__league",
    "winner",
    "fixture",
    "round",
)


def with_result(ties: QuerySet[Tie]) -> QuerySet[Tie]:
    """The ties with their frames' tally (`Tie.result` of an individual tie), in the same
    query."""
    won = Q(frames__winner__in=("home", "away"))
    return ties.annotate(
        won_frames=Count("frames", filter=won),
        home_won=Count("frames", filter=Q(frames__winner="home")),
        away_won=Count("frames", filter=Q(frames__winner="away")),
        home_total=Sum("frames__home_score", filter=won),
        away_total=Sum("frames__away_score", filter=won),
    )


def competitions_of(season: Any) -> QuerySet[Competition]:
    return Competition.objects.filter(season=season).select_related("season", "plate")


def competitions_of_organisation(organisation: Any) -> QuerySet[Competition]:
    return Competition.objects.filter(organisation=organisation).select_related(
        "organisation", "plate"
    )


def organisations_competitions_for_league(league: Any) -> QuerySet[Competition]:
    """The competitions of the organisations a league belongs to (its competitions page
    links to them)."""
    return (
        Competition.objects.filter(organisation__leagues=league)
        .select_related("organisation", *(f"winner__{j}" for j in ENTRY_JOINS))
        .order_by("organisation__name", "name")
    )


def entries_of(competition: Competition) -> QuerySet[Entry]:
    return (
        Entry.objects.filter(competition=competition)
        .select_related(*ENTRY_JOINS)
        .prefetch_related("fee_lines")
        .order_by("id")
    )


@dataclass
class BracketRound:
    round: Round
    ties: list[Tie]


@dataclass
class Bracket:
    competition: Competition
    rounds: list[BracketRound]
    winner: Entry | None
    runner_up: Entry | None


def bracket(competition: Competition) -> Bracket:
    """Every knock-out round with its ties in slot order, entrants and results joined:
    three queries, whatever the number of entrants."""
    rounds = list(Round.objects.filter(competition=competition).order_by("number"))
    ties = with_result(
        Tie.objects.filter(competition=competition, round__isnull=False)
        .select_related(*TIE_JOINS)
        .order_by("round_id", "slot")
    )
    by_round: dict[int, list[Tie]] = defaultdict(list)
    for tie in ties:
        by_round[tie.round_id].append(tie)  # type: ignore[index]
    entries = (
        {
            e.pk: e
            for e in Entry.objects.filter(
                pk__in=[pk for pk in (competition.winner_id, competition.runner_up_id) if pk]
            ).select_related(*ENTRY_JOINS)
        }
        if (competition.winner_id or competition.runner_up_id)
        else {}
    )
    return Bracket(
        competition=competition,
        rounds=[BracketRound(r, by_round.get(r.pk, [])) for r in rounds],
        winner=entries.get(competition.winner_id) if competition.winner_id else None,
        runner_up=entries.get(competition.runner_up_id) if competition.runner_up_id else None,
    )


def group_tables(competition: Competition) -> list[GroupTable]:
    """Every group's table with its matches: three queries."""
    groups = list(
        Group.objects.filter(competition=competition)
        .order_by("number")
        .prefetch_related(
            Prefetch(
                "members",
                queryset=GroupMember.objects.select_related(
                    *(f"entry__{j}" for j in ENTRY_JOINS)
                ).order_by("position"),
            ),
            Prefetch(
                "ties",
                queryset=with_result(Tie.objects.select_related(*TIE_JOINS).order_by("slot")),
            ),
        )
    )
    tables = []
    for group in groups:
        table = rank_group(group, list(group.members.all()), list(group.ties.all()))
        tables.append(table)
    return tables


def group_table(group: Group) -> GroupTable:
    members = list(
        GroupMember.objects.filter(group=group).select_related(
            *(f"entry__{j}" for j in ENTRY_JOINS)
        )
    )
    return rank_group(group, members, with_result(Tie.objects.filter(group=group)))


def tie_detail(tie_id: int) -> Tie:
    """A tie with what its page and its result card show: the entrants, the competition
    and its league, its frames with their pad frames (3 queries)."""
    return (
        Tie.objects.select_related(*TIE_JOINS, "competition__season__league", "group")
        .prefetch_related(Prefetch("frames", queryset=TieFrame.objects.select_related("frame")))
        .get(pk=tie_id)
    )


def tie_corrections(tie: Tie) -> list[CompetitionLog]:
    """The tie's corrections, oldest first (each with its reason and what it moved)."""
    return list(CompetitionLog.objects.filter(tie=tie, action="corrected").order_by("at", "id"))
