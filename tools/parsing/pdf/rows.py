"""The rows of an unruled table: records (a line with the lines under it that fill only the
columns it left empty), the lines before a row, a row's details and lines running on in its cells."""

from __future__ import annotations

import math
import re

from core.reading import Table
from tools.parsing.pdf.columns import ALIGN, MIN_COLUMNS, _Column, _filled, _need, _place, _wrapped
from tools.parsing.pdf.lines import _counts_up, _far, _figure, _Line

# a line that sums the rows above it: "Subtotal $ 112.00", "Total", "Zwischensumme", "Sous-total"
TOTAL_LINE = re.compile(r"\s*(?:sub-?\s?total|total|zwischensumme|summe|gesamt|sous-total|totaal|subtotaal)\b", re.IGNORECASE)
DETAIL_LINES = 12  # a row's details run on over at most this many lines before the next row


def _run_on(
    lines: list[_Line], i: int, columns: list[_Column], row: dict[int, str], tight: bool = True
) -> tuple[int, list[_Column]]:
    """The line after the lines from ``i`` that run on in the cells of ``row`` (added to them), and
    the columns after them. Such a line stands right under the row, indented right of where the
    row starts, fits its columns with too few cells for a row of its own, and puts no figure
    under a figure of the row (a total under the last amount is no part of it). When no row
    follows (``tight``), the lines are set closer than half a line's height and the first of
    them fills a cell the row left empty, as a record's second line does, or continues the words
    of one of its cells ("blau" under "LONDON Schreibtischstuhl,"): a shorter row of its own
    ("C2  D2  F2" under "A1  B1  C1  D1  E1  F1") stays one."""
    start = min((c.x0 for c in columns if c.key in row), default=-math.inf)
    first = i
    while i < len(lines):
        line = lines[i]
        height = line.bottom - line.top
        if tight and line.top - lines[i - 1].bottom > 0.5 * height:
            break
        qualifier = _qualifies_label(line, columns, row)
        if line.segments[0].x0 <= start + ALIGN * height and not qualifier or TOTAL_LINE.match(line.text):
            break  # "Subtotal $ 112.00" under the last amount is a line of its own
        placed = _place(line, columns)
        if (
            placed is None or placed.overflow or len(placed.columns) != len(columns)
            or _filled(columns, placed.cells) >= _need(columns)
            or any(_figure(text) and _figure(row.get(key, "")) for key, text in placed.cells.items())
            or (tight and i == first and placed.cells.keys() <= row.keys() and not _wraps_words(line, columns, placed.cells, row)
                and not qualifier)
        ):
            break
        for key, text in placed.cells.items():
            row[key] = f"{row.get(key, '')} {text}".strip()
        columns = placed.columns
        i += 1
    return i, columns


def _qualifies_label(line: _Line, columns: list[_Column], row: dict[int, str]) -> bool:
    """Whether ``line`` is one bracketed phrase under the row's label, in the labels' column
    ("Daily or Miscellaneous" over "(each day of the payroll period)"): the label's own words."""
    if len(line.segments) != 1 or not columns:
        return False
    text = line.segments[0].text.strip()
    first = min(columns, key=lambda c: c.x0)
    return text.startswith("(") and text.endswith(")") and first.x0 - (line.bottom - line.top) <= line.segments[0].x0 < first.x1 \
        and any(ch.isalpha() for ch in row.get(first.key, ""))


def _wraps_words(line: _Line, columns: list[_Column], cells: dict[int, str], row: dict[int, str]) -> bool:
    """Whether ``line`` is one cell of words continuing a cell of words of ``row``, starting
    where that cell's column starts (a wrapped description, not a code set further right)."""
    if len(cells) != 1 or len(line.segments) != 1:
        return False
    ((key, text),) = cells.items()
    column = next((c for c in columns if c.key == key), None)
    height = line.bottom - line.top
    return (
        column is not None and abs(line.segments[0].x0 - column.x0) <= ALIGN * height
        and any(ch.isalpha() for ch in text) and any(ch.isalpha() for ch in row.get(key, "")) and not _figure(row[key])
    )


def _details(lines: list[_Line], i: int, columns: list[_Column], last: dict[int, str]) -> int | None:
    """The next row after the lines from ``i`` (at most DETAIL_LINES, each indented right of where
    the row ``last`` above them starts, none filling as many columns as it does) that fills as
    many; None when there is none. Past a gap wider than rows leave (details set in paragraphs)
    only a row filling all columns but one counts."""
    filled = _filled(columns, last)
    start = min((c.x0 for c in columns if c.key in last), default=-math.inf)
    gapped = False
    for j in range(i, min(len(lines), i + DETAIL_LINES + 1)):
        if j > i:
            gapped = gapped or _far(lines[j - 1], lines[j])
            record = _record(lines, j, columns, strict=gapped)
            if record is not None and _filled(record[1], record[0]) >= filled:
                return j
        # details stand indented under their row, right of where it starts
        if lines[j].segments[0].x0 <= start + ALIGN * (lines[j].bottom - lines[j].top):
            return None
    return None


def _fewer(block: list[_Line], columns: list[_Column], filled: int) -> bool:
    """Whether each line of ``block`` fills three columns or more but fewer than ``filled``,
    in the columns there are (it adds none)."""
    for line in block:
        placed = _place(line, columns)
        if placed is None or placed.overflow or len(placed.columns) != len(columns):
            return False
        if not MIN_COLUMNS <= _filled(columns, placed.cells) < filled:
            return False
    return True


def _rows_from(lines: list[_Line], i: int, columns: list[_Column], wraps: bool = False) -> int | None:
    """The first row at or after line ``i`` (see ``_record``), when each line before it, one
    close under the other, fits the columns (in one cell each with ``wraps``: a cell's text
    wrapped onto them); None when there is none. After a gap only a row filling the columns
    as a continued table's first row does (all but one) counts."""
    j = i
    while j < len(lines):
        if j and _far(lines[j - 1], lines[j]):
            return j if _record(lines, j, columns, strict=True) is not None else None
        if _record(lines, j, columns) is not None:
            return j
        placed = _wrapped(lines[j], columns)
        if placed is None or placed.overflow or (wraps and len(placed.cells) > 1):
            return None
        j += 1
    return None


def _record(
    lines: list[_Line], i: int, columns: list[_Column], strict: bool = False
) -> tuple[dict[int, str], list[_Column], int] | None:
    """The row that starts at line ``i``: its cells, the columns after it, the line after it.

    A row's first line may leave columns empty that the lines right under it fill: those
    lines belong to it while they fill only columns still empty and none left of the first
    line's first cell, are no row of their own and run no text across columns (that is
    prose under the table). Together they fill enough named columns (all but one when
    ``strict``).
    """
    placed = _place(lines[i], columns)
    if placed is None:
        return None
    cells, columns = dict(placed.cells), placed.columns
    j = i + 1
    while j < len(lines) and not _far(lines[j - 1], lines[j]):
        more = _place(lines[j], columns)
        if more is None or more.overflow or cells.keys() & more.cells.keys():
            break
        if _filled(more.columns, more.cells) >= _need(more.columns):
            break
        order = {c.key: n for n, c in enumerate(more.columns)}
        if min(order[k] for k in more.cells) < min(order[k] for k in placed.cells):
            break  # a row starts with its first cell: this line starts the next row
        cells.update(more.cells)
        columns = more.columns
        j += 1
    if _filled(columns, cells) < _need(columns, strict):
        return None
    return cells, columns, j


STACKED_COLUMNS = 3  # columns of figures, each with one per line, that say a row is lines read as one


def unstacked(table: Table) -> Table:
    """A table whose rows each hold two lines or more read as one: in three columns or more, every
    row's cell holds the same number (two or more) of plain figures, one per line ("0.965 0.969"
    of an OTSL line over an HTML line, their layer counts "6 | 6" printed once between them).
    Each line is a row of its own; a cell of as many single words ("OTSL HTML") splits too, and a
    cell printed once is repeated on each. A figure with its error in brackets ("0.45 (0.02)"),
    or whose thousands a space sets apart ("1 200,00"), is one value: such a table, and any
    other, comes back as it was."""
    split: list[list[str]] = []
    for row in table.rows:
        parts = [cell.split() for cell in row]
        if any(_spaced_thousands(p) or any(t.startswith("(") or t.endswith(")") for t in p) for p in parts if len(p) >= 2):
            return table
        stacked = {len(p) for p in parts if len(p) >= 2 and all(_figure(t) for t in p)}
        if len(stacked) != 1 or sum(1 for p in parts if len(p) in stacked and all(_figure(t) for t in p)) < STACKED_COLUMNS:
            return table
        (lines,) = stacked
        split += [[p[k] if len(p) == lines else " ".join(p) for p in parts] for k in range(lines)]
    return table.model_copy(update={"rows": split}) if split else table


_NUMBERED = re.compile(r"(\d{1,4})\.?\s+(\S.*)")


def numbered(table: Table) -> Table:
    """A column whose every cell opens with the row's running number ("1 Superdrachen",
    "2 Turbo Flyer", …) under a header of two names or more ("Pos. Artikelbeschreibung") is two
    columns printed too close to be told apart: the number under the first name, the rest under
    the others. Any other table, and one whose cells are merged or whose header takes several
    lines, comes back as it was."""
    if len(table.rows) < 2 or table.spanned or table.header_lines:
        return table
    for j, name in enumerate(table.header):
        head = name.split(None, 1)
        if len(head) != 2 or _figure(head[0]):
            continue
        found = [_NUMBERED.fullmatch(row[j].strip()) if j < len(row) else None for row in table.rows]
        if not all(found):
            continue
        numbers = [int(m.group(1)) for m in found]  # type: ignore[union-attr]
        if any(b != a + 1 for a, b in zip(numbers, numbers[1:])):
            continue
        rows = [[*row[:j], m.group(1), m.group(2), *row[j + 1:]] for row, m in zip(table.rows, found)]  # type: ignore[union-attr]
        return table.model_copy(update={"header": [*table.header[:j], *head, *table.header[j + 1:]], "rows": rows})
    return table


_LIST_NUMBER = re.compile(r"(\d{1,3})\.\s+(\S.*)")


def numbered_labels(table: Table) -> Table:
    """A label column whose items are numbered in order ("1. Department of Agriculture …", "2. …")
    among lines that are not (the ministries' headings they stand under): the numbers are a
    column of their own, "No.", before the labels, empty on the lines without one. Any other
    table comes back as it was (a column every cell of which is numbered is ``numbered``'s)."""
    if not table.header or table.spanned:
        return table
    found = [_LIST_NUMBER.fullmatch(row[0].strip()) if row else None for row in table.rows]
    numbers = [m.group(1) for m in found if m]
    if len(numbers) == len(found) or not _counts_up(numbers):  # three or more, counting up by one
        return table
    rows = [[m.group(1), m.group(2), *row[1:]] if m else ["", *row] for row, m in zip(table.rows, found)]
    return table.model_copy(update={"header": ["No.", *table.header], "rows": rows})


_SIGN = re.compile(r"[$€£¥]")


def signed(table: Table) -> Table:
    """A column holding only a currency sign or a figure, beside a column of figures, where no
    row fills both with a figure: the sign printed at the left of a column of right-aligned
    amounts, a wide amount reaching into its room ("$ | 71.15" … "1,850.00 | "), a name over it
    the start of the column's ("Add | Additional"). One column: the sign before its amount, the
    names joined. Any other table comes back as it was."""
    for j in range(len(table.header) - 1):
        pairs = [(row[j].strip() if j < len(row) else "", row[j + 1].strip() if j + 1 < len(row) else "") for row in table.rows]
        signs = sum(1 for a, _ in pairs if _SIGN.fullmatch(a))
        moved = sum(1 for a, b in pairs if a and not _SIGN.fullmatch(a) and not b)
        if signs == 0 or moved == 0 or not all(
            (not a or _SIGN.fullmatch(a) or _figure(a) and not b) and (not b or _figure(b)) for a, b in pairs
        ):
            continue
        rows = [[*row[:j], f"{a} {b}" if _SIGN.fullmatch(a) else (a or b), *row[j + 2:]] for row, (a, b) in zip(table.rows, pairs)]
        name = " ".join(n for n in (table.header[j].strip(), table.header[j + 1].strip()) if n)
        return table.model_copy(update={"header": [*table.header[:j], name, *table.header[j + 2:]], "rows": rows})
    return table


def _spaced_thousands(parts: list[str]) -> bool:
    """Whether a cell's parts are one figure whose thousands a space sets apart ("1 200,00")."""
    return len(parts) >= 2 and re.fullmatch(r"\d{1,3}", parts[0]) is not None \
        and all(re.fullmatch(r"\d{3}(?:[.,]\d+)?", p) for p in parts[1:])
