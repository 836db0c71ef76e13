"""A PDF read page by page: its pages' text and tables, its title, and notes on what could not
be read."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
from pdfminer.pdfdocument import PDFEncryptionError, PDFPasswordIncorrect
from pdfplumber.utils.exceptions import PdfminerException

from core.reading import Table
from tools.parsing.base import MAX_PAGES, ParsedDocument, UnreadableFile, within_page_bound
from tools.parsing.coverage import coverage_note, unread_words
from tools.parsing.pdf.columns import _Column
from tools.parsing.pdf.page import _read_page
from tools.parsing.pdf.words import _upright, drawn_once, set_scripts, sideways, text_layer, trim_glyphs, unmapped_glyphs
from tools.parsing.text import pick_title

NO_TEXT_LAYER = "no text layer on any page (a scanned document?): it needs OCR before its contents can be read"


def unmapped_note(unmapped: dict[int, int]) -> str:
    """What a document whose file gives no character for some glyphs says of them."""
    pages = ", ".join(f"{glyphs} on page {number}" for number, glyphs in sorted(unmapped.items())[:5])
    more = f" and {len(unmapped) - 5} more pages" if len(unmapped) > 5 else ""
    return (
        f"{sum(unmapped.values()):,} glyphs have no text in the file ({pages}{more}): their font maps them to no "
        "character, so they were not read; where they are words, OCR of those pages would read them"
    )


def parse_pdf(path: Path) -> ParsedDocument:
    """A PDF: one page of text per page, with its ruled and unruled tables."""
    try:
        pdf = pdfplumber.open(path)
    except PdfminerException as exc:
        cause = exc.args[0] if exc.args else exc
        if isinstance(cause, (PDFPasswordIncorrect, PDFEncryptionError)):
            raise UnreadableFile("encrypted: the PDF is password-protected") from exc
        raise UnreadableFile(f"not a readable PDF: {cause}") from exc
    pages: list[str] = []
    tables: list[Table] = []
    layer_words, unread = 0, []
    unmapped: dict[int, int] = {}
    try:
        carried: list[_Column] | None = None
        total = len(pdf.pages)
        # the rest is not even laid out
        for number, raw in enumerate(pdf.pages[:MAX_PAGES], start=1):
            if glyphs := unmapped_glyphs(raw):
                unmapped[number] = glyphs
            page = drawn_once(raw)
            trim_glyphs(page.chars)
            set_scripts(page.chars)
            reads = sideways(page)
            words, chars = _upright(page, reads) if reads else (text_layer(page), page.chars)
            text, found, carried = _read_page(page, number, carried, words, chars, rules=reads is None)
            pages.append(text)
            tables.extend(found)
            layer_words += len(words)
            unread += unread_words((w["text"] for w in words), text)
    except UnreadableFile:
        raise
    except Exception as exc:
        raise UnreadableFile(f"not a readable PDF: {str(exc) or type(exc).__name__}") from exc
    finally:
        pdf.stream.close()  # pdf.close() walks the page tree again, which fails on a damaged file
    if not pages:
        raise UnreadableFile("not a readable PDF: it has no pages")
    title = pick_title((line for page in pages for line in page.splitlines()), path.stem)
    notes = [] if any(p.strip() for p in pages) else [NO_TEXT_LAYER]
    notes += [note] if (note := coverage_note(layer_words, unread)) else []
    notes += [unmapped_note(unmapped)] if unmapped else []
    parsed = ParsedDocument(title=title, media_type="application/pdf", pages=pages, tables=tables, notes=notes)
    return within_page_bound(parsed, total)
