"""Plain text, Markdown and CSV, and the text shape every parser gives a table.

Columns aligned with spaces in a text file are tables too (see ``tools.parsing.aligned``).

A table is flattened into its page as one line per row, cells joined by a TAB, so a reader
of the page text finds each row exactly as the table holds it.
"""

from __future__ import annotations

import codecs
import csv
import html
import io
import re
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from core.reading import Table
from tools.parsing.aligned import find_tables
from tools.parsing.base import ParsedDocument, UnreadableFile

# a table's number as its caption gives it and a request names it: "Table 5", "TABLE 4: …",
# "Tabelle 2.1", "Tableau 3 –", "Table A4-12."; the number is the first group
# the words for a table a request names one by: "the Show Details table", "tableau « … »"
TABLE_WORDS = "table tables tabelle tabellen tableau tableaux tabla tablas tabela tabele"
_TABLE_WORD = "(?:" + "|".join(TABLE_WORDS.split()) + ")"
CAPTION = re.compile(rf"\b{_TABLE_WORD}\s+([A-Z]{{0,3}}\d+(?:[.-]\d+)*)\b", re.IGNORECASE)
_QUOTES = "'\"‘’“”«»‹› "


def named_as_table(request: str, name: str) -> bool:
    """Whether a request writes ``name`` as the title of a table: right before or after a word
    for a table, quoted or not ("the Show Details table", "tableau « Extended Inventory Review »")."""
    phrase = r"\s+".join(map(re.escape, name.split()))
    if not phrase:
        return False
    around = rf"{phrase}[{_QUOTES}]*\s*{_TABLE_WORD}\b|\b{_TABLE_WORD}\s*[{_QUOTES}]*{phrase}"
    return re.search(around, request, re.IGNORECASE) is not None

TITLE_LIMIT = 200


def clean(value: object) -> str:
    """Cell text: whitespace runs (newlines, tabs) collapsed to one space, stripped."""
    return " ".join(str(value).split()) if value is not None else ""


# dot leaders: the dots a table of contents or a statistical table sets between a row's label and
# its figures ("Robbery . . . . . ."), typography with no word in it
_LEADER = re.compile(r"\s+\.(?:\s*\.){2,}\s*$")


def without_leader(cell: str) -> str:
    """A cell's text without the dot leader that runs on after its words: "Robbery", not
    "Robbery . . . . . .". A period of the words stays ("etc. . . ." is "etc.")."""
    return _LEADER.sub("", cell) or cell


# hyphens drawn as U+2010 HYPHEN or U+2011 NON-BREAKING HYPHEN read and are typed as "-" ("18‐Jun‐14");
# en and em dashes stay: they stand for minus signs and ranges
HYPHENS = str.maketrans({"\u2010": "-", "\u2011": "-"})
# a figure in brackets printed with its digits set apart from the opening bracket to line
# them up ("( 693,8)", a negative amount) is the one figure "(693,8)"
_BRACKETED_FIGURE = re.compile(r"\( +(?=[-+]?[$€£]?\d[\d.,]*\))")


def normal_text(value: str) -> str:
    """Text as a reader types it: plain hyphens, bracketed figures in one piece."""
    return _BRACKETED_FIGURE.sub("(", value.translate(HYPHENS))


def normalised(document: ParsedDocument) -> ParsedDocument:
    """``document`` with its title, pages and tables' cells in ``normal_text``."""
    document.title = normal_text(document.title)
    document.pages = [normal_text(page) for page in document.pages]
    for table in document.tables:
        table.header = [normal_text(c) for c in table.header]
        table.rows = [[normal_text(c) for c in row] for row in table.rows]
        table.title = [normal_text(t) for t in table.title]
        table.header_lines = [[normal_text(c) for c in line] for line in table.header_lines]
    return document


TITLE_ROWS = 5  # rows of one cell above a header that are read as the table's title


def make_table(
    page: int, rows: Iterable[Iterable[object]], spanned: list[list[int]] | None = None,
    printed: list[list[str]] | None = None, *, header_lines: list[list[str]] | None = None,
) -> Table | None:
    """A Table of cleaned cells (without dot leaders), its header found (``header_at``); None if
    all are empty. ``spanned``, one list per row, names the columns a merged cell spans;
    ``printed``, the lines of a header printed on several lines (kept when the first row is
    the header); ``header_lines``, the rows a sheet's header stands on, its names joined in the
    rows given (``sheets.sheet_table``)."""
    cleaned = [[without_leader(clean(c)) for c in row] for row in rows]
    spans = spanned if spanned is not None else [[] for _ in cleaned]
    kept_spans = [span for cells, span in zip(cleaned, spans) if any(cells)]
    kept = [cells for cells in cleaned if any(cells)]
    if not kept:
        return None
    at = header_at(kept)
    # a title row of labelled values keeps them apart: "Invoice no.: HM-24-0311 · Customer: …"
    title = [_fields_line(row) if _fields_row(row) else " ".join(c for c in row if c) for row in kept[:at]]
    lines_spanned = kept_spans[at:] if any(kept_spans[at:]) else []
    if header_lines is None:
        header_lines = [[without_leader(clean(c)) for c in line] for line in printed or []] if at == 0 and kept[0] == cleaned[0] else []
    return Table(
        page=page, header=kept[at], rows=kept[at + 1 :], title=title, spanned=lines_spanned, header_lines=header_lines
    )


def header_at(rows: list[list[str]]) -> int:
    """Where a table's header is: the first row that names two columns or more, when at most
    TITLE_ROWS rows of one cell each, in the first column (a title, a subtitle, "Prepared by
    …"), and rows of labelled values ("Invoice no.: | HM-24-0311 | | Customer: | …", a sheet's
    letterhead) stand above it; otherwise the first row. Empty rows are gone already."""
    titles = 0
    for i, row in enumerate(rows[: TITLE_ROWS + FIELD_ROWS + 1]):
        if _fields_row(row) and i + 1 < len(rows) and _above_another_table(row, rows[i + 1]):
            continue
        if sum(1 for cell in row if cell) >= 2:
            return i if i + 1 < len(rows) else 0  # a header has rows under it
        if not row[0] and not _opens_below(row, rows[i + 1] if i + 1 < len(rows) else []):
            return i  # one cell over a middle column names a group of columns: it is the header's
        titles += 1  # … one over the first column the rows below fill is a title ("MONTHLY INCOME")
        if titles > TITLE_ROWS:
            break
    return 0


FIELD_ROWS = 6  # rows of labelled values above a header, read as the table's title
def _opens_below(row: list[str], below: list[str]) -> bool:
    """Whether a row's one cell stands in the first column the next row fills, that row filling
    two or more: a section's title over its table, not a label over a group of columns."""
    filled = [j for j, cell in enumerate(below) if cell]
    return len(filled) >= 2 and next((j for j, cell in enumerate(row) if cell), -1) == filled[0]


def _above_another_table(row: list[str], below: list[str]) -> bool:
    """Whether the row under a row of labelled values is no row of values under those labels
    ("Name: | Score" over "Ann | 3" is a header): another row of labelled values, or a row
    filling other columns."""
    filled = {j for j, cell in enumerate(row) if cell}
    return _fields_row(below) or {j for j, cell in enumerate(below) if cell} != filled


def _fields_line(row: list[str]) -> str:
    """A row of labelled values as one line: "Invoice no.: HM-24-0311 · Customer: Corvane …"."""
    parts = [f"{cell} {row[j + 1]}" if cell.endswith(":") and j + 1 < len(row) else cell
             for j, cell in enumerate(row) if cell and not (j and row[j - 1].endswith(":"))]
    return " · ".join(parts)


def _fields_row(row: list[str]) -> bool:
    """Whether a row holds labelled values: each label ending with a colon followed by its value
    in the next cell ("Invoice no.: | HM-24-0311 | | Customer: | …"), beside at most as many
    values of no label as there are labelled ones (a letterhead's address: "Data wystawienia: |
    22.04.2025 | | | ul. Kartuska 214, 80-122 Gdańsk")."""
    filled = [j for j, cell in enumerate(row) if cell]
    if len(filled) < 2:
        return False
    whole = [j for j in filled if _LABELLED_CELL.fullmatch(row[j])]  # "Order: SO-24-118" in one cell
    labels = [j for j in filled if row[j].endswith(":")]
    values = [j for j in filled if not row[j].endswith(":") and j not in whole]
    unlabelled = [j for j in values if j - 1 not in labels]
    return bool(labels or whole) and all(j + 1 in values for j in labels) and len(unlabelled) <= len(labels) + len(whole)


# a cell that is a label and its value: "Order: SO-24-118", "Kostenstelle: 4100 Vertrieb"
_LABELLED_CELL = re.compile(r"[^\W\d][\w .#/-]{0,40}?:\s+\S.*")


def table_lines(table: Table, *, title: bool = True) -> list[str]:
    """The lines a table adds to its page's text: its title, its header, its rows."""
    return [*(table.title if title else []), *("\t".join(row) for row in [table.header, *table.rows])]


_CAPTION_LIMIT = 120  # a line longer than this above a table is a paragraph, not its title
_LABELLED = re.compile(r"^[\W_]*[^\W\d_][^:]{0,40}:\W*\w")  # "**Supplier:** Acme GmbH"


def with_caption(table: Table, line: str) -> Table:
    """The table with the line a document prints right above it as its title ("Show Details",
    "## AI Use Cases in Different Industries"), when the table has none and the line is short."""
    line = clean(line.lstrip("#").strip())
    if table.title or not line or len(line) > _CAPTION_LIMIT or not any(ch.isalnum() for ch in line):
        return table
    if _LABELLED.match(line) and not re.match(rf"\W*{_TABLE_WORD}\b", line, re.IGNORECASE):
        return table  # "Supplier: Acme GmbH" is a field of the document, not the table's title ("Table: …" is)
    return table.model_copy(update={"title": [line]})


def pick_title(lines: Iterable[str], fallback: str) -> str:
    """The first line with a letter or digit, trimmed to 200 characters, else ``fallback``."""
    for line in lines:
        line = clean("".join(ch if ch.isprintable() else " " for ch in line))
        if any(ch.isalnum() for ch in line):
            return line[:TITLE_LIMIT]
    return fallback


def decode(data: bytes, kind: str) -> str:
    """UTF-8 (a BOM is dropped), else Windows-1252, the usual encoding of older office exports.

    UTF-16 is read when it starts with its BOM; other text with NUL bytes is a binary file.
    Line ends become LF.
    """
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        text = data.decode("utf-16", errors="replace")
    elif b"\0" in data[:8192]:
        raise UnreadableFile(f"not a readable {kind}: it holds binary data, not text")
    else:
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = data.decode("cp1252", errors="replace")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _aligned_page(text: str, page: int) -> tuple[str, list[Table]]:
    """The page text with its space-aligned tables as TAB-joined rows, and those tables."""
    lines = text.split("\n")
    out: list[str] = []
    tables: list[Table] = []
    done = 0
    for found in find_tables(lines):
        table = make_table(page, found.rows)
        if table is None:
            continue
        out += lines[done : found.start] + table_lines(table)
        tables.append(table)
        done = found.end
    return "\n".join(out + lines[done:]), tables


def parse_txt(path: Path) -> ParsedDocument:
    """A text file: one page per form feed; columns aligned with spaces are tables."""
    pages: list[str] = []
    tables: list[Table] = []
    for number, raw in enumerate(decode(path.read_bytes(), "text file").split("\f"), start=1):
        text, found = _aligned_page(raw, number)
        pages.append(text)
        tables.extend(found)
    title = pick_title((line for page in pages for line in page.splitlines()), path.stem)
    return ParsedDocument(title=title, media_type="text/plain", pages=pages, tables=tables)


_HEADING = re.compile(r"\s{0,3}#{1,6}\s+(.*)")
_ALIGNMENT = re.compile(r":?-+:?")
_FENCE = re.compile(r"^\s{0,3}(```|~~~)")


def _is_separator(line: str) -> bool:
    """A pipe table's second line: ``|---|:--:|`` (checked without a regex that could backtrack)."""
    line = line.strip()
    if "|" not in line:
        return False
    cells = line.removeprefix("|").removesuffix("|").split("|")
    return all(_ALIGNMENT.fullmatch(cell.strip()) for cell in cells)


_ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")  # a backslash before ASCII punctuation


# emphasis around a cell's whole text: "**Total**", "_n/a_", typography with no word in it
_EMPHASIS = re.compile(r"(\*\*|__|\*|_)(?=\S)(.+?)(?<=\S)\1")


def _pipe_cells(line: str) -> list[str]:
    """A pipe table row's cells as Markdown shows them: split at the pipes not escaped, their
    backslash escapes and character references ("&amp;", "&#124;") read as the characters, the
    emphasis around a cell's whole text dropped ("**Total**" is the total line's "Total")."""
    line = line.strip().removeprefix("|")
    if line.endswith("|") and not line.endswith("\\|"):
        line = line[:-1]
    return [_unemphasised(clean(html.unescape(_ESCAPED.sub(r"\1", cell)))) for cell in re.split(r"(?<!\\)\|", line)]


def _unemphasised(cell: str) -> str:
    whole = _EMPHASIS.fullmatch(cell)
    return whole.group(2) if whole is not None else cell


def _markdown_page(text: str, page: int) -> tuple[str, list[Table]]:
    """The page text with pipe tables as TAB-joined rows, and those tables."""
    lines = text.split("\n")
    out: list[str] = []
    tables: list[Table] = []
    fenced = False
    i = start = 0  # ``start``: where the text since the last table begins in ``out``
    while i < len(lines):
        line = lines[i]
        if _FENCE.match(line):
            fenced = not fenced
        is_table = not fenced and "|" in line and i + 1 < len(lines) and _is_separator(lines[i + 1])
        if not is_table:
            out.append(line)
            i += 1
            continue
        header = _pipe_cells(line)
        rows = [header]
        i += 2
        while i < len(lines) and lines[i].strip() and "|" in lines[i]:
            cells = _pipe_cells(lines[i])
            # GitHub fits every row to the header's width
            rows.append((cells + [""] * len(header))[: len(header)])
            i += 1
        table = make_table(page, rows)
        if table is not None:
            # the line above, past blank ones, titles it, unless another table ends there; the
            # heading of its section too ("## Revenue by region" over "All figures in EUR thousand.")
            since = [line for line in out[start:] if line.strip()]
            above = since[-1] if since else ""
            table = with_caption(table, above)
            heading = next((line for line in reversed(since) if _HEADING.match(line)), None)
            if heading is not None and heading != above and table.title:
                table = table.model_copy(update={"title": [clean(heading.strip().lstrip("#").strip()), *table.title]})
            tables.append(table)
            out.extend(table_lines(table))
            start = len(out)
    return "\n".join(out), tables


def parse_markdown(path: Path) -> ParsedDocument:
    """A Markdown file: pages on form feeds, GitHub pipe tables as Tables; title = first heading."""
    pages: list[str] = []
    tables: list[Table] = []
    for number, raw in enumerate(decode(path.read_bytes(), "Markdown file").split("\f"), start=1):
        text, found = _markdown_page(raw, number)
        pages.append(text)
        tables.extend(found)
    all_lines = [line for page in pages for line in page.splitlines()]
    headings = [m.group(1).rstrip().rstrip("#") for m in map(_HEADING.match, all_lines) if m]
    title = pick_title(headings, "") or pick_title(all_lines, path.stem)
    return ParsedDocument(title=title, media_type="text/markdown", pages=pages, tables=tables)


def _delimiter(sample: str) -> str:
    """The delimiter among , ; TAB | that splits the sample into the most consistent rows."""
    lines = [line for line in sample.splitlines()[:50] if line.strip()]
    best, best_score = ",", (0, 0)
    for delimiter in (",", ";", "\t", "|"):
        try:
            widths = Counter(len(row) for row in csv.reader(lines, delimiter=delimiter))
        except csv.Error:
            continue
        width, count = widths.most_common(1)[0] if widths else (1, 0)
        score = (count, width) if width > 1 else (0, 0)
        if score > best_score:
            best, best_score = delimiter, score
    return best


def parse_csv(path: Path) -> ParsedDocument:
    """A CSV file: one page and one table, its header found under any title rows (``header_at``)."""
    text = decode(path.read_bytes(), "CSV")
    delimiter = _delimiter(text[:65536])
    try:
        rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter))
    except csv.Error as exc:
        raise UnreadableFile(f"not a readable CSV: {exc}") from exc
    table = make_table(1, rows)
    if table is None:
        return ParsedDocument(title=path.stem, media_type="text/csv", pages=[""])
    width = len(table.header)
    table.rows = [row + [""] * (width - len(row)) for row in table.rows]
    page = "\n".join(table_lines(table))
    return ParsedDocument(title=path.stem, media_type="text/csv", pages=[page], tables=[table])
