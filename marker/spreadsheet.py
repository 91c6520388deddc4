"""CSV that is safe to open in a spreadsheet.

A spreadsheet reads a cell that starts with `=`, `+`, `-` or `@` (or a tab or a carriage
return, which some strip first) as a formula: a team named `=HYPERLINK("http://…")`
would become a live link in every captain's copy of the tables. Such text is written
with a leading apostrophe, which spreadsheets show as text and do not display. Numbers
are numbers: `-2`, `-1.5`, `+3` or `-1½` (a negative frame difference) stay as they are.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Sequence
from typing import Any

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?(?:\d+(?:[.,]\d+)*½?|½)")


def safe_cell(value: Any) -> Any:
    """`value`, or text that a spreadsheet will not run as a formula."""
    if isinstance(value, str) and value.startswith(FORMULA_START) and not _NUMBER.fullmatch(value):
        return "'" + value
    return value


def write_rows(rows: Iterable[Sequence[Any]]) -> str:
    """CSV text of `rows`, each cell made safe."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    for row in rows:
        writer.writerow([safe_cell(cell) for cell in row])
    return out.getvalue()


def make_safe(text: str) -> str:
    """CSV text made safe cell by cell (for CSV stored before cells were made safe;
    text already safe comes back unchanged)."""
    return write_rows(csv.reader(io.StringIO(text, newline="")))
