"""The places of a reading (folders, files, years, globs) as a selection of documents."""

from __future__ import annotations

from tools.engines.reading import Place, Reading
from tools.knowledge.base import KnowledgeBase
from tools.knowledge.paths import year_regex
from tools.knowledge.selection import DocumentSelection, Scope, SelectionEntry


def _glob(place: Place) -> str:
    return f"{place.value.strip('/')}/**" if place.kind == "folder" else place.value


def _alone(place: Place) -> SelectionEntry:
    """The documents a folder, glob or year place names on its own."""
    if place.kind == "year":
        return SelectionEntry(path_regex=year_regex(place.value))
    return SelectionEntry(path_globs=[_glob(place)])


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
