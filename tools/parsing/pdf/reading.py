"""The lines of a page read top to bottom into lines of text and unruled tables: labelled
fields side by side split into lines of their own, and titles above tables."""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.reading import Table
from tools.parsing.fields import MAX_KEY_WORDS
from tools.parsing.text import CAPTION
from tools.parsing.pdf.columns import _Column
from tools.parsing.pdf.groups import _grouped
from tools.parsing.pdf.header_block import HEADER_BLOCK, _rebuilt
from tools.parsing.pdf.lines import _far, _figure, _Line
from tools.parsing.pdf.unruled import _grow, _Grown, _table_at
from tools.parsing.text import make_table, table_lines

PDF_TITLE_LINES = 3  # lines of text right above a table read as its title



@dataclass
class _Found:
    top: float
    lines: list[str]
    table: Table | None = None
    columns: list[_Column] | None = None
    first: int = -1  # the lines read into it (of those ``_read_lines`` was given)
    end: int = -1


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
            if grown is not None and (
                any(len(line.segments) > len(grown.columns) for line in lines[i : grown.end]) or _names_over_figures(lines, i)
            ):
                grown = None  # lines of more cells than the layout carried has columns, or a header: a table of its own
            headed = False  # the header stands on the page before
        if grown is None:
            grown = _table_at(lines, i) or _grouped(lines, i)
            headed = True
        if grown is not None and headed and (rebuilt := _headed(found, lines, i, grown)) is not None:
            i, grown = rebuilt
        if grown is not None:
            found.append(_found(number, lines, i, grown))
            carried = None
            i = grown.end
        else:
            found.append(_Found(lines[i].top, _fields(lines[i]), first=i, end=i + 1))
            i += 1
    last = next((f.columns for f in reversed(found) if f.table is not None), None)
    return found, last


def _names_over_figures(lines: list[_Line], i: int) -> bool:
    """Whether line ``i`` opens lines of words (at most a header's) right over a line of figures
    in two cells or more: a header."""
    for j in range(i, min(len(lines), i + HEADER_BLOCK + 1)):
        figures = sum(1 for s in lines[j].segments if _figure(s.text))
        if figures:
            return j > i and figures >= 2
        if j > i and _far(lines[j - 1], lines[j]):
            return False
    return False


def _found(number: int, lines: list[_Line], i: int, grown: _Grown) -> _Found:
    table = make_table(number, grown.rows, printed=grown.printed)
    text = table_lines(table)
    for position, note in reversed(grown.notes):
        text.insert(position, note)
    return _Found(lines[i].top, text, table, grown.columns, i, grown.end)


def _headed(found: list[_Found], lines: list[_Line], i: int, grown: _Grown) -> tuple[int, _Grown] | None:
    """The table read from line ``i`` with its header found from its body up (``_rebuilt``), and
    its first line; the lines of text (and tables of words alone) read right above it that
    turn out to be its header leave ``found``. None when it keeps the header it was read with."""
    k, below = len(found), i
    while k and found[k - 1].end == below:
        above = found[k - 1]
        if above.table is not None and any(_figure(c) for row in above.table.rows for c in row):
            break
        k, below = k - 1, above.first
    rebuilt = _rebuilt(lines, i, grown.end, grown.columns, below)
    if rebuilt is None:
        return None
    top, rebuilt_grown = rebuilt
    inside = [f for f in found[k:] if f.first < top < f.end]
    if inside:
        # the header would start inside a table of words, which stays one: it starts below it
        rebuilt = _rebuilt(lines, i, grown.end, grown.columns, inside[-1].end)
        if rebuilt is None or any(f.first < rebuilt[0] < f.end for f in found[k:]):
            return None
        top, rebuilt_grown = rebuilt
    grown = rebuilt_grown
    while len(found) > k and found[-1].first >= top:
        found.pop()
    return top, grown


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
    context its columns are named in; one whose first rows are a title of its own ("Improved
    operation scenario") takes the lines above them too, up to as many ("Table A4-12. Projected
    Average Volume Server UEC …"). The lines stay in the page's text where they stand."""
    for k, f in enumerate(found):
        if f.table is None or len(f.table.title) >= PDF_TITLE_LINES:
            continue
        above: list[str] = []
        j = k - 1
        while j >= 0 and found[j].table is None and len(above) < 2 * PDF_TITLE_LINES:
            above[:0] = [line for line in found[j].lines if line.strip()]
            j -= 1
        room = PDF_TITLE_LINES - len(f.table.title)
        taken = above[-room:] if room else []
        # the caption that numbers the table ("Table 5") opens its title, a few lines higher
        caption = next((line for line in reversed(above[-room - PDF_TITLE_LINES : -room or None])
                        if CAPTION.match(line.strip())), None) if room < len(above) else None
        if caption is not None and not any(CAPTION.match(line.strip()) for line in taken):
            taken = [caption, *taken]
        f.table.title = [*taken, *f.table.title]
