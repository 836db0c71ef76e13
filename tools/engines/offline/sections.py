"""Tables whose rows stand under section lines: "REGION : NORTH WEST INDIA" alone on its line, the
rows after it its region's. The section a row stands in is one of its values, as a column of the
section lines' label, so that a condition on it ("the subdivisions in the North West India region")
is checked on every row like any other."""

from __future__ import annotations

import re

from core.reading import Table

# a section line's only cell: a label of a few words, a colon, the section's name
_SECTION = re.compile(r"(?P<label>[^\W\d_][^\W\d_ .'/-]*(?:[ .'/-]+[^\W\d_]+){0,3})\s*:\s*(?P<name>\S.*)")
MIN_SECTIONS = 2  # section lines of one label a table needs (the title's line counts)


def sectioned(table: Table) -> Table:
    """The table with the section each row stands in as its last column, named by the section
    lines' label ("Region"), and without those lines; rows above the first one stand in the
    section the title names with the same label ("REGION : EAST AND NORTH EAST INDIA"). The
    table unchanged when fewer than two lines name sections of one label."""
    lines = [_section(row) for row in table.rows]
    titled = [m for line in table.title if (m := _SECTION.fullmatch(line.strip()))]
    labels = [label for label, _ in filter(None, lines)]
    if not labels or len(set(labels)) != 1:
        return table
    label = labels[0]
    current = next((m.group("name").strip() for m in titled if _fold(m.group("label")) == label), "")
    if len(labels) + bool(current) < MIN_SECTIONS or label in {_fold(h) for h in table.header}:
        return table
    rows, spanned = [], table.spanned[:1]
    for k, (row, line) in enumerate(zip(table.rows, lines)):
        if line is not None:
            current = line[1]
            continue
        rows.append([*row, current])
        if table.spanned:
            spanned.append(table.spanned[k + 1] if k + 1 < len(table.spanned) else [])
    name = next(m.group("label") for row in table.rows if (m := _match(row)) is not None)
    return table.model_copy(update={"header": [*table.header, name.strip().capitalize()], "rows": rows, "spanned": spanned})


def _match(row: list[str]) -> re.Match[str] | None:
    filled = [c.strip() for c in row if c.strip()]
    return _SECTION.fullmatch(filled[0]) if len(filled) == 1 and len(row) > 1 else None


def _section(row: list[str]) -> tuple[str, str] | None:
    """(the label, the section's name) of a section line; None for a row."""
    match = _match(row)
    return (_fold(match.group("label")), match.group("name").strip()) if match else None


def _fold(text: str) -> str:
    return " ".join(text.casefold().split())
