"""Competition pages, by sub-domain: a season's competitions and an event's bracket and
group tables (`setup`); each tie with its scorecard, the pad, and the iCalendar feeds of a
player's or a team's ties (`ties`). Thin: look up, permission, a selector or one service,
render."""
