"""Issue 34's follow-up: a person who chose to be shown by their initials ("Z. Q."), before
or after they played a match-night frame on the pad and a cup whose final was on the pad,
is named by their full name on no public page or API answer (the access matrix's URL
patterns and the addresses of their frames and cup: state, shot log, worm, bracket, draw,
entries, ties), nor in the labels stored for their frames and cup (what the archive and
the pads carry); choosing it is a reversible rename of the labels stored for them
(un-choosing gives back every stored label), and the shot logs
still replay to their stored states while tables, ratings and the cup do not change."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command
from django.test import Client

from competitions.models import Competition, CompetitionLog, Entry, TieFrame
from frames.models import Frame, FrameEvent, Friendly
from leagues.models import Player
from marker.personal_data import rewrite_rows, rewriter
from people.naming import relabel_private_names
from tests.people.test_erased_everywhere import (
    OLD,
    _answers,
    _replayed_draw,
    _results,
    _world,
)

pytestmark = pytest.mark.django_db

INITIALS = "Z. Q."


def _frame_ids(w) -> list[int]:
    return [*Frame.objects.filter(match=w.match).values_list("pk", flat=True), *w.cup_frames]


def _mine(w) -> dict[str, str]:
    """The public answers about their frames and their cup."""
    c = w.cup.pk
    urls = [
        f"/api/competitions/{c}/",
        f"/api/competitions/{c}/entries/",
        f"/api/competitions/{c}/draw/",
        f"/api/competitions/{c}/bracket/",
        f"/api/ties/{w.final.pk}/",
        *(f"/api/frames/{pk}/state/" for pk in [w.my_frame.pk, *w.cup_frames]),
        *(f"/api/frames/{pk}/events/?since=0" for pk in [w.my_frame.pk, *w.cup_frames]),
        *(f"/frames/{pk}/worm/" for pk in [w.my_frame.pk, *w.cup_frames]),
    ]
    client = Client()
    return {url: client.get(url).content.decode() for url in urls}


def _public(w) -> dict[str, str]:
    """Every public answer: the access matrix and their own addresses as the public (the
    friendly game they typed their own name into is theirs, not a public label)."""
    friendly = Friendly.objects.get(pk=w.my_friendly.pk)
    own = (f"/games/{friendly.pk}/", f"/frames/{friendly.frame.pk}/")
    seen = {
        where: text
        for where, text in _answers(w).items()
        if where.startswith("anonymous") and not any(o in where for o in own)
    }
    return seen


def _named(texts: dict[str, str], name: str) -> list[str]:
    return [where for where, text in texts.items() if name.lower() in text.lower()]


def _stored(w) -> dict:
    """Every label stored as text for their frames and their cup."""
    ids = _frame_ids(w)
    return {
        "frames": list(
            Frame.objects.filter(pk__in=ids)
            .order_by("pk")
            .values("setup", "parties", "state", "view")
        ),
        "events": list(
            FrameEvent.objects.filter(frame_id__in=ids)
            .order_by("frame_id", "seq")
            .values("payload", "state_after", "view_after")
        ),
        "titles": list(
            Friendly.objects.filter(frame__id__in=ids).order_by("pk").values_list("title")
        ),
        "draw": Competition.objects.get(pk=w.cup.pk).draw_record,
        "log": list(
            CompetitionLog.objects.filter(competition=w.cup).order_by("pk").values("detail")
        ),
    }


def _choose(w, private: bool) -> None:
    client = Client()
    client.force_login(w.user, backend="django.contrib.auth.backends.ModelBackend")
    response = client.post(
        "/api/me/privacy/", {"private_name": private}, content_type="application/json"
    )
    assert response.status_code == 200, response.content
    assert response.json()["private_name"] is private


def _replays_clean() -> None:
    call_command("frames_check")  # raises CommandError when a frame differs from its log


def _shown_by(w, name: str) -> None:
    """Their frames and cup name them by `name` (so a check finding nothing is a check)."""
    mine = _mine(w)
    for url in (
        f"/api/frames/{w.my_frame.pk}/state/",
        f"/api/frames/{w.cup_frames[0]}/state/",
        f"/api/competitions/{w.cup.pk}/bracket/",
        f"/api/competitions/{w.cup.pk}/entries/",
        f"/api/competitions/{w.cup.pk}/draw/",
        f"/api/ties/{w.final.pk}/",
    ):
        assert name in mine[url], url


def test_initials_chosen_after_playing_rename_every_label_and_back(capsys):
    w = _world(chosen="not")
    _shown_by(w, OLD)
    stored, results, draw = _stored(w), _results(w), _replayed_draw(w, capsys)

    _choose(w, True)

    found = _named(_public(w), OLD)
    assert not found, "\n".join(found)
    _shown_by(w, INITIALS)
    assert OLD not in json.dumps(_stored(w))
    _replays_clean()
    assert _results(w) == results
    assert _replayed_draw(w, capsys) == draw

    _choose(w, False)

    assert _stored(w) == stored  # reversible: every label as it was
    _shown_by(w, OLD)
    _replays_clean()
    assert _results(w) == results


def test_initials_chosen_before_playing_are_stored_from_the_start(capsys):
    w = _world(chosen="before")
    found = _named(_public(w), OLD)
    assert not found, "\n".join(found)
    _shown_by(w, INITIALS)
    assert OLD not in json.dumps(_stored(w))
    _replays_clean()
    stored, results, draw = _stored(w), _results(w), _replayed_draw(w, capsys)

    _choose(w, False)

    _shown_by(w, OLD)
    assert INITIALS not in json.dumps(_stored(w))
    _replays_clean()
    assert _results(w) == results
    assert _replayed_draw(w, capsys) == draw

    _choose(w, True)

    assert _stored(w) == stored


def test_initials_that_read_as_another_label_get_the_id(capsys):
    """A rival in the cup (and in the frames of its final) literally named "Z. Q.": the
    person's initials take their id there, and un-choosing restores the name."""
    w = _world(chosen="not")
    rival = Entry.objects.filter(competition=w.cup).exclude(player=w.victim).get().player
    Player.objects.filter(pk=rival.pk).update(name=INITIALS)
    stored = _stored(w)
    stored_text = json.dumps(stored)
    # The labels the rival was stored under, renamed as if they had always been "Z. Q.".
    rival_name = Player.objects.get(pk=rival.pk).name
    assert rival_name == INITIALS
    # Rename the rival's stored labels the way an erasure would (a plain rewrite).
    old_rival = " ".join(rival.name.split())
    assert old_rival in stored_text
    rewrite = rewriter({old_rival: INITIALS}, [OLD])
    rewrite_rows(
        Frame.objects.filter(pk__in=w.cup_frames), ["setup", "parties", "state", "view"], rewrite
    )
    rewrite_rows(
        FrameEvent.objects.filter(frame_id__in=w.cup_frames),
        ["payload", "state_after", "view_after"],
        rewrite,
    )
    _replays_clean()
    before = _stored(w)

    _choose(w, True)

    mine = f"{INITIALS} #{w.victim.pk}"
    for pk in w.cup_frames:
        parties = Frame.objects.get(pk=pk).parties
        assert mine in parties and INITIALS in parties and parties[mine] != parties[INITIALS]
    _replays_clean()

    _choose(w, False)

    assert _stored(w) == before
    assert TieFrame.objects.filter(tie=w.final).count() == 2


def test_labels_stored_before_the_choice_renamed_them_are_renamed_by_the_command(capsys):
    """A person who chose initials before the choice renamed stored labels (the flag set,
    the frames and cup stored with their full name): `relabel_private_names` (run once
    after the upgrade, docs/privacy.md) renames them, and running it again changes
    nothing."""
    w = _world(chosen="not")
    Player.objects.filter(pk=w.victim.pk).update(private_name=True)  # as stored then
    assert _named(_public(w), OLD)
    results = _results(w)

    assert relabel_private_names() == 1

    found = _named(_public(w), OLD)
    assert not found, "\n".join(found)
    _shown_by(w, INITIALS)
    renamed = _stored(w)
    assert relabel_private_names() == 1
    assert _stored(w) == renamed
    _replays_clean()
    assert _results(w) == results
