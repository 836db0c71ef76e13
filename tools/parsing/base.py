"""What a parser gives: the text of each page and each table, in document order."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    # only a name here: importing tools.engines at run time would load the offline engine,
    # which imports this package's text helpers before this module is done
    from core.reading import Table


# Bounds on one document. Past MAX_FILE_BYTES a file is not read at all (office packages have
# their own bounds on what they unpack to, see tools.parsing.office); past MAX_PAGES only its
# first pages are read and the document says so in its notes.
MAX_FILE_BYTES = 256 << 20
MAX_PAGES = 2_000
# Raised whenever the parsers read documents differently: a document read by an older version
# is read again at its next ingest, even when its file is unchanged.
PARSER_VERSION = 42


class UnreadableFile(Exception):
    """A file that cannot be read (broken, encrypted, unsupported); the message says why."""


@dataclass
class ParsedDocument:
    title: str
    media_type: str
    pages: list[str]
    tables: list[Table] = field(default_factory=list)
    # what the parser could read only in part, in words a user understands (one per problem)
    notes: list[str] = field(default_factory=list)


def within_page_bound(document: ParsedDocument, total: int | None = None) -> ParsedDocument:
    """``document`` cut to its first ``MAX_PAGES`` pages (and their tables), with a note saying
    so; ``total`` is the page count when the parser stopped early (default: the pages given)."""
    total = len(document.pages) if total is None else total
    if total <= MAX_PAGES:
        return document
    document.pages = document.pages[:MAX_PAGES]
    document.tables = [t for t in document.tables if t.page <= MAX_PAGES]
    document.notes.append(
        f"only its first {MAX_PAGES:,} of {total:,} pages were read: Kea reads at most {MAX_PAGES:,} pages of a "
        "document; split it to read the rest"
    )
    return document
