"""Headers found, not assumed: a sheet headed by a title reads like the same sheet without one.

Offices head a spreadsheet with a title, a subtitle and a blank row before the header; an
export puts a report's name above its columns. The header is the first row that names two
columns or more under at most a few rows of one cell; the rows above it are the table's title,
kept with the table and in the page text. Extraction and the SQL workspace read the same header.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import psycopg
import pytest
from workspace_support import generate_price_list, kea

from evals.tables import rows_from_csv
from core.profile import Profile
from graph.runs import run_extraction
from tools.knowledge.ingest import ingest
from tools.storage.rows import table_key

COLLECTION = "titled"
TITLE = ["Price list 2025 — Halden Components", "Valid from 1 May 2025; prices in EUR without VAT"]
READING_LIST = Path(__file__).resolve().parents[2] / "evals" / "public" / "docling" / "documents" / "xlsx_09_section_label_header.xlsx"
EXPENSES = "Expense report Q2 2025\nDate,Description,Amount\n2025-04-03,Train Hamburg–Kiel,48.90\n2025-05-12,Hotel Kiel,112.00\n"


@pytest.fixture(scope="module")
def titled(kea_home: Path, kb) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    folder = kea_home / "titled"
    folder.mkdir()
    truth = generate_price_list(folder / "price-list-titled.xlsx", title=TITLE)
    (folder / "expenses-q2.csv").write_text(EXPENSES, encoding="utf-8")
    shutil.copyfile(READING_LIST, folder / READING_LIST.name)  # a real titled sheet (docling's tests)
    report = ingest(kb, [folder], COLLECTION, embed=False)
    assert sorted(report.indexed) == ["expenses-q2.csv", "price-list-titled.xlsx", READING_LIST.name], report.skipped
    return {"prices": truth}


def _profile() -> Profile:
    return Profile(collections=[COLLECTION], engine="offline")


def _rows(svc: Any, values: dict[str, Any]) -> list[dict[str, Any]]:
    with svc.objects.open(table_key(values["extraction_id"])) as handle:
        return rows_from_csv(handle.read())[1]


def test_the_title_is_kept_with_the_table_and_the_header_under_it(kb, titled) -> None:  # type: ignore[no-untyped-def]
    scope = _profile().scope
    (ref,) = kb.find_by_path_suffix(scope, "price-list-titled.xlsx")
    document = kb.read_document(scope, ref.id)
    (table,) = document.tables
    assert table.title == TITLE
    assert table.header == ["Item code", "Product group", "Description", "Unit price (EUR)", "Weight (kg)"]
    assert len(table.rows) == 300
    assert TITLE[0] in document.pages[0]  # the title stays in the page text, above the header


def test_kea_sql_loads_a_titled_sheet_by_its_real_header(titled) -> None:  # type: ignore[no-untyped-def]
    code, loaded, _ = kea("sql", "--thread", "ws-titled", "--load-document", "price-list-titled.xlsx",
                          "--collection", COLLECTION, "--json")
    assert code == 0, loaded
    assert loaded["rows"] == 300
    assert loaded["columns"] == ["item_code", "product_group", "description", "unit_price_eur", "weight_kg"]


def test_kea_sql_loads_a_real_titled_sheet_by_its_real_header(titled) -> None:  # type: ignore[no-untyped-def]
    """docling's xlsx_09: "Reading List" over "# | Genre | Sub-Genre | Title | …"."""
    code, loaded, _ = kea("sql", "--thread", "ws-reading", "--load-document", READING_LIST.name,
                          "--collection", COLLECTION, "--json")
    assert code == 0, loaded
    assert loaded["rows"] == 2
    assert loaded["columns"][1:5] == ["genre", "sub_genre", "title", "author"]


async def test_extraction_reads_every_row_under_a_title(svc, titled) -> None:  # type: ignore[no-untyped-def]
    values = await run_extraction("Item code, description and unit price of every item in price-list-titled.xlsx",
                                  _profile(), confirm="auto")
    assert values["answer"]["status"] == "done", values["answer"]["message"]
    rows = _rows(svc, values)
    assert len(rows) == 300 and all(r["match"] == "yes" for r in rows)
    first = titled["prices"][0]
    assert rows[0]["values"]["Item code"] == first["code"]

    expenses = await run_extraction("Date, description and amount of every expense in expenses-q2.csv", _profile(),
                                    confirm="auto")
    got = [(r["values"]["Date"], r["values"]["Amount"]) for r in _rows(svc, expenses)]
    assert got == [("2025-04-03", "48.90"), ("2025-05-12", "112.00")]


def test_a_document_an_older_parser_read_is_read_again_at_the_next_ingest(svc, kb, kea_home, titled) -> None:  # type: ignore[no-untyped-def]
    with psycopg.connect(svc.database_url, autocommit=True) as conn:
        conn.execute("UPDATE documents SET parser = 0 WHERE path = 'expenses-q2.csv'")
    report = ingest(kb, [kea_home / "titled"], COLLECTION, embed=False)
    assert report.replaced == ["expenses-q2.csv"]
    assert sorted(report.unchanged) == ["price-list-titled.xlsx", READING_LIST.name]
