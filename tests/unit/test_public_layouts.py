"""Layouts of real public documents a user would notice: headers printed over several lines named
per column, section labels as rows of their own, ruled cells that keep their spaces, words inside
a table's frame but in no cell, rules drawn around groups of columns. The documents are pinned in
``evals/public/`` with their maintainers' tables."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evals.public.score import PUBLIC, score_document
from tools.parsing import parse_file

CAMELOT = PUBLIC / "camelot"


def _truth(origin: Path, file: str) -> dict:
    return next(d for d in json.loads((origin / "truth.json").read_text())["documents"] if d["file"] == file)


def _camelot_tables(file: str) -> list:
    return parse_file(CAMELOT / "documents" / file).tables


def test_a_ruled_header_drawn_over_several_rows_names_each_column_under_its_group() -> None:
    """camelot's twotables_2.pdf: "Literacy Status" spans "Illiterate", "Read & Write", … on
    the ruled rows under it; the header once came as " |  | Literacy Status |  | …"."""
    tables = [t for t in _camelot_tables("twotables_2.pdf") if len(t.rows) >= 10]
    assert len(tables) == 2
    for table in tables:
        assert table.header == [
            "State", "n", "Literacy Status Illiterate", "Literacy Status Read & Write", "Literacy Status 1-4 std.",
            "Literacy Status 5-8 std.", "Literacy Status 9-12 std.", "Literacy Status College",
        ]
        assert table.rows[0][0] == "Kerala" and table.rows[-1][0] == "Pooled"
    assert tables[0].rows[0] == ["Kerala", "2400", "7.2", "0.5", "25.3", "20.1", "41.5", "5.5"]


def test_an_unruled_header_over_six_lines_names_each_column_and_keeps_the_first_row() -> None:
    """camelot's health.pdf: the header's lines ("Revenue" over "Medical &" / "Public" /
    "Health" and "Family" / "Welfare") were once read as text and the first state's row as
    the header."""
    table = next(t for t in _camelot_tables("health.pdf") if len(t.rows) >= 20)
    assert table.header == [
        "States-A", "Revenue Medical & Public Health", "Revenue Family Welfare", "Capital Medical & Public Health",
        "Capital Family Welfare", "Total Revenue & Capital", "Others⁽¹⁾", "Total",  # "(1)" set small and raised: a footnote mark
    ]
    assert table.rows[0][:2] == ["Andhra Pradesh", "47,824,589"]


def test_a_header_printed_on_several_lines_keeps_its_lines_as_printed_beside_the_names() -> None:
    """The names join a header's lines; the lines themselves stay as the page prints them, each
    cell over its column and a group's label once: what the structure measure compares with
    the maintainers' truth, which keeps the lines as rows."""
    unruled = next(t for t in _camelot_tables("health.pdf") if len(t.rows) >= 20)
    assert unruled.header_lines[0] == ["States-A", "Revenue", "", "Capital", "", "Total", "Others⁽¹⁾", "Total"]
    assert unruled.header_lines[-1] == ["", "Health", "", "Health", "", "", "", ""]
    assert len(unruled.header_lines) == 6
    ruled = next(t for t in _camelot_tables("foo.pdf"))
    assert ruled.header[3] == "Percent Fuel Savings Improved Speed"
    assert ruled.header_lines == [
        ["Cycle Name", "KI (1/km)", "Distance (mi)", "Percent Fuel Savings", "", "", ""],
        ["", "", "", "Improved Speed", "Decreased Accel", "Eliminate Stops", "Decreased Idle"],
    ]
    found_from_its_body = next(t for t in _camelot_tables("clockwise_table_2.pdf") if len(t.rows) >= 20)
    assert found_from_its_body.header_lines[0].count("Modern method") == 1
    assert found_from_its_body.header_lines[-1][:2] == ["Background characteristic", "method"]
    one_line = next(t for t in _camelot_tables("multiple_tables.pdf"))
    assert one_line.header_lines == []


@pytest.mark.parametrize("file", ["clockwise_table_1.pdf", "anticlockwise_table_1.pdf"])
def test_group_labels_over_a_sideways_pages_header_name_their_columns(file: str) -> None:
    table = next(t for t in _camelot_tables(file) if len(t.rows) >= 10)
    assert table.header[0] == "State"
    assert table.header[1] == "Nutritional Assessment (No. of individuals) 1975-79"
    assert table.header[6] == "Blood Pressure (No. of adults: 2011-12) Men"
    assert table.rows[0][:2] == ["Kerala", "5738"]


@pytest.mark.parametrize("file", ["clockwise_table_2.pdf", "anticlockwise_table_2.pdf"])
def test_a_sections_label_outdented_between_rows_is_a_row_of_its_own(file: str) -> None:
    """camelot's clockwise_table_2.pdf: "Caste/tribe", "Wealth index", … head the rows under
    them; they once ran on in the row above ("Other Wealth index") or in the header."""
    table = next(t for t in _camelot_tables(file) if len(t.rows) >= 20)
    assert table.header[0] == "Background characteristic"
    assert len(table.header) == 17 and table.header[-1] == "Number of women"
    labels = [row[0] for row in table.rows]
    for section in ("Caste/tribe", "Wealth index", "Number of living children"):
        row = table.rows[labels.index(section)]
        assert row[1:] == [""] * 16
    other = table.rows[labels.index("Other")]
    assert other[:3] == ["Other", "71.1", "48.8"] and other[-1] == "3,319"


def test_a_ruled_tables_cells_keep_the_spaces_between_their_words() -> None:
    """tabula-extractor's frx_2012_disclosure.pdf draws no space glyphs: its ruled cells once
    came as "AALAEI,BEHZAD" and "STATENISLAND,NY"."""
    origin = PUBLIC / "tabula-extractor"
    table = next(t for t in parse_file(origin / "documents" / "frx_2012_disclosure.pdf").tables if len(t.rows) >= 20)
    assert table.header == ["Physician", "Related Entity (if applicable)", "City / State", "Purpose of Payment", "Amount ($USD) * **"]
    assert ["AANONSEN, DEBORAH, A", "", "STATEN ISLAND, NY", "MEALS", "$85.00"] in table.rows
    assert score_document(origin, _truth(origin, "frx_2012_disclosure.pdf"))["f1"] >= 0.9


def test_words_inside_a_ruled_frame_but_in_none_of_its_cells_are_read() -> None:
    """docling's normal_4pages.pdf: a comparison table whose right column has no outer rule;
    the words of that column ("1급 감염병", "생물테러감염병 …") were in no cell and were lost."""
    origin = PUBLIC / "docling"
    document = parse_file(origin / "documents" / "normal_4pages.pdf")
    for word in ("1급", "생물테러감염병", "(17종)", "미포함"):
        assert word in document.pages[1]
    assert score_document(origin, _truth(origin, "normal_4pages.pdf"))["coverage"] >= 0.995


def test_rules_drawn_around_groups_of_columns_leave_each_row_its_own_figures() -> None:
    """camelot's 12s0324.pdf: rules around "Total", "Male" and "Female" made one cell of a dozen
    rows' figures ("11,062 .6 1,540 .0 9,522 .6 467 .9 …")."""
    table = next(t for t in _camelot_tables("12s0324.pdf") if len(t.rows) >= 20)
    rows = {row[0].split(" .")[0]: row[1:] for row in table.rows}
    assert rows["Robbery"] == ["102.1", "25.5", "76.6", "90.0", "22.9", "67.1", "12.1", "2.5", "9.5"]
    assert rows["Drunkenness"][:3] == ["488.1", "11.4", "476.8"]
    assert score_document(CAMELOT, _truth(CAMELOT, "12s0324.pdf"))["f1"] >= 0.7


def test_header_cells_set_sideways_read_the_way_their_glyphs_are_turned() -> None:
    """camelot's vertical_header.pdf: the candidates' names stand turned anticlockwise in ruled
    cells, read from the bottom up; they once came out backwards ("sretov deretsigeR fo rebmuN")."""
    first, second = _camelot_tables("vertical_header.pdf")[:2]
    names = first.header_lines[-1]
    assert "Number of Registered voters" in names and "Brian Calley" in names and "Bill Schuette" in names
    assert "Gretchen Whitmer" in second.header_lines[-1]
    # the three lines of names are the header, the townships' votes the rows under it
    assert second.header[3] == "STATE Governor Gretchen Whitmer"
    assert second.rows[0][:4] == ["Alcona", "15", "28", "80"]
    assert not any("rebmuN" in cell or "yellaC" in cell for cell in names)
    truth = _truth(CAMELOT, "vertical_header.pdf")
    assert score_document(CAMELOT, truth)["f1"] >= 0.89


def test_a_text_drawn_twice_on_itself_is_read_once_with_every_column_of_its_table() -> None:
    """camelot's birdisland.pdf draws each glyph twice (a bold effect) and shades the yield
    column, whose rules would put "Kruger K2-1901 RR2Y 1.9 R Ac,PV" in one cell; the header's
    second line names the columns left of the first line's names. Once read as
    "KKrruuggeerr" in three cells."""
    tables = _camelot_tables("birdisland.pdf")
    trial = next(t for t in tables if t.header and t.header[0] == "Company/Brand")
    assert trial.header == [
        "Company/Brand", "Product/Brand†", "Technol.†", "Mat.", "SCN Resist.", "Seed Trmt.†", "Yield Bu/A",
        "Moisture %", "Lodging %", "Stand (x 1000)", "Gross Income",
    ]
    assert trial.rows[0] == ["Kruger", "K2-1901", "RR2Y", "1.9", "R", "Ac,PV", "56.4", "7.6", "0", "126.3", "$846"]
    assert len(trial.rows) == 30 and trial.rows[-1][:2] == ["Gold Country", "1541"]
    assert not any("KK" in cell for t in tables for row in [t.header, *t.rows] for cell in row)


def test_a_row_label_column_outside_the_vertical_rules_stays_with_its_rows() -> None:
    """tabula-py's data.pdf rules its rows across the page but draws vertical rules only around
    "mpg" … "gear": the cars' names left of them and "carb" right of them are columns of the
    table, not page text."""
    table = next(t for t in parse_file(PUBLIC / "tabula-py" / "documents" / "data.pdf").tables if t.page == 1)
    assert table.header == ["", "mpg", "cyl", "disp", "hp", "drat", "wt", "qsec", "vs", "am", "gear", "carb"]
    assert table.rows[0] == ["Mazda RX4", "21.0", "6", "160.0", "110", "3.90", "2.620", "16.46", "0", "1", "4", "4"]
    assert len(table.rows) == 32


def test_names_over_the_figures_right_of_the_rows_labels_are_the_header() -> None:
    """camelot's 12s0324.pdf, Table 325: "Total  White  Black  …" under "Offense charged" once
    came as a row, "White Black" one column, each label with the total run into it. "American",
    the first of three lines naming one column, is its name's, not the table's title."""
    tables = _camelot_tables("12s0324.pdf")
    table = next(t for t in tables if t.header and t.header[-1] == "Asian Pacific Islander")
    assert table.header == ["Offense charged", "Total", "White", "Black", "American Indian/Alaskan Native", "Asian Pacific Islander"]
    assert table.rows[0][1:] == ["10,690,561", "7,389,208", "3,027,153", "150,544", "123,656"]
    assert table.rows[0][0].startswith("Total") and "10,690,561" not in table.rows[0][0]
    assert "American" not in table.title and table.title[0] == "Table 325. Arrests by Race: 2009"
    # Table 324's font maps the decimal point to a space and a point: figures come as printed
    assert tables[0].rows[0][1:4] == ["11,062.6", "1,540.0", "9,522.6"]


def test_prose_set_in_two_columns_is_read_one_column_after_the_other() -> None:
    """docling's normal_4pages.pdf, page 2: two columns of Korean prose beside each other were
    read as rows of a table, a line of each column in turn; its ground truth holds one table."""
    document = parse_file(PUBLIC / "docling" / "documents" / "normal_4pages.pdf")
    lines = document.pages[1].splitlines()
    first = lines.index("2020.1.1. 시행된³⁾ 「감염병의 예방 및 관리에 관")
    assert lines[first + 1] == "한 법률」(이하 ‘감염병예방법’) 제2조 제2호에 의하"
    assert [t.header for t in document.tables if t.page == 2] == [["구분", "개정전", "개정후"]]


def test_a_header_of_years_over_section_labels_names_the_columns() -> None:
    """tabula-java's rotated_page.pdf (a budget table, pinned with the unseen requests): the
    header is a line of years ("2011 … 2022 2013– 2013–", "2017 2022" under the last two and
    "Totals" over them), then "Outlays:" a section's break below it; the years once became the
    table's title and the first row of figures its header."""
    path = PUBLIC.parent / "unseen" / "public-pdfs" / "documents" / "tabula-java/src/test/resources/technology/tabula/rotated_page.pdf"
    table = parse_file(path).tables[0]
    assert table.header == ["", *map(str, range(2011, 2023)), "Totals 2013– 2017", "Totals 2013– 2022"]
    assert table.rows[0][0] == "Outlays:" and table.rows[2][:4] == ["Defense³", "699", "709", "700"]


def test_glyphs_the_file_gives_no_character_for_are_counted_and_said_not_passed_as_text() -> None:
    """docling's redp5110_sampled.pdf: page 3 sets its text in a font without a character map,
    and bullets elsewhere; pdfplumber names each such glyph "(cid:7)", which once reached the
    engines as text (278 of them on page 3)."""
    document = parse_file(PUBLIC / "docling" / "documents" / "redp5110_sampled.pdf")
    assert not any("(cid:" in page for page in document.pages)
    assert any(line.startswith("DB2 for i Center of Excellence") for line in document.pages[2].splitlines())
    (note,) = [n for n in document.notes if "glyphs" in n]
    assert note.startswith("295 glyphs have no text in the file (278 on page 3,")


def test_group_labels_over_a_header_are_its_first_printed_line() -> None:
    """A line of group labels over the header ("DLHS-4 (2012-13)" over "TOTAL  RURAL") names
    the columns under it and is the first line of the header as printed."""
    path = PUBLIC.parent / "unseen" / "public-pdfs" / "documents" / "camelot" / "tests" / "files" / "district_health.pdf"
    table = parse_file(path).tables[0]
    assert table.header[1:] == ["DLHS-4 (2012-13) TOTAL", "DLHS-4 (2012-13) RURAL", "DLHS-3 (2007-08) TOTAL",
                                "DLHS-3 (2007-08) RURAL"]
    assert table.header_lines[0] == ["", "DLHS-4 (2012-13)", "", "DLHS-3 (2007-08)", ""]
    assert table.header_lines[1][1:] == ["TOTAL", "RURAL", "TOTAL", "RURAL"]


def test_lines_read_as_one_row_are_rows_of_their_own() -> None:
    """docling's 2305.03393v1-pg9.pdf: each configuration prints an OTSL line over an HTML line,
    its layer counts once between them. The two lines came as one row of two-figure cells
    ("0.965 0.969"), so no condition could read them; each line is a row, the counts repeated."""
    (table,) = parse_file(PUBLIC / "docling" / "documents" / "2305.03393v1-pg9.pdf").tables
    assert table.rows[:2] == [["6", "6", "OTSL", "0.965", "0.934", "0.955", "0.88", "2.73"],
                              ["6", "6", "HTML", "0.969", "0.927", "0.955", "0.857", "5.39"]]
    assert len(table.rows) == 8 and [r[2] for r in table.rows] == ["OTSL", "HTML"] * 4
    # a table whose cells hold two words, but not two figures in two columns, stays as it was
    from core.reading import Table
    from tools.parsing.pdf.rows import unstacked
    names = Table(page=1, header=["City", "Sales", "Share"], rows=[["New York", "1 200", "4%"], ["San Jose", "800", "3%"]])
    assert unstacked(names) == names
    # nor one whose figures set their thousands apart with a space
    prices = Table(page=1, header=["Item", "Price", "Amount"], rows=[["Desk", "1 200,00", "2 400,00"]])
    assert unstacked(prices) == prices
    # nor one of estimates with their errors in brackets
    estimates = Table(page=1, header=["City", "A", "B", "C"], rows=[["New York", "0.45 (0.02)", "1.2 (0.3)", "3.1 (0.4)"]])
    assert unstacked(estimates) == estimates
