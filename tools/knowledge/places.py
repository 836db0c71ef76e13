"""The places of a reading (folders, files, years, globs) as a selection of documents."""

from __future__ import annotations

import re

from core.reading import Place, Reading, ScopeHint
from core.selection import ContentQuery, DocumentSelection, Scope, SelectionEntry
from tools.engines.dates import years_as_dates
from tools.knowledge.base import KnowledgeBase
from tools.knowledge.queries import Resolution
from tools.knowledge.paths import year_regex
from tools.parsing.text import named_as_table


def _glob(place: Place) -> str:
    return f"{place.value.strip('/')}/**" if place.kind == "folder" else place.value


def _alone(place: Place) -> SelectionEntry:
    """The documents a folder, glob or year place names on its own."""
    if place.kind == "year":
        return SelectionEntry(path_regex=year_regex(place.value))
    return SelectionEntry(path_globs=[_glob(place)])


# a path that holds no year standing as its own number (PostgreSQL's regular expressions look ahead)
NO_YEAR = r"^(?!.*(^|[^0-9])(19|20)[0-9]{2}([^0-9]|$))"


def dated_in_places(reading: Reading, kb: KnowledgeBase, scope: Scope) -> Reading:
    """A year that no path holds, beside documents whose paths hold no year at all ("the 2022
    receipts" over ``receipts-archive/`` in a scope with ``orders/2024/``), is the documents'
    date, not a place: the rule of ``years_as_dates`` for a scope without years, applied to the
    places the reading names (the whole scope when it names only years)."""
    years = [p.value for p in reading.places if p.kind == "year"]
    if not years:
        return reading
    paths = [_glob(p) for p in reading.places if p.kind in ("folder", "glob")]

    def count(regex: str) -> int:
        return kb.count(scope, DocumentSelection(entries=[SelectionEntry(path_globs=paths, path_regex=regex)]))

    if any(count(year_regex(y)) for y in years):
        return reading
    undated = count(NO_YEAR)
    return years_as_dates(reading, ScopeHint(documents=undated)) if undated else reading


def dated_beside(reading: Reading, kb: KnowledgeBase, scope: Scope, shown: int = 3) -> tuple[Reading, SelectionEntry, str] | None:
    """A year that narrows folders (or the whole scope) which also hold documents whose paths hold
    no year ("the 2024 invoices" over ``invoices/2024/…`` and ``invoices/Tessaro/…``; "December
    2015" over ``report-2015-11.pdf`` and ``traffic.pdf``): a place for the dated paths, and for
    the others their date. Those are read too, the year a document condition of the
    reading (met by a document that names it; a dated path names it), as where no path in scope
    carries a year. The reading with the condition, the selection entry of those documents, and
    the note that says so with their paths; None when there are none."""
    years = [p.value for p in reading.places if p.kind == "year"]
    paths = [_glob(p) for p in reading.places if p.kind in ("folder", "glob")]
    if not years:
        return None
    entry = SelectionEntry(path_globs=paths, path_regex=NO_YEAR)
    found = kb.resolve(scope, DocumentSelection(entries=[entry]))
    if not found.documents:
        return None
    named = ", ".join(d.path for d in found.documents[:shown])
    more = f" and {len(found.documents) - shown} more" if len(found.documents) > shown else ""
    year = " or ".join(years)
    where = "in these folders" if paths else "in scope"
    note = (
        f"{len(found.documents)} documents {where} have no year in their path: {named}{more}. They were "
        f"read too, and each gives rows only if it names {year}, as a document dated then does."
    )
    dated = reading.model_copy(update={"document_conditions": list(dict.fromkeys([*reading.document_conditions, *years]))})
    return dated, entry, note


def places_to_read(reading: Reading, kb: KnowledgeBase, scope: Scope) -> tuple[Reading, DocumentSelection, list[str], list[str]]:
    """What the confirmed places read: the reading (with the year as the date of the documents
    beside dated paths, ``dated_beside``), their selection, the places that hold no document
    (``selection_for``), and what the answer says of the documents beside."""
    selection, missing = selection_for(reading, kb, scope)
    beside = dated_beside(reading, kb, scope)
    if beside is None:
        return reading, selection, missing, []
    dated, entry, note = beside
    return dated, selection.model_copy(update={"entries": [*selection.entries, entry]}), missing, [note]


def selection_for(reading: Reading, kb: KnowledgeBase, scope: Scope) -> tuple[DocumentSelection, list[str]]:
    """The confirmed places as a selection, and the places that hold no document in scope.

    Folders and globs are alternatives, years narrow them (invoices + 2025 = invoices of 2025);
    files named outright are read whatever the other places say. A place that holds nothing on
    its own is named, even when the others hold documents.
    """
    paths = [p for p in reading.places if p.kind in ("folder", "glob")]
    years = [p.value for p in reading.places if p.kind == "year"]
    entries: list[SelectionEntry] = []
    if paths or years:
        regex = "|".join(f"({year_regex(y)})" for y in years) or None
        entries.append(SelectionEntry(path_globs=[_glob(p) for p in paths], path_regex=regex))
    missing: list[str] = []
    for place in reading.places:
        if place.kind == "file":
            found = kb.find_by_path_suffix(scope, place.value)
            if found:
                entries.append(SelectionEntry(ids=[d.id for d in found]))
            else:
                missing.append(place.value)
        elif kb.count(scope, DocumentSelection(entries=[_alone(place)])) == 0:
            missing.append(place.value)
    if missing and not entries:
        entries.append(SelectionEntry(ids=[]))  # only files that do not exist were named
    return DocumentSelection(entries=entries), missing


def without_paths(selection: DocumentSelection) -> DocumentSelection | None:
    """``selection`` with its path conditions taken out; None when an entry held nothing else
    (then the search narrowed by path only, which the confirmed Location replaces)."""
    entries = []
    for entry in selection.entries:
        rest = entry.model_copy(update={"path_globs": [], "path_regex": None})
        if rest.content is None and rest.ids is None:
            return None
        entries.append(rest)
    return DocumentSelection(entries=entries) if entries else None


def discovered(kb: KnowledgeBase, scope: Scope, chosen: DocumentSelection, places: DocumentSelection | None) -> Resolution:
    """The documents of the search's selection; with confirmed places (``places``), those places
    replace the search's paths: the places' documents that meet the selection's other conditions."""
    if places is None:
        return kb.resolve(scope, chosen)
    at_places = kb.resolve(scope, places)
    rest = without_paths(chosen)
    if rest is None or not at_places.complete:
        return at_places
    found = kb.resolve(scope, rest)
    ids = {d.id for d in found.documents}
    return Resolution([d for d in at_places.documents if d.id in ids], complete=found.complete, reason=found.reason)


NAMED_DOCUMENTS = 20  # documents a request's words may name and still be "the ones it names"


def named_tables(reading: Reading, kb: KnowledgeBase, scope: Scope) -> list[list[str]]:
    """The table headers, most common first, of the documents a request names when it names no
    column ("all the lines of the Brightcell invoice INV-BC-20931"): the documents at its places
    whose text or path holds every term the documents must name, those whose paths hold them all
    first (the SLA with Brightwave, not the incident log that mentions it). [] when it names no
    place and no such term, or when its terms name no document or more than ``NAMED_DOCUMENTS``."""
    selection, _ = selection_for(reading, kb, scope)
    terms = [t for t in reading.document_conditions if t.strip()]
    if not terms:
        return kb.table_headers(scope, selection=selection) if selection.entries else []
    entries = selection.entries or [SelectionEntry()]
    ids: set[int] | None = None
    in_paths: set[int] | None = None  # … those whose paths hold every term name them most plainly
    for term in terms:
        named = [e.model_copy(update={"content": ContentQuery(text=term)}) for e in entries]
        # … or whose path holds it ("Brightcell Storage/INV-BC-20931.xlsx"), case folded
        named += [e.model_copy(update={"path_regex": "(?i)" + re.escape(term)}) for e in entries if e.path_regex is None]
        found = kb.resolve(scope, DocumentSelection(entries=named)).documents
        held = {d.id for d in found}
        pathed = {d.id for d in found if term.casefold() in d.path.casefold()}
        ids = held if ids is None else ids & held
        in_paths = pathed if in_paths is None else in_paths & pathed
    if not ids or len(ids) > NAMED_DOCUMENTS:
        return []
    ids = in_paths or ids
    # "the Show Details table": the table its title names comes first
    titled = [t for t in terms if named_as_table(reading.request, t)]
    return kb.table_headers(scope, selection=DocumentSelection(entries=[SelectionEntry(ids=sorted(ids))]), titled=titled)
