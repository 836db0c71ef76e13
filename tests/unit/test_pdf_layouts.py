"""Layouts of statistical reports, printed here the way such reports print them."""

from __future__ import annotations

from pathlib import Path

import pytest
from fpdf import FPDF

from tools.parsing.pdf import parse_pdf

ROWS = [("Salaries (a)", "1,234,567", "12,345", "1,222,222"), ("Fringe Benefits (b)", "345,678", "-", "345,678"),
        ("Travel", "45,210", "3,100", "42,110"), ("Equipment (c)", "98,000", "98,000", "-"),
        ("Total Costs All Funds", "1,723,455", "113,445", "1,610,010"), ("Indirect Costs", "412,000", "-", "412,000")]
HEADER = [(95, ["Total Costs", "All Funds"]), (130, ["Less:", "Exclusions &", "Unallowables"]), (165, ["Allowable", "Costs"])]


@pytest.fixture(scope="module")
def cost_table(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A cost schedule as aligned text: labels left in a column the header does not name, figures
    right-aligned under a header set on up to three lines, footnote marks in the labels."""
    pdf = FPDF(format="letter")
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 11)
    pdf.text(12, 20, "Schedule of Costs - Fiscal Year 2022")
    pdf.set_font("Helvetica", size=9)
    for x, lines in HEADER:
        for n, line in enumerate(lines):
            pdf.text(x + 25 - pdf.get_string_width(line), 30 + 4 * n, line)
    for k, (label, *figures) in enumerate(ROWS):
        y = 46 + 5 * k
        pdf.text(12, y, label)
        for (x, _), figure in zip(HEADER, figures):
            pdf.text(x + 25 - pdf.get_string_width(figure), y, figure)
    pdf.text(12, 46 + 5 * len(ROWS) + 6, "(a) Includes overtime. (b) At the negotiated rate. (c) Items over $5,000.")
    path = tmp_path_factory.mktemp("layouts") / "costs.pdf"
    pdf.output(str(path))
    return path


def test_the_row_label_column_stays_with_its_row_under_a_header_of_three_lines(cost_table: Path) -> None:
    (table,) = parse_pdf(cost_table).tables
    assert table.header == ["", "Total Costs All Funds", "Less: Exclusions & Unallowables", "Allowable Costs"]
    assert table.rows == [list(row) for row in ROWS]


def test_the_label_column_and_the_footnotes_stay_in_the_page_text(cost_table: Path) -> None:
    (page,) = parse_pdf(cost_table).pages
    assert "Salaries (a)\t1,234,567\t12,345\t1,222,222" in page
    assert page.rstrip().endswith("(c) Items over $5,000.")


def test_words_of_small_print_set_without_space_glyphs_stay_apart(tmp_path: Path) -> None:
    """Expenditure reports print 6-point text word by word, with no space glyph between the words
    and gaps narrower than the 3 points a 12-point line needs: the gap counts by the glyphs' size."""
    pdf = FPDF(format="letter")
    pdf.add_page()
    pdf.set_font("Helvetica", size=6)
    pt = 25.4 / 72  # fpdf places text in millimetres

    def words(x: float, y: float, text: str) -> None:
        for word in text.split():
            pdf.text(x, y, word)
            x += pdf.get_string_width(word) + 1.6 * pt

    for k, (payee, role, amount) in enumerate([("BAIN, J MATTHEW", "DISTRICT DIRECTOR", "37,499.96"),
                                               ("SMITH, ALVARO R", "LEGISLATIVE CORRESPONDENT", "21,000.00"),
                                               ("ENGLERT, PAYTON A", "STAFF ASSISTANT", "25,499.96")]):
        y = 30 + 4 * k
        words(20, y, payee)
        words(80, y, role)
        words(160 - pdf.get_string_width(amount), y, amount)
    path = tmp_path / "expenditures.pdf"
    pdf.output(str(path))
    (page,) = parse_pdf(path).pages
    assert "SMITH, ALVARO R\tLEGISLATIVE CORRESPONDENT\t21,000.00" in page
    assert "BAIN, J MATTHEW\tDISTRICT DIRECTOR\t37,499.96" in page


def test_the_lines_above_a_table_are_its_title_and_stay_once_in_the_page_text(cost_table: Path) -> None:
    parsed = parse_pdf(cost_table)
    (table,) = parsed.tables
    assert table.title == ["Schedule of Costs - Fiscal Year 2022"]
    assert parsed.pages[0].count("Schedule of Costs - Fiscal Year 2022") == 1


def test_rows_shaded_in_bands_of_several_come_one_row_each(tmp_path: Path) -> None:
    """Background-check counts print the states in ruled bands of five: each ruled cell of a band
    holds one line per state. Every state is a row of its own."""
    states = [("Alabama", "18,870", "23,022", "71,137"), ("Alaska", "209", "3,062", "7,095"),
              ("Arizona", "2,303", "12,382", "27,087"), ("Arkansas", "3,298", "6,359", "25,048"),
              ("California", "98,452", "41,181", "180,116"), ("Colorado", "4,144", "19,784", "42,271")]
    xs = [10, 60, 90, 120, 150]
    pdf = FPDF(format="letter")
    pdf.add_page()
    pdf.set_font("Helvetica", size=8)
    for k, name in enumerate(["State / Territory", "Permit", "Handgun", "Totals"]):
        pdf.rect(xs[k], 20, xs[k + 1] - xs[k], 8)
        pdf.text(xs[k] + 2, 25, name)
    for band in range(2):
        top = 28 + band * 15
        for k in range(4):
            pdf.rect(xs[k], top, xs[k + 1] - xs[k], 15)
            for line, state in enumerate(states[band * 3 : band * 3 + 3]):
                pdf.text(xs[k] + 2, top + 4 + 4.5 * line, state[k])
    path = tmp_path / "bands.pdf"
    pdf.output(str(path))
    (table,) = parse_pdf(path).tables
    assert table.header == ["State / Territory", "Permit", "Handgun", "Totals"]
    assert table.rows == [list(s) for s in states]
