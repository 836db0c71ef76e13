"""The prompts of an extraction: the columns, conditions and rules, and a window's marked text.

The words themselves are ``prompt_text``. A window that starts inside the document
carries the document's first lines and the last table header before it.
"""

from __future__ import annotations

from core.reading import DocumentText, Reading
from tools.engines.llm import prompt_text as prompts
from tools.engines.llm.windows import DOCUMENT_HEAD_CHARS, Piece, Window, covers_document, describe
from tools.engines.numbers import parse_number


def _looks_like_header(cells: list[str]) -> bool:
    """A header names its columns: fewer than half its cells are numbers (a carried-over row is not)."""
    filled = [c for c in cells if c.strip()]
    return len(filled) >= 2 and sum(parse_number(c) is not None for c in filled) * 2 < len(filled)


def header_before(document: DocumentText, piece: Piece) -> list[str] | None:
    """The last table header that stands before this piece of the document."""
    found = None
    for table in document.tables:
        if not _looks_like_header(table.header) or table.page > piece.page:
            continue
        if table.page == piece.page:
            # where its header line stands; a header the text does not show is taken as the page's top
            at = max(0, document.pages[piece.page - 1].find("\t".join(table.header)))
            if at >= piece.start:
                continue
        found = table.header
    return found


def document_head(document: DocumentText) -> str:
    """The document's first lines up to its first table line (cells joined by TABs), at most
    DOCUMENT_HEAD_CHARS: the letterhead, never rows a later window would give again."""
    lines: list[str] = []
    size = 0
    for line in (document.pages[0] if document.pages else "").splitlines():
        if "\t" in line or size + len(line) > DOCUMENT_HEAD_CHARS:
            break
        lines.append(line)
        size += len(line) + 1
    return "\n".join(lines).strip()


def part_prompt(document: DocumentText, window: Window) -> str:
    """The user prompt for one window: the document's names, its context, the marked text."""
    blocks = []
    for piece in window:
        mark = prompts.PAGE_MARK if piece.start == 0 else prompts.PAGE_CONTINUED_MARK
        blocks.append(mark.format(page=piece.page) + "\n" + piece.text(document).strip("\n"))
    context = ""
    if (window[0].page, window[0].start) != (1, 0):  # a window inside the document
        context += prompts.DOCUMENT_HEAD.format(head=document_head(document))
        header = header_before(document, window[0])
        if header:
            context += prompts.CARRIED_HEADER.format(header="\t".join(header))
    part = "" if covers_document(document, window) else prompts.PART_LINE.format(pages=describe(document, window))
    return prompts.EXTRACT_USER.format(
        path=document.path,
        title=document.title or "-",
        page_count=document.page_count,
        part=part,
        context=context,
        text="\n".join(blocks),
    )


def extraction_prompt(reading: Reading) -> str:
    """The system prompt for a document: the columns, the conditions and the rules."""
    literal = [c.text or f"{c.column} {c.op} {c.value}" for c in reading.conditions if c.op != "judgement"]
    return prompts.EXTRACT_SYSTEM.format(
        columns="\n".join(f"- {c}" for c in reading.columns),
        row_condition=reading.row_condition or prompts.EVERY_ROW,
        conditions=prompts.CONDITIONS_LINE.format(conditions="; ".join(literal)) if literal else "",
        row_terms=prompts.ROW_TERMS_LINE.format(terms=", ".join(reading.row_terms)) if reading.row_terms else "",
        document_conditions=" and ".join(reading.document_conditions) or prompts.NO_DOCUMENT_CONDITION,
    )
