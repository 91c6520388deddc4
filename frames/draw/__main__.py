"""``python -m frames.draw --home A,B,... --away C,D,... --seed N``: see :mod:`frames.draw.cli`."""

import sys

from frames.draw.cli import main

sys.exit(main())
