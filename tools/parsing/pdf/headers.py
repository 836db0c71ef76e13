"""A table's header set on more than one line: a second line naming columns of its own, lines
of words continuing its names (or splitting one of its cells), and names over a statistical
table's numbers."""

from __future__ import annotations

from tools.parsing.pdf.columns import ALIGN, _Column, _place
from tools.parsing.pdf.lines import _far, _figure, _framed, _Line
from tools.parsing.pdf.rows import _record, _rows_from

HEADER_LINES = 3  # a header is set on at most this many lines ...
HEADER_TIGHT = 0.75  # ... closer together than this share of the space between the rows under it
WORD_HEADER_LINES = 4  # a header of words alone, each line with fewer cells than its first, on at most this many


def _header_line(
    lines: list[_Line], i: int, start: int, columns: list[_Column], head: dict[int, str], header_lines: int,
    follows: bool,
) -> list[_Column] | None:
    """The columns after line ``i`` joins the header above it, naming columns of its own beside
    the cells above (words under those cells join them), right over a row; None when it does
    not. ``head`` takes its names."""
    # it has fewer cells than the header's first line
    if header_lines == HEADER_LINES or len(lines[i].segments) >= len(lines[start - 1].segments):
        return None
    if _framed(lines[i].text):
        return None  # "--- Non Food ---": a section's label over the rows, no part of a name
    placed = _place(lines[i], columns, header=True)
    if placed is None or not follows:
        return None
    # without columns of its own it only continues header cells above it ("Less:" over
    # "Exclusions &" over "Unallowables"), in words, never a row's figures
    if len(placed.columns) == len(columns) and any(
        not head.get(key) or any(ch.isdigit() for ch in text) for key, text in placed.cells.items()
    ):
        return None
    if _record(lines, i + 1, placed.columns) is None:
        return None
    for key, text in placed.cells.items():
        head[key] = f"{head.get(key, '')} {text}".strip()
    return placed.columns


def _header_lines(
    lines: list[_Line], i: int, columns: list[_Column], head: dict[int, str], header_lines: int, width: int
) -> tuple[list[_Column], dict[int, str], int, int] | None:
    """A header continued on several lines from line ``i``, each of words only and fewer cells
    than its first line ("DATES" under "OBLIGATION/SERVICE", "POSTED" under "DATE"); a line
    whose words split one header cell ("START  END" under "OBLIGATION/SERVICE DATES") makes
    a column of each, named after the cell above and its own word. Rows must follow (see
    ``_rows_from``). The columns, the names, the header's lines and the line after it; None
    when no line continues the header."""
    head = dict(head)
    n = header_lines
    while i < len(lines) and n < WORD_HEADER_LINES:
        line = lines[i]
        if _far(lines[i - 1], line) or len(line.segments) >= width or any(ch.isdigit() for ch in line.text) or _framed(line.text):
            break
        split, named = _split(line, columns, head)
        placed = _place(line, split, header=True)
        if placed is None:
            break
        head = named
        for key, text in placed.cells.items():
            head[key] = f"{head.get(key, '')} {text}".strip()
        columns, n, i = placed.columns, n + 1, i + 1
    if n == header_lines or _rows_from(lines, i, columns) is None:
        return None
    return columns, head, n, i


def _split(line: _Line, columns: list[_Column], head: dict[int, str]) -> tuple[list[_Column], dict[int, str]]:
    """The columns after the words of ``line`` split those a header cell spans: a column with
    two cells or more of the line standing within it becomes a column for each, named after
    the header cell above them."""
    height = line.bottom - line.top
    key = max((c.key for c in columns), default=-1)
    out: list[_Column] = []
    named = dict(head)
    for column in columns:
        under = [s for s in line.segments if column.x0 - ALIGN * height <= (s.x0 + s.x1) / 2 <= column.x1 + ALIGN * height]
        if len(under) < 2 or not column.named:
            out.append(column)
            continue
        parent = named.pop(column.key, "")
        for s in under:
            key += 1
            out.append(_Column(key, s.x0, s.x1))
            named[key] = parent
    return out, named


def _names_over_numbers(lines: list[_Line], i: int, after: int, columns: list[_Column], cells: dict[int, str]) -> bool:
    """Whether the cells of line ``i``, right under a header, are more of it: words, none of
    them a figure (a unit, "(x 1000)", is a word), set closer to the header than the rows are to each other, over a row that holds
    numbers in at least two of their columns (the body of a statistical table)."""
    if any(_figure(text) for text in cells.values()):
        return False
    # the first row under it (a third header line may stand between)
    found = next(((j, r) for j in range(after, min(len(lines), after + HEADER_LINES)) if (r := _record(lines, j, columns))), None)
    if found is None:
        return False
    j, below = found
    pitch = lines[below[2]].top - lines[below[2] - 1].bottom if below[2] < len(lines) else lines[j].top - lines[j - 1].bottom
    if lines[i].top - lines[i - 1].bottom >= HEADER_TIGHT * pitch:
        return False
    numbers = [k for k in cells if any(ch.isdigit() for ch in below[0].get(k, ""))]
    return len(numbers) >= 2
