"""The text layer of a Word, PowerPoint or Excel file: every word its parts hold as text, read
from the package's XML without the parser, so that what the parser never read can be counted.

Word: the body, page headers and footers, footnotes and endnotes (text in text boxes and
equations included; text deleted or moved away, field codes and the fallback copy of a drawing left out).
PowerPoint: the slides' text. Excel: the text cells (shared and inline strings); figures are
left out, as a sheet shows them formatted ("50%" for 0.5).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
import zipfile
from collections.abc import Iterator
from pathlib import Path

from tools.parsing.base import ParsedDocument
from tools.parsing.coverage import coverage_note, unread_words

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
MATH_TEXT = "{http://schemas.openxmlformats.org/officeDocument/2006/math}t"
_A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
_S = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
FALLBACK = "{http://schemas.openxmlformats.org/markup-compatibility/2006}Fallback"
_SKIPPED = {FALLBACK, f"{_W}moveFrom", f"{_W}del"}  # a drawing's fallback copy, text moved or deleted

_PARTS = {
    ".docx": (re.compile(r"word/(document|header\d*|footer\d*|footnotes|endnotes)\.xml"), {f"{_W}t", MATH_TEXT}),
    ".pptx": (re.compile(r"ppt/slides/slide\d+\.xml"), {f"{_A}t"}),
    ".xlsx": (re.compile(r"xl/(sharedStrings|worksheets/sheet\d+)\.xml"), {f"{_S}t"}),
}


def office_text_layer(path: Path) -> list[str] | None:
    """The words of the file's text layer; None for a format without one here."""
    kind = _PARTS.get(path.suffix.lower())
    if kind is None:
        return None
    pattern, tags = kind
    words: list[str] = []
    with zipfile.ZipFile(path) as archive:
        for name in sorted(n for n in archive.namelist() if pattern.fullmatch(n)):
            words += [w for text in _texts(ET.fromstring(archive.read(name)), tags) for w in text.split()]
    return words


def _texts(root: ET.Element, tags: set[str]) -> Iterator[str]:
    """The text of the elements tagged ``tags`` under ``root`` in document order, a drawing's
    fallback copy skipped (iteratively: a document may nest deeper than Python recurses)."""
    stack = [root]
    while stack:
        element = stack.pop()
        if element.tag in _SKIPPED:
            continue
        if element.tag in tags and element.text:
            yield element.text
        stack.extend(reversed(element))


def with_coverage_note(path: Path, document: ParsedDocument) -> ParsedDocument:
    """``document`` with a note when its parsed text lost more of the file's text layer than
    ``KEEP_SHARE`` (see ``tools.parsing.coverage``); unchanged for a format without a layer here."""
    layer = office_text_layer(path)
    if not layer:
        return document
    note = coverage_note(len(layer), unread_words(layer, "\n".join(document.pages)))
    if note is not None:
        document.notes.append(note)
    return document
