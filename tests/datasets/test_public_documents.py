"""Kea's PDF parser on documents of other projects, against the tables their maintainers expect.

``evals/public/<origin>/`` pins each document by commit and checksum with the expected tables
of the project's own tests or ground-truth files. These tests check the pins -- every file is the
one its truth names, every truth is well formed and has its licence beside it -- and parse only a
handful of documents for behaviour a user would notice. Parsing and scoring every document, and
guarding each one's measured structure and words, is ``python -m evals.public.score`` (and
``make eval``).
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest

from evals.public.build import BUILDERS, LARGEST
from evals.public.score import MEASURED_F1, PUBLIC, score_document
from tools.parsing import parse_file

CAMELOT = PUBLIC / "camelot"
TRUTHS = sorted(PUBLIC.glob("*/truth.json"))


def _load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _truth(origin: Path, file: str) -> dict:
    return next(d for d in _load(origin / "truth.json")["documents"] if d["file"] == file)


def test_the_public_set_keeps_its_origins_and_documents() -> None:
    truths = [_load(f) for f in TRUTHS]
    assert {t["origin"] for t in truths} == {f.parent.name for f in TRUTHS}
    assert {t["origin"] for t in truths} <= set(BUILDERS)
    assert len(truths) >= 6
    assert sum(len(t["documents"]) for t in truths) >= 106


@pytest.mark.parametrize("truth_file", TRUTHS, ids=lambda p: p.parent.name)
def test_every_pinned_document_is_the_file_its_truth_names(truth_file: Path) -> None:
    truth = _load(truth_file)
    folder = truth_file.parent
    assert (folder / "LICENSE").is_file() and truth["licence"] in {"MIT", "BSD", "Apache-2.0"}
    assert re.fullmatch(r"[0-9a-f]{40}", truth["commit"])
    files = sorted(p.name for p in (folder / "documents").iterdir())
    assert files == sorted(d["file"] for d in truth["documents"]), "a document is pinned twice or not at all"
    for case in truth["documents"]:
        data = (folder / "documents" / case["file"]).read_bytes()
        assert hashlib.sha256(data).hexdigest() == case["sha256"], case["file"]
        assert len(data) <= LARGEST
        assert case["repository"] == truth["repository"] and case["commit"] == truth["commit"]
        assert case["source"].endswith(case["file"]) and case["method"]
        if case["file"].endswith(".pdf"):
            assert data.startswith(b"%PDF")
        if case["file"].endswith(".pdf") and "positions" not in case:
            # a PDF's tables are of its pages; an invoice's positions and another file's tables, of all of it
            pages = case["pages"] if "pages" in case else [case["page"]]
            assert pages and all(isinstance(p, int) and p >= 1 for p in pages), case["file"]
        for table in case["tables"]:
            assert table and all(isinstance(row, list) and all(isinstance(c, str) for c in row) for row in table)


def test_every_pinned_document_has_its_measured_structure() -> None:
    pinned = {f"{t['origin']}/{d['file']}" for t in map(_load, TRUTHS) for d in t["documents"]}
    assert pinned == set(MEASURED_F1)


def test_a_row_of_a_ruled_table_shaded_in_bands_keeps_its_label_and_each_figure_in_a_cell() -> None:
    """camelot's health.pdf: rules that do not separate the columns of every other row (a shaded
    band) once gave "Arunachal Pradesh 2,241,609 107,549 …" as one cell."""
    expected = [[c for c in row if c] for row in _truth(CAMELOT, "health.pdf")["tables"][0]]
    body = [row for row in expected if len(row) == 8 and row[1][0].isdigit()]
    document = parse_file(CAMELOT / "documents" / "health.pdf")
    parsed = [[c for c in row if c] for t in document.tables for row in [t.header, *t.rows]]
    assert len(body) >= 20
    assert [row for row in body if row not in parsed] == []


@pytest.mark.parametrize("file", ["clockwise_table_1.pdf", "anticlockwise_table_1.pdf"])
def test_a_page_printed_sideways_is_read_turned_upright_with_all_its_words(file: str) -> None:
    scores = score_document(CAMELOT, _truth(CAMELOT, file))
    assert scores["f1"] >= 0.9, scores
    assert scores["unread_words"] == 0, scores


DOCLING = PUBLIC / "docling"


def _tables(file: str) -> list[list[list[str]]]:
    return [[t.header, *t.rows] for t in parse_file(DOCLING / "documents" / file).tables]


def test_a_questionnaire_set_in_two_columns_is_read_column_by_column() -> None:
    """docling's table_mislabeled_as_picture.pdf: a spread of two pages of checkbox items whose
    lines stand on baselines of their own each side; read across the gutter, the items of both
    pages were rows of one table ("They work in parallel …" beside "26. If your country …")."""
    tables = _tables("table_mislabeled_as_picture.pdf")
    assert not any("26. If your country" in c for t in tables for row in t for c in row)
    (table,) = tables  # the one table of the page: the groups a question asks about
    assert [row[1] for row in table][:2] == ["Persons with disabilities", "Children"]


def test_a_pipe_delimited_csv_is_read_as_its_columns() -> None:
    (table,) = _tables("csv-pipe.csv")
    assert table[0][:3] == ["Index", "Customer Id", "First Name"] and len(table[0]) == 12
    assert table == _truth(DOCLING, "csv-pipe.csv")["tables"][0]


def test_a_table_nested_in_a_word_cell_is_a_table_of_its_own() -> None:
    tables = _tables("tablecell.docx")
    assert [["Tab1", "Tab2", "Tab3"], ["A", "B", "C"], ["D", "E", "F"]] in tables


def test_a_word_cell_spanning_columns_leaves_the_cells_right_of_it_under_their_header() -> None:
    """word_tables.docx: "Merged Cell 1.1 1.2" spans two columns; "Cell 1.3", right of it, once
    stood under "Header 0.2"."""
    (table,) = [t for t in parse_file(DOCLING / "documents" / "word_tables.docx").tables if "Header 0.3" in t.header]
    assert table.rows[0] == ["Cell 1.0", "Merged Cell 1.1 1.2", "", "Cell 1.3"]
    assert table.header.index("Header 0.3") == 3
    assert table.spanned[1] == [2]  # the merged cell's second column, as the workspace's rules see it
    assert table.as_held()[1][0] == ["Cell 1.0", "Merged Cell 1.1 1.2", "Cell 1.3"]


def test_markdown_table_cells_read_their_escapes_and_character_references() -> None:
    (table,) = _tables("escaped_characters.md")
    assert table == _truth(DOCLING, "escaped_characters.md")["tables"][0]
    assert ["Ampersand", "&"] in table and ["Pipe", "| | |"] in table


@pytest.mark.parametrize("file", ["textbox.docx", "equations.docx", "docx_checkboxes.docx",
                                  "unit_test_formatting.docx", "docx_page_header_footer_first_page.docx",
                                  "drawingml.docx"])
def test_every_word_of_a_word_file_reaches_the_parsed_text(file: str) -> None:
    """Text boxes, equations, checkbox marks and every section's page headers and footers: words
    that once never reached the engines (239 of textbox.docx's 275)."""
    scores = score_document(DOCLING, _truth(DOCLING, file))
    assert scores["words"] > 0 and scores["unread_words"] == 0, scores


def test_a_file_that_loses_words_of_its_text_layer_says_so() -> None:
    from tools.parsing.base import ParsedDocument
    from tools.parsing.office_layer import with_coverage_note

    path = DOCLING / "documents" / "textbox.docx"
    full = parse_file(path)
    assert not full.notes
    cut = ParsedDocument(title=full.title, media_type=full.media_type, pages=[full.pages[0][:200]])
    (note,) = with_coverage_note(path, cut).notes
    assert re.match(r"\d+ of 275 words of its text layer were not read", note), note


def test_a_slide_table_with_merged_cells_is_held_as_the_slide_holds_it() -> None:
    """powerpoint_sample.pptx: "Class1" and "Class2" each span three columns of the header row;
    the cells stay on the grid (its truth, matched whole) and the spans are recorded, so the SQL
    workspace sees rows of different lengths, the trace of a form."""
    (table,) = parse_file(DOCLING / "documents" / "powerpoint_sample.pptx").tables
    assert score_document(DOCLING, _truth(DOCLING, "powerpoint_sample.pptx"))["f1"] == 1.0
    assert table.header == ["", "Class1", "", "", "Class2", "", ""] and table.spanned[0] == [2, 3, 5, 6]
    held_header, _ = table.as_held()
    assert held_header == ["", "Class1", "Class2"]


MUSTANG = PUBLIC / "mustangproject"


def test_an_invoices_positions_are_those_its_embedded_xml_gives() -> None:
    """The truth of the invoices is their makers' data: every position pinned is a line item of
    the XML inside the PDF (name, quantity, line total), never written here."""
    from evals.public.positions import line_items

    truth = _load(MUSTANG / "truth.json")
    assert truth["licence"] == "Apache-2.0" and (MUSTANG / "NOTICE").is_file()
    assert len(truth["documents"]) >= 15
    for case in truth["documents"]:
        items = line_items(MUSTANG / "documents" / case["file"])
        assert case["positions"] and all(p in items for p in case["positions"]), case["file"]


def test_an_invoices_positions_are_read_as_rows_with_their_name_quantity_and_total() -> None:
    """zugferd_invoice.pdf: seven positions ("Superdrachen", 2, 40.00 …), each one row holding
    the name, the quantity and the line total in cells of their own."""
    scores = score_document(MUSTANG, _truth(MUSTANG, "zugferd_invoice.pdf"))
    assert (scores["positions_found"], scores["positions"]) == (7, 7)
    assert scores["coverage"] == 1.0


def test_a_sheets_title_rows_stand_above_the_header_found_under_them() -> None:
    """docling's xlsx_05: a title set in column B over the table "Year | Freshwater Ducks" in
    B:C, column A empty. The empty column once made the title a group label over the columns,
    and the title the header."""
    (table,) = parse_file(DOCLING / "documents" / "xlsx_05_table_with_title.xlsx").tables
    assert table.title == ["Number of freshwater ducks per year"]
    assert table.header == ["Year", "Freshwater Ducks"] and table.rows[0] == ["2019", "120"]


def test_a_titled_sheet_is_loaded_into_the_sql_workspace_by_its_real_header() -> None:
    """docling's xlsx_09: "Reading List" over the header "# | Genre | …": extraction and the SQL
    workspace's rules see the same header under the title (a title row as header would be
    refused: its other cells are empty)."""
    from tools.workspace.shape import shape

    (table,) = parse_file(DOCLING / "documents" / "xlsx_09_section_label_header.xlsx").tables
    assert table.title == ["Reading List"]
    shaped = shape(*table.as_held())
    assert shaped.labels[:4] == ["#", "Genre", "Sub-Genre", "Title"] and len(shaped.rows) == len(table.rows) == 2


def test_an_invoice_header_cell_over_two_columns_of_figures_is_split_between_them() -> None:
    """mustangproject's 103767-Invoice: "VAT % Line Amount Excl. VAT" is one run of words over
    "19" and "573.00", and the description wraps onto a line of its own ("blau"). The rate and
    the amount were one cell, "19 573.00", and "blau" was lost from the position."""
    (table,) = [t for t in parse_file(MUSTANG / "documents" / "103767-Invoice-2026-03-24-1.pdf").tables if "Description" in t.header]
    assert table.header[-2:] == ["VAT %", "Line Amount Excl. VAT"]
    assert table.rows == [["1908-S", "LONDON Schreibtischstuhl, blau", "02/17/26", "3 Piece", "191.00", "19", "573.00"]]
    scores = score_document(MUSTANG, _truth(MUSTANG, "103767-Invoice-2026-03-24-1.pdf"))
    assert (scores["positions_found"], scores["positions"]) == (1, 1)


def test_a_word_file_saved_as_strict_open_xml_reads_as_its_transitional_twin() -> None:
    """docling's Strict.docx and Transitional.docx: the same document saved both ways. Strict
    writes its namespaces otherwise ("http://purl.oclc.org/ooxml/…"), which the readers did not
    know: it was refused as unreadable."""
    strict = parse_file(DOCLING / "documents" / "Strict.docx")
    transitional = parse_file(DOCLING / "documents" / "Transitional.docx")
    assert strict.pages == transitional.pages and strict.pages[0].strip()
    scores = score_document(DOCLING, _truth(DOCLING, "Strict.docx"))
    assert not scores["unreadable"] and scores["words"] > 0 and scores["coverage"] == 1.0


def test_a_three_line_header_of_groups_names_every_column_and_a_two_line_label_stays_its_rows() -> None:
    """camelot's 12s0324.pdf (Statistical Abstract, Table 324): "Total", "Male" and "Female" are
    each centred over three columns, named on two lines under them ("Under 18 / years", "18 years
    / and over", "Total"); row labels run into dot leaders, and "Murder and nonnegligent" is
    printed over "manslaughter . . .". Only the header's last line once named the columns, and the
    label's first line ran on in the row above."""
    table = parse_file(CAMELOT / "documents" / "12s0324.pdf").tables[0]
    assert table.header == [
        "Offense charged", "Total Total", "Total Under 18 years", "Total 18 years and over",
        "Male Total", "Male Under 18 years", "Male 18 years and over",
        "Female Total", "Female Under 18 years", "Female 18 years and over",
    ]
    labels = [row[0] for row in table.rows[:4]]
    assert labels == ["Total", "Violent crime", "Murder and nonnegligent manslaughter", "Forcible rape"]
    assert table.rows[2][1:4] == ["10.0", "0.9", "9.1"]


def test_row_labels_printed_left_of_a_ruled_grid_are_its_first_column() -> None:
    """camelot's vertical_header.pdf: the townships ("Alcona", "Caledonia" … "Totals") stand left
    of the ruled grid of vote counts, no rule reaching them, and the grid's left rule stops short
    of the totals row. The figures came without their townships (the names followed the table
    as lines of their own) and the total "9237" was a line of its own too."""
    table = parse_file(CAMELOT / "documents" / "vertical_header.pdf").tables[0]
    labelled = {row[0]: row[1:3] for row in table.rows if row[0]}
    assert labelled["Alcona"] == ["963", "439"] and labelled["Caledonia"] == ["923", "393"]
    assert labelled["Totals"] == ["9237", "3396"]
    assert len(labelled) == 13  # twelve townships and the totals
    page = parse_file(CAMELOT / "documents" / "vertical_header.pdf").pages[0].splitlines()
    assert "Alcona" not in page and "9237" not in page  # read once, in the table


@pytest.mark.parametrize("file", ["clockwise_table_2.pdf", "anticlockwise_table_2.pdf"])
def test_names_set_close_on_a_sideways_page_each_name_their_own_column(file: str) -> None:
    """camelot's clockwise_table_2.pdf (a survey table printed sideways): "Female" over
    "sterilization" and "Male" over "sterilization", the two names 2.9 pt apart; "Traditional
    method" over "Rhythm | With- drawal | Folk method". The two words read as one,
    "sterilizationsterilization", named one column, and the group label named only the middle one."""
    table = parse_file(CAMELOT / "documents" / file).tables[0]
    names = table.header
    assert names[3:5] == ["Modern method Female sterilization", "Modern method Male sterilization"]
    assert names[11:14] == ["Traditional method Rhythm", "Traditional method With- drawal", "Traditional method Folk method"]
    assert not any("sterilizationsterilization" in name for name in names)
    scheduled = next(row for row in table.rows if row[0] == "Scheduled caste")
    assert scheduled[3:5] == ["42.9", "0.9"] and scheduled[11:14] == ["11.2", "7.4", "0.4"]


@pytest.mark.parametrize("file", ["clockwise_table_1.pdf", "anticlockwise_table_1.pdf"])
def test_a_group_label_printed_with_a_wide_gap_names_both_columns_under_it(file: str) -> None:
    """camelot's clockwise_table_1.pdf: "Fasting  Blood Sugar" over "(No. of adults: 2011-12)"
    over "Men | Women". The gap in the label once split it, "Fasting" naming Men and "Blood Sugar"
    naming Women."""
    names = parse_file(CAMELOT / "documents" / file).tables[0].header
    assert names[-2:] == [
        "Fasting Blood Sugar (No. of adults: 2011-12) Men", "Fasting Blood Sugar (No. of adults: 2011-12) Women",
    ]


def test_tables_set_side_by_side_on_a_sheet_are_tables_of_their_own() -> None:
    """docling's xlsx_01.xlsx: on its second sheet a table of four columns, and beside it, past
    two empty columns and four rows lower, a table of three; on its third, two tables of a
    two-line header side by side, the second six rows lower. Each sheet was one table whose rows
    mixed both tables' cells ("4 | 8 | 12 | 16 | | col-1 | col-2 | col-3")."""
    tables = [[t.header, *t.rows] for t in parse_file(DOCLING / "documents" / "xlsx_01.xlsx").tables]
    beside = next(t for t in tables if t[0] == ["col-1", "col-2", "col-3"] and t[1] == ["1", "2", "3"])
    assert beside[1:5] == [["1", "2", "3"], ["2", "4", "6"], ["3", "6", "9"], ["4", "8", "12"]]
    left = next(t for t in tables if t[0][:4] == ["col-1", "col-2", "col-3", "col-4"])
    assert left[4][:4] == ["4", "8", "12", "16"] and "col-1" not in left[4]
    # the two-line header ("header" over "second | third") names each column with both lines;
    # its lines as the sheet sets them stay the header's printed lines
    assert sum(1 for t in tables if t[0] in (["first", "header second", "header third"],
                                             ["first (f)", "header (f) second", "header (f) third"])) == 2
    lines = [t.header_lines for t in parse_file(DOCLING / "documents" / "xlsx_01.xlsx").tables if t.header[:2] == ["first", "header second"]]
    assert lines == [[["first", "header", ""], ["", "second", "third"]]]


def test_a_spacer_column_and_a_column_of_item_numbers_stay_in_their_table() -> None:
    from tools.parsing.sheets import column_bands

    # one header row over both sides of an empty spacer column: one table
    spaced = [["Item", "Qty", "", "Price"], ["Bolt", "4", "", "1.20"], ["Nut", "9", "", "0.10"]]
    assert column_bands(spaced) == [[["Item", "Qty", "Price"], ["Bolt", "4", "1.20"], ["Nut", "9", "0.10"]]]
    # a form's item numbers in a column of their own, apart from the labels and values
    form = [["E-123", "", "", ""], ["1.1", "", "Rated voltage", "kV"], ["1.2", "", "Frequency", "Hz"]]
    assert len(column_bands(form)) == 1


def test_a_value_typed_over_a_field_of_blanks_is_one_word() -> None:
    """pdfplumber's WARN report: the Effective and Received dates stand over runs of blank
    glyphs drawn edge to edge; each blank parted the date, "0 3 / 2 5 / 2 0 16" for "03/25/2016".
    A single blank between two words stays a gap (docling's normal_4pages.pdf, Korean set tight)."""
    warn = Path("evals/unseen/public-pdfs/documents/pdfplumber/tests/pdfs/WARN-Report-for-7-1-2015-to-03-25-2016.pdf")
    table = parse_file(warn).tables[0]
    assert table.header == ["Notice Date", "Effective", "Received", "Company", "City", "No. Of", "Layoff/Closure"]
    assert table.rows[0][:4] == ["06/22/2015", "03/25/2016", "07/01/2015", "Maxim Integrated Product"]
    dated = re.compile(r"\d\d/\d\d/\d{4}")
    assert all(dated.fullmatch(row[1]) and dated.fullmatch(row[2]) for row in table.rows if row[1] or row[2])
    korean = parse_file(DOCLING / "documents" / "normal_4pages.pdf").tables[0]
    assert "치명률이 높거나 집단 발생의 우려가 커" in korean.rows[1][2]


def test_a_framed_title_is_the_title_of_the_table_under_it() -> None:
    """camelot's twotables_2.pdf: each table's title is drawn in a frame of its own above it. The
    second frame's two lines were read as a table of one row, and the table under it had no title
    to tell it from the first: "the table on literacy of adult women" read both."""
    two = Path("evals/unseen/public-pdfs/documents/camelot/tests/files/twotables_2.pdf")
    tables = parse_file(two).tables
    assert [t.title[-1] for t in tables] == ["MALE HEAD OF THE HOUSEHOLD", "ADULT WOMEN"]
    assert [len(t.rows) for t in tables] == [11, 11]
    assert tables[1].rows[0][:3] == ["Kerala", "2400", "8.8"] and tables[1].rows[-1][0] == "Pooled"


def test_every_unseen_case_has_an_id_of_its_own() -> None:
    # a case is picked by its id (`evals.run --cases`) and compared across runs by it: two sets
    # giving one id would run and score each other's requests
    import json
    from collections import Counter

    root = Path(__file__).resolve().parents[2] / "evals" / "unseen"
    ids = Counter(case["id"] for truth in sorted(root.glob("*/truth.json")) for case in json.loads(truth.read_text())["cases"])
    assert ids and [case for case, count in ids.items() if count > 1] == []
