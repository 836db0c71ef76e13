"""Office Open XML: Word (.docx), Excel (.xlsx) and PowerPoint (.pptx)."""

from __future__ import annotations

import datetime as dt
import posixpath
import re
import xml.etree.ElementTree as ET
import zipfile
import zlib
from collections.abc import Iterator
from pathlib import Path

import docx
import openpyxl
from docx.oxml import OxmlElement, parse_xml
from docx.oxml.ns import qn
from docx.table import Table as DocxTable
from docx.text.paragraph import Paragraph
from pptx import Presentation

from core.reading import Table
from tools.parsing.base import ParsedDocument, UnreadableFile
from tools.parsing.cellformat import Marks, display, workbook_marks
from tools.parsing.office_layer import FALLBACK, MATH_TEXT, opened_package
from tools.parsing.sheets import column_bands, sheet_table, stacked_tables
from tools.parsing.text import clean, make_table, pick_title, table_lines, with_caption

DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
PPTX_TYPE = "application/vnd.openxmlformats-officedocument.presentationml.presentation"

_OLE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
# Bounds on an office package, checked on the zip's directory before anything is inflated: a
# document past them is a zip bomb or far beyond any document a table is read from.
MAX_UNPACKED = 256 << 20  # all its parts together
MAX_PART = 64 << 20  # one part (the document's XML, a sheet): about a million cells


def check_package(path: Path, kind: str) -> None:
    """Raise UnreadableFile unless ``path`` is a zip package of sane size.

    Office saves a password-protected file as an OLE container with an ``EncryptionInfo``
    stream instead of a zip, so that is told apart from an old binary file renamed.
    """
    with path.open("rb") as f:
        is_ole = f.read(len(_OLE)) == _OLE
        head = f.read(64 << 20) if is_ole else b""
    if is_ole:
        if "EncryptionInfo".encode("utf-16-le") in head:
            raise UnreadableFile(f"encrypted: the {kind} file is password-protected")
        raise UnreadableFile(f"not a readable {kind}: it is an old binary Office/HWP file")
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError) as exc:
        raise UnreadableFile(f"not a readable {kind}: not a valid zip package ({exc})") from exc
    with archive:
        _check_sizes(archive, kind)
        _inflate_within_declared(archive, kind)


def _check_sizes(archive: zipfile.ZipFile, kind: str) -> None:
    """The sizes the zip's directory declares, within the bounds, before anything is inflated."""
    parts = archive.infolist()
    unpacked = sum(info.file_size for info in parts)
    largest = max(parts, key=lambda info: info.file_size, default=None)
    if largest is not None and largest.file_size > MAX_PART:
        raise UnreadableFile(
            f"too large: its part {largest.filename} unpacks to {largest.file_size >> 20} MB; "
            f"Kea reads {kind} files up to {MAX_PART >> 20} MB a part ({MAX_UNPACKED >> 20} MB in all)"
        )
    if unpacked > MAX_UNPACKED:
        raise UnreadableFile(
            f"too large: it unpacks to {unpacked >> 20} MB; Kea reads {kind} files up to {MAX_UNPACKED >> 20} MB unpacked"
        )


INFLATE_CHUNK = 1 << 20


def _inflate_within_declared(archive: zipfile.ZipFile, kind: str) -> None:
    """Inflate every part a megabyte at a time before any library reads the package: a part that
    holds more than its directory declares (a 1 MB entry that inflates to 1 GB) stops at the
    declared size with a checksum error, and memory never holds more than a chunk of it.
    (Read whole, as the Office libraries read parts, such a part is inflated in one piece.)"""
    try:
        for info in archive.infolist():
            with archive.open(info) as part:
                while part.read(INFLATE_CHUNK):
                    pass
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError, zlib.error) as exc:
        raise UnreadableFile(f"not a readable {kind}: {exc}") from exc


# --- Word ---------------------------------------------------------------------------------


def _blocks(parent) -> Iterator:
    """The body's paragraphs and tables in order, including those inside content controls."""
    for child in parent.iterchildren():
        if child.tag in (qn("w:p"), qn("w:tbl")):
            yield child
        elif child.tag == qn("w:sdt"):
            content = child.find(qn("w:sdtContent"))
            if content is not None:
                yield from _blocks(content)


_BREAKS = {qn("w:tab"): "\t", qn("w:ptab"): "\t", qn("w:cr"): "\n", qn("w:noBreakHyphen"): "-"}


def _paragraph_pages(paragraph: Paragraph) -> list[str]:
    """The paragraph's text, split where it holds a hard page break: its runs, and what stands
    inside them -- an equation, a checkbox's mark, the paragraphs of a text box (each on a line
    of its own) -- in document order. Text deleted or moved away, field codes and the fallback
    copy of a drawing are not read."""
    parts = [""]
    stack = list(reversed(paragraph._p))
    while stack:
        e = stack.pop()
        if not isinstance(e.tag, str) or e.tag in (FALLBACK, qn("w:moveFrom"), qn("w:del"), qn("w:pPr"), qn("w:rPr")):
            continue
        if e.tag in (qn("w:t"), MATH_TEXT):
            parts[-1] += e.text or ""
        elif e.tag == qn("w:br"):
            if e.get(qn("w:type")) == "page":
                parts.append("")
            else:
                parts[-1] += "\n"
        elif e.tag in _BREAKS:
            parts[-1] += _BREAKS[e.tag]
        else:
            if e.tag == qn("w:p") and parts[-1]:
                parts[-1] += "\n"  # a text box's paragraph
            stack.extend(reversed(e))
    return parts


def _row_cells(row) -> tuple[list[str], list[int]]:
    """The row's cells, one per column of the table's grid, and the columns a merged cell spans:
    a cell spanning columns stands in its first and leaves the others empty, so the cells right
    of it stay under their own header (a cell merged down the rows repeats in each, as Word
    shows it for every row)."""
    cells: list[str] = []
    spanned: list[int] = []
    last = None
    for cell in row.cells:
        if cell._tc is last:
            spanned.append(len(cells))
            cells.append("")
        else:
            cells.append(_docx_cell_text(cell))
        last = cell._tc
    return cells, spanned


def _nested(table: DocxTable) -> Iterator[DocxTable]:
    """The tables nested in ``table``'s cells, at any depth, in reading order."""
    for row in table.rows:
        seen = None
        for cell in row.cells:
            if cell._tc is seen:
                continue
            seen = cell._tc
            for inner in cell.tables:
                yield inner
                yield from _nested(inner)


def _docx_cell_text(cell) -> str:
    """The cell's paragraphs and, where they stand, the text of tables nested in it.

    A nested table stays in its cell as text: rows joined by "; ", cells by " / ", so the
    enclosing table keeps its shape and nothing of the inner one is lost.
    """
    parts = []
    for item in cell.iter_inner_content():
        if isinstance(item, DocxTable):
            rows = [" / ".join(c for c in map(clean, _row_cells(row)[0]) if c) for row in item.rows]
            parts.append("; ".join(row for row in rows if row))
        else:
            parts.append(" ".join(_paragraph_pages(item)))
    return "\n".join(part for part in parts if part.strip())


def _docx_rows(table: DocxTable) -> tuple[list[list[str]], list[list[int]]]:
    """The table's rows on its grid and, per row, the columns a merged cell spans; a column of
    the grid that only merged cells span (empty in every row) is left out."""
    read = [_row_cells(row) for row in table.rows]
    width = max((len(cells) for cells, _ in read), default=0)
    kept = [
        k for k in range(width)
        if any(k < len(cells) and cells[k].strip() for cells, _ in read) or not any(k in spanned for _, spanned in read)
    ]
    where = {k: i for i, k in enumerate(kept)}
    rows = [[cells[k] if k < len(cells) else "" for k in kept] for cells, _ in read]
    return rows, [[where[k] for k in spanned if k in where] for _, spanned in read]


def _docx_table(page: int, table: DocxTable) -> Table | None:
    rows, spanned = _docx_rows(table)
    return make_table(page, rows, spanned)


def _is_heading(paragraph: Paragraph) -> bool:
    name = (paragraph.style.name or "") if paragraph.style is not None else ""
    return name.startswith("Heading") or name == "Title"


def _headers_footers(document) -> tuple[list[str], list[str]]:
    """The lines of every page header and footer the sections define (the first page's, the
    even pages' and the others'), each once: letterheads often live there."""
    heads: list[str] = []
    feet: list[str] = []
    for section in document.sections:
        for part, out in (
            (section.first_page_header, heads), (section.header, heads), (section.even_page_header, heads),
            (section.first_page_footer, feet), (section.footer, feet), (section.even_page_footer, feet),
        ):
            if part.is_linked_to_previous:  # defined by no part of its own
                continue
            for block in _blocks(part._element):
                if block.tag == qn("w:tbl"):
                    rows, _ = _docx_rows(DocxTable(block, part))
                    out += ["\t".join(row) for row in rows if any(c.strip() for c in row)]
                else:
                    out += [text for text in _paragraph_pages(Paragraph(block, part)) if text.strip()]
    return heads, feet


_NOTES = (("footnotes", "footnote", str), ("endnotes", "endnote", lambda n: _roman(n).lower()))
_NOT_A_NOTE = {"separator", "continuationSeparator", "continuationNotice"}  # the rules Word draws between notes


def _notes(document) -> list[str]:
    """The footnotes' and then the endnotes' lines, each numbered as Word numbers them by
    default ("[1] …", "[i] …"), the same mark written where the text refers to it ("capped at
    EUR 250,000[1]", in the document as read, never in the file); the separators Word draws
    above the notes are no notes."""
    out: list[str] = []
    for kind, tag, number in _NOTES:
        for rel in document.part.rels.values():
            if rel.is_external or not rel.reltype.endswith("/" + kind):
                continue
            root = parse_xml(rel.target_part.blob)
            notes = [note for note in root.iter(qn(f"w:{tag}")) if note.get(qn("w:type")) not in _NOT_A_NOTE]
            labels = {note.get(qn("w:id")): f"[{number(n)}]" for n, note in enumerate(notes, start=1)}
            for reference in list(document.element.body.iter(qn(f"w:{tag}Reference"))):
                if (label := labels.get(reference.get(qn("w:id")))) is not None:
                    mark = OxmlElement("w:t")
                    mark.text = label
                    reference.addnext(mark)
            for n, note in enumerate(notes, start=1):
                lines = [t.strip() for p in note.iter(qn("w:p")) if p.getparent() is note for t in _paragraph_pages(Paragraph(p, None))]
                if text := " ".join(line for line in lines if line):
                    out.append(f"[{number(n)}] {text}")
    return out


def _roman(n: int) -> str:
    values = ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"))
    out = ""
    for value, letters in values:
        while n >= value:
            out, n = out + letters, n - value
    return out


def parse_docx(path: Path) -> ParsedDocument:
    """A Word document: paragraphs and tables in document order; hard page breaks start pages.

    The page headers open page 1 and the footers close the last page, since letterheads often
    live there; the footnotes and endnotes stand above the footers, numbered.
    """
    check_package(path, "DOCX")
    document = docx.Document(opened_package(path))
    pages: list[list[str]] = [[]]
    tables: list[Table] = []
    headings: list[str] = []
    heads, feet = _headers_footers(document)
    notes = _notes(document)  # read first: it writes each note's mark where the text refers to it
    pages[0] += heads
    above = ""  # the last paragraph since the last table: a table's title
    for block in _blocks(document.element.body):
        if block.tag == qn("w:tbl"):
            outer = DocxTable(block, document)
            table = _docx_table(len(pages), outer)
            if table is not None:
                table = with_caption(table, above)
                tables.append(table)
                pages[-1] += table_lines(table)
            # a table nested in a cell is a table of its own too, its rows after the enclosing one's
            for inner in _nested(outer):
                if (nested := _docx_table(len(pages), inner)) is not None:
                    tables.append(nested)
                    pages[-1] += table_lines(nested)
            above = ""
            continue
        paragraph = Paragraph(block, document)
        if paragraph.paragraph_format.page_break_before and pages[-1]:
            pages.append([])
        for k, text in enumerate(_paragraph_pages(paragraph)):
            if k:
                pages.append([])
            if text.strip():
                pages[-1].append(text)
                above = text
                if _is_heading(paragraph):
                    headings.append(text)
    pages[-1] += [*notes, *feet]  # notes close the text, above the last page's footer
    texts = ["\n".join(lines) for lines in pages]
    title = pick_title(headings, "") or pick_title("\n".join(texts).splitlines(), path.stem)
    return ParsedDocument(title=title, media_type=DOCX_TYPE, pages=texts, tables=tables)


# --- Excel --------------------------------------------------------------------------------

def _cell_text(value, number_format: str | None, marks: Marks | None) -> str:
    """The cell as the sheet shows it (see ``tools.parsing.cellformat``)."""
    if value is None:
        return ""
    if isinstance(value, (bool, int, float, dt.date, dt.time, dt.timedelta)):
        try:
            return display(value, number_format, marks)
        except (ArithmeticError, ValueError, IndexError, OverflowError):
            # a format code past what is drawn: the value as stored, the sheet still reads
            return display(value, None, marks) if isinstance(value, (int, float)) else str(value)
    return str(value)


_SHEET_NS = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_REL_NS = "{http://schemas.openxmlformats.org/package/2006/relationships}"
_R_ID = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"


def _relationships(archive: zipfile.ZipFile, part: str) -> dict[str, str]:
    """Relationship id -> target part of ``part`` ("" for the package itself)."""
    folder, name = posixpath.split(part)
    rels = posixpath.join(folder, "_rels", f"{name}.rels")
    if rels not in archive.namelist():
        return {}
    out = {}
    for rel in ET.fromstring(archive.read(rels)).iter(f"{_REL_NS}Relationship"):
        target = rel.get("Target", "")
        if rel.get("TargetMode") == "External":
            continue
        out[rel.get("Id", "")] = target.lstrip("/") if target.startswith("/") else posixpath.normpath(
            posixpath.join(folder, target)
        )
    return out


def _sheet_parts(archive: zipfile.ZipFile) -> dict[str, str]:
    """Sheet name -> the package part holding its cells."""
    package = ET.fromstring(archive.read("_rels/.rels"))
    workbook = next(
        (r.get("Target", "").lstrip("/") for r in package.iter(f"{_REL_NS}Relationship")
         if r.get("Type", "").endswith("/officeDocument")),
        "xl/workbook.xml",
    )
    targets = _relationships(archive, workbook)
    sheets = ET.fromstring(archive.read(workbook)).iter(f"{_SHEET_NS}sheet")
    return {s.get("name", ""): targets[s.get(_R_ID, "")] for s in sheets if s.get(_R_ID, "") in targets}


def _unsaved_formulas(archive: zipfile.ZipFile, part: str) -> tuple[int, str]:
    """How many formula cells of a sheet part have no saved value, and the first one's address.

    Reading with saved values only (``data_only``) gives such a cell as empty, exactly like a
    blank one, so the cells are counted in the sheet's XML: a formula ``f`` without a value ``v``.
    """
    count, first = 0, ""
    with archive.open(part) as stream:
        for _, element in ET.iterparse(stream):
            if element.tag != f"{_SHEET_NS}c":
                continue
            value = element.find(f"{_SHEET_NS}v")
            # an empty value is a saved result only for a text formula (it gave ""); openpyxl
            # writes an empty <v> for every formula it stores
            saved = value is not None and (bool(value.text) or element.get("t") == "str")
            if element.find(f"{_SHEET_NS}f") is not None and not saved:
                count += 1
                first = first or element.get("r", "")
            element.clear()
    return count, first


def _formula_notes(path: Path, titles: list[str]) -> list[str]:
    """One note per sheet whose formula cells were never calculated (saved by a program, not Excel)."""
    notes = []
    with zipfile.ZipFile(opened_package(path)) as archive:
        parts = _sheet_parts(archive)
        for title in titles:
            if title not in parts or parts[title] not in archive.namelist():
                continue
            count, first = _unsaved_formulas(archive, parts[title])
            if count == 1:
                notes.append(
                    f"sheet {title}: 1 formula cell has no saved value ({first}); "
                    "open and save the file in a spreadsheet program to keep it"
                )
            elif count:
                notes.append(
                    f"sheet {title}: {count} formula cells have no saved value (e.g. {first}); "
                    "open and save the file in a spreadsheet program to keep them"
                )
    return notes


def parse_xlsx(path: Path) -> ParsedDocument:
    """A workbook: each non-empty sheet is a page (its name, then its rows) and one table.

    Cells show the values last saved, as the sheet displays them with their number formats
    (``1.689,00``, ``31.08.2025``; the separators by ``workbook_marks``); a formula never
    calculated (a file written by a program, not a spreadsheet) is named in the notes, one per sheet.
    """
    check_package(path, "XLSX")
    workbook = openpyxl.load_workbook(opened_package(path), read_only=True, data_only=True)
    sheets: list[tuple[str, list[list[tuple[object, str | None]]]]] = []
    try:
        for sheet in workbook.worksheets:
            if hasattr(sheet, "reset_dimensions"):
                sheet.reset_dimensions()  # rows as stored, not padded to a claimed size
            rows = [
                [(cell.value, getattr(cell, "number_format", None)) for cell in row] for row in sheet.iter_rows()
            ]
            sheets.append((sheet.title, rows))
    finally:
        workbook.close()
    cells = [cell for _, rows in sheets for row in rows for cell in row if cell[0] is not None]
    marks = workbook_marks(
        (fmt or "General" for value, fmt in cells if not isinstance(value, str)),
        (value for value, _ in cells if isinstance(value, str)),
    )
    pages: list[str] = []
    tables: list[Table] = []
    for title, stored in sheets:
        texts = ([clean(_cell_text(value, fmt, marks)) for value, fmt in row] for row in stored)
        rows = [row for row in texts if any(row)]
        if not rows:
            continue
        # the sheet's columns that hold something: a table set in from column A, or apart by an
        # empty spacer column, keeps only its own; tables set side by side are tables of their own
        found = [t for band in column_bands(rows) for stacked in stacked_tables(band)
                 if (t := sheet_table(len(pages) + 1, stacked)) is not None]
        if not found:
            continue
        tables.extend(found)
        pages.append("\n".join([title, *(line for table in found for line in table_lines(table))]))
    try:
        notes = _formula_notes(path, [title for title, _ in sheets])
    except (KeyError, ET.ParseError, OSError, zipfile.BadZipFile, ValueError):
        notes = []  # the notes are a courtesy: a package laid out unusually is still read
    return ParsedDocument(
        title=path.stem, media_type=XLSX_TYPE, pages=pages or [""], tables=tables, notes=notes
    )


# --- PowerPoint ---------------------------------------------------------------------------


def _shapes(shapes) -> Iterator:
    for shape in shapes:
        if hasattr(shape, "shapes"):  # a group
            yield from _shapes(shape.shapes)
        else:
            yield shape


def parse_pptx(path: Path) -> ParsedDocument:
    """A presentation: each slide a page of its shapes' text in order, tables as Tables."""
    check_package(path, "PPTX")
    presentation = Presentation(opened_package(path))
    pages: list[str] = []
    tables: list[Table] = []
    titles: list[str] = []
    for number, slide in enumerate(presentation.slides, start=1):
        lines: list[str] = []
        for shape in _shapes(slide.shapes):
            if shape.has_text_frame:
                lines += [line.strip() for line in re.split(r"[\n\v]", shape.text_frame.text)]
            elif getattr(shape, "has_table", False):
                rows = [[cell.text for cell in row.cells] for row in shape.table.rows]
                # a merged cell's other grid cells hold no text of their own: spanned
                spanned = [[k for k, cell in enumerate(row.cells) if cell.is_spanned] for row in shape.table.rows]
                table = make_table(number, rows, spanned)
                if table is not None:
                    tables.append(table)
                    lines += table_lines(table)
        title_shape = slide.shapes.title
        if title_shape is not None and title_shape.has_text_frame:
            titles.append(title_shape.text_frame.text)
        pages.append("\n".join(line for line in lines if line))
    title = pick_title(titles, "") or pick_title("\n".join(pages).splitlines(), path.stem)
    return ParsedDocument(title=title, media_type=PPTX_TYPE, pages=pages or [""], tables=tables)
