"""Windows over a document's pages, sized to the model's context, and halves of a window."""

from __future__ import annotations

from dataclasses import dataclass

from core.reading import DocumentText

CHARS_PER_TOKEN = 4  # the estimate windows are sized with
MIN_WINDOW_CHARS = 400  # a window never shrinks below this, whatever the budget
PIECES_PER_WINDOW = 4  # long pages are cut into pieces of at most a quarter window
PROMPT_SKELETON_CHARS = 600  # the user prompt around the text: names, markers, labels
DOCUMENT_HEAD_CHARS = 800  # the document's first lines, given to windows that start later
MIN_SPLIT_CHARS = 200  # a part this short is not halved any further


@dataclass(frozen=True)
class Piece:
    """A stretch of one page: ``pages[page - 1][start:end]``."""

    page: int
    start: int
    end: int

    def text(self, document: DocumentText) -> str:
        return document.pages[self.page - 1][self.start : self.end]

    @property
    def size(self) -> int:
        return self.end - self.start


Window = tuple[Piece, ...]


def window_chars(context_tokens: int, prompt_chars: int) -> int:
    """Characters of document text per window: half of what the budget leaves after the prompt.

    The other half is the answer's: records repeat their rows as evidence.
    """
    free_tokens = context_tokens - (prompt_chars + PROMPT_SKELETON_CHARS + DOCUMENT_HEAD_CHARS) // CHARS_PER_TOKEN
    return max(MIN_WINDOW_CHARS, free_tokens // 2 * CHARS_PER_TOKEN)


def _cut_page(text: str, page: int, limit: int) -> list[Piece]:
    """The page in pieces of at most ``limit`` characters, cut after lines (a longer line is cut)."""
    pieces, start = [], 0
    while start < len(text):
        stop = min(len(text), start + limit)
        if stop < len(text):
            newline = text.rfind("\n", start, stop)
            if newline > start:
                stop = newline + 1
        pieces.append(Piece(page, start, stop))
        start = stop
    return pieces or [Piece(page, 0, 0)]


def plan_windows(document: DocumentText, budget: int) -> list[Window]:
    """Overlapping windows over the document, each of at most ``budget`` characters.

    A document that fits is one window of whole pages. Otherwise pages longer than a quarter
    window are cut after lines, windows are filled with consecutive pieces, and each window
    after the first starts again with the last piece of the one before.
    """
    whole = tuple(Piece(n, 0, len(text)) for n, text in enumerate(document.pages, start=1))
    if sum(p.size for p in whole) <= budget:
        return [whole]
    limit = max(1, budget // PIECES_PER_WINDOW)
    pieces = [q for p in whole for q in _cut_page(document.pages[p.page - 1], p.page, limit)]
    windows: list[Window] = []
    first = 0
    while True:
        last, size = first, 0
        while last < len(pieces) and (last == first or size + pieces[last].size <= budget):
            size += pieces[last].size
            last += 1
        windows.append(tuple(pieces[first:last]))
        if last >= len(pieces):
            return windows
        first = last - 1 if last - 1 > first else last


def split_window(document: DocumentText, window: Window) -> tuple[Window, Window] | None:
    """The window in two halves of about equal text, cut between pieces or after a line.

    None when it cannot be halved without cutting a line.
    """
    if len(window) >= 2:
        total = sum(p.size for p in window)
        sizes = [sum(p.size for p in window[:k]) for k in range(1, len(window))]
        k = min(range(1, len(window)), key=lambda i: abs(sizes[i - 1] - total / 2))
        return window[:k], window[k:]
    (piece,) = window
    if piece.size < MIN_SPLIT_CHARS:
        return None
    text = document.pages[piece.page - 1]
    middle = piece.start + piece.size // 2
    before = text.rfind("\n", piece.start, middle)
    after = text.find("\n", middle, piece.end - 1)
    cuts = [c + 1 for c in (before, after) if c >= piece.start and piece.start < c + 1 < piece.end]
    if not cuts:
        return None
    cut = min(cuts, key=lambda c: abs(c - middle))
    return (Piece(piece.page, piece.start, cut),), (Piece(piece.page, cut, piece.end),)


def describe(document: DocumentText, window: Window) -> str:
    """``pages 3–5``, ``page 3``, or ``part of page 3``."""
    first, last = window[0], window[-1]
    if first.page == last.page:
        whole = first.start == 0 and last.end >= len(document.pages[first.page - 1])
        return f"page {first.page}" if whole else f"part of page {first.page}"
    return f"pages {first.page}–{last.page}"


def covers_document(document: DocumentText, window: Window) -> bool:
    return (
        window[0].page == 1
        and window[0].start == 0
        and window[-1].page == document.page_count
        and window[-1].end >= len(document.pages[-1])
    )
