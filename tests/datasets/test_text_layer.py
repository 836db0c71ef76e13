"""Every word of a PDF's text layer reaches the engines, or the document says how many did not."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest

import tools.parsing.pdf.document as pdf_parser
from tools.parsing.base import UnreadableFile
from tools.parsing.coverage import coverage_note, unread_words
from tools.parsing.pdf.document import parse_pdf

ROOT = Path(__file__).resolve().parents[2]
REAL = sorted((ROOT / "evals" / "real").glob("*/documents/*.pdf"))


def test_a_word_split_across_cells_is_read_and_a_dropped_one_is_not() -> None:
    parsed = "Holder\tShares\nHSBC Nominees\t257,055,899\t境外上市外资股\n"
    assert unread_words(["HSBC", "Nominees", "257,055,899境外上市外资股", "Shares"], parsed) == []
    assert unread_words(["Salaries", "(a)", "Shares", "Shares"], parsed) == ["Salaries", "(a)", "Shares"]


def test_a_document_says_how_many_words_it_lost_only_past_the_bound() -> None:
    assert coverage_note(1000, ["x"] * 5) is None  # 99.5 % kept
    note = coverage_note(330, ["Salaries", "(a)"] * 106)
    assert note is not None and note.startswith("212 of 330 words of its text layer were not read (among them 'Salaries', '(a)')")


@pytest.fixture(scope="module")
def evaluation_pdfs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Every PDF of the evaluation sets: both generated corpora and the real documents."""
    from corpora.first import generate as first
    from corpora.second import generate as second

    out = tmp_path_factory.mktemp("corpora")
    first(out / "corpus")
    second(out / "corpus2")
    return sorted(out.rglob("*.pdf")) + REAL


def test_every_pdf_of_the_evaluation_sets_keeps_its_whole_text_layer(evaluation_pdfs: list[Path]) -> None:
    read = 0
    for path in evaluation_pdfs:
        try:
            document = parse_pdf(path)
        except UnreadableFile:
            continue  # the corpora's broken and locked files: refused at ingest, with their reason
        read += 1
        assert not [n for n in document.notes if "words of its text layer" in n], path.name
        with pdfplumber.open(path) as pdf:
            for number, page in enumerate(pdf.pages, start=1):
                words = [w["text"] for w in page.extract_words()]
                assert unread_words(words, document.pages[number - 1]) == [], (path.name, number)
    assert read >= 30 and len(REAL) >= 2


def test_a_parser_that_drops_a_line_is_caught_and_named(monkeypatch: pytest.MonkeyPatch) -> None:
    real = pdf_parser._read_page

    def loses_its_first_line(*args, **kwargs):  # type: ignore[no-untyped-def]
        text, tables, carried = real(*args, **kwargs)
        return text.split("\n", 1)[-1], tables, carried

    whole = parse_pdf(REAL[0])
    monkeypatch.setattr(pdf_parser, "_read_page", loses_its_first_line)
    cut = parse_pdf(REAL[0])
    lost = sum(len(page.split("\n", 1)[0].split()) for page in whole.pages)
    layer = sum(len(p.extract_words()) for p in pdfplumber.open(REAL[0]).pages)
    (note,) = [n for n in cut.notes if "words of its text layer" in n]
    assert note.startswith(f"{lost} of {layer} words of its text layer were not read")
