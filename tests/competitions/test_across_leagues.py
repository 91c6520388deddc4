"""Competitions across leagues (docs/competitions.md, "Across leagues"): a county's
championship draws teams from its member leagues, is played on the pad as a fixture
between teams of two leagues, settled on aggregate ("on total scores made"), and goes on
the roll of honour of every member league taking part."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from types import SimpleNamespace

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from competitions.models import Competition, Tie
from competitions.results import team_tie_winner
from competitions.services.corrections import tie_correct
from competitions.services.draws import draw_commit
from competitions.services.entries import entry_create
from competitions.services.pad import tie_frame_open
from competitions.services.setup import competition_create
from competitions.services.ties import tie_record_paper
from frames.engine import frame_parties, frame_setup, side_result
from frames.management.commands.demo_match_nights import enter_shots
from frames.matchnight import drawing, seeding, signoff, squads
from frames.models import Frame, Match
from frames.pad import events
from leagues.fixtures.services import fixture_move
from leagues.models import Fixture, Honour, Organisation, OrganisationRole, Registration, Season
from marker.errors import DomainError
from rules import get as get_game
from rules import replay
from rules.simulate import simulate_game
from tests.conftest import make_league
from tests.factories import PlayerFactory, UserFactory

from .helpers import NOW, drawn

pytestmark = pytest.mark.django_db

BB = "bar_billiards_4pin"


@pytest.fixture
def county(db):
    norwich = make_league(teams_per_division=2)
    yarmouth = make_league(teams_per_division=2)
    organisation = Organisation.objects.create(
        name="Norfolk County Bar Billiards Association", slug="norfolk"
    )
    organisation.leagues.set([norwich.season.league, yarmouth.season.league])
    officer = UserFactory(username="county-officer")
    OrganisationRole.objects.create(
        organisation=organisation, user=officer, role=OrganisationRole.Role.COMPETITIONS_OFFICER
    )
    return SimpleNamespace(
        norwich=norwich, yarmouth=yarmouth, organisation=organisation, officer=officer
    )


def _championship(county, **kwargs) -> Competition:
    return competition_create(
        actor=county.officer,
        organisation=county.organisation,
        game_id=BB,
        name="County Championship",
        kind="team_knockout",
        settle_by=kwargs.pop("settle_by", "aggregate"),
        now=NOW,
        **kwargs,
    )


# ------------------------------------------------------------------ the rule


@pytest.mark.parametrize(
    ("settle_by", "frames", "scores", "winner"),
    [
        # Norfolk's A team: "on total scores made, 22,770 to 20,560", though 4-5 on frames
        ("aggregate", (4, 5), (22770, 20560), "home"),
        ("frames", (4, 5), (22770, 20560), "away"),
        ("aggregate", (5, 4), (20560, 22770), "away"),
        # level on aggregate: more frames; level on both: nobody (the officer awards it)
        ("aggregate", (4, 5), (21000, 21000), "away"),
        ("aggregate", (4.5, 4.5), (21000, 21000), None),
        # level on frames, the frames rule looks at the aggregate
        ("frames", (4.5, 4.5), (20000, 21000), "away"),
    ],
)
def test_a_team_tie_is_settled_by_the_competitions_rule(settle_by, frames, scores, winner):
    fixture = SimpleNamespace(
        home_frames=Decimal(str(frames[0])),
        away_frames=Decimal(str(frames[1])),
        home_score=scores[0],
        away_score=scores[1],
    )
    competition = Competition(settle_by=settle_by)
    assert team_tie_winner(competition, fixture) == winner  # type: ignore[arg-type]


def test_a_competition_is_a_seasons_or_an_organisations_never_both(county):
    with pytest.raises(IntegrityError), transaction.atomic():
        Competition.objects.create(
            season=county.norwich.season,
            organisation=county.organisation,
            name="Both",
            slug="both",
            kind="team_knockout",
            entrant="team",
            created_at=NOW,
        )
    with pytest.raises(DomainError) as refused:
        competition_create(
            actor=county.officer,
            season=county.norwich.season,
            organisation=county.organisation,
            name="Both",
            kind="team_knockout",
        )
    assert refused.value.code == "bad_owner"


def test_aggregate_settlement_is_for_team_ties(county):
    with pytest.raises(DomainError) as refused:
        competition_create(
            actor=county.officer,
            organisation=county.organisation,
            game_id=BB,
            name="County Singles",
            kind="singles",
            settle_by="aggregate",
        )
    assert refused.value.code == "bad_settle_by"
    with pytest.raises(DomainError) as refused:
        competition_create(
            actor=county.officer,
            organisation=county.organisation,
            game_id="tiddlywinks",
            name="County Cup",
            kind="team_knockout",
        )
    assert refused.value.code == "bad_game"


# ------------------------------------------------------------------ who may


def test_who_runs_an_organisations_competition(county, client):
    norwich, outsider = county.norwich, county.norwich.outsider
    for actor in (norwich.secretary, outsider, norwich.captain):
        with pytest.raises(DomainError) as refused:
            competition_create(
                actor=actor,
                organisation=county.organisation,
                game_id=BB,
                name="County Championship",
                kind="team_knockout",
            )
        assert refused.value.status == 403
    championship = _championship(county)
    # the draw is the officer's: a member league's secretary is refused it
    with pytest.raises(DomainError) as refused:
        draw_commit(actor=norwich.secretary, competition=championship, commitment="", now=NOW)
    assert refused.value.status == 403
    # the API: anyone reads; the officer creates, a member league's secretary may not
    url = reverse("api-organisation-competitions", args=["norfolk"])
    assert client.get(url).json()[0]["settle_by"] == "aggregate"
    client.force_login(norwich.secretary)
    answer = client.post(
        url, {"name": "Plate", "kind": "team_knockout", "game_id": BB}, "application/json"
    )
    assert answer.status_code == 403
    client.force_login(county.officer)
    answer = client.post(
        url,
        {"name": "County Plate", "kind": "team_knockout", "game_id": BB},
        "application/json",
    )
    assert answer.status_code == 201, answer.json()
    assert answer.json()["organisation"] == county.organisation.pk
    assert answer.json()["season"] is None
    assert client.get(reverse("api-organisation-competitions", args=["nowhere"])).status_code == 404


def test_who_enters_a_team(county):
    championship = _championship(county)
    norwich, yarmouth = county.norwich, county.yarmouth
    # a member league's secretary enters their own league's team, not another league's
    entry_create(actor=norwich.secretary, competition=championship, team=norwich.teams[0], now=NOW)
    with pytest.raises(DomainError) as refused:
        entry_create(
            actor=norwich.secretary, competition=championship, team=yarmouth.teams[0], now=NOW
        )
    assert (refused.value.code, refused.value.status) == ("secretary_enters", 403)
    assert "Norfolk County Bar Billiards Association's officers" in refused.value.message
    # a captain of a secretary-entered championship is refused; the officer enters anyone's
    with pytest.raises(DomainError) as refused:
        entry_create(actor=yarmouth.captain, competition=championship, team=yarmouth.teams[0])
    assert refused.value.status == 403
    entry_create(actor=county.officer, competition=championship, team=yarmouth.teams[0], now=NOW)
    assert championship.entries.count() == 2


# ------------------------------------------------------------------ who may enter


def test_eligibility_is_checked_by_the_entrants_own_league(county):
    championship = _championship(county)
    cromer = make_league(teams_per_division=2, players_per_team=2)
    cromer.season.league.name = "Cromer League"
    cromer.season.league.save(update_fields=["name"])
    with pytest.raises(DomainError) as refused:
        entry_create(actor=county.officer, competition=championship, team=cromer.teams[0])
    assert refused.value.code == "not_member_league"
    assert "plays in Cromer League, which is not a member of Norfolk" in refused.value.message

    yarmouth_season = county.yarmouth.season
    yarmouth_season.status = Season.Status.FINISHED
    yarmouth_season.save(update_fields=["status"])
    with pytest.raises(DomainError) as refused:
        entry_create(actor=county.officer, competition=championship, team=county.yarmouth.teams[1])
    assert refused.value.code == "not_current_season"
    assert yarmouth_season.league.name in refused.value.message

    norwich_season = county.norwich.season
    norwich_season.game_id = "english_billiards"
    norwich_season.save(update_fields=["game_id"])
    with pytest.raises(DomainError) as refused:
        entry_create(actor=county.officer, competition=championship, team=county.norwich.teams[1])
    assert refused.value.code == "wrong_game"
    assert norwich_season.league.name in refused.value.message
    assert championship.entries.count() == 0


def test_a_players_eligibility_names_their_own_league(county):
    norwich = county.norwich
    singles = competition_create(
        actor=county.officer,
        organisation=county.organisation,
        game_id=BB,
        name="County Singles",
        kind="singles",
        now=NOW,
    )
    member = Registration.objects.filter(team=norwich.teams[0], status="active").first()
    assert member is not None
    entry = entry_create(actor=county.officer, competition=singles, player=member.player, now=NOW)
    assert entry.player_id == member.player_id
    cromer = make_league(teams_per_division=2, players_per_team=1)
    cromer.season.league.name = "Cromer League"
    cromer.season.league.save(update_fields=["name"])
    outsider = Registration.objects.filter(team=cromer.teams[0], status="active").first()
    assert outsider is not None
    with pytest.raises(DomainError) as refused:
        entry_create(actor=county.officer, competition=singles, player=outsider.player)
    assert refused.value.code == "not_registered"
    assert "registered in Cromer League, not with a team of a member league" in (
        refused.value.message
    )
    with pytest.raises(DomainError) as refused:
        entry_create(actor=county.officer, competition=singles, player=PlayerFactory())
    assert refused.value.code == "not_registered"


# ------------------------------------------------------------------ the walk


def _frame_result(frame: Frame, shots) -> tuple[int, int]:
    game = get_game(frame.game_id)
    outcome = game.outcome(replay(game, frame_setup(frame), shots))
    result = side_result(outcome, frame_parties(frame))
    return result.home or 0, result.away or 0


def _shots_for(frame: Frame, home_wins: bool, big: bool):
    """Seeded shots for a frame that the home side wins (or loses), by a wide margin
    (`big`) or a narrow one: the home side takes fewer frames but more points."""
    best = None
    for seed in range(40):
        shots = simulate_game(frame.game_id, frame_setup(frame), seed=seed)
        home, away = _frame_result(frame, shots)
        if (home > away) != home_wins or home == away:
            continue
        margin = abs(home - away)
        if best is None or (margin > best[0] if big else margin < best[0]):
            best = (margin, shots)
    assert best is not None
    return best[1]


def test_a_county_championship_drawn_played_on_the_pad_and_settled_on_aggregate(county, client):
    norwich, yarmouth = county.norwich, county.yarmouth
    championship = _championship(county)
    entry_create(actor=norwich.secretary, competition=championship, team=norwich.teams[0], now=NOW)
    entry_create(actor=yarmouth.secretary, competition=championship, team=yarmouth.teams[0])
    drawn(championship, county.officer)
    tie = Tie.objects.select_related("fixture", "home__team", "away__team").get(
        competition=championship
    )
    fixture = tie.fixture
    assert fixture is not None and tie.home is not None and tie.away is not None
    home, away = tie.home.team, tie.away.team
    # a fixture between teams of two leagues, in the home team's season
    assert fixture.season_id == home.season_id != away.season_id
    assert fixture.division_id is None and fixture.kind == "cup"

    match = squads.match_open(fixture=fixture, actor=home.captain, now=NOW)
    for side, team in (("home", home), ("away", away)):
        players = [r.player for r in team.registrations.filter(status="active").order_by("id")]
        squads.match_mark_present(
            match=match, side=side, players=players[:6], actor=team.captain, now=NOW
        )
        seeding.match_commit(match=match, side=side, actor=team.captain, now=NOW)
    drawing.match_draw(match=match, actor=away.captain, now=NOW + timedelta(minutes=5))
    frames = list(
        Frame.objects.filter(match=match, status=Frame.Status.SCHEDULED).order_by("order")
    )
    assert frames and all(f.referee_id for f in frames)  # the rotation found referees
    # home wins fewer frames, by wide margins; away the rest, narrowly
    home_frames = (len(frames) - 1) // 2
    clock = NOW + timedelta(minutes=10)
    for index, frame in enumerate(frames):
        shots = _shots_for(frame, home_wins=index < home_frames, big=index < home_frames)
        clock = enter_shots(frame.pk, shots, user=home.captain, clock=clock, namespace="county")
        # the pad's confirmation, by a captain of the other league's team
        events.frame_confirm(frame_id=frame.pk, seq=len(shots), user=away.captain, now=clock)
    match.refresh_from_db()
    signoff.match_confirm(match=match, side="home", actor=home.captain, now=clock)
    signoff.match_confirm(match=match, side="away", actor=away.captain, now=clock)
    assert Match.objects.get(pk=match.pk).status == Match.Status.CONFIRMED

    fixture.refresh_from_db()
    assert fixture.home_frames < fixture.away_frames  # fewer frames ...
    assert fixture.home_score > fixture.away_score  # ... but more points: home wins
    tie.refresh_from_db()
    championship.refresh_from_db()
    assert (tie.status, tie.winner_id) == (Tie.Status.PLAYED, tie.home_id)
    assert (championship.stage, championship.winner_id, championship.runner_up_id) == (
        Competition.Stage.FINISHED,
        tie.home_id,
        tie.away_id,
    )
    # on the roll of honour of both leagues, each in its own season
    for small in (norwich, yarmouth):
        league = small.season.league
        lines = Honour.objects.filter(league=league, title="County Championship")
        assert {(h.position, h.name, h.season_id) for h in lines} == {
            ("winner", home.name, small.season.pk),
            ("runner_up", away.name, small.season.pk),
        }
        page = client.get(reverse("league-honours", args=[league.slug]))
        assert page.status_code == 200
        assert "County Championship" in page.content.decode()
    # the competition's page says how it was settled and who won
    page = client.get(reverse("competition-detail", args=[championship.pk])).content.decode()
    assert "Aggregate score over all frames" in page and f"<strong>{home.name}</strong>" in page
    # the tie's page, and its match under the home team's league
    tie_page = client.get(reverse("tie-detail", args=[tie.pk]))
    assert tie_page.status_code == 200
    assert fixture.get_absolute_url() in tie_page.content.decode()
    assert client.get(fixture.get_absolute_url()).status_code == 200


# ------------------------------------------------------------------ the pages


def test_the_pages_link_the_leagues_and_the_county(county, client, django_assert_num_queries):
    championship = _championship(county)
    for small in (county.norwich, county.yarmouth):
        entry_create(actor=county.officer, competition=championship, team=small.teams[0])
    drawn(championship, county.officer)
    _championship(county)  # a second, still taking entries

    url = reverse("organisation-competitions", args=["norfolk"])
    with django_assert_num_queries(3):  # the organisation, its competitions, the site's notices
        page = client.get(url)
    assert page.status_code == 200 and page.content.decode().count("County Championship") == 2
    with django_assert_num_queries(2):
        panel = client.get(url, {"panel": 1})
    assert reverse("competition-detail", args=[championship.pk]) in panel.content.decode()
    assert client.get(reverse("organisation-competitions", args=["nowhere"])).status_code == 404
    home = client.get(reverse("organisation-home", args=["norfolk"])).content.decode()
    assert url in home  # the organisation's page loads the list in place

    for small in (county.norwich, county.yarmouth):
        season_url = reverse("season-competitions", args=[small.season.pk])
        # the season, its competitions, the county's, the notices
        with django_assert_num_queries(4):
            page = client.get(season_url).content.decode()
        assert "County and association competitions" in page
        assert reverse("competition-detail", args=[championship.pk]) in page
        assert (
            reverse("competition-detail", args=[championship.pk])
            in client.get(season_url, {"panel": 1}).content.decode()
        )

    detail = reverse("competition-detail", args=[championship.pk])
    # the competition and its organisation, the member leagues, the bracket's three, notices
    with django_assert_num_queries(6):
        page = client.get(detail).content.decode()
    assert "Norfolk County Bar Billiards Association" in page
    for small in (county.norwich, county.yarmouth):
        assert small.season.league.name in page


def test_a_county_singles_between_players_of_two_leagues(county, client):
    """Players enter from their own leagues; a tie's frame opens on the pad at the county's
    game; the final goes on both leagues' rolls."""
    singles = competition_create(
        actor=county.officer,
        organisation=county.organisation,
        game_id=BB,
        name="County Singles",
        kind="singles",
        best_of=3,
        now=NOW,
    )
    norwich_player = Registration.objects.filter(team=county.norwich.teams[0]).first().player
    yarmouth_player = Registration.objects.filter(team=county.yarmouth.teams[0]).first().player
    # each by their own league's secretary
    entry_create(
        actor=county.norwich.secretary, competition=singles, player=norwich_player, now=NOW
    )
    entry_create(
        actor=county.yarmouth.secretary, competition=singles, player=yarmouth_player, now=NOW
    )
    drawn(singles, county.officer)
    tie = Tie.objects.get(competition=singles)
    opened = tie_frame_open(actor=county.officer, tie=tie, now=NOW)
    assert opened.frame is not None and opened.frame.game_id == BB
    tie.refresh_from_db()
    tie_record_paper(
        actor=county.officer,
        tie=tie,
        frames=[{"home": 4000, "away": 2000}, {"home": 3500, "away": 1000}],
        now=NOW,
    )
    singles.refresh_from_db()
    assert singles.stage == Competition.Stage.FINISHED
    for small, player in (
        (county.norwich, norwich_player),
        (county.yarmouth, yarmouth_player),
    ):
        lines = Honour.objects.filter(league=small.season.league, title="County Singles")
        assert lines.count() == 2
        assert {h.detail for h in lines if h.position == "winner"} == {
            "Norfolk County Bar Billiards Association"
        }
        assert player.public_name in {h.name for h in lines}


def test_a_county_tie_is_not_moved_onto_the_away_teams_own_league_night(county):
    championship = _championship(county)
    for small in (county.norwich, county.yarmouth):
        entry_create(actor=county.officer, competition=championship, team=small.teams[0])
    drawn(championship, county.officer)
    tie = Tie.objects.select_related("fixture__away").get(competition=championship)
    assert tie.fixture is not None
    away = tie.fixture.away
    own = away.home_fixtures.exclude(pk=tie.fixture.pk).order_by("pk").first()
    assert own is not None and own.season_id != tie.fixture.season_id
    # the away team's own league night, on a night the home team is free
    night = date(2027, 6, 1)
    Fixture.objects.filter(pk=own.pk).update(date=night)
    with pytest.raises(DomainError) as refused:
        fixture_move(fixture=tie.fixture, new_date=night)
    assert refused.value.code == "team_busy"


def test_the_county_officer_corrects_a_county_ties_match(county):
    """A county tie's match, keyed in from paper and signed off by both captains, is
    corrected by the county's officer (settled again) and decided again on aggregate; a
    member league's secretary may not."""
    championship = _championship(county)
    for small in (county.norwich, county.yarmouth):
        entry_create(actor=county.officer, competition=championship, team=small.teams[0])
    drawn(championship, county.officer)
    tie = Tie.objects.select_related("fixture", "home__team", "away__team").get(
        competition=championship
    )
    assert tie.fixture is not None and tie.home is not None and tie.away is not None
    home, away = tie.home.team, tie.away.team
    match = squads.match_open(fixture=tie.fixture, actor=home.captain, now=NOW)
    for side, team in (("home", home), ("away", away)):
        players = [r.player for r in team.registrations.filter(status="active").order_by("id")]
        squads.match_mark_present(
            match=match, side=side, players=players[:6], actor=team.captain, now=NOW
        )
        seeding.match_commit(match=match, side=side, actor=team.captain, now=NOW)
    drawing.match_draw(match=match, actor=home.captain, now=NOW + timedelta(minutes=5))
    frames = list(Frame.objects.filter(match=match).exclude(status=Frame.Status.CONCEDED))
    later = NOW + timedelta(hours=2)
    signoff.match_key_in_paper(
        match=match, scores={f.number: (400, 900) for f in frames}, actor=home.captain, now=later
    )
    for side, team in (("home", home), ("away", away)):
        signoff.match_confirm(match=match, side=side, actor=team.captain, now=later)
    tie.refresh_from_db()
    assert tie.winner_id == tie.away_id
    # corrected: home wins one frame by a mile, away the rest narrowly: home on aggregate
    scores = {f.number: (400, 410) for f in frames}
    scores[frames[0].number] = (9000, 100)
    # the away team's league's secretary is no officer of the county tie
    secretary = next(
        small.secretary
        for small in (county.norwich, county.yarmouth)
        if small.season.pk == away.season_id
    )
    with pytest.raises(DomainError) as refused:
        tie_correct(
            actor=secretary, tie=tie, reason="sheet misread", match_frames=scores, now=later
        )
    assert refused.value.status == 403
    tie_correct(
        actor=county.officer, tie=tie, reason="sheet misread", match_frames=scores, now=later
    )
    tie.refresh_from_db()
    championship.refresh_from_db()
    assert tie.winner_id == tie.home_id == championship.winner_id
    lines = Honour.objects.filter(title="County Championship", position="winner")
    assert {h.name for h in lines} == {home.name} and lines.count() == 2
