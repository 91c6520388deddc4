"""No 500 from any input, one error shape for the whole API, and limits on what a request
can grow (issue 11, items 2, 3 and 6). Every refusal is a 4xx with `{"error", "message"}`
and stores nothing."""

from __future__ import annotations

import base64
import http.client
import json
from urllib.parse import urlsplit

import pytest
from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.test import Client
from django.urls import reverse

from frames.models import MatchLog, Presence
from leagues.models import Fixture, Player, Registration, Team
from marker.api_inputs import JSON_MAX_DEPTH
from tests.frames.matchnight_helpers import drawn, fixture_of, open_match, roster, snapshot
from tests.links import league_reverse

pytestmark = pytest.mark.django_db


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client


def post_json(client: Client, url: str, body, **extra):
    text = body if isinstance(body, str) else json.dumps(body)
    return client.post(url, text, content_type="application/json", **extra)


def assert_error(response, status: int, code: str | None = None) -> dict:
    assert response.status_code == status, response.content[:500]
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    body = response.json()
    assert isinstance(body.get("error"), str) and body["error"], body
    assert isinstance(body.get("message"), str) and body["message"], body
    if code is not None:
        assert body["error"] == code, body
    return body


def basic(username: str, password: str = "pw") -> str:
    return "Basic " + base64.b64encode(f"{username}:{password}".encode()).decode()


def counts() -> dict:
    return {
        "players": Player.objects.count(),
        "registrations": Registration.objects.count(),
        "teams": Team.objects.count(),
        "presences": Presence.objects.count(),
        "log": MatchLog.objects.count(),
        "fixtures": list(
            Fixture.objects.order_by("pk").values_list(
                "pk", "home_score", "away_score", "outcome", "result_confirmed_at"
            )
        ),
        "axes": (AccessAttempt.objects.count(), AccessFailureLog.objects.count()),
    }


# ------------------------------------------------------------ item 2: no 500 from input


@pytest.mark.parametrize(
    "username", ["nul\x00byte", "x" * 300, "\x00" * 5], ids=["nul", "300-chars", "only-nul"]
)
def test_http_basic_credentials_are_ignored_and_reach_nothing(league, username):
    """Nothing uses HTTP Basic: the API does not try the credentials (django-axes would
    write the username to the database), so a read stays public and a write is refused."""
    before = counts()
    client = Client(HTTP_AUTHORIZATION=basic(username))
    assert client.get(reverse("api-team-list")).status_code == 200
    response = post_json(client, reverse("api-team-roster", args=[league.teams[0].pk]), {})
    assert_error(response, 403)
    assert counts() == before
    assert not AccessLog.objects.exists()


def test_a_real_password_over_basic_signs_nobody_in(league):
    league.captain.set_password("right-password-1")
    league.captain.save()
    client = Client(HTTP_AUTHORIZATION=basic(league.captain.username, "right-password-1"))
    response = post_json(client, reverse("api-team-roster", args=[league.teams[0].pk]), {})
    assert_error(response, 403, "not_authenticated")


@pytest.mark.parametrize("name", ["api-team-list", "api-fixture-list", "api-division-list"])
@pytest.mark.parametrize("value", ["abc", "1.5", "-1", "0", "9" * 30, "1\x00", "١"])
def test_a_filter_that_is_not_an_id_is_a_400(db, name, value):
    response = Client().get(reverse(name), {"season": value})
    body = assert_error(response, 400, "bad_parameter")
    assert body["field"] == "season"


def test_a_bad_filter_on_a_detail_url_is_a_400_too(league):
    team = league.teams[0]
    for query in ({"season": "abc"}, {"division": "x"}):
        response = Client().get(reverse("api-team-detail", args=[team.pk]), query)
        assert_error(response, 400, "bad_parameter")
    fixture = fixture_of(league)
    response = Client().get(reverse("api-fixture-detail", args=[fixture.pk]), {"team": "1e3"})
    assert_error(response, 400, "bad_parameter")
    ok = Client().get(reverse("api-team-detail", args=[team.pk]), {"season": team.season_id})
    assert ok.status_code == 200


@pytest.mark.parametrize("limit", [str(2**63), "9" * 40, "99999999999"])
def test_a_huge_limit_gets_the_largest_page(league, limit):
    response = Client().get(reverse("api-player-list"), {"limit": limit, "offset": "9" * 25})
    assert response.status_code == 200
    response = Client().get(reverse("api-player-list"), {"limit": limit})
    assert response.status_code == 200
    body = response.json()
    assert body["count"] == Player.objects.count()
    assert len(body["results"]) == min(500, body["count"])


@pytest.mark.parametrize(
    "text",
    [
        "[" * 100_000 + "]" * 100_000,
        '{"a":' * 5_000 + "1" + "}" * 5_000,
        json.dumps(
            {
                "side": "home",
                "reason": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]],
            }
        ),
        '{"side": "home", "reason": "a\\u0000b"}',
        '{"side": "home\\u0000", "reason": "x"}',
        '{"side": "home", "reason": "\\ud800"}',
        '{"side": "home", "reason": 1e999}',
        '{"side": "home", "reason": NaN}',
        '{"side": "home", "reason": "x"',
    ],
    ids=[
        "deep-array",
        "deep-object",
        "depth-35",
        "nul",
        "nul-key-value",
        "surrogate",
        "inf",
        "nan",
        "truncated",
    ],
)
def test_a_body_the_database_or_the_parser_cannot_take_is_a_400(league, text):
    match = drawn(league)
    before = snapshot()
    response = post_json(
        signed_in(league.captain), reverse("api-match-dispute", args=[match.pk]), text
    )
    assert_error(response, 400, "parse_error")
    assert snapshot() == before


def test_json_nested_to_the_limit_is_parsed_and_one_more_level_is_refused(league):
    from rest_framework.exceptions import ParseError

    from marker.api_inputs import check_json

    deep = 1
    for _ in range(JSON_MAX_DEPTH):
        deep = [deep]
    check_json(deep)
    with pytest.raises(ParseError):
        check_json([deep])


@pytest.mark.parametrize("score", [2**31 + 10, 2**63, 1_000_010, -10, 12.5, "1e3", True])
def test_paper_scores_past_the_bound_are_a_400_and_store_nothing(league, score):
    match = drawn(league)
    before = snapshot()
    sheet = [{"number": 1, "home_score": score, "away_score": 0}]
    response = post_json(
        signed_in(league.captain), reverse("api-match-paper", args=[match.pk]), {"frames": sheet}
    )
    assert_error(response, 400)
    assert snapshot() == before


def test_the_largest_paper_score_is_accepted(league):
    match = drawn(league)
    sheet = [{"number": 1, "home_score": 1_000_000, "away_score": 0}]
    response = post_json(
        signed_in(league.captain), reverse("api-match-paper", args=[match.pk]), {"frames": sheet}
    )
    assert response.status_code == 200, response.json()


@pytest.mark.parametrize(
    "extra",
    [
        {"home_score": 2**31},
        {"away_score": 2**40},
        {"home_score": 10**30},
        {"home_frames": "1e20"},
        {"home_frames": 10**6},
        {"away_frames": "NaN"},
    ],
)
def test_awards_past_the_bound_are_a_400_and_store_nothing(league, extra):
    fixture = fixture_of(league)
    before = counts()
    body = {"outcome": "walkover", "home_frames": "9", "away_frames": "0", "reason": "No show"}
    response = post_json(
        signed_in(league.secretary), reverse("api-fixture-award", args=[fixture.pk]), body | extra
    )
    assert_error(response, 400)
    assert counts() == before


@pytest.mark.parametrize("bad", [1.5, 1.0, True, "1.0", "abc", [1], {"id": 1}, 2**31, 2**64, -1, 0])
def test_an_id_that_is_not_a_whole_number_is_refused_not_truncated(league, bad):
    """`7.5` used to name player 7 (on no team: added): ids are integers, or nothing."""
    free = Player.objects.create(name="Free Agent")
    if isinstance(bad, float):
        bad = free.pk + (bad - 1)
    before = counts()
    team = league.teams[2]
    response = post_json(
        signed_in(league.secretary),
        reverse("api-team-roster", args=[team.pk]),
        {"player": bad},
    )
    body = assert_error(response, 400, "invalid")
    assert "player" in body["fields"]
    assert counts() == before


def test_a_float_referee_is_refused(league):
    match = drawn(league, home=7)
    before = snapshot()
    rita = league.player_user.player
    response = post_json(
        signed_in(league.captain),
        reverse("api-match-referee", kwargs={"pk": match.pk, "number": 1}),
        {"player": rita.pk + 0.25},
    )
    assert_error(response, 400, "invalid")
    assert snapshot() == before


# ------------------------------------------------------- item 3: one error shape


@pytest.mark.parametrize(
    "path",
    [
        "/api/teams/999999/",
        "/api/teams/abc/",
        "/api/teams/99999999999999999999999/",
        "/api/matches/abc/",
        "/api/matches/999999/",
        "/api/frames/1.5/state/",
        "/api/nothing-here/",
        "/api/teams/999999/roster/",
        "/api/divisions/999999/table/",
        "/api/games/no-such-game/",
    ],
)
def test_every_404_under_api_has_the_error_shape(league, path):
    assert_error(Client().get(path), 404, "not_found")


def test_a_404_from_an_object_look_up_in_a_command_has_the_error_shape(league):
    response = post_json(signed_in(league.captain), "/api/fixtures/999999/move/", {})
    assert_error(response, 404, "not_found")
    response = post_json(signed_in(league.secretary), "/api/teams/999999/deductions/", {})
    assert_error(response, 404, "not_found")


def test_pages_keep_their_html_404(league):
    response = Client().get("/no-such-page/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


def test_method_not_allowed_and_csrf_failures_have_the_error_shape(league):
    response = signed_in(league.captain).delete(reverse("api-team-list"))
    assert_error(response, 405, "method_not_allowed")
    client = Client(enforce_csrf_checks=True)
    client.force_login(league.captain, backend="django.contrib.auth.backends.ModelBackend")
    response = post_json(client, reverse("api-team-roster", args=[league.teams[0].pk]), {})
    body = assert_error(response, 403, "permission_denied")
    assert "CSRF" in body["message"]


def test_an_unsupported_media_type_has_the_error_shape(league):
    response = signed_in(league.captain).post(
        reverse("api-team-roster", args=[league.teams[0].pk]), "x", content_type="text/plain"
    )
    assert_error(response, 415, "unsupported_media_type")


def test_a_server_error_under_api_is_json_and_a_page_stays_html(league, monkeypatch):
    from frames.pad import api as pad_api

    def boom(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(pad_api.selectors, "match_live", boom)
    client = Client(raise_request_exception=False)
    match = open_match(league)
    assert_error(client.get(reverse("api-match-live", args=[match.pk])), 500, "server_error")
    monkeypatch.setattr("leagues.fixtures.views.selectors.fixtures_qs", boom)
    page = client.get(league_reverse("fixture-detail", args=[fixture_of(league).pk]))
    assert page.status_code == 500
    assert not page["Content-Type"].startswith("application/json")


def test_the_schema_documents_one_error_shape_public_reads_and_real_statuses():
    schema = Client().get("/api/schema/?format=json").json()
    components = schema["components"]
    assert set(components["schemas"]["Error"]["required"]) == {"error", "message"}
    assert set(components["securitySchemes"]) == {"cookieAuth"}  # no HTTP Basic
    error_ref = "#/components/schemas/Error"
    operations = [
        (path, method, op)
        for path, item in schema["paths"].items()
        for method, op in item.items()
        if method in {"get", "post", "patch", "put", "delete"}
    ]
    assert len(operations) > 50
    public = {
        ("/api/teams/", "get"),
        ("/api/matches/{id}/", "get"),
        ("/api/frames/{id}/state/", "get"),
        ("/api/divisions/{id}/table/", "get"),
        ("/api/pad/session/", "get"),
    }
    secretary_only = {("/api/divisions/{id}/table/provisional/", "get")}
    for path, method, op in operations:
        security = op.get("security", [])
        if (path, method) in public:
            assert {} in security, (path, method)
        if method != "get" or (path, method) in secretary_only:
            assert {} not in security, (path, method)
            assert "403" in op["responses"], (path, method)
        if "{" in path:
            assert "404" in op["responses"], (path, method)
        if "requestBody" in op:
            for code in ("400", "413", "415"):
                assert code in op["responses"], (path, method, code)
        for code, response in op["responses"].items():
            if int(code) >= 400:
                schema_ref = response["content"]["application/json"]["schema"]
                ref = schema_ref.get("$ref", "")
                assert ref == error_ref or ref.startswith("#/components/schemas/"), (path, code)


# -------------------------------------------------- item 6: limits on what can grow


def test_three_hundred_newcomers_in_one_request_are_refused_and_none_is_drafted(league):
    match = open_match(league)
    before = counts()
    response = post_json(
        signed_in(league.captain),
        reverse("api-match-presence", args=[match.pk]),
        {
            "side": "home",
            "players": [p.pk for p in roster(league, "home")[:5]],
            "new_players": [f"Newcomer {i}" for i in range(300)],
        },
    )
    body = assert_error(response, 400, "invalid")
    assert "new_players" in body["fields"]
    assert counts() == before


def test_a_squad_past_twenty_is_refused_by_the_service_too(league):
    from frames.matchnight import squads
    from marker.errors import DomainError

    match = open_match(league)
    before = counts()
    with pytest.raises(DomainError) as refused:
        squads.match_mark_present(
            match=match,
            side="home",
            players=roster(league, "home")[:5],
            new_players=[f"Newcomer {i}" for i in range(16)],
            actor=league.captain,
        )
    assert refused.value.code == "too_many_players"
    assert counts() == before
    squads.match_mark_present(
        match=match,
        side="home",
        players=roster(league, "home")[:5],
        new_players=[f"Newcomer {i}" for i in range(15)],
        actor=league.captain,
    )
    assert Presence.objects.filter(match=match, side="home").count() == 20


@pytest.mark.parametrize(
    ("name", "body"),
    [
        # A match has at most 30 frames in any format (marker.formats.MAX_FRAMES).
        ("api-match-paper", {"frames": [{"number": 1, "home_score": 0, "away_score": 0}] * 31}),
        ("api-match-settle", {"decision": "correct", "frames": [{"number": 1}] * 31}),
        ("api-match-presence", {"side": "home", "players": list(range(1, 30))}),
        ("api-match-presence", {"side": "home", "players": [], "new_players": ["x" * 121]}),
    ],
)
def test_lists_and_names_in_commands_are_bounded(league, name, body):
    match = drawn(league)
    before = snapshot()
    response = post_json(signed_in(league.secretary), reverse(name, args=[match.pk]), body)
    assert_error(response, 400, "invalid")
    assert snapshot() == before


def test_season_lists_are_bounded(league):
    client = signed_in(league.secretary)
    response = post_json(
        client,
        reverse("api-fixtures-generate", args=[league.season.pk]),
        {"start_date": "2027-01-05", "blackout_dates": ["2027-01-01"] * 400},
    )
    assert_error(response, 400, "invalid")
    response = post_json(
        client,
        reverse("api-season-points-scheme", args=[league.season.pk]),
        {"tie_breakers": ["points"] * 6},
    )
    assert_error(response, 400, "invalid")


def test_an_oversized_body_is_a_json_413_and_reads_nothing(league, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10_000
    before = counts()
    body = {"name": "x" * 20_000}
    response = post_json(
        signed_in(league.captain), reverse("api-team-roster", args=[league.teams[0].pk]), body
    )
    assert_error(response, 413, "too_large")
    assert counts() == before
    page = signed_in(league.captain).post("/accounts/login/", {"username": "x" * 20_000})
    assert page.status_code == 413


@pytest.mark.django_db(transaction=True)
def test_an_oversized_body_over_a_real_socket_gets_the_413_not_a_reset(live_server, settings):
    """The default limit (1 MiB): a client sending 3 MiB reads the JSON answer."""
    assert settings.DATA_UPLOAD_MAX_MEMORY_SIZE == 1024 * 1024
    url = urlsplit(live_server.url)
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
    payload = json.dumps({"name": "x" * (3 * 1024 * 1024)}).encode()
    connection.request(
        "POST",
        "/api/teams/",
        body=payload,
        headers={"Content-Type": "application/json", "Content-Length": str(len(payload))},
    )
    response = connection.getresponse()
    assert response.status == 413
    body = json.loads(response.read())
    assert body["error"] == "too_large" and body["message"]
    connection.close()


def test_regenerating_fixtures_once_a_match_night_is_open_is_a_400_not_a_500(league):
    """Found by the fuzzing: the fixtures' delete hit the match's protected foreign key."""
    open_match(league)
    before = counts()
    response = post_json(
        signed_in(league.secretary),
        reverse("api-fixtures-generate", args=[league.season.pk]),
        {"start_date": "2027-01-05"},
    )
    assert_error(response, 400, "fixtures_in_use")
    assert counts() == before


@pytest.mark.parametrize("username", ["x" * 300, "a\x00b", "y" * 255], ids=["300", "nul", "255"])
def test_a_login_with_any_username_is_refused_not_a_500(db, username):
    """django-axes records failed logins in a 255-character column: a longer username, or
    one with a NUL, was a 500 on the login page."""
    client = Client()
    response = client.post("/accounts/login/", {"username": username, "password": "pw"})
    assert response.status_code == 200  # the form again
    attempts = list(AccessAttempt.objects.values_list("username", flat=True))
    assert all(name is None or (len(name) <= 150 and "\x00" not in name) for name in attempts)
