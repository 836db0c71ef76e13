"""An unruled table grown from its header line down: the rows, the header's further lines, the
lines wrapped between rows, the notes between them, and the columns as they widen."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tools.parsing.pdf.columns import ALIGN, MIN_COLUMNS, _Column, _filled, _place, _Placed, _printed, _wrapped
from tools.parsing.pdf.headers import HEADER_LINES, _header_line, _header_lines, _names_over_numbers
from tools.parsing.pdf.lines import _far, _figure, _Line, _Segment
from tools.parsing.pdf.rows import TOTAL_LINE, _details, _fewer, _record, _rows_from, _run_on
from tools.parsing.text import without_leader


DATA_LINES = 3  # a header cell is split over the figures of at most this many first data lines


@dataclass
class _Grown:
    """An unruled table: its rows (header first), the notes between them, its columns, its end."""

    rows: list[list[str]]
    notes: list[tuple[int, str]]  # (rows above it, text)
    columns: list[_Column]
    end: int
    body: int = -1  # the line its first row starts on
    printed: list[list[str]] = field(default_factory=list)  # its header's lines as printed, when several


def _titles_rows(line: _Line, placed: _Placed) -> bool:
    """Whether a line between two rows is a label of its own that ends in a colon, in the first
    column: the heading of the rows under it, never the start of the next row's label."""
    return len(placed.cells) == 1 and min(placed.cells) == min(c.key for c in placed.columns) and line.text.rstrip().endswith(":")


def _heads(lines: list[_Line], i: int, nxt: int) -> bool:
    """Whether line ``i``, one cell between two rows, is a section's label: it starts left of
    both rows' first cells."""
    line = lines[i]
    if len(line.segments) != 1:
        return False
    x0 = line.segments[0].x0 + 0.25 * (line.bottom - line.top)
    return x0 < lines[i - 1].segments[0].x0 and x0 < lines[nxt].segments[0].x0


_RULED_LABEL = re.compile(r"[-=–—_*]{2,}\s*\w.*?\s*[-=–—_*]{2,}")  # "--- Food Products ---"


def _ruled_label(line: _Line) -> bool:
    """Whether a line is one label between rules drawn with dashes ("--- Food Products ---"): the
    heading of the rows below it."""
    return len(line.segments) == 1 and _RULED_LABEL.fullmatch(line.text.strip()) is not None


def _set_off_above(lines: list[_Line], i: int, nxt: int) -> bool:
    """Whether line ``i``, one label between two rows, stands further from the row above than a
    quarter of a line more than from the row below it: a heading over the rows below, not a
    cell of the row above wrapped onto a line of its own."""
    if nxt != i + 1 or len(lines[i].segments) != 1:
        return False
    height = lines[i].bottom - lines[i].top
    return lines[i].top - lines[i - 1].bottom > lines[nxt].top - lines[i].bottom + 0.25 * height


def _data_lines(lines: list[_Line], i: int) -> list[_Line]:
    """The first lines of figures right under the header on line ``i`` (``DATA_LINES`` at
    most): each as many cells as a table has columns, one a figure at least, the first within
    ``HEADER_LINES`` lines of the header; a line of as many cells without a figure, or a wide
    gap, ends them."""
    found: list[_Line] = []
    for j in range(i + 1, min(len(lines), i + 1 + 4 * DATA_LINES)):
        line = lines[j]
        if _far(lines[j - 1], line) or len(found) == DATA_LINES or (not found and j > i + HEADER_LINES):
            break
        if len(line.segments) >= MIN_COLUMNS:
            if not any(_figure(s.text) for s in line.segments):
                break
            found.append(line)
    return found


def _split_over_figures(line: _Line, below: list[_Line]) -> list[_Segment]:
    """The header's cells, a cell of several words standing over two columns of figures or more
    split between them ("MwSt-% Nettowert" over "19,0" and "100,00", "VAT % Line Amount Excl.
    VAT" over "19" and "573.00"): at the widest space between its words that falls in the gap
    between the figures, on every data line under it. The figures' columns set apart by
    little more than a space were read as one header cell."""
    height = line.bottom - line.top
    slack = ALIGN * height
    out: list[_Segment] = []
    for seg in line.segments:
        words = [w for w in line.words if seg.x0 - 0.5 <= w["x0"] and w["x1"] <= seg.x1 + 0.5]
        cuts: list[int] | None = None
        for data in below:
            under = [s for s in data.segments if seg.x0 - slack <= (s.x0 + s.x1) / 2 <= seg.x1 + slack]
            if len(under) < 2 or not all(_figure(s.text) for s in under):
                cuts = None
                break
            here = []
            for left, right in zip(under, under[1:]):
                gaps = [(words[k + 1]["x0"] - words[k]["x1"], -k, k) for k in range(len(words) - 1)
                        if left.x1 <= (words[k]["x1"] + words[k + 1]["x0"]) / 2 <= right.x0]
                if not gaps:
                    break
                here.append(max(gaps)[2])
            if len(here) != len(under) - 1 or (cuts is not None and here != cuts):
                cuts = None
                break
            cuts = here
        if not cuts or len(words) < 2:
            out.append(seg)
            continue
        for start, end in zip([0, *(k + 1 for k in cuts)], [*(k + 1 for k in cuts), len(words)]):
            part = words[start:end]
            out.append(_Segment(part[0]["x0"], part[-1]["x1"], " ".join(w["text"] for w in part)))
    return out


def _table_at(lines: list[_Line], i: int) -> _Grown | None:
    """The unruled table whose header is line ``i``, if the lines after it are its rows."""
    header = lines[i].segments
    if len(header) < MIN_COLUMNS:
        return None
    below = _data_lines(lines, i)
    if below:
        header = _split_over_figures(lines[i], below)
    columns = [_Column(k, s.x0, s.x1) for k, s in enumerate(header)]
    grown = _grow(lines, i + 1, columns, {k: s.text for k, s in enumerate(header)})
    if grown is not None and grown.body > i + 1:
        grown.printed = _printed([header, *(line.segments for line in lines[i + 1 : grown.body])], grown.columns)
    return grown


def _grow(
    lines: list[_Line], start: int, columns: list[_Column], head: dict[int, str] | None
) -> _Grown | None:
    """The table of the lines from ``start`` that fit ``columns`` under the header ``head``.

    Columns widen to the text placed in them, so numbers aligned right under a header aligned
    left still fall in place. Rows are records (see ``_record``). A line that is no record
    is a second header line right under the header, a cell wrapped onto a line of its own, or
    a note between two rows; anything else ends the table. Without a header above (a table
    continued from the previous page) the first row must fill all columns but one.
    """
    rows: list[dict[int, str]] = []
    notes: list[tuple[int, str]] = []
    pending: list[int] = []  # lines under the header placed once the rows are in
    opening: dict[int, str] = {}  # the first line of the next row's label, printed above it
    header_lines = 1
    body = -1
    i = start
    while i < len(lines):
        if (head is not None or rows) and _far(lines[i - 1], lines[i]):
            # after a gap, rows filling the columns as a continued table's first row must
            # (all but one) go on: blocks of rows set apart on the page
            if not rows or _record(lines, i, columns, strict=True) is None:
                break
        record = _record(lines, i, columns, strict=head is None and not rows)
        if record is not None and head is not None and not rows and header_lines < HEADER_LINES:
            cells, placed_columns, after = record
            if _names_over_numbers(lines, i, after, placed_columns, cells):
                # a header printed over two or three lines: "Total Costs" over "All Funds"; as a
                # header line it names columns of its own ("Company/Brand  Product/Brand" left
                # of the names over the figures)
                named = _place(lines[i], columns, header=True)
                if named is not None and not named.overflow:
                    cells, placed_columns = named.cells, named.columns
                for key, text in cells.items():
                    head[key] = f"{head.get(key, '')} {text}".strip()
                columns, header_lines, i = placed_columns, header_lines + 1, after
                continue
        if record is not None:
            body = i if body < 0 else body
            cells, columns, i = record
            for key, text in opening.items():
                cells[key] = f"{text} {cells.get(key, '')}".strip()
            opening = {}
            rows.append(cells)
            continue
        follows = i + 1 < len(lines) and not _far(lines[i], lines[i + 1])
        if head is not None and not rows:
            step = None if pending else _header_line(lines, i, start, columns, head, header_lines, follows)
            if step is not None:
                columns, header_lines, i = step, header_lines + 1, i + 1
                continue
            more = None if pending else _header_lines(lines, i, columns, head, header_lines, len(lines[start - 1].segments))
            if more is not None:
                columns, head, header_lines, i = more
                continue
            # lines under the header filling fewer of its columns than a row does (three or
            # more each), right before rows filling all but one (staff paid a salary above the
            # expenses of the office): rows of the table, placed once the rows have set where
            # its columns run
            first = _rows_from(lines, i, columns)
            record = _record(lines, first, columns, strict=True) if first is not None and first > i else None
            if record is None or not _fewer(lines[i:first], columns, _filled(record[1], record[0])):
                break
            pending, body, i = list(range(i, first)), i, first
            continue
        # a cell may wrap onto several lines between two rows filling as many columns
        nxt = _rows_from(lines, i + 1, columns, wraps=True) if rows else None
        if nxt is not None and nxt > i + 1:
            record = _record(lines, nxt, columns, strict=_far(lines[nxt - 1], lines[nxt]))
            if record is None or _filled(record[1], record[0]) < _filled(columns, rows[-1]):
                nxt = None
        if nxt is None and rows:
            # a row's details on lines of their own (codes, a gross price, a remark) before the
            # next row, filling as many columns: the lines right under the row that run on in its
            # cells (see ``_run_on``), and the rest, notes
            end = _details(lines, i, columns, rows[-1])
            if end is None:
                break
            run_on, columns = _run_on(lines[:end], i, columns, rows[-1], tight=False)
            notes.extend((len(rows) + (head is not None), line.text) for line in lines[run_on:end])
            i = end
            continue
        if nxt is None:
            break
        placed = _wrapped(lines[i], columns)
        if placed is not None and not placed.overflow and (
            _heads(lines, i, nxt) or _titles_rows(lines[i], placed) or _set_off_above(lines, i, nxt) or _ruled_label(lines[i])
        ):
            # a section's label, outdented left of the rows around it, ending in a colon over
            # them ("Social insurance and retirement receipts:") or set off from the row above
            # and close over the rows below ("Impacts on participating teachers"): a row of its own
            rows.append(dict(placed.cells))
            columns = placed.columns
        elif placed is not None and not placed.overflow and all(
            without_leader(rows[-1].get(key, "")) != rows[-1].get(key, "") for key in placed.cells
        ):
            # the row above ends its label with a dot leader: the line opens the next row's label
            # ("Murder and nonnegligent" over "manslaughter . . . .")
            for key, text in placed.cells.items():
                opening[key] = f"{opening.get(key, '')} {text}".strip()
            columns = placed.columns
        elif placed is not None and not placed.overflow and not TOTAL_LINE.match(lines[i].text):
            # a cell wrapped onto a line of its own: it runs on in the row above (a line that sums
            # the rows, "Subtotal $ 112.00", is a note of its own)
            for key, text in placed.cells.items():
                rows[-1][key] = f"{rows[-1].get(key, '')} {text}".strip()
            columns = placed.columns
        else:
            # a line between two rows that fits no column: a note, not a row
            notes.append((len(rows) + (head is not None), lines[i].text))
        i += 1
    if not rows:
        return None
    if opening:  # no row came to take the label: it stays a line of the table's text
        notes.append((len(rows) + (head is not None), " ".join(opening.values())))
    if i < len(lines):
        # the last row's details set tight under it run on in its cells as between two rows
        i, columns = _run_on(lines, i, columns, rows[-1])
    if pending:
        early: list[dict[int, str]] = []
        early_notes: list[tuple[int, str]] = []
        for j in pending:
            placed = _place(lines[j], columns)
            if placed is None or placed.overflow:
                early_notes.append((len(early) + 1, lines[j].text))
            else:
                early.append(placed.cells)
                columns = placed.columns
        notes = early_notes + [(at + len(early), text) for at, text in notes]
        rows = early + rows
    keys = [c.key for c in columns]
    table = [[cells.get(k, "") for k in keys] for cells in ([head] if head is not None else []) + rows]
    return _Grown(table, notes, columns, i, body)
