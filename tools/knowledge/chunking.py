"""Chunks of a document for embedding: windows of words within each page, overlapping.

A chunk never crosses a page boundary, so each vector names the page its text stands on, and
each chunk starts with the document's name (its path in words and its title), so a page that
is only a table still says what document it belongs to. A very long document keeps an even
spread of its chunks (every page's first one among them) instead of its first pages only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

WORDS = 120  # ~160–220 WordPiece tokens: inside the local model's 256
OVERLAP = 30
MAX_CHUNKS = 48  # per document; ranking needs its gist, not every line

_WORD = re.compile(r"\S+")
_PATH_SPLIT = re.compile(r"[/_.\-]+")


@dataclass(frozen=True)
class Chunk:
    page: int  # 1-based
    text: str


def document_label(path: str, title: str = "") -> str:
    """The document's name in words: 'invoices 2025 nordwerk 2025 01 pdf — Invoice RE-1'."""
    words = " ".join(w for w in _PATH_SPLIT.split(path) if w)
    return f"{words} — {title.strip()}" if title.strip() and title.strip() not in words else words


def chunk_pages(
    pages: list[str], label: str = "", *, words: int = WORDS, overlap: int = OVERLAP, max_chunks: int = MAX_CHUNKS
) -> list[Chunk]:
    """Overlapping windows of ``words`` words per page, each prefixed with ``label``."""
    if overlap >= words:
        raise ValueError("overlap must be smaller than the window")
    step = words - overlap
    chunks: list[Chunk] = []
    firsts: list[int] = []  # index of each page's first chunk
    for number, text in enumerate(pages, start=1):
        tokens = _WORD.findall(text)
        if not tokens:
            continue
        firsts.append(len(chunks))
        start = 0
        while True:
            window = tokens[start : start + words]
            chunks.append(Chunk(number, f"{label}\n{' '.join(window)}" if label else " ".join(window)))
            if start + words >= len(tokens):
                break
            start += step
    if len(chunks) <= max_chunks:
        return chunks
    return [chunks[i] for i in _spread(len(chunks), firsts, max_chunks)]


def _spread(total: int, firsts: list[int], limit: int) -> list[int]:
    """``limit`` indices of ``total``: pages' first chunks first (evenly if too many), then an even fill."""
    chosen = set(firsts if len(firsts) <= limit else (firsts[round(i * (len(firsts) - 1) / max(limit - 1, 1))] for i in range(limit)))
    rest = [i for i in range(total) if i not in chosen]
    room = limit - len(chosen)
    if room > 0 and rest:
        chosen |= {rest[round(i * (len(rest) - 1) / max(room - 1, 1))] for i in range(min(room, len(rest)))}
    return sorted(chosen)[:limit]
