"""The match-night draw and the referee rota for 4-pin bar billiards (league rules 6, 7, 8),
and a night in any other match format.

Pure functions of an explicit :class:`random.Random`: no Django, no database, standard
library only, so ``python3 -m frames.draw`` runs from a bare checkout. docs/draw.md explains
the algorithm. One module a job: ``base`` (the card, the checks), ``hat`` (Norwich's draw),
``format_draw`` (any other format), ``referees`` (the rota's solver), ``validation`` and
``cli``; the seed's commit and reveal are ``marker.commit_reveal``. The short version:

* each side's names go into its own hat, **sorted**, so the draw depends only on the set of
  names and the seed, never on the order someone typed them in;
* singles frames 1-6 take names from one Fisher-Yates shuffle of the hat, doubles frames
  7-9 from a second, independent shuffle (every name has the same chance of every slot);
* a side of five follows rule 8 exactly (the sixth-singles and third-doubles redraws);
* a side of one to four plays only by agreement and concedes the frames it cannot fill,
  the last ones of each kind in drawn order;
* referees: home for the 1st, 3rd, 5th, 7th and 9th frame played, away for the others,
  nobody in the frame they referee, nobody twice; when that is impossible the one-frame
  rule gives way first, then the rotation, never the first. Among the best assignments one
  is chosen uniformly at random.

>>> draw = draw_match(["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"],
...                   ["Gus", "Hal", "Ivy", "Jo", "Kim", "Lou"], seed=7)
>>> [frame.kind for frame in draw.frames].count("singles")
6
>>> validate_draw(draw, ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"],
...               ["Gus", "Hal", "Ivy", "Jo", "Kim", "Lou"])
[]
"""

from marker.commit_reveal import MAX_SEED, commitment, derive_seed

from .base import (
    ALGORITHM_VERSION,
    AWAY,
    DOUBLES,
    FORMAT_ALGORITHM_VERSION,
    HOME,
    RELAXED_ONE_FRAME,
    RELAXED_ROTATION,
    SIDES,
    SINGLES,
    Draw,
    DrawError,
    DrawnFrame,
    Referee,
    frame_kind,
    rota_side,
)
from .cli import main
from .format_draw import check_nomination, draw_format, draw_match
from .hat import draw_hat
from .referees import assign_referees, reassign_referees, referee_seed
from .validation import validate_draw

__all__ = [
    "ALGORITHM_VERSION",
    "AWAY",
    "DOUBLES",
    "FORMAT_ALGORITHM_VERSION",
    "HOME",
    "MAX_SEED",
    "RELAXED_ONE_FRAME",
    "RELAXED_ROTATION",
    "SIDES",
    "SINGLES",
    "Draw",
    "DrawError",
    "DrawnFrame",
    "Referee",
    "assign_referees",
    "check_nomination",
    "commitment",
    "derive_seed",
    "draw_format",
    "draw_hat",
    "draw_match",
    "frame_kind",
    "main",
    "reassign_referees",
    "referee_seed",
    "rota_side",
    "validate_draw",
]
