"""A table's first rows may leave columns empty (a control group has nothing relative to itself):
they are rows of its body, under a section's label, not lines of its header."""

from __future__ import annotations

from pathlib import Path

from held_out import document

PUPS = Path(__file__).resolve().parents[2] / "evals" / "unseen" / "public-fifteen" / "documents" / "tabula-java" / "us-037.pdf"


def test_a_control_row_leaving_columns_empty_stays_a_row_under_its_section_label() -> None:
    table = next(t for t in document(PUPS).tables if t.header and t.header[0] == "Concentration (ppm)")
    assert table.header[1:4] == ["No.", "Body Weight (g)", "to Controls (%)"]  # no figure of a row in the header
    assert table.rows[0][0] == "Male" and not any(table.rows[0][1:])
    assert table.rows[1] == ["0", "39", "5.8", "", "10", "8.8", "", "13.5", "", "25.7", "", "35.0", ""]
    assert table.rows[2][:4] == ["250", "30", "5.9", "102"]
    female = next(k for k, row in enumerate(table.rows) if row[0] == "Female")
    assert table.rows[female + 1][:3] == ["0", "23", "5.4"] and len(table.rows) == 14


def test_a_line_of_the_columns_numbers_in_brackets_stays_in_the_header() -> None:
    from tools.parsing.pdf.header_block import _sparse_row
    from tools.parsing.pdf.lines import _Line, _Segment

    def line(*cells: tuple[float, str]) -> _Line:
        return _Line(top=0, bottom=10, grouped=[_Segment(x, x + 20, text) for x, text in cells])

    row = line((10, "North"), (100, "12.5"), (200, "3.1"), (300, "7.0"), (400, "1.2"))
    assert _sparse_row(line((100, "12.0"), (300, "6.5")), row)  # a control row: figures under some cells
    assert not _sparse_row(line((100, "(1)"), (200, "(2)"), (300, "(3)")), row)  # the columns' numbers
    assert not _sparse_row(line((100, "2009"), (200, "2010")), row)  # a line of years
