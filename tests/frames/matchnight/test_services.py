"""Match night through its services: squads, the seed's commit–reveal, the draw, re-draws,
the order of play and referees. Against the real database; retries called twice."""

from __future__ import annotations

import pytest

from frames.draw import commitment, derive_seed, draw_match, validate_draw
from frames.matchnight import common, drawing, ordering, seeding, signoff, squads
from frames.models import Frame, FrameEvent, FramePlayer, Match, MatchLog, Presence
from leagues.models import Registration
from leagues.teams import services as team_services
from tests.factories import PlayerFactory, make_site_admin
from tests.frames.matchnight_helpers import (
    NIGHT,
    as_draw,
    captain,
    drawn,
    fixture_of,
    frames_of,
    later,
    mark,
    open_match,
    ready,
    refused,
    roster,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def league(league_of_the_module):
    """Built once for this module: its tests only read it, and their writes roll back."""
    return league_of_the_module


# --------------------------------------------------------------------------- opening


def test_opening_match_night_takes_the_leagues_game_and_commits_the_server(league):
    match = open_match(league)
    again = squads.match_open(fixture=fixture_of(league), actor=league.other_captain)
    assert again.pk == match.pk
    assert match.game_id == "bar_billiards_4pin"
    assert match.status == Match.Status.SETUP
    assert match.server_commitment == commitment(match.server_secret)
    assert list(match.log.values_list("action", flat=True)) == ["opened"]


def test_an_outsider_cannot_open_match_night(league):
    refused("not_captain", squads.match_open, fixture=fixture_of(league), actor=league.outsider)


# --------------------------------------------------------------------------- squads


def test_captain_marks_roster_players_present_and_again_changes_nothing(league):
    match = open_match(league)
    players = roster(league, "home")[:6]
    for _ in range(2):
        squads.match_mark_present(
            match=match, side="home", players=players, actor=league.captain, now=NIGHT
        )
    present = Presence.objects.filter(match=match, side="home")
    assert {p.player_id for p in present} == {p.pk for p in players}
    assert not any(p.drafted for p in present)
    assert match.log.filter(action="presence").count() == 1


def test_vice_captain_and_secretary_may_mark_a_side_present(league):
    match = open_match(league)
    squads.match_mark_present(
        match=match, side="home", players=roster(league, "home")[:5], actor=league.vice_captain
    )
    squads.match_mark_present(
        match=match, side="away", players=roster(league, "away")[:5], actor=league.secretary
    )
    assert Presence.objects.filter(match=match).count() == 10


@pytest.mark.parametrize("who", ["other_captain", "player_user", "outsider"])
def test_only_that_sides_captain_marks_it_present(league, who):
    match = open_match(league)
    error = refused(
        "not_captain",
        squads.match_mark_present,
        match=match,
        side="home",
        players=roster(league, "home")[:6],
        actor=getattr(league, who),
    )
    assert error.status == 403


def test_a_player_of_another_team_cannot_be_marked_present(league):
    match = open_match(league)
    stranger = roster(league, "away")[0]  # plays for the away team
    error = refused(
        "plays_for_another_team",
        squads.match_mark_present,
        match=match,
        side="home",
        players=[*roster(league, "home")[:5], stranger],
        actor=league.captain,
    )
    assert league.teams[1].name in error.message


def test_a_player_from_another_division_cannot_be_drafted(league):
    match = open_match(league)
    other = league.teams[5].registrations.first().player
    refused(
        "plays_for_another_team",
        squads.match_mark_present,
        match=match,
        side="home",
        players=[other],
        actor=league.captain,
    )


def test_a_drafted_player_who_played_for_another_team_is_refused(league):
    match = open_match(league)
    drifter = PlayerFactory(name="Drifter")
    team_services.registration_mark_played(team=league.teams[2], player=drifter, now=NIGHT)
    team_services.roster_remove_player(registration=drifter.registrations.get())
    refused(
        "plays_for_another_team",
        squads.match_mark_present,
        match=match,
        side="away",
        players=[drifter],
        actor=league.other_captain,
    )


def test_a_player_free_this_season_is_drafted_and_registered_only_when_drawn(league):
    match = open_match(league)
    guest = PlayerFactory(name="Guest Star")
    home = roster(league, "home")[:5]
    squads.match_mark_present(
        match=match, side="home", players=[*home, guest], actor=league.captain, now=NIGHT
    )
    presence = Presence.objects.get(match=match, player=guest)
    assert presence.drafted
    assert not Registration.objects.filter(player=guest).exists()
    squads.match_mark_present(
        match=match, side="away", players=roster(league, "away"), actor=league.other_captain
    )
    ready(league, match)
    drawing.match_draw(match=match, actor=league.captain, now=later(5))
    reg = Registration.objects.get(player=guest)
    assert (reg.team, reg.kind) == (league.teams[0], Registration.Kind.DRAFTED)
    assert reg.first_played_at == later(5)


def test_newcomers_by_name_join_the_roster_as_drafted(league):
    match = open_match(league)
    for _ in range(2):  # a retried form does not make her twice
        squads.match_mark_present(
            match=match,
            side="away",
            players=roster(league, "away")[:4],
            new_players=["Nina  Newcomer"],
            actor=league.other_captain,
        )
    presence = Presence.objects.get(match=match, player__name="Nina Newcomer")
    assert presence.drafted and presence.side == "away"
    assert presence.player.registrations.get().kind == Registration.Kind.DRAFTED


def test_a_newcomer_typed_by_the_name_of_a_player_drafted_elsewhere_is_refused(league):
    """Rule 8 on match night: `new_players` finds the existing player, so a name typed
    again is not a new person who slips past the drafted-player check."""
    match = open_match(league)
    elsewhere = league.teams[2].registrations.select_related("player").first().player
    before = Presence.objects.count(), Registration.objects.count()
    error = refused(
        "plays_for_another_team",
        squads.match_mark_present,
        match=match,
        side="away",
        players=roster(league, "away")[:5],
        new_players=[f" {elsewhere.name.lower()} "],
        actor=league.other_captain,
    )
    assert league.teams[2].name in error.message
    assert (Presence.objects.count(), Registration.objects.count()) == before
    free = PlayerFactory(name="Fred Free")
    error = refused(
        "same_name",
        squads.match_mark_present,
        match=match,
        side="away",
        players=roster(league, "away")[:5],
        new_players=["fred free"],
        actor=league.other_captain,
    )
    assert "draft them from the list" in error.message
    assert not free.registrations.exists()


def test_a_player_present_for_one_side_cannot_be_present_for_the_other(league):
    match = open_match(league)
    guest = PlayerFactory()
    squads.match_mark_present(match=match, side="home", players=[guest], actor=league.captain)
    refused(
        "present_for_other_side",
        squads.match_mark_present,
        match=match,
        side="away",
        players=[guest],
        actor=league.other_captain,
    )


def test_changing_the_squad_withdraws_that_sides_ready(league):
    match = mark(league, open_match(league))
    seeding.match_commit(match=match, side="home", actor=league.captain)
    squads.match_mark_present(
        match=match, side="home", players=roster(league, "home")[:5], actor=league.captain
    )
    match.refresh_from_db()
    assert match.home_commitment == "" and match.home_secret == ""


def test_changing_the_squad_once_both_are_ready_starts_ready_again_for_both(league):
    """A side cannot swap its commitment alone once the other has committed, not even by
    editing the squad: both sides' Ready goes, and the server commits to a new secret."""
    match = ready(league, mark(league, open_match(league)))
    old_server = match.server_commitment
    squads.match_mark_present(
        match=match, side="home", players=roster(league, "home")[:5], actor=league.captain
    )
    match.refresh_from_db()
    assert match.home_commitment == match.away_commitment == ""
    assert match.home_secret == match.away_secret == ""
    assert match.server_commitment not in ("", old_server)
    assert match.server_commitment == commitment(match.server_secret)


def test_squads_are_fixed_once_drawn(league):
    match = drawn(league)
    refused(
        "already_drawn",
        squads.match_mark_present,
        match=match,
        side="home",
        players=roster(league, "home")[:5],
        actor=league.captain,
    )


# --------------------------------------------------------------------------- commit–reveal


def test_ready_needs_a_squad_first(league):
    match = open_match(league)
    refused("no_players", seeding.match_commit, match=match, side="home", actor=league.captain)


def test_nobody_can_draw_before_all_three_have_committed(league):
    match = mark(league, open_match(league))
    seeding.match_commit(match=match, side="home", actor=league.captain)
    error = refused("not_all_committed", drawing.match_draw, match=match, actor=league.captain)
    assert league.teams[1].name in error.message


def test_nobody_reveals_before_all_three_have_committed(league):
    match = mark(league, open_match(league))
    secret = "a" * 32
    seeding.match_commit(
        match=match, side="home", commitment=commitment(secret), actor=league.captain
    )
    refused(
        "not_all_committed",
        seeding.match_reveal,
        match=match,
        side="home",
        secret=secret,
        actor=league.captain,
    )


def test_a_reveal_that_does_not_match_its_commitment_is_refused(league):
    match = mark(league, open_match(league))
    seeding.match_commit(
        match=match, side="home", commitment=commitment("home-secret"), actor=league.captain
    )
    seeding.match_commit(match=match, side="away", actor=league.other_captain)
    refused(
        "reveal_mismatch",
        seeding.match_reveal,
        match=match,
        side="home",
        secret="another-secret",
        actor=league.captain,
    )
    refused("not_revealed", drawing.match_draw, match=match, actor=league.captain)


def test_a_malformed_commitment_is_refused(league):
    match = mark(league, open_match(league))
    refused(
        "bad_commitment",
        seeding.match_commit,
        match=match,
        side="home",
        commitment="not-a-hash",
        actor=league.captain,
    )


def test_only_the_sides_captain_commits_or_reveals_for_it(league):
    match = mark(league, open_match(league))
    refused(
        "not_captain", seeding.match_commit, match=match, side="home", actor=league.other_captain
    )
    refused("not_captain", seeding.match_commit, match=match, side="home", actor=league.secretary)


def test_device_secrets_give_the_seed_derived_from_all_three(league):
    match = mark(league, open_match(league))
    secrets = {"home": "h" * 32, "away": "b" * 32}
    for side, secret in secrets.items():
        for _ in range(2):  # a retried Ready changes nothing
            seeding.match_commit(
                match=match, side=side, commitment=commitment(secret), actor=captain(league, side)
            )
    for side, secret in secrets.items():
        for _ in range(2):  # and so does a retried reveal
            seeding.match_reveal(match=match, side=side, secret=secret, actor=captain(league, side))
    match = drawing.match_draw(match=match, actor=league.other_captain, now=later(3))
    assert match.seed == derive_seed(secrets["home"], secrets["away"], match.server_secret)
    assert MatchLog.objects.filter(match=match, action="committed").count() == 2
    assert MatchLog.objects.filter(match=match, action="revealed").count() == 2


def test_a_secret_made_by_the_server_is_held_from_the_start(league):
    match = ready(league, mark(league, open_match(league)))
    match.refresh_from_db()
    assert match.home_commitment == commitment(match.home_secret)
    made_by = MatchLog.objects.filter(match=match, action="committed").values_list(
        "detail__made_by", flat=True
    )
    assert list(made_by) == ["server", "server"]


def test_pressing_ready_again_replaces_a_lost_device_commitment(league):
    match = mark(league, open_match(league))
    seeding.match_commit(
        match=match, side="home", commitment=commitment("lost"), actor=league.captain
    )
    seeding.match_commit(match=match, side="home", actor=league.captain)  # server-made now
    match.refresh_from_db()
    assert match.home_commitment == commitment(match.home_secret) != commitment("lost")


def test_a_commitment_is_final_once_the_other_side_has_committed(league):
    match = mark(league, open_match(league))
    seeding.match_commit(
        match=match, side="home", commitment=commitment("home-1"), actor=league.captain
    )
    seeding.match_commit(
        match=match, side="away", commitment=commitment("away-1"), actor=league.other_captain
    )
    for replacement in (commitment("home-2"), ""):  # a device's or a server-made one
        refused(
            "commitment_final",
            seeding.match_commit,
            match=match,
            side="home",
            commitment=replacement,
            actor=league.captain,
        )
    # The same commitment again (a retried Ready) is still fine.
    seeding.match_commit(
        match=match, side="home", commitment=commitment("home-1"), actor=league.captain
    )
    # Nor can the other side's retried Ready without a commitment swap theirs.
    refused(
        "commitment_final",
        seeding.match_commit,
        match=match,
        side="away",
        actor=league.other_captain,
    )


def test_starting_ready_again_sets_aside_every_secret_of_the_round(league):
    """The way out for a phone that lost its secret once both had committed: both
    captains and the server start afresh, so no secret of the old round counts."""
    match = mark(league, open_match(league))
    for side, secret in (("home", "home-1"), ("away", "away-1")):
        seeding.match_commit(
            match=match, side=side, commitment=commitment(secret), actor=captain(league, side)
        )
    seeding.match_reveal(match=match, side="away", secret="away-1", actor=league.other_captain)
    old_server = Match.objects.get(pk=match.pk).server_commitment
    refused(
        "not_captain",
        seeding.match_restart_ready,
        match=match,
        side="home",
        actor=league.secretary,
    )
    seeding.match_restart_ready(match=match, side="home", actor=league.captain, now=later(1))
    match.refresh_from_db()
    assert (match.home_commitment, match.away_commitment, match.away_secret) == ("", "", "")
    assert match.server_commitment not in ("", old_server)
    assert match.log.filter(action="ready_restarted").count() == 1
    # Each captain is Ready again, with new secrets, and the draw goes ahead on those.
    fresh = (("home", "home-2"), ("away", "away-2"))
    for side, secret in fresh:
        seeding.match_commit(
            match=match, side=side, commitment=commitment(secret), actor=captain(league, side)
        )
    for side, secret in fresh:
        seeding.match_reveal(match=match, side=side, secret=secret, actor=captain(league, side))
    match = drawing.match_draw(match=match, actor=league.captain, now=later(5))
    assert match.seed == derive_seed("home-2", "away-2", match.server_secret)


def test_the_server_commits_at_opening_before_either_captain_and_keeps_that_commitment(league):
    match = open_match(league)
    opened_with = match.server_commitment
    assert opened_with == commitment(match.server_secret)
    mark(league, match)
    secret = "h" * 32
    seeding.match_commit(
        match=match, side="home", commitment=commitment(secret), actor=league.captain
    )
    # No captain reveals while the server (or the other side) has not committed.
    refused(
        "not_all_committed",
        seeding.match_reveal,
        match=match,
        side="home",
        secret=secret,
        actor=league.captain,
    )
    seeding.match_commit(match=match, side="away", actor=league.other_captain)
    seeding.match_reveal(match=match, side="home", secret=secret, actor=league.captain)
    match = drawing.match_draw(match=match, actor=league.captain, now=later(5))
    # The server's secret behind the seed is the one it committed to at opening, logged
    # before any captain's commitment.
    assert match.server_commitment == opened_with == commitment(match.server_secret)
    actions = list(match.log.order_by("at", "id").values_list("action", "detail"))
    assert actions[0] == ("opened", {"game": match.game_id, "server_commitment": opened_with})
    assert [a for a, _ in actions].index("opened") < [a for a, _ in actions].index("committed")


def test_no_secret_is_shown_in_the_admin_before_the_draw(league, client):
    match = ready(league, mark(league, open_match(league)))
    match.refresh_from_db()
    hidden = [match.home_secret, match.away_secret, match.server_secret]
    client.force_login(make_site_admin())  # the Django admin is the site administrator's
    url = f"/admin/frames/match/{match.pk}/change/"
    page = client.get(url).content.decode()
    assert "sealed until the draw" in page
    assert match.server_commitment in page  # the commitments are public
    for secret in hidden:
        assert secret and secret not in page
    # Nor in the match's log, the API, or the match page.
    for address in (
        f"/api/matches/{match.pk}/",
        f"/matches/{match.pk}/",
        "/admin/frames/matchlog/",
    ):
        body = client.get(address).content.decode()
        for secret in hidden:
            assert secret not in body, address
    match = drawing.match_draw(match=match, actor=league.captain, now=later(5))
    page = client.get(url).content.decode()
    for secret in hidden:
        assert secret in page  # public once drawn, to check the seed


# --------------------------------------------------------------------------- the draw


def test_the_draw_makes_nine_frames_that_obey_the_draw_rules(league):
    match = drawn(league)
    frames = frames_of(match)
    assert [f.number for f in frames] == list(range(1, 10))
    assert [f.kind for f in frames] == ["singles"] * 6 + ["doubles"] * 3
    assert {f.game_id for f in frames} == {"bar_billiards_4pin"}
    assert {f.status for f in frames} == {Frame.Status.SCHEDULED}
    assert match.status == Match.Status.DRAWN
    present = common.present_players(match)
    assert validate_draw(as_draw(match), list(present["home"]), list(present["away"])) == []
    for frame in frames:
        size = 1 if frame.kind == "singles" else 2
        assert frame.setup["players"]["home"] and len(frame.setup["players"]["away"]) == size
        assert frame.players.filter(side="home").count() == size
        assert frame.state is None  # the pad starts the frame


def test_referees_never_play_in_the_frame_they_referee(league):
    match = drawn(league)
    for frame in frames_of(match):
        assert frame.referee_id is not None
        assert not frame.players.filter(player_id=frame.referee_id).exists()
        assert Presence.objects.filter(
            match=match, player_id=frame.referee_id, side=frame.referee_side
        ).exists()
    sides = [f.referee_side for f in frames_of(match)]
    assert sides == ["home", "away", "home", "away", "home", "away", "home", "away", "home"]


def test_the_draw_is_recorded_with_the_seed_secrets_hats_and_algorithm(league):
    match = drawn(league)
    entry = MatchLog.objects.get(match=match, action="drawn")
    assert entry.actor == league.captain
    assert entry.detail["seed"] == str(match.seed)
    assert entry.detail["algorithm"] == match.algorithm == "marker-draw-1"
    assert entry.detail["secrets"]["server"] == match.server_secret
    assert entry.detail["draw"]["home_hat"] == match.home_hat
    assert sorted(match.home_hat) == match.home_hat and len(match.away_hat) == 6
    # anyone can replay it from what is recorded
    replay = draw_match(match.home_hat, match.away_hat, match.seed)
    assert replay.to_json()["frames"] == entry.detail["draw"]["frames"]


def test_every_player_drawn_is_marked_as_played_for_their_team(league):
    match = drawn(league)
    played = set(FramePlayer.objects.filter(frame__match=match).values_list("player_id", flat=True))
    regs = Registration.objects.filter(player_id__in=played)
    assert regs.count() == len(played) == 12
    assert all(r.first_played_at == later(5) for r in regs)


def test_drawing_twice_is_refused(league):
    match = drawn(league)
    refused("already_drawn", drawing.match_draw, match=match, actor=league.captain)
    assert Frame.objects.filter(match=match).count() == 9


def test_someone_who_is_not_a_captain_cannot_start_the_draw(league):
    match = ready(league, mark(league, open_match(league)))
    refused("not_captain", drawing.match_draw, match=match, actor=league.player_user)


def test_five_a_side_follows_rule_8(league):
    match = drawn(league, home=5, away=6)
    present = common.present_players(match)
    assert validate_draw(as_draw(match), list(present["home"]), list(present["away"])) == []
    assert any("Rule 8" in note for note in match.draw_notes)


def test_fewer_than_five_needs_both_captains_agreement(league):
    match = ready(league, mark(league, open_match(league), home=4, away=6))
    error = refused("too_few_players", drawing.match_draw, match=match, actor=league.captain)
    assert "both captains" in error.message
    squads.match_agree_short(match=match, side="home", actor=league.captain)
    squads.match_agree_short(match=match, side="home", actor=league.captain)  # retry
    refused("too_few_players", drawing.match_draw, match=match, actor=league.captain)
    squads.match_agree_short(match=match, side="away", actor=league.other_captain)
    match = drawing.match_draw(match=match, actor=league.captain)
    assert match.status == Match.Status.DRAWN
    assert MatchLog.objects.filter(match=match, action="short_agreed").count() == 2


def test_frames_a_short_side_cannot_fill_are_conceded(league):
    match = drawn(league, home=4, away=6, agree=True)
    conceded = [f for f in frames_of(match) if f.status == Frame.Status.CONCEDED]
    assert sorted(f.number for f in conceded) == [5, 6, 9]
    for frame in conceded:
        assert frame.conceded_by == "home"
        assert frame.winner == "away"
        assert frame.referee_id is None
        assert not frame.players.filter(side="home").exists()
    present = common.present_players(match)
    assert validate_draw(as_draw(match), list(present["home"]), list(present["away"])) == []
    assert (match.home_frames, match.away_frames) == (0, 3)


def test_frames_both_short_sides_cannot_fill_are_conceded_by_both(league):
    match = drawn(league, home=4, away=4, agree=True)
    both = [f for f in frames_of(match) if f.conceded_by == "both"]
    assert sorted(f.number for f in both) == [5, 6, 9]
    assert all(f.winner == "" for f in both)
    assert (match.home_frames, match.away_frames) == (0, 0)


def test_the_draw_is_refused_whole_when_a_drafted_player_has_since_played_elsewhere(league):
    match = open_match(league)
    guest = PlayerFactory()
    squads.match_mark_present(
        match=match,
        side="home",
        players=[*roster(league, "home")[:5], guest],
        actor=league.captain,
    )
    squads.match_mark_present(
        match=match, side="away", players=roster(league, "away"), actor=league.other_captain
    )
    ready(league, match)
    # The guest plays for another team before the draw (rule 8 now binds them there).
    team_services.registration_mark_played(team=league.teams[3], player=guest, now=NIGHT)
    refused("plays_for_another_team", drawing.match_draw, match=match, actor=league.captain)


def test_same_secrets_and_squads_give_the_same_draw(league):
    match = mark(league, open_match(league))

    def commit_reveal_draw():
        for side, secret in (("home", "h1" * 16), ("away", "a1" * 16)):
            seeding.match_commit(
                match=match, side=side, commitment=commitment(secret), actor=captain(league, side)
            )
        Match.objects.filter(pk=match.pk).update(
            server_secret="s1" * 16, server_commitment=commitment("s1" * 16)
        )
        for side, secret in (("home", "h1" * 16), ("away", "a1" * 16)):
            seeding.match_reveal(match=match, side=side, secret=secret, actor=captain(league, side))
        drawing.match_draw(match=match, actor=league.captain)
        return [
            (f.number, f.order, f.referee_id, sorted(f.players.values_list("player_id", flat=True)))
            for f in frames_of(match)
        ]

    first = commit_reveal_draw()
    for side in ("home", "away"):
        drawing.match_request_redraw(match=match, side=side, actor=captain(league, side))
    assert commit_reveal_draw() == first


# --------------------------------------------------------------------------- re-draw


def test_a_redraw_needs_both_captains_and_is_logged(league):
    match = drawn(league)
    seed = match.seed
    for _ in range(2):
        match = drawing.match_request_redraw(match=match, side="home", actor=league.captain)
    assert match.status == Match.Status.DRAWN and match.redraw_home_agreed
    assert Frame.objects.filter(match=match).count() == 9
    match = drawing.match_request_redraw(match=match, side="away", actor=league.other_captain)
    assert match.status == Match.Status.SETUP
    assert match.seed is None and match.home_commitment == "" and match.away_commitment == ""
    assert match.server_commitment == commitment(match.server_secret)
    assert not Frame.objects.filter(match=match).exists()
    assert Presence.objects.filter(match=match).count() == 12
    redrawn = MatchLog.objects.get(match=match, action="redrawn")
    assert redrawn.detail["previous"]["seed"] == str(seed)
    assert MatchLog.objects.filter(match=match, action="redraw_requested").count() == 2
    ready(league, match)
    match = drawing.match_draw(match=match, actor=league.other_captain)
    assert match.status == Match.Status.DRAWN and match.seed != seed


def test_the_secretary_alone_cannot_ask_for_a_redraw(league):
    match = drawn(league)
    refused(
        "not_captain",
        drawing.match_request_redraw,
        match=match,
        side="home",
        actor=league.secretary,
    )


def test_no_redraw_once_a_frame_has_started(league):
    match = drawn(league)
    Frame.objects.filter(match=match, order=1).update(status=Frame.Status.IN_PLAY)
    refused(
        "frames_started",
        drawing.match_request_redraw,
        match=match,
        side="home",
        actor=league.captain,
    )


# --------------------------------------------------------------------------- order of play


def test_a_new_order_needs_the_other_captains_acceptance(league):
    match = drawn(league)
    order = [2, 1, 3, 4, 5, 6, 7, 8, 9]
    for _ in range(2):
        match = ordering.match_reorder(match=match, side="home", order=order, actor=league.captain)
    assert [f.number for f in frames_of(match)] == list(range(1, 10))  # nothing moved yet
    refused(
        "own_proposal",
        ordering.match_reorder_accept,
        match=match,
        side="home",
        actor=league.vice_captain,
    )
    ordering.match_reorder_accept(match=match, side="away", actor=league.other_captain)
    frames = frames_of(match)
    assert [f.number for f in frames] == order
    present = common.present_players(match)
    problems = validate_draw(as_draw(match), list(present["home"]), list(present["away"]))
    assert problems == []  # the referees follow the new order's rota
    entry = MatchLog.objects.get(match=match, action="reorder_accepted")
    assert entry.detail["order"] == order and entry.detail["proposed_by"] == "home"
    assert entry.actor == league.other_captain
    match.refresh_from_db()
    assert match.reorder_proposal == []


def test_a_rejected_order_changes_nothing(league):
    match = drawn(league)
    ordering.match_reorder(
        match=match, side="away", order=[9, 8, 7, 6, 5, 4, 3, 2, 1], actor=league.other_captain
    )
    ordering.match_reorder_reject(match=match, side="home", actor=league.captain)
    assert [f.number for f in frames_of(match)] == list(range(1, 10))
    refused(
        "no_proposal", ordering.match_reorder_accept, match=match, side="home", actor=league.captain
    )


@pytest.mark.parametrize(
    ("order", "code"),
    [
        ([1, 2, 3], "bad_order"),
        ([1, 1, 2, 3, 4, 5, 6, 7, 8], "bad_order"),
        (list(range(1, 10)), "same_order"),
    ],
)
def test_a_bad_order_is_refused(league, order, code):
    match = drawn(league)
    refused(
        code, ordering.match_reorder, match=match, side="home", order=order, actor=league.captain
    )


def test_a_frame_that_has_started_keeps_its_place(league):
    match = drawn(league)
    Frame.objects.filter(match=match, order=1).update(status=Frame.Status.IN_PLAY)
    refused(
        "frame_fixed",
        ordering.match_reorder,
        match=match,
        side="home",
        order=[2, 1, 3, 4, 5, 6, 7, 8, 9],
        actor=league.captain,
    )
    match = ordering.match_reorder(
        match=match, side="home", order=[1, 3, 2, 4, 5, 6, 7, 8, 9], actor=league.captain
    )
    referees = {f.number: f.referee_id for f in frames_of(match)}
    ordering.match_reorder_accept(match=match, side="away", actor=league.other_captain)
    assert [f.number for f in frames_of(match)] == [1, 3, 2, 4, 5, 6, 7, 8, 9]
    assert {f.number: f.referee_id for f in frames_of(match)} == referees  # play has begun


def test_the_secretary_cannot_reorder_alone(league):
    match = drawn(league)
    refused(
        "not_captain",
        ordering.match_reorder,
        match=match,
        side="home",
        order=[2, 1, 3, 4, 5, 6, 7, 8, 9],
        actor=league.secretary,
    )


# --------------------------------------------------------------------------- referees


def test_a_referee_who_plays_in_the_frame_is_refused(league):
    match = drawn(league)
    frame = frames_of(match)[0]
    player = frame.players.get(side="home").player
    error = refused(
        "referee_plays_frame",
        drawing.match_set_referee,
        frame=frame,
        player=player,
        actor=league.captain,
    )
    assert player.name in error.message


def test_a_referee_must_be_present(league):
    match = drawn(league, home=5)
    frame = frames_of(match)[0]
    absent = roster(league, "home")[6]
    refused(
        "not_present", drawing.match_set_referee, frame=frame, player=absent, actor=league.captain
    )


def test_a_captain_appoints_their_own_sides_players_as_referees(league):
    match = drawn(league)
    frame = frames_of(match)[0]
    playing = set(frame.players.values_list("player_id", flat=True))
    free = next(p for p in common.present_players(match)["away"].values() if p.pk not in playing)
    refused(
        "not_captain", drawing.match_set_referee, frame=frame, player=free, actor=league.captain
    )
    for _ in range(2):
        frame = drawing.match_set_referee(frame=frame, player=free, actor=league.other_captain)
    frame.refresh_from_db()
    assert (frame.referee_id, frame.referee_side) == (free.pk, "away")
    assert MatchLog.objects.filter(match=match, action="referee_changed").count() == 1


def test_a_finished_frame_keeps_its_referee(league):
    match = drawn(league)
    frame = frames_of(match)[0]
    signoff.frame_key_in_paper(frame=frame, home_score=500, away_score=300, actor=league.captain)
    other = frames_of(match)[1].referee
    refused(
        "frame_finished",
        drawing.match_set_referee,
        frame=frame,
        player=other,
        actor=league.secretary,
    )


def test_the_pads_events_count_as_a_started_frame(league):
    match = drawn(league)
    frame = frames_of(match)[0]
    FrameEvent.objects.create(
        frame=frame,
        seq=1,
        event_id="5f1e0f1e-0000-4000-8000-000000000001",
        payload={"type": "shot"},
        created_at=NIGHT,
    )
    refused(
        "frames_started",
        drawing.match_request_redraw,
        match=match,
        side="home",
        actor=league.captain,
    )
