"""Headers of the tables annual reports and statistical releases print: a currency sign at the
left of a column's first and total amounts, a section line ("Year Ended December 31, 2022")
between the header and the rows, a ruled header of group labels over years with empty spacer
columns, and a header set a line's height above tight rows."""

from __future__ import annotations

from pathlib import Path

from held_out import scope

from tools.engines.offline import read_message
from tools.parsing import parse_file

UNSEEN = Path(__file__).resolve().parents[2] / "evals" / "unseen"
TWELVE = UNSEEN / "public-twelve" / "documents"
MODIFICATIONS = TWELVE / "pymupdf" / "test_3725.pdf"
OUTLOOK = TWELVE / "unstructured-inference" / "2023-Jan-economic-outlook.pdf"
JUDGES = TWELVE / "pdfplumber" / "issue-90-example.pdf"
COMENIUS = UNSEEN / "public-new" / "documents" / "camelot" / "eu-002.pdf"


def test_a_currency_sign_far_left_of_its_amount_and_a_section_line_keep_the_header() -> None:
    (table,) = parse_file(MODIFICATIONS).tables
    assert table.header[:5] == ["($ in millions)", "Principal forgiveness", "Interest rate reduction",
                                "Other concessions (2)", "Total"]
    assert table.header[-2] == "Weighted average interest rate reduction"
    # the section line is a row of its own, the first row's amounts keep their sign
    assert table.rows[0][0] == "Year Ended December 31, 2022"
    assert table.rows[1] == ["Commercial and industrial", "$ 24", "24", "349", "397", "—", "10.69%", "$ 24"]
    assert "Table 5.14: TDR Modifications" in table.title


def test_a_ruled_header_of_group_labels_over_years_names_each_column() -> None:
    (table,) = [t for t in parse_file(OUTLOOK).tables if t.page == 7]
    assert table.title[0] == "Table 1. Overview of the World Economic Outlook Projections"
    named = [h for h in table.header if h]
    assert named[:4] == ["Year over Year 2021", "Year over Year Estimate 2022", "Year over Year Projections 2023",
                         "Year over Year Projections 2024"]
    assert named[-1] == "Q4 over Q4 2/ Projections 2024"
    # the empty spacer columns name nothing; the first row is the world's
    assert table.rows[0][:3] == ["World Output", "6.2", "3.4"]


def test_a_header_a_line_above_tight_rows_heads_them() -> None:
    components = [t for t in parse_file(JUDGES).tables if t.header[:2] == ["Program Components", "Factor"]]
    assert len(components) == 2
    assert components[0].rows[0][:3] == ["Skating Skills", "0.80", "6.25"]


def test_what_the_figures_are_before_with_names_no_column() -> None:
    message = ("In Table 6 of the Comenius report I only need the impacts on participating teachers: give the "
               "correlation with lack of interest of parents first, then lack of interest/acceptance from colleagues.")
    reading = read_message(message, scope([COMENIUS]))
    assert reading.columns == ["Lack of interest of parents", "Lack of interest/acceptance from colleagues"]
    assert "correlation" in reading.unused


def test_the_year_a_request_names_picks_the_block_its_dated_heading_stands_over() -> None:
    from held_out import document

    from tools.engines.offline import extract_records

    message = ("Hi! From Wells Fargo's TDR modifications table (Table 5.14), I only need the year ended December 31, "
               "2021: every loan category with its other concessions, total and charge-offs. Please leave out the "
               "total and subtotal lines.")
    reading = read_message(message, scope([MODIFICATIONS]))
    # the thing the values are of, before "with its", is a column of its own
    assert reading.columns == ["Loan category", "Other concessions", "Total", "Charge-offs"]
    records = extract_records(document(MODIFICATIONS), reading)
    assert [list(r.values.values()) for r in records][:2] == [
        ["Commercial and industrial", "879", "890", "20"], ["Commercial real estate", "259", "315", "—"]]
    assert len(records) == 8  # the 2021 block, its total lines left out; not 2022's, not 2020's
    # the heading's words are used: only what the request said beside it stays unread
    assert all("'ended'" not in (r.note or "") and "December 31, 2021" in (r.note or "") for r in records)
    # the labels' column is headed by the figures' unit in brackets: it names no column, so the
    # loan categories are read from it, unsure with the reason
    assert all(r.match == "unsure" and "'Loan category' is read from the table's first column" in (r.note or "")
               for r in records)


def test_german_quotation_marks_quote_a_name() -> None:
    from tools.engines.offline.tokens import tokenize

    assert [(t.text, t.kind) for t in tokenize("die Zeilen unter „Memorandum“: Bezeichnung")][3] == ("Memorandum", "quoted")


AZURE = UNSEEN / "public-new" / "documents" / "invoice2data" / "AzureInterior.pdf"


def test_a_section_label_framed_by_dashes_is_a_row_of_its_own_and_picks_its_lines() -> None:
    from held_out import document

    from tools.engines.offline import extract_records

    table = next(t for t in parse_file(AZURE).tables if "Quantity" in t.header)
    # "--- Non Food ---" under the header was read as part of the first column's name
    assert table.header == ["Description", "Quantity", "Unit Price", "Disc.%", "Taxes", "Amount"]
    assert table.rows[0][0] == "--- Non Food ---"
    message = ("Azure Interior invoice INV/2023/03/0008: just the Food Products lines, with description, quantity, "
               "unit price, discount % and amount. No subtotal or notes.")
    records = extract_records(document(AZURE), read_message(message, scope([AZURE])))
    assert [r.values["Description"][:18] for r in records] == ["*987123* Olive Oil", "[LUX_TRF] Luxury T"]
    assert all("by the heading '--- Food Products ---'" in (r.note or "") for r in records)


MUNICIPALITIES = TWELVE / "pymupdf" / "dotted-gridlines.pdf"


def test_rules_drawn_in_dots_are_rules() -> None:
    from tools.parsing.pdf.ruled import MAX_EDGES, rules_to_read

    # tens of thousands of edges, each a dot's: a grid, not a drawing
    (first, *_) = parse_file(MUNICIPALITIES).tables
    assert first.header[:4] == ["REGIONE", "PROVINCIA/ CITTA' METROPOLITANA", "COMUNE", "NUMERO COMUNI"]
    assert first.header[-1] == "ELETTORI Rilevazione al 31/12/2023"
    # the rows over the page's first province, which continues the page before, were lost
    assert first.rows[0][2:4] == ["CORVARA", "1"] and first.rows[0][-1] == "510"
    line = {"orientation": "h", "x0": 0.0, "x1": 300.0, "top": 10.0, "bottom": 10.0}
    assert not rules_to_read([line] * (MAX_EDGES + 1))  # long lines past the bound: a drawing
    dot = {"orientation": "h", "x0": 0.0, "x1": 0.5, "top": 10.0, "bottom": 10.0}
    assert rules_to_read([dot] * (MAX_EDGES + 1))


ENROLMENT = UNSEEN / "public-new" / "documents" / "camelot" / "row_span_1.pdf"


def test_a_count_compared_on_words_no_header_has_compares_the_one_requested_column_of_figures() -> None:
    from held_out import document

    from tools.engines.offline import extract_records

    message = ("In the enrollment report by plan type and county (Data Warehouse, 12/14/15), which counties served by "
               "Partnership Health Plan of CA have more than 50,000 enrolled? Show county, plan name and total.")
    records = extract_records(document(ENROLMENT), read_message(message, scope([ENROLMENT])))
    totals = [int(r.values["Total"].replace(",", "")) for r in records]
    assert totals and all(t > 50000 for t in totals)
    assert {r.values["County"] for r in records} >= {"Solano", "Sonoma", "Yolo", "Shasta"}
    # the column was not the request's: every row says which one was compared
    assert all(r.match == "unsure" and "was checked as 'Total above 50,000" in (r.note or "") for r in records)
