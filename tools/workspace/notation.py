"""Which number notation a column shows, decided once when the table is loaded.

Values stay text in the workspace; SQL turns them into numbers with ``kea_number(text
[, notation])`` (``kea_number.sql``). A value such as ``1.234`` reads two ways: 1234 in
European notation ('.' groups thousands, ',' is the decimal mark), 1.234 in English notation.
Such a value is never guessed cell by cell. Instead the loader looks at the whole column:

- a column whose values show only one notation where it can be told (``1.234,50``, ``12,5``,
  ``1.234.567`` are European; ``1,234.50``, ``12.5``, ``1,234,567`` are English) has that
  notation;
- a column that shows none (only ``1.234``-like values and plain integers) takes the notation
  the rest of the table shows, if the table shows exactly one;
- otherwise the column has no notation (``None``), or ``"mixed"`` when it shows both.

The notation is recorded with the column (``kea sql --tables`` lists it) and passed to
``kea_number`` as its second argument: ``kea_number(unit_price, 'european')``. Without one,
``kea_number`` reads unambiguous values and raises an error on an ambiguous one, naming the
notations to choose from. These rules mirror the SQL function's; the tests hold both to them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

EUROPEAN = "european"
ENGLISH = "english"
MIXED = "mixed"

# what may stand around a number: a currency sign or code, a percent sign, a unit after a space;
# spaces and an apostrophe inside it group thousands (kea_number.sql uses the same patterns)
_S = "[ \t\r\n\u00a0\u202f\u2009]"
_LEAD = re.compile(rf"^{_S}*(?:[€$£¥₩₹₽¢]{_S}*|[A-Z]{{3}}{_S}+)")
_TRAIL = re.compile(rf"(?:{_S}*[€$£¥₩₹₽¢%‰원]|{_S}+[A-Za-z]{{1,5}}\.?){_S}*$")
_GROUPING = re.compile(r"[ \t\r\n\u00a0\u202f\u2009']")
_NUMBER = re.compile(r"[0-9][0-9.,]*|[.,][0-9]+")


def core(value: str) -> str | None:
    """The number's own characters (digits and separators, sign dropped), or None if it is none."""
    text = _GROUPING.sub("", _TRAIL.sub("", _LEAD.sub("", value)))
    if text.startswith("(") and text.endswith(")"):
        text = text[1:-1]
    if text[:1] in "+-":
        text = text[1:]
    return text if _NUMBER.fullmatch(text) else None


def notation_of(value: str) -> str | None:
    """The notation a single value shows: european, english, ``"ambiguous"``, or None.

    None: not a number, or a number any notation reads alike (007, -42).
    """
    text = core(value)
    if text is None:
        return None
    dots, commas = text.count("."), text.count(",")
    if dots and commas:
        return EUROPEAN if text.rfind(",") > text.rfind(".") else ENGLISH
    if not dots and not commas:
        return None
    mark = "." if dots else ","
    if dots + commas > 1:  # a mark that stands twice groups thousands
        return ENGLISH if mark == "," else EUROPEAN
    if re.fullmatch(rf"[1-9][0-9]{{0,2}}{re.escape(mark)}[0-9]{{3}}", text):
        return "ambiguous"
    return EUROPEAN if mark == "," else ENGLISH  # a single mark that cannot group is the decimal mark


def _definite(values: Iterable[str]) -> tuple[set[str], bool]:
    seen: set[str] = set()
    ambiguous = False
    for value in values:
        found = notation_of(value)
        if found == "ambiguous":
            ambiguous = True
        elif found:
            seen.add(found)
    return seen, ambiguous


def column_notations(columns: Sequence[Sequence[str]]) -> list[str | None]:
    """The notation of each column (given as its values), by the rules above."""
    found = [_definite(values) for values in columns]
    table_wide = set().union(*(seen for seen, _ in found)) if found else set()
    table_notation = next(iter(table_wide)) if len(table_wide) == 1 else None
    result: list[str | None] = []
    for seen, ambiguous in found:
        if len(seen) > 1:
            result.append(MIXED)
        elif seen:
            result.append(next(iter(seen)))
        elif ambiguous:
            result.append(table_notation)
        else:
            result.append(None)
    return result
