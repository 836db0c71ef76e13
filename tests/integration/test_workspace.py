"""The SQL workspace against the session's real PostgreSQL and file store (and S3).

A 300-row price list (an XLSX generated in ``workspace_support``, its ground truth computed
there) and a 300-row Hangul price list are loaded by their coordinates and counted with SQL;
forms are refused; an extraction and a spreadsheet join in one statement; forgetting the thread
takes the workspace with it; an idle one expires and is rebuilt. What queries may not do is
in ``test_workspace_queries.py``.
"""

from __future__ import annotations

import csv
import io
import os
import random
from collections import defaultdict
from datetime import UTC, datetime, timedelta
from decimal import Decimal

import openpyxl
import pytest
from workspace_support import COLLECTION, GROUPS, admin, audit, docs, european, generate_price_list, kea, ws

from core.profile import Profile
from graph.runs import run_extraction
from tools.knowledge.ingest import ingest
from tools.storage.rows import table_key
from tools.workspace.shape import FormRefused
from tools.workspace.sources import DocumentTable, ExtractionTable, QueryResult
from tools.workspace.workspace import QueryFailed, Workspaces

__all__ = ["docs", "ws"]  # fixtures


# -- loading --------------------------------------------------------------------------------


def test_a_price_list_loads_and_its_averages_match_the_ground_truth(ws, docs) -> None:  # type: ignore[no-untyped-def]
    code, loaded, _ = kea("sql", "--thread", "ws-prices", "--load-document", "price-list.xlsx",
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
    assert answer.rows == [["007", european(docs["prices"][6]["price"])]]


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
    code, answer, _ = kea("sql", "--thread", "ws-forms-cli", "--load-document", "forms.docx", "--collection",
                           COLLECTION, "--table", "1", "--json")
    assert code == 1 and set(answer) == {"refused"} and "2 columns" in answer["refused"]
    code, answer, _ = kea("sql", "--thread", "ws-forms-cli", "--load-document", "forms.docx", "--collection",
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
    assert ingest(kb, [folder.parent], "workspace-hangul", embed=False).indexed == ["견적/단가표-2025.hwpx"]

    loaded = ws.load_table("ws-hangul", "local", DocumentTable("workspace-hangul", "견적/단가표-2025.hwpx"))
    assert loaded.table == "단가표_2025" and loaded.rows == 300
    assert loaded.columns == ["품목코드", "품목군", "품명", "단가"] and loaded.notations == {"단가": "english"}
    answer = ws.run_sql("ws-hangul", "local",
                        "SELECT 품목군, avg(kea_number(단가, 'english')) FROM 단가표_2025 GROUP BY 품목군")
    expected = {group: Decimal(sum(prices)) / len(prices) for group, prices in truth.items()}
    got = {group: Decimal(average) for group, average in answer.rows}
    assert got.keys() == expected.keys()
    assert all(abs(got[g] - expected[g]) < Decimal("1e-9") for g in expected)


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
    assert values["answer"]["actions"] == [{"kind": "calculate", "thread": "ws-join", "extraction_id": extraction}]
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
    ingest(kb, [folder], "workspace-centres", embed=False)

    code, loaded, _ = kea("sql", "--thread", "ws-join", "--load", extraction, "--json")
    assert code == 0 and loaded["rows"] == len(extracted) and "amount" in loaded["columns"]
    code, sheet, _ = kea("sql", "--thread", "ws-join", "--load-document", "cost-centres.xlsx",
                          "--collection", "workspace-centres", "--json")
    assert code == 0 and sheet["table"] == "cost_centres"
    code, listed, _ = kea("sql", "--thread", "ws-join", "--tables", "--json")
    assert {t["table"]: t["rows"] for t in listed["tables"]} == {loaded["table"]: len(extracted), "cost_centres": len(files)}
    notation = loaded["notations"].get("amount", "english")
    query = (f"SELECT c.cost_centre, sum(kea_number(e.amount, '{notation}')) AS total FROM {loaded['table']} e"
             " JOIN cost_centres c ON c.invoice_file = e.file GROUP BY 1 ORDER BY 1")
    code, answer, _ = kea("sql", "--thread", "ws-join", query, "--json")
    assert code == 0 and answer["columns"] == ["cost_centre", "total"] and answer["truncated"] is False
    expected: dict[str, Decimal] = defaultdict(Decimal)
    for row in extracted:
        expected[centres[row["File"]]] += Decimal(row["Amount"].replace(",", ""))
    assert {centre: Decimal(total) for centre, total in answer["rows"]} == dict(expected)
    assert answer["csv"].endswith(".csv") and answer["row_count"] == len(expected)

    code, gone, _ = kea("forget", "ws-join", "--json")
    assert code == 0 and gone["forgotten"]["tables"] == 2 and gone["forgotten"]["checkpoints"] is True


# -- lifetime ---------------------------------------------------------------------------------------


def test_forgetting_the_thread_drops_its_workspace_and_files(ws, svc, docs) -> None:  # type: ignore[no-untyped-def]
    ws.load_table("ws-forget", "local", DocumentTable(COLLECTION, "price-list.xlsx"))
    answer = ws.run_sql("ws-forget", "local", "SELECT count(*) FROM price_list")
    schema = ws.catalog.name_for("ws-forget")
    keys = list(svc.objects.keys(f"workspace/{schema}/"))
    assert keys
    code, gone, _ = kea("forget", "ws-forget", "--json")
    assert code == 0 and gone["forgotten"]["tables"] == 1 and gone["forgotten"]["files"] == len(keys)
    assert not admin(svc, "SELECT 1 FROM pg_namespace WHERE nspname = %s", schema)
    assert not admin(svc, "SELECT 1 FROM pg_roles WHERE rolname = %s", schema)
    assert not any(svc.objects.exists(key) for key in keys)
    logged = audit(svc, "ws-forget")
    assert logged and all(a["query"] is None and a["csv_key"] is None and a["forgotten"] for a in logged)
    assert [a["outcome"] for a in logged] == ["ok"] and logged[0]["duration_ms"] is not None
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
    admin(svc, "UPDATE workspaces SET last_used_at = now() - interval '8 days' WHERE thread_id = %s RETURNING 1",
           "ws-expire")

    assert ws.expire_idle() == ["ws-expire"]
    assert not admin(svc, "SELECT 1 FROM pg_namespace WHERE nspname = %s", schema)
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
    ingest(kb, [folder], "workspace-gone", embed=False)
    ws.load_table("ws-gone", "local", DocumentTable("workspace-gone", "old-prices.xlsx"))
    (folder / "old-prices.xlsx").unlink()
    ingest(kb, [folder], "workspace-gone", prune=True, embed=False)
    admin(svc, "UPDATE workspaces SET last_used_at = now() - interval '8 days' WHERE thread_id = %s RETURNING 1",
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
