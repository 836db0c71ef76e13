"""``Key: value`` pairs of a document: labelled lines of its text and two-cell table rows.

A letter, an order confirmation or a ticket names its values on lines of their own
("Supplier: Acme GmbH", "Due date – 2025-04-14"). Markdown dresses such lines up
(``**Supplier:** Acme GmbH``, ``- Supplier: Acme GmbH``); the markup is no part of the key,
the value or the line. A table's rows are in the page text as TAB-joined lines, so those lines
are left to the tables, whose two-cell rows are pairs of their own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from core.reading import Table

MAX_KEY_WORDS = 6  # a longer "key" is the start of a sentence that holds a colon

# a key of up to 60 characters, then ':' or a spaced dash, then the value; the colon of a
# time (10:30) or of a link (https://) is no separator
_KEY_VALUE = re.compile(
    r"(?P<key>[^\t:]{1,60}?)\s*(?:(?:(?<!\d):|:(?!\d))(?!//)|\s[–—-]\s)\s*(?P<value>\S.*?)\s*"
)
_BLOCK_MARK = re.compile(r"\s*(?:>\s*)*(?:#{1,6}\s+|[-*+•]\s+(?:\[[ xX]\]\s+)?|\d{1,3}[.)]\s+)?")
_HEADING = re.compile(r"\s*(?:>\s*)*#{1,6}\s")
_STRONG = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1")
_EMPHASIS = re.compile(
    r"(?<![\w*])\*(?=[^\s*])(.+?)(?<=[^\s*])\*(?![\w*])"  # *word*, not 2 * 3
    r"|(?<!\w)_(?=[^\s_])(.+?)(?<=[^\s_])_(?!\w)"  # _word_, not snake_case
)
_STRIKE = re.compile(r"~~(?=\S)(.+?)(?<=\S)~~")
_CODE = re.compile(r"`([^`]+)`")
_LINK = re.compile(r"!?\[([^\]]*)\]\([^)\s]*(?:\s+\"[^\"]*\")?\)")


@dataclass(frozen=True)
class KeyValue:
    """One ``Key: value`` pair, with the line (plain text) and the page it stands on."""

    key: str
    value: str
    line: str
    page: int


def plain(line: str) -> str:
    """The line without Markdown markup: quote, heading and list marks, emphasis, code, links."""
    text = line[_BLOCK_MARK.match(line).end() :]  # type: ignore[union-attr]  # it matches ""
    text = _LINK.sub(r"\1", text)
    text = _CODE.sub(r"\1", text)
    for pattern in (_STRONG, _STRIKE):
        text = pattern.sub(lambda m: m.group(m.lastindex or 0), text)
    text = _EMPHASIS.sub(lambda m: m.group(1) or m.group(2), text)
    return text.rstrip("\\").strip()


def _line_pair(line: str, page: int) -> KeyValue | None:
    if "\t" in line or _HEADING.match(line):  # a table's row (the tables give it); a section's title
        return None
    text = plain(line)
    match = _KEY_VALUE.fullmatch(text)
    if not match:
        return None
    key, value = match.group("key").strip(), match.group("value").strip(" *_")
    # a key has a letter ("10:30 meeting" is a time) and is short ("Please note the following: ...")
    if not value or not any(ch.isalpha() for ch in key) or len(key.split()) > MAX_KEY_WORDS:
        return None
    return KeyValue(key, value, text, page)


def key_value_lines(pages: list[str], tables: list[Table]) -> list[KeyValue]:
    """``Key: value`` and ``Key – value`` lines of the pages, then the tables' two-cell rows."""
    pairs = [
        pair
        for number, page in enumerate(pages, start=1)
        for pair in (_line_pair(line, number) for line in page.splitlines())
        if pair is not None
    ]
    for table in tables:
        for row in [table.header, *table.rows]:
            cells = [plain(cell) for cell in row]
            if len(cells) == 2 and cells[0] and cells[1]:
                pairs.append(KeyValue(cells[0].rstrip(":").strip(), cells[1], "\t".join(cells), table.page))
    return pairs


def labels(pages: list[str], tables: list[Table]) -> list[str]:
    """The distinct keys (compared without case) in page order, first spelling kept.

    A key without a letter (a year or a number in a two-cell row) labels nothing.
    """
    seen: set[str] = set()
    out: list[str] = []
    for pair in sorted(key_value_lines(pages, tables), key=lambda p: p.page):
        folded = pair.key.casefold()
        if folded and folded not in seen and any(ch.isalpha() for ch in pair.key):
            seen.add(folded)
            out.append(pair.key)
    return out
