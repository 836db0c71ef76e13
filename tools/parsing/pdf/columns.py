"""A line's segments placed in the columns of a table: which column each goes to, the columns
widened or added on the way, and how many named columns a row fills."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from tools.parsing.pdf.lines import _Line, _Segment

MIN_COLUMNS = 3  # two aligned runs of text are as often a letterhead as a table
MARGINAL = 0.25  # overlapping a column by less than this share of the narrower one only brushes it
ALIGN = 0.5  # a cell starts at its column's left edge when within this share of the line height


def _distance(seg: _Segment, x0: float, x1: float) -> float:
    """How far a cell stands from a column's extent; negative by as much as they overlap."""
    return max(x0 - seg.x1, seg.x0 - x1, 0.0) - max(0.0, min(seg.x1, x1) - max(seg.x0, x0))


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


def _need(columns: list[_Column], strict: bool = False) -> int:
    """How many named columns a row fills at least."""
    named = sum(1 for c in columns if c.named)
    need = max(2, math.ceil(0.6 * named))
    return max(need, named - 1) if strict else need


def _filled(columns: list[_Column], cells: dict[int, str]) -> int:
    return sum(1 for c in columns if c.named and c.key in cells)


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
    together in a column wins (a header line may add several columns in one gap), then the one adding the fewest columns, then the one nearest
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
    for n, seg in enumerate(segments):
        options = _options(seg, columns, height, header, add)
        if options is None:
            return None
        if header:
            # a header line may name several columns of its own in one gap ("Company/Brand
            # Product/Brand" left of the columns found so far): each may start its own
            options += [(start + (n + 1) / (2 * len(segments) + 2), end + (n + 1) / (2 * len(segments) + 2), True, d)
                        for start, end, new, d in options if new]
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


def _printed(lines: list[list[_Segment]], columns: list[_Column]) -> list[list[str]]:
    """Lines of a header as printed, each a cell per column: a segment goes to the column its
    centre stands in (the nearest when it stands in none), a label over a group of columns
    once."""
    out = []
    for segments in lines:
        cells = [""] * len(columns)
        for s in segments:
            centre = (s.x0 + s.x1) / 2
            k = min(range(len(columns)), key=lambda j: max(columns[j].x0 - centre, centre - columns[j].x1, 0.0))
            cells[k] = f"{cells[k]} {s.text}".strip()
        if any(cells):
            out.append(cells)
    return out
