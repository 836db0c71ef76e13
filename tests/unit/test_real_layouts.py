"""Layouts of real documents (other projects' test PDFs, pinned in ``tests/data/layouts/``):
a table printed in blocks side by side, a table continued on the next page, and labelled
values printed side by side above a table."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from evals.public.score import PUBLIC
from tools.engines.offline.extract import extract_records
from core.reading import DocumentText, Reading
from tools.parsing.fields import key_value_lines
from tools.parsing.pdf.document import parse_pdf

LAYOUTS = Path(__file__).resolve().parents[1] / "data" / "layouts"
PINS = json.loads((LAYOUTS / "pins.json").read_text())["documents"]

GRE = "tabula-extractor/test/data/gre.pdf"
POSITIONS = "mustangproject/validator/src/test/resources/zugferd_2p1_EXTENDED_PDFA-3A.pdf"
LETTERHEAD = "mustangproject/library/src/test/resources/zugferd_invoice.pdf"


def pinned(name: str) -> Path:
    path = LAYOUTS / "documents" / name
    assert hashlib.sha256(path.read_bytes()).hexdigest() == PINS[name]["sha256"], f"{name} is not the pinned file"
    return path


def document_text(path: Path) -> DocumentText:
    parsed = parse_pdf(path)
    return DocumentText(
        id=1, collection="layouts", path=path.name, title=parsed.title, media_type=parsed.media_type,
        pages=parsed.pages, tables=parsed.tables,
    )


def test_every_document_is_pinned_with_its_licence() -> None:
    documents = LAYOUTS / "documents"
    assert {p.relative_to(documents).as_posix() for p in documents.rglob("*.pdf")} == set(PINS)
    for name, pin in PINS.items():
        pinned(name)
        assert (LAYOUTS / pin["licence_file"]).is_file()
        assert pin["licence"] in {"MIT", "Apache-2.0"}


# tabula-extractor's test/tests.rb, test_table_extraction_1: the table it expects of the left block
GRE_LEFT_BLOCK = [
    ["Prior Scale", "New Scale", "% Rank*"], ["800", "170", "99"], ["790", "170", "99"], ["780", "170", "99"],
    ["770", "170", "99"], ["760", "170", "99"], ["750", "169", "99"], ["740", "169", "99"], ["730", "168", "98"],
    ["720", "168", "98"], ["710", "167", "97"], ["700", "166", "96"], ["690", "165", "95"], ["680", "165", "95"],
    ["670", "164", "93"], ["660", "164", "93"], ["650", "163", "91"],
]


def test_a_table_printed_in_blocks_side_by_side_is_one_table_of_its_columns() -> None:
    """gre.pdf prints its concordance table in two blocks, "Prior Scale  New Scale  % Rank" over
    800 to 500 on the left and again over 490 to 200 on the right (its header a little higher,
    in a box whose shading groups five scores). It once came as two tables: the left block, and
    the right one as eight columns whose first row held "490 480 470 460 450" in one cell."""
    document = parse_pdf(pinned(GRE))
    tables = [t for t in document.tables if t.page == 1]
    assert len(tables) == 1
    table = tables[0]
    assert [table.header, *table.rows[: len(GRE_LEFT_BLOCK) - 1]] == GRE_LEFT_BLOCK
    # the page prints every prior score from 800 down to 200, the left block's first
    assert [row[0] for row in table.rows] == [str(score) for score in range(800, 190, -10)]
    assert ["490", "152", "53"] in table.rows and ["200", "130", ""] in table.rows


# the invoice's own data (factur-x.xml inside the PDF): each line item's ID, name and line total,
# as the page prints them
POSITION_ITEMS = [
    ("1", "Zitronensäure 100ml", "100,00"),
    ("2", "Gelierzucker Extra 250g", "72,50"),
    ("3", "Gelierzucker Extra 250g", "0,00"),
    ("4", "Bierbrau Pils 20/0500", "180,00"),
    ("5", "Leergutpfand 20 x 0,5l", "46,50"),
    ("6", "Mischpalette Joghurt Karton 3 x 20", "58,20"),
]


def test_positions_with_details_under_them_continue_onto_the_next_page() -> None:
    """Each position of this invoice has lines of details under it (article codes, a gross
    price, a packing note, its name's second line); positions 1 to 4 stand on page 2 under the
    header, 5 and 6 on page 3 without it. Only positions 1 and 5 were read, their names cut to
    their first line ("Zitronensäure" without "100ml"): the details ended the table."""
    document = document_text(pinned(POSITIONS))
    columns = ["Pos", "Beschreibung", "Entgelt"]
    reading = Reading(request="Pos, Beschreibung and Entgelt of the positions", columns=columns)
    records = [r for r in extract_records(document, reading) if r.values["Pos"]]
    assert [tuple(r.values.values()) for r in records] == POSITION_ITEMS
    assert [r.page for r in records] == [2, 2, 2, 2, 3, 3]
    assert all(r.match == "yes" for r in records)


def test_a_row_of_its_own_under_the_last_row_is_no_detail_of_it() -> None:
    """camelot's stream_inner_outer_columns.pdf: "C2  D2  F2" under "A1  B1  C1  D1  E1  F1"
    fills no cell the row above left empty, so it stays a row (of its own table)."""
    document = parse_pdf(PUBLIC / "camelot" / "documents" / "stream_inner_outer_columns.pdf")
    rows = [row for t in document.tables for row in [t.header, *t.rows]]
    assert ["A1", "B1", "C1", "D1", "E1", "F1"] in rows
    assert ["C2", "D2", "F2"] in rows


def test_labelled_values_side_by_side_above_a_table_are_offered_with_each_row() -> None:
    """The invoice prints "Rechnungsnummer: 2014-03" and "Liefer- und Rechnungsdatum: 11. Juli
    2014" on one line. The page text joined them, so the invoice number read "2014-03 Liefer- und
    Rechnungsdatum: 11. Juli 2014" on every position of a request for the invoice number."""
    document = document_text(pinned(LETTERHEAD))
    pairs = {(p.key, p.value) for p in key_value_lines(document.pages, document.tables)}
    # the invoice's own data (ZUGFeRD-invoice.xml inside the PDF): ID 2014-03, issued 2014-07-11
    assert {("Rechnungsnummer", "2014-03"), ("Liefer- und Rechnungsdatum", "11. Juli 2014")} <= pairs
    columns = ["invoice number", "Artikelbeschreibung", "Betrag"]
    reading = Reading(request="invoice number, Artikelbeschreibung, Betrag", columns=columns)
    records = extract_records(document, reading)
    # the line totals of its seven line items
    totals = {"40,00", "200,00", "180,00", "150,00", "75,00", "0,00"}
    positions = [r for r in records if r.values["Betrag"] in totals]
    assert len(positions) == 7
    assert {r.values["invoice number"] for r in positions} == {"2014-03"}


@pytest.mark.parametrize("name", [GRE, POSITIONS, LETTERHEAD])
def test_every_word_of_the_text_layer_stays_in_the_page_text(name: str) -> None:
    import pdfplumber

    from tools.parsing.coverage import unread_words
    from tools.parsing.pdf.words import drawn_once, text_layer

    path = pinned(name)
    document = parse_pdf(path)
    with pdfplumber.open(path) as pdf:
        layer = [[w["text"] for w in text_layer(page)] for page in map(drawn_once, pdf.pages)]
    unread = sum(len(unread_words(words, document.pages[k])) for k, words in enumerate(layer))
    assert unread <= 0.005 * sum(len(words) for words in layer)


def test_a_list_item_whose_term_is_labelled_stays_one_line() -> None:
    """docling's multi_page.pdf: "•  Wang Laboratories: In the 1970s, …" has one label; only a
    line of two labelled values or more is split into them."""
    document = parse_pdf(PUBLIC / "docling" / "documents" / "multi_page.pdf")
    lines = [line for page in document.pages for line in page.splitlines()]
    assert "• Wang Laboratories: In the 1970s, Wang introduced dedicated word processing" in lines
