"""One page read: its ruled tables, the words set across its lines, its lines of text and
unruled tables (in blocks side by side or not), in reading order, tables titled."""

from __future__ import annotations

import math

import pdfplumber

from core.reading import Table
from tools.parsing.pdf.blocks import _join_blocks, _side_by_side
from tools.parsing.pdf.columns import _Column
from tools.parsing.pdf.groups import groups_over_frame, header_over_frame
from tools.parsing.pdf.lines import _inside, _lines
from tools.parsing.pdf.reading import _Found, _in_reading_order, _read_lines, _title_tables
from tools.parsing.pdf.rows import numbered, numbered_labels, signed, unstacked
from tools.parsing.pdf.ruled import (
    _labels_left,
    _merged_down,
    _open_cells,
    _ruled_header,
    _rows_run_past_cells,
    _rules_merge_columns,
    _rules_merge_rows,
    _widened,
    rules_to_read,
    without_hidden_fills,
    _words_whole,
)
from tools.parsing.pdf.text_columns import _in_columns
from tools.parsing.pdf.words import WORD_GAP, with_sideways_cells
from tools.parsing.text import make_table, table_lines


def _read_page(
    page: pdfplumber.page.Page, number: int, carried: list[_Column] | None, words: list[dict], chars: list[dict],
    *, rules: bool = True,
) -> tuple[str, list[Table], list[_Column] | None]:
    """The page text, its tables, and the column layout the next page may continue; ``words``
    and ``chars`` are the page's words (its text layer) and glyphs, as it is read. A page
    printed sideways (``rules`` False) is read from its words alone: its rules run the other way."""
    found: list[_Found] = []
    boxes = []
    cells: list[tuple[float, float, float, float]] = []
    drawn = without_hidden_fills(page) if rules and rules_to_read(page.edges) else None
    for ruled in drawn.find_tables() if drawn is not None else []:
        reach = _rows_run_past_cells(ruled, words)
        if reach is not None and (wider := _widened(drawn, ruled, reach)) is not None:
            ruled = wider
        read = _merged_down(ruled, _words_whole(ruled, with_sideways_cells(ruled, ruled.extract(x_tolerance_ratio=WORD_GAP)), chars))
        if all(sum(cell is not None for cell in row) <= 1 for row in read):
            continue  # a framed title or paragraph: each of its rows one cell across the frame
        cut, opened = _open_cells(ruled, read, words)
        extracted, printed = _ruled_header(ruled, cut)
        columns = [_Column(k, col.bbox[0], col.bbox[2]) for k, col in enumerate(ruled.columns)]
        header_words: list[dict] = []
        if len(extracted) >= 2 and len(columns) == len(extracted[0]):
            first, second = ([c or "" for c in row] for row in extracted[:2])
            if (above := header_over_frame(ruled.bbox, columns, first, second, words, chars)) is not None:
                # the frame's rows have no header: the one printed right above it is theirs
                names, printed, header_words = above
                extracted = [names, *extracted]
        labels = _labels_left(ruled, words)
        if labels is not None:
            # row labels left of the frame are the table's first column; a header drawn over
            # several rows is one row now, and the rows under it are the rows they were
            shift = len(cut) - len(extracted)
            labels = [labels[i + shift] if i + shift >= 0 else None for i in range(len(extracted))]
            extracted = [[label[0] if label else "", *row] for label, row in zip(labels, extracted)]
            # the labels' column is named on the header's last line, as its name joins it
            printed = [["", *line] for line in printed]
            if printed:
                printed[-1][0] = extracted[0][0]
        table = make_table(number, extracted, printed=printed)
        # a box around a paragraph is no table; a lone ruled row is read from its words below
        if table is None or not table.rows or len(table.header) < 2:
            continue
        if _rules_merge_rows(extracted) or _rules_merge_columns(ruled, [w for w in words if _inside(w, [ruled.bbox])], chars):
            continue  # its rows are read from the words' alignment below, like an unruled table
        boxes.append(ruled.bbox)
        cells.extend(cell for row in ruled.rows for cell in row.cells if cell is not None)
        header_boxes = [(w["x0"], w["top"], w["x1"], w["bottom"]) for w in header_words]
        boxes.extend(header_boxes)
        cells.extend(header_boxes)
        cells.extend(opened)
        if labels is not None:
            label_boxes = [box for label in labels if label for _, box in [label]]
            boxes.extend(label_boxes)
            cells.extend(label_boxes)
            left = min(box[0] for box in label_boxes)
            columns = [_Column(-1, left, ruled.bbox[0]), *columns]
        over = groups_over_frame(ruled.bbox, columns, words, chars) if len(columns) == len(table.header) else None
        if over is not None:
            # labels over groups of its columns, printed above the frame, name each column under them
            groups, label_words = over
            table.header = [f"{groups[c.key]} {name}".strip() if c.key in groups else name for c, name in zip(columns, table.header)]
            label_boxes = [(w["x0"], w["top"], w["x1"], w["bottom"]) for w in label_words]
            boxes.extend(label_boxes)
            cells.extend(label_boxes)
        found.append(_Found(ruled.bbox[1], table_lines(table), table, columns))
    # words printed across the lines (a page number set sideways in the margin) stand apart
    upright = sum(1 for w in words if w.get("upright", True)) * 2 >= len(words)
    across = [w for w in words if w.get("upright", True) != upright and not _inside(w, boxes)]
    found.extend(_Found(w["top"], [w["text"]]) for w in across)
    # words inside a table's frame but in none of its cells (a column its rules leave open) are
    # lines of their own where they stand
    loose = [w for w in words if _inside(w, boxes) and not _inside(w, cells) and w.get("upright", True) == upright]
    found.extend(_Found(line.top, [line.text]) for line in _lines(loose, chars))
    lines = _lines((w for w in words if not _inside(w, boxes) and w.get("upright", True) == upright), chars)
    # a layout carried from the previous page can only continue above this page's first table
    carry_until = min((box[1] for box in boxes), default=math.inf)
    prose = _in_columns(lines, chars)
    if prose is not None:
        # a page set in columns of prose reads one column after the other
        read = [
            f for k, part in enumerate(prose) for f in _read_lines(part, number, carried if k == 0 else None, carry_until)[0]
        ]
    else:
        read, _ = _read_lines(lines, number, carried, carry_until)
    blocks = None if prose is not None else _side_by_side(lines)
    if blocks is not None:
        # a table printed in blocks side by side, each under the same header: the blocks are
        # read one after the other, their rows one table
        above, parts, below = blocks
        bands = [
            _read_lines(part, number, carried if k == 0 else None, carry_until)[0]
            for k, part in enumerate([above, *parts, below])
        ]
        if _join_blocks(bands[1:-1]):
            read = [f for band in bands for f in band]
    found.sort(key=lambda f: f.top)
    found = _in_reading_order(found, read)
    _title_tables(found)
    tables = [signed(numbered_labels(numbered(unstacked(f.table)))) for f in found if f.table is not None]
    last = next((f.columns for f in reversed(found) if f.table is not None), None)
    return "\n".join(line for f in found for line in f.lines), tables, last
