"""Everything Marker holds about one person, as JSON they can download (GDPR art. 15/20):
one key per section of the registry (`people.registry`). Other people appear only as
the public sees them (a team's name, an opponent's public name); never another person's
email, account or private details."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from marker.personal_data import Person, iso

from .registry import sections

#: The export's format version: a field added is compatible, a field changed is not.
EXPORT_VERSION = 1


def person_data(player: Any, user: Any = None) -> dict[str, Any]:
    """Everything Marker holds about a person (a player record, an account, or both):
    each section's part under its name."""
    person = Person.of(player, user)
    data: dict[str, Any] = {
        "format": "marker-personal-data",
        "version": EXPORT_VERSION,
        "exported_at": iso(timezone.now()),
    }
    for section in sections():
        if section.export is not None:
            data[section.name] = section.export(person)
    return data
