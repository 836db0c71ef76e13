"""PDF: the text of each page and its tables, ruled (drawn with lines) or unruled (aligned text).

Ruled tables come from pdfplumber's line-based finder. Unruled tables are rebuilt from word
positions:

* words become lines, and a line's words become segments where the gap between them is wider
  than a space of the line's font (measured on the space glyphs it draws, or on its glyphs
  when they are all equally wide), so one space between two words of a name does not split it;
* a line of three or more segments is a header; a line right under it with words beside its
  cells (a header set on two lines) names columns of its own; up to four lines of words
  under it, each with fewer cells, continue its names, and a line whose words split one of
  its cells ("START  END" under "DATES") makes a column of each;
* a line right above a header whose labels each stand centred over a few of its columns
  names groups of them: "Pre-Pawn" over "Handgun  Long Gun  *Other";
* a row is a record: a line filling enough columns, with the lines right under it that fill
  only columns it left empty (a time set on a second line, right-aligned under its header);
* a text cell may run on under the columns right of it while they are empty on its line;
* lines under the header filling three columns or more but fewer than the rows after them
  are rows too;
* between two rows, a line filling a few columns is a cell wrapped onto a line of its own
  (several such lines, one cell each, between rows as full), and a line that fits no column
  (a remark under a row) stays in the page text but out of the table; after a gap, rows
  filling all columns but one go on; any other line ends the table;
* a row's details, set indented under it on up to a dozen lines before the next row as full
  (an invoice position's article codes, its gross price, a remark): the lines right under it
  that fit its columns, too few for a row, run on in its cells ("Zitronensäure" over "100ml"),
  the rest stay in the page text as notes;
* a header printed two or three times side by side, each block of the table under its own
  copy ("Prior Scale  New Scale  % Rank" left and right), makes one table: the blocks are read
  one after the other and their rows joined;
* words set across the lines (a page number printed sideways in the margin) stand apart;
* labelled values printed side by side on one line of text ("Rechnungsnummer: 2014-03" beside
  "Liefer- und Rechnungsdatum: 11. Juli 2014") are a line each in the page text, so each is
  read as its own ``Key: value`` pair (``tools.parsing.fields``), as a Word letterhead's are.
"""

from __future__ import annotations

import math
import re
import statistics
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path

import pdfplumber
from pdfminer.pdfdocument import PDFEncryptionError, PDFPasswordIncorrect
from pdfplumber.utils.exceptions import PdfminerException

from core.reading import Table
from tools.parsing.base import MAX_PAGES, ParsedDocument, UnreadableFile, within_page_bound
from tools.parsing.coverage import coverage_note, unread_words
from tools.parsing.fields import MAX_KEY_WORDS
from tools.parsing.text import make_table, pick_title, table_lines

MIN_COLUMNS = 3  # two aligned runs of text are as often a letterhead as a table
SEGMENT_GAP = 0.45  # a gap wider than this share of the font size separates cells ...
SPACE_GAP = 1.5  # ... when it is also wider than this many spaces of the line's font
MAX_SPACE = 0.6  # a space glyph wider than this share of the line height is no plain space
MONOSPACED = 5  # a line drawing this many different glyphs, all equally wide, is monospaced
ROW_GAP = 2.5  # a vertical gap larger than this many line heights ends a table
MARGINAL = 0.25  # overlapping a column by less than this share of the narrower one only brushes it
ALIGN = 0.5  # a cell starts at its column's left edge when within this share of the line height
HEADER_LINES = 3  # a header is set on at most this many lines ...
HEADER_TIGHT = 0.75  # ... closer together than this share of the space between the rows under it
WORD_HEADER_LINES = 4  # a header of words alone, each line with fewer cells than its first, on at most this many
GROUP_REACH = 1.5  # a group label reaches past its outer columns by at most half as far again
GROUP_CENTRED = 0.25  # a group label's centre lies within this share of its columns' width of theirs
PDF_TITLE_LINES = 3  # lines of text right above a table read as its title
WORD_GAP = 0.2  # glyphs closer than this share of their size are one word (2.4 pt at 12 pt; pdfplumber fixes 3 pt)
DETAIL_LINES = 12  # a row's details run on over at most this many lines before the next row
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
    space: float = 0.0  # the width of a space glyph on this line; 0 when it draws none

    @property
    def text(self) -> str:
        return " ".join(w["text"] for w in self.words)

    @cached_property
    def segments(self) -> list[_Segment]:
        height = self.bottom - self.top
        gap = max(SEGMENT_GAP * height, SPACE_GAP * min(self.space, MAX_SPACE * height))
        out: list[_Segment] = []
        for w in self.words:
            if out and w["x0"] - out[-1].x1 <= gap:
                out[-1].x1, out[-1].text = w["x1"], f"{out[-1].text} {w['text']}"
            else:
                out.append(_Segment(w["x0"], w["x1"], w["text"]))
        return out


@dataclass(frozen=True)
class _Column:
    key: int  # stays while the column widens and others are added beside it
    x0: float
    x1: float
    named: bool = True  # False for a column only the data has (no header cell above it)


@dataclass
class _Placed:
    """A line's segments placed in columns: the columns after it, and its cells by column key."""

    columns: list[_Column]
    cells: dict[int, str]
    overflow: bool  # a cell runs on under the columns right of it


@dataclass
class _Grown:
    """An unruled table: its rows (header first), the notes between them, its columns, its end."""

    rows: list[list[str]]
    notes: list[tuple[int, str]]  # (rows above it, text)
    columns: list[_Column]
    end: int


@dataclass
class _Found:
    top: float
    lines: list[str]
    table: Table | None = None
    columns: list[_Column] | None = None


NO_TEXT_LAYER = "no text layer on any page (a scanned document?): it needs OCR before its contents can be read"


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
    layer_words, unread = 0, []
    try:
        carried: list[_Column] | None = None
        total = len(pdf.pages)
        for number, page in enumerate(pdf.pages[:MAX_PAGES], start=1):  # the rest is not even laid out
            reads = sideways(page)
            words, chars = _upright(page, reads) if reads else (text_layer(page), page.chars)
            text, found, carried = _read_page(page, number, carried, words, chars, rules=reads is None)
            pages.append(text)
            tables.extend(found)
            layer_words += len(words)
            unread += unread_words((w["text"] for w in words), text)
    except UnreadableFile:
        raise
    except Exception as exc:
        raise UnreadableFile(f"not a readable PDF: {str(exc) or type(exc).__name__}") from exc
    finally:
        pdf.stream.close()  # pdf.close() walks the page tree again, which fails on a damaged file
    if not pages:
        raise UnreadableFile("not a readable PDF: it has no pages")
    title = pick_title((line for page in pages for line in page.splitlines()), path.stem)
    notes = [] if any(p.strip() for p in pages) else [NO_TEXT_LAYER]
    notes += [note] if (note := coverage_note(layer_words, unread)) else []
    parsed = ParsedDocument(title=title, media_type="application/pdf", pages=pages, tables=tables, notes=notes)
    return within_page_bound(parsed, total)


def sideways(page: pdfplumber.page.Page) -> str | None:
    """How a page printed sideways reads: "down" (turned clockwise) or "up"; None for a page
    whose text mostly stands upright."""
    turned = [c for c in page.chars if not c.get("upright", True) and c["text"].strip()]
    if 2 * len(turned) <= len([c for c in page.chars if c["text"].strip()]):
        return None
    down = sum(1 for c in turned if c["matrix"][1] < 0)
    return "down" if 2 * down >= len(turned) else "up"


def _upright(page: pdfplumber.page.Page, reads: str) -> tuple[list[dict], list[dict]]:
    """The words and glyphs of a sideways page in the positions they take once it is turned to
    be read: its reading direction runs left to right, its first line at the top."""
    width, height = page.width, page.height

    def turn(item: dict) -> dict:
        if reads == "down":  # turned back anticlockwise
            box = {"x0": item["top"], "x1": item["bottom"], "top": width - item["x1"], "bottom": width - item["x0"]}
        else:  # turned back clockwise
            box = {"x0": height - item["bottom"], "x1": height - item["top"], "top": item["x0"], "bottom": item["x1"]}
        return {**item, **box}

    words = text_layer(page, reads)
    return [turn(w) for w in words], [turn(c) for c in page.chars]


def text_layer(page: pdfplumber.page.Page, reads: str | None = None) -> list[dict]:
    """The page's words in its reading direction: a sideways page's glyphs read down or up."""
    if reads is None:
        return page.extract_words(x_tolerance_ratio=WORD_GAP)
    if reads == "down":
        return page.extract_words(x_tolerance_ratio=WORD_GAP, char_dir_rotated="ttb", line_dir_rotated="rtl")
    return page.extract_words(x_tolerance_ratio=WORD_GAP, char_dir_rotated="btt", line_dir_rotated="ltr")


def _read_page(
    page: pdfplumber.page.Page, number: int, carried: list[_Column] | None, words: list[dict], chars: list[dict],
    *, rules: bool = True,
) -> tuple[str, list[Table], list[_Column] | None]:
    """The page text, its tables, and the column layout the next page may continue; ``words``
    and ``chars`` are the page's words (its text layer) and glyphs, as it is read. A page
    printed sideways (``rules`` False) is read from its words alone: its rules run the other way."""
    found: list[_Found] = []
    boxes = []
    for ruled in page.find_tables() if rules and len(page.edges) <= MAX_EDGES else []:
        extracted = ruled.extract()
        table = make_table(number, extracted)
        # a box around a paragraph is no table; a lone ruled row is read from its words below
        if table is None or not table.rows or len(table.header) < 2:
            continue
        if _rules_merge_rows(extracted) or _rules_merge_columns(ruled, [w for w in words if _inside(w, [ruled.bbox])], chars):
            continue  # its rows are read from the words' alignment below, like an unruled table
        boxes.append(ruled.bbox)
        columns = [_Column(k, col.bbox[0], col.bbox[2]) for k, col in enumerate(ruled.columns)]
        found.append(_Found(ruled.bbox[1], table_lines(table), table, columns))
    # words printed across the lines (a page number set sideways in the margin) stand apart
    upright = sum(1 for w in words if w.get("upright", True)) * 2 >= len(words)
    across = [w for w in words if w.get("upright", True) != upright and not _inside(w, boxes)]
    found.extend(_Found(w["top"], [w["text"]]) for w in across)
    lines = _lines((w for w in words if not _inside(w, boxes) and w.get("upright", True) == upright), chars)
    # a layout carried from the previous page can only continue above this page's first table
    carry_until = min((box[1] for box in boxes), default=math.inf)
    read, _ = _read_lines(lines, number, carried, carry_until)
    blocks = _side_by_side(lines)
    if blocks is not None:
        # a table printed in blocks side by side, each under the same header: the blocks are
        # read one after the other, their rows one table
        above, parts, below = blocks
        bands = [
            _read_lines(part, number, carried if k == 0 else None, carry_until)[0]
            for k, part in enumerate([above, *parts, below])
        ]
        if _join_blocks(bands[1:-1]):
            read = [f for band in bands for f in band]
    found.sort(key=lambda f: f.top)
    found = _in_reading_order(found, read)
    _title_tables(found)
    tables = [f.table for f in found if f.table is not None]
    last = next((f.columns for f in reversed(found) if f.table is not None), None)
    return "\n".join(line for f in found for line in f.lines), tables, last


def _read_lines(
    lines: list[_Line], number: int, carried: list[_Column] | None, carry_until: float
) -> tuple[list[_Found], list[_Column] | None]:
    """The text lines and unruled tables of ``lines`` (top to bottom), and the column layout the
    next page may continue (``carried`` while no table is found)."""
    found: list[_Found] = []
    i = 0
    while i < len(lines):
        grown = None
        if carried and lines[i].top < carry_until:
            grown = _grow(lines, i, carried, None)
        if grown is None:
            grown = _table_at(lines, i)
        if grown is None:
            grown = _grouped(lines, i)
        if grown is not None:
            table = make_table(number, grown.rows)
            text = table_lines(table)
            for position, note in reversed(grown.notes):
                text.insert(position, note)
            found.append(_Found(lines[i].top, text, table, grown.columns))
            carried = None
            i = grown.end
        else:
            found.append(_Found(lines[i].top, _fields(lines[i])))
            i += 1
    last = next((f.columns for f in reversed(found) if f.table is not None), None)
    return found, last


def _in_reading_order(placed: list[_Found], read: list[_Found]) -> list[_Found]:
    """The ruled tables and sideways words (``placed``, top to bottom) among the lines read in
    their order (``read``): each goes before the first read line standing below it."""
    out: list[_Found] = []
    k = 0
    for f in read:
        while k < len(placed) and placed[k].top <= f.top:
            out.append(placed[k])
            k += 1
        out.append(f)
    return out + placed[k:]


def _key(text: str) -> str:
    """A header cell as compared with its repeat: letters and digits, without case or marks
    ("% Rank*" repeats "% Rank")."""
    return "".join(ch for ch in text.casefold() if ch.isalnum())


def _side_by_side(lines: list[_Line]) -> tuple[list[_Line], list[list[_Line]], list[_Line]] | None:
    """The lines above, the blocks and the lines below when a header's names are printed two or
    more times side by side (on one line, or on lines closer than a line's height: each block
    may be set a little higher or lower): the page holds its table in blocks, one beside the
    other ("Prior Scale  New Scale  % Rank" left and again right). The blocks run down from the
    header to the first line whose text runs across the gap between them."""
    for i, line in enumerate(lines):
        if len(line.segments) < 2:
            continue
        group = [line]
        while i + len(group) < len(lines) and lines[i + len(group)].top - line.top < line.bottom - line.top:
            group.append(lines[i + len(group)])
        segments = sorted((s for g in group for s in g.segments), key=lambda s: s.x0)
        keys = [_key(s.text) for s in segments]
        # the most copies the names split into, each the same names in the same order
        copies = next(
            (k for k in range(len(keys) // 2, 1, -1) if not len(keys) % k and keys == keys[: len(keys) // k] * k),
            None,
        )
        width = len(keys) // copies if copies else 0
        if copies is None or width < 2 or not all(any(ch.isalpha() for ch in key) for key in keys[:width]):
            continue
        starts = [segments[c * width] for c in range(1, copies)]
        ends = [segments[c * width - 1] for c in range(1, copies)]
        if any(end.x1 >= start.x0 for end, start in zip(ends, starts)):
            continue
        cuts = [(end.x1 + start.x0) / 2 for end, start in zip(ends, starts)]
        first = i
        last = first + len(group)
        while last < len(lines) and not any(s.x0 < cut < s.x1 for s in lines[last].segments for cut in cuts):
            last += 1
        parts: list[list[_Line]] = [[] for _ in range(copies)]
        for region_line in lines[first:last]:
            for c in range(copies):
                lo = cuts[c - 1] if c else -math.inf
                hi = cuts[c] if c < len(cuts) else math.inf
                words = [w for w in region_line.words if lo <= (w["x0"] + w["x1"]) / 2 < hi]
                if words:
                    top, bottom = min(w["top"] for w in words), max(w["bottom"] for w in words)
                    parts[c].append(_Line(top, bottom, words, region_line.space))
        return lines[:first], parts, lines[last:]
    return None


def _join_blocks(bands: list[list[_Found]]) -> bool:
    """Joins the rows of the first table of each block after the first to the last table of the
    block before it when their headers name the same columns; whether every block was joined."""
    tables = [[f for f in band if f.table is not None] for band in bands]
    if any(not t for t in tables):
        return False
    into = tables[0][-1].table
    assert into is not None
    keys = [_key(h) for h in into.header]
    for band in tables[1:]:
        head = band[0]
        table = head.table
        assert table is not None
        if [_key(h) for h in table.header] != keys:
            return False
    for band in tables[1:]:
        head = band[0]
        table = head.table
        assert table is not None
        into.rows.extend(table.rows)
        head.table = None
    return True


_LABEL = re.compile(r"(?P<key>[^\W\d_][^:]{0,59}?)\s*:(?:\s|$)")


def _label(text: str) -> bool:
    """Whether a segment starts with a label: a key of a few words, beginning with a letter,
    then a colon standing before a space or at the end ("Belegdatum:", "Rechnungsnummer: 2014-03")."""
    match = _LABEL.match(text)
    return match is not None and len(match.group("key").split()) <= MAX_KEY_WORDS


def _fields(line: _Line) -> list[str]:
    """A line of text as the page gives it: labelled values printed side by side across a
    letterhead ("Rechnungsnummer: 2014-03      Liefer- und Rechnungsdatum: 11. Juli 2014",
    "Kunden-Nr.:  10000      Belegdatum:  26.10.22") are a line each, a label with its value
    (the segment after a label standing alone), so each value stays under its own label; any
    other segment of such a line is a line of its own. A line with one label ("•  Education: …")
    stays whole."""
    segments = line.segments
    if sum(_label(s.text) for s in segments) < 2:  # a list item's mark beside its term is one line
        return [line.text]
    out: list[str] = []
    open_label = False  # the last line is a label still waiting for its value
    for s in segments:
        if open_label and not _label(s.text):
            out[-1] = f"{out[-1]} {s.text}"
            open_label = False
        else:
            out.append(s.text)
            open_label = _LABEL.fullmatch(s.text.rstrip() + " ") is not None
    return out


def _title_tables(found: list[_Found]) -> None:
    """A table without title rows of its own takes the lines of text printed right above it
    ("TABLE 4: STATE-WISE DECADAL GROWTH RATE OF POPULATION", "(Per cent)") as its title: the
    context its columns are named in. The lines stay in the page's text where they stand."""
    for k, f in enumerate(found):
        if f.table is None or f.table.title:
            continue
        above: list[str] = []
        j = k - 1
        while j >= 0 and found[j].table is None and len(above) < PDF_TITLE_LINES:
            above[:0] = [line for line in found[j].lines if line.strip()]
            j -= 1
        f.table.title = above[-PDF_TITLE_LINES:]


def _rules_merge_rows(rows: list[list[str | None]]) -> bool:
    """Whether a ruled table's rules enclose several rows in one cell: bands of five states shaded
    alike, each cell of a band holding a line per state, one under the other. Seen on two ruled
    rows whose every filled cell holds the same number of lines, two or more, and two cells or
    more hold a figure on every line; or on one such row of three lines or more (a band of five
    scores in a block of a concordance table). (A label spanning two rows, "6" beside "OTSL"
    over "HTML", is one line: those rows stay ruled.)"""
    banded = 0
    for row in rows:
        filled = [cell for cell in row if cell and cell.strip()]
        counts = {cell.strip().count("\n") for cell in filled}
        if len(counts) != 1 or counts == {0}:
            continue
        if sum(all(_figure(line) for line in cell.strip().split("\n")) for cell in filled) >= 2:
            # a band of three lines or more is one on its own
            banded += 1 if counts == {1} else 2
            if banded >= 2:
                return True
    return False


def _figure(text: str) -> bool:
    return bool(re.fullmatch(r"[-+(]?[$€£]?\s*[\d][\d,.\s]*%?\)?", text.strip()))


def _rules_merge_columns(ruled, words: list[dict], chars: list[dict]) -> bool:  # type: ignore[no-untyped-def]
    """Whether a ruled table's lines put whole rows into one cell: shaded bands or rules that
    do not separate its columns, so a row would come as "Assam 14,874,821 2,554,197 …". Seen
    on two lines or more whose words stand apart in three runs or more, two of them with
    figures, all inside one cell."""
    cells = [cell for row in ruled.rows for cell in row.cells if cell is not None]

    def cell_of(word: dict) -> int | None:
        x, y = (word["x0"] + word["x1"]) / 2, (word["top"] + word["bottom"]) / 2
        return next((k for k, (x0, top, x1, bottom) in enumerate(cells) if x0 <= x <= x1 and top <= y <= bottom), None)

    merged = 0
    for line in _lines(words, chars):
        # a row's figures, not a title set with wide spaces
        if len(line.segments) < 3 or sum(any(ch.isdigit() for ch in seg.text) for seg in line.segments) < 2:
            continue
        first = cell_of(line.words[0])
        if first is not None and all(cell_of(w) == first for w in line.words[1:]):  # stops at the first other cell
            merged += 1
            if merged == 2:
                return True
    return False


def _inside(word: dict, boxes: list) -> bool:
    x, y = (word["x0"] + word["x1"]) / 2, (word["top"] + word["bottom"]) / 2
    return any(x0 <= x <= x1 and top <= y <= bottom for x0, top, x1, bottom in boxes)


def _lines(words, chars: list[dict]) -> list[_Line]:
    """Words grouped into lines: a word whose vertical middle lies within a line joins it.

    Each line learns how wide a space is: the width of the space glyphs drawn on it, else,
    when all its glyphs are equally wide (a monospaced font), the width of one glyph.
    """
    lines: list[_Line] = []
    for w in sorted(words, key=lambda w: (w["top"], w["x0"])):
        middle = (w["top"] + w["bottom"]) / 2
        if lines and lines[-1].top <= middle <= lines[-1].bottom:
            lines[-1].words.append(w)
        else:
            lines.append(_Line(w["top"], w["bottom"], [w]))
    for line in lines:
        line.words.sort(key=lambda w: w["x0"])
    glyphs = sorted(((c["top"] + c["bottom"]) / 2, c["x1"] - c["x0"], c["text"]) for c in chars)
    middles = [middle for middle, *_ in glyphs]
    for line in lines:
        line.space = _space(glyphs[bisect_left(middles, line.top) : bisect_right(middles, line.bottom)])
    return lines


def _space(glyphs: list[tuple[float, float, str]]) -> float:
    """How wide a space is among a line's glyphs (middle, width, text); 0 when unknown."""
    spaces = [width for _, width, text in glyphs if text == " "]
    if spaces:
        return statistics.median(spaces)
    widths = [width for _, width, _ in glyphs]
    texts = {text for *_, text in glyphs}
    # digits are equally wide in most fonts, letters of several kinds only in a monospaced one
    monospaced = max(widths) - min(widths) <= 0.02 * max(widths) if widths else False
    if monospaced and len(texts) >= MONOSPACED and any(text.isalpha() for text in texts):
        return widths[0]
    return 0.0


def _table_at(lines: list[_Line], i: int) -> _Grown | None:
    """The unruled table whose header is line ``i``, if the lines after it are its rows."""
    header = lines[i].segments
    if len(header) < MIN_COLUMNS:
        return None
    columns = [_Column(k, s.x0, s.x1) for k, s in enumerate(header)]
    return _grow(lines, i + 1, columns, {k: s.text for k, s in enumerate(header)})


def _grouped(lines: list[_Line], i: int) -> _Grown | None:
    """The table whose header is line ``i + 1`` when line ``i`` labels groups of its columns:
    "Pre-Pawn" and "Redemption" each centred over their own "Handgun  Long Gun  *Other". Each
    column under a group is named "<group> <column>"."""
    if i + 1 >= len(lines) or _far(lines[i], lines[i + 1]) or len(lines[i].segments) < 2:
        return None
    grown = _table_at(lines, i + 1)
    if grown is None:
        return None
    groups = _groups(lines[i].segments, grown.columns)
    names = dict(zip((c.key for c in grown.columns), grown.rows[0]))
    # groups of columns that have names, not a row of figures taken for a header
    if groups is None or any(not names[key] or _figure(names[key]) for key in groups):
        return None
    grown.rows[0] = [
        f"{groups[c.key]} {name}".strip() if c.key in groups else name for c, name in zip(grown.columns, grown.rows[0])
    ]
    return grown


def _groups(labels: list[_Segment], columns: list[_Column]) -> dict[int, str] | None:
    """The group label of each column under one (by column key), or None when the labels do
    not each stand centred over columns of their own.

    A column between two labels belongs to the nearer one. Beyond the first and the last
    label, a label reaches as far as it does on the side of its neighbour: it is centred over
    its columns, so the columns beside the groups ("Permit", "Totals") stay out of them.
    """
    centre = [(s.x0 + s.x1) / 2 for s in labels]
    owned: dict[int, list[_Column]] = {}
    for column in columns:
        mid = (column.x0 + column.x1) / 2
        owned.setdefault(min(range(len(labels)), key=lambda k: abs(centre[k] - mid)), []).append(column)
    groups: dict[int, str] = {}
    last = len(labels) - 1
    for k, label in enumerate(labels):
        mids = [(c.x0 + c.x1) / 2 for c in owned.get(k, [])]
        left = [centre[k] - m for m in mids if m < centre[k]]
        right = [m - centre[k] for m in mids if m >= centre[k]]
        reach_left = max(right, default=0.0) * GROUP_REACH if k == 0 else math.inf
        reach_right = max(left, default=0.0) * GROUP_REACH if k == last else math.inf
        kept = [c for c, m in zip(owned.get(k, []), mids) if -reach_left <= m - centre[k] <= reach_right]
        if not kept:
            return None
        span = (kept[0].x0 + kept[-1].x1) / 2, kept[-1].x1 - kept[0].x0
        # the label stands over its columns, centred
        if abs(span[0] - centre[k]) > GROUP_CENTRED * max(span[1], label.x1 - label.x0):
            return None
        if max(label.x0, kept[0].x0) >= min(label.x1, kept[-1].x1):
            return None
        groups.update((c.key, label.text) for c in kept)
    if len(groups) <= len(labels):
        return None  # no label over more than one column: no groups
    return groups


def _grow(
    lines: list[_Line], start: int, columns: list[_Column], head: dict[int, str] | None
) -> _Grown | None:
    """The table of the lines from ``start`` that fit ``columns`` under the header ``head``.

    Columns widen to the text placed in them, so numbers aligned right under a header aligned
    left still fall in place. Rows are records (see ``_record``). A line that is no record
    is a second header line right under the header, a cell wrapped onto a line of its own, or
    a note between two rows; anything else ends the table. Without a header above (a table
    continued from the previous page) the first row must fill all columns but one.
    """
    rows: list[dict[int, str]] = []
    notes: list[tuple[int, str]] = []
    pending: list[int] = []  # lines under the header placed once the rows are in
    header_lines = 1
    i = start
    while i < len(lines):
        if (head is not None or rows) and _far(lines[i - 1], lines[i]):
            # after a gap, rows filling the columns as a continued table's first row must
            # (all but one) go on: blocks of rows set apart on the page
            if not rows or _record(lines, i, columns, strict=True) is None:
                break
        record = _record(lines, i, columns, strict=head is None and not rows)
        if record is not None and head is not None and not rows and header_lines < HEADER_LINES:
            cells, placed_columns, after = record
            if _names_over_numbers(lines, i, after, placed_columns, cells):
                # a header printed over two or three lines: "Total Costs" over "All Funds"
                for key, text in cells.items():
                    head[key] = f"{head.get(key, '')} {text}".strip()
                columns, header_lines, i = placed_columns, header_lines + 1, after
                continue
        if record is not None:
            cells, columns, i = record
            rows.append(cells)
            continue
        follows = i + 1 < len(lines) and not _far(lines[i], lines[i + 1])
        if head is not None and not rows:
            step = None if pending else _header_line(lines, i, start, columns, head, header_lines, follows)
            if step is not None:
                columns, header_lines, i = step, header_lines + 1, i + 1
                continue
            more = None if pending else _header_lines(lines, i, columns, head, header_lines, len(lines[start - 1].segments))
            if more is not None:
                columns, head, header_lines, i = more
                continue
            # lines under the header filling fewer of its columns than a row does (three or
            # more each), right before rows filling all but one (staff paid a salary above the
            # expenses of the office): rows of the table, placed once the rows have set where
            # its columns run
            first = _rows_from(lines, i, columns)
            record = _record(lines, first, columns, strict=True) if first is not None and first > i else None
            if record is None or not _fewer(lines[i:first], columns, _filled(record[1], record[0])):
                break
            pending, i = list(range(i, first)), first
            continue
        # a cell may wrap onto several lines between two rows filling as many columns
        nxt = _rows_from(lines, i + 1, columns, wraps=True) if rows else None
        if nxt is not None and nxt > i + 1:
            record = _record(lines, nxt, columns, strict=_far(lines[nxt - 1], lines[nxt]))
            if record is None or _filled(record[1], record[0]) < _filled(columns, rows[-1]):
                nxt = None
        if nxt is None and rows:
            # a row's details on lines of their own (codes, a gross price, a remark) before the
            # next row, filling as many columns: the lines right under the row that run on in its
            # cells (see ``_run_on``), and the rest, notes
            end = _details(lines, i, columns, rows[-1])
            if end is None:
                break
            run_on, columns = _run_on(lines[:end], i, columns, rows[-1], tight=False)
            notes.extend((len(rows) + (head is not None), line.text) for line in lines[run_on:end])
            i = end
            continue
        if nxt is None:
            break
        placed = _wrapped(lines[i], columns)
        if placed is not None and not placed.overflow:
            # a cell wrapped onto a line of its own: it runs on in the row above
            for key, text in placed.cells.items():
                rows[-1][key] = f"{rows[-1].get(key, '')} {text}".strip()
            columns = placed.columns
        else:
            # a line between two rows that fits no column: a note, not a row
            notes.append((len(rows) + (head is not None), lines[i].text))
        i += 1
    if not rows:
        return None
    if i < len(lines):
        # the last row's details set tight under it run on in its cells as between two rows
        i, columns = _run_on(lines, i, columns, rows[-1])
    if pending:
        early: list[dict[int, str]] = []
        early_notes: list[tuple[int, str]] = []
        for j in pending:
            placed = _place(lines[j], columns)
            if placed is None or placed.overflow:
                early_notes.append((len(early) + 1, lines[j].text))
            else:
                early.append(placed.cells)
                columns = placed.columns
        notes = early_notes + [(at + len(early), text) for at, text in notes]
        rows = early + rows
    keys = [c.key for c in columns]
    table = [[cells.get(k, "") for k in keys] for cells in ([head] if head is not None else []) + rows]
    return _Grown(table, notes, columns, i)


def _run_on(
    lines: list[_Line], i: int, columns: list[_Column], row: dict[int, str], tight: bool = True
) -> tuple[int, list[_Column]]:
    """The line after the lines from ``i`` that run on in the cells of ``row`` (added to them), and
    the columns after them. Such a line stands right under the row, indented right of where the
    row starts, fits its columns with too few cells for a row of its own, and puts no figure
    under a figure of the row (a total under the last amount is no part of it). When no row
    follows (``tight``), the lines are set closer than half a line's height and the first of
    them fills a cell the row left empty, as a record's second line does: a shorter row of its
    own ("C2  D2  F2" under "A1  B1  C1  D1  E1  F1") stays one."""
    start = min((c.x0 for c in columns if c.key in row), default=-math.inf)
    first = i
    while i < len(lines):
        line = lines[i]
        height = line.bottom - line.top
        if tight and line.top - lines[i - 1].bottom > 0.5 * height:
            break
        if line.segments[0].x0 <= start + ALIGN * height:
            break
        placed = _place(line, columns)
        if (
            placed is None or placed.overflow or len(placed.columns) != len(columns)
            or _filled(columns, placed.cells) >= _need(columns)
            or any(_figure(text) and _figure(row.get(key, "")) for key, text in placed.cells.items())
            or (tight and i == first and placed.cells.keys() <= row.keys())
        ):
            break
        for key, text in placed.cells.items():
            row[key] = f"{row.get(key, '')} {text}".strip()
        columns = placed.columns
        i += 1
    return i, columns


def _details(lines: list[_Line], i: int, columns: list[_Column], last: dict[int, str]) -> int | None:
    """The next row after the lines from ``i`` (at most DETAIL_LINES, each indented right of where
    the row ``last`` above them starts, none filling as many columns as it does) that fills as
    many; None when there is none. Past a gap wider than rows leave (details set in paragraphs)
    only a row filling all columns but one counts."""
    filled = _filled(columns, last)
    start = min((c.x0 for c in columns if c.key in last), default=-math.inf)
    gapped = False
    for j in range(i, min(len(lines), i + DETAIL_LINES + 1)):
        if j > i:
            gapped = gapped or _far(lines[j - 1], lines[j])
            record = _record(lines, j, columns, strict=gapped)
            if record is not None and _filled(record[1], record[0]) >= filled:
                return j
        # details stand indented under their row, right of where it starts
        if lines[j].segments[0].x0 <= start + ALIGN * (lines[j].bottom - lines[j].top):
            return None
    return None


def _fewer(block: list[_Line], columns: list[_Column], filled: int) -> bool:
    """Whether each line of ``block`` fills three columns or more but fewer than ``filled``,
    in the columns there are (it adds none)."""
    for line in block:
        placed = _place(line, columns)
        if placed is None or placed.overflow or len(placed.columns) != len(columns):
            return False
        if not MIN_COLUMNS <= _filled(columns, placed.cells) < filled:
            return False
    return True


def _header_line(
    lines: list[_Line], i: int, start: int, columns: list[_Column], head: dict[int, str], header_lines: int,
    follows: bool,
) -> list[_Column] | None:
    """The columns after line ``i`` joins the header above it, naming columns of its own beside
    the cells above (words under those cells join them), right over a row; None when it does
    not. ``head`` takes its names."""
    # it has fewer cells than the header's first line
    if header_lines == HEADER_LINES or len(lines[i].segments) >= len(lines[start - 1].segments):
        return None
    placed = _place(lines[i], columns, header=True)
    if placed is None or not follows:
        return None
    # without columns of its own it only continues header cells above it ("Less:" over
    # "Exclusions &" over "Unallowables"), in words, never a row's figures
    if len(placed.columns) == len(columns) and any(
        not head.get(key) or any(ch.isdigit() for ch in text) for key, text in placed.cells.items()
    ):
        return None
    if _record(lines, i + 1, placed.columns) is None:
        return None
    for key, text in placed.cells.items():
        head[key] = f"{head.get(key, '')} {text}".strip()
    return placed.columns


def _header_lines(
    lines: list[_Line], i: int, columns: list[_Column], head: dict[int, str], header_lines: int, width: int
) -> tuple[list[_Column], dict[int, str], int, int] | None:
    """A header continued on several lines from line ``i``, each of words only and fewer cells
    than its first line ("DATES" under "OBLIGATION/SERVICE", "POSTED" under "DATE"); a line
    whose words split one header cell ("START  END" under "OBLIGATION/SERVICE DATES") makes
    a column of each, named after the cell above and its own word. Rows must follow (see
    ``_rows_from``). The columns, the names, the header's lines and the line after it; None
    when no line continues the header."""
    head = dict(head)
    n = header_lines
    while i < len(lines) and n < WORD_HEADER_LINES:
        line = lines[i]
        if _far(lines[i - 1], line) or len(line.segments) >= width or any(ch.isdigit() for ch in line.text):
            break
        split, named = _split(line, columns, head)
        placed = _place(line, split, header=True)
        if placed is None:
            break
        head = named
        for key, text in placed.cells.items():
            head[key] = f"{head.get(key, '')} {text}".strip()
        columns, n, i = placed.columns, n + 1, i + 1
    if n == header_lines or _rows_from(lines, i, columns) is None:
        return None
    return columns, head, n, i


def _split(line: _Line, columns: list[_Column], head: dict[int, str]) -> tuple[list[_Column], dict[int, str]]:
    """The columns after the words of ``line`` split those a header cell spans: a column with
    two cells or more of the line standing within it becomes a column for each, named after
    the header cell above them."""
    height = line.bottom - line.top
    key = max((c.key for c in columns), default=-1)
    out: list[_Column] = []
    named = dict(head)
    for column in columns:
        under = [s for s in line.segments if column.x0 - ALIGN * height <= (s.x0 + s.x1) / 2 <= column.x1 + ALIGN * height]
        if len(under) < 2 or not column.named:
            out.append(column)
            continue
        parent = named.pop(column.key, "")
        for s in under:
            key += 1
            out.append(_Column(key, s.x0, s.x1))
            named[key] = parent
    return out, named


def _rows_from(lines: list[_Line], i: int, columns: list[_Column], wraps: bool = False) -> int | None:
    """The first row at or after line ``i`` (see ``_record``), when each line before it, one
    close under the other, fits the columns (in one cell each with ``wraps``: a cell's text
    wrapped onto them); None when there is none. After a gap only a row filling the columns
    as a continued table's first row does (all but one) counts."""
    j = i
    while j < len(lines):
        if j and _far(lines[j - 1], lines[j]):
            return j if _record(lines, j, columns, strict=True) is not None else None
        if _record(lines, j, columns) is not None:
            return j
        placed = _wrapped(lines[j], columns)
        if placed is None or placed.overflow or (wraps and len(placed.cells) > 1):
            return None
        j += 1
    return None


def _names_over_numbers(lines: list[_Line], i: int, after: int, columns: list[_Column], cells: dict[int, str]) -> bool:
    """Whether the cells of line ``i``, right under a header, are more of it: words without a
    digit, set closer to the header than the rows are to each other, over a row that holds
    numbers in at least two of their columns (the body of a statistical table)."""
    if any(any(ch.isdigit() for ch in text) for text in cells.values()):
        return False
    # the first row under it (a third header line may stand between)
    found = next(((j, r) for j in range(after, min(len(lines), after + HEADER_LINES)) if (r := _record(lines, j, columns))), None)
    if found is None:
        return False
    j, below = found
    pitch = lines[below[2]].top - lines[below[2] - 1].bottom if below[2] < len(lines) else lines[j].top - lines[j - 1].bottom
    if lines[i].top - lines[i - 1].bottom >= HEADER_TIGHT * pitch:
        return False
    numbers = [k for k in cells if any(ch.isdigit() for ch in below[0].get(k, ""))]
    return len(numbers) >= 2


def _record(
    lines: list[_Line], i: int, columns: list[_Column], strict: bool = False
) -> tuple[dict[int, str], list[_Column], int] | None:
    """The row that starts at line ``i``: its cells, the columns after it, the line after it.

    A row's first line may leave columns empty that the lines right under it fill: those
    lines belong to it while they fill only columns still empty and none left of the first
    line's first cell, are no row of their own and run no text across columns (that is
    prose under the table). Together they fill enough named columns (all but one when
    ``strict``).
    """
    placed = _place(lines[i], columns)
    if placed is None:
        return None
    cells, columns = dict(placed.cells), placed.columns
    j = i + 1
    while j < len(lines) and not _far(lines[j - 1], lines[j]):
        more = _place(lines[j], columns)
        if more is None or more.overflow or cells.keys() & more.cells.keys():
            break
        if _filled(more.columns, more.cells) >= _need(more.columns):
            break
        order = {c.key: n for n, c in enumerate(more.columns)}
        if min(order[k] for k in more.cells) < min(order[k] for k in placed.cells):
            break  # a row starts with its first cell: this line starts the next row
        cells.update(more.cells)
        columns = more.columns
        j += 1
    if _filled(columns, cells) < _need(columns, strict):
        return None
    return cells, columns, j


def _wrapped(line: _Line, columns: list[_Column]) -> _Placed | None:
    """A line placed in columns (see ``_place``); a line standing wholly within one column is
    that column's text, however wide the spaces of its words (a justified line)."""
    placed = _place(line, columns)
    if placed is not None:
        return placed
    x0, x1 = line.segments[0].x0, line.segments[-1].x1
    slack = ALIGN * (line.bottom - line.top)
    inside = [c for c in columns if c.x0 - slack <= x0 and x1 <= c.x1 + slack]
    return _Placed(columns, {inside[0].key: line.text}, False) if len(inside) == 1 else None


def _need(columns: list[_Column], strict: bool = False) -> int:
    """How many named columns a row fills at least."""
    named = sum(1 for c in columns if c.named)
    need = max(2, math.ceil(0.6 * named))
    return max(need, named - 1) if strict else need


def _filled(columns: list[_Column], cells: dict[int, str]) -> int:
    return sum(1 for c in columns if c.named and c.key in cells)


def _far(above: _Line, below: _Line) -> bool:
    return below.top - above.bottom > ROW_GAP * (below.bottom - below.top)


def _overlap(seg: _Segment, column: _Column) -> float:
    return min(seg.x1, column.x1) - max(seg.x0, column.x0)


# where a segment may go: (column position, last column position it covers, a new column,
# distance from the column); a new column between positions j and j + 1 is at j + 0.5
_Option = tuple[float, float, bool, float]


def _options(
    seg: _Segment, columns: list[_Column], height: float, header: bool, add: bool = True
) -> list[_Option] | None:
    """The places of one segment, or None when it straddles columns it cannot belong to.

    A segment under one column goes there; one that only brushes a neighbour too still goes
    to the column it stands under. One under several columns is a text cell running on under
    its neighbours when it starts at the left edge of the first; else it straddles. One in a
    gap may go to either neighbour (headers aligned left over numbers aligned right leave
    numbers in the gaps) or start a column of its own; in a header line it starts one.
    """
    hits = [(j, ov) for j, c in enumerate(columns) if (ov := _overlap(seg, c)) > 0.5]
    if hits:
        width = seg.x1 - seg.x0
        major = [j for j, ov in hits if ov > MARGINAL * min(width, columns[j].x1 - columns[j].x0)]
        if len(major) <= 1:
            j = major[0] if major else max(hits, key=lambda hit: hit[1])[0]
            return [(j, j, False, 0.0)]
        if abs(seg.x0 - columns[major[0]].x0) <= ALIGN * height:
            return [(major[0], major[-1], False, 0.0)]
        return None
    left = sum(1 for c in columns if c.x1 <= seg.x0 + 0.5) - 1
    options: list[_Option] = [(left + 0.5, left + 0.5, True, 0.0)] if add else []
    if not header:
        if left >= 0:
            options.append((left, left, False, seg.x0 - columns[left].x1))
        if left + 1 < len(columns):
            options.append((left + 1, left + 1, False, columns[left + 1].x0 - seg.x1))
    return options


def _place(line: _Line, columns: list[_Column], header: bool = False, add: bool = True) -> _Placed | None:
    """The line's segments placed in columns, or None when they do not fit.

    Of the placements that keep left-to-right order, the one putting the fewest segments
    together in a column wins, then the one adding the fewest columns, then the one nearest
    to the columns. A data line adds at most one column, for a value in a gap between two
    columns it fills (a mark between a time and its reaction time); a line that has to put
    more than every other segment together is no row.
    """
    height = line.bottom - line.top
    segments = line.segments
    # best[(last position covered, whether the next segment may join it)] = (cost, places)
    best: dict[tuple[float, bool], tuple[tuple[int, int, float], list[_Option]]] = {
        (-1.0, False): ((0, 0, 0.0), [])
    }
    for seg in segments:
        options = _options(seg, columns, height, header, add)
        if options is None:
            return None
        step: dict[tuple[float, bool], tuple[tuple[int, int, float], list[_Option]]] = {}
        for option in options:
            start, end, new, distance = option
            for (last, joinable), ((shared, added, total), places) in best.items():
                if start < last or (start == last and not joinable):
                    continue
                together = start == last
                cost = (shared + together, added + (new and not together), total + distance)
                state = (end, start == end)
                if state not in step or cost < step[state][0]:
                    step[state] = (cost, [*places, option])
        if not step:
            return None
        best = step
    (shared, added, _), places = min(best.values())
    if (not header and added > 1) or 2 * shared > len({start for start, *_ in places}):
        return None
    if not header and added and not _between_taken(places):
        return _place(line, columns, header, add=False)
    return _apply(columns, segments, places, header)


def _between_taken(places: list[_Option]) -> bool:
    """Whether every column a data line adds stands between two columns the line fills, or
    before the first column when the line fills that one: a row's label in a column of labels
    the header does not name (a statistical table's first column)."""
    taken = {start for start, end, new, _ in places if not new and start == end}
    return all(
        (start - 0.5 in taken or start == -0.5) and start + 0.5 in taken for start, _, new, _ in places if new
    )


def _apply(columns: list[_Column], segments: list[_Segment], places: list[_Option], header: bool) -> _Placed:
    """The columns after placing the segments (widened, new ones added) and the cells."""
    key = max((c.key for c in columns), default=-1)
    by_position: dict[float, _Column] = dict(enumerate(columns))
    for start, _, new, _ in places:
        if new and start not in by_position:
            key += 1
            by_position[start] = _Column(key, math.inf, -math.inf, named=header)
    texts: dict[float, list[str]] = {}
    for seg, (start, end, _, _) in zip(segments, places):
        texts.setdefault(start, []).append(seg.text)
        if start == end:  # a cell running on under its neighbours widens nothing
            column = by_position[start]
            by_position[start] = replace(column, x0=min(column.x0, seg.x0), x1=max(column.x1, seg.x1))
    order = sorted(by_position)
    placed = [by_position[position] for position in order]
    # widened columns stop where their neighbours start
    for j, column in enumerate(placed):
        x0 = max(column.x0, placed[j - 1].x1) if j else column.x0
        x1 = min(column.x1, placed[j + 1].x0) if j + 1 < len(placed) else column.x1
        if (x0, x1) != (column.x0, column.x1) and x0 < x1:
            placed[j] = replace(column, x0=x0, x1=x1)
    cells = {by_position[start].key: " ".join(words) for start, words in texts.items()}
    overflow = any(start != end for start, end, _, _ in places)
    return _Placed(placed, cells, overflow)
