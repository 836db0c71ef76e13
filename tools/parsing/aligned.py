"""Tables in plain text whose columns are aligned with runs of spaces.

A line splits into cells where it has two or more spaces in a row; one space never separates
cells, so "Unit price" or "Server Rack 42HE" stays whole. A block of lines is a table when
its cells stand in columns: every column is a run of positions some line's cells cover, and
the columns are kept apart by positions that every line leaves blank. A table grows down from
a header line:

* the header has two or more cells, one of them with a letter, none an amount;
* a line joins when each of its cells stands under one column; the first row may add a column
  the header left without a name, later lines may not;
* a joining line is a row when it fills two or more cells, and a text cell wrapped onto a line
  of its own (continuing the text cell above it) when it fills one column other than the first;
* separator lines (dashes, '=' or '_') between the header and the rows are dropped;
* anything else ends the table: a blank line, a line with a TAB (already a table's shape), a
  ``Key: value`` line such as ``Total: 2.960,50``, a line running across columns (prose).

A table needs two rows, and in every column its cells start at one position or end at one
(left- or right-aligned), which words that a justified paragraph spreads out never do.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field

MIN_ROWS = 2
MAX_WIDTH = 1000  # a longer line is running text, not a row
MAX_CELL_WORDS = 16  # a cell holding more words than this is a sentence
ALIGNED_SHARE = 0.6  # this share of a column's cells start (or end) at one position

_GAP = re.compile(r" {2,}")
_SEPARATOR = re.compile(r"[-=_+| ]*[-=_]{3,}[-=_+| ]*")
# a cell that opens with a short label and a colon ("Total:", "Date: 2025-03-14"); a time such
# as 10:30 or a link has no letter before its colon or no space after it
_KEY = re.compile(r"[^\W\d_][^:]{0,59}:(?:\s|$)")
_AMOUNT = re.compile(r"\d[.,]\d")


@dataclass(frozen=True)
class _Segment:
    start: int  # display column of the first character
    end: int  # display column after the last character
    text: str


@dataclass
class AlignedTable:
    """A table found in lines: the lines it takes (``start`` up to ``end``) and its rows."""

    start: int
    end: int
    rows: list[list[str]]  # header first


@dataclass
class _Row:
    segments: list[_Segment]
    wrapped: list[_Segment] = field(default_factory=list)  # continuation lines of its cells


def _width(ch: str) -> int:
    if unicodedata.combining(ch):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def segments(line: str) -> list[_Segment]:
    """The cells of one line: its text split at runs of two or more spaces, in display columns."""
    out: list[_Segment] = []
    column = 0
    position = 0
    for match in [*_GAP.finditer(line), None]:
        stop = match.start() if match else len(line)
        piece = line[position:stop]
        lead = len(piece) - len(piece.lstrip(" "))
        start = column + sum(_width(ch) for ch in piece[:lead])
        text = piece.strip(" ")
        end = start + sum(_width(ch) for ch in text)
        if text:
            out.append(_Segment(start, end, text))
        column = end + (len(piece) - lead - len(text))  # trailing spaces of the piece
        if match:
            column += match.end() - match.start()
            position = match.end()
    return out


def _is_separator(line: str) -> bool:
    return bool(_SEPARATOR.fullmatch(line.strip()))


def _has_letter(text: str) -> bool:
    return any(ch.isalpha() for ch in text)


def _is_key_value(cells: list[_Segment]) -> bool:
    return any(_KEY.match(cell.text) for cell in cells)


def _is_header(cells: list[_Segment]) -> bool:
    return (
        len(cells) >= 2
        and any(_has_letter(c.text) for c in cells)
        and not any(_AMOUNT.search(c.text) and not _has_letter(c.text) for c in cells)
        and not _is_key_value(cells)
    )


def _candidate(line: str) -> list[_Segment] | None:
    """The line's cells, or None when the line cannot be part of an aligned table."""
    if not line.strip() or "\t" in line or len(line) > MAX_WIDTH:
        return None
    return segments(line)


class _Grid:
    """Column extents, left to right, each the span its cells cover."""

    def __init__(self, cells: list[_Segment]) -> None:
        self.columns = [[c.start, c.end] for c in cells]

    def touching(self, cell: _Segment) -> list[int]:
        # touching without a blank position between counts: columns must stay apart
        return [j for j, (a, b) in enumerate(self.columns) if cell.start <= b and cell.end >= a]

    def fits(self, cells: list[_Segment], may_add: bool) -> bool:
        """Whether each cell stands under one column (or, if ``may_add``, in a gap of its own)."""
        spans = [self.touching(c) for c in cells]
        if any(len(s) > 1 for s in spans) or (not may_add and any(not s for s in spans)):
            return False
        new = [c for c, s in zip(cells, spans) if not s]
        # two new cells in one gap would touch each other's column
        return all(not (a.start <= b.end and a.end >= b.start) for a in new for b in new if a is not b)

    def add(self, cells: list[_Segment]) -> None:
        for cell in cells:
            hit = self.touching(cell)
            if hit:
                column = self.columns[hit[0]]
                column[0], column[1] = min(column[0], cell.start), max(column[1], cell.end)
            else:
                self.columns.append([cell.start, cell.end])
        self.columns.sort()

    def split(self, cells: list[_Segment]) -> list[_Segment]:
        """Cells set one space apart under two columns ("13.06.2025 13.07.2025" under "Belegdat."
        and "Fällig am") split where the space stands in the blank between the columns."""
        out: list[_Segment] = []
        for cell in cells:
            out += self._split(cell) if len(self.touching(cell)) > 1 else [cell]
        return out

    def _split(self, cell: _Segment) -> list[_Segment]:
        gaps = [(b, a2) for (_, b), (a2, _) in zip(self.columns, self.columns[1:])]
        pieces: list[_Segment] = []
        start, column, text = cell.start, cell.start, ""
        for ch in cell.text:
            if ch == " " and text and any(b <= column < a2 for b, a2 in gaps):
                pieces.append(_Segment(start, column, text))
                start, text = column + 1, ""
            else:
                text += ch
            column += _width(ch)
        pieces.append(_Segment(start, column, text))
        # a split leaves each piece under one column, or the cell stays whole
        return pieces if all(len(self.touching(p)) == 1 for p in pieces) else [cell]

    def index(self, cell: _Segment) -> int:
        return next(j for j, (a, b) in enumerate(self.columns) if a <= cell.start and cell.end <= b)


def find_tables(lines: list[str]) -> list[AlignedTable]:
    """The aligned tables among ``lines``, in order; they never overlap."""
    found: list[AlignedTable] = []
    i = 0
    while i < len(lines):
        table = _table_at(lines, i)
        if table is None:
            i += 1
        else:
            found.append(table)
            i = table.end
    return found


def _table_at(lines: list[str], i: int) -> AlignedTable | None:
    header = _candidate(lines[i])
    if header is None or not _is_header(header):
        return None
    grid = _Grid(header)
    rows: list[_Row] = []
    end = j = i + 1
    while j < len(lines):
        line = lines[j]
        if _is_separator(line):
            j += 1
            if not rows:  # under the header; one between rows is kept only when a row follows
                end = j
            continue
        cells = _candidate(line)
        cells = grid.split(cells) if cells else cells
        if not cells or _is_key_value(cells) or not grid.fits(cells, may_add=not rows):
            break
        if len(cells) == 1:
            if not rows or not _continues(grid, rows[-1], cells[0]):
                break
            grid.add(cells)
            rows[-1].wrapped.append(cells[0])
        else:
            grid.add(cells)
            rows.append(_Row(cells))
        j += 1
        end = j
    if len(rows) < MIN_ROWS or not _aligned(grid, rows) or _prose(header, rows):
        return None
    table = [_cells(grid, header)]
    for row in rows:
        table.append(_cells(grid, row.segments + row.wrapped))
    return AlignedTable(i, end, table)


def _continues(grid: _Grid, above: _Row, cell: _Segment) -> bool:
    """Whether ``cell`` is text wrapped from the text cell above it (not a total under a number)."""
    (column,) = grid.touching(cell)
    if column == 0 or not _has_letter(cell.text):
        return False
    over = [s for s in above.segments if grid.touching(s) == [column]]
    return bool(over) and _has_letter(over[0].text)


def _cells(grid: _Grid, cells: list[_Segment]) -> list[str]:
    texts = [""] * len(grid.columns)
    for cell in cells:
        j = grid.index(cell)
        texts[j] = f"{texts[j]} {cell.text}".strip()
    return texts


def _aligned(grid: _Grid, rows: list[_Row]) -> bool:
    """Whether the rows' cells of every column share a left or a right edge."""
    by_column: dict[int, list[_Segment]] = {}
    for row in rows:
        for cell in row.segments:
            by_column.setdefault(grid.index(cell), []).append(cell)
    for cells in by_column.values():
        if len(cells) < 2:
            continue
        need = max(2, math.ceil(ALIGNED_SHARE * len(cells)))
        starts = Counter(c.start for c in cells).most_common(1)[0][1]
        ends = Counter(c.end for c in cells).most_common(1)[0][1]
        if max(starts, ends) < need:
            return False
    return True


def _prose(header: list[_Segment], rows: list[_Row]) -> bool:
    cells = header + [c for row in rows for c in row.segments]
    return any(len(c.text.split()) > MAX_CELL_WORDS for c in cells)
