"""Match nights: the draw, frames, shot events and scorecards."""
