"""Layouts of statistical reports, printed here the way such reports print them."""

from __future__ import annotations

from pathlib import Path

import pytest
from fpdf import FPDF

from tools.parsing.pdf.document import parse_pdf

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


PT = 25.4 / 72  # fpdf places text in millimetres; these layouts are measured in points
SALARIES = [("BAIN, J MATTHEW", "DISTRICT DIRECTOR", "37,499.96"), ("SMITH, ALVARO R", "LEGISLATIVE CORRESPONDENT", "21,000.00"),
            ("ENGLERT, PAYTON A", "STAFF ASSISTANT", "25,499.96")]
EXPENSES = [("DHAW20190001", "05/03/2019", "CITIBANK - TRAVEL CBA CARD", "03/04/2019", "03/06/2019",
             ["STAFF TRANSPORTATION", "AIRFARE FOR E JOHNSON KANSAS CITY TO WASHINGTON DC AND RETURN"], "920.68"),
            ("DHAW20190002", "05/24/2019", "CITIBANK - TRAVEL CBA CARD", "03/10/2019", "05/15/2019",
             ["STAFF TRANSPORTATION", "AIRFARE FOR S COWING KANSAS CITY TO WASHINGTON DC", "AND RETURN"], "907.96"),
            ("DHAW20190003", "05/03/2019", "CITIBANK - TRAVEL CBA CARD", "03/01/2019", "03/02/2019",
             ["SENATOR'S TRANSPORTATION"], "737.94"),
            ("DHAW20190026", "05/03/2019", "CITIBANK - SENATOR IBA CARD", "04/16/2019", "04/17/2019",
             ["STAFF TRANSPORTATION", "AIRFARE FOR M BERG WASHINGTON DC TO SPRINGFIELD AND RETURN"], "521.00"),
            ("DHAW20190027", "05/02/2019", "CITIBANK - TRAVEL CBA CARD", "04/15/2019", "04/18/2019",
             ["STAFF TRANSPORTATION"], "349.60")]


@pytest.fixture(scope="module")
def expenditures(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An expenditure report: a header printed over four lines ("POSTED" under "DATE", "START"
    and "END" under "OBLIGATION/SERVICE" "DATES"), a gap, salaries filling three of its
    columns, then expenses filling all seven in blocks set apart by gaps, descriptions wrapped
    onto lines of their own."""
    pdf = FPDF(orientation="landscape", format="letter")
    pdf.add_page()
    pdf.set_font("Helvetica", size=6)

    def text(x: float, y: float, value: str) -> None:
        pdf.text(x * PT, y * PT, value)

    def right(x: float, y: float, value: str) -> None:
        pdf.text(x * PT - pdf.get_string_width(value), y * PT, value)

    for x, y, name in [(78, 108, "DOCUMENT NO."), (161, 108, "DATE"), (243, 108, "PAYEE NAME"),
                       (350, 108, "OBLIGATION/SERVICE"), (509, 108, "DESCRIPTION"), (666, 108, "AMOUNT ($)"),
                       (372, 115, "DATES"), (156, 118.5, "POSTED"), (350, 127, "START"), (399, 127, "END")]:
        text(x, y, name)
    y = 144.0
    for payee, role, amount in SALARIES:
        text(202, y, payee)
        text(428, y, role)
        right(703, y, amount)
        y += 6
    y += 10
    for k, (number, posted, payee, start, end, description, amount) in enumerate(EXPENSES):
        if k == 3:
            y += 20  # a gap between two blocks of expenses, wider than rows are apart
        for x, value in [(89, number), (155, posted), (202, payee), (347, start), (392, end)]:
            text(x, y, value)
        right(703, y, amount)
        for line in description:
            text(428, y, line)
            y += 6
    path = tmp_path_factory.mktemp("layouts") / "expenditures.pdf"
    pdf.output(str(path))
    return path


def test_a_header_printed_over_four_lines_names_each_column_from_all_of_them(expenditures: Path) -> None:
    (table,) = parse_pdf(expenditures).tables
    assert table.header == ["DOCUMENT NO.", "DATE POSTED", "PAYEE NAME", "OBLIGATION/SERVICE DATES START",
                            "OBLIGATION/SERVICE DATES END", "DESCRIPTION", "AMOUNT ($)"]


def test_rows_filling_a_few_columns_of_the_header_are_rows_under_their_names(expenditures: Path) -> None:
    (table,) = parse_pdf(expenditures).tables
    assert table.rows[: len(SALARIES)] == [["", "", payee, "", "", role, amount] for payee, role, amount in SALARIES]


def test_blocks_of_rows_after_a_gap_continue_the_table_with_their_wrapped_cells(expenditures: Path) -> None:
    (table,) = parse_pdf(expenditures).tables
    assert table.rows[len(SALARIES) :] == [
        [number, posted, payee, start, end, " ".join(description), amount]
        for number, posted, payee, start, end, description, amount in EXPENSES
    ]


GROUPS = [("Pre-Pawn", ["Handgun", "Long Gun", "*Other"]), ("Redemption", ["Handgun", "Long Gun", "*Other"]),
          ("Rentals", ["Handgun", "Long Gun"]), ("Return to Seller - Private Sale", ["Handgun", "Long Gun", "*Other"])]
CHECKS = [("Alabama", "18,870", "14", "15", "0", "2,179", "2,307", "11", "0", "0", "3", "2", "0", "71,137"),
          ("Alaska", "209", "9", "3", "0", "100", "100", "0", "18", "9", "0", "0", "0", "7,095"),
          ("Arizona", "2,303", "5", "3", "0", "1,273", "648", "4", "76", "8", "1", "1", "0", "27,087")]


def test_a_group_label_over_its_sub_columns_names_each_of_them(tmp_path: Path) -> None:
    """Background-check counts label groups of columns on a line of their own, each label centred
    over its sub-columns ("Handgun  Long Gun  *Other"); the columns beside the groups ("Permit",
    "Totals") belong to none."""
    pdf = FPDF(orientation="landscape", format="letter")
    pdf.add_page()
    pdf.set_font("Helvetica", size=7)
    pdf.text(100, 12, "Firearm Background Checks - November 2015")
    names, xs = ["State / Territory", "Permit"], [12.0, 50.0]  # right edges of the figure columns below
    x = 50.0
    for group, subs in GROUPS:
        first = x + 18
        for sub in subs:
            x += 18
            names.append(f"{group} {sub}")
            xs.append(x)
            pdf.text(x - pdf.get_string_width(sub), 24, sub)
        middle = (first - pdf.get_string_width(subs[0]) + x) / 2
        pdf.text(middle - pdf.get_string_width(group) / 2, 20, group)
    xs.append(x + 22)
    names.append("Totals")
    pdf.text(12, 24, "State / Territory")
    for name, right in [("Permit", xs[1]), ("Totals", xs[-1])]:
        pdf.text(right - pdf.get_string_width(name), 24, name)
    for k, row in enumerate(CHECKS):
        y = 30 + 4.5 * k
        pdf.text(12, y, row[0])
        for right, value in zip(xs[1:], row[1:]):
            pdf.text(right - pdf.get_string_width(value), y, value)
    path = tmp_path / "checks.pdf"
    pdf.output(str(path))
    (table,) = parse_pdf(path).tables
    assert table.header == names
    assert table.rows == [list(row) for row in CHECKS]


def test_the_line_numbering_the_columns_names_none_of_them(tmp_path: Path) -> None:
    """A statistical table numbers its columns on a line under their names ("1  2= (3 to 4)  3
    4"): the numbers say where a column stands, so they are no part of its name, and the page's
    text keeps them."""
    pdf = FPDF(format="letter")
    pdf.add_page()
    pdf.set_font("Helvetica", size=9)
    pdf.text(12, 14, "TABLE 9: OUTSTANDING LIABILITIES - 1997")
    rights = [60.0, 95.0, 130.0]
    header = [(12, ["States"], "1"), (rights[0], ["Total", "Internal Debt"], "2= (3 to 4)"),
              (rights[1], ["Market", "Loans"], "3"), (rights[2], ["WMA from", "RBI & FIs"], "4")]
    for x, lines, number in header:
        for n, line in enumerate([*lines, number]):
            y = 24 + 4 * (n if n < len(lines) else 2)
            pdf.text(x if x == 12 else x - pdf.get_string_width(line), y, line)
    rows = [("Assam", "12.69", "10.02", "2.41"), ("Bihar", "40.75", "41.54", "-"), ("Goa", "6.01", "5.23", "0.11")]
    for k, (state, *figures) in enumerate(rows):
        y = 40 + 5 * k
        pdf.text(12, y, state)
        for right, figure in zip(rights, figures):
            pdf.text(right - pdf.get_string_width(figure), y, figure)
    path = tmp_path / "liabilities.pdf"
    pdf.output(str(path))
    document = parse_pdf(path)
    (table,) = document.tables
    assert table.header == ["States", "Total Internal Debt", "Market Loans", "WMA from RBI & FIs"]
    assert table.rows == [list(row) for row in rows]
    assert "2= (3 to 4)" in document.pages[0]


def test_labels_above_a_ruled_frame_name_the_groups_of_columns_under_them(tmp_path: Path) -> None:
    """A ruled table of exports by year prints its years above the frame, each over its pair of
    "Value  Share" columns and set a little right of the pair's centre, as puertos1.pdf does:
    each column under a year is named with it, and the years' line is the header's, no title."""
    pdf = FPDF(format="letter")
    pdf.add_page()
    pdf.set_font("Helvetica", size=9)
    xs = [20.0, 70.0, 95.0, 120.0, 145.0, 170.0]  # the frame's vertical rules
    ys = [40.0, 47.0, 54.0, 61.0]  # its horizontal rules: the header row, two rows
    for x in xs:
        pdf.line(x, ys[0], x, ys[-1])
    for y in ys:
        pdf.line(xs[0], y, xs[-1], y)
    for year, (left, right) in zip(["2006", "2007"], [(xs[1], xs[3]), (xs[3], xs[5])]):
        pdf.text((left + right) / 2 + 4 - pdf.get_string_width(year) / 2, 37, year)
    cells = [["Category", "Value", "Share", "Value", "Share"], ["Fresh fish", "804", "1.7%", "543", "1.0%"],
             ["Frozen fish", "445", "1.0%", "61", "1.0%"]]
    for r, row in enumerate(cells):
        for c, text in enumerate(row):
            pdf.text(xs[c] + 2, ys[r] + 5, text)
    path = tmp_path / "exports.pdf"
    pdf.output(str(path))
    document = parse_pdf(path)
    (table,) = document.tables
    assert table.header == ["Category", "2006 Value", "2006 Share", "2007 Value", "2007 Share"]
    assert table.rows == cells[1:]
    assert table.title == [] and document.pages[0].splitlines()[0].startswith("Category\t2006 Value")
