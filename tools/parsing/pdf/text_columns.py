"""A page set in columns of prose: the gutter found from the words, and the lines of each column
read one column after the other, never across the gutter as rows of a table."""

from __future__ import annotations

from tools.parsing.pdf.lines import _Line, _lines

MIN_LINES = 6  # a column of text runs at least this many lines on each side of the gutter
MIN_WIDTH = 0.25  # each column is at least this share of the text's width
FULL = 0.7  # a line of prose fills at least this share of its column's width ...
PROSE = 0.6  # ... on at least this share of the column's lines, each one run of words
STEP = 2.0  # points between the gutter positions tried
ALIGNED = 0.6  # a table's rows share their baselines across the gutter; columns of text on fewer of their lines
BASELINE = 0.2  # baselines within this share of a line's height of each other are one
WORDS = 3  # a line of text holds at least this many words of letters


def _in_columns(lines: list[_Line], chars: list[dict]) -> list[list[_Line]] | None:
    """The page's lines in reading order when part of it is set in two columns of prose: the
    lines above, the left column's, the right column's, then the lines below (read the same
    way, in case columns start again); None when no gutter runs between two columns of prose.

    The gutter is a vertical strip no word crosses over a run of consecutive lines with words
    on both sides; each side is prose: most of its lines are one run of words filling most of
    its width. (Rows of a table leave gaps too, but their cells are short and several to a
    side.)"""
    if len(lines) < MIN_LINES:
        return None
    left_edge = min(line.segments[0].x0 for line in lines)
    right_edge = max(line.segments[-1].x1 for line in lines)
    width = right_edge - left_edge
    runs: dict[tuple[int, int], list[float]] = {}  # (first line, end) -> the gutter's positions
    x = left_edge + MIN_WIDTH * width
    while x <= right_edge - MIN_WIDTH * width:
        start = 0
        for i in range(len(lines) + 1):
            if i < len(lines) and not any(s.x0 < x < s.x1 for s in lines[i].segments):
                continue
            if i - start >= MIN_LINES:
                runs.setdefault((start, i), []).append(x)
            start = i + 1
        x += STEP
    # the longest run first; its cut in the middle of the gutter
    candidates = sorted(runs.items(), key=lambda run: run[0][0] - run[0][1])
    best = next(
        ((first, end, (xs[0] + xs[-1]) / 2) for (first, end), xs in candidates
         if _text_on_both_sides(lines[first:end], (xs[0] + xs[-1]) / 2)),
        None,
    )
    if best is None:
        return None
    first, end, cut = best
    left, right = (_lines(side, chars) for side in _sides(lines[first:end], cut))
    below = lines[end:]
    rest = _in_columns(below, chars) if below else None
    return [lines[:first], left, right, *(rest if rest is not None else [below])]


def _text_on_both_sides(block: list[_Line], cut: float) -> bool:
    """Whether the two sides of ``cut`` are columns of text: prose on each, or lines set each on
    a baseline of its own (a questionnaire's items beside another's: rows of a table share
    their baselines across the gutter, lines of two columns mostly do not). Each side's lines
    are regrouped on their own, split at gaps as wide as a cell's."""
    sides = [_lines(side, []) for side in _sides(block, cut)]
    if min(len(side) for side in sides) < MIN_LINES:
        return False
    return all(map(_prose, sides)) or _baselines_apart(sides)


def _baselines_apart(sides: list[list[_Line]]) -> bool:
    """Whether each side is lines of words (``_wordy``) and fewer than ``ALIGNED`` of the lines
    of the side with fewer stand on a baseline of a line of the other side. A table whose
    records print on two lines (a name, then its time under the next column) stands apart too,
    but one side of it holds figures."""
    if not all(map(_wordy, sides)):
        return False
    fewer, more = sorted(sides, key=len)
    aligned = sum(
        1 for line in fewer
        if any(abs(line.bottom - other.bottom) <= BASELINE * (line.bottom - line.top) for other in more)
    )
    return aligned < ALIGNED * len(fewer)


def _wordy(lines: list[_Line]) -> bool:
    """Whether most of ``lines`` (``PROSE``) hold ``WORDS`` words or more written with letters."""
    wordy = sum(1 for line in lines if sum(1 for w in line.words if any(c.isalpha() for c in w["text"])) >= WORDS)
    return wordy >= PROSE * len(lines)


def _prose(lines: list[_Line]) -> bool:
    """Whether a side's lines are prose: most of them one run of words filling most of its width."""
    x0 = min(line.segments[0].x0 for line in lines)
    x1 = max(line.segments[-1].x1 for line in lines)
    full = sum(
        1 for line in lines
        if len(line.segments) == 1 and line.segments[0].x1 - line.segments[0].x0 >= FULL * (x1 - x0)
    )
    return full >= PROSE * len(lines)


def _sides(block: list[_Line], cut: float) -> tuple[list[dict], list[dict]]:
    """The words of ``block`` left and right of ``cut``, each by its middle."""
    words = [w for line in block for w in line.words]
    return [w for w in words if (w["x0"] + w["x1"]) / 2 < cut], [w for w in words if (w["x0"] + w["x1"]) / 2 >= cut]
