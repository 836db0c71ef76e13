"""The text layer of a Word, PowerPoint, Excel or HWPX file: every word its parts hold as text, read
from the package's XML without the parser, so that what the parser never read can be counted.

Word: the body, page headers and footers, footnotes and endnotes (text in text boxes and
equations included; text deleted or moved away, field codes and the fallback copy of a drawing left out).
PowerPoint: the slides' text. Excel: the text cells (shared and inline strings); figures are
left out, as a sheet shows them formatted ("50%" for 0.5). HWPX: the sections' runs.
"""

from __future__ import annotations

import io
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
    ".hwpx": (re.compile(r"Contents/section\d+\.xml"), {"{http://www.hancom.co.kr/hwpml/2011/paragraph}t"}),
}


_STRICT = re.compile(rb"http://purl\.oclc\.org/ooxml/(\w+)/(\w+)")
_STRICT_RENAMED = {  # the names Strict spells otherwise
    b"http://purl.oclc.org/ooxml/officeDocument/extendedProperties":
        b"http://schemas.openxmlformats.org/officeDocument/2006/extended-properties",
    b"http://purl.oclc.org/ooxml/officeDocument/relationships/extendedProperties":
        b"http://schemas.openxmlformats.org/officeDocument/2006/relationships/extended-properties",
}


def opened_package(path: Path) -> str | io.BytesIO:
    """The package to open: the file itself, or, for a file saved as ISO Strict Office Open XML
    (Word's "Strict Open XML Document"), a copy in memory with its namespaces written the
    Transitional way the readers know ("http://purl.oclc.org/ooxml/wordprocessingml/main" as
    "http://schemas.openxmlformats.org/wordprocessingml/2006/main"); the text is unchanged."""
    with zipfile.ZipFile(path) as archive:
        package = archive.read("_rels/.rels") if "_rels/.rels" in archive.namelist() else b""
        if _STRICT.search(package) is None:
            return str(path)
        copy = io.BytesIO()
        with zipfile.ZipFile(copy, "w", zipfile.ZIP_DEFLATED) as out:
            for info in archive.infolist():
                data = archive.read(info)
                if info.filename.endswith((".xml", ".rels")):
                    for strict, transitional in _STRICT_RENAMED.items():
                        data = data.replace(strict, transitional)
                    data = _STRICT.sub(rb"http://schemas.openxmlformats.org/\1/2006/\2", data)
                out.writestr(info, data)
    copy.seek(0)
    return copy


def office_text_layer(path: Path) -> list[str] | None:
    """The words of the file's text layer; None for a format without one here."""
    kind = _PARTS.get(path.suffix.lower())
    if kind is None:
        return None
    pattern, tags = kind
    words: list[str] = []
    with zipfile.ZipFile(opened_package(path)) as archive:
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
        if element.tag in tags:
            yield " ".join(element.itertext())  # an HWPX run's text goes on after its tabs and breaks
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
