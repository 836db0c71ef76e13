"""A sheet's grid as the tables on it: tables set side by side (bands of columns) and stacked
(a header printed again), each with its header, which a sheet may set over several rows:
labels over groups of columns, the names, their units."""

from __future__ import annotations

import re
from collections.abc import Iterable

from core.reading import Table
from tools.parsing.text import clean, header_at, make_table, without_leader


def sheet_table(page: int, rows: Iterable[Iterable[object]]) -> Table | None:
    """The table of a sheet's rows (``text.make_table``), its header joined from the rows it
    stands on: labels over groups of the columns the row under them names (``group_rows``),
    the names, units under them ("€m", "%"), those rows kept as the header's printed lines."""
    kept = [cells for cells in ([without_leader(clean(c)) for c in row] for row in rows) if any(cells)]
    if not kept:
        return None
    at = header_at(kept)
    groups = group_rows(kept, at)
    if not groups:
        return make_table(page, kept)
    names = _grouped_names(kept[at : at + groups], kept[at + groups])
    named = [j for j, cell in enumerate(names) if cell]
    units = at + groups + 1 < len(kept) and _units(kept[at + groups + 1], named)
    if units:
        # units under the names ("€m", "%") are the names' own
        names = [f"{name} {unit}".strip() for name, unit in zip(names, kept[at + groups + 1])]
    rest = at + groups + 1 + units
    return make_table(page, [*kept[:at], names, *kept[rest:]], header_lines=kept[at:rest])


GROUP_ROWS = 3  # rows of group labels a sheet's header may stand on above its names


def group_rows(rows: list[list[str]], at: int) -> int:
    """How many rows from ``at`` are labels over groups of the columns that the row under them
    names ("In millions of CHF … January–June 2023" over "Sales | Trading operating profit",
    "FY 22/23" over "H1 | H2 | FY"): each fills fewer columns than the row of names under it,
    which holds no figure, over a row that does. 0 when the header is one row."""
    n = 0
    while n < GROUP_ROWS and at + n + 2 < len(rows):
        upper, names = rows[at + n], rows[at + n + 1]
        named = [j for j, cell in enumerate(names) if cell]
        if len(named) < 2 or any(_FIGURE.fullmatch(names[j]) for j in named):
            break
        over = sum(1 for j, cell in enumerate(upper) if cell and j >= named[0])  # the labels' column's name aside
        if over >= len(named) or not any(upper):
            break
        # figures under the names, past their units and a section's label ("Group")
        first = at + n + 2 + _units(rows[at + n + 2], named)
        if not any(j < len(below) and _FIGURE.fullmatch(below[j]) for below in rows[first : first + 2] for j in named):
            break
        n += 1
    return n


_UNIT = re.compile(r"[^\W\d]{0,3}[%$€£¥]?|\(?[^\W\d]{1,4}\)?|[%$€£¥]\s?[^\W\d]{0,2}")  # "€m", "%", "(mm)", "EUR"


def _units(row: list[str], named: list[int]) -> bool:
    """Whether a row under a header's names holds only units, in columns it names ("€m | €m | %")."""
    filled = [j for j, cell in enumerate(row) if cell]
    return len(filled) >= 2 and set(filled) <= set(named) and all(_UNIT.fullmatch(row[j]) for j in filled)


def _grouped_names(groups: list[list[str]], names: list[str]) -> list[str]:
    """Each column's name under the labels of the rows ``groups``: a label names the columns of
    its group, set where a sheet sets it: over the group's last column when the labels end over
    the last named column and do not start over the first (a right-aligned "January–June 2023"
    names every column up to it), else over its first (it names the columns up to the next
    label). A label over the column of the rows' labels, which the names leave empty, is that
    column's name ("In millions of CHF")."""
    out = list(names)
    named = [j for j, cell in enumerate(names) if cell]
    for row in reversed(groups):
        labels = [j for j, cell in enumerate(row) if cell]
        if labels and labels[0] < named[0] and not out[labels[0]]:
            out[labels[0]] = row[labels[0]]
            labels = labels[1:]
        if not labels:
            continue
        right = labels[-1] >= named[-1] and labels[0] > named[0]
        for k, j in enumerate(labels):
            if right:
                low = labels[k - 1] + 1 if k else named[0]
                covered = range(low, j + 1)
            else:
                covered = range(j, labels[k + 1] if k + 1 < len(labels) else len(out))
            for c in covered:
                if c < len(out) and names[c]:
                    out[c] = f"{row[j]} {out[c]}"
    return out


def stacked_tables(rows: list[list[str]]) -> list[list[list[str]]]:
    """A band of a sheet as the tables stacked in it: a row that prints the header's names again
    ("Item | Amount" under "MONTHLY EXPENSES"), or names of its own under rows of figures below
    a header of names, opens a table of its own, the one-cell rows right above it its title (a
    sheet of sections, each with its header)."""
    if not rows:
        return []
    at = header_at(rows)
    header = [cell.casefold() for cell in rows[at]]
    if sum(1 for cell in header if cell) < 2:
        return [rows]
    names = not any(_FIGURE.fullmatch(cell) for cell in rows[at] if cell)
    starts = [k for k in range(at + 2, len(rows))
              if [cell.casefold() for cell in rows[k]] == header or names and _names_again(rows, at, k)]
    sheet = rows[: max(at - 1, 0)]  # the sheet's title over the first section's: every table's
    tables, begin = [], 0
    for k in starts:
        top = k
        while top - 1 > begin and sum(1 for cell in rows[top - 1] if cell) == 1:
            top -= 1  # the section's title
        tables.append(rows[begin:top] if begin == 0 else [*sheet, *rows[begin:top]])
        begin = top
    return [*tables, [*sheet, *rows[begin:]] if begin else rows[begin:]]


def _names_again(rows: list[list[str]], at: int, k: int) -> bool:
    """Whether row ``k`` prints names anew under rows of figures: two names or more and no figure,
    or one name over a column of figures right of the labels below it, where the last row of two
    cells or more above it (below the header at ``at``) holds figures ("Q1 | Q2 | Q3 | Q4" under
    the half-years' rates, "FY 23/24" over the guidance rates: tables of their own)."""
    filled = [cell for cell in rows[k] if cell]
    if not filled or any(_FIGURE.fullmatch(cell) or _NONE.fullmatch(cell) for cell in filled):
        return False  # "Zone GC | — | —": a row whose figures are none
    if len(filled) == 1:
        # a name alone over a column of figures, right of the labels below it ("FY 23/24" over the
        # guidance rates)
        j = next(j for j, cell in enumerate(rows[k]) if cell)
        below = rows[k + 1] if k + 1 < len(rows) else []
        first = next((i for i, cell in enumerate(below) if cell), None)
        if first is None or j <= first or j >= len(below) or not _FIGURE.fullmatch(below[j]):
            return False
    above = next((rows[m] for m in range(k - 1, at, -1) if sum(1 for cell in rows[m] if cell) >= 2), None)
    figures = [j for j, cell in enumerate(above or []) if cell and _FIGURE.fullmatch(cell)]
    if not figures:
        return False
    # names over every column of figures above, on this row or the rows of names under it (a
    # period over its quarters), not a row whose figures are left blank ("Carol | Marketing |"
    # under "Bob | Sales | 50000")
    header = [rows[m] for m in range(k, min(k + GROUP_ROWS + 1, len(rows)))]
    header = header[: next((n for n, row in enumerate(header) if any(_FIGURE.fullmatch(c) for c in row if c)), len(header))]
    return len(filled) == 1 or all(any(j < len(row) and row[j] for row in header) for j in figures)


def column_bands(rows: list[list[str]]) -> list[list[list[str]]]:
    """A sheet's grid as the tables standing side by side on it: its columns that hold something,
    parted where an empty column stands between two bands of two columns or more whose headers
    (``header_at``) are on different rows (a second table set beside the first, lower down);
    bands under one header row are one table, an empty spacer column left out, and a single
    column (a form's item numbers) stays with its neighbour. Rows empty within a band are left out."""
    width = max((len(row) for row in rows), default=0)
    grid = [[*row, *[""] * (width - len(row))] for row in rows]
    used = [k for k in range(width) if any(row[k] for row in grid)]
    runs: list[list[int]] = []
    for k in used:
        if runs and k == runs[-1][-1] + 1:
            runs[-1].append(k)
        else:
            runs.append([k])
    bands: list[list[int]] = []
    for run in runs:
        if bands and (min(len(bands[-1]), len(run)) < 2 or _header_row(grid, bands[-1]) == _header_row(grid, run)
                      and not _same_header(grid, bands[-1], run) and _named(grid, run) or _labels_of(grid, bands[-1], run)):
            bands[-1] = [*bands[-1], *run]
        else:
            bands.append(run)
    # a band of figures beside the first, on its rows, reads its labels from the first band's
    # labels' column ("FY 22/23"'s rates right of "FY 21/22"'s, the currencies left of both)
    bands = [[labels, *band] if k and (labels := _labels_for(grid, bands[0], band)) is not None else band
             for k, band in enumerate(bands)]
    return [[cells for row in grid if any(cells := [row[k] for k in band])] for band in bands]


def _labels_for(grid: list[list[str]], first_band: list[int], band: list[int]) -> int | None:
    """The column of the first band that labels the rows of a band whose first column holds no
    words: the one beside most of its rows of figures with words, three or more; None when the
    band has labels of its own."""
    top = _header_row(grid, band)
    body = [i for i, row in enumerate(grid) if i > top and any(row[k] for k in band)]
    figures = [i for i in body if any(_FIGURE.fullmatch(grid[i][k]) for k in band)]
    if any(any(ch.isalpha() for ch in grid[i][band[0]]) for i in figures):
        return None  # words beside its figures: labels of its own
    counts = {k: sum(1 for i in figures if any(ch.isalpha() for ch in grid[i][k])) for k in first_band}
    best = max(counts, key=lambda k: (counts[k], -k), default=None)
    return best if best is not None and counts[best] >= 3 else None


def _named(grid: list[list[str]], columns: list[int]) -> bool:
    """Whether the header row of the band in ``columns`` holds names, no figure ("2336 | 62%"
    beside "Item | Amount" is a summary's value set level with another table's header)."""
    row = grid[_header_row(grid, columns)]
    return not any(_FIGURE.fullmatch(row[k]) for k in columns if row[k])


def _same_header(grid: list[list[str]], left: list[int], right: list[int]) -> bool:
    """Whether two bands print the same names over their columns ("City, Latitude, Longitude,
    Population" under "Big Cities" and again under "Small Cities"): two tables set side by side."""
    row = grid[_header_row(grid, left)]
    names = [[row[k].casefold() for k in band if row[k]] for band in (left, right)]
    return len(names[1]) >= 2 and names[0][-len(names[1]):] == names[1]


def _labels_of(grid: list[list[str]], left: list[int], right: list[int]) -> bool:
    """Whether the band ``left`` holds the row labels of the figures in ``right``, apart by a
    spacer column (a report's workbook: "Germany", "Total", "Contract" in column B, the quarters'
    figures from column D): the left band holds words only, the right one mostly figures, on rows
    the left band's rows span."""
    def filled(columns: list[int]) -> list[int]:
        return [i for i, row in enumerate(grid) if any(row[k] for k in columns)]
    def figures(columns: list[int], rows: list[int]) -> float:
        cells = [grid[i][k] for i in rows for k in columns if grid[i][k]]
        return sum(_FIGURE.fullmatch(c) is not None for c in cells) / len(cells) if cells else 0.0
    labels, values = filled(left), filled(right)
    if len(labels) < 3 or len(values) < 3 or not (labels[0] <= values[0] and values[-1] <= labels[-1]):
        return False
    return figures(left, labels[1:]) <= _FEW and figures(right, values[1:]) >= _MOSTLY


_FIGURE = re.compile(r"[(\-−–]?[$€£]?\s?\d[\d.,\s]*%?\)?")  # "18.0%", "(1,185)", "12,339"
_NONE = re.compile(r"[-—–−]+|n/a|n\.\s?a\.?", re.IGNORECASE)  # a figure printed as none
_MOSTLY = 0.6  # of the cells of a band of figures
_FEW = 0.1  # of the cells of a band of labels (a note's number)


def _header_row(grid: list[list[str]], columns: list[int]) -> int:
    """The row of the grid the names of the table in ``columns`` stand on: its header's
    last row, under labels over groups of them (``group_rows``)."""
    filled = [i for i, row in enumerate(grid) if any(row[k] for k in columns)]
    rows = [[grid[i][k] for k in columns] for i in filled]
    at = header_at(rows)
    return filled[at + group_rows(rows, at)]
