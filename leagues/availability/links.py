"""The signed link a player answers from without logging in.

The token names the player, the fixture and the team, signed with the site's secret
(`django.core.signing`, a salt of its own) and stamped with the time it was made. It is
refused when changed or cut short (400), older than `MAX_AGE`, or once the fixture's date
has passed (410: `services.answer_subject` checks the fixture's date as it is now, so a
fixture moved later keeps its links working). Nothing is stored: the signature is the
proof."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.core import signing
from django.urls import reverse

from marker.errors import DomainError

SALT = "marker.availability.answer"
#: However late a fixture is moved, a link is refused after this long.
MAX_AGE = timedelta(days=366)


@dataclass(frozen=True)
class LinkSubject:
    player_id: int
    fixture_id: int
    team_id: int


def answer_token(*, player_id: int, fixture_id: int, team_id: int) -> str:
    return signing.dumps({"p": player_id, "f": fixture_id, "t": team_id}, salt=SALT, compress=True)


def answer_path(token: str) -> str:
    return reverse("availability-answer", args=[token])


def answer_url(token: str) -> str:
    """The link as a message carries it (absolute, from SITE_URL)."""
    return settings.SITE_URL.rstrip("/") + answer_path(token)


def read_token(token: str) -> LinkSubject:
    """Whom and what the token names; DomainError `link_invalid` (400) for a token Marker
    did not make as it is, `link_expired` (410) for one too old."""
    try:
        data = signing.loads(token, salt=SALT, max_age=MAX_AGE)
    except signing.SignatureExpired:
        raise DomainError(
            "link_expired",
            "This link has expired. Ask your captain, or answer in Marker when signed in.",
            status=410,
        ) from None
    except signing.BadSignature:
        raise DomainError(
            "link_invalid",
            "This link is not one Marker made: it may have been cut short or changed. "
            "Open it again from your message, or ask your captain.",
            status=400,
        ) from None
    try:
        return LinkSubject(int(data["p"]), int(data["f"]), int(data["t"]))
    except (KeyError, TypeError, ValueError):
        raise DomainError("link_invalid", "This link is not one Marker made.", status=400) from None
