"""The assembled table: stored rows streamed into one CSV a spreadsheet opens safely."""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass, field
from typing import IO

from core.reading import Record

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
PREVIEW_ROWS = 100
PREVIEW_CELL = 80
PREVIEW_BYTES = 40_000


def shorten(text: str | None, limit: int = PREVIEW_CELL) -> str:
    """``text`` cut to ``limit`` characters with an ellipsis (previews only, never the CSV)."""
    text = text or ""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


_PLAIN_NUMBER = re.compile(r"[+-]?\d[\d.,' ]*")


def neutralise(cell: str) -> str:
    """A cell a spreadsheet would run as a formula is prefixed with ' (OWASP CSV injection).

    A plain signed number (-2, +49, -1.249,00) stays as it is: a spreadsheet reads it as a
    number, not a formula, and the prefix would break totals.
    """
    if cell.startswith(FORMULA_STARTS) and not _PLAIN_NUMBER.fullmatch(cell):
        return "'" + cell
    return cell


def header(columns: list[str]) -> list[str]:
    return ["File", *columns, "Match", "Page", "Evidence"]


@dataclass
class TableWriter:
    """Writes rows to a CSV stream as they come, keeping only a small preview in memory."""

    columns: list[str]
    out: IO[str]
    rows: int = 0
    preview: list[list[str]] = field(default_factory=list)
    preview_bytes: int = 0
    preview_cut: bool = False

    def __post_init__(self) -> None:
        self.out.write("\ufeff")  # UTF-8 BOM: spreadsheets then read the file as UTF-8
        self._csv = csv.writer(self.out, lineterminator="\r\n")
        self._csv.writerow([neutralise(h) for h in header(self.columns)])

    def write(self, file: str, record: Record) -> list[str]:
        """Write one row; its cells as they are (the CSV holds them neutralised)."""
        cells = [file, *(record.values.get(c) or "" for c in self.columns), record.match,
                 str(record.page or ""), record.evidence or ""]
        self._csv.writerow([neutralise(c) for c in cells])
        self.rows += 1
        if len(self.preview) < PREVIEW_ROWS and not self.preview_cut:
            shown = [shorten(c) for c in cells[:-1]]
            size = sum(len(c.encode("utf-8")) + 4 for c in shown)
            if self.preview_bytes + size > PREVIEW_BYTES:
                self.preview_cut = True
            else:
                self.preview.append(shown)
                self.preview_bytes += size
        return cells
