"""Who may do what in a league: registered into the one predicate table
(marker.permissions) when the app loads; views, services and the API ask for them by name."""

from __future__ import annotations

from marker.permissions import either, is_authenticated, is_secretary, is_team_captain, register

register("leagues.manage_league", is_secretary)
register("leagues.register_team", is_authenticated)
register("leagues.change_team", either(is_secretary, is_team_captain))
register("leagues.manage_fixtures", is_secretary)
register("leagues.import_data", is_secretary)
register("leagues.export_data", is_secretary)
