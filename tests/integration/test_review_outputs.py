"""What an extraction leaves to check it by: review.html, table.xlsx, and a reason for every
document without rows — on the generated corpus and on hostile cells, real PostgreSQL and store."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from openpyxl import load_workbook

from core.profile import Profile
from graph.runs import run_extraction
from tools.storage.rows import output_key, summary_key, table_key

CORPUS = Profile(collections=["corpus"])
HOSTILE = Profile(collections=["hostile"])
NORDWERK = "Every position on Nordwerk's 2025 invoices with description, quantity and unit price"


def _read(svc: Any, key: str) -> bytes:
    with svc.objects.open(key) as handle:
        return handle.read()


def _csv_rows(svc: Any, extraction_id: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(_read(svc, table_key(extraction_id)).decode("utf-8-sig"))))


def _review_rows(page: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The rows the review page carries (its embedded JSON, one row a line)."""
    body = page.split('<script type="application/x-ndjson" id="rows">', 1)[1].split("</script>", 1)[0]
    lines = [json.loads(line) for line in body.splitlines() if line.strip()]
    return lines[0], lines[1:]


@pytest.fixture(scope="module")
def hostile(svc, tmp_path_factory) -> Path:  # type: ignore[no-untyped-def]
    """A collection whose cells are what a spreadsheet or a browser would run."""
    from tools.knowledge.ingest import ingest

    folder = tmp_path_factory.mktemp("hostile")
    (folder / "orders.md").write_text(
        "# Orders\n\nSupplier: Zeta Parts\n\n"
        "| Code | Item | Quantity |\n|---|---|---|\n"
        "| 007 | <script>alert('x')</script> | 3 |\n"
        "| 010 | =HYPERLINK(\"http://evil\",\"x\") | 1 |\n"
        "| 011 | Bolt </script><b>bold</b> | 12 |\n",
        encoding="utf-8",
    )
    ingest(svc.kb, [folder], "hostile", embed=False)
    return folder


async def test_the_review_page_holds_every_row_with_its_source_line(corpus, svc) -> None:  # type: ignore[no-untyped-def]
    values = await run_extraction(NORDWERK, CORPUS, confirm="auto")
    extraction = values["extraction_id"]
    table = _csv_rows(svc, extraction)
    page = _read(svc, output_key(extraction, "review.html")).decode("utf-8")
    meta, rows = _review_rows(page)

    assert meta["columns"] == ["Description", "Quantity", "Unit price"] and len(rows) == len(table) - 1 == 64
    assert [[r["file"], *r["values"]] for r in rows] == [line[:4] for line in table[1:]]  # same rows, same order
    for row, line in zip(rows, table[1:]):
        context = row["context"]
        assert context["found"] and context["lines"], row
        assert row["values"][0] in " ".join(context["lines"])  # the highlighted line is the row's own line
    assert all(r["context"]["before"] or r["context"]["after"] for r in rows)  # shown inside its page's lines
    assert "It does not name Nordwerk".lower() in page.lower()  # the documents without rows, with why
    assert "http://" not in page.replace("http://www.w3.org", "") and "https://" not in page  # loads nothing


async def test_hostile_cells_are_escaped_in_the_page_and_text_in_the_spreadsheet(hostile, svc) -> None:  # type: ignore[no-untyped-def]
    values = await run_extraction("Code, item and quantity of every order", HOSTILE, confirm="auto")
    assert values["answer"]["status"] == "done", values["answer"]["message"]
    extraction = values["extraction_id"]
    page = _read(svc, output_key(extraction, "review.html")).decode("utf-8")
    assert "<script>alert" not in page and "</script><b>" not in page  # never markup, only escaped text
    assert page.count("<script") == 2  # the rows' JSON and the page's own code
    _, rows = _review_rows(page)
    assert [r["values"][1] for r in rows] == ["<script>alert('x')</script>", '=HYPERLINK("http://evil","x")', "Bolt </script><b>bold</b>"]

    book = load_workbook(io.BytesIO(_read(svc, output_key(extraction, "table.xlsx"))))
    sheet = book.active
    cells = [[c for c in row] for row in sheet.iter_rows()]
    assert [c.value for c in cells[0]] == ["File", "Code", "Item", "Quantity", "Match", "Page", "Evidence"]
    assert all(c.font.b for c in cells[0]) and sheet.freeze_panes == "A2"
    assert [c.value for c in cells[1][:4]] == ["orders.md", "007", "<script>alert('x')</script>", "3"]
    assert cells[2][2].value == '=HYPERLINK("http://evil","x")' and cells[2][2].data_type == "s"  # text, never a formula
    assert all(c.data_type == "s" for row in cells[1:] for c in row if c.value is not None)
    assert sheet.column_dimensions["C"].width > sheet.column_dimensions["B"].width  # widths fit the values
    csv_rows = _csv_rows(svc, extraction)
    assert len(csv_rows) == len(cells) and csv_rows[2][2] == "'" + '=HYPERLINK("http://evil","x")'  # the CSV guards it


async def test_the_xlsx_has_the_rows_of_the_csv(corpus, svc) -> None:  # type: ignore[no-untyped-def]
    values = await run_extraction("Priority, response time and resolution time from the SLAs", CORPUS, confirm="auto")
    extraction = values["extraction_id"]
    sheet = load_workbook(io.BytesIO(_read(svc, output_key(extraction, "table.xlsx")))).active
    assert [[c.value or "" for c in row] for row in sheet.iter_rows()] == _csv_rows(svc, extraction)
    assert values["answer"]["xlsx"].endswith("table.xlsx") and values["answer"]["review"].endswith("review.html")


def _no_rows(svc: Any, values: dict[str, Any]) -> dict[str, dict[str, str]]:
    stored = json.loads(_read(svc, summary_key(values["extraction_id"])))
    assert stored["no_rows_from"] == [n["file"] for n in stored["no_rows"]]
    return {n["file"]: n for n in stored["no_rows"]}


async def test_every_document_without_rows_says_why(corpus, svc) -> None:  # type: ignore[no-untyped-def]
    truth_rows = next(c for c in corpus["cases"] if c["id"] == "nordwerk-2025-positions")["rows"]

    # another supplier's invoice: the document condition, by name
    by_supplier = _no_rows(svc, await run_extraction(NORDWERK, CORPUS, confirm="auto"))
    invoices_2025 = {d for d in corpus["documents"] if d.startswith("invoices/2025/")}
    assert set(by_supplier) == {d for d in invoices_2025 if "nordwerk" not in d}
    assert {(n["reason"], n["detail"]) for n in by_supplier.values()} == {
        ("document_condition", "the document condition failed (it does not name Nordwerk)")
    }

    # Nordwerk's own invoices, none with a quantity over 100 (the truth's largest is below it)
    assert max(int(r["values"]["Quantity"]) for r in truth_rows) < 100
    over = _no_rows(svc, await run_extraction(
        "Every position on Nordwerk's 2025 invoices where quantity is more than 100, with description, quantity and unit price",
        CORPUS, confirm="auto",
    ))
    nordwerk = {r["file"] for r in truth_rows}
    assert {f for f, n in over.items() if n["reason"] == "row_condition"} == nordwerk
    assert {f for f, n in over.items() if n["reason"] == "document_condition"} == invoices_2025 - nordwerk

    # the notes: a scanned receipt (no text layer) and notes without such a table
    notes = _no_rows(svc, await run_extraction("Description, quantity and price of every item in the notes", CORPUS, confirm="auto"))
    scanned = corpus["scanned"][0]
    assert notes[scanned]["reason"] == "no_text" and "OCR" in notes[scanned]["detail"]
    readable_notes = {d for d in corpus["documents"] if d.startswith("notes/")} - {scanned} - set(corpus["unreadable"])
    assert {f for f, n in notes.items() if n["reason"] == "no_matching_columns"} == readable_notes


async def test_the_answer_groups_documents_without_rows_by_reason(corpus) -> None:  # type: ignore[no-untyped-def]
    values = await run_extraction("Description, quantity and price of every item in the notes", CORPUS, confirm="auto")
    message = values["answer"]["message"]
    groups = re.findall(r"^- (\d+) — (.+?): (.+)$", message, flags=re.MULTILINE)
    assert sorted((int(n), why.split(" (")[0]) for n, why, _ in groups) == [
        (1, "it has no text layer"), (3, "no table or record in it holds the requested columns"),
    ]
