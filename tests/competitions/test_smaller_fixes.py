"""Issue 28, item 5: a pair on the roll of honour in its own order, entries after the
closing date, group matches awarded after the groups' deadline, a group event printed."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from competitions.models import Competition, CompetitionLog, Entry, Tie
from competitions.services.entries import entry_create
from competitions.services.setup import competition_create
from competitions.services.ties import tie_record_paper
from leagues.models import Registration

from .helpers import NOW, drawn

pytestmark = pytest.mark.django_db


@pytest.fixture
def league(league_of_the_module):
    return league_of_the_module


def client_for(user) -> Client:
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client


def test_the_roll_of_honour_names_a_pair_in_its_own_order(client, league):
    """The bracket says "Irene Youngs & Hazel Jary"; so does the roll of honour, whatever
    the alphabet or the players' ids say."""
    regs = list(
        Registration.objects.filter(season=league.season, status="active")
        .select_related("player")
        .order_by("player_id")[:4]
    )
    hazel, other_a, other_b, irene = (r.player for r in regs)
    for player, name in ((hazel, "Hazel Jary"), (irene, "Irene Youngs")):
        player.name = name
        player.save(update_fields=["name"])
    comp = competition_create(
        actor=league.secretary, season=league.season, name="Pairs", kind="pairs", now=NOW
    )
    pair = entry_create(
        actor=league.secretary, competition=comp, player=irene, partner=hazel, now=NOW
    )
    entry_create(actor=league.secretary, competition=comp, player=other_a, partner=other_b, now=NOW)
    drawn(comp, league.secretary)
    final = Tie.objects.get(competition=comp)
    side = "home" if final.home_id == pair.pk else "away"
    frames = [{"home": 300, "away": 100} if side == "home" else {"home": 100, "away": 300}] * 2
    tie_record_paper(actor=league.secretary, tie=final, frames=frames, now=NOW)
    bracket = client.get(reverse("competition-detail", args=[comp.pk])).content.decode()
    assert "Irene Youngs &amp; Hazel Jary" in bracket
    page = client.get(reverse("league-honours", args=[league.season.league.slug]))
    text = re.sub(r"<[^>]+>", "", page.content.decode())
    assert "Irene Youngs &amp; Hazel Jary" in text
    api = client.get(reverse("api-league-honours", args=[league.season.league_id])).json()
    (winner,) = [h for h in api if h["position"] == "winner" and h["title"] == "Pairs"]
    assert winner["players"] == [irene.pk, hazel.pk]


def test_the_secretary_is_told_entries_have_closed_and_may_enter_late_on_purpose(league):
    sec = client_for(league.secretary)
    comp = sec.post(
        f"/api/seasons/{league.season.pk}/competitions/",
        {
            "name": "Open Singles",
            "kind": "singles",
            "entry_mode": "open",
            "entries_close_at": "2026-01-01T20:00:00Z",
        },
        content_type="application/json",
    ).json()
    late_player, other = (
        r.player
        for r in Registration.objects.filter(season=league.season, status="active")
        .select_related("player")
        .order_by("id")[:2]
    )
    url = f"/api/competitions/{comp['id']}/entries/"
    answer = sec.post(url, {"player": late_player.pk}, content_type="application/json")
    assert answer.status_code == 400
    assert answer.json()["error"] == "entries_closed"
    assert "closed on 01 Jan 2026" in answer.json()["message"]
    assert "late" in answer.json()["message"]
    assert not Entry.objects.filter(competition_id=comp["id"]).exists()
    # on purpose: entered, marked late, warned, logged
    answer = sec.post(
        url, {"player": late_player.pk, "late": True}, content_type="application/json"
    )
    assert answer.status_code == 201, answer.content
    body = answer.json()
    assert body["source"].startswith("late entry, after the closing date")
    assert body["warning"].startswith("Entries had closed")
    assert CompetitionLog.objects.get(competition_id=comp["id"], action="entered").detail["late"]
    # a player cannot enter late, even saying so
    player_client = client_for(league.player_user)
    answer = player_client.post(
        url,
        {"player": league.player_user.player.pk, "late": True},
        content_type="application/json",
    )
    assert answer.status_code == 400 and answer.json()["error"] == "entries_closed"
    # before the closing date nothing is late
    Competition.objects.filter(pk=comp["id"]).update(entries_close_at=None)
    answer = sec.post(url, {"player": other.pk, "late": True}, content_type="application/json")
    assert answer.status_code == 201 and answer.json()["warning"] == ""
    assert answer.json()["source"] == ""


def group_event(league, n: int = 3):
    comp = competition_create(
        actor=league.secretary,
        season=league.season,
        name="Group Singles",
        kind="group_knockout",
        group_size=3,
        group_qualifiers=1,
        now=NOW,
    )
    players = [
        r.player
        for r in Registration.objects.filter(season=league.season, status="active")
        .select_related("player")
        .order_by("id")[:n]
    ]
    for player in players:
        entry_create(actor=league.secretary, competition=comp, player=player, now=NOW)
    return drawn(comp, league.secretary)


def test_a_group_gets_a_deadline_and_its_matches_can_then_be_awarded(league):
    comp = group_event(league)
    group = comp.groups.get()
    tie = Tie.objects.filter(group=group).order_by("slot").first()
    sec = client_for(league.secretary)
    award = {"winner": "away", "reason": "Not played by the deadline"}
    answer = sec.post(f"/api/ties/{tie.pk}/award/", award, content_type="application/json")
    assert answer.status_code == 400 and answer.json()["error"] == "before_deadline"
    assert "group's deadline" in answer.json()["message"]
    # the API sets the deadline (not the captain), and then the award goes through
    url = f"/api/groups/{group.pk}/"
    body = {"deadline": "2026-01-01T20:00:00Z"}
    assert (
        client_for(league.captain).post(url, body, content_type="application/json").status_code
        == 403
    )
    answer = sec.post(url, {"deadline": "not a date"}, content_type="application/json")
    assert answer.status_code == 400
    answer = sec.post(url, body, content_type="application/json")
    assert answer.status_code == 200 and answer.json()["deadline"] == "2026-01-01T20:00:00Z"
    assert sec.get(url).json()["deadline"] == "2026-01-01T20:00:00Z"
    answer = sec.post(f"/api/ties/{tie.pk}/award/", award, content_type="application/json")
    assert answer.status_code == 200, answer.content
    tie.refresh_from_db()
    assert (tie.status, tie.winner_id) == (Tie.Status.AWARDED, tie.away_id)
    table = sec.get(f"/api/competitions/{comp.pk}/groups/").json()[0]
    assert table["deadline"] == "2026-01-01T20:00:00Z"
    (winner_row,) = [r for r in table["rows"] if r["entry"] == tie.away_id]
    assert winner_row["won"] == 1


def test_the_secretary_sets_a_groups_deadline_on_the_competition_page(client, league):
    comp = group_event(league)
    group = comp.groups.get()
    client.force_login(league.captain)
    page = client.get(reverse("competition-detail", args=[comp.pk])).content.decode()
    assert "No deadline set." in page and "Set the deadline" not in page
    assert client.post(f"/groups/{group.pk}/deadline/", {"deadline": ""}).status_code == 403
    client.force_login(league.secretary)
    answer = client.post(
        f"/groups/{group.pk}/deadline/", {"deadline": "2026-10-20T21:30"}, follow=True
    )
    page = answer.content.decode()
    assert "deadline saved" in page
    assert "Matches to be played by Tuesday 20 October, 21:30" in page
    group.refresh_from_db()
    assert group.deadline is not None
