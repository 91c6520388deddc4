"""A bounded schemathesis run over every operation of `/api/schema/`, as anonymous, a
referee (a player), a captain and the secretary.

Each role gets a league with a match night in play (frames drawn, the referee appointed),
a second match still being set up, a friendly game and a publication; the path ids are
drawn from those objects (so commands reach their services) or generated (so look-ups
miss). Bodies and query strings are generated from the schema, valid and invalid.

It fails on any 5xx and on any answer the schema does not describe: an undocumented
status, content type or body. Bounded and deterministic: `EXAMPLES` cases per operation
and generation mode, a fixed seed (hypothesis' `derandomize`), no example database, and
a time budget per role that fails the test if the run outgrows it.
"""

from __future__ import annotations

import itertools
import os
import time
import traceback
from collections import Counter

import pytest
import schemathesis
from django.core import signals
from django.core.handlers.wsgi import WSGIHandler
from django.db import close_old_connections
from django.test import Client
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from frames.friendly import services as friendly_services
from frames.matchnight import drawing, squads
from frames.models import Frame
from leagues import publishing
from leagues.models import Division, Fixture, League, Player, Registration, Season, Team, Venue
from tests.conftest import make_league
from tests.frames.matchnight_helpers import drawn, fixture_of

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

# Per operation, positive and negative cases mixed; FUZZ_EXAMPLES=200 for a deeper local run.
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "8"))
# Per role: the run fails rather than silently growing.
BUDGET_SECONDS = float(os.environ.get("FUZZ_BUDGET_SECONDS", "150"))
CSRF = "fuzzfuzzfuzzfuzzfuzzfuzzfuzzfuzz"  # a 32-character token, as cookie and header
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]
ROLES = ("anonymous", "referee", "captain", "secretary")


def world() -> dict:
    """The league, a match in play with its referee, a match being set up, a friendly
    game and a publication; the ids each path parameter is drawn from, and the users."""
    league = make_league(teams_per_division=4, players_per_team=6)
    match = drawn(league, home=7)  # Rita (the player) is present for the home side
    rita = league.player_user.player
    refereed = None
    for frame in Frame.objects.filter(match=match).order_by("number"):
        if not frame.players.filter(player=rita).exists():
            drawing.match_set_referee(frame=frame, player=rita, actor=league.captain)
            refereed = frame
            break
    assert refereed is not None
    setting_up = squads.match_open(
        fixture=Fixture.objects.filter(home=league.teams[0]).exclude(pk=fixture_of(league).pk)[0],
        actor=league.captain,
    )
    friendly = friendly_services.friendly_start(
        owner=league.captain, game_id="three_cushion_carom", players=["Ann", "Bob"]
    )
    publication = publishing.publication_request(season=league.season, actor=league.secretary)
    ids = {
        "leagues": [League.objects.first().pk],
        "seasons": [league.season.pk],
        "divisions": list(Division.objects.values_list("pk", flat=True)[:2]),
        "venues": list(Venue.objects.values_list("pk", flat=True)[:2]),
        "players": [rita.pk, Player.objects.first().pk],
        "teams": [league.teams[0].pk, league.teams[1].pk],
        "fixtures": [match.fixture_id, setting_up.fixture_id],
        "matches": [match.pk, setting_up.pk],
        "frames": [refereed.pk, friendly.frame.pk],
        "publications": [publication.pk],
        "games": ["bar_billiards_4pin", "three_cushion_carom"],
        "registration_id": list(
            Registration.objects.filter(team=league.teams[0]).values_list("pk", flat=True)[:2]
        ),
        "number": [refereed.number, 1],
    }
    users = {
        "anonymous": None,
        "referee": league.player_user,
        "captain": league.captain,
        "secretary": league.secretary,
    }
    assert Season.objects.exists() and Team.objects.exists()
    return {"ids": ids, "users": users}


def known_path_parameters(path: str, ids: dict) -> list[dict]:
    """Path parameter sets made of real ids for this path (`/api/matches/{id}/…`)."""
    kind = path.split("/")[2]
    choices = {}
    for name in (part[1:-1] for part in path.split("/") if part.startswith("{")):
        if name in ("id", "game_id"):
            choices[name] = ids.get(kind, [])
        else:
            choices[name] = ids.get(name, [])
    if not choices or not all(choices.values()):
        return []
    names = list(choices)
    return [dict(zip(names, combo, strict=True)) for combo in itertools.product(*choices.values())]


def session_for(user) -> dict:
    cookies = {"csrftoken": CSRF}
    if user is not None:
        client = Client()
        client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
        cookies["sessionid"] = client.cookies["sessionid"].value
    return cookies


class ServerErrors:
    """The tracebacks of the exceptions the requests raised (for the failure report)."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def __call__(self, sender, request=None, **kwargs) -> None:
        self.seen.append(f"{request.method} {request.get_full_path()}\n{traceback.format_exc()}")


@pytest.mark.parametrize("role", ROLES)
def test_the_api_answers_every_input_as_its_schema_says(role):
    data = world()
    app = WSGIHandler()
    schema_response = Client().get("/api/schema/?format=json")
    assert schema_response.status_code == 200
    schema = schemathesis.openapi.from_dict(schema_response.json())
    cookies = session_for(data["users"][role])
    headers = {"X-CSRFToken": CSRF}

    errors = ServerErrors()
    signals.got_request_exception.connect(errors)
    # As Django's test client does: keep the test's connection across requests.
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    failures: list[str] = []
    statuses: Counter = Counter()
    started = time.monotonic()
    operations = 0
    try:
        for result in schema.get_all_operations():
            operation = result.ok()
            operations += 1
            strategies = []
            for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
                strategies.append(operation.as_strategy(generation_mode=mode))
                strategies += [
                    operation.as_strategy(generation_mode=mode, path_parameters=known)
                    for known in known_path_parameters(operation.path, data["ids"])
                ]

            @settings(
                max_examples=EXAMPLES,
                derandomize=True,
                database=None,
                deadline=None,
                phases=[Phase.explicit, Phase.generate],
                suppress_health_check=list(HealthCheck),
            )
            @given(case=st.one_of(*strategies))
            def fuzz(case):
                response = case.call(app=app, headers=headers, cookies=cookies)
                statuses[response.status_code] += 1
                case.validate_response(response, checks=CHECKS)

            try:
                fuzz()
            except (Exception, BaseExceptionGroup) as exc:  # report it; go on with the next
                failures.append(
                    f"{operation.method.upper()} {operation.path} as {role}: {str(exc)[:2000]}"
                )
            assert time.monotonic() - started < BUDGET_SECONDS, (
                f"the fuzzing outgrew its budget at {operations} operations"
            )
    finally:
        signals.got_request_exception.disconnect(errors)
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)
    server_errors = sum(n for code, n in statuses.items() if code >= 500)
    summary = (
        f"{role}: {operations} operations, {sum(statuses.values())} requests in "
        f"{time.monotonic() - started:.0f}s, {server_errors} server errors, "
        f"{len(failures)} operations outside the schema; statuses {dict(sorted(statuses.items()))}"
    )
    print("\n" + summary)
    assert operations >= 50
    assert not server_errors and not errors.seen and not failures, "\n\n".join(
        [summary, *failures, *errors.seen[:5]]
    )
