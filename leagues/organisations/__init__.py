"""Organisations above leagues: a county or an association and its member leagues."""
