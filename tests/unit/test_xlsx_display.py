"""XLSX cells give the text the sheet displays, by their number format and the workbook's locale."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import openpyxl
from tools.engines.numbers import parse_date, parse_number
from tools.parsing import parse_file
from tools.workspace.notation import EUROPEAN, column_notations

ROOT = Path(__file__).resolve().parents[2]
BUSINESS = ROOT / "evals" / "unseen" / "business"


def _workbook(path: Path, cells: list[tuple[object, str]], text: str | None = None) -> Path:
    """One sheet: a header row, then one row of ``cells`` (value, number format), then ``text``."""
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet.append([f"Column {k}" for k in range(1, len(cells) + 1)])
    sheet.append([value for value, _ in cells])
    for column, (_, code) in enumerate(cells, start=1):
        sheet.cell(row=2, column=column).number_format = code
    if text is not None:
        sheet.append([text])
    workbook.save(str(path))
    return path


def _row(path: Path) -> list[str]:
    return parse_file(path).tables[0].rows[0]


def test_date_and_time_codes(tmp_path: Path) -> None:
    moment = dt.datetime(2025, 8, 31, 14, 5, 9)
    day = dt.datetime(2025, 8, 31)
    path = _workbook(tmp_path / "dates.xlsx", [
        (day, "DD.MM.YYYY"), (day, "d/m/yy"), (day, "mmm yyyy"), (moment, "hh:mm"),
        (moment, "h:mm AM/PM"), (day, "yyyy-mm-dd"), (dt.time(9, 30), "h:mm"),
    ])
    assert _row(path) == ["31.08.2025", "31/8/25", "Aug 2025", "14:05", "2:05 PM", "2025-08-31", "9:30"]


def test_a_german_locale_tag_gives_german_marks(tmp_path: Path) -> None:
    path = _workbook(tmp_path / "tagged.xlsx", [
        (1689, "[$-407]#,##0.00"), (8849.32, "#,##0.00 [$€-407]"), (180000, "[$-de-DE]#,##0"),
        (dt.datetime(2025, 3, 31), "[$-407]mmmm yyyy"),
    ])
    assert _row(path) == ["1.689,00", "8.849,32 €", "180.000", "März 2025"]


def test_without_a_locale_the_code_s_own_notation(tmp_path: Path) -> None:
    path = _workbook(tmp_path / "plain.xlsx", [
        (1689, "#,##0.00"), (189.9, "0.00"), (0.125, "0.0%"), (0.3, "0%"), (-1234.5, "#,##0.00;(#,##0.00)"),
        (1234.5, '#,##0.00 "EUR"'), (dt.datetime(2025, 8, 31), "mm-dd-yy"),
    ], text="Prices per unit")
    assert _row(path) == ["1,689.00", "189.90", "12.5%", "30%", "(1,234.50)", "1,234.50 EUR", "2025-08-31"]


def test_a_workbook_writing_german_notation_shows_german_marks(tmp_path: Path) -> None:
    path = _workbook(tmp_path / "register.xlsx", [
        (1689, "#,##0.00"), (96000, "#,##0"), (0.1 + 0.2, "General"), (dt.datetime(2025, 8, 31), "mm-dd-yy"),
    ], text="Stand: 30.06.2025 · Kilometer × 0,30 €")
    assert _row(path) == ["1.689,00", "96.000", "0,3", "31.08.2025"]


def test_a_workbook_writing_english_notation_shows_english_marks(tmp_path: Path) -> None:
    path = _workbook(tmp_path / "expenses.xlsx", [(1150, "#,##0.00"), (dt.datetime(2025, 8, 31), "mm-dd-yy")],
                     text="Private car, 212 km × €0.30")
    assert _row(path) == ["1,150.00", "8/31/2025"]


def test_general_numbers_have_no_float_noise(tmp_path: Path) -> None:
    path = _workbook(tmp_path / "general.xlsx", [(0.1 + 0.2, "General"), (2.0, "General"), (1 / 3, "General"),
                                                 (731, "00000")])
    assert _row(path) == ["0.3", "2", "0.333333333333333", "00731"]


def test_a_date_with_a_time_of_day_still_reads_as_a_date() -> None:
    assert parse_date("2025-02-01 0:00:00") == dt.date(2025, 2, 1)
    assert parse_date("31.08.2025 14:05") == dt.date(2025, 8, 31)


def _truth_rows(cases: set[str]) -> list[tuple[str, dict[str, str]]]:
    truth = json.loads((BUSINESS / "truth.json").read_text(encoding="utf-8"))
    return [
        (row["file"], row["values"])
        for case in truth["cases"] if case["id"] in cases
        for row in case["rows"] if row["file"].endswith(".xlsx")
    ]


def test_the_values_a_reader_sees_are_in_the_parsed_workbooks() -> None:
    """German workbooks (c01, c03, c04, c17, c19) show German marks and dates, English ones (c07, c20)
    keep English marks and ISO dates; each true row stands in one row of the sheet's table."""
    missing = []
    cases = ["unseen-c01", "unseen-c03", "unseen-c04", "unseen-c17", "unseen-c19", "unseen-c07", "unseen-c20"]
    for case in cases:
        rows = _truth_rows({case})
        assert rows, case
        for file, values in rows:
            document = parse_file(BUSINESS / "documents" / file)
            text = "\n".join(document.pages)
            missing += [(case, column, value) for column, value in values.items() if value not in text]
            # document-level values (c17: a total under the table, a date in a title line) aside
            lines = [" | ".join(row) for table in document.tables for row in table.rows]
            if case != "unseen-c17" and not any(all(v in line for v in values.values()) for line in lines):
                missing.append((case, "row", values))
    assert missing == []


def test_the_sql_workspace_still_reads_the_displayed_numbers() -> None:
    document = parse_file(BUSINESS / "documents" / "legal" / "contracts" / "Vertragsregister_2025.xlsx")
    table = document.tables[0]
    header, rows = table.header, table.rows
    values = header.index("Jahreswert (EUR)")
    columns = [[row[k] for row in rows] for k in range(len(header))]
    assert column_notations(columns)[values] == EUROPEAN
    assert [parse_number(row[values]) for row in rows[:3]] == [180000, 38400, 28800]


def test_version_numbers_and_addresses_are_no_evidence_of_a_notation(tmp_path: Path) -> None:
    path = _workbook(tmp_path / "versions.xlsx", [(1689, "#,##0.00")],
                     text="Firmware 1.2.3 on host 10.0.0.1, Stand 30.06.2025")
    assert _row(path) == ["1.689,00"]  # the dotted date tells; the version and the address do not


def test_codes_past_what_is_drawn_still_give_the_number(tmp_path: Path) -> None:
    cells = [(1e300, "0.00000000"), (0.75, "# ?/?"), (12.5, 'General\\ "Stk."')]
    path = _workbook(tmp_path / "odd.xlsx", cells)
    huge, fraction, pieces = _row(path)
    assert huge == "1" + "0" * 300 + ".00000000"  # 15 significant digits, as a spreadsheet keeps
    assert fraction == "0.75" and pieces == "12.5 Stk."


def test_a_dotted_date_code_is_no_sign_of_the_workbook_s_notation(tmp_path: Path) -> None:
    """An English supplier invoice whose date cell is coded DD.MM.YYYY shows its prices as its
    code writes them, as the held-out set's author read them ("18.75", not "18,75")."""
    path = _workbook(tmp_path / "invoice.xlsx", [(18.75, "#,##0.00"), (dt.datetime(2024, 3, 12), "dd.mm.yyyy")],
                     text="Invoice no.: HM-24-0311")
    assert _row(path) == ["18.75", "12.03.2024"]
    corvane = ROOT / "evals" / "unseen" / "corvane" / "documents" / "Purchasing" / "Invoices" / "2024" / "Halvorsen Metals"
    text = "\n".join(parse_file(corvane / "HM-24-0311.xlsx").pages)
    assert "18.75" in text and "18,75" not in text and "12.03.2024" in text


def test_footnote_marks_glued_to_a_name_are_no_evidence_of_a_notation(tmp_path: Path) -> None:
    """A telecom workbook's "Vodacom4,5" (Vodacom, notes 4 and 5) made the whole workbook
    European: its rates showed as "0,86" where the sheet shows "0.86"."""
    path = _workbook(tmp_path / "notes.xlsx", [(0.8571, "0.00"), (0.202, "0.0%")], "Vodacom4,5")
    assert _row(path) == ["0.86", "20.2%"]


def test_labels_apart_from_their_figures_by_a_spacer_column_are_one_table(tmp_path: Path) -> None:
    """A report's workbook: the markets and their lines in column B, the quarters' figures from
    column D, the quarters' header a row lower than the sheet's title. Each figure keeps its label."""
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet.append(["", "Mobile churn"])
    sheet.append(["", "", "", "Q1 22/23", "Q1 23/24"])
    for market, figures in [("Germany", (0.143, 0.18)), ("Italy", (0.21, 0.202))]:
        sheet.append(["", market])
        sheet.append(["", "Total", "", *figures])
        sheet.append(["", "Contract", "", figures[0] - 0.01, figures[1] - 0.01])
    for row in sheet.iter_rows(min_row=3):
        for cell in row[3:]:
            cell.number_format = "0.0%"
    path = tmp_path / "churn.xlsx"
    workbook.save(str(path))
    (table,) = parse_file(path).tables
    assert table.header[-2:] == ["Q1 22/23", "Q1 23/24"]
    rows = [[c for c in row if c] for row in table.rows]
    assert rows[:3] == [["Germany"], ["Total", "14.3%", "18.0%"], ["Contract", "13.3%", "17.0%"]]
    assert ["Total", "21.0%", "20.2%"] in rows


def test_two_tables_side_by_side_under_the_same_names_are_two(tmp_path: Path) -> None:
    """A workbook of "Big Cities" and "Small Cities" beside each other, each headed City,
    Latitude, Longitude, Population on the same row: two tables, each with its title."""
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet.append(["", "Big Cities", "", "", "", "", "Small Cities"])
    sheet.append(["", "City", "Latitude", "Population", "", "", "City", "Latitude", "Population"])
    sheet.append(["", "Shanghai, China", 31.23, 24256800, "", "", "Pyongyang, North Korea", 39.02, 2581000])
    sheet.append(["", "Karachi, Pakistan", 24.86, 23500000, "", "", "Auckland, New Zealand", -36.84, 1454000])
    path = tmp_path / "cities.xlsx"
    workbook.save(str(path))
    big, small = parse_file(path).tables
    assert big.header == small.header == ["City", "Latitude", "Population"]
    assert (big.title, small.title) == (["Big Cities"], ["Small Cities"])
    assert [r[0] for r in small.rows] == ["Pyongyang, North Korea", "Auckland, New Zealand"]
