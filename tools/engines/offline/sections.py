"""Tables whose rows stand under section lines: "REGION : NORTH WEST INDIA" alone on its line, the
rows after it its region's. The section a row stands in is one of its values, as a column of the
section lines' label, so that a condition on it ("the subdivisions in the North West India region")
is checked on every row like any other."""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.reading import Table
from tools.engines.columns import folded
from tools.engines.offline import grammar as g

# a section line's only cell: a label of a few words, a colon, the section's name
_SECTION = re.compile(r"(?P<label>[^\W\d_][^\W\d_ .'/-]*(?:[ .'/-]+[^\W\d_]+){0,3})\s*:\s*(?P<name>\S.*)")
MIN_SECTIONS = 2  # section lines of one label a table needs (the title's line counts)


def sectioned(table: Table) -> Table:
    """The table with the section each row stands in as its last column, named by the section
    lines' label ("Region"), and without those lines; rows above the first one stand in the
    section the title names with the same label ("REGION : EAST AND NORTH EAST INDIA"). The
    table unchanged when fewer than two lines name sections of one label."""
    lines = [_section(row) for row in table.rows]
    titled = [m for line in table.title if (m := _SECTION.fullmatch(line.strip()))]
    labels = [label for label, _ in filter(None, lines)]
    if not labels or len(set(labels)) != 1:
        return table
    label = labels[0]
    current = next((m.group("name").strip() for m in titled if _fold(m.group("label")) == label), "")
    if len(labels) + bool(current) < MIN_SECTIONS or label in {_fold(h) for h in table.header}:
        return table
    rows, spanned = [], table.spanned[:1]
    for k, (row, line) in enumerate(zip(table.rows, lines)):
        if line is not None:
            current = line[1]
            continue
        rows.append([*row, current])
        if table.spanned:
            spanned.append(table.spanned[k + 1] if k + 1 < len(table.spanned) else [])
    name = next(m.group("label") for row in table.rows if (m := _match(row)) is not None)
    return table.model_copy(update={"header": [*table.header, name.strip().capitalize()], "rows": rows, "spanned": spanned})


def _match(row: list[str]) -> re.Match[str] | None:
    filled = [c.strip() for c in row if c.strip()]
    return _SECTION.fullmatch(filled[0]) if len(filled) == 1 and len(row) > 1 else None


def _section(row: list[str]) -> tuple[str, str] | None:
    """(the label, the section's name) of a section line; None for a row."""
    match = _match(row)
    return (_fold(match.group("label")), match.group("name").strip()) if match else None


def _fold(text: str) -> str:
    return " ".join(text.casefold().split())


@dataclass
class Section:
    """The rows a request picks by the heading the table prints over them."""

    rows: set[int]  # their indices among the table's rows
    phrase: str  # the request's words that name it
    heading: str  # the heading as the table prints it


_DATED_WORDS = 3  # words of a heading with a figure the request may name by holding each of them


def picked_section(rows: list[list[str]], phrases: list[str], request: str = "") -> Section | None:
    """The rows under the one heading a phrase of the request names: "the personal habits
    indicators" over a table whose label column has a line "Personal Habits (age 15 years and
    above) (%)" alone, the indicators under it its rows; "each receipts line item" under
    "Receipts:". A heading is a row whose only value is its label, with rows of values under it;
    its rows run to the total line that names it ("Total receipts", "Subtotal, mandatory
    programs"; headings of parts of them and their subtotals between are no rows), else to the
    next heading. A phrase names a heading that it holds every word of (its
    words in brackets aside, plurals folded). None unless the table has two headings or more and
    the phrases name exactly one of them (or, without a phrase that names one, ``request`` holds
    every word of one heading with a figure)."""
    headings = _headings(rows)
    if len(headings) < MIN_SECTIONS:
        return None
    found = [(phrase, k) for phrase in dict.fromkeys(p for p in phrases if p) for k in headings if _names(phrase, rows[k][0])]
    if not found and request:
        # "I only need the year ended December 31, 2021" over headings that differ in their
        # date alone: a heading of three words or more with a figure, each of its words the request's
        said = set(folded(request).split())
        found = [(rows[k][0].strip(), k) for k in headings
                 if len(words := folded(rows[k][0]).split()) >= _DATED_WORDS and any(w.isdigit() for w in words) and set(words) <= said]
    if len({k for _, k in found}) != 1:
        return None
    phrase, start = min(found, key=lambda f: len(f[0]))  # of phrases naming the one heading, the closest
    name = _words(re.sub(r"\([^()]*\)", " ", rows[start][0]))
    labels = [row[0].strip() if row else "" for row in rows]
    # the total line naming the heading closes its rows, headings of parts of them between;
    # without one, the next heading does
    closing = next((k for k in range(start + 1, len(rows)) if g.TOTAL_LINE.match(labels[k]) and name <= _words(labels[k])), None)
    end = closing if closing is not None else next((k for k in headings if k > start), len(rows))
    picked = {k for k in range(start + 1, end) if k not in headings and not g.TOTAL_LINE.match(labels[k])}
    return Section(picked, phrase, rows[start][0].strip()) if picked else None


def section_note(section: Section) -> str:
    """What a row the section picked says of it."""
    return f"picked as '{section.phrase}' by the heading '{section.heading}' above it"


def judged_by_section(note: str | None, term: str) -> bool:
    """Whether a row's note says a section picked it for ``term`` (``section_note``)."""
    return bool(note) and f"picked as '{term}' by the heading " in note  # type: ignore[operator]


def _headings(rows: list[list[str]]) -> list[int]:
    """The rows that are headings: the first cell alone filled, with letters, and under it rows
    of values beside their labels (headings of parts between: "Outlays:" over "Appropriated
    programs:")."""
    alone = [len(row) >= 2 and any(ch.isalpha() for ch in row[0]) and not any(c.strip() for c in row[1:]) for row in rows]
    found: list[int] = []
    valued_below = False  # the first row below that is no label alone has values
    for k in range(len(rows) - 1, -1, -1):
        if alone[k] and valued_below:
            found.append(k)
        if not alone[k]:
            valued_below = any(c.strip() for c in rows[k][1:])
    return found[::-1]


def _names(phrase: str, heading: str) -> bool:
    wanted = _words(phrase)
    words = _words(re.sub(r"\([^()]*\)", " ", heading))
    return bool(words) and words <= wanted


def _words(text: str) -> set[str]:
    """The words of a text, plurals folded (``folded``), figures aside."""
    return {w for w in folded(text).split() if not w.isdigit()}
