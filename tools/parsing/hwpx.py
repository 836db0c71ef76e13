"""HWPX (Hancom Office, OWPML): paragraphs and tables of the section XML parts, in order.

The section XML is read directly: paragraphs ``hp:p`` hold runs of text ``hp:t`` and tables
``hp:tbl`` (rows ``hp:tr`` of cells ``hp:tc``, each placed by its ``hp:cellAddr``).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

from core.reading import Table
from tools.parsing.base import ParsedDocument, UnreadableFile
from tools.parsing.office import check_package
from tools.parsing.text import make_table, pick_title, table_lines

HWPX_TYPE = "application/hwp+zip"
MAX_COLUMNS = 1024  # a cell address beyond this is damage, not a column
_SECTION = re.compile(r"Contents/section(\d+)\.xml")
_INLINE = {"tab": "\t", "lineBreak": "\n", "nbSpace": " ", "fwSpace": " ", "hyphen": "-"}


def _name(element: ET.Element) -> str:
    return element.tag.rsplit("}", 1)[-1]


def _run_text(t: ET.Element) -> str:
    parts = [t.text or ""]
    for child in t:
        parts += [_INLINE.get(_name(child), ""), child.tail or ""]
    return "".join(parts)


def _walk(element: ET.Element, lines: list[str], tables: list[Table], buffer: list[str]) -> None:
    """Append the element's paragraphs to ``lines`` and its tables to both, in order."""
    name = _name(element)
    if name == "tbl":
        _flush(buffer, lines)
        table = make_table(1, _rows(element))
        if table is not None:
            tables.append(table)
            lines += table_lines(table)
        return
    if name == "t":
        buffer.append(_run_text(element))
        return
    for child in element:
        _walk(child, lines, tables, buffer)
    if name == "p":
        _flush(buffer, lines)


def _flush(buffer: list[str], lines: list[str]) -> None:
    text = "".join(buffer)
    buffer.clear()
    if text.strip():
        lines.append(text)


def _int(text: str | None, default: int) -> int:
    try:
        value = int(text or "")
    except ValueError:
        return default
    return value if 0 <= value < MAX_COLUMNS else default


def _rows(table: ET.Element) -> list[list[str]]:
    rows = []
    for tr in (e for e in table if _name(e) == "tr"):
        cells: dict[int, str] = {}
        for seq, tc in enumerate(e for e in tr if _name(e) == "tc"):
            address = next((e for e in tc if _name(e) == "cellAddr"), None)
            column = _int(address.get("colAddr") if address is not None else None, seq)
            cell_lines: list[str] = []
            for child in tc:  # nested tables become cell text, not tables of their own
                _walk(child, cell_lines, [], [])
            cells[column] = " ".join(cell_lines)
        rows.append([cells.get(i, "") for i in range(max(cells, default=-1) + 1)])
    width = max(map(len, rows), default=0)
    return [row + [""] * (width - len(row)) for row in rows]


def parse_hwpx(path: Path) -> ParsedDocument:
    """A HWPX document: one page of its paragraphs and tables in document order."""
    check_package(path, "HWPX")
    with zipfile.ZipFile(path) as archive:
        names = archive.namelist()
        if "META-INF/manifest.xml" in names and b"encryption-data" in archive.read("META-INF/manifest.xml"):
            raise UnreadableFile("encrypted: the HWPX file is password-protected")
        sections = sorted((m for m in map(_SECTION.fullmatch, names) if m), key=lambda m: int(m.group(1)))
        if not sections:
            raise UnreadableFile("not a readable HWPX: it has no Contents/section*.xml")
        lines: list[str] = []
        tables: list[Table] = []
        for match in sections:
            try:
                root = ET.fromstring(archive.read(match.group(0)))
            except ET.ParseError as exc:
                raise UnreadableFile(f"not a readable HWPX: {match.group(0)}: {exc}") from exc
            _walk(root, lines, tables, [])
    title = pick_title(lines, path.stem)
    return ParsedDocument(title=title, media_type=HWPX_TYPE, pages=["\n".join(lines)], tables=tables)
