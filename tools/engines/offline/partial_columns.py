"""The requested columns a table names only in part, or by its structure rather than a header
of their own: a cell sharing some of a column's words, the column a condition names in full, the
period a request names under a title that names the measure, the "No." before the labels an
identifier asks for."""

from __future__ import annotations

from core.reading import Reading, Table
from tools.engines.accounting import fold
from tools.engines.columns import groups_of, identifier_of, match_column, names_of, normalise, partly_named
from tools.engines.offline.grammar import YEAR
from tools.engines.translation import across, english


def partly_named_columns(reading: Reading, table: Table, mapping: dict[str, int]) -> dict[str, int]:
    """The requested columns no header names whole, each read from the one cell that names it in
    part (``columns.partly_named``), in request order."""
    found: dict[str, int] = {}
    for _ in range(2):  # a cell one column takes may leave one cell for another
        for column in reading.columns:
            if column in mapping or column in found:
                continue
            others = [c for c in reading.columns if c != column]
            taken = {*mapping.values(), *found.values()}
            index = _as_compared(column, reading, table, taken)
            if index is None:
                index = partly_named(column, table.header, taken, reading.request, others)
            if index is None:
                index = _titled_period(column, table, taken, reading.request)
            if index is None:
                index = _numbering(column, table, taken)
            if index is None:
                index = _designation(column, table, taken)
            if index is None:
                index = _in_translation(column, table, taken, others)
            if index is not None:
                found[column] = index
    return {column: found[column] for column in reading.columns if column in found}


def _as_compared(column: str, reading: Reading, table: Table, taken: set[int]) -> int | None:
    """The cell of the column a condition names in full, for a requested column its last words
    shorten ("the years where the suicide rate was 11.0 …, with the number of suicides and the
    rate": the Suicides Rate, not the Accidental Deaths Rate)."""
    short = fold(column)
    for condition in reading.conditions:
        name = fold(condition.column or "")
        if short and name != short and name.endswith(f" {short}") \
                and (index := match_column(condition.column or "", table.header, " ".join(table.title))) is not None \
                and index not in taken:
            return index
    return None


def _numbering(column: str, table: Table, taken: set[int]) -> int | None:
    """The "No." column right before the labels a requested identifier names the things of
    ("Demand number" beside "No. | Ministry/Demand"); None when there is none."""
    thing = identifier_of(column)
    for j in range(len(table.header) - 1):
        names = names_of(table.header[j + 1])
        if j not in taken and thing and normalise(table.header[j]) in ("no", "nr", "number") \
                and any(thing == name or name.endswith(f" {thing}") for name in names):
            return j
    return None


def _titled_period(column: str, table: Table, taken: set[int], request: str) -> int | None:
    """The column of the period the request names, in a table titled by what a requested column
    measures and headed by periods ("revenue per region" from the Q1 2025 report: the "Q1 2025"
    column under "Revenue by region", beside "Q1 2024"). None unless the title holds every word
    of the column and exactly one header cell is a period the request says."""
    wanted = fold(column).split()
    titled = set(fold(" ".join(table.title)).split())
    if not wanted or not set(wanted) <= titled:
        return None
    said = f" {fold(request)} "
    periods = [i for i, cell in enumerate(table.header)
               if i not in taken and YEAR.search(cell) and fold(cell) and f" {fold(cell)} " in said]
    return periods[0] if len(periods) == 1 else None


def _designation(column: str, table: Table, taken: set[int]) -> int | None:
    """"Article number, name and list price" over "Artikelnr | Bezeichnung | Listenpreis EUR": the
    name of the thing a row lists is the one cell of its description no other requested column
    takes, in a table that names no party or person (their name is no designation)."""
    if fold(column) not in _NAME_WORDS or any(groups_of(cell) & _PARTIES for cell in table.header):
        return None
    cells = [j for j, cell in enumerate(table.header) if j not in taken and "description" in groups_of(cell)]
    return cells[0] if len(cells) == 1 else None


_NAME_WORDS = frozenset({"name", "nom", "nombre", "naam", "nome"})
_PARTIES = frozenset({"customer", "supplier", "party", "carrier", "employee", "responsible", "given name", "surname"})


def _in_translation(column: str, table: Table, taken: set[int], others: list[str]) -> int | None:
    """The cell naming a requested column in part once both are read in English ("NÚMERO" for
    the "Candidate number" of a Portuguese list, "Our estimates 1996" for "Eigene Schätzung
    1996"); None when neither is written in another language."""
    if not across(column, table.header):
        return None
    header = [(english(cell) or ("",))[0] if cell.strip() else "" for cell in table.header]
    for reading in english(column):
        if (index := partly_named(reading, header, taken, "", [form for other in others for form in english(other)[:1]])) is not None:
            return index
    return None
