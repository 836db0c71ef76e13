"""The fixed rules that turn a table of a document into a database table.

- The first row is the header; every other row is a data row.
- A table that looks like a form is refused, with the reason: fewer than 3 columns (usually an
  "item | value" form), an empty header cell, a header that repeats (a merged cell a parser
  spread across columns), rows of different lengths (a merged cell read as one).
- Column names are made safe (lower case, letters, digits and '_') and unique; the header text
  each came from is kept beside it.
- Every value stays the text the document shows: 007 stays 007, 1.234,50 stays 1.234,50.

The same table therefore always becomes the same database table, whoever loads it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

MIN_COLUMNS = 3
MAX_NAME = 63  # PostgreSQL's identifier limit (NAMEDATALEN - 1), in bytes

# Words PostgreSQL reserves (a column named like one would need quotes in every query) and the
# system columns every table already has.
RESERVED = frozenset(
    """all analyse analyze and any array as asc asymmetric both case cast check collate column
    constraint create current_catalog current_date current_role current_time current_timestamp
    current_user default deferrable desc distinct do else end except false fetch for foreign from
    grant group having in initially intersect into lateral leading limit localtime localtimestamp
    not null offset on only or order placing primary references returning select session_user
    some symmetric system_user table then to trailing true union unique user using variadic when
    where window with authorization binary collation concurrently cross current_schema freeze
    full ilike inner is isnull join left like natural notnull outer overlaps right similar
    tablesample verbose ctid xmin xmax cmin cmax tableoid oid""".split()
)


class FormRefused(ValueError):
    """The table has the shape of a form, not of a data table; the message says why."""


@dataclass(frozen=True)
class Shaped:
    """A table ready to load: safe unique column names, the header text they came from, rows."""

    columns: list[str]
    labels: list[str]
    rows: list[list[str]]


def check_form(header: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
    """Raise ``FormRefused`` when the table has the shape of a form."""
    width = len(header)
    if width < MIN_COLUMNS:
        raise FormRefused(
            f"the table has {width} column{'' if width == 1 else 's'}; a table with fewer than {MIN_COLUMNS} "
            "columns is usually an 'item | value' form, not a data table"
        )
    for position, cell in enumerate(header, 1):
        if not str(cell).strip():
            raise FormRefused(f"header cell {position} is empty; a data table names every column")
    seen: dict[str, int] = {}
    for position, cell in enumerate(header, 1):
        key = " ".join(str(cell).split()).casefold()
        if key in seen:
            raise FormRefused(
                f"the header names {str(cell).strip()!r} twice (columns {seen[key]} and {position}); "
                "that is the trace of a merged cell spread across columns"
            )
        seen[key] = position
    for number, row in enumerate(rows, 2):
        if len(row) != width:
            raise FormRefused(
                f"row {number} has {len(row)} cells but the header has {width}; rows of different lengths "
                "are the trace of merged cells"
            )


def safe_name(text: str, fallback: str) -> str:
    """An identifier that needs no quotes: lower case letters, digits and '_', never reserved."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    name = re.sub(r"[^\w]+", "_", folded).strip("_")
    name = re.sub(r"_+", "_", name)
    if not name:
        name = fallback
    if name[0].isdigit():
        name = f"c_{name}"
    if name in RESERVED or name.startswith("pg_"):
        name = f"{name}_"
    return _cut(name)


def _cut(name: str, room: int = 0) -> str:
    """``name`` cut to fit PostgreSQL's identifier limit with ``room`` bytes to spare."""
    limit = MAX_NAME - room
    if len(name.encode("utf-8")) <= limit:
        return name
    while len(name.encode("utf-8")) > limit:
        name = name[:-1]
    return name.rstrip("_") or name


def unique_names(labels: Sequence[str], taken: Sequence[str] = ()) -> list[str]:
    """Safe names for ``labels``, in order, none equal to another or to one in ``taken``."""
    used = {t.casefold() for t in taken}
    names = []
    for position, label in enumerate(labels, 1):
        base = safe_name(label, f"column_{position}")
        name, suffix = base, 1
        while name.casefold() in used:
            suffix += 1
            name = f"{_cut(base, len(str(suffix)) + 1)}_{suffix}"
        used.add(name.casefold())
        names.append(name)
    return names


def shape(header: Sequence[str], rows: Sequence[Sequence[str]], *, forms: bool = True) -> Shaped:
    """The table under the fixed rules, or ``FormRefused`` with the reason.

    ``forms=False`` is for tables Kea wrote itself (an extraction's CSV, a query's result): a
    two-column result is data, not a form, so only rows of different lengths are refused.
    """
    if forms:
        check_form(header, rows)
    else:
        for number, row in enumerate(rows, 2):
            if len(row) != len(header):
                raise FormRefused(f"row {number} has {len(row)} cells but the header has {len(header)}")
    labels = [" ".join(str(cell).split()) for cell in header]
    return Shaped(unique_names(labels), labels, [[str(cell) for cell in row] for row in rows])
