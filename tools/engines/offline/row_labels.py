"""What says which row is which: a requested column that holds more than figures, or, when none
does, the table's column of row labels read as the reading's subject ("which offense categories
had …? the total arrests")."""

from __future__ import annotations

import re

from core.reading import Record
from tools.engines.checks import checked
from tools.engines.columns import groups_of, identifier_of, match_column, partly_named
from tools.engines.numbers import is_amount, month_of_cell, parse_date, parse_number
from tools.engines.offline.grammar import YEAR


def told_apart(records: list[Record], columns: list[str]) -> bool:
    """Whether the requested columns can say which of a document's rows is which: one of them
    holds more than amounts and durations (a name, a code, a date, a description), and no two rows
    read alike. Rows of "the annual value and notice period" of the active agreements name no
    agreement."""
    if len(records) < 2:
        return True
    # a column that numbers the things (Item number, Art.-Nr., SKU) tells them apart by its figures
    if any(_identifies(column) and len({(r.values.get(column) or "").strip() for r in records}) == len(records)
           for column in columns):
        return True
    # … else one holding more than figures, as long as no two rows read alike ("Common | Common"
    # for two reactions says which is which of neither)
    seen = [tuple((r.values.get(column) or "").strip().casefold() for column in columns) for r in records]
    return len(set(seen)) == len(seen) and any(
        (value := (r.values.get(column) or "").strip())
        and not (is_amount(value) and parse_date(value) is None and month_of_cell(value) is None)
        for column in columns for r in records
    )


def _identifies(column: str) -> bool:
    """Whether a column's name says it identifies a thing: "Item number", "Contract ID", "SKU", or
    the line of a document it is ("Position", "Pos")."""
    return bool(identifier_of(column)) or bool({"item code", "position"} & groups_of(column))


def with_subject(
    subject: str | None, header: list[str], mapping: dict[str, int], rows: list[tuple[list[str], Record]], columns: list[str],
) -> list[Record]:
    """The records of one table, each with what it is (the reading's subject) when the requested
    columns hold only figures and cannot say it ("which offense categories had …? the total
    arrests"): read from the table's column of row labels — the one a header names as the
    subject, or else the first column no requested one took whose cells are words (names, not
    figures or codes). The rows say which column that was: they are unsure."""
    records = [r for _, r in rows]
    if subject is None or told_apart(records, columns):
        return records
    taken = set(mapping.values())
    named = match_column(subject, header)
    named = named if named is not None and named not in taken else partly_named(subject, header, taken)
    if named is not None:  # a header names the things ("Cycle Name" for the cycles)
        # its cells may be codes, or years ("Year" for the rows of 2005 through 2009)
        years = all(YEAR.fullmatch(cell_at([c.strip() for c in row], named) or "") for row, _ in rows)
        label = named if years or _labels([row for row, _ in rows], named, codes=True) else None
    else:
        label = labels_column([row for row, _ in rows], taken)
    if label is None:
        return records
    name = " ".join(header[label].split()) if label < len(header) else ""
    note = f"'{subject}' is read from the column {f'{name!r}' if name else 'without a header'}, which holds the rows' labels"
    return [
        checked(r.model_copy(update={"values": {subject: cell_at([c.strip() for c in row], label), **r.values}}), [note])
        for row, r in rows
    ]


def labels_column(rows: list[list[str]], taken: set[int] | frozenset[int] = frozenset()) -> int | None:
    """The first column no requested one took that holds the rows' labels (``_labels``), or None."""
    return next((i for i in range(max((len(row) for row in rows), default=0)) if i not in taken and _labels(rows, i)), None)


def _labels(rows: list[list[str]], index: int, codes: bool = False) -> bool:
    """Whether a column of these rows holds their labels: most of its cells are names — words,
    digits only beside words ("CORN 1ST CROP"), not a figure, a date or (unless ``codes``) a code
    ("C-2021-004") — and they differ."""
    cells = [row[index].strip() for row in rows if index < len(row) and row[index].strip()]
    names = [c for c in cells if parse_number(c) is None and parse_date(c) is None
             and (codes or re.search(r"[^\W\d_]{3}", c) and (" " in c or not re.search(r"\d", c)))]
    return 2 * len(names) > len(rows) and len(set(names)) == len(names)


def cell_at(cells: list[str], index: int | None) -> str | None:
    """The cell at ``index``; None when it is empty or the row is shorter."""
    if index is None or index >= len(cells):
        return None
    return cells[index] or None
