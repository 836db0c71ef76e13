"""Row checks both engines apply, so ``Match`` means the same whichever engine ran.

- A literal condition that is false under every reading of its cell fails the row: the offline
  engine, which read the row itself, leaves it out; a model's row is never dropped, only marked
  unsure with the reason (``check_conditions`` says which condition failed).
- An empty cell, or one that says the table has no value ("NA", "–"), fails a condition asking
  for a value, or for one above it ("completed in 2024" over a project whose completion date is
  empty): no reading of it holds one. Below a value or against zero ("no discount") it cannot be
  checked: such a cell may mean none.
- A condition that cannot be checked (no such column, a cell that is not there, a value that is
  not a number) keeps the row, unsure, with the reason.
- A row the request leaves out ("excluding the SUBTOTAL lines", a ``not`` condition on no
  column) is one whose cells hold the words that name it.
- A condition only meaning can judge (a row term, an unreadable condition) keeps the row,
  unsure: an engine without judgement never says "yes" to it.
- A requested column with no value the engine could place keeps the row, unsure.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from core.reading import Condition, DocumentText, Reading, Record
from tools.engines.columns import folded
from tools.engines.numbers import compare, parse_number

Cell = str | bool | None  # the row's cell; None for an empty one; False when the row has no such column


# what a table prints where it has no value: "NA", "n/a", "n.a.", a dash, dots
_NOT_AVAILABLE = re.compile(r"n\.?\s?/?\s?a\.?|[-–—]+|\.{2,}|…", re.IGNORECASE)


def holds_words(text: str, words: str) -> bool:
    """Whether a text holds these words one after the other, whole, in any case and with or
    without a plural's "s" ("Violent crime" holds "violent crime", "Totals" holds "total";
    "SUBTOTAL" does not hold "total")."""
    wanted, held = folded(words).split(), folded(text).split()
    return bool(wanted) and any(held[k : k + len(wanted)] == wanted for k in range(len(held) - len(wanted) + 1))


def _figure(value: str) -> bool:
    """Whether a compared value is a figure or a date ("70", "5 000 PLN", "2024", "June 2025")."""
    return parse_number(value.replace("%", "")) is not None or any(ch.isdigit() for ch in value)


def _zero(value: str) -> bool:
    """Whether a compared value is zero ("0", "0%", "0.00", "0 or 0%"): an empty cell may mean it."""
    return all(parse_number(v.replace("%", "").strip()) == 0 for v in value.split(" or "))


_EMPTY_FAILS = frozenset({"equals", "contains", "starts", "gt", "ge"})  # "not …" is met by an empty cell; "below" may be


def check_conditions(conditions: list[Condition], cell_of: Callable[[str], Cell]) -> tuple[bool, list[str]]:
    """Whether a row may meet the literal conditions, and why it is unsure when it may; when it
    does not, the notes say which condition its cell fails."""
    notes: list[str] = []
    for condition in conditions:
        if condition.op == "judgement":
            continue
        if not condition.column:
            cell = cell_of("")  # the whole row
            if isinstance(cell, str) and condition.op == "not" and holds_words(cell, condition.value):
                # "Leave out the SUBTOTAL and BRAZIL lines": a row that holds what is left out
                return False, [f"the row holds '{condition.value}', which the request leaves out"]
            if isinstance(cell, str) and condition.op != "not" and compare(condition.op, cell, condition.value) is False:
                return False, [f"the row does not meet '{condition.text or condition.value}' as Kea reads it"]
            continue
        cell = cell_of(condition.column)
        if isinstance(cell, str) and _NOT_AVAILABLE.fullmatch(cell.strip()) and _figure(condition.value):
            cell = None  # "NA", "n/a", "–" where a figure is compared: the table says it has no value here
        if cell is False:
            notes.append(f"no '{condition.column}' to check '{condition.text}'")
            continue
        if condition.op in ("equals", "not") and not condition.value.strip():
            # "has an entry under …" (not empty), "has no value in …" (empty): a dash or "NA" is none
            holds = isinstance(cell, str) and not _NOT_AVAILABLE.fullmatch(cell.strip())
            if cell is True:
                notes.append(f"no value for '{condition.column}' to check '{condition.text}'")
            elif holds != (condition.op == "not"):
                return False, [f"'{condition.column}' is '{cell or ''}', which does not meet '{condition.text}'"]
            continue
        asks_value = condition.op in _EMPTY_FAILS and condition.value.strip() and not _zero(condition.value)
        if cell is None and asks_value:
            # an empty cell holds no value that could be equal, above or below one (but zero: it
            # may mean none, "no discount")
            return False, [f"'{condition.column}' is empty, which does not meet '{condition.text or condition.value}'"]
        if cell is None or cell is True:
            notes.append(f"no value for '{condition.column}' to check '{condition.text}'")
            continue
        result = compare(condition.op, cell, condition.value)
        if result is False:
            return False, [f"'{condition.column}' is '{cell}', which does not meet '{condition.text or condition.value}' as Kea reads it"]
        if result is None:
            notes.append(f"cannot compare '{cell}' with '{condition.value}'")
    return True, notes


def judgement_notes(reading: Reading) -> list[str]:
    """What the row may or may not meet that only meaning can tell."""
    notes = [f"not judged: '{term}'" for term in reading.row_terms]
    notes += [f"not judged: '{c.text or c.value}'" for c in reading.conditions if c.op == "judgement"]
    return notes + unused_notes(reading)


def unused_notes(reading: Reading) -> list[str]:
    """Why every row is unsure while words of the request became nothing (``tools.engines.accounting``)."""
    return [f"the request's {', '.join(repr(w) for w in reading.unused)} was not used"] if reading.unused else []


def checked(record: Record, notes: list[str]) -> Record:
    """The record with these reasons added; unsure when there are any."""
    if not notes:
        return record
    note = "; ".join([*([record.note] if record.note else []), *notes])
    return record.model_copy(update={"match": "unsure", "note": note})


def _loose(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().casefold()


class _Finder:
    """Whether a value stands in the document: looked for in its row's evidence and page and the
    first page, then once in the whole text (a long document is not searched again per row)."""

    def __init__(self, document: DocumentText) -> None:
        self.document = document
        self._pages: dict[int, str] = {}
        self._anywhere: dict[str, bool] = {}

    def _page(self, number: int) -> str:
        if number not in self._pages:
            self._pages[number] = _loose(self.document.pages[number - 1])
        return self._pages[number]

    def __call__(self, value: str, record: Record) -> bool:
        wanted = _loose(value)
        near = [_loose(record.evidence or "")]
        near += [self._page(n) for n in {record.page or 1, 1} if 1 <= n <= self.document.page_count]
        if any(wanted in text for text in near):
            return True
        if wanted not in self._anywhere:
            self._anywhere[wanted] = any(wanted in self._page(n) for n in range(1, self.document.page_count + 1))
        return self._anywhere[wanted]


def values_found(document: DocumentText, records: list[Record]) -> list[Record]:
    """Each record, unsure where a value it holds does not stand in the document (never invented)."""
    stands = _Finder(document)
    out = []
    for record in records:
        missing = [f"{c} '{v}'" for c, v in record.values.items() if v and not stands(v, record)]
        out.append(checked(record, ["not found in the document: " + ", ".join(missing)] if missing else []))
    return out
