"""The competitions app listens to leagues: a cup fixture's confirmed result sends the
tie's winner through (leagues calls the hook; it never imports competitions)."""

from __future__ import annotations

from leagues.hooks import on_fixture_result

from .results import tie_fixture_result

on_fixture_result(tie_fixture_result)
