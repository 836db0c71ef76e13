"""Ruled tables (drawn with lines) whose rules do not separate their rows or columns: those are
read from their words' alignment instead."""

from __future__ import annotations

from tools.parsing.pdf.lines import _counts_up, _figure, _lines, _years_of
from tools.parsing.pdf.words import WORD_GAP, _in_box, glyph_runs

MAX_EDGES = 6000  # past this many drawn lines a page is a drawing; finding cells would crawl ...
MAX_DOTTED_EDGES = 40000  # ... but for rules drawn as dots, each a tiny box of four edges, up to this many
DOT = 2.0  # points: the edges of a dot are no longer than this


def rules_to_read(edges: list[dict]) -> bool:
    """Whether a page's drawn lines are few enough to find ruled tables in: at most MAX_EDGES,
    or rules drawn in dots (most edges a dot's, a page of dotted grid lines)."""
    if len(edges) <= MAX_EDGES:
        return True
    if len(edges) > MAX_DOTTED_EDGES:
        return False
    lengths = sorted((e["x1"] - e["x0"]) if e.get("orientation") == "h" else (e["bottom"] - e["top"]) for e in edges)
    return lengths[len(lengths) // 2] <= DOT


MAX_FILLS = 300  # past this many fills of one colour, comparing them pairwise would crawl: none is taken for hidden


def without_hidden_fills(page):  # type: ignore[no-untyped-def]
    """The page for finding ruled tables in, without the fills drawn inside a fill of the same
    colour (a header cell's shading drawn twice, once to its rules and once a few points inside
    them, around the text): their edges show nowhere, yet would cut the cell's column in three.
    A fill another colour shows around (white cells on a grey grid over a white page) stays; so
    does every fill under one that covers most of the page. The page itself when none is hidden."""
    fills = [r for r in page.rects if r.get("fill") and not r.get("stroke") and min(r["width"], r["height"]) > DOT]
    area = (page.bbox[2] - page.bbox[0]) * (page.bbox[3] - page.bbox[1])

    def box(r: dict) -> tuple[float, float, float, float]:
        return r["x0"], r["top"], r["x1"], r["bottom"]

    def within(inner: dict, outer: dict) -> bool:
        return outer["x0"] <= inner["x0"] and inner["x1"] <= outer["x1"] and outer["top"] <= inner["top"] \
            and inner["bottom"] <= outer["bottom"] and box(inner) != box(outer) and outer["width"] * outer["height"] < area / 2

    def overlaps(a: dict, b: dict) -> bool:
        return a["x0"] < b["x1"] and b["x0"] < a["x1"] and a["top"] < b["bottom"] and b["top"] < a["bottom"]

    by_colour: dict[str, list[dict]] = {}
    for r in fills:
        by_colour.setdefault(repr(r["non_stroking_color"]), []).append(r)
    hidden = set()
    for colour, alike in by_colour.items():
        if len(alike) > MAX_FILLS:
            continue
        others = [r for r in fills if repr(r["non_stroking_color"]) != colour]
        for r in alike:
            outer = next((o for o in alike if within(r, o)), None)
            if outer is not None and not any(overlaps(o, r) and overlaps(o, outer) for o in others[:MAX_FILLS]):
                hidden.add((box(r), colour))
    if not hidden:
        return page
    return page.filter(lambda o: o.get("object_type") != "rect" or o.get("stroke")
                       or (box(o), repr(o.get("non_stroking_color"))) not in hidden)


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
    """Whether a ruled table's lines put several columns into one cell: shaded bands or rules
    that do not separate its columns, so a row would come as "Assam 14,874,821 2,554,197 …", or
    as "Kruger K2-1901 RR2Y 1.9 R Ac,PV" beside a shaded "56.4" and "7.6 0 126.3 $846". Seen on
    two lines or more of which one cell holds three runs of words or more set apart, two of them
    with figures."""
    cells = [cell for row in ruled.rows for cell in row.cells if cell is not None]

    def cell_of(x: float, y: float) -> int | None:
        return next((k for k, (x0, top, x1, bottom) in enumerate(cells) if x0 <= x <= x1 and top <= y <= bottom), None)

    merged = 0
    for line in _lines(words, chars):
        # a row's figures, not a title set with wide spaces
        if len(line.segments) < 3 or sum(any(ch.isdigit() for ch in seg.text) for seg in line.segments) < 2:
            continue
        y = (line.top + line.bottom) / 2
        runs: dict[int | None, list[str]] = {}
        for seg in line.segments:
            runs.setdefault(cell_of((seg.x0 + seg.x1) / 2, y), []).append(seg.text)
        if any(
            k is not None and len(texts) >= 3 and sum(any(ch.isdigit() for ch in t) for t in texts) >= 2
            for k, texts in runs.items()
        ):
            merged += 1
            if merged == 2:
                return True
    return False


def _rows_run_past_cells(ruled, words: list[dict]) -> tuple[float, float] | None:  # type: ignore[no-untyped-def]
    """Where a ruled table's rows really run (left, right) when they go on outside its cells:
    its horizontal rules reach past its outer vertical ones, and on nearly every row (four in
    five) words stand there on the row's line, under those rules: a row-label column ("Mazda
    RX4", "# enc-layers") or a last column ("carb") left unframed. Read as cells, the table
    would lose them to the page's text. None when its cells hold its rows."""
    x0, top, x1, bottom = ruled.bbox
    rules = [e for e in ruled.page.edges if e["orientation"] == "h" and top - 1 <= e["top"] <= bottom + 1]
    if not rules:
        return None
    reach = (min(e["x0"] for e in rules), max(e["x1"] for e in rules))
    outside = [
        w for w in words
        if reach[0] - 1 <= w["x0"] and w["x1"] <= reach[1] + 1 and (w["x1"] <= x0 or w["x0"] >= x1)
        and top <= w["top"] and w["bottom"] <= bottom
    ]
    if not outside:
        return None
    inside = [w for w in words if x0 <= w["x0"] and w["x1"] <= x1 and top <= w["top"] and w["bottom"] <= bottom]
    rows = 0
    for row in ruled.rows:
        _, row_top, _, row_bottom = row.bbox
        own = [m for w in inside if row_top <= (m := (w["top"] + w["bottom"]) / 2) <= row_bottom]
        if not own:
            continue
        height = max(row_bottom - row_top, 1.0)
        if any(
            row_top <= (m := (w["top"] + w["bottom"]) / 2) <= row_bottom and min(abs(m - o) for o in own) <= 0.3 * height
            for w in outside
        ):
            rows += 1
    return reach if rows >= 2 and 5 * rows >= 4 * len(ruled.rows) else None


def _labels_left(ruled, words: list[dict]) -> list[tuple[str, tuple[float, float, float, float]] | None] | None:  # type: ignore[no-untyped-def]
    """The row labels printed left of a ruled table's frame, with no rule reaching them
    (township names beside a grid of vote counts): per row of the table, the words standing
    there on its line and the box they fill, or None for a row without; None when they do not
    stand on four in five of its rows of figures. Read as cells alone, the table would keep its
    figures without the names of their rows."""
    x0, top, _, bottom = ruled.bbox
    left = [w for w in words if w["x1"] <= x0 and top <= (w["top"] + w["bottom"]) / 2 <= bottom]
    if not left:
        return None
    inside = [w for w in words if x0 <= w["x0"] and top <= w["top"] and w["bottom"] <= bottom and w["x1"] > x0]
    found: list[tuple[str, tuple[float, float, float, float]] | None] = []
    figured = labelled = 0
    for row in ruled.rows:
        _, row_top, _, row_bottom = row.bbox
        mine = sorted((w for w in left if row_top <= (w["top"] + w["bottom"]) / 2 <= row_bottom), key=lambda w: (w["top"], w["x0"]))
        if any(row_top <= (w["top"] + w["bottom"]) / 2 <= row_bottom and _numeric(w["text"]) for w in inside):
            figured += 1
            labelled += bool(mine)
        found.append(
            (" ".join(w["text"] for w in mine), (min(w["x0"] for w in mine), row_top, x0, row_bottom)) if mine else None
        )
    return found if figured >= 2 and 5 * labelled >= 4 * figured else None


def _open_cells(ruled, rows: list[list[str | None]], words: list[dict]):  # type: ignore[no-untyped-def]
    """The rows with the words of the cells the rules leave open: where a row has no cell in a
    column (a rule missing at its edge) and words stand there in no cell ("Totals  9237" on the
    last row of a grid whose left rule stops short), they are that cell's text. Also the boxes
    those words fill, so that they are read once."""
    boxes = [c for row in ruled.rows for c in row.cells if c is not None]

    def loose(w: dict) -> bool:
        x, y = (w["x0"] + w["x1"]) / 2, (w["top"] + w["bottom"]) / 2
        return not any(x0 <= x <= x1 and top <= y <= bottom for x0, top, x1, bottom in boxes)

    free = [w for w in words if loose(w)]
    filled: list[tuple[float, float, float, float]] = []
    out = [list(row) for row in rows]
    for r, row in enumerate(ruled.rows):
        _, top, _, bottom = row.bbox
        for k, cell in enumerate(row.cells):
            if cell is not None or k >= len(ruled.columns) or r >= len(out) or k >= len(out[r]):
                continue
            x0, _, x1, _ = ruled.columns[k].bbox
            mine = [w for w in free if x0 <= (w["x0"] + w["x1"]) / 2 <= x1 and top <= (w["top"] + w["bottom"]) / 2 <= bottom]
            if mine:
                out[r][k] = " ".join(w["text"] for w in sorted(mine, key=lambda w: (w["top"], w["x0"])))
                filled.append((x0, top, x1, bottom))
    return out, filled


def _merged_down(ruled, rows: list[list[str | None]]) -> list[list[str | None]]:  # type: ignore[no-untyped-def]
    """The rows with a label merged down over several of them ("COHS" over the counties of its
    plans, "Partnership Health Plan of CA" over five counties) in each row it spans, as a word
    processor shows such a cell in every row: a row of figures with no cell of its own in a
    column takes the words of the cell above that reaches down over it in that column alone."""
    out = [list(row) for row in rows]
    drawn = ruled.rows
    for r in range(1, min(len(drawn), len(out))):
        if not any(_figure(c or "") for c in out[r]):
            continue
        _, top, _, _ = drawn[r].bbox
        for k, cell in enumerate(drawn[r].cells):
            if cell is not None or k >= len(out[r]) or out[r][k]:
                continue
            above = next((j for j in range(r - 1, -1, -1) if k < len(drawn[j].cells) and drawn[j].cells[k] is not None), None)
            if above is None:
                continue
            bottom = drawn[above].cells[k][3]
            alone = k + 1 >= len(drawn[above].cells) or drawn[above].cells[k + 1] is not None  # merged across none
            label = out[above][k] or ""
            if bottom > top + 1 and alone and label.strip() and not _figure(label):
                out[r][k] = label
    return out


def _words_whole(ruled, rows: list[list[str | None]], chars: list[dict]) -> list[list[str | None]]:  # type: ignore[no-untyped-def]
    """The rows with each word a rule cuts kept whole in the cell that holds most of it: a label
    running past its cell's rule ("Total due (PLN)" over the amount's cell) read ")" into the
    next cell, since pdfplumber places each glyph by its middle. Only a fragment that opens or
    closes its cell's text moves."""
    out = [list(row) for row in rows]
    drawn, box = ruled.rows, ruled.bbox  # pdfplumber works them out anew at each use
    edges = sorted({round(c[2], 1) for row in drawn for c in row.cells if c is not None})
    runs = [
        run for run in glyph_runs([c for c in chars if c["text"].strip() and _in_box(c, box)], lambda c: WORD_GAP * c["size"])
        if any(run[0]["x0"] < edge < run[-1]["x1"] for edge in edges)  # only words a rule crosses
    ]
    for run in runs:
        middle = (run[0]["top"] + run[0]["bottom"]) / 2
        r = next((r for r, row in enumerate(drawn) if row.bbox[1] <= middle <= row.bbox[3]), None)
        if r is None or r >= len(out):
            continue
        cells = [(k, c) for k, c in enumerate(drawn[r].cells) if c is not None and k < len(out[r])]
        for (k, left), (j, right) in zip(cells, cells[1:]):
            edge = left[2]
            if abs(right[0] - edge) > 0.5 or not run[0]["x0"] < edge < run[-1]["x1"]:
                continue
            before = "".join(c["text"] for c in run if (c["x0"] + c["x1"]) / 2 < edge)
            after = "".join(c["text"] for c in run if (c["x0"] + c["x1"]) / 2 >= edge)
            a, b = out[r][k] or "", out[r][j] or ""
            if not before or not after:
                continue
            if len(after) < len(before) and b.startswith(after) and a.rstrip().endswith(before):
                out[r][k], out[r][j] = a.rstrip() + after, b[len(after):].lstrip()
            elif len(before) < len(after) and a.rstrip().endswith(before) and b.startswith(after):
                out[r][k], out[r][j] = a.rstrip()[: -len(before)].rstrip(), before + b
    return out


def _widened(page, ruled, reach: tuple[float, float]):  # type: ignore[no-untyped-def]
    """The ruled table found again with its outer frame where its rows run (``reach``): the
    columns outside its vertical rules become cells of their own. None when it is not found so."""
    _, top, _, bottom = ruled.bbox
    area = page.crop((max(reach[0] - 1, page.bbox[0]), max(top - 1, page.bbox[1]),
                      min(reach[1] + 1, page.bbox[2]), min(bottom + 1, page.bbox[3])))
    found = area.find_tables({"explicit_vertical_lines": [reach[0], reach[1]]})
    if len(found) != 1 or len(found[0].columns) <= len(ruled.columns):
        return None
    return found[0]


HEADER_ROWS = 6  # a ruled header is drawn on at most this many rows


def _ruled_header(  # type: ignore[no-untyped-def]
    ruled, rows: list[list[str | None]]
) -> tuple[list[list[str | None]], list[list[str]]]:
    """A ruled table's rows with a header drawn over several rows read as one row of names: the
    header is the rows above the first two rows (or last one) filling all columns but one, none
    of them holding a figure; each column is named by the cells over it top to bottom, a cell
    spanning several columns ("Literacy Status" over "Illiterate … College") naming each. A
    cell spanning the whole table is a title and stays a row of its own above. The rows as they
    are when the header is one row. With the rows, the header's rows as printed (none when it
    is one row or has a title row)."""
    width = max((len(row) for row in rows), default=0)
    # columns no row fills (a spacer between groups of columns) need no name
    empty = {k for k in range(width) if not any(k < len(row) and row[k] and row[k].strip() for row in rows)}
    need = max(2, width - len(empty) - 1)

    def filled(row: list[str | None]) -> int:
        return sum(1 for cell in row if cell and cell.strip())

    def figures(row: list[str | None]) -> bool:
        """Whether a row holds a figure; a row of years over the columns names them."""
        return not _years_of([c for c in row if c and c.strip()]) and any(_figure(c or "") for c in row)

    def numbering(row: list[str | None]) -> bool:
        return _counts_up([c for c in row if c and c.strip()])

    # names over every column ("Total | Rural | Urban") and the row numbering the columns under
    # them are the header's: the body starts below the numbers
    body = next(
        (r for r in range(min(len(rows), HEADER_ROWS + 1))
         if filled(rows[r]) >= need and (r + 1 == len(rows) or filled(rows[r + 1]) >= need and not numbering(rows[r + 1]))
         and not numbering(rows[r])),
        None,
    )
    if body is not None and 1 <= body and body + 1 < len(rows) and not figures(rows[body]) \
            and figures(rows[body + 1]) and any(filled(row) for row in rows[:body]):
        # names over every column under a line of group labels ("GPS Coordinates" over "Northing |
        # Easting"), figures below: the names are the header's last line, the body starts under them
        body += 1
    if body is None:
        # a body whose columns are mostly empty (votes in a few of many columns): it starts at
        # the first row holding a figure, every row below that is not blank holding one
        with_figure = [figures(row) for row in rows]
        first = next((r for r, has in enumerate(with_figure) if has), None)
        if first is not None and 2 <= first <= HEADER_ROWS and all(
            has or not filled(row) for has, row in zip(with_figure[first:], rows[first:])
        ) and sum(with_figure) >= 2:
            body = first
    if width < 3 or body is None or body < 2 or any(figures(row) for row in rows[:body] if not numbering(row)):
        return rows, []
    spans = [[c for c in ruled.rows[r].cells] for r in range(len(rows))]
    # each column's middle on the body's first row (a spacer column may be merged into its neighbour there)
    middles = [(k, (cell[0] + cell[2]) / 2) for k, cell in enumerate(spans[body]) if cell is not None]
    if any(cell is None for k, cell in enumerate(spans[body]) if k not in empty) or len(spans[body]) != width:
        return rows, []
    titles: list[list[str | None]] = []
    printed: list[list[str]] = []
    parts: list[list[str]] = [[] for _ in range(width)]
    # rows above the header's first line of names whose one cell stands over the labels' column
    # are titles ("Table 1. Overview of …" in a cell over the first columns)
    leading = next((r for r in range(body) if any(c and c.strip() for c in rows[r][1:])), body)
    for r in range(body):
        if r < leading:
            text = " ".join((rows[r][0] or "").split())
            if text:
                titles.append([text] + [""] * (width - 1))
            continue
        if numbering(rows[r]):
            # the numbers of the columns name none; they stay in the page's text, a line of the table's title
            titles.append([" ".join(c.strip() for c in rows[r] if c and c.strip())] + [""] * (width - 1))
            continue
        line = [""] * width
        for k, cell in enumerate(spans[r]):
            text = " ".join((rows[r][k] or "").split())
            if cell is None or not text:
                continue
            under = [j for j, m in middles if cell[0] <= m <= cell[2]] or [k]
            if len(under) == len(middles):
                titles.append([text] + [""] * (width - 1))
                continue
            line[k] = text
            for j in under:
                if j not in empty:
                    parts[j].append(text)
        if any(line):
            printed.append(line)
    names: list[str | None] = [" ".join(p) for p in parts]
    if sum(1 for name in names if name) < 2:
        return rows, []
    return [*titles, names, *rows[body:]], [] if titles else printed
