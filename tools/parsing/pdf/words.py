"""A page's words as they are read: upright, or turned back when the page is printed sideways."""

from __future__ import annotations

import pdfplumber

WORD_GAP = 0.2  # glyphs closer than this share of their size are one word (2.4 pt at 12 pt; pdfplumber fixes 3 pt)


def sideways(page: pdfplumber.page.Page) -> str | None:
    """How a page printed sideways reads: "down" (turned clockwise) or "up"; None for a page
    whose text mostly stands upright."""
    turned = [c for c in page.chars if not c.get("upright", True) and c["text"].strip()]
    if 2 * len(turned) <= len([c for c in page.chars if c["text"].strip()]):
        return None
    down = sum(1 for c in turned if c["matrix"][1] < 0)
    return "down" if 2 * down >= len(turned) else "up"


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
    """The page's words in its reading direction: a sideways page's glyphs read down or up."""
    if reads is None:
        return page.extract_words(x_tolerance_ratio=WORD_GAP)
    if reads == "down":
        return page.extract_words(x_tolerance_ratio=WORD_GAP, char_dir_rotated="ttb", line_dir_rotated="rtl")
    return page.extract_words(x_tolerance_ratio=WORD_GAP, char_dir_rotated="btt", line_dir_rotated="ltr")
