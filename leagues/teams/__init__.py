"""Teams and their rosters."""
