"""Availability: a captain asks the squad, players answer (docs/availability.md)."""
