"""Table structure against a maintainer's truth: F1 over the adjacency of cells, and word coverage.

The measure of the ICDAR 2013 table competition: a table is the set of its adjacency relations
— each non-empty cell with the next non-empty cell to its right in its row and below it in its
column — compared as a multiset between the truth and what the parser gave. A lost label
column, a row flattened into one cell or a header split wrongly each lose relations; cells read
right in the right places keep them. Text is compared with its whitespace folded, and in its
compatibility form: the truths write a footnote mark the page sets raised ("Others⁽¹⁾") as the
plain characters their text layer draws ("Others(1)"). A dot leader after a cell's words
("Robbery . . . . .") is typography, not text: some truths keep it, Kea's cells never do, and
it is left out of both. So is a space before a figure's decimal point ("11,062 .6"): the page
sets none, a font maps the point's glyph to a space and a point, and some truths keep both.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence

from tools.parsing.text import without_leader

Grid = Sequence[Sequence[str]]


def _fold(text: str) -> str:
    folded = without_leader(" ".join(unicodedata.normalize("NFKC", str(text or "")).split()))
    return _SPACED_POINT.sub(".", folded)


_SPACED_POINT = re.compile(r"(?<=\d) \.(?=\d)")  # "11,062 .6"


def adjacency(grid: Grid) -> Counter[tuple[str, str, str]]:
    """(cell, neighbour, "right" | "below") for every non-empty cell and its next non-empty neighbours."""
    cells = [[_fold(c) for c in row] for row in grid]
    width = max((len(row) for row in cells), default=0)
    cells = [row + [""] * (width - len(row)) for row in cells]
    found: Counter[tuple[str, str, str]] = Counter()
    for row in cells:
        filled = [c for c in row if c]
        found.update((a, b, "right") for a, b in zip(filled, filled[1:]))
    for j in range(width):
        filled = [row[j] for row in cells if row[j]]
        found.update((a, b, "below") for a, b in zip(filled, filled[1:]))
    return found


def structure_scores(truth: Iterable[Grid], parsed: Iterable[Grid]) -> dict[str, float | int]:
    """Precision, recall and F1 of the parsed tables' relations against the true tables' (all
    tables of a document pooled: which parsed table holds a relation does not matter)."""
    wanted: Counter[tuple[str, str, str]] = Counter()
    for grid in truth:
        wanted.update(adjacency(grid))
    given: Counter[tuple[str, str, str]] = Counter()
    for grid in parsed:
        given.update(adjacency(grid))
    hits = sum((wanted & given).values())
    precision = hits / sum(given.values()) if given else (1.0 if not wanted else 0.0)
    recall = hits / sum(wanted.values()) if wanted else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"relations": sum(wanted.values()), "given": sum(given.values()), "matched": hits,
            "precision": precision, "recall": recall, "f1": f1}
