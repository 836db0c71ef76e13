"""Document parsers: any supported file becomes its pages of text and its tables.

``parse_file`` is the one entry point. Every table is also in its page's text, one row per
line with cells joined by a TAB, so whoever reads the text sees the rows the tables hold.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tools.parsing.base import MAX_FILE_BYTES, ParsedDocument, UnreadableFile, within_page_bound
from tools.parsing.hwpx import parse_hwpx
from tools.parsing.office import parse_docx, parse_pptx, parse_xlsx
from tools.parsing.office_layer import with_coverage_note
from tools.parsing.pdf.document import parse_pdf
from tools.parsing.text import normalised, parse_csv, parse_markdown, parse_txt

__all__ = ["SUPPORTED_SUFFIXES", "ParsedDocument", "UnreadableFile", "parse_file"]

_PARSERS: dict[str, Callable[[Path], ParsedDocument]] = {
    ".txt": parse_txt,
    ".md": parse_markdown,
    ".csv": parse_csv,
    ".pdf": parse_pdf,
    ".docx": parse_docx,
    ".xlsx": parse_xlsx,
    ".hwpx": parse_hwpx,
    ".pptx": parse_pptx,
}

SUPPORTED_SUFFIXES: frozenset[str] = frozenset(_PARSERS)

_KINDS = {".txt": "text file", ".md": "Markdown file"}


def parse_file(path: Path) -> ParsedDocument:
    """Read one file by its suffix. Any file that cannot be read raises UnreadableFile.

    The message says why in words a user understands: "unsupported file type .xyz",
    "empty file", "encrypted: ...", "not a readable PDF: ...".
    """
    path = Path(path)
    suffix = path.suffix.lower()
    parser = _PARSERS.get(suffix)
    if parser is None:
        raise UnreadableFile(f"unsupported file type {suffix or '(no extension)'}")
    try:
        if not path.is_file():
            raise UnreadableFile("not a file" if path.exists() else "file not found")
        size = path.stat().st_size
        if size == 0:
            raise UnreadableFile("empty file (0 bytes)")
        if size > MAX_FILE_BYTES:
            raise UnreadableFile(f"too large: {size >> 20} MB; Kea reads files up to {MAX_FILE_BYTES >> 20} MB")
        return within_page_bound(with_coverage_note(path, normalised(parser(path))))
    except UnreadableFile:
        raise
    except Exception as exc:  # a damaged file can fail anywhere inside a library
        reason = str(exc).strip() or type(exc).__name__
        kind = _KINDS.get(suffix, suffix[1:].upper())
        raise UnreadableFile(f"not a readable {kind}: {reason[:300]}") from exc
