"""From the model's reading of a request to Kea's: checked against the scope, and the places
the user wrote out added where the model left them unread."""

from __future__ import annotations

import re

from core.reading import Condition, Place, Reading, ScopeHint
from tools.engines.accounting import accounting_note
from tools.engines.dates import years_as_dates
from tools.engines.llm.schemas import RequestReading
from tools.engines.offline.request import written_places
from tools.engines.relative import said_as

UNREAD_PLACE = "The model did not read '{value}' as a place (a folder or the documents' year), so every document in scope was read."


def _unique(values: list[str]) -> list[str]:
    kept: dict[str, str] = {}
    for value in values:
        value = " ".join(value.split())
        if value:
            kept.setdefault(value.casefold(), value)
    return list(kept.values())


def reading_from(answer: RequestReading, message: str, scope: ScopeHint, quick: Reading | None = None) -> Reading:
    """The model's reading, checked against the scope: places exist as places, columns are named.

    A folder is written as the scope lists it; a place that names a supplier, a party or a
    topic the model also read as a condition is dropped (it is that condition); a year must be
    a year, and is the documents' date where no path in scope carries one (``years_as_dates``).
    A folder that is not listed stays as written: the scope reports it as empty. Places the
    user wrote out are added where the model left them unread, never over a condition it read.
    """
    if answer.kind != "table":
        return Reading(request=message, kind=answer.kind, columns_from="none")
    notes = _unique(answer.notes)
    columns = _unique(answer.columns)
    columns_from: str = "model" if answer.columns_from == "model" else "request"
    if not columns and quick is not None and quick.columns:
        columns, columns_from = quick.columns, quick.columns_from
    if not columns:
        notes.append("No column was named or designed; name the values you want, e.g. 'with description and amount'.")
        columns_from = "none"
    document_conditions = _unique(answer.document_conditions)
    row_terms = _unique(answer.row_terms)
    not_places = {t.casefold() for t in [*document_conditions, *row_terms]}
    folders = {f.folder.strip("/").casefold(): f.folder for f in scope.folders}
    places: list[Place] = []
    for place in answer.places:
        value = place.value.strip()
        if place.kind == "folder":
            value = folders.get(value.strip("/").casefold(), value.strip("/"))
            if value.casefold() not in folders and value.casefold() in not_places:
                continue
        elif place.kind == "year" and not re.fullmatch(r"(?:19|20)\d\d", value):
            continue
        if value and all((p.kind, p.value) != (place.kind, value) for p in places):
            places.append(Place(kind=place.kind, value=value))
    conditions = []
    for c in answer.conditions:
        column = None if c.op == "judgement" else (c.column or "").strip() or None
        if c.op != "judgement" and column is None:
            continue
        conditions.append(Condition(column=column, op=c.op, value=c.value.strip(), text=c.text.strip() or f"{column} {c.op} {c.value}"))
    # places the user wrote out are added where the model left them unread only when they name
    # a place the scope has (a folder it lists, a file path, a glob). A year, or a folder the scope
    # does not list ("Jun/2013"), may as well be a column, a period or a date: the model's reading
    # stands, every document in scope is read, and the note says so.
    read = " ".join(
        [answer.row_condition or "", *document_conditions, *row_terms, *columns,
         *(f"{c.value} {c.text}" for c in conditions)]
    )
    said = said_as(message, scope.today)
    for place in written_places(message, scope):
        value = place.value.strip("/").casefold()
        if any(p.value.strip("/").casefold() == value for p in places):
            continue
        # the hint lists a large scope's biggest folders only: a folder written as a path ("conv-37/")
        # names a folder whether or not it is among them
        as_path = f"{place.value.strip('/')}/".casefold() in message.casefold()
        if place.kind == "year" or (place.kind == "folder" and value not in folders and not as_path):
            if place.value not in read:
                # "this year" read as 2025: the note names what the user wrote
                notes.append(UNREAD_PLACE.format(value=said.get(place.value.casefold(), place.value)))
            continue
        places.append(place)
    unused = _unique(answer.unused)
    if unused:
        notes.append(accounting_note(unused))
    return years_as_dates(Reading(
        request=message,
        kind="table",
        columns=columns,
        columns_from=columns_from,  # type: ignore[arg-type]
        row_condition=(answer.row_condition or "").strip() or None,
        conditions=conditions,
        row_terms=row_terms,
        document_conditions=document_conditions,
        places=places,
        calculations=_unique(answer.calculations),
        notes=notes,
        unused=unused,
    ), scope)
