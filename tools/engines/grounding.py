"""Grounding: every row's evidence is located in the document's text, or the row is marked."""

from __future__ import annotations

import re

from core.reading import DocumentText, Record

NOT_FOUND = "evidence not found in the document"


def _loose(text: str) -> str:
    """Whitespace- and case-folded, without Markdown's emphasis marks (evidence is plain text)."""
    return re.sub(r"\s+", " ", re.sub(r"\*\*|__|`", "", text)).strip().casefold()


class _Pages:
    """A document's pages, with their whitespace- and case-folded form made once, on demand."""

    def __init__(self, document: DocumentText) -> None:
        self.pages = document.pages
        self._loose: list[str] | None = None

    def loose(self, number: int) -> str:
        if self._loose is None:
            self._loose = [_loose(p) for p in self.pages]
        return self._loose[number - 1]


def locate(evidence: str, document: DocumentText, page: int | None = None, pages: _Pages | None = None) -> int | None:
    """The 1-based page holding ``evidence`` (exact, then whitespace- and case-tolerant).

    Evidence of several lines (the labelled lines a record's values came from) is found when
    every line is; the page of its first line is the record's page.
    """
    pages = pages or _Pages(document)
    lines = [line for line in evidence.split("\n") if line.strip()]
    if len(lines) > 1:
        found = [_locate_one(line, document, page, pages) for line in lines]
        return None if None in found else found[0]
    return _locate_one(evidence, document, page, pages)


def _locate_one(evidence: str, document: DocumentText, page: int | None, pages: _Pages) -> int | None:
    order = list(range(1, document.page_count + 1))
    if page and 1 <= page <= document.page_count:
        order.remove(page)
        order.insert(0, page)
    for number in order:
        if evidence in document.pages[number - 1]:
            return number
    wanted = _loose(evidence)
    for number in order:
        if wanted and wanted in pages.loose(number):
            return number
    return None


def verify_evidence(records: list[Record], document: DocumentText) -> list[Record]:
    """Set each record's page from its evidence; keep rows without found evidence, marked unsure."""
    pages = _Pages(document)
    checked = []
    for record in records:
        found = locate(record.evidence, document, record.page, pages) if record.evidence else None
        if found is None:
            checked.append(record.model_copy(update={"match": "unsure", "note": record.note or NOT_FOUND}))
        else:
            checked.append(record.model_copy(update={"page": found}))
    return checked
