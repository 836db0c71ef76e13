"""Every word of a document's text layer accounted for: the words its parsed text never holds.

A parser rebuilds a page from positioned words (lines, cells, rows); a word it drops is lost to
every engine and no one can see it. The check needs no truth: each word the text layer draws
must stand in the parsed text, as a word of its own or, split across cells ("257,055,899" |
"境外上市外资股"), as part of the text with its spaces taken out.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable

KEEP_SHARE = 0.995  # a document that keeps less of its text layer says so


def unread_words(layer: Iterable[str], parsed: str) -> list[str]:
    """The words of ``layer`` that ``parsed`` does not hold, each as often as it is missing."""
    parsed = _folded(parsed)
    tokens = Counter(parsed.split())
    # a word the text layer draws with a space inside ("11,062 .6") counts by its parts
    # dots alone are a dot leader's (``without_leader``), no word a cell loses
    missing = Counter(part for w in layer for part in _folded(w).split() if part.strip(".")) - tokens
    if not missing:
        return []
    joined = re.sub(r"\s+", "", parsed)
    unread = []
    for word, count in missing.items():
        # occurrences inside the text beyond those as words of their own: the word split across cells
        split = max(0, joined.count(word) - tokens[word])
        unread += [word] * max(0, count - split)
    return unread


def _folded(text: str) -> str:
    """Text compared by what it reads: a superscript "²" as the "2" the text layer draws,
    U+2010 and U+2011 hyphens as "-" (the parsed text writes both so)."""
    return unicodedata.normalize("NFKC", text).replace("\u2010", "-").replace("\u2011", "-")


def coverage_note(layer_words: int, unread: list[str]) -> str | None:
    """What the answer says of a document that lost more than KEEP_SHARE of its text layer."""
    if not layer_words or len(unread) <= (1 - KEEP_SHARE) * layer_words:
        return None
    shown = ", ".join(f"'{w}'" for w in list(dict.fromkeys(unread))[:5])
    return (
        f"{len(unread):,} of {layer_words:,} words of its text layer were not read (among them {shown}): "
        "rows that hold them may be missing or incomplete"
    )
