"""Group labels over a header: a line right above it whose labels each stand centred over a few
of its columns ("Pre-Pawn" over "Handgun  Long Gun  *Other")."""

from __future__ import annotations

import math

from tools.parsing.pdf.columns import _Column, _distance, _printed
from tools.parsing.pdf.lines import ROW_GAP, _far, _figure, _Line, _lines, _Segment
from tools.parsing.pdf.unruled import _Grown, _table_at

GROUP_REACH = 1.5  # a group label reaches past its outer columns by at most half as far again
GROUP_CENTRED = 0.25  # a group label's centre lies within this share of its columns' width of theirs


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
    # the header as printed: the groups' line over the header's own lines
    grown.printed = _printed([lines[i].segments], grown.columns) + (grown.printed or [list(grown.rows[0])])
    grown.rows[0] = [
        f"{groups[c.key]} {name}".strip() if c.key in groups else name for c, name in zip(grown.columns, grown.rows[0])
    ]
    return grown


def groups_over_frame(
    frame: tuple[float, float, float, float], columns: list[_Column], words: list[dict], chars: list[dict]
) -> tuple[dict[int, str], list[dict]] | None:
    """The group labels printed right above a ruled table's frame, outside it ("2001  2002 …"
    each centred over its "Mill. u$s  Part."): the label of each column under one (by column
    key) and the label line's words; None when the line right above labels no groups, each
    over two columns or more, or holds labelled values."""
    x0, top, x1, _ = frame
    # only the words near enough over the frame to be the line right above it
    above = [w for w in words if top - (ROW_GAP + 1) * (w["bottom"] - w["top"]) <= w["bottom"] <= top + 1
             and w["x1"] > x0 and w["x0"] < x1 and w.get("upright", True)]
    lines = _lines(above, chars)
    if not lines:
        return None
    line = lines[-1]
    if top - line.bottom > ROW_GAP * (line.bottom - line.top) or len(line.segments) < 2:
        return None
    if any(s.text.rstrip().endswith(":") for s in line.segments):
        return None  # a line of labelled values ("Customer VAT ID: PL5842719306") names no groups
    groups = _groups(line.segments, columns)
    # each label over a group of its own, two columns or more
    if groups is None or any(list(groups.values()).count(s.text) < 2 for s in line.segments):
        return None
    return groups, line.words


HEADER_LINES_ABOVE = 6  # a header printed over a frame stands on at most this many lines
HEADER_CELL_WORDS = 4  # a cell of such a header holds at most this many words (more is a title)


def header_over_frame(
    frame: tuple[float, float, float, float], columns: list[_Column], first: list[str], second: list[str],
    words: list[dict], chars: list[dict],
) -> tuple[list[str], list[list[str]], list[dict]] | None:
    """The header printed right above a ruled table's frame whose rows have none (a form's
    "COMAR# | Offense Literal | CJIS Code | …" set over a grid of offences): the lines of short
    names standing over its columns, set close together down to the frame, when the frame's
    first row is a row of its body (figures where its second row has them). The name of each
    column (its words top to bottom), the lines as printed, and their words; None otherwise."""
    if not any(_figure(c) for c in first) or not _alike(first, second):
        return None
    x0, top, x1, _ = frame
    near = [w for w in words if w["bottom"] <= top + 1 and w["x1"] > x0 and w["x0"] < x1 and w.get("upright", True)
            and w["bottom"] >= top - HEADER_LINES_ABOVE * (ROW_GAP + 1) * (w["bottom"] - w["top"])]
    lines = _lines(near, chars)
    block: list[_Line] = []
    edge = top
    for line in reversed(lines):
        height = line.bottom - line.top
        if edge - line.bottom > ROW_GAP * height or len(block) == HEADER_LINES_ABOVE:
            break
        block.insert(0, line)
        edge = line.top
    if not block or any(len(s.text.split()) > HEADER_CELL_WORDS or s.text.rstrip().endswith(":") or _figure(s.text)
                        for line in block for s in line.segments):
        return None
    parts: list[list[str]] = [[] for _ in columns]
    printed: list[list[str]] = []
    for line in block:
        cells = ["" for _ in columns]
        for w in line.words:
            word = _Segment(w["x0"], w["x1"], w["text"])
            k = min(range(len(columns)), key=lambda j: _distance(word, columns[j].x0, columns[j].x1))
            cells[k] = f"{cells[k]} {w['text']}".strip()
        printed.append(cells)
        for k, cell in enumerate(cells):
            if cell:
                parts[k].append(cell)
    names = [" ".join(p) for p in parts]
    if sum(1 for name in names if name) * 2 < len(columns):
        return None
    return names, printed, [w for line in block for w in line.words]


def _alike(first: list[str], second: list[str]) -> bool:
    """Whether two rows hold figures and words in the same columns, all but one."""
    return sum(1 for a, b in zip(first, second) if bool(a) and bool(b) and _figure(a) != _figure(b)) <= 1


def _groups(labels: list[_Segment], columns: list[_Column]) -> dict[int, str] | None:
    """The group label of each column under one (by column key), or None when the labels do
    not each stand centred over columns of their own.

    A column between two labels belongs to the nearer one. Beyond the first and the last
    label, a label reaches as far as it does on the side of its neighbour, or as the inner
    labels reach on that side (labels all set a little off their groups' centres): it stands
    over its columns, so the columns beside the groups ("Permit", "Totals") stay out of them.
    """
    centre = [(s.x0 + s.x1) / 2 for s in labels]
    owned: dict[int, list[_Column]] = {}
    for column in columns:
        mid = (column.x0 + column.x1) / 2
        owned.setdefault(min(range(len(labels)), key=lambda k: abs(centre[k] - mid)), []).append(column)
    groups: dict[int, str] = {}
    last = len(labels) - 1
    mids = {k: [(c.x0 + c.x1) / 2 for c in owned.get(k, [])] for k in range(len(labels))}
    lefts = {k: [centre[k] - m for m in mids[k] if m < centre[k]] for k in mids}
    rights = {k: [m - centre[k] for m in mids[k] if m >= centre[k]] for k in mids}
    # how far the inner labels reach to each side (labels set off their groups' centres alike)
    inner_left = max((d for k in range(1, len(labels)) for d in lefts[k]), default=0.0)
    inner_right = max((d for k in range(last) for d in rights[k]), default=0.0)
    for k, label in enumerate(labels):
        left, right = lefts[k], rights[k]
        reach_left = max(*right, inner_left, 0.0) * GROUP_REACH if k == 0 else math.inf
        reach_right = max(*left, inner_right, 0.0) * GROUP_REACH if k == last else math.inf
        kept = [c for c, m in zip(owned.get(k, []), mids[k]) if -reach_left <= m - centre[k] <= reach_right]
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
