"""The generated corpus holds what its truth says, where a reader of the files would find it."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pdfplumber
import pytest
from pdfplumber.utils.exceptions import PdfminerException

from corpora.first import cases, generate, main

README = Path(__file__).resolve().parents[2] / "corpora" / "first.md"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> tuple[Path, dict]:
    """The documents folder of a generated corpus, and its truth."""
    out = tmp_path_factory.mktemp("corpus")
    return out / "documents", generate(out, seed=7)


def _case(truth: dict, case_id: str) -> dict:
    return next(c for c in truth["cases"] if c["id"] == case_id)


def _pdf_pages(path: Path) -> list[str]:
    with pdfplumber.open(path) as pdf:
        return [page.extract_text() or "" for page in pdf.pages]


def _squash(text: str) -> str:
    return " ".join(text.split())


def _hashes(root: Path) -> dict[str, str]:
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


# --------------------------------------------------------------------------------------------
# Layout


def test_every_listed_document_exists_in_its_folder(corpus):
    out, truth = corpus
    docs = truth["documents"]
    assert sorted(_hashes(out)) == docs  # nothing else, truth.json included, is a document
    assert json.loads((out.parent / "truth.json").read_text(encoding="utf-8")) == truth
    folders: dict[str, int] = {}
    for d in docs:
        folders[d.rsplit("/", 1)[0]] = folders.get(d.rsplit("/", 1)[0], 0) + 1
    assert folders["tickets/2025"] == 140
    assert folders["contracts"] == 6
    assert folders["agreements-archive"] == 2
    assert folders["slas"] == 3
    assert set(folders) == {
        "invoices/2024",
        "invoices/2025",
        "contracts",
        "agreements-archive",
        "slas",
        "pricelists",
        "quotes",
        "notes",
        "tickets/2025",
    }
    assert "invoices/2024/brightline-2024-03.pdf" in docs
    assert "quotes/견적서-2025.hwpx" in docs
    assert {"notes/kickoff.pptx", "notes/scan-broken.pdf"} <= set(docs)
    for case in truth["cases"]:
        assert set(case["documents_with_rows"]) <= set(docs)
        for row in case["rows"]:
            assert row["file"] in case["documents_with_rows"]
            assert list(row["values"]) == case["columns"]


def test_truth_cases_are_the_readme_cases(corpus):
    _, truth = corpus
    listed = re.findall(
        r"^\| `([a-z0-9-]+)` \| (explicit|semantic) \| (.+?) \|$", README.read_text(), re.MULTILINE
    )
    assert [(c["id"], c["tags"][0], c["message"]) for c in truth["cases"]] == listed
    counts = dict(re.findall(r"`([a-z0-9-]+)` (\d+)", README.read_text().split("Rows for seed 7:")[1]))
    assert {c["id"]: str(len(c["rows"])) for c in truth["cases"]} == counts
    assert truth["seed"] == 7
    assert truth["unreadable"] == ["notes/scan-broken.pdf"]


def test_broken_scan_is_not_a_readable_pdf(corpus):
    out, _ = corpus
    data = (out / "notes/scan-broken.pdf").read_bytes()
    assert data.startswith(b"%PDF-1.4")
    with pytest.raises(PdfminerException), pdfplumber.open(out / "notes/scan-broken.pdf") as pdf:
        [page.extract_text() for page in pdf.pages]


# --------------------------------------------------------------------------------------------
# Invoices


def test_nordwerk_2025_rows_are_printed_in_their_invoices(corpus):
    out, truth = corpus
    case = _case(truth, "nordwerk-2025-positions")
    assert case["columns"] == ["Description", "Quantity", "Unit price"]
    assert case["status"] == "done" and case["tags"] == ["explicit"]
    assert len(case["documents_with_rows"]) == 4
    texts = {d: _squash(" ".join(_pdf_pages(out / d))) for d in case["documents_with_rows"]}
    for row in case["rows"]:
        v = row["values"]
        assert row["file"].startswith("invoices/2025/nordwerk-")
        assert f"{v['Description']} {v['Quantity']} {v['Unit price']}" in texts[row["file"]]
        assert re.fullmatch(r"\d{1,3}(\.\d{3})*,\d{2}", v["Unit price"]), v  # German notation
    for text in texts.values():
        assert "Nordwerk GmbH" in text and "Rechnungsnummer:" in text
        assert "Pos. Art.-Nr. Beschreibung Menge Einzelpreis Gesamtpreis" in text


def test_long_nordwerk_invoice_continues_on_page_two_without_a_header(corpus):
    out, truth = corpus
    case = _case(truth, "nordwerk-2025-positions")
    long_doc = max(case["documents_with_rows"], key=lambda d: sum(r["file"] == d for r in case["rows"]))
    rows = [r["values"] for r in case["rows"] if r["file"] == long_doc]
    assert len(rows) >= 40
    with pdfplumber.open(out / long_doc) as pdf:
        assert len(pdf.pages) == 2
        first, second = (p.extract_text() for p in pdf.pages)
        tables_2 = pdf.pages[1].extract_tables()
    assert "Beschreibung" in first and "Beschreibung" not in second
    assert tables_2 and tables_2[0][0][2] != "Beschreibung"
    assert rows[0]["Description"] in first and rows[-1]["Description"] in second
    # the total is prose below the table, on the last page, not a table row
    assert "Gesamtbetrag netto:" in second
    assert not any("Gesamtbetrag" in (cell or "") for row in tables_2[0] for cell in row)


def test_reseller_items_mention_nordwerk_but_its_letterhead_never_does(corpus):
    out, truth = corpus
    tessel = [d for d in truth["documents"] if d.startswith("invoices/") and "/tessel-" in d]
    assert len(tessel) == 3 and all(d.startswith("invoices/2025/") for d in tessel)
    for doc in tessel:
        text = "\n".join(_pdf_pages(out / doc))
        head, _, table = text.partition("Item Description Qty Unit price Amount")
        assert "Tessel Trading" in head
        assert "Nordwerk" not in head
        assert "Nordwerk" in table
    for case_id in ("nordwerk-2025-positions", "nordwerk-hardware"):
        case = _case(truth, case_id)
        assert not any("tessel" in d for d in case["documents_with_rows"])
        assert all("/nordwerk-2025-" in r["file"] for r in case["rows"])


def test_hardware_is_the_nordwerk_positions_without_services(corpus):
    _, truth = corpus
    every = _case(truth, "nordwerk-2025-positions")["rows"]
    hardware = _case(truth, "nordwerk-hardware")["rows"]
    assert 0 < len(hardware) < len(every)
    assert all(row in every for row in hardware)
    left_out = {r["values"]["Description"] for r in every if r not in hardware}
    assert "Versand und Verpackung" in left_out or any("(Stunde)" in d or "Pauschale" in d for d in left_out)
    assert not any("Kabel" in d or "Monitor" in d for d in left_out)


def test_brightline_tables_have_no_ruling_lines(corpus):
    out, truth = corpus
    path = out / "invoices/2024/brightline-2024-03.pdf"
    with pdfplumber.open(path) as pdf:
        page = pdf.pages[0]
        assert not page.lines and not page.rects
        text = page.extract_text()
    assert "Brightline Ltd" in text and "Item Description Qty Unit price Amount" in text
    case = _case(truth, "brightline-file")
    assert case["columns"] == ["Description", "Amount"]
    assert case["rows"]
    for row in case["rows"]:
        assert row["file"] == "invoices/2024/brightline-2024-03.pdf"
        line = next(ln for ln in text.splitlines() if row["values"]["Description"] in ln)
        assert line.endswith(" " + row["values"]["Amount"])
    total = re.search(r"^Total: ([\d,.]+) GBP$", text, re.MULTILINE)
    amounts = sum(float(r["values"]["Amount"].replace(",", "")) for r in case["rows"])
    assert total and float(total.group(1).replace(",", "")) == pytest.approx(amounts)


def test_brightline_total_and_bulk_cover_every_brightline_invoice(corpus):
    out, truth = corpus
    total = _case(truth, "brightline-total")
    assert total["calculations"] is True and total["columns"] == ["Amount"]
    brightline = sorted(d for d in truth["documents"] if d.startswith("invoices/") and "/brightline-" in d)
    assert total["documents_with_rows"] == brightline and len(brightline) == 5

    bulk = _case(truth, "brightline-bulk")
    assert bulk["rows"] and all(int(r["values"]["Quantity"]) > 10 for r in bulk["rows"])
    quantities = []
    for doc in brightline:
        for line in "\n".join(_pdf_pages(out / doc)).splitlines():
            m = re.match(r"^\d+ (.+) (\d+) ([\d,]+\.\d{2}) ([\d,]+\.\d{2})$", line)
            if m:
                quantities.append(int(m.group(2)))
    assert len(quantities) == len(total["rows"])
    assert 10 in quantities  # exactly 10 is not "more than 10"
    assert sum(q > 10 for q in quantities) == len(bulk["rows"])


def test_word_invoices_have_their_supplier_headers(corpus):
    from docx import Document

    out, truth = corpus
    nordwerk_2024 = [d for d in truth["documents"] if d.startswith("invoices/2024/nordwerk-")]
    kappa = [d for d in truth["documents"] if d.startswith("invoices/") and "/kappa-" in d]
    assert nordwerk_2024 and all(d.endswith(".docx") for d in nordwerk_2024)
    assert kappa and all(d.endswith(".docx") for d in kappa)
    for doc, header in [
        (nordwerk_2024[0], ["Pos.", "Art.-Nr.", "Beschreibung", "Menge", "Einzelpreis", "Gesamtpreis"]),
        (kappa[0], ["No.", "Description", "Quantity", "Unit Price", "Line Total"]),
    ]:
        word = Document(str(out / doc))
        assert [c.text for c in word.tables[0].rows[0].cells] == header
        assert len(word.tables[0].rows) > 2


def test_no_2023_has_no_documents(corpus):
    _, truth = corpus
    case = _case(truth, "no-2023")
    assert case["status"] == "no_documents"
    assert case["rows"] == [] and case["documents_with_rows"] == []
    assert not any("2023" in d for d in truth["documents"])


# --------------------------------------------------------------------------------------------
# Other documents


def test_price_list_keeps_item_codes_as_text(corpus):
    from openpyxl import load_workbook

    out, truth = corpus
    sheet = load_workbook(out / "pricelists/price-list-2025.xlsx")["Prices"]
    rows = list(sheet.iter_rows(values_only=True))
    assert list(rows[0]) == ["Item code", "Product group", "Description", "Unit price"]
    assert len(rows) == 301
    codes = [r[0] for r in rows[1:]]
    assert all(isinstance(c, str) and len(c) == 5 for c in codes)
    assert sum(c.startswith("0") for c in codes) > 150
    assert {r[1] for r in rows[1:]} == {"Cables", "Adapters", "Storage", "Networking", "Peripherals"}
    assert sheet["D2"].number_format == "#,##0.00"

    by_code = {r[0]: r for r in rows[1:]}
    case = _case(truth, "price-list-cables")
    assert len(case["rows"]) == sum(r[1] == "Cables" for r in rows[1:])
    assert any(r["values"]["Item code"].startswith("0") for r in case["rows"])
    assert any("," in r["values"]["Unit price"] for r in case["rows"])  # some cost over 1,000
    for row in case["rows"]:
        _, group, description, price = by_code[row["values"]["Item code"]]
        assert group == "Cables" and description == row["values"]["Description"]
        assert f"{price:,.2f}" == row["values"]["Unit price"]


def test_contract_caps_are_key_terms_with_varying_keys(corpus):
    from docx import Document

    out, truth = corpus
    texts = {}
    for doc in (d for d in truth["documents"] if d.startswith("contracts/")):
        path = out / doc
        if doc.endswith(".docx"):
            texts[doc] = "\n".join(p.text for p in Document(str(path)).paragraphs)
        elif doc.endswith(".pdf"):
            texts[doc] = "\n".join(_pdf_pages(path))
        else:
            texts[doc] = path.read_text(encoding="utf-8")
    assert len(texts) == 6 and {d.rsplit(".", 1)[1] for d in texts} == {"docx", "pdf", "md"}
    keys = set()
    for text in texts.values():
        assert "Key terms" in text
        m = re.search(
            r"^(Liability cap|Cap on liability|Maximum liability|Haftungshöchstbetrag): (.+)$",
            text,
            re.MULTILINE,
        )
        assert m, text
        keys.add(m.group(1))
    assert len(keys) == 4

    case = _case(truth, "contract-caps")
    assert case["columns"] == ["Supplier", "Liability cap"]
    caps = {r["values"]["Liability cap"] for r in case["rows"]}
    assert {"EUR 500,000", "GBP 750,000", "250.000 EUR"} <= caps
    assert "EUR 1,000,000" not in caps  # not below 1,000,000
    for row in case["rows"]:
        text = texts[row["file"]]
        assert f"Supplier: {row['values']['Supplier']}" in text
        assert f": {row['values']['Liability cap']}" in text


def test_archive_caps_are_stated_only_in_prose(corpus):
    from docx import Document

    out, truth = corpus
    archive = [d for d in truth["documents"] if d.startswith("agreements-archive/")]
    assert len(archive) == 2
    case = _case(truth, "archive-caps")
    assert case["tags"] == ["semantic"] and len(case["rows"]) == 1
    row = case["rows"][0]
    path = out / row["file"]
    text = (
        "\n".join(p.text for p in Document(str(path)).paragraphs)
        if path.suffix == ".docx"
        else "\n".join(_pdf_pages(path))
    )
    assert "Key terms" not in text
    assert f"shall be limited to {row['values']['Liability cap']}" in _squash(text)
    assert row["values"]["Supplier"] in text


def test_sla_tables_hold_the_truth(corpus):
    out, truth = corpus
    case = _case(truth, "sla-times")
    assert len(case["rows"]) == 12 and len(case["documents_with_rows"]) == 3
    assert {d.rsplit(".", 1)[1] for d in case["documents_with_rows"]} == {"docx", "pdf", "md"}
    md = next(d for d in case["documents_with_rows"] if d.endswith(".md"))
    text = (out / md).read_text(encoding="utf-8")
    assert "| Priority | Response time | Resolution time |" in text
    for row in (r["values"] for r in case["rows"] if r["file"] == md):
        assert f"| {row['Priority']} | {row['Response time']} | {row['Resolution time']} |" in text
    pdf = next(d for d in case["documents_with_rows"] if d.endswith(".pdf"))
    with pdfplumber.open(out / pdf) as doc:
        table = doc.pages[0].extract_tables()[0]
    assert table[0] == ["Priority", "Response time", "Resolution time"]
    assert [tuple(r) for r in table[1:]] == [
        tuple(r["values"].values()) for r in case["rows"] if r["file"] == pdf
    ]


def test_korean_quote_opens_with_python_hwpx(corpus):
    from hwpx import HwpxDocument

    out, truth = corpus
    doc = HwpxDocument.open(str(out / "quotes/견적서-2025.hwpx"))
    table = doc.tables[0]
    grid = [[table.cell(r, c).text for c in range(table.column_count)] for r in range(table.row_count)]
    assert grid[0] == ["품목", "수량", "단가"]
    case = _case(truth, "quote-hwpx")
    assert case["columns"] == ["품목", "수량", "단가"]
    assert [list(r["values"].values()) for r in case["rows"]] == grid[1:]


def test_tickets_and_their_p1_truth(corpus):
    out, truth = corpus
    case = _case(truth, "tickets-p1")
    assert case["columns"] == ["Ticket", "Customer", "Subject"]
    p1 = []
    for n in range(1, 141):
        path = f"tickets/2025/ticket-{n:04d}.txt"
        lines = (out / path).read_text(encoding="utf-8").splitlines()
        assert lines[0] == f"Ticket: T-{n:04d}"
        assert lines[1].startswith("Customer: ") and lines[3].startswith("Subject: ")
        assert re.fullmatch(r"Priority: P[1-4]", lines[2]) and lines[4] == "" and lines[5]
        if lines[2] == "Priority: P1":
            p1.append(
                {
                    "file": path,
                    "values": {"Ticket": lines[0][8:], "Customer": lines[1][10:], "Subject": lines[3][9:]},
                }
            )
    assert case["rows"] == p1
    assert 15 <= len(p1) <= 28


def test_kickoff_deck_has_two_slides(corpus):
    from pptx import Presentation

    out, _ = corpus
    assert len(Presentation(str(out / "notes/kickoff.pptx")).slides) == 2


# --------------------------------------------------------------------------------------------
# Determinism


def test_same_seed_writes_the_same_bytes(corpus, tmp_path):
    out, truth = corpus
    again = generate(tmp_path / "again", seed=7)
    assert again == truth
    assert (tmp_path / "again" / "truth.json").read_bytes() == (out.parent / "truth.json").read_bytes()
    assert _hashes(tmp_path / "again" / "documents") == _hashes(out)
    assert cases(7) == truth["cases"]


def test_rerun_over_an_existing_folder_changes_nothing(corpus):
    out, truth = corpus
    before = _hashes(out.parent)
    assert generate(out.parent, seed=7) == truth
    assert _hashes(out.parent) == before


def test_another_seed_changes_the_items_not_the_layout():
    first, other = cases(7), cases(8)
    assert [c["id"] for c in first] == [c["id"] for c in other]
    assert first[0]["rows"] != other[0]["rows"]
    assert {r["file"] for r in first[0]["rows"]} == {r["file"] for r in other[0]["rows"]}


def test_command_line(tmp_path, capsys):
    assert main([str(tmp_path / "kb"), "--seed", "3"]) == 0
    assert "tickets/2025/" in capsys.readouterr().out
    assert (tmp_path / "kb" / "documents" / "tickets" / "2025" / "ticket-0140.txt").is_file()
    assert json.loads((tmp_path / "kb" / "truth.json").read_text(encoding="utf-8"))["seed"] == 3
    with pytest.raises(SystemExit):
        main(["--help"])
