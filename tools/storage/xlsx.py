"""The table as ``table.xlsx`` beside the CSV: the same rows and columns, every value a text cell.

A spreadsheet user gets the values exactly as the documents wrote them: ``007`` stays ``007``,
``1.234,50`` stays text, and a value starting with ``=`` is a string, never a formula (every
cell is written as a string; nothing is guessed). The header row is bold and frozen; column
widths fit the values. Rows are written as they come (XlsxWriter's constant-memory mode), so
memory stays flat however long the table is. A cell holds at most Excel's 32,767 characters;
longer values are cut there (counted in ``cut``, said in the answer) and whole in the CSV.
"""

from __future__ import annotations

from pathlib import Path

import xlsxwriter

XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
MIN_WIDTH, MAX_WIDTH = 6, 60
CELL_CHARS = 32_767  # Excel's limit for one cell
# characters Excel refuses in a cell (control characters other than tab and line breaks)
_ILLEGAL = {c: None for c in range(32) if c not in (9, 10, 13)}


class XlsxTable:
    """A workbook written row by row: ``add`` each row (as the CSV gets it), then ``close``."""

    def __init__(self, path: Path, header: list[str], title: str = "Table") -> None:
        self.path = path
        self._book = xlsxwriter.Workbook(
            str(path), {"constant_memory": True, "strings_to_numbers": False, "strings_to_formulas": False,
                        "strings_to_urls": False},
        )
        self._sheet = self._book.add_worksheet(title[:31] or "Table")
        self._sheet.freeze_panes(1, 0)
        self._sheet.write_row(0, 0, [_text(h) for h in header], self._book.add_format({"bold": True}))
        self.widths = [len(h) for h in header]
        self.rows = 0
        self.cut = 0  # cells longer than Excel holds: cut here, whole in the CSV (the answer says so)

    def add(self, cells: list[str]) -> None:
        self.rows += 1
        for column, value in enumerate(cells):
            text = _text(value)
            self.cut += len(value or "") > CELL_CHARS
            self._sheet.write_string(self.rows, column, text)
            longest = max((len(line) for line in text.splitlines()), default=0)
            self.widths[column] = max(self.widths[column], longest)

    def close(self) -> Path:
        for column, width in enumerate(self.widths):
            self._sheet.set_column(column, column, min(MAX_WIDTH, max(MIN_WIDTH, width + 2)))
        self._book.close()
        return self.path


def _text(value: str | None) -> str:
    return (value or "").translate(_ILLEGAL)[:CELL_CHARS]
