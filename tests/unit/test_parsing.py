"""The document parsers: every format gives its text and tables, bad files a clear reason.

Every input is generated here with the libraries that write the format; nothing binary is
committed.
"""

from __future__ import annotations

import datetime as dt
import shutil
import subprocess
import zipfile
from pathlib import Path

import docx
import openpyxl
import pytest
from fpdf import FPDF
from pptx import Presentation
from pptx.util import Inches

from tools.parsing import SUPPORTED_SUFFIXES, ParsedDocument, UnreadableFile, parse_file

NORDWERK_HEADER = ["Pos.", "Art.-Nr.", "Beschreibung", "Menge", "Einzelpreis", "Gesamtpreis"]
NORDWERK_ROWS = [
    ["1", "NW-4711", "Server Rack 42HE", "2", "1.249,00", "2.498,00"],
    ["2", "NW-0815", "Patchkabel Cat6 2 m", "25", "4,50", "112,50"],
    ["3", "NW-1001", "Installation vor Ort", "1", "350,00", "350,00"],
]
BRIGHTLINE_HEADER = ["Item", "Description", "Qty", "Unit price", "Amount"]
BRIGHTLINE_ROWS = [
    ["1", "USB-C docking station", "2", "1,249.00", "2,498.00"],
    ["2", "Cat6 patch cable 5 m", "25", "4.50", "112.50"],
    ["3", "On-site installation", "1", "350.00", "350.00"],
]


def assert_rows_in_text(doc: ParsedDocument) -> None:
    """Every row of every table is a whole TAB-joined line of its page."""
    for table in doc.tables:
        lines = doc.pages[table.page - 1].split("\n")
        for row in [table.header, *table.rows]:
            assert "\t".join(row) in lines, (table.page, row)


def unicode_font() -> Path | None:
    for candidate in Path("/usr/share/fonts").rglob("DejaVuSans.ttf"):
        return candidate
    return None


# --- plain text, Markdown, CSV ------------------------------------------------------------


def test_supported_suffixes() -> None:
    assert SUPPORTED_SUFFIXES == {".txt", ".md", ".csv", ".pdf", ".docx", ".xlsx", ".hwpx", ".pptx"}


def test_txt_pages_split_on_form_feed(tmp_path: Path) -> None:
    path = tmp_path / "ticket.TXT"
    path.write_text("\n  Ticket: T-1042\nPriority: P1\fSecond page\n", encoding="utf-8")
    doc = parse_file(path)
    assert doc.media_type == "text/plain"
    assert doc.title == "Ticket: T-1042"
    assert len(doc.pages) == 2 and "Second page" in doc.pages[1]


def test_txt_falls_back_to_cp1252(tmp_path: Path) -> None:
    path = tmp_path / "legacy.txt"
    path.write_bytes("Größe: 5 €".encode("cp1252"))
    assert parse_file(path).pages == ["Größe: 5 €"]


def test_markdown_pipe_table(tmp_path: Path) -> None:
    path = tmp_path / "sla.md"
    path.write_text(
        "Intro line\n\n# Service Level Agreement\n\n"
        "| Priority | Response time | Resolution time |\n"
        "|:---|---:|---|\n"
        "| P1 | 1 hour | 4  hours |\n"
        "| P2 | 4 hours | 1 business day |\n\n"
        "```\n| not | a table |\n|---|---|\n```\n",
        encoding="utf-8",
    )
    doc = parse_file(path)
    assert doc.media_type == "text/markdown"
    assert doc.title == "Service Level Agreement"
    assert len(doc.tables) == 1
    table = doc.tables[0]
    assert table.header == ["Priority", "Response time", "Resolution time"]
    assert table.rows == [["P1", "1 hour", "4 hours"], ["P2", "4 hours", "1 business day"]]
    assert "|:---|" not in doc.pages[0]
    assert "| not | a table |" in doc.pages[0]
    assert_rows_in_text(doc)


def test_csv_semicolon_with_bom(tmp_path: Path) -> None:
    path = tmp_path / "positions.csv"
    path.write_bytes('\ufeffPos;Beschreibung;Preis\n1;Kabel;"1.249,00"\n2;Dock\n'.encode("utf-8"))
    doc = parse_file(path)
    assert doc.media_type == "text/csv"
    assert doc.tables[0].header == ["Pos", "Beschreibung", "Preis"]
    assert doc.tables[0].rows == [["1", "Kabel", "1.249,00"], ["2", "Dock", ""]]
    assert_rows_in_text(doc)


# --- PDF ----------------------------------------------------------------------------------


def _ruled_invoice(path: Path, rows: list[list[str]]) -> None:
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", size=10)
    pdf.cell(0, 6, "Nordwerk GmbH, Hamburg", new_x="LMARGIN", new_y="NEXT")
    pdf.cell(0, 6, "Rechnung Nr. NW-2025-0042", new_x="LMARGIN", new_y="NEXT")
    with pdf.table(col_widths=(12, 22, 60, 16, 28, 28), repeat_headings=0) as table:
        for cells in [NORDWERK_HEADER, *rows]:
            row = table.row()
            for cell in cells:
                row.cell(cell)
    pdf.cell(0, 6, "Summe netto 2.960,50 EUR", new_x="LMARGIN", new_y="NEXT")
    pdf.output(str(path))


def _unruled_row(pdf: FPDF, cells: list[str], bold: bool = False) -> None:
    # headers aligned left over numbers aligned right, as many invoices are set
    pdf.set_font("Helvetica", "B" if bold else "", 10)
    aligns = "LLLLL" if bold else "LLRRR"
    for width, cell, align in zip((15, 75, 20, 35, 35), cells, aligns):
        pdf.cell(width, 6, cell, align=align)
    pdf.ln(6)


def _unruled_invoice(path: Path, rows: list[list[str]], rows_on_first_page: int) -> None:
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", size=14)
    pdf.cell(0, 8, "Brightline Ltd", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", size=10)
    pdf.cell(0, 6, "Invoice no. BL-2024-03        Date: 2024-03-15", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(4)
    _unruled_row(pdf, BRIGHTLINE_HEADER, bold=True)
    for number, cells in enumerate(rows):
        if number == rows_on_first_page:
            pdf.add_page()
            pdf.set_font("Helvetica", size=8)
            pdf.cell(0, 5, "Brightline Ltd - Invoice BL-2024-03 - page 2", new_x="LMARGIN", new_y="NEXT")
            pdf.ln(4)
        _unruled_row(pdf, cells)
    _unruled_row(pdf, ["", "Total", "", "", "2,960.50"], bold=True)
    pdf.set_font("Helvetica", size=10)
    pdf.multi_cell(0, 5, "Payment within 30 days. Thank you for your business.")
    pdf.output(str(path))


def test_pdf_ruled_table(tmp_path: Path) -> None:
    path = tmp_path / "nordwerk.pdf"
    _ruled_invoice(path, NORDWERK_ROWS)
    doc = parse_file(path)
    assert doc.media_type == "application/pdf"
    assert doc.title == "Nordwerk GmbH, Hamburg"
    assert len(doc.tables) == 1
    assert doc.tables[0].header == NORDWERK_HEADER
    assert doc.tables[0].rows == NORDWERK_ROWS
    assert_rows_in_text(doc)
    lines = doc.pages[0].split("\n")
    assert lines[0] == "Nordwerk GmbH, Hamburg"
    assert lines[-1] == "Summe netto 2.960,50 EUR"


def test_pdf_unruled_table_keeps_multiword_cells(tmp_path: Path) -> None:
    path = tmp_path / "brightline.pdf"
    _unruled_invoice(path, BRIGHTLINE_ROWS, rows_on_first_page=99)
    doc = parse_file(path)
    assert len(doc.tables) == 1
    table = doc.tables[0]
    assert table.header == BRIGHTLINE_HEADER
    assert table.rows == BRIGHTLINE_ROWS
    assert_rows_in_text(doc)
    lines = doc.pages[0].split("\n")
    # the letterhead before the table, the total and the prose after it, in page order
    assert lines.index("Brightline Ltd") < lines.index("\t".join(BRIGHTLINE_HEADER))
    assert lines.index("\t".join(BRIGHTLINE_ROWS[-1])) < lines.index("Total 2,960.50")
    assert lines[-1] == "Payment within 30 days. Thank you for your business."


def test_pdf_unruled_table_wrapped_cell_stays_one_row(tmp_path: Path) -> None:
    path = tmp_path / "tessel.pdf"
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", size=10)
    pdf.cell(0, 6, "Tessel Trading", new_x="LMARGIN", new_y="NEXT")
    long = "Nordwerk USB-C dock (resold) with power supply and a two metre cable"
    rows = [
        BRIGHTLINE_HEADER,
        ["1", long, "2", "1,249.00", "2,498.00"],
        ["2", "HDMI cable", "3", "4.00", "12.00"],
    ]
    with pdf.table(
        borders_layout="NONE",
        col_widths=(12, 50, 15, 30, 30),
        text_align=("LEFT", "LEFT", "RIGHT", "RIGHT", "RIGHT"),
        v_align="TOP",
    ) as table:
        for cells in rows:
            row = table.row()
            for cell in cells:
                row.cell(cell)
    pdf.output(str(path))
    doc = parse_file(path)
    assert [[doc.tables[0].header, *doc.tables[0].rows]] == [rows]
    assert_rows_in_text(doc)


@pytest.mark.parametrize("continued", [3, 1])
def test_pdf_unruled_table_continues_on_page_two(tmp_path: Path, continued: int) -> None:
    path = tmp_path / "brightline-long.pdf"
    rows = [[str(n), f"Cat6 patch cable {n} m", "10", "4.50", "45.00"] for n in range(1, 31 + continued)]
    _unruled_invoice(path, rows, rows_on_first_page=30)
    doc = parse_file(path)
    assert [t.page for t in doc.tables] == [1, 2]
    first, second = doc.tables
    assert first.header == BRIGHTLINE_HEADER and first.rows == rows[:30]
    # no header repeated: the first row continuing the table stands in its place
    assert [second.header, *second.rows] == rows[30:]
    assert_rows_in_text(doc)
    assert doc.pages[1].split("\n")[0] == "Brightline Ltd - Invoice BL-2024-03 - page 2"


def test_pdf_single_row_continuing_on_page_two(tmp_path: Path) -> None:
    path = tmp_path / "nordwerk-long.pdf"
    rows = [[str(n), f"NW-{n:04d}", "Patchkabel Cat6", "1", "4,50", "4,50"] for n in range(1, 41)]
    _ruled_invoice(path, rows)
    doc = parse_file(path)
    assert len(doc.pages) == 2
    assert doc.tables[0].header == NORDWERK_HEADER
    continued = [t for t in doc.tables if t.page == 2]
    assert len(continued) == 1
    assert doc.tables[0].rows + [continued[0].header, *continued[0].rows] == rows
    assert_rows_in_text(doc)


RESULTS_HEADER = ["Rank", "Name", "Club", "Time", "", "Reaction"]
RESULTS_ROWS = [
    ["1", "Anna Berg", "SV Nord", "1:02.35", "CR", "0.71"],
    ["2", "Lena Maria Vogt", "Schwimmverein Hamburg Nord 1899", "1:04.10", "", "0.80"],
    ["", "Eva Lind", "TSV Kiel", "DSQ", "", ""],
    ["", "Mia Roth", "SC Bremen", "DNS", "", ""],
]
RESULTS_REMARK = "Disqualified: false start at the turn"
REAL_RESULTS = Path(__file__).resolve().parents[2] / "evals" / "real" / "swimming" / "documents"
REAL_HEADER = ["Rank", "HT/LN", "Name", "Fed.", "YB", "Team", "50m", "Time", "(R.T.)"]


def _results_list(path: Path) -> None:
    """A results list set in a monospaced font without ruling lines, as timing systems print.

    Every row spans two lines: rank, name and club on the first, the time right-aligned under
    its header (and a record mark beside it) and the reaction time on the second. The header
    spans two lines too, a long club runs on under the Time header, and a disqualification
    adds a remark under its row that straddles the Club and Time columns.
    """
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Courier", size=9)
    y = 20.0

    def put(x: float, text: str, right: bool = False) -> None:
        pdf.text(x - pdf.get_string_width(text) if right else x, y, text)

    put(10, "Women 100 m freestyle")
    put(126, "Record 58.10")
    y += 8
    for x, word in ((10, "Rank"), (25, "Name"), (75, "Club"), (130, "Time")):
        put(x, word)
    y += 4
    put(160, "Reaction")
    y += 6
    for rank, name, club, time, mark, reaction in RESULTS_ROWS:
        put(12, rank)
        put(25, name)
        put(75, club)
        y += 4
        put(145, time, right=True)
        put(149, mark)
        put(160, reaction)
        if time == "DSQ":
            y += 4
            put(80, RESULTS_REMARK)
        y += 6
    y += 30
    put(10, "Printed 2025-06-01")
    pdf.output(str(path))


def test_pdf_unruled_rows_on_two_lines(tmp_path: Path) -> None:
    path = tmp_path / "results.pdf"
    _results_list(path)
    doc = parse_file(path)
    assert len(doc.tables) == 1
    table = doc.tables[0]
    # "Reaction" names a column from the header's second line; the record mark has a column
    # of its own, unnamed
    assert table.header == RESULTS_HEADER
    assert table.rows == RESULTS_ROWS
    assert_rows_in_text(doc)
    lines = doc.pages[0].split("\n")
    assert lines[0] == "Women 100 m freestyle Record 58.10"
    # the remark stays in the text under its row, and is no row of the table
    assert lines.index(RESULTS_REMARK) == lines.index("\t".join(RESULTS_ROWS[2])) + 1
    assert lines[-1] == "Printed 2025-06-01"


def test_pdf_real_results_list() -> None:
    doc = parse_file(REAL_RESULTS / "ma_2023_sw_M-table2.pdf")
    assert [t.page for t in doc.tables] == [1, 2, 3]
    assert all(t.header == REAL_HEADER for t in doc.tables)
    assert doc.tables[0].rows == [
        ["1", "1/0", "Kazuo YASUIKE", "JPN", "1928", "OISO MSC", "", "1:12.15", "( -----)"]
    ]
    rows = doc.tables[1].rows
    assert [row[2] for row in rows] == [
        "Fritz ILGEN",
        "Fusao TAKAHASHI",
        "Chen-I LIN",
        "Adelson LEITE JULIAO",
        "Itaru YANAGAWA",
        "Carlos SALAZAR FLORES",
        "Takashi MASAMURA",
    ]
    # the team runs on under the Time header; the time stands on the line below
    assert rows[3] == [
        "4",
        "1/2",
        "Adelson LEITE JULIAO",
        "BRA",
        "1933",
        "CIRCULO MILITAR DE FORTALEZA",
        "",
        "1:15.23",
        "(1.06)",  # the space lining up its digits is no part of the figure
    ]
    assert rows[4] == ["", "1/6", "Itaru YANAGAWA", "JPN", "1930", "ITOMAN NAGAZUMI", "", "DSQ", ""]
    lines = doc.pages[1].split("\n")
    assert lines[lines.index("\t".join(rows[4])) + 1] == "BaF:Did not finish on back"
    assert_rows_in_text(doc)
    # a record mark between the time and the reaction time gets a column of its own
    marked = parse_file(REAL_RESULTS / "ma_2023_sw_M-table3.pdf").tables[2]
    assert marked.header == [*REAL_HEADER[:8], "", "(R.T.)"]
    assert marked.rows[0][7:] == ["45.42", "WR-CR", "(0.85)"]


def test_pdf_unicode_text(tmp_path: Path) -> None:
    font = unicode_font()
    if font is None:
        pytest.skip("no DejaVuSans font on this machine")
    path = tmp_path / "unicode.pdf"
    pdf = FPDF()
    pdf.add_font("DejaVu", fname=str(font))
    pdf.add_page()
    pdf.set_font("DejaVu", size=11)
    pdf.cell(0, 6, "Angebot für Łódź – Preis 1.249,00 €", new_x="LMARGIN", new_y="NEXT")
    pdf.output(str(path))
    assert parse_file(path).pages[0] == "Angebot für Łódź – Preis 1.249,00 €"


def test_pdf_korean_text(tmp_path: Path) -> None:
    fonts = (
        shutil.which("fc-list")
        and subprocess.run(
            ["fc-list", ":lang=ko", "file"], capture_output=True, text=True, check=False
        ).stdout.split()
    )
    font = next((f.rstrip(":") for f in fonts or [] if f.rstrip(":").endswith((".ttf", ".otf"))), None)
    if font is None:
        pytest.skip("no font with Hangul on this machine")
    path = tmp_path / "korean.pdf"
    pdf = FPDF()
    pdf.add_font("Hangul", fname=font)
    pdf.add_page()
    pdf.set_font("Hangul", size=11)
    pdf.cell(0, 6, "견적서 2025", new_x="LMARGIN", new_y="NEXT")
    pdf.output(str(path))
    assert "견적서 2025" in parse_file(path).pages[0]


# --- Word, Excel, PowerPoint --------------------------------------------------------------


def test_docx_paragraphs_and_tables_in_order(tmp_path: Path) -> None:
    document = docx.Document()
    document.add_paragraph("Nordwerk GmbH, Hamburg")
    document.add_heading("Rechnung NW-2024-0007", level=1)
    document.add_paragraph("Positionen laut Auftrag:")
    table = document.add_table(rows=1 + len(NORDWERK_ROWS), cols=6)
    for r, cells in enumerate([NORDWERK_HEADER, *NORDWERK_ROWS]):
        for c, text in enumerate(cells):
            table.cell(r, c).text = text
    table.cell(1, 2).paragraphs[0].add_run("\n")  # a line break inside a cell
    document.add_paragraph("Zahlbar innerhalb von 30 Tagen.")
    document.add_page_break()
    document.add_paragraph("Allgemeine Geschäftsbedingungen")
    merged = document.add_table(rows=2, cols=3)
    merged.cell(0, 0).merge(merged.cell(0, 1)).text = "Zeitraum"
    merged.cell(0, 2).text = "Betrag"
    for c, text in enumerate(["Jan", "Feb", "1.000,00"]):
        merged.cell(1, c).text = text
    path = tmp_path / "nordwerk-2024-07.docx"
    document.save(str(path))

    doc = parse_file(path)
    assert doc.media_type.endswith("wordprocessingml.document")
    assert doc.title == "Rechnung NW-2024-0007"
    assert len(doc.pages) == 2
    first, merged_table = doc.tables
    assert first.page == 1 and first.header == NORDWERK_HEADER and first.rows == NORDWERK_ROWS
    lines = doc.pages[0].split("\n")
    assert lines.index("Positionen laut Auftrag:") < lines.index("\t".join(NORDWERK_HEADER))
    assert lines.index("\t".join(NORDWERK_ROWS[-1])) < lines.index("Zahlbar innerhalb von 30 Tagen.")
    assert merged_table.page == 2
    # "Zeitraum" spans the two columns over "Jan" and "Feb": "Betrag" stays over the amount, and
    # the table says which column the merged cell spans
    assert merged_table.header == ["Zeitraum", "", "Betrag"]
    assert merged_table.rows == [["Jan", "Feb", "1.000,00"]]
    assert merged_table.spanned == [[1], []]
    assert merged_table.as_held() == (["Zeitraum", "Betrag"], [["Jan", "Feb", "1.000,00"]])
    assert doc.pages[1].startswith("Allgemeine Geschäftsbedingungen")
    assert_rows_in_text(doc)


def test_docx_table_nested_in_a_cell_stays_in_that_cell_and_is_a_table_too(tmp_path: Path) -> None:
    document = docx.Document()
    document.add_paragraph("Angebot AN-2025-0012")
    outer = document.add_table(rows=2, cols=3)
    for c, text in enumerate(["Pos.", "Leistung", "Preis"]):
        outer.cell(0, c).text = text
    outer.cell(1, 0).text = "1"
    outer.cell(1, 2).text = "2.498,00"
    cell = outer.cell(1, 1)
    cell.text = "Server Rack 42HE, bestehend aus:"
    inner = cell.add_table(rows=3, cols=2)
    for r, cells in enumerate([["Teil", "Menge"], ["Rahmen", "1"], ["Seitenwand", "2"]]):
        for c, text in enumerate(cells):
            inner.cell(r, c).text = text
    deeper = inner.cell(2, 1).add_table(rows=1, cols=2)  # a table inside the nested one
    deeper.cell(0, 0).text = "links"
    deeper.cell(0, 1).text = "rechts"
    path = tmp_path / "angebot.docx"
    document.save(str(path))

    doc = parse_file(path)
    assert len(doc.tables) == 3  # the enclosing table, then each nested one as a table of its own
    table, nested, deepest = doc.tables
    assert (nested.header, nested.rows[0]) == (["Teil", "Menge"], ["Rahmen", "1"])
    assert nested.rows[1][0] == "Seitenwand" and nested.rows[1][1].split() == ["2", "links", "/", "rechts"]
    assert deepest.header == ["links", "rechts"]
    assert table.header == ["Pos.", "Leistung", "Preis"]
    assert table.rows == [
        ["1", "Server Rack 42HE, bestehend aus: Teil / Menge; Rahmen / 1; Seitenwand / 2 links / rechts", "2.498,00"]
    ]
    assert_rows_in_text(doc)


def test_xlsx_keeps_notation(tmp_path: Path) -> None:
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet.title = "Prices"
    sheet.append(["Item code", "Description", "Product group", "Unit price", "Stock", "Since", None])
    sheet.append(["00731", "Cat6 patch cable 2 m", "Cables", 1249.5, 12, dt.date(2025, 1, 31)])
    sheet.append([None] * 6)
    sheet.append([731, "HDMI cable", "Cables", 4.5, 3.0, dt.datetime(2025, 2, 1, 0, 0)])
    sheet.append([42, "Rack shelf", "Racks", 0.3, 7])
    sheet["A4"].number_format = "00000"
    sheet["D2"].number_format = "#,##0.00"
    sheet["D3"].number_format = "#,##0.00"  # a styled empty cell leaves its row empty
    sheet["D4"].number_format = "0.00"
    workbook.create_sheet("Empty")
    notes = workbook.create_sheet("Notes")
    notes["B2"] = "Prices in EUR"
    path = tmp_path / "price-list-2025.xlsx"
    workbook.save(str(path))

    doc = parse_file(path)
    assert doc.media_type.endswith("spreadsheetml.sheet")
    assert doc.title == "price-list-2025"
    assert len(doc.pages) == 2 and [t.page for t in doc.tables] == [1, 2]
    prices = doc.tables[0]
    assert doc.pages[0].split("\n")[0] == "Prices"
    assert prices.header == ["Item code", "Description", "Product group", "Unit price", "Stock", "Since"]
    assert prices.rows == [
        ["00731", "Cat6 patch cable 2 m", "Cables", "1,249.50", "12", "2025-01-31"],
        # a datetime cell: openpyxl gives it the code yyyy-mm-dd h:mm:ss, which shows the time too
        ["00731", "HDMI cable", "Cables", "4.50", "3", "2025-02-01 0:00:00"],
        ["42", "Rack shelf", "Racks", "0.3", "7", ""],
    ]
    assert doc.tables[1].header == ["Prices in EUR"]  # column A of the sheet holds nothing
    assert_rows_in_text(doc)
    assert doc.notes == []


def test_xlsx_formulas_without_saved_values_are_named_in_notes(tmp_path: Path) -> None:
    workbook = openpyxl.Workbook()
    prices = workbook.active
    prices.title = "Prices"
    prices.append(["Item", "Qty", "Unit price", "Amount"])
    for row in range(2, 6):
        prices.append([f"Item {row}", row, 2.5, f"=B{row}*C{row}"])  # openpyxl saves no result
    summary = workbook.create_sheet("Summary")
    summary.append(["Total", "=SUM(Prices!D2:D5)"])
    workbook.create_sheet("Plain").append(["Only", "values"])
    path = tmp_path / "calc.xlsx"
    workbook.save(str(path))
    # a spreadsheet program saves each result next to its formula: give D2 its result
    with zipfile.ZipFile(path) as archive:
        parts = {name: archive.read(name) for name in archive.namelist()}
    sheet = parts["xl/worksheets/sheet1.xml"].decode()
    assert "<f>B2*C2</f><v></v>" in sheet
    parts["xl/worksheets/sheet1.xml"] = sheet.replace("<f>B2*C2</f><v></v>", "<f>B2*C2</f><v>5</v>").encode()
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in parts.items():
            archive.writestr(name, data)

    doc = parse_file(path)
    assert doc.tables[0].rows[0] == ["Item 2", "2", "2.5", "5"]
    assert doc.tables[0].rows[1] == ["Item 3", "3", "2.5", ""]
    assert doc.notes == [
        "sheet Prices: 3 formula cells have no saved value (e.g. D3); "
        "open and save the file in a spreadsheet program to keep them",
        "sheet Summary: 1 formula cell has no saved value (B1); "
        "open and save the file in a spreadsheet program to keep it",
    ]


def test_xlsx_number_rendering(tmp_path: Path) -> None:
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet.append(["General float", "Percent", "Integer float", "Text"])
    sheet.append([1 / 3, 0.125, 2.0, "1.249,00"])
    sheet["B2"].number_format = "0.0%"
    path = tmp_path / "numbers.xlsx"
    workbook.save(str(path))
    # the workbook's own text writes a European number, so its numbers show a decimal comma;
    # General keeps the 15 significant digits a spreadsheet keeps
    assert parse_file(path).tables[0].rows == [["0,333333333333333", "12,5%", "2", "1.249,00"]]


def test_pptx_slides_and_table(tmp_path: Path) -> None:
    presentation = Presentation()
    slide = presentation.slides.add_slide(presentation.slide_layouts[5])
    slide.shapes.title.text = "Project kickoff"
    box = slide.shapes.add_textbox(Inches(1), Inches(1.5), Inches(6), Inches(1))
    box.text_frame.text = "Milestones\nGo-live in Q3"
    shape = slide.shapes.add_table(3, 3, Inches(1), Inches(3), Inches(6), Inches(1.5))
    for r, cells in enumerate(
        [["Milestone", "Owner", "Due"], ["Design", "Anna", "2025-03-01"], ["Go-live", "Ben", "2025-09-30"]]
    ):
        for c, text in enumerate(cells):
            shape.table.cell(r, c).text = text
    second = presentation.slides.add_slide(presentation.slide_layouts[5])
    second.shapes.title.text = "Questions"
    path = tmp_path / "kickoff.pptx"
    presentation.save(str(path))

    doc = parse_file(path)
    assert doc.media_type.endswith("presentationml.presentation")
    assert doc.title == "Project kickoff"
    assert len(doc.pages) == 2 and doc.pages[1] == "Questions"
    table = doc.tables[0]
    assert table.page == 1 and table.header == ["Milestone", "Owner", "Due"]
    assert table.rows[1] == ["Go-live", "Ben", "2025-09-30"]
    lines = doc.pages[0].split("\n")
    assert lines[:3] == ["Project kickoff", "Milestones", "Go-live in Q3"]
    assert_rows_in_text(doc)


# --- HWPX ---------------------------------------------------------------------------------


def test_hwpx_korean_table(tmp_path: Path) -> None:
    from hwpx.document import HwpxDocument

    document = HwpxDocument.new()
    document.add_paragraph("견적서 2025")
    document.add_paragraph("공급자: 한빛상사")
    rows = [["품목", "수량", "단가"], ["노트북", "2", "1.249.000"], ["모니터 27인치", "4", "389.000"]]
    table = document.add_table(len(rows), 3)
    for r, cells in enumerate(rows):
        for c, text in enumerate(cells):
            table.set_cell_text(r, c, text)
    document.add_paragraph("합계는 부가세 별도입니다.")
    path = tmp_path / "견적서-2025.hwpx"
    document.save_to_path(str(path))

    doc = parse_file(path)
    assert doc.media_type == "application/hwp+zip"
    assert doc.title == "견적서 2025"
    assert len(doc.tables) == 1
    assert doc.tables[0].header == ["품목", "수량", "단가"]
    assert doc.tables[0].rows == rows[1:]
    lines = doc.pages[0].split("\n")
    assert lines.index("공급자: 한빛상사") < lines.index("품목\t수량\t단가")
    assert lines[-1] == "합계는 부가세 별도입니다."
    assert_rows_in_text(doc)
    # every word of its sections' runs is in the parsed text, as the coverage check counts them
    from tools.parsing.coverage import unread_words
    from tools.parsing.office_layer import office_text_layer

    layer = office_text_layer(path)
    assert layer and "한빛상사" in layer and unread_words(layer, "\n".join(doc.pages)) == []


# --- files that cannot be read ------------------------------------------------------------


def test_unsupported_suffix(tmp_path: Path) -> None:
    path = tmp_path / "drawing.xyz"
    path.write_text("x")
    with pytest.raises(UnreadableFile, match=r"unsupported file type \.xyz"):
        parse_file(path)


@pytest.mark.parametrize("suffix", sorted(SUPPORTED_SUFFIXES))
def test_zero_byte_file(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"empty{suffix}"
    path.write_bytes(b"")
    with pytest.raises(UnreadableFile, match="empty"):
        parse_file(path)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(UnreadableFile, match="not found"):
        parse_file(tmp_path / "gone.pdf")


def test_broken_pdf(tmp_path: Path) -> None:
    path = tmp_path / "scan-broken.pdf"
    path.write_bytes(b"%PDF-1.4\n" + bytes(range(256)) * 8)
    with pytest.raises(UnreadableFile, match="not a readable PDF"):
        parse_file(path)


def test_encrypted_pdf(tmp_path: Path) -> None:
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", size=10)
    pdf.cell(0, 6, "Confidential")
    pdf.set_encryption(owner_password="owner-secret", user_password="user-secret")
    path = tmp_path / "locked.pdf"
    pdf.output(str(path))
    with pytest.raises(UnreadableFile, match="^encrypted"):
        parse_file(path)


def test_password_protected_office_file(tmp_path: Path) -> None:
    # Office stores a protected file as an OLE container holding an EncryptionInfo stream
    path = tmp_path / "locked.xlsx"
    path.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 504 + "EncryptionInfo".encode("utf-16-le"))
    with pytest.raises(UnreadableFile, match="^encrypted"):
        parse_file(path)


@pytest.mark.parametrize("suffix", [".pdf", ".docx", ".xlsx", ".pptx", ".hwpx"])
def test_garbage_and_truncated_files(tmp_path: Path, suffix: str) -> None:
    garbage = tmp_path / f"garbage{suffix}"
    garbage.write_bytes(b"PK\x03\x04" + bytes(range(256)) * 4)
    with pytest.raises(UnreadableFile, match="^not a readable"):
        parse_file(garbage)
    # a valid package missing its main part
    hollow = tmp_path / f"hollow{suffix}"
    with zipfile.ZipFile(hollow, "w") as archive:
        archive.writestr("mimetype", "application/octet-stream")
    with pytest.raises(UnreadableFile):
        parse_file(hollow)


def test_a_header_is_found_under_title_rows_of_one_cell():
    from tools.parsing.text import make_table

    rows = [["Price list 2025", "", ""], ["Valid from 1 May", "", ""], ["", "", ""], ["Item", "Unit", "Price"],
            ["Cable", "m", "2.50"], ["Plug", "pcs", "1.10"]]
    table = make_table(1, rows)
    assert table is not None
    assert (table.title, table.header, len(table.rows)) == (["Price list 2025", "Valid from 1 May"], ["Item", "Unit", "Price"], 2)
    # a first row naming two columns is the header; a lone row of one cell stays a header too
    assert make_table(1, [["Item", "Price"], ["Cable", "2.50"]]).header == ["Item", "Price"]  # type: ignore[union-attr]
    assert make_table(1, [["Notes"], ["one"], ["two"]]).header == ["Notes"]  # type: ignore[union-attr]
    # past five title rows, or with nothing under it, the first row is the header as printed
    many = [[f"line {i}", ""] for i in range(6)] + [["Item", "Price"], ["Cable", "2.50"]]
    assert make_table(1, many).header == ["line 0", ""]  # type: ignore[union-attr]
    assert make_table(1, [["Title", ""], ["Item", "Price"]]).header == ["Title", ""]  # type: ignore[union-attr]


def test_a_header_is_found_under_a_sheets_letterhead_of_labelled_values():
    from tools.parsing.fields import key_value_lines
    from tools.parsing.text import make_table

    rows = [["NORDHAVN STEEL AS", "", "", "", ""],
            ["Invoice no.:", "NS-24-0311", "", "Customer:", "Corvane B.V."],
            ["Invoice date:", "12.03.2024", "", "Currency:", "EUR"],
            ["Item #", "Description", "Qty", "Unit cost", "Line total"],
            ["NS-R20", "Round bar", "40", "18.75", "750.00"]]
    table = make_table(1, rows)
    assert table is not None and table.header == ["Item #", "Description", "Qty", "Unit cost", "Line total"]
    assert table.title == ["NORDHAVN STEEL AS", "Invoice no.: NS-24-0311 · Customer: Corvane B.V.", "Invoice date: 12.03.2024 · Currency: EUR"]
    pairs = {p.key: p.value for p in key_value_lines(["\n".join(table.title)], [table])}
    assert pairs["Invoice no."] == "NS-24-0311" and pairs["Customer"] == "Corvane B.V." and pairs["Currency"] == "EUR"
    # a label and its value in one cell ("Order: SO-24-118"), as an export writes them
    export = make_table(1, [["Order: SO-24-118", "", "Customer: Aldercrest, Leeds", ""], ["Line", "SKU", "Product", "Qty"],
                            ["1", "CI-200", "Spectrophotometer", "3"]])
    assert export is not None and export.header == ["Line", "SKU", "Product", "Qty"]
    assert export.title == ["Order: SO-24-118 · Customer: Aldercrest, Leeds"]
    # a row of labels over values is a header still ("Name:" heads a column of names)
    assert make_table(1, [["Name:", "Score"], ["Ann", "3"], ["Bob", "4"]]).header == ["Name:", "Score"]  # type: ignore[union-attr]
    # a letterhead row holding an address beside its labelled value is letterhead too
    invoice = make_table(1, [["Faktura nr: OZ/2025/061", "", "", "", "", ""],
                             ["Data wystawienia:", "22.04.2025", "", "", "ul. Kartuska 214, 80-122 Gdańsk", ""],
                             ["Termin płatności:", "06.05.2025", "", "", "", ""],
                             ["Kod", "Towar", "Ilość (kg)", "Cena za kg (PLN)", "Wartość netto (PLN)", "Stawka VAT"],
                             ["OZ-101", "Ziemniaki jadalne", "400", "1.35", "540.00", "5%"]])
    assert invoice is not None and invoice.header[:2] == ["Kod", "Towar"] and invoice.rows[0][2] == "400"
    assert invoice.title[1:] == ["Data wystawienia: 22.04.2025 · ul. Kartuska 214, 80-122 Gdańsk", "Termin płatności: 06.05.2025"]
    # more cells of no label than labelled ones: a header, as before
    assert make_table(1, [["Total:", "5", "Note", "x"], ["a", "1", "b", "2"]]).header == ["Total:", "5", "Note", "x"]  # type: ignore[union-attr]


def test_a_cells_dot_leader_is_no_part_of_its_text() -> None:
    from tools.parsing.text import make_table

    table = make_table(1, [["Offense", "Total"], ["Robbery . . . . . .", "100,496"], ["Weapons, etc. . . . .", "9"], ["Gap", "........."]])
    assert table is not None
    assert [row[0] for row in table.rows] == ["Robbery", "Weapons, etc.", "Gap"]
    assert table.rows[2][1] == "........."  # dots alone, a cell's only text, stay


def test_docx_columns_only_merged_cells_span_are_left_out(tmp_path: Path) -> None:
    """Every row's first cell spans two columns of the grid: the table has two columns, not a
    third one empty in every row."""
    document = docx.Document()
    table = document.add_table(rows=3, cols=3)
    for r, (period, amount) in enumerate([("Zeitraum", "Betrag"), ("Jan", "1,00"), ("Feb", "2,00")]):
        table.cell(r, 0).merge(table.cell(r, 1)).text = period
        table.cell(r, 2).text = amount
    path = tmp_path / "spans.docx"
    document.save(str(path))
    (parsed,) = parse_file(path).tables
    assert (parsed.header, parsed.rows) == (["Zeitraum", "Betrag"], [["Jan", "1,00"], ["Feb", "2,00"]])


def _with_notes(path: Path, footnotes: list[str], endnotes: list[str]) -> None:
    """Give a Word file written by python-docx (which writes no notes) footnotes and endnotes as
    Word stores them: a part each, its separators first, referenced from the body's first run."""
    w = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"

    def part(tag: str, texts: list[str]) -> str:
        notes = [f'<w:{tag} w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:{tag}>',
                 f'<w:{tag} w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r></w:p></w:{tag}>']
        notes += [f'<w:{tag} w:id="{k}"><w:p><w:r><w:t xml:space="preserve">{text}</w:t></w:r></w:p></w:{tag}>'
                  for k, text in enumerate(texts, start=1)]
        return f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:{tag}s xmlns:w="{w}">{"".join(notes)}</w:{tag}s>'

    with zipfile.ZipFile(path) as z:
        files = {name: z.read(name) for name in z.namelist()}
    rels = files["word/_rels/document.xml.rels"].decode()
    rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
    rels = rels.replace("</Relationships>", f'<Relationship Id="rIdFn" Type="{rel}footnotes" Target="footnotes.xml"/>'
                                            f'<Relationship Id="rIdEn" Type="{rel}endnotes" Target="endnotes.xml"/></Relationships>')
    types = files["[Content_Types].xml"].decode().replace("</Types>", (
        '<Override PartName="/word/footnotes.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml"/>'
        '<Override PartName="/word/endnotes.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.endnotes+xml"/></Types>'))
    body = files["word/document.xml"].decode().replace("</w:t></w:r>", '</w:t></w:r><w:r><w:footnoteReference w:id="1"/></w:r>', 1)
    files.update({"word/_rels/document.xml.rels": rels.encode(), "[Content_Types].xml": types.encode(), "word/document.xml": body.encode(),
                  "word/footnotes.xml": part("footnote", footnotes).encode(), "word/endnotes.xml": part("endnote", endnotes).encode()})
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in files.items():
            z.writestr(name, data)


def test_a_word_files_footnotes_and_endnotes_are_read_numbered_after_its_text(tmp_path: Path) -> None:
    path = tmp_path / "contract.docx"
    d = docx.Document()
    d.add_paragraph("The liability is capped at EUR 250,000.")
    d.add_paragraph("Either party may terminate with notice.")
    d.save(path)
    _with_notes(path, ["Per claim, excluding gross negligence.", "Written notice only."], ["Governing law: Hamburg."])
    parsed = parse_file(path)
    lines = parsed.pages[-1].splitlines()
    assert lines[-3:] == ["[1] Per claim, excluding gross negligence.", "[2] Written notice only.", "[i] Governing law: Hamburg."]
    assert lines[0] == "The liability is capped at EUR 250,000.[1]"  # the mark where the text refers to the note
    # every word of the layer reached the text: no note of words left unread
    assert not any("not read" in note for note in parsed.notes)


def test_a_word_running_past_its_ruled_cell_stays_whole_in_it() -> None:
    """An invoice's totals under a ruled table: "Total due (PLN)" runs past its cell's rule into
    the amount's cell, and its ")" was read there: "Total due (PLN" | ") 19,876.80"."""
    invoice = Path(__file__).parents[2] / "evals/unseen/bursztyn/documents/Finance/Invoices/2025/Baltic_Cold_Logistics/INV-BCL-25-0417.pdf"
    rows = parse_file(invoice).tables[0].rows
    assert rows[-1][-2:] == ["Total due (PLN)", "19,876.80"]
    assert rows[-3][-2:] == ["Subtotal (net)", "16,160.00"]
