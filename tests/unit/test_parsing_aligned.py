"""Plain-text files whose table columns are aligned with spaces become tables.

Every layout is written here; each checks the table and that its rows stand in the page text
as TAB-joined lines, as with every other parser.
"""

from __future__ import annotations

import random
import textwrap
from pathlib import Path

from tools.parsing import ParsedDocument, parse_file
from tools.parsing.aligned import find_tables


def _parse(tmp_path: Path, text: str, name: str = "doc.txt") -> ParsedDocument:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return parse_file(path)


def _assert_rows_in_text(doc: ParsedDocument) -> None:
    for table in doc.tables:
        lines = doc.pages[table.page - 1].split("\n")
        for row in [table.header, *table.rows]:
            assert "\t".join(row) in lines, (table.page, row)


GERMAN_INVOICE = """\
Nordwerk GmbH, Hamburg
Rechnung Nr.:  NW-2025-0042
Datum:         14.03.2025

Pos  Art.-Nr.    Beschreibung                Menge   Einzelpreis   Gesamtpreis
---  ---------   -------------------------   -----   -----------   -----------
  1  NW-4711     Server Rack 42HE                2      1.249,00      2.498,00
  2  NW-0815     Patchkabel Cat6 2 m            25          4,50        112,50
  3  NW-1001     Installation vor Ort            1        350,00        350,00
 10  NW-2000     Wartungsvertrag 12 Monate       1     12.000,00     12.000,00
                                                                   -----------
Summe netto:                                                         14.960,50

Zahlbar innerhalb von 30 Tagen ohne Abzug. Vielen Dank für Ihren Auftrag.
"""


def test_invoice_with_separator_total_and_prose(tmp_path: Path) -> None:
    doc = _parse(tmp_path, GERMAN_INVOICE)
    assert len(doc.tables) == 1
    table = doc.tables[0]
    assert table.page == 1
    assert table.header == ["Pos", "Art.-Nr.", "Beschreibung", "Menge", "Einzelpreis", "Gesamtpreis"]
    assert table.rows == [
        ["1", "NW-4711", "Server Rack 42HE", "2", "1.249,00", "2.498,00"],
        ["2", "NW-0815", "Patchkabel Cat6 2 m", "25", "4,50", "112,50"],
        ["3", "NW-1001", "Installation vor Ort", "1", "350,00", "350,00"],
        ["10", "NW-2000", "Wartungsvertrag 12 Monate", "1", "12.000,00", "12.000,00"],
    ]
    _assert_rows_in_text(doc)
    lines = doc.pages[0].split("\n")
    # the key-value lines above, the total and the prose below stay text, outside the table
    assert "Rechnung Nr.:  NW-2025-0042" in lines
    assert any(line.startswith("Summe netto:") for line in lines)
    assert "Zahlbar innerhalb von 30 Tagen ohne Abzug. Vielen Dank für Ihren Auftrag." in lines
    assert not any(line.startswith("---  ---------") for line in lines)  # the separator went with the table


def test_left_aligned_list_with_equals_rule_and_cells_with_spaces(tmp_path: Path) -> None:
    text = (
        "Price list, spring 2025\n\n"
        "Product name              Category            Price\n"
        "=====================================================\n"
        "USB-C docking station     Accessories         189.00\n"
        "Cat6 patch cable 5 m      Cables              4.50\n"
        "Rack shelf 1 U            Racks and frames    39.90\n"
    )
    doc = _parse(tmp_path, text)
    assert [(t.header, t.rows) for t in doc.tables] == [
        (
            ["Product name", "Category", "Price"],
            [
                ["USB-C docking station", "Accessories", "189.00"],
                ["Cat6 patch cable 5 m", "Cables", "4.50"],
                ["Rack shelf 1 U", "Racks and frames", "39.90"],
            ],
        )
    ]
    assert doc.title == "Price list, spring 2025"
    _assert_rows_in_text(doc)


def test_two_tables_on_two_pages_with_empty_and_wrapped_cells(tmp_path: Path) -> None:
    text = (
        "Ticket overview\n\n"
        "Ticket    Customer          Priority   Status\n"
        "T-1042    Acme GmbH         P1         open\n"
        "T-1043    Zeta Ltd                     waiting\n"
        "T-1044    Brightline Inc.   P3         closed\n"
        "\f"
        "Deliveries\n"
        "Date         Item                          Pieces\n"
        "2025-03-01   Server rack with doors and        2\n"
        "             side panels, black\n"
        "2025-03-04   Patch cable                      25\n"
    )
    doc = _parse(tmp_path, text)
    first, second = doc.tables
    assert first.page == 1 and first.header == ["Ticket", "Customer", "Priority", "Status"]
    assert first.rows[1] == ["T-1043", "Zeta Ltd", "", "waiting"]
    assert second.page == 2 and second.header == ["Date", "Item", "Pieces"]
    # a text cell wrapped onto a line of its own runs on in the row above
    assert second.rows == [
        ["2025-03-01", "Server rack with doors and side panels, black", "2"],
        ["2025-03-04", "Patch cable", "25"],
    ]
    _assert_rows_in_text(doc)
    assert not any(line.strip() == "side panels, black" for line in doc.pages[1].split("\n"))


def test_wide_characters_count_as_two_columns(tmp_path: Path) -> None:
    text = "품목          수량   단가\n서버 랙           2   1,249,000\n패치 케이블      25   4,500\n"
    doc = _parse(tmp_path, text)
    assert doc.tables[0].header == ["품목", "수량", "단가"]
    assert doc.tables[0].rows == [["서버 랙", "2", "1,249,000"], ["패치 케이블", "25", "4,500"]]


def test_key_value_blocks_are_no_tables(tmp_path: Path) -> None:
    text = (
        "Ticket:      T-1042\n"
        "Customer:    Acme GmbH\n"
        "Priority:    P1\n"
        "Subject:     Printer on floor 2 offline\n\n"
        "Customer: Acme GmbH          Date: 2025-03-14\n"
        "Contact: Jane Roe            Phone: +49 40 1234\n"
        "Order: 4711                  Due: 2025-04-14\n"
    )
    doc = _parse(tmp_path, text)
    assert doc.tables == []
    assert doc.pages[0] == text


def _justify(paragraph: str, width: int) -> list[str]:
    """Lines padded with spaces between words to fill ``width``, as old text documents are."""
    lines = textwrap.wrap(paragraph, width)
    out = []
    for line in lines[:-1]:
        words = line.split()
        missing = width - len(line)
        gaps = len(words) - 1
        spaced = [words[0]]
        for k, word in enumerate(words[1:]):
            spaced.append(" " * (1 + missing // gaps + (k < missing % gaps)) + word)
        out.append("".join(spaced))
    return out + lines[-1:]


def test_prose_never_becomes_a_table(tmp_path: Path) -> None:
    rng = random.Random(3)
    words = "the supplier delivers every order within ten working days and invoices it at the end of each month".split()
    paragraphs = [" ".join(rng.choice(words) for _ in range(120)) for _ in range(30)]
    text = "\n\n".join("\n".join(_justify(p, width)) for p, width in zip(paragraphs, [40, 52, 60] * 10))
    text += "\n\nTwo sentences.  Each one ends with two spaces.\nSo do these.  They line up by chance.\n"
    doc = _parse(tmp_path, text)
    assert doc.tables == []
    assert doc.pages[0] == text


def test_a_single_row_and_tab_lines_are_left_alone(tmp_path: Path) -> None:
    text = "Item          Qty   Price\nServer rack     2   1.249,00\n\nServer rack\t2\t1.249,00\nCable\t10\t4.50\n"
    doc = _parse(tmp_path, text)
    assert doc.tables == []
    assert doc.pages[0] == text


def test_values_one_space_apart_under_two_columns_split_where_the_columns_part() -> None:
    """An accounting export prints two dates one space apart under headers two spaces apart."""
    lines = [
        "Kunde                        Kd-Nr.   Beleg         Belegdat.  Fällig am     Betrag EUR   Tage",
        "----------------------------------------------------------------------------------------------",
        "Feldmann Bau GmbH            C-20502  AR-2025-0219  13.06.2025 13.07.2025      9.840,00      -",
        "Lindqvist Retail AB          C-20417  AR-2025-0188  12.05.2025 11.06.2025     14.326,80     19",
        "Maison Bérard SA             C-20511  AR-2025-0120  28.03.2025 27.04.2025      6.455,00     64",
    ]
    (table,) = find_tables(lines)
    assert table.rows[0] == ["Kunde", "Kd-Nr.", "Beleg", "Belegdat.", "Fällig am", "Betrag EUR", "Tage"]
    assert table.rows[2] == ["Lindqvist Retail AB", "C-20417", "AR-2025-0188", "12.05.2025", "11.06.2025", "14.326,80", "19"]
    # a name with one space inside a column is never split
    assert table.rows[1][0] == "Feldmann Bau GmbH"
