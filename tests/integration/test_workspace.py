"""The SQL workspace against the session's real PostgreSQL and file store.

A 300-row price list (an XLSX generated here, its ground truth computed here) is loaded by its
coordinates and counted with SQL; forms are refused; queries that would write, reach outside
the conversation or run too long are refused or stopped with nothing changed; forgetting the
thread takes the workspace with it.
"""

from __future__ import annotations

import csv
import io
import json
import os
import random
import subprocess
import sys
from collections import defaultdict
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

import docx
import openpyxl
import psycopg
import pytest
from psycopg import sql

from graph.profile import Profile
from graph.runs import run_extraction
from tools.knowledge.ingest import ingest
from tools.storage.rows import table_key
from tools.workspace import run
from tools.workspace.shape import FormRefused
from tools.workspace.sources import DocumentTable, ExtractionTable, QueryResult
from tools.workspace.workspace import QueryFailed, Workspaces

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
COLLECTION = "workspace-docs"
GROUPS = ["Bolts", "Nuts", "Washers", "Screws", "Anchors", "Rivets"]


def _european(value: Decimal, places: int = 2) -> str:
    """1234.5 → '1.234,50': the notation of the generated price list."""
    return f"{value:,.{places}f}".replace(",", " ").replace(".", ",").replace(" ", ".")


def generate_price_list(path: Path, rows: int = 300, seed: int = 4) -> list[dict[str, Any]]:
    """An XLSX price list; every value written as text the way a European office writes it."""
    rng = random.Random(seed)
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Price list"
    sheet.append(["Item code", "Product group", "Description", "Unit price (EUR)", "Weight (kg)"])
    truth = []
    for number in range(1, rows + 1):
        price = Decimal(rng.randint(50, 250_000)) / 100
        weight = Decimal(rng.randint(1000, 9999)) / 1000  # 1,250 kg: reads two ways on its own
        row = {"code": f"{number:03d}", "group": rng.choice(GROUPS), "price": price, "weight": weight}
        truth.append(row)
        sheet.append([row["code"], row["group"], f"Part {number}", _european(price), _european(weight, 3)])
    book.save(path)
    return truth


def _forms(path: Path) -> None:
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
    _forms(folder / "forms.docx")
    report = ingest(kb, [folder], COLLECTION)
    assert sorted(report.indexed) == ["forms.docx", "price-list.xlsx"], report.skipped
    return {"prices": truth, "folder": folder}


@pytest.fixture(scope="module")
def ws(svc) -> Workspaces:  # type: ignore[no-untyped-def]
    workspaces = Workspaces(svc.database_url, svc.objects, svc.kb, timeout_ms=1500)
    yield workspaces
    workspaces.close()


def _kea(*args: str, env: dict[str, str] | None = None) -> tuple[int, Any, str]:
    done = subprocess.run([sys.executable, "-m", "server.cli", *args], capture_output=True, text=True, cwd=ROOT,
                          env={**ENV, **(env or {})})
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 1, done.stdout + done.stderr  # --json: exactly one JSON object on stdout
    return done.returncode, json.loads(lines[0]), done.stderr


def _audit(svc, thread: str) -> list[dict[str, Any]]:  # type: ignore[no-untyped-def]
    with psycopg.connect(svc.database_url, row_factory=psycopg.rows.dict_row) as conn:
        return conn.execute(
            "SELECT user_id, query, duration_ms, row_count, outcome, error, csv_key, forgotten FROM workspace_queries"
            " WHERE thread_id = %s ORDER BY id",
            (thread,),
        ).fetchall()


def _admin(svc, query: str | sql.Composable, *params: Any) -> list[tuple[Any, ...]]:  # type: ignore[no-untyped-def]
    with psycopg.connect(svc.database_url) as conn:
        return conn.execute(query, params).fetchall()


# -- loading --------------------------------------------------------------------------------


def test_a_price_list_loads_and_its_averages_match_the_ground_truth(ws, docs) -> None:  # type: ignore[no-untyped-def]
    code, loaded, _ = _kea("sql", "--thread", "ws-prices", "--load-document", "price-list.xlsx",
                           "--collection", COLLECTION, "--json")
    assert code == 0
    assert loaded["table"] == "price_list" and loaded["rows"] == 300
    assert loaded["columns"] == ["item_code", "product_group", "description", "unit_price_eur", "weight_kg"]
    assert loaded["notations"] == {"unit_price_eur": "european", "weight_kg": "european"}

    answer = ws.run_sql("ws-prices", "local", "SELECT product_group, avg(kea_number(unit_price_eur, 'european')) AS average,"
                        " count(*) AS n FROM price_list GROUP BY product_group ORDER BY product_group")
    sums: dict[str, list[Decimal]] = defaultdict(list)
    for row in docs["prices"]:
        sums[row["group"]].append(row["price"])
    expected = {group: sum(prices) / len(prices) for group, prices in sums.items()}
    got = {group: Decimal(average) for group, average, _ in answer.rows}
    assert got.keys() == expected.keys()
    for group, average in expected.items():
        assert abs(got[group] - average) < Decimal("1e-9"), group
    assert sum(int(n) for *_, n in answer.rows) == 300


def test_values_stay_the_text_the_document_shows(ws, docs) -> None:  # type: ignore[no-untyped-def]
    ws.load_table("ws-text", "local", DocumentTable(COLLECTION, "price-list.xlsx"))
    answer = ws.run_sql("ws-text", "local", "SELECT item_code, unit_price_eur FROM price_list WHERE item_code = '007'")
    assert answer.rows == [["007", _european(docs["prices"][6]["price"])]]


def test_an_ambiguous_column_is_read_by_the_notation_the_table_shows(ws, docs) -> None:  # type: ignore[no-untyped-def]
    ws.load_table("ws-weight", "local", DocumentTable(COLLECTION, "price-list.xlsx"))
    with pytest.raises(QueryFailed, match="reads two ways.*Give the notation"):
        ws.run_sql("ws-weight", "local", "SELECT sum(kea_number(weight_kg)) FROM price_list")
    infos, _ = ws.tables("ws-weight", "local")
    notation = infos[0].notations["weight_kg"]
    answer = ws.run_sql("ws-weight", "local", f"SELECT sum(kea_number(weight_kg, '{notation}')) FROM price_list")
    assert Decimal(answer.rows[0][0]) == sum(row["weight"] for row in docs["prices"])


@pytest.mark.parametrize(
    ("table", "reason"),
    [
        (1, "2 columns"),
        (2, "header cell 2 is empty"),
        (3, "names 'Price' twice"),
        (4, "row 2 has 2 cells but the header has 3"),
    ],
)
def test_forms_are_refused_with_their_reason(ws, docs, table: int, reason: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(FormRefused, match=reason):
        ws.load_table("ws-forms", "local", DocumentTable(COLLECTION, "forms.docx", table))
    assert ws.tables("ws-forms", "local")[0] == []


def test_the_cli_answers_a_refused_form_with_its_reason(docs) -> None:  # type: ignore[no-untyped-def]
    code, answer, _ = _kea("sql", "--thread", "ws-forms-cli", "--load-document", "forms.docx", "--collection",
                           COLLECTION, "--table", "1", "--json")
    assert code == 1 and set(answer) == {"refused"} and "2 columns" in answer["refused"]
    code, answer, _ = _kea("sql", "--thread", "ws-forms-cli", "--load-document", "forms.docx", "--collection",
                           COLLECTION, "--table", "9", "--json")
    assert code == 1 and "holds 4 tables" in answer["error"]


def test_a_document_is_loaded_only_under_the_users_access(ws, docs) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(Exception, match="no document 'price-list.xlsx' in collection"):
        ws.load_table("ws-mallory", "mallory", DocumentTable(COLLECTION, "price-list.xlsx"))
    ws.load_table("ws-owned", "local", DocumentTable(COLLECTION, "price-list.xlsx"))
    with pytest.raises(Exception, match="no conversation ws-owned of yours"):
        ws.run_sql("ws-owned", "mallory", "SELECT count(*) FROM price_list")


def test_a_hangul_price_list_averages_by_group_like_the_ground_truth(ws, kea_home, kb) -> None:  # type: ignore[no-untyped-def]
    """The case of record 004: a 300-row price list in an HWPX document, header only at its top."""
    from hwpx import HwpxDocument

    rng = random.Random(7)
    groups = ["볼트", "너트", "와셔", "앵커"]
    truth: dict[str, list[int]] = defaultdict(list)
    document = HwpxDocument.new()
    document.add_paragraph("2025년 품목별 단가표")
    document.add_paragraph("품목별 단가는 다음과 같습니다.")
    rows = document.add_table(301, 4).rows  # cell by cell through the rows: set_cell_text is quadratic
    for cell, text in zip(rows[0].cells, ("품목코드", "품목군", "품명", "단가"), strict=True):
        cell.text = text
    for number, row in enumerate(rows[1:], 1):
        group, price = rng.choice(groups), rng.randint(500, 2_000_000)
        truth[group].append(price)
        for cell, text in zip(row.cells, (f"K-{number:04d}", group, f"부품 {number}", f"{price:,}"), strict=True):
            cell.text = text
    folder = kea_home / "workspace-hangul" / "견적"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "단가표-2025.hwpx").write_bytes(document.to_bytes())
    assert ingest(kb, [folder.parent], "workspace-hangul").indexed == ["견적/단가표-2025.hwpx"]

    loaded = ws.load_table("ws-hangul", "local", DocumentTable("workspace-hangul", "견적/단가표-2025.hwpx"))
    assert loaded.table == "단가표_2025" and loaded.rows == 300
    assert loaded.columns == ["품목코드", "품목군", "품명", "단가"] and loaded.notations == {"단가": "english"}
    answer = ws.run_sql("ws-hangul", "local",
                        "SELECT 품목군, avg(kea_number(단가, 'english')) FROM 단가표_2025 GROUP BY 품목군")
    expected = {group: Decimal(sum(prices)) / len(prices) for group, prices in truth.items()}
    got = {group: Decimal(average) for group, average in answer.rows}
    assert got.keys() == expected.keys()
    assert all(abs(got[g] - expected[g]) < Decimal("1e-9") for g in expected)


# -- what queries may not do ---------------------------------------------------------------------


def _state(svc, schema: str) -> tuple[Any, ...]:  # type: ignore[no-untyped-def]
    """What a query could have changed: the workspace's tables, their rows, large objects."""
    tables = _admin(svc, "SELECT tablename FROM pg_tables WHERE schemaname = %s ORDER BY 1", schema)
    rows = _admin(svc, sql.SQL("SELECT count(*), max(unit_price_eur) FROM {}").format(sql.Identifier(schema, "price_list")))
    objects = _admin(svc, "SELECT count(*) FROM pg_largeobject_metadata")
    return tuple(tables), tuple(rows), tuple(objects)


@pytest.mark.parametrize(
    ("query", "reason"),
    [
        ("INSERT INTO price_list (item_code) VALUES ('x')", "not INSERT"),
        ("UPDATE price_list SET unit_price_eur = '0'", "not UPDATE"),
        ("DELETE FROM price_list", "not DELETE"),
        ("DROP TABLE price_list", "not DROP"),
        ("CREATE TABLE copy AS SELECT * FROM price_list", "not CREATE"),
        ("ALTER TABLE price_list ADD COLUMN x text", "not ALTER"),
        ("SELECT 1; DELETE FROM price_list", "2 statements"),
        ("SELECT * INTO copy FROM price_list", "SELECT … INTO"),
        ("WITH gone AS (DELETE FROM price_list RETURNING *) SELECT count(*) FROM gone", "DELETE"),
        ("SELECT lo_from_bytea(0, 'x')", "lo_from_bytea"),
        ("SELECT set_config('default_transaction_read_only', 'off', false)", "set_config"),
        ("SELECT nextval('workspace_queries_id_seq')", "nextval"),
        ("SELECT * FROM documents", "no table 'documents'"),
        ("SELECT * FROM api_keys", "no table 'api_keys'"),
        ("SELECT * FROM public.api_keys", "outside this conversation's workspace"),
        ("SELECT * FROM pg_catalog.pg_authid", "outside this conversation's workspace"),
    ],
)
def test_queries_that_write_or_reach_outside_are_refused_and_change_nothing(ws, svc, docs, query: str, reason: str) -> None:  # type: ignore[no-untyped-def]
    ws.load_table("ws-guard", "local", DocumentTable(COLLECTION, "price-list.xlsx"))
    schema = ws.catalog.name_for("ws-guard")
    before = _state(svc, schema)
    with pytest.raises(QueryFailed, match=reason) as refused:
        ws.run_sql("ws-guard", "local", query)
    assert "Nothing was run" in str(refused.value)
    assert _state(svc, schema) == before
    assert _audit(svc, "ws-guard")[-1]["outcome"] == "refused"


def test_another_conversations_schema_is_out_of_reach(ws, svc, docs) -> None:  # type: ignore[no-untyped-def]
    ws.load_table("ws-alice", "local", DocumentTable(COLLECTION, "price-list.xlsx"))
    ws.load_table("ws-bob", "local", DocumentTable(COLLECTION, "price-list.xlsx"))
    alice = ws.catalog.name_for("ws-alice")
    with pytest.raises(QueryFailed, match="outside this conversation's workspace"):
        ws.run_sql("ws-bob", "local", f"SELECT count(*) FROM {alice}.price_list")


def test_the_role_itself_can_reach_nothing_else(ws, svc, docs) -> None:  # type: ignore[no-untyped-def]
    """Past the query check, the database refuses: another schema, Kea's tables, writes, large objects."""
    ws.load_table("ws-role", "local", DocumentTable(COLLECTION, "price-list.xlsx"))
    ws.load_table("ws-other", "local", DocumentTable(COLLECTION, "price-list.xlsx"))
    with ws.catalog.conn() as conn:
        record = ws.catalog.record(conn, "ws-role")
    conninfo = run.role_conninfo(svc.database_url, record.role, record.password)
    other = ws.catalog.name_for("ws-other")
    before = _state(svc, record.schema)
    for query, error in (
        (f"SELECT count(*) FROM {other}.price_list", psycopg.errors.InsufficientPrivilege),
        ("SELECT count(*) FROM public.documents", psycopg.errors.InsufficientPrivilege),
        ("SELECT count(*) FROM public.api_keys", psycopg.errors.InsufficientPrivilege),
        ("SELECT lo_from_bytea(0, 'x')", psycopg.errors.InsufficientPrivilege),
        ("SELECT set_config('transaction_read_only', 'off', true), 1", psycopg.errors.ActiveSqlTransaction),
        ("DELETE FROM price_list", psycopg.errors.SyntaxError),  # a cursor holds only a SELECT
    ):
        with pytest.raises(error):
            run.fetch(conninfo, query, timeout_ms=1000, row_cap=10)
    with psycopg.connect(conninfo, autocommit=True) as conn:  # even outside Kea's transaction
        for statement in ("DELETE FROM price_list", "CREATE TABLE x (a int)", "CREATE TEMP TABLE x (a int)"):
            with pytest.raises((psycopg.errors.ReadOnlySqlTransaction, psycopg.errors.InsufficientPrivilege)):
                conn.execute(statement)
    assert _state(svc, record.schema) == before


def test_a_query_past_the_time_limit_is_stopped_cleanly(ws, svc, docs) -> None:  # type: ignore[no-untyped-def]
    ws.load_table("ws-slow", "local", DocumentTable(COLLECTION, "price-list.xlsx"))
    started = datetime.now(UTC)
    with pytest.raises(QueryFailed, match=r"time limit \(1.5 s\).*nothing was changed"):
        ws.run_sql("ws-slow", "local", "SELECT pg_sleep(10)")
    assert datetime.now(UTC) - started < timedelta(seconds=6)
    last = _audit(svc, "ws-slow")[-1]
    assert last["outcome"] == "timeout" and 1400 <= last["duration_ms"] < 6000
    assert ws.run_sql("ws-slow", "local", "SELECT count(*) FROM price_list").rows == [["300"]]


def test_the_row_cap_is_stated_when_hit(svc, docs) -> None:  # type: ignore[no-untyped-def]
    capped = Workspaces(svc.database_url, svc.objects, svc.kb, row_cap=50)
    try:
        capped.load_table("ws-cap", "local", DocumentTable(COLLECTION, "price-list.xlsx"))
        answer = capped.run_sql("ws-cap", "local", "SELECT * FROM price_list ORDER BY item_code")
        assert answer.truncated and answer.row_count == 50 and "more than 50 rows" in answer.message
        key = f"workspace/{capped.catalog.name_for('ws-cap')}/results/{answer.query_id}.csv"
        with svc.objects.open(key) as handle:
            stored = list(csv.reader(io.StringIO(handle.read().decode("utf-8-sig"))))
        assert len(stored) == 51 and stored[1][0] == "001"
    finally:
        capped.close()
    code, result, _ = _kea("sql", "--thread", "ws-cap", "SELECT * FROM price_list", "--json",
                           env={"KEA_SQL_ROW_CAP": "20"})
    assert code == 0 and result["truncated"] is True and result["row_count"] == 20 and "row cap" in result["message"]


def test_every_query_is_audited(ws, svc, docs) -> None:  # type: ignore[no-untyped-def]
    ws.load_table("ws-audit", "local", DocumentTable(COLLECTION, "price-list.xlsx"))
    ws.run_sql("ws-audit", "local", "SELECT count(*) FROM price_list")
    for query in ("DROP TABLE price_list", "SELECT kea_number('1.234')"):
        with pytest.raises(QueryFailed):
            ws.run_sql("ws-audit", "local", query)
    audit = _audit(svc, "ws-audit")
    assert [(a["query"], a["outcome"]) for a in audit] == [
        ("SELECT count(*) FROM price_list", "ok"), ("DROP TABLE price_list", "refused"),
        ("SELECT kea_number('1.234')", "failed"),
    ]
    assert all(a["user_id"] == "local" and a["duration_ms"] is not None for a in audit)
    assert audit[0]["row_count"] == 1 and audit[0]["csv_key"]


# -- numbers --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "value"),
    [
        ("kea_number('1.234,50')", "1234.50"),
        ("kea_number('1,234.50')", "1234.50"),
        ("kea_number('1.234', 'european')", "1234"),
        ("kea_number('1.234', 'english')", "1.234"),
        ("kea_number('1,234', 'european')", "1.234"),
        ("kea_number('12,5')", "12.5"),
        ("kea_number('€ 1.234.567,89')", "1234567.89"),
        ("kea_number('1 234,50 EUR', 'european')", "1234.50"),
        ("kea_number('(1.234,50)')", "-1234.50"),
        ("kea_number('-007')", "-7"),
        ("kea_number('1.5', 'european')", None),
        ("kea_number('n/a')", None),
        ("kea_number('')", None),
    ],
)
def test_kea_number_reads_european_and_english_notation(ws, call: str, value: str | None) -> None:  # type: ignore[no-untyped-def]
    assert ws.run_sql("ws-numbers", "local", f"SELECT {call}").rows == [[value]]


def test_kea_number_never_guesses_an_ambiguous_value(ws) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(QueryFailed, match="reads two ways.*kea_number\\(value, 'european'\\)"):
        ws.run_sql("ws-numbers", "local", "SELECT kea_number('1.234')")


# -- results, extractions, joins -------------------------------------------------------------------


def test_a_result_loads_again_and_joins_with_a_document_table(ws, docs) -> None:  # type: ignore[no-untyped-def]
    ws.load_table("ws-result", "local", DocumentTable(COLLECTION, "price-list.xlsx"))
    first = ws.run_sql("ws-result", "local", "SELECT product_group, count(*) AS items, 'x' AS tag FROM price_list GROUP BY 1")
    loaded = ws.load_table("ws-result", "local", QueryResult(first.query_id))
    assert loaded.table == f"result_{first.query_id}" and loaded.rows == len(GROUPS)
    joined = ws.run_sql(
        "ws-result", "local",
        f"SELECT r.items, count(p.*) FROM {loaded.table} r JOIN price_list p USING (product_group) GROUP BY 1, r.product_group",
    )
    assert all(items == count for items, count in joined.rows)


async def test_an_extraction_joins_a_spreadsheet_in_one_statement(svc, corpus, kea_home, kb) -> None:  # type: ignore[no-untyped-def]
    values = await run_extraction("The total amount of all Brightline invoices", Profile(collections=["corpus"]),
                                  confirm="auto", thread_id="ws-join")
    extraction = values["extraction_id"]
    assert f"kea sql --thread ws-join --load {extraction}" in values["answer"]["message"]
    with svc.objects.open(table_key(extraction)) as handle:
        extracted = list(csv.DictReader(io.StringIO(handle.read().decode("utf-8-sig"))))
    files = sorted({row["File"] for row in extracted})
    assert len(files) >= 2
    # an attached spreadsheet: which cost centre each invoice file belongs to
    folder = kea_home / "workspace-centres"
    folder.mkdir(exist_ok=True)
    book = openpyxl.Workbook()
    book.active.append(["Invoice file", "Cost centre", "Approved by"])
    centres = {file: ("CC-007" if i % 2 else "CC-010") for i, file in enumerate(files)}
    for file, centre in centres.items():
        book.active.append([file, centre, "Ada"])
    book.save(folder / "cost-centres.xlsx")
    ingest(kb, [folder], "workspace-centres")

    code, loaded, _ = _kea("sql", "--thread", "ws-join", "--load", extraction, "--json")
    assert code == 0 and loaded["rows"] == len(extracted) and "amount" in loaded["columns"]
    code, sheet, _ = _kea("sql", "--thread", "ws-join", "--load-document", "cost-centres.xlsx",
                          "--collection", "workspace-centres", "--json")
    assert code == 0 and sheet["table"] == "cost_centres"
    code, listed, _ = _kea("sql", "--thread", "ws-join", "--tables", "--json")
    assert {t["table"]: t["rows"] for t in listed["tables"]} == {loaded["table"]: len(extracted), "cost_centres": len(files)}
    notation = loaded["notations"].get("amount", "english")
    query = (f"SELECT c.cost_centre, sum(kea_number(e.amount, '{notation}')) AS total FROM {loaded['table']} e"
             " JOIN cost_centres c ON c.invoice_file = e.file GROUP BY 1 ORDER BY 1")
    code, answer, _ = _kea("sql", "--thread", "ws-join", query, "--json")
    assert code == 0 and answer["columns"] == ["cost_centre", "total"] and answer["truncated"] is False
    expected: dict[str, Decimal] = defaultdict(Decimal)
    for row in extracted:
        expected[centres[row["File"]]] += Decimal(row["Amount"].replace(",", ""))
    assert {centre: Decimal(total) for centre, total in answer["rows"]} == dict(expected)
    assert answer["csv"].endswith(".csv") and answer["row_count"] == len(expected)

    code, gone, _ = _kea("forget", "ws-join", "--json")
    assert code == 0 and gone["forgotten"]["tables"] == 2 and gone["forgotten"]["checkpoints"] is True


def test_a_failed_query_answers_one_json_error(docs) -> None:  # type: ignore[no-untyped-def]
    code, answer, _ = _kea("sql", "--thread", "ws-cli-error", "SELECT * FROM api_keys", "--json")
    assert code == 1 and set(answer) == {"error"} and "no table 'api_keys'" in answer["error"]
    code, answer, _ = _kea("sql", "--thread", "ws-cli-error", "--tables", "SELECT 1", "--json")
    assert code == 2 and "exactly one of" in answer["error"]


# -- lifetime ---------------------------------------------------------------------------------------


def test_forgetting_the_thread_drops_its_workspace_and_files(ws, svc, docs) -> None:  # type: ignore[no-untyped-def]
    ws.load_table("ws-forget", "local", DocumentTable(COLLECTION, "price-list.xlsx"))
    answer = ws.run_sql("ws-forget", "local", "SELECT count(*) FROM price_list")
    schema = ws.catalog.name_for("ws-forget")
    keys = list(svc.objects.keys(f"workspace/{schema}/"))
    assert keys
    code, gone, _ = _kea("forget", "ws-forget", "--json")
    assert code == 0 and gone["forgotten"]["tables"] == 1 and gone["forgotten"]["files"] == len(keys)
    assert not _admin(svc, "SELECT 1 FROM pg_namespace WHERE nspname = %s", schema)
    assert not _admin(svc, "SELECT 1 FROM pg_roles WHERE rolname = %s", schema)
    assert not any(svc.objects.exists(key) for key in keys)
    audit = _audit(svc, "ws-forget")
    assert audit and all(a["query"] is None and a["csv_key"] is None and a["forgotten"] for a in audit)
    assert [a["outcome"] for a in audit] == ["ok"] and audit[0]["duration_ms"] is not None
    with pytest.raises(QueryFailed, match="no table 'price_list'"):
        ws.run_sql("ws-forget", "local", "SELECT count(*) FROM price_list")
    assert answer.query_id


def test_an_idle_workspace_expires_and_is_rebuilt_from_the_originals(ws, svc, docs) -> None:  # type: ignore[no-untyped-def]
    ws.load_table("ws-expire", "local", DocumentTable(COLLECTION, "price-list.xlsx"), name="prices")
    first = ws.run_sql("ws-expire", "local", "SELECT product_group, count(*) AS n FROM prices GROUP BY 1")
    ws.load_table("ws-expire", "local", QueryResult(first.query_id), name="counts")
    schema = ws.catalog.name_for("ws-expire")
    old_key = f"workspace/{schema}/results/{first.query_id}.csv"
    # eight days pass without the conversation: its workspace and its result file grow old
    eight_days_ago = (datetime.now(UTC) - timedelta(days=8)).timestamp()
    os.utime(svc.objects.root / old_key, (eight_days_ago, eight_days_ago))
    _admin(svc, "UPDATE workspaces SET last_used_at = now() - interval '8 days' WHERE thread_id = %s RETURNING 1",
           "ws-expire")

    assert ws.expire_idle() == ["ws-expire"]
    assert not _admin(svc, "SELECT 1 FROM pg_namespace WHERE nspname = %s", schema)
    assert not svc.objects.exists(old_key)

    infos, notes = ws.tables("ws-expire", "local")
    assert "rebuilt from the original files" in notes[0]
    assert {i.table: i.rows for i in infos} == {"prices": 300, "counts": len(GROUPS)}
    answer = ws.run_sql("ws-expire", "local", "SELECT sum(n::int) FROM counts")
    assert answer.rows == [["300"]]


def test_a_table_whose_document_is_gone_is_named_when_the_workspace_is_rebuilt(ws, svc, kea_home, kb) -> None:  # type: ignore[no-untyped-def]
    folder = kea_home / "workspace-gone"
    folder.mkdir(exist_ok=True)
    generate_price_list(folder / "old-prices.xlsx", rows=5)
    ingest(kb, [folder], "workspace-gone")
    ws.load_table("ws-gone", "local", DocumentTable("workspace-gone", "old-prices.xlsx"))
    (folder / "old-prices.xlsx").unlink()
    ingest(kb, [folder], "workspace-gone", prune=True)
    _admin(svc, "UPDATE workspaces SET last_used_at = now() - interval '8 days' WHERE thread_id = %s RETURNING 1",
           "ws-gone")
    infos, notes = ws.tables("ws-gone", "local")
    assert infos == []
    assert notes[1] == ("old_prices could not be rebuilt and is gone: There is no document 'old-prices.xlsx' in "
                        "collection 'workspace-gone' that you may read.")


def test_a_result_older_than_seven_days_is_not_loaded(ws, svc, docs) -> None:  # type: ignore[no-untyped-def]
    ws.load_table("ws-old-result", "local", DocumentTable(COLLECTION, "price-list.xlsx"))
    answer = ws.run_sql("ws-old-result", "local", "SELECT product_group, count(*), max(item_code) FROM price_list GROUP BY 1")
    key = f"workspace/{ws.catalog.name_for('ws-old-result')}/results/{answer.query_id}.csv"
    old = (datetime.now(UTC) - timedelta(days=7, minutes=1)).timestamp()
    os.utime(svc.objects.root / key, (old, old))
    with pytest.raises(Exception, match="has expired"):
        ws.load_table("ws-old-result", "local", QueryResult(answer.query_id))


def test_an_extraction_of_someone_else_is_not_loaded(ws) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(Exception, match="no extraction"):
        ws.load_table("ws-theirs", "mallory", ExtractionTable("0123456789abcdef"))


def test_results_live_on_s3_too_with_the_same_expiry(s3_store, svc, docs) -> None:  # type: ignore[no-untyped-def]
    from tools.storage.s3 import WORKSPACE_RULE_ID

    rules = s3_store.client.get_bucket_lifecycle_configuration(Bucket="kea-test-files")["Rules"]
    (rule,) = [r for r in rules if r["ID"] == WORKSPACE_RULE_ID]
    assert rule["Expiration"] == {"Days": 7} and rule["Filter"]["Prefix"] == "team-a/workspace/"
    on_s3 = Workspaces(svc.database_url, s3_store, svc.kb)
    try:
        on_s3.load_table("ws-s3", "local", DocumentTable(COLLECTION, "price-list.xlsx"))
        answer = on_s3.run_sql("ws-s3", "local", "SELECT product_group, count(*), min(item_code) FROM price_list GROUP BY 1")
        assert answer.csv.startswith("s3://kea-test-files/team-a/workspace/")
        again = on_s3.load_table("ws-s3", "local", QueryResult(answer.query_id))
        assert again.rows == len(GROUPS)
        schema = on_s3.catalog.name_for("ws-s3")
        assert list(s3_store.keys(f"workspace/{schema}/"))
        on_s3.forget("ws-s3", "local")
        assert not list(s3_store.keys(f"workspace/{schema}/"))
    finally:
        on_s3.close()
