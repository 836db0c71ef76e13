"""A document's vocabulary: the names it uses for its values, computed once at ingestion.

The names are its tables' header cells and its ``Key:`` labels, in document order, each once
(compared without case). Numbers and empty cells name nothing; a very long cell is text, not
a name. The list is bounded so that a scope's vocabulary stays one cheap query.
"""

from __future__ import annotations

import re

from tools.engines.columns import code_of
from tools.parsing.base import ParsedDocument
from tools.parsing.fields import labels
from tools.parsing.text import clean

MAX_TERMS = 200  # per document; checkpoints/sql/0003_document_notes.sql checks it too
MAX_TERM_LENGTH = 100
# only digits and the marks numbers, dates and amounts are written with (the same class as the
# migration's backfill, in ASCII so every database locale reads it alike)
_NUMERIC = re.compile(r"[0-9\s.,:;%+/()'-]*")


# a header cell that is a year or a span of years ("2009", "2001-2011", "2012-13") names its column
_YEARS = re.compile(r"(?:19|20)\d\d(?:\s*[-–/]\s*(?:(?:19|20)\d\d|\d\d))?")


def is_term(text: str) -> bool:
    return 0 < len(text) <= MAX_TERM_LENGTH and not _NUMERIC.fullmatch(text)


def document_vocabulary(parsed: ParsedDocument) -> list[str]:
    """Header cells of all tables (and of the lowest line of a header printed on several), then the labels, distinct without case, at most MAX_TERMS; a
    header cell of years is a name too ("2001-2011" heads a statistical table's column), and a
    header cell too long to be a name is named by the code it ends with in brackets."""
    terms: list[str] = []
    seen: set[str] = set()
    headers = [cell for table in parsed.tables for cell in table.header]
    # a header printed on several lines names its columns by its lowest line's cells too
    # ("Abdul El-Sayed" under "STATE" and "Governor")
    lowest = [cell for table in parsed.tables if table.header_lines for cell in table.header_lines[-1]]
    candidates = [*headers, *lowest, *labels(parsed.pages, parsed.tables)]
    for k, candidate in enumerate(candidates):
        term = clean(candidate).replace("\x00", "")
        if k < len(headers) and len(term) > MAX_TERM_LENGTH and (code := code_of(term)):
            term = code  # a header too long to be a name is named by its code ("(NVAF)")
        named = is_term(term) or k < len(headers) and _YEARS.fullmatch(term) is not None
        if named and term.casefold() not in seen:
            seen.add(term.casefold())
            terms.append(term)
            if len(terms) == MAX_TERMS:
                break
    return terms
