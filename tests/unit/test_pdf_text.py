"""What a PDF's text reads as, glyph by glyph: footnote marks set small and raised, hyphens
drawn as U+2010, a bracketed figure printed with a space inside. On real documents pinned in
``evals/unseen/public-pdfs`` (other projects' test PDFs)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from tools.parsing import parse_file
from tools.parsing.coverage import unread_words
from tools.parsing.pdf.words import set_scripts

PDFS = Path(__file__).resolve().parents[2] / "evals" / "unseen" / "public-pdfs"
PINS = json.loads((PDFS / "truth.json").read_text(encoding="utf-8"))["documents"]
TABULA = "tabula-java/src/test/resources/technology/tabula/"


def pinned(name: str) -> Path:
    path = PDFS / "documents" / name
    assert hashlib.sha256(path.read_bytes()).hexdigest() == PINS[name]["sha256"], f"{name} is not the pinned file"
    return path


def lines_with(name: str, word: str) -> list[str]:
    document = parse_file(pinned(name))
    return [line for page in document.pages for line in page.splitlines() if word in line]


def test_a_footnote_mark_set_small_and_raised_is_no_digit_of_the_figure() -> None:
    """superscript.pdf prints Kerala's 24.91 with a raised small "2": the figure is 24.91, not 24.912."""
    (kerala,) = lines_with("camelot/tests/files/superscript.pdf", "Kerala")
    assert kerala.split("\t")[:3] == ["Kerala", "29.03", "24.91²"]
    assert "24.912" not in kerala


def test_a_line_numbering_the_columns_groups_no_header_words_over_them() -> None:
    """superscript.pdf numbers its columns under a four-line header; "& FIs" ends column 6's name
    and "Banks" column 10's, neither names the columns beside them."""
    (table,) = [t for t in parse_file(pinned("camelot/tests/files/superscript.pdf")).tables if "States" in t.header]
    assert table.header[4:] == [
        "WMA from RBI", "Loans from Banks & FIs", "Loans from LIC", "Loans from GIC", "Loans from NABARD",
        "Loans from SBI & Other Banks", "Loans from NCDC",
    ]


def test_a_header_set_apart_from_its_rows_names_groups_a_wrapped_name_and_a_last_column() -> None:
    """budget.pdf prints its header three lines' heights over the rows: "Plan" and "Non-Plan" each
    over "Revenue | Capital | Total", "Total Plan &" wrapped over "Non-Plan", "Page No." over the
    demands' pages (none on a ministry's line); "..." is nil, a cell of its own. The demands'
    numbers ("1. Department of …"), counting up among the ministries' lines, are a column of
    their own."""
    (table,) = parse_file(pinned("camelot/tests/files/budget.pdf")).tables
    assert table.header == [
        "No.", "Ministry/Demand", "Plan Revenue", "Plan Capital", "Plan Total", "Non-Plan Revenue", "Non-Plan Capital",
        "Non-Plan Total", "Total Plan & Non-Plan", "Page No.",
    ]
    rows = {row[1]: row for row in table.rows}
    assert rows["MINISTRY OF AGRICULTURE"][0] == "" and rows["MINISTRY OF AGRICULTURE"][-2:] == ["31062.94", ""]
    assert rows["Department of Agriculture and Cooperation"][0] == "1"
    assert rows["Department of Agriculture and Cooperation"][-2:] == ["22652.25", "1-10"]
    assert rows["Defence Pensions"][0] == "21" and rows["Defence Pensions"][2:7] == ["...", "...", "...", "51000.00", "..."]


def test_a_ruled_header_over_a_row_numbering_its_columns_names_each_column() -> None:
    """assam.pdf rules "Person | Male | Female" over "Total | Rural | Urban" over "1 … 10": the three
    rows are the header, the numbers stay in the page's text, and the rows start at Assam."""
    document = parse_file(pinned("camelot/tests/files/assam.pdf"))
    (table,) = document.tables
    assert table.header[0] == "State / District"
    assert [name.split(" (%) ")[-1] for name in table.header[1:4]] == ["Person Total", "Person Rural", "Person Urban"]
    assert table.rows[0][:3] == ["Assam", "87.1", "86.3"]
    assert "1 2 3 4 5 6 7 8 9 10" in document.pages[0].splitlines()


def test_a_table_whose_first_row_is_a_title_takes_the_caption_above_it_too() -> None:
    """spanning_cells.pdf prints "Table A4-12. …" over the block "Improved operation scenario" that
    opens its table, and "Table A4-13. …" over the next: each table's title says which it is."""
    tables = parse_file(pinned("camelot/tests/files/tabula/spanning_cells.pdf")).tables
    assert [t.title[0].split(".")[0] for t in tables] == ["Table A4-12", "Table A4-13"]
    assert tables[0].title[-1] == "Improved operation scenario"


def test_a_footnote_mark_after_a_space_glyph_stays_with_its_word() -> None:
    """rotated_page.pdf draws a space glyph under the raised "5" after "(TARP)"."""
    (tarp,) = lines_with(TABULA + "rotated_page.pdf", "TARP")
    assert tarp.split("\t")[0] == "Troubled Asset Relief Program (TARP)⁵"  # its dot leader is no text
    assert tarp.split("\t")[1:4] == ["–38", "35", "12"]  # the en dash of a minus stays


def test_dates_drawn_with_unicode_hyphens_read_with_plain_ones() -> None:
    document = parse_file(pinned(TABULA + "Publication_of_award_of_Bids_for_Transport_Sector__August_2016.pdf"))
    text = "\n".join(document.pages)
    assert "\u2010" not in text and "18-Jun-14" in text and "28-Jan-13" in text
    cells = {cell for table in document.tables for row in table.rows for cell in row}
    assert {"18-Jun-14", "27-Nov-15"} <= cells


def test_a_bracketed_figure_printed_with_a_space_inside_is_one_figure() -> None:
    (corn,) = lines_with(TABULA + "spreadsheet_no_bounding_frame.pdf", "CORN 1ST")
    assert corn.split("\t") == ["CORN 1ST CROP", "7.558,5", "6.879,2", "6.864,7", "(9,2)", "(693,8)"]


def glyph(text: str, x0: float, size: float, bottom: float) -> dict:
    return {"text": text, "x0": x0, "x1": x0 + size / 2, "top": bottom - size, "bottom": bottom, "size": size, "upright": True}


def test_only_glyphs_smaller_and_off_the_baseline_are_scripts() -> None:
    # "1st" in one size, "1/2" in one size: nothing changes
    same = [glyph("1", 0, 10, 100), glyph("s", 5, 10, 100), glyph("t", 10, 10, 100)]
    set_scripts(same)
    assert "".join(c["text"] for c in same) == "1st"
    # a smaller glyph on the same baseline (small capitals) is no script
    small = [glyph("A", 0, 10, 100), glyph("2", 5, 7, 100)]
    set_scripts(small)
    assert "".join(c["text"] for c in small) == "A2"
    # raised: "x²³", a raised "st" keeps its letters; lowered: "H₂O"
    raised = [glyph("x", 0, 10, 100), glyph("2", 5, 6, 96), glyph("3", 8, 6, 96), glyph("y", 12, 10, 100)]
    set_scripts(raised)
    assert "".join(c["text"] for c in raised) == "x²³y"
    assert raised[1]["bottom"] == 100  # placed on its word's line
    ordinal = [glyph("1", 0, 10, 100), glyph("s", 5, 6, 96), glyph("t", 8, 6, 96)]
    set_scripts(ordinal)
    assert "".join(c["text"] for c in ordinal) == "1st"
    water = [glyph("H", 0, 10, 100), glyph("2", 5, 6, 103), glyph("O", 8, 10, 100)]
    set_scripts(water)
    assert "".join(c["text"] for c in water) == "H₂O"


def test_a_script_character_counts_as_the_word_the_text_layer_draws() -> None:
    assert unread_words(["24.912", "18\u2010Jun\u201014"], "24.91² 18-Jun-14") == []
    assert unread_words(["24.913"], "24.91²") == ["24.913"]
