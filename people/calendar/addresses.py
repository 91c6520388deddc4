"""A calendar address as the page and the API give it: the https address (to copy into a
calendar app) and the webcal:// one (a phone's "subscribe" link)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.urls import reverse

from leagues.models import CalendarFeed


@dataclass(frozen=True)
class Address:
    url: str
    webcal: str
    created_at: datetime


def address_of(request, feed: CalendarFeed) -> Address:
    url = request.build_absolute_uri(reverse("person-calendar", args=[feed.token]))
    return Address(url=url, webcal="webcal://" + url.split("://", 1)[1], created_at=feed.created_at)
