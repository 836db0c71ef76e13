"""Grounding: every row's evidence is located in the document's text, or the row is marked."""

from __future__ import annotations

import re

from tools.engines.reading import DocumentText, Record

NOT_FOUND = "evidence not found in the document"


def _loose(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().casefold()


def locate(evidence: str, document: DocumentText, page: int | None = None) -> int | None:
    """The 1-based page holding ``evidence`` (exact, then whitespace- and case-tolerant)."""
    order = list(range(1, document.page_count + 1))
    if page and 1 <= page <= document.page_count:
        order.remove(page)
        order.insert(0, page)
    for number in order:
        if evidence in document.pages[number - 1]:
            return number
    wanted = _loose(evidence)
    for number in order:
        if wanted and wanted in _loose(document.pages[number - 1]):
            return number
    return None


def verify_evidence(records: list[Record], document: DocumentText) -> list[Record]:
    """Set each record's page from its evidence; keep rows without found evidence, marked unsure."""
    checked = []
    for record in records:
        found = locate(record.evidence, document, record.page) if record.evidence else None
        if found is None:
            checked.append(record.model_copy(update={"match": "unsure", "note": record.note or NOT_FOUND}))
        else:
            checked.append(record.model_copy(update={"page": found}))
    return checked
