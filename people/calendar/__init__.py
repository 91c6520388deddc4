"""A person's own calendar (docs/calendar.md): one private address per player
(`services`), and the feed at that address, gathered from a list of sources (`feed`)."""
