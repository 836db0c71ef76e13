"""Layouts of real documents (other projects' test PDFs, pinned in ``tests/data/layouts/``):
labelled values printed side by side above a table."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from evals.public.score import PUBLIC
from tools.engines.offline.extract import extract_records
from tools.engines.reading import DocumentText, Reading
from tools.parsing.fields import key_value_lines
from tools.parsing.pdf import parse_pdf

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
    from tools.parsing.pdf import text_layer

    path = pinned(name)
    document = parse_pdf(path)
    with pdfplumber.open(path) as pdf:
        layer = [[w["text"] for w in text_layer(page)] for page in pdf.pages]
    unread = sum(len(unread_words(words, document.pages[k])) for k, words in enumerate(layer))
    assert unread <= 0.005 * sum(len(words) for words in layer)


def test_a_list_item_whose_term_is_labelled_stays_one_line() -> None:
    """docling's multi_page.pdf: "•  Wang Laboratories: In the 1970s, …" has one label; only a
    line of two labelled values or more is split into them."""
    document = parse_pdf(PUBLIC / "docling" / "documents" / "multi_page.pdf")
    lines = [line for page in document.pages for line in page.splitlines()]
    assert "• Wang Laboratories: In the 1970s, Wang introduced dedicated word processing" in lines
