"""Seasons and their divisions."""
