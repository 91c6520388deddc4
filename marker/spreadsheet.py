"""CSV that is safe to open in a spreadsheet.

A spreadsheet reads a cell that starts with `=`, `+`, `-` or `@` (or a tab or a carriage
return, which some strip first) as a formula: a team named `=HYPERLINK("http://…")`
would become a live link in every captain's copy of the tables. Such text is written
with a leading apostrophe, which spreadsheets show as text and do not display. Numbers
are numbers: `-2`, `-1.5`, `+3` or `-1½` (a negative frame difference) stay as they are.
Text that already starts with apostrophes before such a character gets one more, so
`read_cell` (the import's reading) gives back every text exactly:

>>> [read_cell(safe_cell(t)) for t in ("=1+1", "'=1+1", "-2", "@home", "'Allo 'Allo")]
['=1+1', "'=1+1", '-2', '@home', "'Allo 'Allo"]
>>> safe_cell("'=1+1")
"''=1+1"
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Sequence
from typing import Any

from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?(?:\d+(?:[.,]\d+)*½?|½)")
#: Apostrophes, then a character that starts a formula: what `safe_cell` prefixed.
_ESCAPED = re.compile("'+[" + re.escape("".join(FORMULA_START)) + "]")


def needs_apostrophe(text: str) -> bool:
    """Whether a spreadsheet would run `text` as a formula (numbers aside)."""
    return text.startswith(FORMULA_START) and not _NUMBER.fullmatch(text)


def safe_cell(value: Any) -> Any:
    """`value`, or text that a spreadsheet will not run as a formula."""
    if isinstance(value, str) and (needs_apostrophe(value) or _ESCAPED.match(value)):
        return "'" + value
    return value


def read_cell(text: str) -> str:
    """A CSV cell as it was before `safe_cell` (its one added apostrophe taken off)."""
    return text[1:] if _ESCAPED.match(text) else text


def write_rows(rows: Iterable[Sequence[Any]]) -> str:
    """CSV text of `rows`, each cell made safe."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    for row in rows:
        writer.writerow([safe_cell(cell) for cell in row])
    return out.getvalue()


def make_safe(text: str) -> str:
    """CSV text made safe cell by cell (for CSV stored before cells were made safe;
    text already safe comes back unchanged: a cell with its apostrophe is left as it is)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    for row in csv.reader(io.StringIO(text, newline="")):
        writer.writerow([cell if _ESCAPED.match(cell) else safe_cell(cell) for cell in row])
    return out.getvalue()


def _xlsx_cell(sheet: Any, value: Any) -> Any:
    """A cell as a text cell when it is text that would otherwise be a formula: openpyxl
    takes any text starting with `=` for one, and a spreadsheet runs `+`, `-`, `@`."""
    if not (isinstance(value, str) and needs_apostrophe(value)):
        return value
    cell = WriteOnlyCell(sheet, value)
    cell.data_type = "s"  # a string, whatever it starts with
    cell.quotePrefix = True  # shown and edited as text
    return cell


def xlsx_bytes(rows: Iterable[Sequence[Any]], title: str) -> bytes:
    """An XLSX workbook of one sheet named `title`: text that looks like a formula is a
    text cell (its value exactly the text, no apostrophe), numbers are numbers."""
    book = Workbook(write_only=True)
    sheet = book.create_sheet(title=title[:31].replace("'", ""))
    for row in rows:
        sheet.append([_xlsx_cell(sheet, cell) for cell in row])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()
