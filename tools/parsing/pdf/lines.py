"""Words grouped into lines, and a line's words into segments (the runs of text a wide gap
separates): the units every unruled table and every line of page text is read from."""

from __future__ import annotations

import re
import statistics
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from functools import cached_property

SEGMENT_GAP = 0.45  # a gap wider than this share of the font size separates cells ...
SPACE_GAP = 1.5  # ... when it is also wider than this many spaces of the line's font
SIGN_APART = 3.0  # a currency sign this many line heights left of its figure heads its column
MAX_SPACE = 0.6  # a space glyph wider than this share of the line height is no plain space
MONOSPACED = 5  # a line drawing this many different glyphs, all equally wide, is monospaced
ROW_GAP = 2.5  # a vertical gap larger than this many line heights ends a table


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
    grouped: list[_Segment] | None = field(default=None, repr=False)  # segments regrouped by a header's reading

    @property
    def text(self) -> str:
        return " ".join(w["text"] for w in self.words)

    @cached_property
    def segments(self) -> list[_Segment]:
        if self.grouped is not None:
            return self.grouped
        height = self.bottom - self.top
        gap = max(SEGMENT_GAP * height, SPACE_GAP * min(self.space, MAX_SPACE * height))
        out: list[_Segment] = []
        led = False  # the segment so far ends with a dot leader: the next word is the next cell's
        for n, w in enumerate(self.words):
            dots = w["text"].strip()
            # dots alone after a label are its leader, however far apart; a leader leads to the
            # next column. Two or three dots set apart, no dots right after them, are a cell of
            # their own: the "..." a statistical table prints for nil
            nxt = self.words[n + 1] if n + 1 < len(self.words) else None
            dotted = nxt is not None and nxt["text"].strip() and not nxt["text"].strip(". ") and nxt["x0"] - w["x1"] <= gap
            nil = dots in ("..", "...") and bool(out) and w["x0"] - out[-1].x1 > gap and not dotted
            leader = bool(dots) and not dots.strip(". ") and not nil
            if out and (
                (leader and any(ch.isalpha() for ch in out[-1].text))
                or (w["x0"] - out[-1].x1 <= gap and not (led and not leader))
                # a currency sign set at its column's left edge, far from its figure at the right
                # ("$      24"); one set close to it stays a cell ``rows.signed`` joins
                or out[-1].text in _CURRENCY_SIGNS and _figure(w["text"]) and w["x0"] - out[-1].x1 > SIGN_APART * height
            ):
                out[-1].x1, out[-1].text = w["x1"], f"{out[-1].text} {w['text']}"
            else:
                out.append(_Segment(w["x0"], w["x1"], w["text"]))
            led = leader
        return out


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


def _inside(word: dict, boxes: list) -> bool:
    x, y = (word["x0"] + word["x1"]) / 2, (word["top"] + word["bottom"]) / 2
    return any(x0 <= x <= x1 and top <= y <= bottom for x0, top, x1, bottom in boxes)


def _far(above: _Line, below: _Line) -> bool:
    return below.top - above.bottom > ROW_GAP * (below.bottom - below.top)


_ORDINAL = re.compile(r"(\d{1,3})(?:\s*=\s*[\d\s()+\-,&to]*)?", re.IGNORECASE)  # "3", "2=", "2= (3 to 6)+14"


def _counts_up(texts: list[str]) -> bool:
    """Whether cells number the columns: three numbers or more counting up by one, each perhaps
    with the formula of its column ("2=", "2= (3 to 6)+14")."""
    numbers = [_ORDINAL.fullmatch(t.strip()) for t in texts]
    return len(numbers) >= 3 and all(numbers) and all(
        int(b.group(1)) == int(a.group(1)) + 1 for a, b in zip(numbers, numbers[1:]))  # type: ignore[union-attr]


_YEAR = re.compile(r"(?:19|20)\d\d(?:\s*[-–]\s*(?:(?:19|20)\d\d)?)?")


def _years(line: _Line) -> bool:
    """Whether a line is a row of years over a table's columns (``_years_of`` its cells)."""
    return _years_of([s.text for s in line.segments])


def _years_of(cells: list[str]) -> bool:
    """Whether cells are a row of years over a table's columns ("2011 2012 … 2013–"): names of
    columns, though each is written with figures; its other cells words ("1990 … 2016 '16 vs '90")."""
    years = [c for c in cells if _YEAR.fullmatch(c.strip())]
    return len(years) >= 2 and all(c in years or not _figure(c) for c in cells)


_FRAMED = re.compile(r"\s*([-=*~_])\1{1,}\s*\S.*?\s*\1{2,}\s*")  # "--- Food Products ---", "== Services =="


def _framed(text: str) -> bool:
    """Whether a line is a label framed by runs of dashes (or equal signs, stars): a section's."""
    return _FRAMED.fullmatch(text) is not None


_CURRENCY_SIGNS = frozenset("$€£¥")


def _figure(text: str) -> bool:
    return bool(re.fullmatch(r"[-+(]?[$€£]?\s*[\d][\d,.\s]*%?\)?", text.strip()))
