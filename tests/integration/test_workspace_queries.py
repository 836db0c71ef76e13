"""What a workspace query may not do, against the real PostgreSQL: each is refused or stopped
with the reason, and nothing is changed; every query is audited; the row cap is stated."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime, timedelta

import psycopg
import pytest
from workspace_support import COLLECTION, audit, docs, kea, state, ws

from tools.workspace import run
from tools.workspace.sources import DocumentTable
from tools.workspace.workspace import QueryFailed, Workspaces

__all__ = ["docs", "ws"]  # fixtures


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
    before = state(svc, schema)
    with pytest.raises(QueryFailed, match=reason) as refused:
        ws.run_sql("ws-guard", "local", query)
    assert "Nothing was run" in str(refused.value)
    assert state(svc, schema) == before
    assert audit(svc, "ws-guard")[-1]["outcome"] == "refused"


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
    before = state(svc, record.schema)
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
    assert state(svc, record.schema) == before


def test_a_query_past_the_time_limit_is_stopped_cleanly(ws, svc, docs) -> None:  # type: ignore[no-untyped-def]
    ws.load_table("ws-slow", "local", DocumentTable(COLLECTION, "price-list.xlsx"))
    started = datetime.now(UTC)
    with pytest.raises(QueryFailed, match=r"time limit \(1.5 s\).*nothing was changed"):
        ws.run_sql("ws-slow", "local", "SELECT pg_sleep(10)")
    assert datetime.now(UTC) - started < timedelta(seconds=6)
    last = audit(svc, "ws-slow")[-1]
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
    code, result, _ = kea("sql", "--thread", "ws-cap", "SELECT * FROM price_list", "--json",
                           env={"KEA_SQL_ROW_CAP": "20"})
    assert code == 0 and result["truncated"] is True and result["row_count"] == 20 and "row cap" in result["message"]


def test_every_query_is_audited(ws, svc, docs) -> None:  # type: ignore[no-untyped-def]
    ws.load_table("ws-audit", "local", DocumentTable(COLLECTION, "price-list.xlsx"))
    ws.run_sql("ws-audit", "local", "SELECT count(*) FROM price_list")
    for query in ("DROP TABLE price_list", "SELECT kea_number('1.234')"):
        with pytest.raises(QueryFailed):
            ws.run_sql("ws-audit", "local", query)
    logged = audit(svc, "ws-audit")
    assert [(a["query"], a["outcome"]) for a in logged] == [
        ("SELECT count(*) FROM price_list", "ok"), ("DROP TABLE price_list", "refused"),
        ("SELECT kea_number('1.234')", "failed"),
    ]
    assert all(a["user_id"] == "local" and a["duration_ms"] is not None for a in logged)
    assert logged[0]["row_count"] == 1 and logged[0]["csv_key"]


def test_a_failed_query_answers_one_json_error(docs) -> None:  # type: ignore[no-untyped-def]
    code, answer, _ = kea("sql", "--thread", "ws-cli-error", "SELECT * FROM api_keys", "--json")
    assert code == 1 and set(answer) == {"error"} and "no table 'api_keys'" in answer["error"]
    code, answer, _ = kea("sql", "--thread", "ws-cli-error", "--tables", "SELECT 1", "--json")
    assert code == 2 and "exactly one of" in answer["error"]


def test_a_result_that_cannot_be_stored_is_a_sentence_and_a_logged_traceback(svc, docs, caplog) -> None:  # type: ignore[no-untyped-def]
    class FullStore:
        def __getattr__(self, name: str):  # type: ignore[no-untyped-def]
            return getattr(svc.objects, name)

        def put_file(self, *args: object, **kwargs: object) -> None:
            raise OSError(28, "No space left on device")

    broken = Workspaces(svc.database_url, FullStore(), svc.kb)  # type: ignore[arg-type]
    try:
        broken.load_table("ws-full", "local", DocumentTable(COLLECTION, "price-list.xlsx"))
        with pytest.raises(QueryFailed, match="^The query ran, but its result could not be stored"):
            broken.run_sql("ws-full", "local", "SELECT count(*) FROM price_list")
    finally:
        broken.close()
    assert "No space left on device" in caplog.text and "Traceback" in caplog.text
    assert audit(svc, "ws-full")[-1]["outcome"] == "failed"
