"""Ruled tables (drawn with lines) whose rules do not separate their rows or columns: those are
read from their words' alignment instead."""

from __future__ import annotations

from tools.parsing.pdf.lines import _figure, _lines

MAX_EDGES = 6000  # past this many drawn lines a page is a drawing; finding cells would crawl


def _rules_merge_rows(rows: list[list[str | None]]) -> bool:
    """Whether a ruled table's rules enclose several rows in one cell: bands of five states shaded
    alike, each cell of a band holding a line per state, one under the other. Seen on two ruled
    rows whose every filled cell holds the same number of lines, two or more, and two cells or
    more hold a figure on every line; or on one such row of three lines or more (a band of five
    scores in a block of a concordance table); or on two cells of four lines or more, each line
    mostly figures (rules drawn only around groups of columns, each cell a column of a dozen
    rows: "11,062 .6  1,540 .0  9,522 .6" over "467 .9  69 .1  398 .8" …). (A label spanning
    two rows, "6" beside "OTSL" over "HTML", is one line: those rows stay ruled.)"""
    numeric = [
        cell for row in rows for cell in row
        if cell and cell.strip().count("\n") >= 3 and all(_numeric(line) for line in cell.strip().split("\n"))
    ]
    if len(numeric) >= 2:
        return True
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


def _numeric(line: str) -> bool:
    """Whether most of a line's words hold a digit ("11,062 .6  1,540 .0  9,522 .6")."""
    tokens = line.split()
    return bool(tokens) and 2 * sum(any(ch.isdigit() for ch in t) for t in tokens) > len(tokens)


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


HEADER_ROWS = 6  # a ruled header is drawn on at most this many rows


def _ruled_header(ruled, rows: list[list[str | None]]) -> list[list[str | None]]:  # type: ignore[no-untyped-def]
    """A ruled table's rows with a header drawn over several rows read as one row of names: the
    header is the rows above the first two rows (or last one) filling all columns but one, none
    of them holding a figure; each column is named by the cells over it top to bottom, a cell
    spanning several columns ("Literacy Status" over "Illiterate … College") naming each. A
    cell spanning the whole table is a title and stays a row of its own above. The rows as they
    are when the header is one row."""
    width = max((len(row) for row in rows), default=0)
    need = max(2, width - 1)

    def filled(row: list[str | None]) -> int:
        return sum(1 for cell in row if cell and cell.strip())

    body = next(
        (r for r in range(min(len(rows), HEADER_ROWS + 1))
         if filled(rows[r]) >= need and (r + 1 == len(rows) or filled(rows[r + 1]) >= need)),
        None,
    )
    if width < 3 or body is None or body < 2 or any(_figure(c or "") for row in rows[:body] for c in row):
        return rows
    spans = [[c for c in ruled.rows[r].cells] for r in range(len(rows))]
    middles = [(x0 + x1) / 2 for x0, _, x1, _ in (cell for cell in spans[body] if cell is not None)]
    if len(middles) != width or any(cell is None for cell in spans[body]):
        return rows
    titles: list[list[str | None]] = []
    parts: list[list[str]] = [[] for _ in range(width)]
    for r in range(body):
        for k, cell in enumerate(spans[r]):
            text = " ".join((rows[r][k] or "").split())
            if cell is None or not text:
                continue
            under = [j for j, m in enumerate(middles) if cell[0] <= m <= cell[2]] or [k]
            if len(under) == width:
                titles.append([text] + [""] * (width - 1))
                continue
            for j in under:
                parts[j].append(text)
    names: list[str | None] = [" ".join(p) for p in parts]
    if sum(1 for name in names if name) < 2:
        return rows
    return [*titles, names, *rows[body:]]
