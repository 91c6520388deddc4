"""The kinds of message Marker sends, and which are on for someone who chose nothing.

The default is useful without being noisy: what asks something of the person (answer the
availability, confirm a result, settle a dispute, pay), what changes their week (a fixture
tomorrow, a cup draw, a tie's deadline, no card received) and their team's results are on;
the running commentary (a frame started, a table published, a rating moved) is off until
chosen.
"""

from __future__ import annotations

from django.db import models


class Event(models.TextChoices):
    FIXTURE_TOMORROW = "fixture_tomorrow", "A fixture of yours tomorrow"
    AVAILABILITY_ASKED = "availability_asked", "Your captain asks if you can play"
    FRAME_STARTED = "frame_started", "A frame of your team started"
    MATCH_RESULT = "match_result", "A result of your team"
    RESULT_TO_CONFIRM = "result_to_confirm", "A result for you to confirm"
    DISPUTE = "dispute", "A dispute"
    TABLE_PUBLISHED = "table_published", "A league table published"
    CUP_DRAW = "cup_draw", "A cup draw"
    TIE_DEADLINE = "tie_deadline", "A cup tie's deadline"
    RATING_MOVED = "rating_moved", "Your rating moved"
    NO_CARD = "no_card", "No card received for a fixture"
    MONEY_OWED = "money_owed", "Money you owe the league"
    POST_ANSWERED = "post_answered", "An answer to your post"


#: The events on for someone who has not chosen (see the module's docstring).
DEFAULT_ON: frozenset[str] = frozenset(Event.values) - {
    Event.FRAME_STARTED,
    Event.TABLE_PUBLISHED,
    Event.RATING_MOVED,
}


#: The events as the choices page groups them: what asks something of the person, what
#: happens to them and their team, and what the league announces.
GROUPS: tuple[tuple[str, tuple[Event, ...]], ...] = (
    (
        "Asks of you",
        (
            Event.AVAILABILITY_ASKED,
            Event.RESULT_TO_CONFIRM,
            Event.DISPUTE,
            Event.NO_CARD,
            Event.MONEY_OWED,
        ),
    ),
    (
        "You and your team",
        (
            Event.FIXTURE_TOMORROW,
            Event.FRAME_STARTED,
            Event.MATCH_RESULT,
            Event.CUP_DRAW,
            Event.TIE_DEADLINE,
            Event.RATING_MOVED,
            Event.POST_ANSWERED,
        ),
    ),
    ("The league", (Event.TABLE_PUBLISHED,)),
)
