"""Ratings per game (OpenSkill), the pictures drawn from the shot log, head to head."""
