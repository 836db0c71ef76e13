"""Layouts of real documents (other projects' test PDFs, pinned in ``tests/data/layouts/``)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

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


def test_every_document_is_pinned_with_its_licence() -> None:
    documents = LAYOUTS / "documents"
    assert {p.relative_to(documents).as_posix() for p in documents.rglob("*.pdf")} == set(PINS)
    for name, pin in PINS.items():
        pinned(name)
        assert (LAYOUTS / pin["licence_file"]).is_file()
        assert pin["licence"] in {"MIT", "Apache-2.0"}


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
