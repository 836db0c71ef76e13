"""Headers a report's workbook sets over several rows: a period right-aligned over the names of
the columns it covers, the unit of the rows' labels over their column, units under the names,
and a block of figures set beside another, on the same rows, whose labels stand left of both."""

from __future__ import annotations

from pathlib import Path

import openpyxl

from tools.parsing import parse_file

UNSEEN = Path(__file__).resolve().parents[2] / "evals" / "unseen"
SEGMENTS = UNSEEN / "public-more" / "documents" / "unstructured" / "2023-half-year-analyses-by-segment.xlsx"
VODAFONE = UNSEEN / "public-four" / "documents" / "unstructured" / "vodafone-q1-fy24-additional-information.xlsx"


def _sheet(path: Path, rows: list[list[object]]) -> Path:
    book = openpyxl.Workbook()
    for row in rows:
        book.active.append(row)
    book.save(path)
    return path


def test_a_period_set_over_the_last_column_names_every_column_up_to_it(tmp_path: Path) -> None:
    path = _sheet(tmp_path / "results.xlsx", [
        ["Revenue and results"],
        ["In millions of CHF", None, None, None, "January–June 2023"],
        [None, "Sales", "Trading operating profit", None, "Restructuring costs"],
        ["Water", 1706, 57, None, -94],
        ["PetCare", 9373, 1939, None, -11],
        ["Confectionery", 3694, 467, None, -3],
    ])
    (table,) = parse_file(path).tables
    assert table.header == ["In millions of CHF", "January–June 2023 Sales", "January–June 2023 Trading operating profit",
                            "January–June 2023 Restructuring costs"]
    assert table.rows[0] == ["Water", "1706", "57", "-94"]
    # the header's rows as the sheet sets them stay its printed lines
    assert table.header_lines[0] == ["In millions of CHF", "", "", "January–June 2023"]


def test_labels_over_groups_and_units_under_the_names_make_one_header_per_column(tmp_path: Path) -> None:
    path = _sheet(tmp_path / "kpis.xlsx", [
        ["Segmental results"],
        [None, None, None, "Organic growth"],
        [None, "H1 22/23", "H2 22/23", "H1 22/23", "H2 22/23"],
        [None, "€m", "€m", "%", "%"],
        ["Group"],
        ["Service revenue", 19207, 18762, 2.8, 2.3],
        ["Revenue", 22930, 22776, 4.2, 2.9],
    ])
    (table,) = parse_file(path).tables
    assert table.header == ["", "H1 22/23 €m", "H2 22/23 €m", "Organic growth H1 22/23 %", "Organic growth H2 22/23 %"]
    assert table.rows[1] == ["Service revenue", "19207", "18762", "2.8", "2.3"]


def test_a_block_of_figures_beside_another_reads_its_labels_from_the_first_block() -> None:
    tables = [t for t in parse_file(SEGMENTS).tables if t.page == 2]
    assert [t.header[1:] for t in tables] == [
        ["January–June 2023 Impairment of goodwill and non-commercialized intangible assets (c)",
         "January–June 2023 Impairment of intangible assets (d)"],
        ["January–June 2022 Impairment of goodwill and non-commercialized intangible assets (c)",
         "January–June 2022 Impairment of intangible assets (d)"]]
    # the zones label the 2022 block too: its rows were figures alone
    assert tables[1].rows[0] == ["Zone NA", "—", "(285)"]
    rates = [t for t in parse_file(VODAFONE).tables if t.page == 16]
    assert any(row[:1] == ["Pounds Sterling"] and "0.85" in row and "0.88" in row for t in rates[1:] for row in t.rows)


def test_names_printed_anew_under_figures_open_a_table_of_their_own() -> None:
    rates = [t for t in parse_file(VODAFONE).tables if t.page == 16]
    half_years, quarters, guidance = rates[:3]
    assert half_years.header[3:] == ["H1", "H2", "FY"]
    assert [row[1] for row in half_years.rows] == [
        "Pounds Sterling", "Egyptian Pound", "Indian Rupee", "Turkish Lira", "South African Rand"]
    # the quarters under their own names, not under the half-years'
    assert quarters.header[2:] == ["Q1", "Q2", "Q3", "Q4"]
    assert quarters.rows[0][1:] == ["Pounds Sterling", "0.86", "0.86", "0.85", "0.84"]
    # a period alone over a column of figures heads the block under it
    assert guidance.header[2] == "FY 23/24" and "Guidance rates" in guidance.title
    assert [row[1:3] for row in guidance.rows] == [
        ["Pounds Sterling", "0.88"], ["Egyptian pound", "33.38"], ["Turkish lira", "21.10"], ["South African rand", "19.30"]]
    # a period over its quarters, the two rows of names over the figures above them, opens one too
    later = rates[3:]
    assert [row[0] for row in later[0].rows] == [
        "Pounds Sterling", "Egyptian Pound", "Indian Rupee", "Turkish Lira", "South African Rand"]
    assert later[1].header[1:] == ["FY 22/23 Q1", "FY 22/23 Q2", "FY 22/23 Q3", "FY 22/23 Q4", "FY 23/24 Q1"]


def test_a_label_between_rows_of_figures_and_a_row_with_a_blank_figure_stay_rows(tmp_path: Path) -> None:
    path = _sheet(tmp_path / "staff.xlsx", [
        ["Name", "Department", "Salary"], ["Europe", None, None], ["Bob", "Sales", 50000], ["Carol", "Marketing", None],
        ["Asia", None, None], ["Dan", "Support", 41000],
    ])
    (table,) = parse_file(path).tables
    assert table.header == ["Name", "Department", "Salary"]
    assert [row[0] for row in table.rows] == ["Europe", "Bob", "Carol", "Asia", "Dan"]
