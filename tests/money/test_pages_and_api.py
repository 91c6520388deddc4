"""The money pages and API: who sees what (every object checked), the forms, the
exports (a formula-like name stays text), the reminders (once a week), query counts."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime, timedelta

import pytest
from django.core import mail
from django.urls import reverse
from openpyxl import load_workbook

from leagues.models import LeagueRole
from money import services
from money.models import LedgerEntry
from notifications.events import Event
from notifications.models import Notification
from tests.conftest import make_league
from tests.factories import make_secretary

pytestmark = pytest.mark.django_db
NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)


@pytest.fixture
def treasurer(league):
    return make_secretary(league.season, role=LeagueRole.Role.TREASURER, username="tess")


@pytest.fixture
def raised(league, treasurer):
    services.schedule_set(
        actor=treasurer,
        season=league.season,
        team_fee=5000,
        player_sub=1000,
        table_money=300,
        postponement_fine=2000,
        now=NOW,
    )
    services.season_fees_raise(actor=treasurer, season=league.season, now=NOW)
    return league


def _as(client, user):
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client


def test_the_ledger_page_is_the_treasurers_and_the_secretarys(client, raised, treasurer):
    url = reverse("money-ledger", args=[raised.season.pk])
    assert client.get(url).status_code == 302  # to the login page
    for user in (raised.captain, raised.outsider, raised.player_user):
        assert _as(client, user).get(url).status_code == 403
    other = make_league()
    assert _as(client, other.secretary).get(url).status_code == 403
    for user in (treasurer, raised.secretary):
        page = _as(client, user).get(url)
        assert page.status_code == 200
        assert "£50.00" in page.content.decode()


def test_the_ledger_page_reads_in_a_fixed_number_of_queries(
    client, raised, treasurer, django_assert_num_queries
):
    _as(client, treasurer)
    url = reverse("money-ledger", args=[raised.season.pk])
    client.get(url)
    with django_assert_num_queries(15):  # with the site's notices
        assert client.get(url).status_code == 200
    services.payment_record(
        actor=treasurer, season=raised.season, team=raised.teams[2], amount=10, method="cash"
    )
    with django_assert_num_queries(15):
        assert client.get(url).status_code == 200


def test_a_team_statement_is_for_its_captains_and_the_officers(client, raised, treasurer):
    team = raised.teams[0]
    url = reverse("money-team-statement", args=[team.pk])
    for user in (raised.captain, raised.vice_captain, treasurer, raised.secretary):
        page = _as(client, user).get(url)
        assert page.status_code == 200
        assert "£50.00" in page.content.decode()
    for user in (raised.other_captain, raised.outsider, raised.player_user):
        assert _as(client, user).get(url).status_code == 403
    assert (
        _as(client, raised.captain).get(reverse("money-team-statement", args=[99999])).status_code
        == 404
    )


def test_a_player_statement_is_for_that_player(
    client, raised, treasurer, django_assert_num_queries
):
    player = raised.player_user.player
    url = reverse("money-player-statement", args=[raised.season.pk, player.pk])
    _as(client, raised.player_user)
    client.get(url)
    with django_assert_num_queries(9):  # with the site's notices
        page = client.get(url)
    assert page.status_code == 200 and "£10.00" in page.content.decode()
    for user in (raised.captain, raised.outsider):
        assert _as(client, user).get(url).status_code == 403
    assert _as(client, treasurer).get(url).status_code == 200


def test_recording_a_payment_and_a_fine_through_the_page(client, raised, treasurer):
    team = raised.teams[1]
    _as(client, treasurer)
    response = client.post(
        reverse("money-payment", args=[raised.season.pk]),
        {
            "account": f"team:{team.pk}",
            "amount": "£12.50",
            "method": "transfer",
            "reference": "BACS",
        },
    )
    assert response.status_code == 302
    paid = LedgerEntry.objects.get(kind="payment")
    assert (paid.team_id, paid.amount, paid.method, paid.reference) == (
        team.pk,
        -1250,
        "transfer",
        "BACS",
    )
    bad = client.post(
        reverse("money-charge", args=[raised.season.pk]),
        {"account": f"team:{team.pk}", "kind": "fine", "amount": "abc", "description": "x"},
    )
    assert bad.status_code == 400 and "Give an amount in pounds" in bad.content.decode()
    client.post(
        reverse("money-charge", args=[raised.season.pk]),
        {"account": f"team:{team.pk}", "kind": "fine", "amount": "20", "description": "No card"},
    )
    fine = LedgerEntry.objects.get(kind="fine")
    assert (fine.amount, fine.description, fine.created_by) == (2000, "No card", treasurer)
    response = client.post(reverse("money-reverse", args=[fine.pk]), {"reason": "appeal upheld"})
    assert response.status_code == 302
    assert LedgerEntry.objects.filter(reverses=fine, amount=-2000).exists()
    assert (
        _as(client, raised.captain)
        .post(reverse("money-reverse", args=[paid.pk]), {"reason": "mine"})
        .status_code
        == 403
    )


def test_exports_open_as_spreadsheets_and_keep_formula_like_names_as_text(
    client, raised, treasurer
):
    team = raised.teams[0]
    team.name = '=HYPERLINK("http://x")'
    team.save(update_fields=["name"])
    services.payment_record(
        actor=treasurer, season=raised.season, team=team, amount=1234, method="cash"
    )
    _as(client, treasurer)
    body = client.get(reverse("money-export", args=[raised.season.pk, "balances", "xlsx"]))
    assert body.status_code == 200
    sheet = load_workbook(io.BytesIO(body.content)).active
    rows = {r[0]: r for r in sheet.iter_rows(min_row=2, values_only=True)}
    assert rows[team.name][2:] == (50.0, 12.34, 37.66)
    assert sheet.cell(row=2, column=1).data_type == "s"
    text = client.get(reverse("money-export", args=[raised.season.pk, "ledger", "csv"]))
    lines = list(csv.reader(io.StringIO(text.content.decode("utf-8-sig"))))
    assert lines[0][:6] == ["Date", "Account", "Account type", "Kind", "Description", "Charge (£)"]
    assert any(row[1] == "'" + team.name and row[6] == "12.34" for row in lines[1:])
    summary = client.get(reverse("money-export", args=[raised.season.pk, "summary", "xlsx"]))
    sheet = load_workbook(io.BytesIO(summary.content)).active
    got = {(r[0], r[1]): r[2] for r in sheet.iter_rows(min_row=2, values_only=True)}
    assert got[("Payments", "Cash")] == 12.34
    assert got[("Income", "Team fee")] == 400.0  # 8 teams × £50
    assert (
        _as(client, raised.captain)
        .get(reverse("money-export", args=[raised.season.pk, "ledger", "csv"]))
        .status_code
        == 403
    )


def test_reminders_are_sent_once_a_week_through_the_preferences(
    client, raised, treasurer, django_capture_on_commit_callbacks
):
    captain = raised.captain
    captain.email = "carol@example.org"
    captain.save(update_fields=["email"])
    mine = Notification.objects.filter(event=Event.MONEY_OWED, recipient__user=captain)
    with django_capture_on_commit_callbacks(execute=True):
        services.reminders_send(actor=treasurer, season=raised.season, now=NOW)
    assert mine.count() == 1 and "£50.00" in mine.get().title
    to_carol = [m for m in mail.outbox if "carol@example.org" in m.to]
    assert len(to_carol) == 1 and "£50.00" in to_carol[0].subject
    with django_capture_on_commit_callbacks(execute=True):
        services.reminders_send(actor=treasurer, season=raised.season, now=NOW)
        services.reminders_send_all(now=NOW + timedelta(days=2))  # the beat, same week
    assert mine.count() == 1
    assert len([m for m in mail.outbox if "carol@example.org" in m.to]) == 1
    # the button, pressed twice this week: one more message (this week's), not two
    _as(client, treasurer)
    for _ in range(2):
        assert client.post(reverse("money-reminders", args=[raised.season.pk])).status_code == 302
    assert mine.count() == 2
    assert (
        _as(client, raised.captain)
        .post(reverse("money-reminders", args=[raised.season.pk]))
        .status_code
        == 403
    )
    # paid up: no reminder for that team in a later week; the others still owe
    services.payment_record(
        actor=treasurer, season=raised.season, team=raised.teams[0], amount=5000, method="cash"
    )
    later = datetime(2027, 1, 12, 12, 0, tzinfo=UTC)
    assert services.reminders_send_all(now=later) > 0
    assert mine.count() == 2
    assert Notification.objects.filter(event=Event.MONEY_OWED, key__endswith="2027-W02").exists()


def test_the_api_lists_creates_and_reverses_entries(client, raised, treasurer):
    url = reverse("api-money-ledger", args=[raised.season.pk])
    assert client.get(url).status_code in (401, 403)
    assert _as(client, raised.captain).get(url).json()["error"] == "forbidden"
    _as(client, treasurer)
    team = raised.teams[3]
    made = client.post(
        url,
        {
            "kind": "payment",
            "team": team.pk,
            "amount": 2500,
            "method": "transfer",
            "reference": "X1",
        },
        content_type="application/json",
    )
    assert made.status_code == 201 and made.json()["amount"] == -2500
    bad = client.post(
        url,
        {"kind": "payment", "team": team.pk, "amount": 2500, "method": "card"},
        content_type="application/json",
    )
    assert bad.status_code == 400 and set(bad.json()) >= {"error", "message"}
    none = client.post(
        url, {"kind": "fine", "amount": 100, "description": "x"}, content_type="application/json"
    )
    assert none.status_code == 400 and none.json()["error"] == "bad_account"
    reverse_url = reverse("api-money-reverse", args=[made.json()["id"]])
    assert (
        client.post(reverse_url, {"reason": "bounced"}, content_type="application/json").status_code
        == 201
    )
    again = client.post(reverse_url, {"reason": "again"}, content_type="application/json")
    assert again.status_code == 409 and again.json()["error"] == "already_reversed"
    statement = client.get(reverse("api-money-team-statement", args=[team.pk])).json()
    assert statement["balance"] == 5000
    assert [line["balance"] for line in statement["lines"]] == [5000, 2500, 5000]
    balances = client.get(reverse("api-money-balances", args=[raised.season.pk])).json()
    assert {b["name"]: b["balance"] for b in balances if b["kind"] == "team"}[team.name] == 5000
    assert len(client.get(url).json()) == LedgerEntry.objects.filter(season=raised.season).count()


def test_the_api_statements_check_each_object(client, raised, treasurer):
    team = raised.teams[0]
    url = reverse("api-money-team-statement", args=[team.pk])
    assert _as(client, raised.other_captain).get(url).status_code == 403
    assert _as(client, raised.captain).get(url).json()["balance"] == 5000
    assert client.get(reverse("api-money-team-statement", args=[99999])).status_code == 404
    player = raised.player_user.player
    purl = reverse("api-money-player-statement", args=[raised.season.pk, player.pk])
    assert _as(client, raised.captain).get(purl).status_code == 403
    assert _as(client, raised.player_user).get(purl).json()["balance"] == 1000


def test_a_statement_reads_in_the_same_queries_however_long(
    client, raised, treasurer, django_assert_num_queries
):
    team = raised.teams[0]
    url = reverse("money-team-statement", args=[team.pk])
    _as(client, raised.captain)
    client.get(url)
    with django_assert_num_queries(9):  # with the site's notices
        assert client.get(url).status_code == 200
    for _ in range(5):
        services.payment_record(
            actor=treasurer, season=raised.season, team=team, amount=100, method="cash"
        )
    with django_assert_num_queries(9):
        page = client.get(url)
    assert "£45.00" in page.content.decode()
    api = reverse("api-money-ledger", args=[raised.season.pk])
    _as(client, treasurer)
    with django_assert_num_queries(5):
        assert client.get(api).status_code == 200


def test_a_player_finds_their_statement_on_their_own_page(client, raised):
    player = raised.player_user.player
    link = reverse("money-player-statement", args=[raised.season.pk, player.pk])
    assert link in _as(client, raised.player_user).get(player.get_absolute_url()).content.decode()
    assert link not in _as(client, raised.captain).get(player.get_absolute_url()).content.decode()
