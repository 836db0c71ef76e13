"""What the workspace tests share: generated documents with their ground truth, helpers.

The price list is generated here, in XLSX, with every value written as text the way a
European office writes it; its ground truth is kept beside it, computed without SQL.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from decimal import Decimal
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import docx
import openpyxl
import psycopg
import pytest
from psycopg import sql

from tools.knowledge.ingest import ingest
from tools.workspace.workspace import Workspaces

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
COLLECTION = "workspace-docs"
GROUPS = ["Bolts", "Nuts", "Washers", "Screws", "Anchors", "Rivets"]


def european(value: Decimal, places: int = 2) -> str:
    """1234.5 → '1.234,50': the notation of the generated price list."""
    return f"{value:,.{places}f}".replace(",", " ").replace(".", ",").replace(" ", ".")


def generate_price_list(path: Path, rows: int = 300, seed: int = 4, title: Sequence[str] = ()) -> list[dict[str, Any]]:
    """An XLSX price list; every value written as text the way a European office writes it.
    ``title``: lines printed above the header (then a blank row), as offices head a sheet."""
    rng = random.Random(seed)
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Price list"
    for line in title:
        sheet.append([line])
    if title:
        sheet.append([])
    sheet.append(["Item code", "Product group", "Description", "Unit price (EUR)", "Weight (kg)"])
    truth = []
    for number in range(1, rows + 1):
        price = Decimal(rng.randint(50, 250_000)) / 100
        weight = Decimal(rng.randint(1000, 9999)) / 1000  # 1,250 kg: reads two ways on its own
        row = {"code": f"{number:03d}", "group": rng.choice(GROUPS), "price": price, "weight": weight}
        truth.append(row)
        sheet.append([row["code"], row["group"], f"Part {number}", european(price), european(weight, 3)])
    book.save(path)
    return truth


def write_forms(path: Path) -> None:
    """A Word document of four tables, each shaped like a form in one way."""
    document = docx.Document()
    for header, body in (
        (["Organisation name", "Value"], [["Kea", "x"]]),
        (["Item", "", "Price"], [["a", "b", "1"]]),
        (["Item", "Price", "Price"], [["a", "1", "2"]]),
        (["Item", "Group", "Price"], [["a", "b", "1"], ["c", "d", "2"]]),
    ):
        table = document.add_table(rows=len(body) + 1, cols=len(header))
        for i, cells in enumerate([header, *body]):
            for j, text in enumerate(cells):
                table.cell(i, j).text = text
        document.add_paragraph("")
    last = document.tables[-1]
    last.cell(1, 0).merge(last.cell(1, 1))  # a merged cell: that row has one cell less
    document.save(path)


@pytest.fixture(scope="module")
def docs(kea_home: Path, kb) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    folder = kea_home / "workspace-docs"
    folder.mkdir(exist_ok=True)
    truth = generate_price_list(folder / "price-list.xlsx")
    write_forms(folder / "forms.docx")
    report = ingest(kb, [folder], COLLECTION, embed=False)  # a second module's call replaces them with their twins
    assert sorted(report.indexed + report.replaced + report.unchanged) == ["forms.docx", "price-list.xlsx"], report.skipped
    return {"prices": truth, "folder": folder}


@pytest.fixture(scope="module")
def ws(svc) -> Workspaces:  # type: ignore[no-untyped-def]
    workspaces = Workspaces(svc.database_url, svc.objects, svc.kb, timeout_ms=1500)
    yield workspaces
    workspaces.close()


def kea(*args: str, env: dict[str, str] | None = None) -> tuple[int, Any, str]:
    done = subprocess.run([sys.executable, "-m", "server.cli", *args], capture_output=True, text=True, cwd=ROOT,
                          env={**ENV, **(env or {})})
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 1, done.stdout + done.stderr  # --json: exactly one JSON object on stdout
    return done.returncode, json.loads(lines[0]), done.stderr


def audit(svc, thread: str) -> list[dict[str, Any]]:  # type: ignore[no-untyped-def]
    with psycopg.connect(svc.database_url, row_factory=psycopg.rows.dict_row) as conn:
        return conn.execute(
            "SELECT user_id, query, duration_ms, row_count, outcome, error, csv_key, forgotten FROM workspace_queries"
            " WHERE thread_id = %s ORDER BY id",
            (thread,),
        ).fetchall()


def admin(svc, query: str | sql.Composable, *params: Any) -> list[tuple[Any, ...]]:  # type: ignore[no-untyped-def]
    with psycopg.connect(svc.database_url) as conn:
        return conn.execute(query, params).fetchall()


def state(svc, schema: str) -> tuple[Any, ...]:  # type: ignore[no-untyped-def]
    """What a query could have changed: the workspace's tables, their rows, large objects."""
    tables = admin(svc, "SELECT tablename FROM pg_tables WHERE schemaname = %s ORDER BY 1", schema)
    rows = admin(svc, sql.SQL("SELECT count(*), max(unit_price_eur) FROM {}").format(sql.Identifier(schema, "price_list")))
    objects = admin(svc, "SELECT count(*) FROM pg_largeobject_metadata")
    return tuple(tables), tuple(rows), tuple(objects)
