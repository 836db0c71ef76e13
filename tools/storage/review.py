"""``review.html`` beside the CSV: every row with its source line, to check the table at a glance.

One self-contained file (no network, no external scripts, styles or fonts). Each row shows its
file, page, Match and values; beside it the evidence, highlighted inside the lines around it on
its page. Filters: unsure rows only, one file, a text search. The rows travel as JSON inside the
page and are rendered a page at a time, so a table of 10,000 rows opens and scrolls. Every value
is text: the JSON is escaped for the script element, and the page builds its elements with
``textContent`` only (a document's text is untrusted input).

The rows are spooled to a local file while the CSV is written; ``save`` writes the page.
"""

from __future__ import annotations

import html
import json
import re
from importlib import resources
from pathlib import Path
from typing import IO, Any

from core.reading import Record

CONTEXT_LINES = 2
HTML_TYPE = "text/html; charset=utf-8"
# inline script and styles only, nothing fetched: the page's own Content-Security-Policy
CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:"


def _loose(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().casefold()


def source_context(pages: list[str], page: int | None, evidence: str | None) -> dict[str, Any]:
    """Where the evidence stands on its page (see ``PageIndex.context``), for one record."""
    return PageIndex(pages).context(page, evidence)


class PageIndex:
    """A document's pages as lines, compared with their white space collapsed, built once for
    all the records of the document (a long document with many rows is not scanned per row)."""

    def __init__(self, pages: list[str]) -> None:
        self.lines = [page.splitlines() for page in pages]
        self._loose: dict[int, list[str]] = {}

    def _loose_lines(self, number: int) -> list[str]:
        if number not in self._loose:
            self._loose[number] = [_loose(line) for line in self.lines[number - 1]]
        return self._loose[number]

    def context(self, page: int | None, evidence: str | None) -> dict[str, Any]:
        """The lines before, the evidence lines, the lines after.

        A table row's evidence is its cells joined by tabs; the page has them joined by spaces,
        so lines are compared with their white space collapsed. Evidence not found on the page
        is shown alone, marked as such.
        """
        wanted = [line for line in (evidence or "").splitlines() if line.strip()]
        if not wanted:
            return {"before": [], "lines": [], "after": [], "found": False}
        count = len(self.lines)
        candidates = [page] if page and 1 <= page <= count else []
        candidates += [n for n in range(1, count + 1) if n not in candidates]
        first, rest = _loose(wanted[0]), {_loose(w) for w in wanted}
        for number in candidates:
            lines, loose = self.lines[number - 1], self._loose_lines(number)
            for i, text in enumerate(loose):
                if text and (first in text or (len(text) > 8 and text in first)):
                    end = i + 1
                    while end < len(lines) and end - i < len(wanted) and loose[end] in rest:
                        end += 1
                    return {
                        "before": lines[max(0, i - CONTEXT_LINES) : i],
                        "lines": lines[i:end],
                        "after": lines[end : end + CONTEXT_LINES],
                        "found": True,
                        "page": number,
                    }
        return {"before": [], "lines": wanted, "after": [], "found": False}


class ReviewSpool:
    """Collects every row with its context while the CSV is written."""

    def __init__(self, folder: Path, columns: list[str]) -> None:
        self.path = folder / "review-rows.jsonl"
        self.columns = columns
        self.rows = 0
        self._out: IO[str] = open(self.path, "w", encoding="utf-8")

    def add(self, file: str, record: Record) -> None:
        """One row; its source as noted at extraction (else its evidence alone, marked not found)."""
        row = {
            "file": file,
            "page": record.page,
            "match": record.match,
            "note": record.note or "",
            "values": [record.values.get(c) or "" for c in self.columns],
            "context": record.source or source_context([], record.page, record.evidence),
        }
        self._out.write(json.dumps(row, ensure_ascii=False) + "\n")
        self.rows += 1

    def save(self, target: Path, title: str, facts: list[str]) -> Path:
        """The page: the run's facts on top (what was read, what gave nothing and why), then the rows."""
        self._out.close()
        template = resources.files("tools.storage").joinpath("review.html").read_text(encoding="utf-8")
        with open(target, "w", encoding="utf-8") as out:
            head, tail = template.split("@@ROWS@@")
            head = head.replace("@@TITLE@@", html.escape(title)).replace("@@CSP@@", html.escape(CSP, quote=True))
            head = head.replace("@@FACTS@@", "".join(f"<li>{html.escape(f)}</li>" for f in facts))
            out.write(head)
            out.write(_script_json({"columns": self.columns}))
            out.write("\n")
            with open(self.path, encoding="utf-8") as rows:
                for line in rows:  # one JSON array element a line: the page parses them at once
                    out.write(_script_text(line.rstrip("\n")))
                    out.write("\n")
            out.write(tail)
        return target


def _script_text(text: str) -> str:
    """JSON made safe inside a ``<script>`` element: no ``</script>``, no HTML comment, no U+2028."""
    return (
        text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
        .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    )


def _script_json(value: Any) -> str:
    return _script_text(json.dumps(value, ensure_ascii=False))
