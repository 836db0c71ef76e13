"""A table printed in blocks side by side, each under its own copy of the header: the blocks
found, and their rows joined into one table."""

from __future__ import annotations

import math

from tools.parsing.pdf.lines import _Line
from tools.parsing.pdf.reading import _Found


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
