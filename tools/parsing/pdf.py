"""PDF: the text of each page and its tables, ruled (drawn with lines) or unruled (aligned text).

Ruled tables come from pdfplumber's line-based finder. Unruled tables are rebuilt from word
positions: words become lines, a line's words become segments where the gap between them is
wider than a space, a line of three or more segments followed by lines whose segments fall
under its segments is a header, and the table ends at the first line that does not fit.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import pdfplumber
from pdfminer.pdfdocument import PDFEncryptionError, PDFPasswordIncorrect
from pdfplumber.utils.exceptions import PdfminerException

from tools.engines.reading import Table
from tools.parsing.base import ParsedDocument, UnreadableFile
from tools.parsing.text import make_table, pick_title, table_lines

Span = tuple[float, float]

MIN_COLUMNS = 3  # two aligned runs of text are as often a letterhead as a table
SEGMENT_GAP = 0.45  # a gap wider than this share of the font size separates cells
ROW_GAP = 2.5  # a vertical gap larger than this many line heights ends a table
MAX_EDGES = 6000  # past this many drawn lines a page is a drawing; finding cells would crawl


@dataclass
class _Segment:
    x0: float
    x1: float
    text: str


@dataclass
class _Line:
    top: float
    bottom: float
    words: list[dict] = field(default_factory=list)

    @property
    def text(self) -> str:
        return " ".join(w["text"] for w in self.words)

    @cached_property
    def segments(self) -> list[_Segment]:
        height = self.bottom - self.top
        out: list[_Segment] = []
        for w in self.words:
            if out and w["x0"] - out[-1].x1 <= SEGMENT_GAP * height:
                out[-1].x1, out[-1].text = w["x1"], f"{out[-1].text} {w['text']}"
            else:
                out.append(_Segment(w["x0"], w["x1"], w["text"]))
        return out


@dataclass
class _Found:
    top: float
    lines: list[str]
    table: Table | None = None
    spans: list[Span] | None = None


def parse_pdf(path: Path) -> ParsedDocument:
    """A PDF: one page of text per page, with its ruled and unruled tables."""
    try:
        pdf = pdfplumber.open(path)
    except PdfminerException as exc:
        cause = exc.args[0] if exc.args else exc
        if isinstance(cause, (PDFPasswordIncorrect, PDFEncryptionError)):
            raise UnreadableFile("encrypted: the PDF is password-protected") from exc
        raise UnreadableFile(f"not a readable PDF: {cause}") from exc
    pages: list[str] = []
    tables: list[Table] = []
    try:
        carried: list[Span] | None = None
        for number, page in enumerate(pdf.pages, start=1):
            text, found, carried = _read_page(page, number, carried)
            pages.append(text)
            tables.extend(found)
    except UnreadableFile:
        raise
    except Exception as exc:
        raise UnreadableFile(f"not a readable PDF: {str(exc) or type(exc).__name__}") from exc
    finally:
        pdf.stream.close()  # pdf.close() walks the page tree again, which fails on a damaged file
    if not pages:
        raise UnreadableFile("not a readable PDF: it has no pages")
    title = pick_title((line for page in pages for line in page.splitlines()), path.stem)
    return ParsedDocument(title=title, media_type="application/pdf", pages=pages, tables=tables)


def _read_page(
    page: pdfplumber.page.Page, number: int, carried: list[Span] | None
) -> tuple[str, list[Table], list[Span] | None]:
    """The page text, its tables, and the column layout the next page may continue."""
    found: list[_Found] = []
    boxes = []
    for ruled in page.find_tables() if len(page.edges) <= MAX_EDGES else []:
        table = make_table(number, ruled.extract())
        # a box around a paragraph is no table; a lone ruled row is read from its words below
        if table is None or not table.rows or len(table.header) < 2:
            continue
        boxes.append(ruled.bbox)
        spans = [(col.bbox[0], col.bbox[2]) for col in ruled.columns]
        found.append(_Found(ruled.bbox[1], table_lines(table), table, spans))
    lines = _lines(w for w in page.extract_words() if not _inside(w, boxes))
    # a layout carried from the previous page can only continue above this page's first table
    carry_until = min((box[1] for box in boxes), default=math.inf)
    i = 0
    while i < len(lines):
        rows, spans, end = [], None, i
        if carried and lines[i].top < carry_until:
            rows, spans, end = _grow(lines, i, carried, header=False)
        if not rows:
            rows, spans, end = _table_at(lines, i)
        if rows:
            table = make_table(number, rows)
            found.append(_Found(lines[i].top, table_lines(table), table, spans))
            carried = None
            i = end
        else:
            found.append(_Found(lines[i].top, [lines[i].text]))
            i += 1
    found.sort(key=lambda f: f.top)
    tables = [f.table for f in found if f.table is not None]
    last_spans = next((f.spans for f in reversed(found) if f.table is not None), None)
    return "\n".join(line for f in found for line in f.lines), tables, last_spans


def _inside(word: dict, boxes: list) -> bool:
    x, y = (word["x0"] + word["x1"]) / 2, (word["top"] + word["bottom"]) / 2
    return any(x0 <= x <= x1 and top <= y <= bottom for x0, top, x1, bottom in boxes)


def _lines(words) -> list[_Line]:
    """Words grouped into lines: a word whose vertical middle lies within a line joins it."""
    lines: list[_Line] = []
    for w in sorted(words, key=lambda w: (w["top"], w["x0"])):
        middle = (w["top"] + w["bottom"]) / 2
        if lines and lines[-1].top <= middle <= lines[-1].bottom:
            lines[-1].words.append(w)
        else:
            lines.append(_Line(w["top"], w["bottom"], [w]))
    for line in lines:
        line.words.sort(key=lambda w: w["x0"])
    return lines


def _table_at(lines: list[_Line], i: int) -> tuple[list[list[str]], list[Span] | None, int]:
    """The rows of an unruled table whose header is line ``i`` and the line after it."""
    header = lines[i].segments
    if len(header) < MIN_COLUMNS:
        return [], None, i
    rows, spans, end = _grow(lines, i + 1, [(s.x0, s.x1) for s in header], header=True)
    if not rows:
        return [], None, i
    return [[s.text for s in header], *rows], spans, end


def _grow(
    lines: list[_Line], start: int, spans: list[Span], header: bool
) -> tuple[list[list[str]], list[Span], int]:
    """The rows of the lines from ``start`` that fit the columns ``spans``, and the line after.

    Columns widen to the text placed in them, so numbers aligned right under a header aligned
    left still fall in place. A line filling too few columns ends the table, unless a full
    row follows it: then it is a cell wrapped onto a second line. Without a header above (a
    table continued from the previous page) the first row must fill all columns but one.
    """
    spans = list(spans)
    need = max(2, math.ceil(0.6 * len(spans)))
    rows: list[list[str]] = []
    i = start
    while i < len(lines):
        if (header or rows) and _far(lines[i - 1], lines[i]):
            break
        slots = _fit(lines[i], spans)
        if slots is None:
            break
        filled = sum(1 for slot in slots if slot)
        cells = [" ".join(seg.text for seg in slot) for slot in slots]
        if filled >= (need if header or rows else max(need, len(spans) - 1)):
            rows.append(cells)
        elif rows and _is_row(lines, i + 1, spans, need):
            rows[-1] = [f"{old} {new}".strip() for old, new in zip(rows[-1], cells)]
        else:
            break
        for j, slot in enumerate(slots):
            if slot:
                spans[j] = (min(spans[j][0], slot[0].x0), max(spans[j][1], slot[-1].x1))
        i += 1
    return rows, spans, i


def _far(above: _Line, below: _Line) -> bool:
    return below.top - above.bottom > ROW_GAP * (below.bottom - below.top)


def _is_row(lines: list[_Line], i: int, spans: list[Span], need: int) -> bool:
    if i >= len(lines) or _far(lines[i - 1], lines[i]):
        return False
    slots = _fit(lines[i], spans)
    return slots is not None and sum(1 for slot in slots if slot) >= need


def _overlap(seg: _Segment, span: Span) -> float:
    return min(seg.x1, span[1]) - max(seg.x0, span[0])


def _fit(line: _Line, spans: list[Span]) -> list[list[_Segment]] | None:
    """The line's segments placed in columns, or None when a segment straddles two columns.

    A segment under one column goes there. One in the gap between two columns may go to
    either neighbour: headers aligned left over numbers aligned right leave numbers in the
    gaps. Of the placements that keep left-to-right order, the one putting the fewest
    segments together in a column wins, then the one nearest to the headers.
    """
    # best[column of the last segment] = ((shared columns, distance), columns so far)
    best: dict[int, tuple[tuple[int, float], list[int]]] = {-1: ((0, 0.0), [])}
    segments = line.segments
    for seg in segments:
        hits = [j for j, span in enumerate(spans) if _overlap(seg, span) > 0.5]
        if len(hits) > 1:
            return None
        if hits:
            options = [(hits[0], 0.0)]
        else:
            left = [j for j, span in enumerate(spans) if span[1] <= seg.x0 + 0.5][-1:]
            right = [j for j, span in enumerate(spans) if span[0] >= seg.x1 - 0.5][:1]
            options = [(j, -_overlap(seg, spans[j])) for j in left + right]
        step: dict[int, tuple[tuple[int, float], list[int]]] = {}
        for column, distance in options:
            for last, ((shared, total), path) in best.items():
                if column < last:
                    continue
                cost = (shared + (column == last), total + distance)
                if column not in step or cost < step[column][0]:
                    step[column] = (cost, [*path, column])
        if not step:
            return None
        best = step
    slots: list[list[_Segment]] = [[] for _ in spans]
    for seg, column in zip(segments, min(best.values())[1]):
        slots[column].append(seg)
    return slots
