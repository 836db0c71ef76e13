"""Document writers shared by the corpus generators: PDF, DOCX, XLSX, PPTX, HWPX and text.

The generators keep their content (companies, records, wording, layouts); this module holds
only how a file is made. What a generator chooses about its files as a whole (the instant
they claim to be made at, the Word font, the PDF margins and core-font encoding) is a
:class:`Look`, passed to every writer that needs it. Everything is deterministic: PDF creation
dates, Office core properties, zip timestamps and HWPX ids are pinned, so the same records
give the same bytes.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import io
import json
import random
import re
import uuid
import zipfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Look:
    """What every file of one corpus shares."""

    instant: dt.datetime  # when each PDF and Office file claims to be made (UTC)
    docx_font: str  # the font of the Normal style in Word files
    pdf_margin: float  # left, top and right margin of a PDF page, mm
    pdf_bottom: float  # the bottom margin at which a PDF page breaks, mm
    pdf_encoding: str = "latin-1"  # what the core Helvetica font prints ("cp1252" adds "€")

    @property
    def naive(self) -> dt.datetime:
        return self.instant.replace(tzinfo=None)

    @property
    def zip_time(self) -> tuple[int, int, int, int, int, int]:
        i = self.instant
        return (i.year, i.month, i.day, i.hour, i.minute, i.second)

    @property
    def core_date(self) -> str:
        return self.instant.strftime("%Y-%m-%dT%H:%M:%SZ")


# --------------------------------------------------------------------------------------------
# Zip packages (DOCX, XLSX, PPTX, HWPX)


def freeze_zip(look: Look, path: Path) -> None:
    """Rewrite a zip package with pinned timestamps and core-property dates, same entry order."""
    with zipfile.ZipFile(path) as src:
        entries = [(info, src.read(info.filename)) for info in src.infolist()]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as dst:
        for info, data in entries:
            if info.filename == "docProps/core.xml":
                data = re.sub(
                    rb"(<dcterms:(created|modified)\b[^>]*>)[^<]*(</dcterms:\2>)",
                    lambda m: m.group(1) + look.core_date.encode() + m.group(3),
                    data,
                )
            fixed = zipfile.ZipInfo(info.filename, date_time=look.zip_time)
            fixed.compress_type = info.compress_type
            fixed.external_attr = 0o644 << 16
            fixed.create_system = 0
            dst.writestr(fixed, data)
    path.write_bytes(buffer.getvalue())


def _pin_core_properties(look: Look, props, title: str, author: str) -> None:
    props.title = title
    props.author = author
    props.last_modified_by = author
    props.revision = 1
    props.created = look.naive
    props.modified = look.naive


def docx_document(look: Look, title: str, author: str):
    from docx import Document
    from docx.shared import Pt

    doc = Document()
    style = doc.styles["Normal"]
    style.font.name = look.docx_font
    style.font.size = Pt(10)
    _pin_core_properties(look, doc.core_properties, title, author)
    return doc


def save_package(look: Look, package, path: Path) -> None:
    """Save a python-docx document, openpyxl workbook or python-pptx presentation, pinned."""
    package.save(str(path))
    freeze_zip(look, path)


def docx_bold(doc, text: str) -> None:
    """A paragraph of one bold run, as a letterhead."""
    doc.add_paragraph().add_run(text).bold = True


def docx_table(
    doc,
    rows: Sequence[Sequence[str]],
    bold_first: bool = True,
    right: frozenset[int] | set[int] = frozenset(),
) -> None:
    """A grid table: the first row bold unless ``bold_first`` is off; ``right`` columns of the
    other rows aligned right."""
    from docx.enum.text import WD_ALIGN_PARAGRAPH

    table = doc.add_table(rows=0, cols=len(rows[0]))
    table.style = "Table Grid"
    for r, row in enumerate(rows):
        cells = table.add_row().cells
        for i, text in enumerate(row):
            cells[i].text = text
            if r == 0 and bold_first:
                cells[i].paragraphs[0].runs[0].bold = True
            if r and i in right:
                cells[i].paragraphs[0].alignment = WD_ALIGN_PARAGRAPH.RIGHT


def workbook(look: Look, title: str, creator: str):
    from openpyxl import Workbook

    wb = Workbook()
    wb.properties.creator = creator
    wb.properties.title = title
    wb.properties.created = look.naive
    wb.properties.modified = look.naive
    return wb


def sheet(wb, name: str, header: list[str], rows: list[list], formats: dict[int, str], widths: Sequence[int]):
    """The first sheet (then a new one): a bold header, frozen; ``formats`` by 0-based column."""
    from openpyxl.styles import Font
    from openpyxl.utils import get_column_letter

    ws = wb.active if wb.active.max_row == 1 and wb.active.title == "Sheet" else wb.create_sheet()
    ws.title = name
    ws.append(header)
    for cell in ws[1]:
        cell.font = Font(bold=True)
    for row in rows:
        ws.append(row)
        for col, fmt in formats.items():
            ws.cell(ws.max_row, col + 1).number_format = fmt
    for i, width in enumerate(widths, start=1):
        ws.column_dimensions[get_column_letter(i)].width = width
    ws.freeze_panes = "A2"
    return ws


def write_pptx(look: Look, path: Path, title: str, author: str, slides: list[tuple[str, list[str]]]) -> None:
    """Slides of a title and bullets each."""
    from pptx import Presentation

    prs = Presentation()
    _pin_core_properties(look, prs.core_properties, title, author)
    layout = prs.slide_layouts[1]
    for heading, bullets in slides:
        slide = prs.slides.add_slide(layout)
        slide.shapes.title.text = heading
        body = slide.placeholders[1].text_frame
        body.text = bullets[0]
        for bullet in bullets[1:]:
            body.add_paragraph().text = bullet
    save_package(look, prs, path)


@contextlib.contextmanager
def stable_hwpx_ids(seed: int) -> Iterator[None]:
    """python-hwpx numbers new paragraphs and tables with uuid4; make them repeatable."""
    try:
        from hwpx.oxml import _document_impl as impl
    except ImportError:  # pragma: no cover - other python-hwpx layouts keep random ids
        yield
        return
    original = getattr(impl, "uuid4", None)
    ids = random.Random(seed)
    impl.uuid4 = lambda: uuid.UUID(int=ids.getrandbits(128), version=4)
    try:
        yield
    finally:
        if original is not None:
            impl.uuid4 = original


def write_hwpx(
    look: Look, path: Path, seed: int, before: list[str], rows: list[list[str]], after: list[str]
) -> None:
    """Paragraphs, one table of ``rows`` (the first is its header), more paragraphs."""
    from hwpx import HwpxDocument

    with stable_hwpx_ids(seed):
        doc = HwpxDocument.new()
        for line in before:
            doc.add_paragraph(line)
        table = doc.add_table(len(rows), len(rows[0]))
        for r, row in enumerate(rows):
            for col, text in enumerate(row):
                table.set_cell_text(r, col, text)
        for line in after:
            doc.add_paragraph(line)
        data = doc.to_bytes()
    path.write_bytes(data)
    freeze_zip(look, path)


# --------------------------------------------------------------------------------------------
# PDF (fpdf2, core Helvetica: no font files needed, only the look's encoding prints)


def printable(pdf, text: str) -> str:
    """``text`` unchanged; fails early when the core font's encoding cannot print it."""
    text.encode(pdf.core_fonts_encoding)
    return text


def pdf_document(look: Look, title: str, author: str, footer: Callable[[int], str] | None = None):
    """An A4 page in portrait; ``footer`` gives each page's footer line from its number."""
    from fpdf import FPDF

    class _Pdf(FPDF):
        def footer(self) -> None:
            if footer is None:
                return
            self.set_y(-14)
            self.set_font("Helvetica", size=7)
            self.cell(0, 5, printable(self, footer(self.page_no())), align="C")

    pdf = _Pdf(orientation="P", unit="mm", format="A4")
    pdf.core_fonts_encoding = look.pdf_encoding
    pdf.set_creation_date(look.instant)
    pdf.set_title(printable(pdf, title))
    pdf.set_author(printable(pdf, author))
    pdf.set_margins(look.pdf_margin, look.pdf_margin, look.pdf_margin)
    pdf.set_auto_page_break(True, margin=look.pdf_bottom)
    pdf.add_page()
    return pdf


def pdf_lines(pdf, lines: list[str], size: float = 10, style: str = "") -> None:
    pdf.set_font("Helvetica", style, size)
    for line in lines:
        pdf.cell(0, 5, printable(pdf, line), new_x="LMARGIN", new_y="NEXT")


def pdf_heading(pdf, text: str, size: float, height: float) -> None:
    pdf.set_font("Helvetica", "B", size)
    pdf.cell(0, height, printable(pdf, text), new_x="LMARGIN", new_y="NEXT")


def pdf_paragraph(pdf, text: str, size: float = 10) -> None:
    pdf.set_font("Helvetica", "", size)
    pdf.multi_cell(0, 5, printable(pdf, text), new_x="LMARGIN", new_y="NEXT")
    pdf.ln(2)


def pdf_ruled(
    pdf,
    widths: tuple[float, ...],
    aligns: tuple[str, ...] | str,
    rows: list[list[str]],
    size: float = 8.5,
    *,
    line_height: float = 5,
    padding: tuple[float, float] | None = (0.6, 1.2),
    width: float | str = "columns",
    repeat_headings: int = 1,
) -> None:
    """A table with ruling lines whose first row is its bold header.

    ``width`` is in mm from the left margin, ``"columns"`` (the sum of ``widths``) or
    ``"page"`` (the text width of the page, ``widths`` only in proportion); with
    ``repeat_headings=0`` a following page does not repeat the header.
    """
    from fpdf.fonts import FontFace

    placement = {}  # "page": fpdf's own default, the text width, centred
    if width != "page":
        placement = {"width": sum(widths) if width == "columns" else width, "align": "LEFT"}
    pdf.set_font("Helvetica", "", size)
    with pdf.table(
        col_widths=widths,
        **placement,
        text_align=aligns,
        line_height=line_height,
        repeat_headings=repeat_headings,
        headings_style=FontFace(emphasis="BOLD"),
        padding=padding,
    ) as table:
        for row in rows:
            table.row([printable(pdf, text) for text in row])


def pdf_unruled(
    pdf, widths: tuple[float, ...], aligns: tuple[str, ...], rows: list[list[str]], size: float = 9
) -> None:
    """Columns of text placed side by side, the first row bold; no line is drawn anywhere."""
    for r, row in enumerate(rows):
        pdf.set_font("Helvetica", "B" if r == 0 else "", size)
        for w, a, text in zip(widths, aligns, row):
            pdf.cell(w, 6, printable(pdf, text), align=a)
        pdf.ln(6 if r else 7)


def write_scanned_pdf(look: Look, path: Path, lines: list[str]) -> None:
    """A page as a scanner makes it: one picture of ``lines``, no text layer."""
    from PIL import Image, ImageDraw

    picture = Image.new("L", (1240, 620), 250)
    draw = ImageDraw.Draw(picture)
    for i, line in enumerate(lines):
        draw.text((60, 60 + 70 * i), line, fill=20)
    buffer = io.BytesIO()
    picture.save(buffer, format="PNG")
    pdf = pdf_document(look, "Scan", "Scanner")
    pdf.image(buffer, x=15, y=15, w=180)
    path.write_bytes(bytes(pdf.output()))


# --------------------------------------------------------------------------------------------
# Text


def write_text(path: Path, text: str) -> None:
    path.write_bytes(text.encode("utf-8"))


def md_table(rows: Sequence[Sequence[str]]) -> list[str]:
    """The lines of a Markdown table whose first row is the header."""
    lines = ["| " + " | ".join(rows[0]) + " |", "|" + "---|" * len(rows[0])]
    return lines + ["| " + " | ".join(row) + " |" for row in rows[1:]]


# --------------------------------------------------------------------------------------------
# The knowledge base and its truth


class Folder:
    """The folder of documents being written; remembers every path it hands out."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.written: list[str] = []

    def path(self, rel: str) -> Path:
        """Where to write the document ``rel`` (its folder is made)."""
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        self.written.append(rel)
        return path

    def text(self, rel: str, body: str) -> None:
        write_text(self.path(rel), body)


def write_truth(path: Path, truth: dict) -> None:
    path.write_text(json.dumps(truth, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")


def command_line(
    prog: str, description: str, generate: Callable[..., dict], documents: str, argv: list[str] | None = None
) -> int:
    """A generator's command line: write the corpus into OUT, then list its folders and cases."""
    import argparse

    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("out", type=Path, help="folder to write into (created if missing)")
    parser.add_argument("--seed", type=int, default=7, help="random seed (default: 7)")
    args = parser.parse_args(argv)
    truth = generate(args.out, seed=args.seed)
    folders: dict[str, int] = {}
    for rel in truth["documents"]:
        folder = rel.rsplit("/", 1)[0] + "/"
        folders[folder] = folders.get(folder, 0) + 1
    print(f"Wrote {len(truth['documents'])} documents into {args.out / documents} (seed {args.seed}):")
    wide = max(map(len, folders), default=0) + 2
    for folder, count in sorted(folders.items()):
        print(f"  {folder:<{wide}} {count}")
    print(f"Truth: {args.out / 'truth.json'} ({len(truth['cases'])} cases)")
    wide = max((len(case["id"]) for case in truth["cases"]), default=0) + 2
    for case in truth["cases"]:
        print(f"  {case['id']:<{wide}} {len(case['rows']):>4} rows  {case['status']}")
    return 0
