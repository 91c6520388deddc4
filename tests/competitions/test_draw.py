"""The cup draw's properties (hypothesis over 2–130 entrants) and its uniformity."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from django.test import Client
from hypothesis import given, settings
from hypothesis import strategies as st

from competitions import draw as cupdraw
from competitions.models import Competition, Tie
from competitions.services.draws import draw_commit, draw_perform
from competitions.services.entries import entry_create
from competitions.services.setup import competition_create
from competitions.services.ties import tie_record_paper
from exchange.archive import league_export

from .helpers import NOW, registered_players

counts = st.integers(min_value=2, max_value=130)
seeds = st.integers(min_value=0, max_value=cupdraw.MAX_SEED)


def names(n: int) -> list[str]:
    return [str(i) for i in range(1, n + 1)]


@settings(max_examples=200, deadline=None)
@given(counts, seeds)
def test_each_entrant_placed_once_byes_only_in_round_one_never_meeting(n, seed):
    d = cupdraw.draw_knockout(names(n), seed)
    assert cupdraw.validate_knockout(d, names(n)) == []
    placed = [t.home for t in d.ties] + [t.away for t in d.ties if t.away]
    assert sorted(placed) == sorted(names(n))
    # a tie holds at most one bye: two byes never meet
    assert all(t.home is not None for t in d.ties)
    assert sum(t.bye for t in d.ties) == d.size - n
    # the bracket is the smallest power of two: after round one, no byes are left
    assert d.size // 2 < n <= d.size
    assert n - sum(t.bye for t in d.ties) == 2 * sum(not t.bye for t in d.ties)


@settings(max_examples=100, deadline=None)
@given(counts, seeds)
def test_the_draw_is_a_function_of_the_set_of_entrants_and_the_seed(n, seed):
    forwards = cupdraw.draw_knockout(names(n), seed)
    backwards = cupdraw.draw_knockout(list(reversed(names(n))), seed)
    assert forwards == backwards


@settings(max_examples=100, deadline=None)
@given(st.integers(min_value=2, max_value=130), seeds, st.integers(min_value=2, max_value=8))
def test_groups_hold_everyone_once_and_differ_in_size_by_at_most_one(n, seed, size):
    g = cupdraw.draw_groups(names(n), seed, size)
    members = [m for group in g.groups for m in group]
    assert sorted(members) == sorted(names(n))
    sizes = [len(group) for group in g.groups]
    assert max(sizes) - min(sizes) <= 1 and min(sizes) >= 2 or len(g.groups) == 1
    for group, lots in zip(g.groups, g.lots, strict=True):
        assert sorted(lots) == list(range(1, len(group) + 1))


@pytest.mark.slow
@pytest.mark.parametrize("n", [5, 6, 8])
def test_every_entrant_is_equally_likely_in_every_place(n):
    """Chi-square over 6,000 seeds: entrant 1's place (tie and side, or a bye) is uniform
    over the 2 × size/2 places, weighted by how many draws fill each place."""
    trials = 6000
    where: Counter[tuple[int, str]] = Counter()
    filled: Counter[tuple[int, str]] = Counter()
    for seed in range(trials):
        d = cupdraw.draw_knockout(names(n), seed)
        for t in d.ties:
            filled[(t.slot, "home")] += 1
            if t.away is not None:
                filled[(t.slot, "away")] += 1
            if t.home == "1":
                where[(t.slot, "home")] += 1
            elif t.away == "1":
                where[(t.slot, "away")] += 1
    # Given a filled place, entrant 1 is in it with probability 1/n.
    chi2 = sum((where[p] - f / n) ** 2 / (f / n) for p, f in filled.items())
    dof = len(filled) - 1
    # 99.9th percentile of chi-square is below dof + 4.5·sqrt(2·dof) + 10 for these dofs
    assert chi2 < dof + 4.5 * (2 * dof) ** 0.5 + 10, (chi2, dof)


def test_the_command_replays_a_draw_from_the_secrets(capsys):
    assert cupdraw.main(["--entrants", "3,1,2", "--secrets", "a,b"]) == 0
    out = json.loads(capsys.readouterr().out)
    seed = cupdraw.derive_seed("a", "b")
    assert out == cupdraw.draw_knockout(["1", "2", "3"], seed).to_json()
    assert out["algorithm"] == cupdraw.ALGORITHM_VERSION


def test_the_command_answers_bad_input_with_a_code(capsys):
    assert cupdraw.main(["--entrants", "1", "--seed", "5"]) == 2
    assert json.loads(capsys.readouterr().err)["error"] == "too_few_entrants"


# --------------------------------------------------------------------------- sealing


def _cup(league, n=4, kind="singles", **kwargs):
    comp = competition_create(
        actor=league.secretary, season=league.season, name="Cup", kind=kind, now=NOW, **kwargs
    )
    for player in registered_players(league, n):
        entry_create(actor=league.secretary, competition=comp, player=player, now=NOW)
    return comp


@pytest.mark.django_db
def test_no_draw_secret_is_shown_in_the_admin_before_the_draw_even_to_a_superuser(
    league, admin_client
):

    comp = _cup(league)
    draw_commit(actor=league.secretary, competition=comp, now=NOW)
    comp = Competition.objects.get(pk=comp.pk)
    assert comp.secretary_secret and comp.server_secret  # both held by the server
    url = f"/admin/competitions/competition/{comp.pk}/change/"

    page = admin_client.get(url).content.decode()

    assert comp.server_secret not in page
    assert comp.secretary_secret not in page
    assert "sealed until the draw" in page
    assert comp.server_commitment in page
    draw_perform(actor=league.secretary, competition=comp, now=NOW)
    page = admin_client.get(url).content.decode()
    assert comp.server_secret in page and comp.secretary_secret in page


@pytest.mark.django_db
def test_no_draw_secret_leaves_in_an_archive_or_the_api_before_the_draw(league, admin_client):

    comp = _cup(league)
    draw_commit(actor=league.secretary, competition=comp, now=NOW)
    comp = Competition.objects.get(pk=comp.pk)
    secrets = (comp.secretary_secret, comp.server_secret)

    archive = json.dumps(league_export(league=league.season.league, full=True))
    api = admin_client.get(f"/api/competitions/{comp.pk}/draw/").json()

    assert not any(secret in archive for secret in secrets)
    assert api["secretary_secret"] == api["server_secret"] == ""
    draw_perform(actor=league.secretary, competition=comp, now=NOW)
    archive = json.dumps(league_export(league=league.season.league, full=True))
    api = admin_client.get(f"/api/competitions/{comp.pk}/draw/").json()
    assert all(secret in archive for secret in secrets)
    assert (api["secretary_secret"], api["server_secret"]) == secrets


@pytest.mark.django_db
def test_a_group_events_knockout_is_drawn_by_its_own_commit_and_reveal_after_the_groups(league):

    comp = _cup(
        league,
        6,
        kind="group_knockout",
        group_size=3,
        group_qualifiers=1,
        group_race_to=2,
    )
    secretary = Client()
    secretary.force_login(league.secretary, backend="django.contrib.auth.backends.ModelBackend")
    base = f"/api/competitions/{comp.pk}"

    def post(path, **data):
        return secretary.post(f"{base}/{path}", data, content_type="application/json")

    assert post("draw/commit/", commitment=cupdraw.commitment("groups")).status_code == 200
    assert post("draw/reveal/", secret="groups").status_code == 200
    assert post("draw/").status_code == 200
    published = secretary.get(f"{base}/draw/").json()
    groups_seed_secrets = (published["secretary_secret"], published["server_secret"])
    assert groups_seed_secrets[0] == "groups" and groups_seed_secrets[1]

    # The knock-out is committed to only once the groups are decided ...
    early = post("draw/commit/", commitment=cupdraw.commitment("knock-out"))
    assert early.json()["error"] == "groups_unfinished"
    for tie in Tie.objects.filter(group__competition=comp):
        rows = [{"home": 200, "away": 100}, {"home": 200, "away": 100}]
        tie_record_paper(actor=league.secretary, tie=tie, frames=rows, now=NOW)
    # ... and never drawn from the group draw's published secrets.
    refused = post("knockout/")
    assert refused.status_code == 400 and refused.json()["error"] == "not_revealed"

    assert post("draw/commit/", commitment=cupdraw.commitment("knock-out")).status_code == 200
    sealed = secretary.get(f"{base}/draw/").json()
    assert sealed["knockout_server_commitment"] and sealed["knockout_server_secret"] == ""
    assert (sealed["secretary_secret"], sealed["server_secret"]) == groups_seed_secrets
    assert post("draw/reveal/", secret="knock-out").status_code == 200
    assert post("knockout/").status_code == 200

    done = secretary.get(f"{base}/draw/").json()
    comp = Competition.objects.get(pk=comp.pk)
    assert done["knockout_secretary_secret"] == "knock-out"
    assert cupdraw.commitment(done["knockout_server_secret"]) == done["knockout_server_commitment"]
    assert comp.knockout_seed == cupdraw.derive_seed(
        "knock-out", done["knockout_server_secret"], "knockout"
    )
    assert comp.knockout_seed != cupdraw.derive_seed(*groups_seed_secrets, "knockout")
    qualifiers = comp.draw_record["knockout"]["qualifiers"]
    replayed = cupdraw.draw_knockout(qualifiers, comp.knockout_seed).to_json()
    assert replayed.items() <= comp.draw_record["knockout"].items()
    assert done["knockout_replay"].endswith(f"--seed {comp.knockout_seed}")
