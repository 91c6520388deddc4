"""The paper card: a photo of the signed score card, from the match page, stored without
its location (filesystem and S3-compatible storage alike), shown to the league's members
and officers beside the scorecard and on the settle page; "No card received" for an overdue
fixture, on its pages and the secretary's list."""

from __future__ import annotations

import io
import re
from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone
from PIL import Image

from frames.matchnight import card_photos as cards
from frames.models import CardPhoto, MatchLog
from leagues.models import Fixture
from marker.errors import DomainError
from tests.factories import LeagueFactory, UserFactory, make_secretary
from tests.frames.card_helpers import has_no_metadata, phone_jpeg
from tests.frames.matchnight_helpers import drawn, fixture_of, open_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def league(league_of_the_module):
    return league_of_the_module


def login(client, user):
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client


def photo_file(data: bytes | None = None, name: str = "IMG_0001.jpg", kind: str = "image/jpeg"):
    return SimpleUploadedFile(name, phone_jpeg() if data is None else data, content_type=kind)


def upload(client, match, data: bytes | None = None, **extra):
    return client.post(
        reverse("match-card-upload", args=[match.pk]), {"photo": photo_file(data), **extra}
    )


# ---------------------------------------------------------------------------- storing


def test_a_phone_photo_is_stored_upright_small_and_without_its_location(
    league, client, card_storage
):
    match = drawn(league)
    response = upload(login(client, league.captain), match)
    assert response.status_code == 302
    assert response["Location"] == match.get_absolute_url()

    photo = CardPhoto.objects.get(match=match)
    assert photo.uploaded_by == league.captain
    # Read back from the storage's own backend (the directory, or the bucket over HTTP).
    stored = card_storage(photo.image.name)
    assert has_no_metadata(stored)
    with Image.open(io.BytesIO(stored)) as image:
        # 2400 × 1200 turned upright (EXIF orientation 6) is portrait, shrunk to 2000 high.
        assert image.size == (1000, 2000) == (photo.width, photo.height)
        # Turned a quarter clockwise: the red mark at the pixels' top left is at the top right.
        assert image.getpixel((980, 20))[0] > 180 and image.getpixel((20, 20))[1] > 180
    thumb = card_storage(photo.thumbnail.name)
    assert has_no_metadata(thumb)
    with Image.open(io.BytesIO(thumb)) as image:
        assert max(image.size) == cards.THUMB_SIDE
    # Two objects, under unguessable names (nothing of the match or the file's name).
    assert card_storage.names() == sorted([photo.image.name, photo.thumbnail.name])
    assert re.fullmatch(r"cards/[A-Za-z0-9_-]{32}\.jpg", photo.image.name)
    assert MatchLog.objects.filter(match=match, action="card_photo").count() == 1

    # Shown beside the scorecard, served through the permission-checked view.
    page = client.get(match.get_absolute_url()).content.decode()
    assert reverse("card-photo-thumb", args=[photo.pk]) in page
    served = client.get(reverse("card-photo", args=[photo.pk]))
    assert served.status_code == 200
    assert served["Content-Type"] == "image/jpeg"
    assert "private" in served["Cache-Control"]
    body = b"".join(served.streaming_content)
    assert body == stored and has_no_metadata(body)


def test_front_and_back_are_two_photos(league, client, card_storage):
    match = drawn(league)
    login(client, league.captain)
    assert upload(client, match).status_code == 302
    assert upload(client, match).status_code == 302
    photos = list(CardPhoto.objects.filter(match=match))
    assert len(photos) == 2 and photos[0].image.name != photos[1].image.name
    assert len(card_storage.names()) == 4


@pytest.mark.parametrize(
    ("data", "name", "code_text"),
    [
        (b"%PDF-1.4 not a photo", "card.pdf", "not a photo Marker can read"),
        (b"\xff\xd8\xff\xe0" + b"\0" * 200, "broken.jpg", "not a photo Marker can read"),
        (b"", "empty.jpg", "not a photo Marker can read"),
    ],
)
def test_a_file_that_is_not_an_image_is_refused_and_nothing_is_stored(
    league, client, settings, tmp_path, data, name, code_text
):
    settings.STORAGES = {
        **settings.STORAGES,
        "default": {
            "BACKEND": "django.core.files.storage.FileSystemStorage",
            "OPTIONS": {"location": str(tmp_path)},
        },
    }
    match = drawn(league)
    login(client, league.captain)
    response = client.post(
        reverse("match-card-upload", args=[match.pk]),
        {"photo": SimpleUploadedFile(name, data, content_type="image/jpeg")},
    )
    assert response.status_code == 400
    assert code_text in response.content.decode()
    assert not CardPhoto.objects.filter(match=match).exists()
    assert not any(tmp_path.rglob("*"))


def test_a_photo_over_15_mb_is_refused_with_its_size(league, client, settings, tmp_path):
    settings.STORAGES = {
        **settings.STORAGES,
        "default": {
            "BACKEND": "django.core.files.storage.FileSystemStorage",
            "OPTIONS": {"location": str(tmp_path)},
        },
    }
    match = drawn(league)
    login(client, league.captain)
    big = phone_jpeg() + b"\0" * (15 * 1024 * 1024)
    response = upload(client, match, big)
    assert response.status_code == 400
    assert "at most 15 MB" in response.content.decode()
    assert not CardPhoto.objects.exists() and not any(tmp_path.rglob("*"))
    # Only this path takes a body over the site's 1 MiB: another answers 413 before any view.
    other = client.post(
        reverse("match-confirm", args=[match.pk]), {"photo": photo_file(big), "side": "home"}
    )
    assert other.status_code == 413


def test_the_service_refuses_with_a_code(league, settings, tmp_path):
    settings.STORAGES = {
        **settings.STORAGES,
        "default": {
            "BACKEND": "django.core.files.storage.FileSystemStorage",
            "OPTIONS": {"location": str(tmp_path)},
        },
    }
    match = drawn(league)
    with pytest.raises(DomainError) as refused:
        cards.card_photo_add(match=match, upload=io.BytesIO(b"hello"), size=5, actor=league.captain)
    assert (refused.value.code, refused.value.field) == ("card_not_image", "photo")
    with pytest.raises(DomainError) as refused:
        cards.card_photo_add(
            match=match, upload=io.BytesIO(phone_jpeg()), size=16 * 2**20, actor=league.captain
        )
    assert refused.value.code == "card_too_large"
    with pytest.raises(DomainError) as refused:
        cards.card_photo_add(
            match=match, upload=io.BytesIO(phone_jpeg()), size=10, actor=league.outsider
        )
    assert (refused.value.code, refused.value.status) == ("forbidden", 403)
    assert not CardPhoto.objects.exists()


# ---------------------------------------------------------------------------- who


def test_who_may_add_a_photo(league, client, django_user_model, settings, tmp_path):
    settings.STORAGES = {
        **settings.STORAGES,
        "default": {
            "BACKEND": "django.core.files.storage.FileSystemStorage",
            "OPTIONS": {"location": str(tmp_path)},
        },
    }
    match = drawn(league)
    url = reverse("match-card-upload", args=[match.pk])
    anonymous = client.post(url, {"photo": photo_file()})
    assert anonymous.status_code == 302 and "/login/" in anonymous["Location"]
    # A stranger, and a member of the league who is neither captain nor referee: 403.
    for user in (league.outsider, league.player_user):
        assert upload(login(client.__class__(), user), match).status_code == 403
    assert not CardPhoto.objects.exists()
    # The other captain, a referee of the match, the secretary: stored.
    referee = match.frames.exclude(referee=None).select_related("referee").first().referee
    referee.user = UserFactory(username="card-referee")
    referee.save(update_fields=["user"])
    for user in (league.other_captain, referee.user, league.secretary):
        assert upload(login(client.__class__(), user), match).status_code == 302
    assert CardPhoto.objects.filter(match=match).count() == 3
    # The form is on the match page for them, with the phone's camera; not for others.
    page = login(client.__class__(), league.captain).get(match.get_absolute_url()).content
    assert b'accept="image/*" capture="environment"' in page
    page = login(client.__class__(), league.player_user).get(match.get_absolute_url()).content
    assert b'capture="environment"' not in page


def test_who_may_see_the_card(league, client, settings, tmp_path):
    settings.STORAGES = {
        **settings.STORAGES,
        "default": {
            "BACKEND": "django.core.files.storage.FileSystemStorage",
            "OPTIONS": {"location": str(tmp_path)},
        },
    }
    match = drawn(league)
    photo = cards.card_photo_add(
        match=match, upload=io.BytesIO(phone_jpeg()), size=10, actor=league.captain
    )
    urls = [reverse("card-photo", args=[photo.pk]), reverse("card-photo-thumb", args=[photo.pk])]
    # The public: to the login page; the page says who sees the card, and shows no photo.
    for url in urls:
        response = client.get(url)
        assert response.status_code == 302 and "/login/" in response["Location"]
    page = client.get(match.get_absolute_url()).content.decode()
    assert urls[1] not in page and "Log in as one of the league's players" in page
    # Signed in, but of no team of the league, or an officer of another league: 403.
    other_secretary = make_secretary(LeagueFactory(), username="elsewhere")
    for user in (league.outsider, other_secretary):
        signed_in = login(client.__class__(), user)
        assert all(signed_in.get(url).status_code == 403 for url in urls)
        assert urls[1] not in signed_in.get(match.get_absolute_url()).content.decode()
    # A player of the league (another team's too), the captains, the league's officer: 200.
    other_player = league.teams[5].registrations.select_related("player").first().player
    other_player.user = UserFactory(username="card-member")
    other_player.save(update_fields=["user"])
    for user in (
        league.player_user,
        other_player.user,
        league.other_captain,
        league.vice_captain,
        league.secretary,
    ):
        signed_in = login(client.__class__(), user)
        assert all(signed_in.get(url).status_code == 200 for url in urls), user
    assert client.get(reverse("card-photo", args=[photo.pk + 999])).status_code == 404


def test_the_secretary_sees_the_card_when_settling(league, client, settings, tmp_path):
    settings.STORAGES = {
        **settings.STORAGES,
        "default": {
            "BACKEND": "django.core.files.storage.FileSystemStorage",
            "OPTIONS": {"location": str(tmp_path)},
        },
    }
    match = drawn(league)
    photo = cards.card_photo_add(
        match=match, upload=io.BytesIO(phone_jpeg()), size=10, actor=league.captain
    )
    settle = login(client, league.secretary).get(reverse("match-settle", args=[match.pk]))
    page = settle.content.decode()
    assert reverse("card-photo-thumb", args=[photo.pk]) in page
    assert reverse("card-photo", args=[photo.pk]) in page
    sheet = client.get(reverse("match-sheet", args=[match.pk])).content.decode()
    assert reverse("card-photo-thumb", args=[photo.pk]) in sheet
    # Adding one from the settle page comes back to it.
    response = upload(client, match, next="settle")
    assert response["Location"] == reverse("match-settle", args=[match.pk])


def test_a_wrong_photo_is_removed_by_whoever_added_it(
    league, client, settings, tmp_path, django_capture_on_commit_callbacks
):
    settings.STORAGES = {
        **settings.STORAGES,
        "default": {
            "BACKEND": "django.core.files.storage.FileSystemStorage",
            "OPTIONS": {"location": str(tmp_path)},
        },
    }
    match = drawn(league)
    photo = cards.card_photo_add(
        match=match, upload=io.BytesIO(phone_jpeg()), size=10, actor=league.captain
    )
    url = reverse("card-photo-delete", args=[photo.pk])
    # Offered to whoever added it and the league's officers, not to the other captain.
    for user, offered in (
        (league.captain, True),
        (league.secretary, True),
        (league.other_captain, False),
    ):
        page = login(client.__class__(), user).get(match.get_absolute_url()).content.decode()
        assert (url in page) is offered, user
    assert login(client.__class__(), league.other_captain).post(url).status_code == 403
    assert CardPhoto.objects.filter(pk=photo.pk).exists()
    with pytest.raises(DomainError):
        cards.card_photo_delete(photo=photo, actor=league.player_user)
    with django_capture_on_commit_callbacks(execute=True):
        assert login(client, league.captain).post(url).status_code == 302
    assert not CardPhoto.objects.filter(pk=photo.pk).exists()
    # The files go once the removal is committed.
    assert not any(p.is_file() for p in tmp_path.rglob("*"))


# ---------------------------------------------------------------------------- no card


def overdue(league) -> Fixture:
    """The match's fixture, its date three days ago (the league's deadline is 48 hours)."""
    fixture = fixture_of(league)
    fixture.date = timezone.localdate() - timedelta(days=3)
    fixture.save(update_fields=["date"])
    return fixture


def test_no_card_received_for_an_overdue_fixture_until_a_photo_comes(
    league, client, settings, tmp_path
):
    settings.STORAGES = {
        **settings.STORAGES,
        "default": {
            "BACKEND": "django.core.files.storage.FileSystemStorage",
            "OPTIONS": {"location": str(tmp_path)},
        },
    }
    match = drawn(league)
    fixture = overdue(league)
    night = reverse("fixture-night", args=[fixture.pk])
    for viewer in (client, login(client.__class__(), league.captain)):
        assert "No card received" in viewer.get(match.get_absolute_url()).content.decode()
        assert "No card received" in viewer.get(night).content.decode()

    # Within the deadline: not yet.
    fixture.date = timezone.localdate() - timedelta(days=1)
    fixture.save(update_fields=["date"])
    assert "No card received" not in client.get(match.get_absolute_url()).content.decode()
    league.season.league.no_card_after_hours = 12
    league.season.league.save(update_fields=["no_card_after_hours"])
    assert "No card received" in client.get(match.get_absolute_url()).content.decode()

    cards.card_photo_add(
        match=match, upload=io.BytesIO(phone_jpeg()), size=10, actor=league.captain
    )
    assert "No card received" not in client.get(match.get_absolute_url()).content.decode()
    assert "No card received" not in client.get(night).content.decode()


def test_a_fixture_with_a_result_or_postponed_is_not_overdue(league):
    from frames.selectors import fixtures_without_card

    fixture = overdue(league)
    now = timezone.now()
    due = set(fixtures_without_card(now=now).values_list("pk", flat=True))
    assert fixture.pk in due
    Fixture.objects.filter(pk=fixture.pk).update(status=Fixture.Status.POSTPONED)
    assert fixture.pk not in set(fixtures_without_card(now=now).values_list("pk", flat=True))
    Fixture.objects.filter(pk=fixture.pk).update(
        status=Fixture.Status.PLAYED, result_confirmed_at=now
    )
    assert fixture.pk not in set(fixtures_without_card(now=now).values_list("pk", flat=True))


def test_the_secretarys_list_of_fixtures_without_a_card(league, client, django_assert_num_queries):
    fixture = overdue(league)
    open_match(league)
    url = reverse("league-no-card", args=[league.season.league.slug])
    assert login(client.__class__(), league.captain).get(url).status_code == 403
    other = make_secretary(LeagueFactory(), username="other-league-sec")
    assert login(client.__class__(), other).get(url).status_code == 403
    anonymous = client.__class__().get(url)
    assert anonymous.status_code == 302

    login(client, league.secretary)
    page = client.get(url).content.decode()
    assert f"{fixture.home.name} v {fixture.away.name}" in page
    # Every fixture of the first round is a week before today: all overdue, one query.
    Fixture.objects.filter(season=league.season, round=2).update(
        date=timezone.localdate() - timedelta(days=4)
    )
    # Session, user, league, roles, the fixtures with their matches, the menu's teams (two),
    # the notices.
    with django_assert_num_queries(8) as few:
        client.get(url)
    Fixture.objects.filter(season=league.season).update(
        date=timezone.localdate() - timedelta(days=5)
    )
    with django_assert_num_queries(len(few.captured_queries)):
        page = client.get(url).content.decode()
    assert page.count("<tr>") == Fixture.objects.filter(season=league.season).count() + 1


def test_the_match_page_reads_the_photos_in_one_query_however_many(
    league, client, settings, tmp_path, monkeypatch
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    settings.STORAGES = {
        **settings.STORAGES,
        "default": {
            "BACKEND": "django.core.files.storage.FileSystemStorage",
            "OPTIONS": {"location": str(tmp_path)},
        },
    }
    match = drawn(league)

    def add():
        return cards.card_photo_add(
            match=match, upload=io.BytesIO(phone_jpeg()), size=10, actor=league.captain
        )

    add()
    login(client, league.player_user)  # a member: the permission's query too
    url = match.get_absolute_url()
    client.get(url)
    with CaptureQueriesContext(connection) as one:
        client.get(url)
    add()
    add()
    with CaptureQueriesContext(connection) as three:
        page = client.get(url).content.decode()
    assert page.count('alt="Photo ') == 3
    assert len(three) == len(one)

    monkeypatch.setattr(cards, "MAX_PHOTOS", 3)
    with pytest.raises(DomainError) as refused:
        add()
    assert refused.value.code == "card_too_many"


def test_files_are_not_left_behind_when_the_row_cannot_be_written(
    league, settings, tmp_path, monkeypatch
):
    settings.STORAGES = {
        **settings.STORAGES,
        "default": {
            "BACKEND": "django.core.files.storage.FileSystemStorage",
            "OPTIONS": {"location": str(tmp_path)},
        },
    }
    match = drawn(league)

    def broken(*args, **kwargs):
        raise RuntimeError("the database went away")

    monkeypatch.setattr(MatchLog, "add", broken)
    with pytest.raises(RuntimeError):
        cards.card_photo_add(
            match=match, upload=io.BytesIO(phone_jpeg()), size=10, actor=league.captain
        )
    assert not CardPhoto.objects.filter(match=match).exists()
    assert not any(p.is_file() for p in tmp_path.rglob("*"))
