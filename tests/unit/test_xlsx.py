"""table.xlsx: text cells whatever they look like, and a value too long for a cell is counted."""

from __future__ import annotations

from openpyxl import load_workbook

from tools.storage.xlsx import CELL_CHARS, XlsxTable


def test_values_stay_text_and_a_cut_is_counted(tmp_path) -> None:  # type: ignore[no-untyped-def]
    table = XlsxTable(tmp_path / "t.xlsx", ["File", "Code", "Note"])
    table.add(["a.pdf", "007", "=SUM(A1:A9)"])
    table.add(["b.pdf", "#N/A", "x" * (CELL_CHARS + 10)])
    sheet = load_workbook(table.close()).active
    rows = [[c.value for c in row] for row in sheet.iter_rows()]
    assert rows[1] == ["a.pdf", "007", "=SUM(A1:A9)"] and rows[2][1] == "#N/A"
    assert all(c.data_type == "s" for row in sheet.iter_rows(min_row=2) for c in row)
    assert len(rows[2][2]) == CELL_CHARS and table.cut == 1  # cut in the sheet, and said
