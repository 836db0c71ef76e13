"""The table as ``table.xlsx`` beside the CSV: the same rows and columns, every value a text cell.

A spreadsheet user gets the values exactly as the documents wrote them: ``007`` stays ``007``,
``1.234,50`` stays text, and a value starting with ``=`` is a string, never a formula (the
cell's type is set, not guessed). The header row is bold and frozen; column widths fit the
values. Rows are streamed: while the CSV is written each row goes to a local spool file (and
the widest value of each column is noted), then the workbook is written from the spool in
openpyxl's write-only mode, so memory stays flat however long the table is.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import IO

from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter

XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
MIN_WIDTH, MAX_WIDTH = 6, 60
# characters Excel refuses in a cell (control characters other than tab and line breaks)
_ILLEGAL = {c: None for c in range(32) if c not in (9, 10, 13)}


class XlsxSpool:
    """Collects rows as they are written to the CSV; ``save`` writes the workbook."""

    def __init__(self, folder: Path, header: list[str]) -> None:
        self.path = folder / "table-rows.jsonl"
        self.header = header
        self.widths = [len(h) for h in header]
        self._out: IO[str] = open(self.path, "w", encoding="utf-8")

    def add(self, cells: list[str]) -> None:
        for i, cell in enumerate(cells):
            longest = max((len(line) for line in cell.splitlines()), default=0)
            self.widths[i] = max(self.widths[i], longest)
        self._out.write(json.dumps(cells, ensure_ascii=False) + "\n")

    def save(self, target: Path, title: str = "Table") -> Path:
        self._out.close()
        book = Workbook(write_only=True)
        sheet = book.create_sheet(title=title[:31] or "Table")
        for i, width in enumerate(self.widths, start=1):
            sheet.column_dimensions[get_column_letter(i)].width = min(MAX_WIDTH, max(MIN_WIDTH, width + 2))
        sheet.freeze_panes = "A2"
        bold = Font(bold=True)
        sheet.append([_text(sheet, h, bold) for h in self.header])
        with open(self.path, encoding="utf-8") as rows:
            for line in rows:
                sheet.append([_text(sheet, c) for c in json.loads(line)])
        book.save(target)
        return target


def _text(sheet: object, value: str, font: Font | None = None) -> WriteOnlyCell:
    """A cell holding ``value`` as text, whatever it looks like (a number, a date, a formula)."""
    cell = WriteOnlyCell(sheet, value=(value or "").translate(_ILLEGAL))
    cell.data_type = "s"  # openpyxl guesses '=…' as a formula and '#N/A' as an error: it is text
    if font is not None:
        cell.font = font
    return cell
