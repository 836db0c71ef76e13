"""A table's header found from its body up: the block of lines above the first of the rows that
fill the columns consistently, each column named by the words standing over it on every line
of the block, a label centred over a group of columns naming each of them."""

from __future__ import annotations

import re

from tools.parsing.pdf.columns import _Column, _distance, _place, _printed
from tools.parsing.pdf.lines import _counts_up, _far, _figure, _framed, _Line, _Segment, _years
from tools.parsing.pdf.rows import _record
from tools.parsing.pdf.unruled import _grow, _Grown

HEADER_BLOCK = 6  # a header is printed on at most this many lines
HEADER_WORDS = 4  # a line of a header holds at most this many words in one cell (more is a title)
HEADER_GAP = 4.0  # names over every column may stand this many lines' heights above the rows
HEADER_APART = 1.0  # a header line of several cells may stand this many line heights above tight rows
WRAPPED = 1.0  # points: a name wrapped onto the next line starts this close to where it started
CENTRED = 0.5  # a group label's centre lies within this share of its line's height of its columns'
LEVEL = 0.6  # the names under a group label stand level: their middles within this share of a line's height
_DASHES = ("–", "-")  # a name broken after one of these goes on below ("$10,000–" over "14,999")
RUN_CENTRED = 0.05  # a label between two group labels is centred over the columns between them within this share of their width


def _body_start(lines: list[_Line], start: int, end: int, columns: list[_Column]) -> int | None:
    """The first line of the body of the table on lines ``start`` to ``end``: a row filling all
    columns but one (see ``_record``) right over another such row, or the table's last row. In
    a table of figures, a line without one is no row of its body when it is the line the table
    was read from, or leaves empty the first column the next row of figures fills (names set
    over the figures, right of the rows' labels: "Total  White  Black" under "Offense charged")."""
    for j in range(start, min(end, start + HEADER_BLOCK + 1)):
        if _numbers_columns(lines[j]):
            continue  # the line numbering the columns under their names is the header's
        if j > 0 and _goes_on(lines[j - 1], lines[j]):
            continue  # a name broken after a range's dash goes on in the line below ("$10,000–" over "14,999")
        if not any(_figure(s.text) for s in lines[j].segments) or _years(lines[j]):
            # a line of names, or of years ("2009  2010  2009  2010" under "Fused aluminum oxide
            # Silicon carbide"), right of the rows' labels is the header's
            row = next((line for line in lines[j + 1 : end] if any(_figure(s.text) for s in line.segments)), None)
            if row is not None and (j == start and not _years(lines[j]) or lines[j].segments[0].x0 >= row.segments[0].x1
                                    or _words_over_figures(lines[j], row)):
                continue
        record = _record(lines, j, columns, strict=True)
        if record is None:
            continue
        after = record[2]
        if after >= end or _far(lines[after - 1], lines[after]) or _record(lines, after, record[1], strict=True):
            return j
        if after + 1 < end and _label_line(lines[after], lines[j]) and _record(lines, after + 1, record[1], strict=True):
            return j  # the next row's label printed over two lines ("Murder and nonnegligent" over "manslaughter")
    return None


def _words_over_figures(line: _Line, row: _Line) -> bool:
    """Whether a line of words stands over the figures of the row below, a word over each of
    them (three or more): names of the columns ("original sample | sample | participated"),
    not a row of a table of figures."""
    figures = [s for s in row.segments if _figure(s.text)]
    return len(figures) >= 3 and all(any(ch.isalpha() for ch in s.text) for s in line.segments) and all(
        any(min(f.x1, s.x1) > max(f.x0, s.x0) for s in line.segments) for f in figures)


def _goes_on(line: _Line, below: _Line) -> bool:
    """Whether a header line of several cells holds a name broken after a dash ("$10,000–"),
    the line below holding its end in a cell under it."""
    return len(line.segments) >= 2 and any(
        seg.text.endswith(_DASHES) and len(seg.text) > 1
        and any(min(seg.x1, t.x1) > max(seg.x0, t.x0) for t in below.segments)
        for seg in line.segments)


def _label_line(line: _Line, row: _Line) -> bool:
    """Whether ``line`` is the first line of a row's label: one cell of words, no figure,
    starting in the column of the labels of ``row`` (left of its first figure)."""
    if len(line.segments) != 1 or _figure(line.segments[0].text):
        return False
    first_figure = next((s.x0 for s in row.segments if _figure(s.text)), None)
    return first_figure is not None and line.segments[0].x1 < first_figure


def _header_line(line: _Line, below: _Line, left: float, right: float, spacing: float, above: bool) -> bool:
    """Whether ``line`` can be a line of the header over ``below``: set no farther from it than
    the body's rows are from each other, within the table's width, in short cells (a title runs
    longer); a line above the table as it was first read also holds no figure."""
    height = line.bottom - line.top
    # names of two columns or more may stand a line's height above tight rows; one cell (a title),
    # a year or a unit in brackets ("Budget 2014-2015  (In crores of Rupees)") may not
    named = len(line.segments) >= 2 and not any(
        any(ch.isdigit() for ch in s.text) or s.text.strip().startswith("(") for s in line.segments)
    apart = HEADER_APART if named else 0.5
    if below.top - line.bottom > max(spacing, apart * height) + 1:
        return False
    first, last = line.segments[0], line.segments[-1]
    if (first.x0 + first.x1) / 2 < left - height or (last.x0 + last.x1) / 2 > right + height:
        return False  # a name centred over a narrow first or last column stands out past it ("Entidad" over "01")
    if any(len(s.text.split()) > HEADER_WORDS for s in line.segments):
        return False
    return not (above and any(_figure(s.text) for s in line.segments) and not _years(line))


def _header_top(lines: list[_Line], body: int, first: int, floor: int, columns: list[_Column], spacing: float) -> int | None:
    """The first line of the header block over line ``body``: the table's own lines from
    ``first`` (all of them, else None) and lines of text above them down to ``floor``: over a
    first row of figures, any that fit; over a header read with the table, lines of two cells
    or more."""
    left, right = min(c.x0 for c in columns), max(c.x1 for c in columns)
    top = body
    while top > max(floor, body - HEADER_BLOCK):
        line = lines[top - 1]
        if top == body and top - 1 < first and (_section(line, lines[body]) or _framed(line.text)) and top - 1 > floor:
            top -= 1  # a section's label over the first rows ("Year Ended December 31, 2022"), outdented
            continue
        if top - 1 < first:
            # a section's label opening the body ("Outlays:") may stand a section's break below the header
            gap = 2 * spacing if _announces(lines[top]) or _section(lines[top], lines[body]) else spacing
            if top == body and _names_columns(line, columns):
                gap = max(gap, HEADER_GAP * (line.bottom - line.top))  # names over every column, set apart from the rows
            if not _header_line(line, lines[top], left, right, gap, True):
                break
            if body > first and len(line.segments) < 2 and not _over_a_name(line, lines[top]) \
                    and not _labels_name(line, columns, lines[top - 2] if top >= 2 else None):
                break
        elif any(_name_words(s.text) > HEADER_WORDS for s in line.segments):
            return None
        top -= 1
    return top if top <= first else None


def _name_words(text: str) -> int:
    """The words of a header cell that are no figures: names set close together over figures
    ("Less than $10,000– $15,000– $30,000–") count their words, not their bounds."""
    return sum(1 for word in text.split() if not any(ch.isdigit() for ch in word))


def _names_columns(line: _Line, columns: list[_Column]) -> bool:
    """Whether a line is names standing over the columns: three cells or more, none a figure, each
    over a column of its own, the first over the first column (a title or a note spans the table
    or stands apart from its columns)."""
    if len(line.segments) < 3 or any(_figure(s.text) for s in line.segments):
        return False
    owners = []
    for seg in line.segments:
        over = [k for k, c in enumerate(columns) if min(seg.x1, c.x1) > max(seg.x0, c.x0)]
        if len(over) != 1:
            return False
        owners.append(over[0])
    return owners[0] == 0 and len(set(owners)) == len(owners)


def _over_a_name(line: _Line, below: _Line) -> bool:
    """Whether a line of one cell is the first word of a name printed over several lines: it
    stands wholly over one cell of the header line below it, not the first ("American" over
    "Indian/Alaskan"), where a title starts at the labels or runs across the table."""
    (seg,) = line.segments
    height = line.bottom - line.top
    return any(seg.x0 >= cell.x0 - height and seg.x1 <= cell.x1 + height for cell in below.segments[1:])


def _apart(line: _Line, owners: list[int], runs: list[range], extent: list[list[float]]) -> list[range]:
    """The runs of the line's cells parted where two of them reach over one column ("2007 …
    2003" each centred over its "n | % Pos", a wider run centred alike reaching into the
    neighbours'): a column shared goes with the cell whose centre is nearest its own, each cell
    keeping its own column. The runs as they are when none overlap."""
    taken = [j for run in runs for j in run]
    if len(taken) == len(set(taken)):
        return runs
    centres = [(seg.x0 + seg.x1) / 2 for seg in line.segments]

    def nearest(j: int) -> int:
        middle = (extent[j][0] + extent[j][1]) / 2
        return min(range(len(centres)), key=lambda n: abs(centres[n] - middle))

    parted = []
    for n, (run, k) in enumerate(zip(runs, owners)):
        own = [j for j in run if j == k or nearest(j) == n]
        lo, hi = k, k
        while lo - 1 in own:
            lo -= 1
        while hi + 1 in own:
            hi += 1
        parted.append(range(lo, hi + 1) if k in run else run)
    return parted


def _labels_name(line: _Line, columns: list[_Column], above: _Line | None) -> bool:
    """Whether a line of one short cell names the rows' labels: it stands over the first column,
    between header lines of several cells ("Country" set beside "Sample unit | Sample size",
    under "2007 … 2003"), where a title would run on."""
    (seg,) = line.segments
    height = line.bottom - line.top
    first = columns[0]
    return len(seg.text.split()) <= 2 and seg.x0 >= first.x0 - height and seg.x1 <= first.x1 + height \
        and above is not None and len(above.segments) >= 2


def _names(block: list[_Line], columns: list[_Column], numbering: frozenset[int] = frozenset()) -> list[str]:
    """Each column's name: the cells of the header lines (``_regrouped``) over it, top to bottom. A cell stands
    over the column it overlaps most (the nearest one); a label centred over a run of columns
    whose names stand wholly below it, level with each other, names each of them ("Literacy
    Status" over "Illiterate … College"). Lines are read from the lowest up, so a label over a
    group's label names the group's columns too. The lines ``numbering`` the columns name none."""
    base = [[min(range(len(columns)), key=lambda k: _distance(s, columns[k].x0, columns[k].x1)) for s in line.segments] for line in block]
    # a column's reach under each line: its body and the header's cells under that line
    extents: list[list[list[float]]] = []
    extent = [[c.x0, c.x1] for c in columns]
    # and the reach of the names alone under each line: a label centred over years set narrower
    # than the figures under them ("Fused aluminum oxide" over "2009  2010")
    named_extents: list[list[list[float] | None]] = []
    named: list[list[float] | None] = [None for _ in columns]
    for line, owners in reversed(list(zip(block, base))):
        extents.insert(0, [list(e) for e in extent])
        named_extents.insert(0, [list(e) if e else None for e in named])
        for s, k in zip(line.segments, owners):
            # a label reaching over a neighbour's body is no measure of its own column
            if not any(j != k and min(s.x1, c.x1) > max(s.x0, c.x0) for j, c in enumerate(columns)):
                extent[k] = [min(extent[k][0], s.x0), max(extent[k][1], s.x1)]
                named[k] = [min(named[k][0], s.x0), max(named[k][1], s.x1)] if named[k] else [s.x0, s.x1]
    parts: list[list[tuple[int, float, str]]] = [[] for _ in columns]
    spans: list[tuple[float, float] | None] = [None] * len(columns)  # the header's height over each column so far
    for n in range(len(block) - 1, -1, -1):
        if n in numbering:
            continue  # numbers under every column are no names a label over them could group
        line, owners = block[n], base[n]
        claimed = set(owners)
        # a name wrapped onto the next line, set flush left under itself ("Total Plan &" over
        # "Non-Plan"), names its own column only
        wrapped = {m for m, (s, k) in enumerate(zip(line.segments, owners))
                   if n + 1 < len(block) and _wraps_onto(s, k, block[n + 1], base[n + 1])}
        runs = [range(k, k + 1) if m in wrapped else _group(s, k, line, extents[n], claimed, spans, named_extents[n])
                for m, (s, k) in enumerate(zip(line.segments, owners))]
        runs = _repeated_groups(line, owners, runs, extents[n], claimed, spans, wrapped)
        runs = _between_groups(line, owners, runs, extents[n], claimed, spans, wrapped)
        runs = _apart(line, owners, runs, extents[n])
        for s, run in zip(line.segments, runs):
            for j in run:
                parts[j].append((n, s.x0, s.text))
                top, bottom = spans[j] or (line.top, line.bottom)
                spans[j] = (min(top, line.top), max(bottom, line.bottom))
    return [" ".join(text for _, _, text in sorted(p)) for p in parts]


def _wraps_onto(seg: _Segment, k: int, below: _Line, owners: list[int]) -> bool:
    """Whether a cell over column ``k`` goes on in the cell under it over the same column, starting
    where it starts, or ending where it ends in a header set flush right ("Schools" over "in
    original"); a label centred over a group starts and ends elsewhere than the names under it."""
    return any(
        j == k and (abs(t.x0 - seg.x0) <= WRAPPED) != (abs(t.x1 - seg.x1) <= WRAPPED)
        for t, j in zip(below.segments, owners))


def _regrouped(block: list[_Line], columns: list[_Column]) -> list[_Line]:
    """The header's lines with their cells as they name columns: the lowest line's cells one
    over each column (``_one_name_each``), each line above's cells over one cell below joined
    (``_joined_over``)."""
    regrouped = [_one_name_each(block[-1], columns)]
    for line in reversed(block[:-1]):
        regrouped.insert(0, _joined_over(_ranges_apart(line, columns), regrouped[0]))
    return regrouped


def _ranges_apart(line: _Line, columns: list[_Column]) -> _Line:
    """A header line whose cell runs over several columns in names broken after a range's dash
    ("Less than $10,000– $15,000– $30,000–" over "$10,000 | 14,999 | 29,999 | 54,999"), each run
    of words over a column of its own: the runs part, a dash on one side of every break."""
    out: list[_Segment] = []
    for seg in line.segments:
        parts = _parts(seg, line, columns, nearest=True) if any(w.endswith(_DASHES) for w in seg.text.split()) else None
        if parts and len(parts) >= 2 and all(
            a.text.endswith(_DASHES) or b.text.endswith(_DASHES) for (_, a), (_, b) in zip(parts, parts[1:])
        ):
            out.extend(part for _, part in parts)
        else:
            out.append(seg)
    return _with_segments(line, out)


def _joined_over(line: _Line, below: _Line) -> _Line:
    """A header line whose neighbouring cells, at most a line's height apart, stand over one cell
    of the line below, centred under the two, as one cell: a label printed with a wide gap in it
    ("Fasting  Blood Sugar" over "(No. of adults:"); labels of columns of their own stand farther
    apart."""
    height = line.bottom - line.top
    tol = CENTRED * height
    out = list(line.segments)
    n = 0
    while n + 1 < len(out):
        a, b = out[n], out[n + 1]
        if b.x0 - a.x1 <= height and any(
            c.x0 < a.x1 and c.x1 > b.x0 and abs((c.x0 + c.x1) - (a.x0 + b.x1)) / 2 <= tol for c in below.segments
        ):
            out[n : n + 2] = [_Segment(a.x0, b.x1, f"{a.text} {b.text}")]
        else:
            n += 1
    return _with_segments(line, out)


def _with_segments(line: _Line, segments: list[_Segment]) -> _Line:
    if len(segments) == len(line.segments):
        return line
    return _Line(line.top, line.bottom, line.words, line.space, grouped=segments)


def _one_name_each(line: _Line, columns: list[_Column]) -> _Line:
    """The header's lowest line with each cell over one column: a cell reaching over several
    columns no other cell of the line reaches, whose words stand one run over each of them in
    turn, is their names set too close to part ("method sterilization sterilization" over
    "Any modern method | Female | Male"); it is split between them."""
    overlaps = [[k for k, c in enumerate(columns) if min(s.x1, c.x1) > max(s.x0, c.x0)] for s in line.segments]
    out: list[_Segment] = []
    for n, seg in enumerate(line.segments):
        others = {k for m, ks in enumerate(overlaps) if m != n for k in ks}
        parts = _parts(seg, line, columns) if len(overlaps[n]) >= 2 and not others & set(overlaps[n]) else None
        out.extend(parts if parts is not None and [k for k, _ in parts] == overlaps[n] else [(0, seg)])
    return _with_segments(line, [seg for _, seg in out])


def _parts(seg: _Segment, line: _Line, columns: list[_Column], nearest: bool = False) -> list[tuple[int, _Segment]] | None:
    """The cell's words in runs, each run over the one column its words overlap most (or, with
    ``nearest``, stand nearest), in order; None when a word overlaps no column (without
    ``nearest``) or the order goes back."""
    parts: list[tuple[int, _Segment]] = []
    for w in line.words:
        if not seg.x0 <= (w["x0"] + w["x1"]) / 2 <= seg.x1:
            continue
        word = _Segment(w["x0"], w["x1"], w["text"])
        if nearest:
            k = min(range(len(columns)), key=lambda j: _distance(word, columns[j].x0, columns[j].x1))
        else:
            k = max(range(len(columns)), key=lambda j: min(w["x1"], columns[j].x1) - max(w["x0"], columns[j].x0))
            if min(w["x1"], columns[k].x1) <= max(w["x0"], columns[k].x0):
                return None
        if parts and parts[-1][0] == k:
            last = parts[-1][1]
            parts[-1] = (k, _Segment(last.x0, w["x1"], f"{last.text} {w['text']}"))
        elif parts and parts[-1][0] > k:
            return None
        else:
            parts.append((k, word))
    return parts


def _repeated_groups(
    line: _Line, owners: list[int], runs: list[range], extent: list[list[float]], claimed: set[int],
    spans: list[tuple[float, float] | None], wrapped: set[int],
) -> list[range]:
    """The runs of the line's cells, where two or more of them are each centred over the middle
    column of a run of the same odd length (three or more) of columns named wholly below them
    ("Total", "Male", "Female" each over "Total | Under 18 years | 18 years and over"): each
    names its run. A label centred over one column of such a run is otherwise told from a group
    label by a gap under its centre, which an odd run has not; the repetition tells them apart."""
    centres = [(seg.x0 + seg.x1) / 2 for seg in line.segments]
    # each column goes with the cell of the line whose centre is nearest to its own
    free = [n for n in range(len(centres)) if n not in wrapped] or list(range(len(centres)))
    nearest = [min(free, key=lambda n: abs((e[0] + e[1]) / 2 - centres[n])) for e in extent]
    found: dict[int, range] = {}
    for n, k in enumerate(owners):
        if len(runs[n]) > 1 or n in wrapped:
            continue
        half = 0
        while (
            k - half - 1 >= 0 and k + half + 1 < len(extent)
            and all(nearest[j] == n and _under(j, k, line, claimed, spans) for j in (k - half - 1, k + half + 1))
        ):
            half += 1
        run = range(k - half, k + half + 1)
        # centred over its run within half its own column's width
        if half and abs((extent[run.start][0] + extent[run.stop - 1][1]) / 2 - centres[n]) <= (extent[k][1] - extent[k][0]) / 2:
            found[n] = run
    lengths = [len(run) for run in found.values()]
    repeated = {length for length in lengths if lengths.count(length) >= 2}
    groups = {n: run for n, run in found.items() if len(run) in repeated}
    taken = [j for run in groups.values() for j in run]
    if len(taken) != len(set(taken)):
        return runs  # runs that overlap are no groups side by side
    return [groups.get(n, run) for n, run in enumerate(runs)]


def _between_groups(
    line: _Line, owners: list[int], runs: list[range], extent: list[list[float]], claimed: set[int],
    spans: list[tuple[float, float] | None], wrapped: set[int],
) -> list[range]:
    """A cell over one column between two group labels of its line, the columns between their
    groups named wholly below it, level with its own, and it centred over them within a share of
    their width ("Economy 7" over "Unit Rate Day | Unit Rate Night | Standing Charge", between
    "Standard" and "Gas" over two columns each): it names each of those columns."""
    found = list(runs)
    for m, (run, k) in enumerate(zip(runs, owners)):
        if len(run) > 1 or m in wrapped:
            continue
        left = [r for r in runs if len(r) > 1 and r.stop <= k]
        right = [r for r in runs if len(r) > 1 and r.start > k]
        if not left or not right:
            continue
        first, last = max(r.stop for r in left), min(r.start for r in right) - 1
        between = range(first, last + 1)
        if len(between) < 2 or any(j != k and not _under(j, k, line, claimed, spans) for j in between):
            continue
        seg = line.segments[m]
        if abs((extent[first][0] + extent[last][1]) / 2 - (seg.x0 + seg.x1) / 2) <= RUN_CENTRED * (extent[last][1] - extent[first][0]):
            found[m] = between
    return found


def _under(j: int, k: int, line: _Line, claimed: set[int], spans: list[tuple[float, float] | None]) -> bool:
    """Whether column ``j``'s name stands wholly below ``line``, level with column ``k``'s, and no
    cell of the line stands over it."""
    tol = CENTRED * (line.bottom - line.top)
    own, span = spans[k], spans[j]
    if j in claimed or span is None or own is None or span[0] < line.bottom - tol or own[0] < line.bottom - tol:
        return False
    reach = LEVEL * (line.bottom - line.top)
    return abs((span[0] + span[1]) / 2 - (own[0] + own[1]) / 2) <= reach or abs(span[1] - own[1]) <= reach


def _group(
    seg: _Segment, k: int, line: _Line, extent: list[list[float]], claimed: set[int], spans: list[tuple[float, float] | None],
    names: list[list[float] | None] | None = None,
) -> range:
    """The columns a cell over column ``k`` names: ``k`` alone, or the widest run around it of
    columns not taken on its line whose names stand wholly below it, level with those under it
    over ``k``, the run centred under it (its columns, or the names under it alone: ``names``)
    with a gap between two of its columns under its centre or reaching over the names of its
    first and last columns, not past them ("Traditional method" over "Rhythm | With- drawal |
    Folk method")."""
    tol = CENTRED * (line.bottom - line.top)
    own = spans[k]
    if own is None or own[0] < line.bottom - tol:
        return range(k, k + 1)
    level = (own[0] + own[1]) / 2

    def under(j: int) -> bool:
        span = spans[j]
        if j in claimed or span is None or span[0] < line.bottom - tol:
            return False
        # level with the names under the label over ``k``: centred alike, or ending alike
        reach = LEVEL * (line.bottom - line.top)
        return abs((span[0] + span[1]) / 2 - level) <= reach or abs(span[1] - own[1]) <= reach

    lo = k
    while lo > 0 and under(lo - 1):
        lo -= 1
    hi = k
    while hi + 1 < len(extent) and under(hi + 1):
        hi += 1
    centre = (seg.x0 + seg.x1) / 2
    best = range(k, k + 1)
    for a in range(lo, k + 1):
        for z in range(k, hi + 1):
            if z - a + 1 <= len(best):
                continue
            first, last = (names[a], names[z]) if names else (None, None)
            if abs((extent[a][0] + extent[z][1]) / 2 - centre) > tol \
                    and not (first and last and abs((first[0] + last[1]) / 2 - centre) <= tol):
                continue
            # a gap under its centre, or it reaches over the run's first and last names
            reaches = seg.x0 < extent[a][1] and seg.x1 > extent[z][0] and seg.x0 > extent[a][0] - tol and seg.x1 < extent[z][1] + tol
            if reaches or any(extent[j][1] - tol <= centre <= extent[j + 1][0] + tol for j in range(a, z)):
                best = range(a, z + 1)
    return best


def _rebuilt(
    lines: list[_Line], first: int, end: int, columns: list[_Column], floor: int
) -> tuple[int, _Grown] | None:
    """The table read on lines ``first`` to ``end`` with its header found from its body up, and
    the header's first line (``floor`` or below when lines of text above the table are part of
    it); None when the table keeps the header it was read with (one line over its body)."""
    start = _body_start(lines, first, end, columns)
    if start is None:
        return None
    record = _record(lines, start, columns, strict=True)
    after = record[2] if record else start + 1
    spacing = lines[after].top - lines[after - 1].bottom if after < len(lines) else 0.0
    full = start
    while start - 1 > first and _sparse_row(lines[start - 1], lines[full]):
        start -= 1  # "0  39  5.8  10  8.8 …": a row of figures leaving columns empty is the body's
    opens = start
    while start < full and opens - 1 > first and _section(lines[opens - 1], lines[opens]):
        opens -= 1  # "Male" over those rows: the header ends above the section's label
    top = _header_top(lines, opens, first, floor, columns, spacing)
    if top is None:
        return None
    body = start
    while top < body - 1 and (_section(lines[body - 1], lines[body]) or _framed(lines[body - 1].text)):
        body -= 1  # a section's label right over the body, in the labels' column: "Caste/tribe"
    if body - top < 2 and not (start == first and top < body):
        return None
    if start == first and not any(_figure(s.text) for s in lines[start].segments):
        return None  # a table read without a header has figures in its first row
    segments = lines[full].segments
    columns = [_Column(k, s.x0, s.x1) for k, s in enumerate(segments)]
    # a name right of the first row's last cell heads a column that row leaves empty ("Page No."
    # over the demands' pages, none on a ministry's line); one such column, no more
    right = max(s.x1 for line in lines[top:body] for s in line.segments)
    beyond = [s for line in lines[top:body] for s in line.segments if s.x0 > segments[-1].x1 + (line.bottom - line.top)]
    if beyond and right > segments[-1].x1 and all(a.x1 > b.x0 and b.x1 > a.x0 for a in beyond for b in beyond) \
            and not _runs_under(lines[start:end], segments[-1], min(s.x0 for s in beyond)):
        columns.append(_Column(len(columns), min(s.x0 for s in beyond), right))
    grown = _grow(lines, full, columns, None)
    if grown is None or grown.end < end:
        return None
    sparse = [_place(line, grown.columns) for line in lines[start:full]]
    if any(placed is None or placed.overflow for placed in sparse):
        return None
    grown.rows[:0] = [[placed.cells.get(c.key, "") for c in grown.columns] for placed in sparse if placed is not None]
    grown.notes = [(at + len(sparse), text) for at, text in grown.notes]
    block = _regrouped(lines[top:body], grown.columns)
    numbering = _numbering(block)
    names = _names(block, grown.columns, numbering)
    if sum(1 for name in names if name) < 2:
        return None
    labels = [[line.text] + [""] * (len(names) - 1) for line in lines[body:start]]
    grown.rows[:0] = [names, *labels]
    if body - top >= 2:
        grown.printed = _printed([line.segments for line in block], grown.columns)
    grown.notes = [(at + 1 + len(labels), text) for at, text in grown.notes]
    # the numbering stays in the page's text, a line under the header's
    grown.notes[:0] = [(1, "\t".join(s.text for s in block[n].segments)) for n in sorted(numbering)]
    return top, grown


_BRACKETED = re.compile(r"\(\d{1,3}\)")  # "(1)  (2)  (3)": the columns' numbers, no row's figures


def _sparse_row(line: _Line, row: _Line) -> bool:
    """Whether a line right over the first full row of the body is a row of it that leaves some
    columns empty (a control group with no figure relative to itself): figures only, two or
    more, no line of years or of the columns' numbers, each over a cell of the full row."""
    segments = line.segments
    return (
        2 <= len(segments) < len(row.segments) and all(_figure(s.text) and not _BRACKETED.fullmatch(s.text.strip()) for s in segments)
        and not _years(line) and not _numbers_columns(line)
        and all(sum(1 for r in row.segments if min(s.x1, r.x1) > max(s.x0, r.x0)) == 1 for s in segments)
    )


def _runs_under(body: list[_Line], last: _Segment, x: float) -> bool:
    """Whether a row of the body fills the last column of the first row on past ``x``: the names
    there are longer than the first row's ("Granja Adelita", then "Residencial San Nicolás [Baños
    la Cantera]"), and a name over them heads that column, not one the first row leaves empty."""
    return any(abs(seg.x0 - last.x0) <= line.bottom - line.top and seg.x1 > x for line in body for seg in line.segments)


def _numbering(block: list[_Line]) -> frozenset[int]:
    """The header's lines numbering its columns ("1  2=  3  4 …", with a formula of column
    numbers under some: "(3 to 6)+14"), which a statistical table prints under the names: they
    say where a column stands, not what it holds, and name no column. The page's text keeps
    them."""
    for n, line in enumerate(block):
        if _numbers_columns(line):
            below = n + 1
            while below < len(block) and all(_FORMULA.fullmatch(s.text.strip()) for s in block[below].segments):
                below += 1
            return frozenset(range(n, below))
    return frozenset()


def _numbers_columns(line: _Line) -> bool:
    """Whether a line numbers the columns (``_counts_up``)."""
    return _counts_up([s.text for s in line.segments])

_FORMULA = re.compile(r"[\d\s()+\-=,&]*(?:to\s*[\d\s()+\-=,&]*)*", re.IGNORECASE)  # "(3 to 6)+14", "(7 to13)"


def _section(line: _Line, below: _Line) -> bool:
    """Whether ``line`` is a section's label over the row ``below``: one cell, standing left
    of the row's label (outdented, or the row indented under it), or at it and announcing the
    rows with a colon ("Outlays:")."""
    if len(line.segments) != 1:
        return False
    height = line.bottom - line.top
    return line.segments[0].x0 < below.segments[0].x0 - 0.25 * height or (
        _announces(line) and abs(line.segments[0].x0 - below.segments[0].x0) <= 0.25 * height
    )


def _announces(line: _Line) -> bool:
    """A line of one cell, no figure, ending with a colon (a footnote mark after it aside)."""
    if len(line.segments) != 1:
        return False
    text = line.segments[0].text.rstrip("¹²³⁴⁵⁶⁷⁸⁹⁰*† ")
    return text.endswith(":") and not _figure(text)
