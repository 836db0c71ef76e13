"""A page's words as they are read: upright, or turned back when the page is printed sideways."""

from __future__ import annotations

import math
import re

import pdfplumber
from pdfplumber.utils import cluster_objects
from pdfplumber.utils.text import WordExtractor

WORD_GAP = 0.2  # glyphs closer than this share of their size are one word (2.4 pt at 12 pt; pdfplumber fixes 3 pt)


TWICE = 1.0  # points: the same glyph drawn again this close to itself is drawn over itself


# a glyph the file gives no character for (its font has no map to text): pdfplumber's "(cid:7)"
UNMAPPED = re.compile(r"\(cid:\d+\)")
UNREAD = "\ufffd"  # what such a glyph stands as in a word


def unmapped_glyphs(page: pdfplumber.page.Page) -> int:
    """How many glyphs of the page the file gives no character for."""
    return sum(1 for char in page.chars if UNMAPPED.fullmatch(char["text"]))


def drawn_once(page: pdfplumber.page.Page) -> pdfplumber.page.Page:
    """The page with each glyph once: a text drawn twice on itself (a bold or shadow effect: the
    same glyph, font and size within a point) is one text, "Kruger", never "KKrruuggeerr"; and
    without the glyphs the file gives no character for ("(cid:7)" is no text: ``unmapped_glyphs``
    counts them, so that the document says so). The text layer that word coverage counts is this
    one too. (pdfplumber's ``dedupe_chars`` does the same by comparing each glyph with its
    neighbours in a sorted run: a second or more a page.)"""
    seen: dict[tuple, list[tuple[float, float]]] = {}
    again: set[int] = set()
    for char in page.chars:
        if UNMAPPED.fullmatch(char["text"]):
            # no text to give: a mark that no value can be read through ("Pro�le" never "Prole");
            # a word of such marks alone is left out (``text_layer``)
            char["text"] = UNREAD
            continue
        x, y = char["x0"], char["top"]
        key = (char["text"], char.get("fontname"), round(char["size"], 1))
        kx, ky = math.floor(x / TWICE), math.floor(y / TWICE)  # its cell of the grid; a glyph within TWICE is in a neighbour
        near = (p for dx in (-1, 0, 1) for dy in (-1, 0, 1) for p in seen.get((*key, kx + dx, ky + dy), ()))
        if any(abs(x - px) <= TWICE and abs(y - py) <= TWICE for px, py in near):
            again.add(id(char))
            continue
        seen.setdefault((*key, kx, ky), []).append((x, y))
    again |= _blanks_under_text(page.chars)
    if not again:
        return page
    return page.filter(lambda o: o.get("object_type") != "char" or id(o) not in again)


def _blanks_under_text(chars: list[dict]) -> set[int]:
    """The blank glyphs of a field of blanks (a run of three or more drawn edge to edge) that
    glyphs with text are set over (a form's value typed over its field): no gaps between words,
    where pdfplumber would part a word at each ("0 3 / 2 5 / 2 0 16" for "03/25/2016"). A
    single blank between two words stays a gap, however tightly the words are set."""
    inked: dict[tuple[int, int], list[dict]] = {}
    for c in chars:
        if c["text"].strip():
            inked.setdefault((math.floor(c["x0"] / BLANK_CELL), math.floor(c["top"] / BLANK_CELL)), []).append(c)
    blanks = [c for c in chars if not c["text"].strip() and c["x1"] > c["x0"]]
    if not inked or len(blanks) < BLANK_FIELD:
        return set()
    runs = glyph_runs(blanks, lambda c: 0.5)
    under: set[int] = set()
    for b in (b for run in runs if len(run) >= BLANK_FIELD for b in run):
        kx, ky = math.floor(b["x0"] / BLANK_CELL), math.floor(b["top"] / BLANK_CELL)
        near = (c for dx in (-1, 0, 1) for dy in (-1, 0, 1) for c in inked.get((kx + dx, ky + dy), ()))
        width, height = b["x1"] - b["x0"], b["bottom"] - b["top"]
        if any(
            min(b["x1"], c["x1"]) - max(b["x0"], c["x0"]) > 0.5 * width
            and min(b["bottom"], c["bottom"]) - max(b["top"], c["top"]) > 0.5 * height
            for c in near
        ):
            under.add(id(b))
    return under


def glyph_runs(chars: list[dict], gap) -> list[list[dict]]:  # type: ignore[no-untyped-def]
    """The glyphs in runs set edge to edge on one line, left to right: a glyph starting within
    ``gap(glyph)`` of the previous one's end (or overlapping it) continues its run."""
    runs: list[list[dict]] = []
    for c in sorted(chars, key=lambda c: (round(c["top"]), c["x0"])):
        last = runs[-1][-1] if runs else None
        if last is not None and round(last["top"]) == round(c["top"]) and abs(c["x0"] - last["x1"]) <= gap(c):
            runs[-1].append(c)
        else:
            runs.append([c])
    return runs


BLANK_FIELD = 3  # blank glyphs drawn edge to edge: a field of blanks
BLANK_CELL = 12.0  # pt: the grid a blank glyph's neighbours are looked up in


def sideways(page: pdfplumber.page.Page) -> str | None:
    """How a page printed sideways reads: "down" (turned clockwise) or "up"; None for a page
    whose text mostly stands upright."""
    turned = [c for c in page.chars if not c.get("upright", True) and c["text"].strip()]
    if 2 * len(turned) <= len([c for c in page.chars if c["text"].strip()]):
        return None
    down = sum(1 for c in turned if c["matrix"][1] < 0)
    return "down" if 2 * down >= len(turned) else "up"


def _reads_up(char: dict) -> bool:
    """A glyph turned anticlockwise on its page: its word reads from the bottom up."""
    return not char.get("upright", True) and char["matrix"][1] > 0


def with_sideways_cells(ruled, rows: list[list[str | None]]) -> list[list[str | None]]:  # type: ignore[no-untyped-def]
    """A ruled table's cell texts (``rows``, as pdfplumber reads them, every glyph top to
    bottom), with each cell set wholly sideways (a vertical header) read the way its glyphs are
    turned: anticlockwise from the bottom up, clockwise from the top down, its lines in turn."""
    # the table's sideways glyphs, blanks too: they part words
    turned = [c for c in ruled.page.chars if not c.get("upright", True) and _in_box(c, ruled.bbox)]
    if not any(c["text"].strip() for c in turned):
        return rows
    out = []
    for row, texts in zip(ruled.rows, rows, strict=True):
        read = list(texts)
        for k, cell in enumerate(row.cells):
            inside = [c for c in turned if cell is not None and _in_box(c, cell)]
            text = read[k] or ""
            glyphs = sum(1 for c in inside if c["text"].strip())
            if glyphs and glyphs == sum(1 for ch in text if not ch.isspace()):  # no upright glyph beside them
                read[k] = _sideways_text(inside)
        out.append(read)
    return out


def _in_box(char: dict, box: tuple[float, float, float, float]) -> bool:
    """Whether a glyph's middle stands in ``box``, as pdfplumber places a glyph in a cell."""
    x, y = (char["x0"] + char["x1"]) / 2, (char["top"] + char["bottom"]) / 2
    return box[0] <= x < box[2] and box[1] <= y < box[3]


def _sideways_text(chars: list[dict]) -> str:
    """The text of sideways glyphs: words read along their glyphs' direction, lines across it."""
    up = 2 * sum(1 for c in chars if _reads_up(c)) > len(chars)
    extractor = WordExtractor(x_tolerance_ratio=WORD_GAP, y_tolerance=_gap_along(chars), char_dir_rotated="btt" if up else "ttb")
    words = extractor.extract_words(chars)
    # a line of sideways text stands at one x: lines run left to right when read up, right to left down
    lines = cluster_objects(words, lambda w: w["x0"], WORD_GAP * max(w["x1"] - w["x0"] for w in words))
    lines.sort(key=lambda line: line[0]["x0"], reverse=not up)
    along = (lambda w: -w["bottom"]) if up else (lambda w: w["top"])
    return "\n".join(" ".join(w["text"] for w in sorted(line, key=along)) for line in lines)


def _upright(page: pdfplumber.page.Page, reads: str) -> tuple[list[dict], list[dict]]:
    """The words and glyphs of a sideways page in the positions they take once it is turned to
    be read: its reading direction runs left to right, its first line at the top."""
    width, height = page.width, page.height

    def turn(item: dict) -> dict:
        if reads == "down":  # turned back anticlockwise
            box = {"x0": item["top"], "x1": item["bottom"], "top": width - item["x1"], "bottom": width - item["x0"]}
        else:  # turned back clockwise
            box = {"x0": height - item["bottom"], "x1": height - item["top"], "top": item["x0"], "bottom": item["x1"]}
        return {**item, **box}

    words = text_layer(page, reads)
    return [turn(w) for w in words], [turn(c) for c in page.chars]


def text_layer(page: pdfplumber.page.Page, reads: str | None = None) -> list[dict]:
    """The page's words in its reading direction: a sideways page's glyphs read down or up; on an
    upright page, each word set sideways (a vertical header cell) reads the way its glyphs are
    turned: down when turned clockwise, up when turned anticlockwise."""
    return [w for w in _words(page, reads) if w["text"].strip(UNREAD)]  # glyphs without text alone are no word


def _words(page: pdfplumber.page.Page, reads: str | None) -> list[dict]:
    if reads is None:
        if not any(_reads_up(c) for c in page.chars):
            return page.extract_words(x_tolerance_ratio=WORD_GAP)  # nothing reads up: one pass
        up = page.filter(lambda o: o.get("object_type") == "char" and _reads_up(o))
        rest = page.filter(lambda o: o.get("object_type") != "char" or not _reads_up(o))
        return [
            *rest.extract_words(x_tolerance_ratio=WORD_GAP),
            *up.extract_words(x_tolerance_ratio=WORD_GAP, y_tolerance=_gap_along(up.chars), char_dir_rotated="btt"),
        ]
    along = _gap_along([c for c in page.chars if not c.get("upright", True)])
    if reads == "down":
        return page.extract_words(x_tolerance_ratio=WORD_GAP, y_tolerance=along, char_dir_rotated="ttb", line_dir_rotated="rtl")
    return page.extract_words(x_tolerance_ratio=WORD_GAP, y_tolerance=along, char_dir_rotated="btt", line_dir_rotated="ltr")


def _gap_along(chars: list[dict]) -> float:
    """The widest gap between two glyphs of one word set sideways: WORD_GAP of the type's size,
    which for a turned glyph is its extent across the line (pdfplumber measures its size along
    the line, the glyph's advance, and would part no word closer than its fixed 3 pt)."""
    across = sorted(c["x1"] - c["x0"] for c in chars if c["text"].strip())
    return WORD_GAP * across[len(across) // 2] if across else 3.0


SCRIPT_SIZE = 0.85  # a glyph at most this share of its neighbour's size may be set as a script ...
SCRIPT_SHIFT = 0.2  # ... when its baseline stands this share of that size above (or below) the neighbour's
SCRIPT_GAP = 0.3  # ... and it follows that glyph within this share of its size
SUPERSCRIPT = str.maketrans("0123456789+-=()−", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾⁻")
SUBSCRIPT = str.maketrans("0123456789+-=()−", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎₋")


def trim_glyphs(chars: list[dict]) -> None:
    """A glyph whose font maps it to a mark with a space beside it (" ." in "11,062 .6") is the
    mark alone: the space takes no room on the page and splits no figure. ``chars`` are changed
    in place."""
    for char in chars:
        text = char["text"]
        if len(text) > 1 and text.strip() and text.strip() != text:
            char["text"] = text.strip()


def set_scripts(chars: list[dict]) -> None:
    """Glyphs set smaller than the glyph they follow and raised above (lowered below) its
    baseline (a footnote mark, an exponent, a formula's count) are written as superscript
    (subscript) characters where Unicode has one, and placed on the line of the glyph they
    follow, so they stay with its word yet never read as more of its figure: "24.91" with a
    raised small "2" is "24.91²", not "24.912". A glyph Unicode has no such character for (the
    raised "st" of "1st") keeps its text. ``chars`` are changed in place."""
    base: dict | None = None  # the glyph the current run of script glyphs hangs on
    run: tuple[str, float, float, float] | None = None  # its kind, size, bottom, right edge
    previous: dict | None = None
    blank: dict | None = None  # a space glyph right after ``previous``
    dropped: list[int] = []
    for char in chars:
        if not char["text"].strip() and blank is None and previous is not None:
            blank = char
            continue
        if not char.get("upright", True) or not char["text"].strip():
            base = run = previous = blank = None
            continue
        if blank is not None:
            # a space glyph drawn under a script glyph (its box reaching past the script's left
            # edge) parts nothing: the mark is set right after the word
            if blank["x1"] <= char["x0"] or char["size"] > SCRIPT_SIZE * blank["size"]:
                base = run = previous = None
            blank_at, blank = blank, None
        else:
            blank_at = None
        kind = None
        if run is not None and base is not None and _continues(run, char):
            kind = run[0]
        elif previous is not None and run is None:
            base = previous
            kind = _script(base, char)
        if kind is None or base is None:
            run, previous = None, char
            continue
        run = (kind, char["size"], char["bottom"], char["x1"])
        if blank_at is not None:
            dropped.append(id(blank_at))
        text = char["text"].translate(SUPERSCRIPT if kind == "super" else SUBSCRIPT)
        if text != char["text"]:
            char.update(text=text, top=base["top"], bottom=base["bottom"], size=base["size"])
        previous = char
    if dropped:
        chars[:] = [c for c in chars if id(c) not in set(dropped)]


def _script(base: dict, char: dict) -> str | None:
    """"super" or "sub" when ``char`` is set as a script of ``base``, the glyph before it."""
    size = base["size"]
    if char["size"] > SCRIPT_SIZE * size or not -SCRIPT_GAP * size <= char["x0"] - base["x1"] <= SCRIPT_GAP * size:
        return None
    if char["bottom"] <= base["top"] or char["top"] >= base["bottom"]:
        return None  # on another line
    if char["bottom"] < base["bottom"] - SCRIPT_SHIFT * size:
        return "super"
    if char["bottom"] > base["bottom"] + SCRIPT_SHIFT * size / 2 and char["top"] > base["top"] + SCRIPT_SHIFT * size:
        return "sub"
    return None


def _continues(run: tuple[str, float, float, float], char: dict) -> bool:
    """Whether ``char`` goes on with a run of script glyphs ("²³"): as small, on its baseline, next to it."""
    _, size, bottom, x1 = run
    return abs(char["size"] - size) <= 0.05 * size and abs(char["bottom"] - bottom) <= 0.2 * size and (
        -0.3 * size <= char["x0"] - x1 <= 0.5 * size
    )
