"""The SQL workspace of each conversation: load tables by their coordinates, query them read-only.

``Workspaces`` is the one entry point (the CLI's ``kea sql`` and ``kea forget`` use it):

- ``load_table(thread, user, source)``: the server reads the table (``sources``), refuses forms
  and shapes the rest by fixed rules (``shape``), records each column's number notation
  (``notation``) and loads it, all text, into the thread's schema (``catalog``);
- ``run_sql(thread, user, query)``: checks the query (``guard``), runs it as the thread's role
  (``run``), keeps the result as a CSV spill file, audits it;
- ``tables(thread, user)``; ``forget(thread, user)``; ``expire_idle()``.

A workspace is made on first use and belongs to its thread's user. One unused for ``lifetime``
(default: as long as stored files are kept, 7 days) is dropped with its spill files; the next
request rebuilds it from the recorded sources, re-running a query whose result was loaded.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg

from core.protocol import THREAD_NAME
from tools.knowledge.base import KnowledgeBase
from tools.knowledge.errors import KnowledgeError
from tools.storage.links import FILE_RETENTION, is_expired
from tools.storage.objects import ObjectStore, delete_prefix
from tools.storage.owners import thread_owner
from tools.storage.rows import WORKSPACE_PREFIX
from tools.workspace import guard, run, sources
from tools.workspace.catalog import Catalog, NotYours, Record, WorkspaceError
from tools.workspace.forget import Forgotten, forget_thread
from tools.workspace.notation import column_notations
from tools.workspace.shape import FormRefused, safe_name, shape

log = logging.getLogger(__name__)

DEFAULT_TIMEOUT_MS = 10_000
DEFAULT_ROW_CAP = 10_000
PREVIEW_ROWS = 100


def _env_number(name: str, default: float) -> float:
    try:
        return float(os.environ.get(name) or default)
    except ValueError:
        return default


def _public(source: dict[str, Any]) -> dict[str, Any]:
    """A recorded source as answers show it (a result's query text stays in the audit)."""
    return {key: value for key, value in source.items() if key != "query"}


@dataclass(frozen=True)
class Loaded:
    table: str
    columns: list[str]
    rows: int
    description: str
    labels: list[str] = field(default_factory=list)
    notations: dict[str, str] = field(default_factory=dict)
    source: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def contract(self) -> dict[str, Any]:
        """The ``kea sql --load --json`` object."""
        return {"table": self.table, "columns": self.columns, "rows": self.rows, "labels": self.labels,
                "notations": self.notations, "source": _public(self.source), "description": self.description,
                "notes": self.notes}


@dataclass(frozen=True)
class TableInfo:
    table: str
    columns: list[str]
    rows: int
    labels: list[str]
    notations: dict[str, str]
    source: dict[str, Any]

    def contract(self) -> dict[str, Any]:
        return {"table": self.table, "columns": self.columns, "rows": self.rows, "labels": self.labels,
                "notations": self.notations, "source": _public(self.source)}


@dataclass(frozen=True)
class Answer:
    """A query's answer: a preview of its rows and the CSV that holds them all (up to the cap)."""

    query_id: int
    columns: list[str]
    rows: list[list[str | None]]
    row_count: int
    truncated: bool
    csv: str
    row_cap: int
    notes: list[str] = field(default_factory=list)

    @property
    def message(self) -> str:
        if self.truncated:
            return (f"The result has more than {self.row_cap:,} rows, the row cap: the CSV holds the first "
                    f"{self.row_cap:,}. Filter or aggregate to get them all.")
        return f"{self.row_count:,} row{'' if self.row_count == 1 else 's'}."

    def contract(self) -> dict[str, Any]:
        """The ``kea sql QUERY --json`` object."""
        return {"columns": self.columns, "rows": self.rows, "row_count": self.row_count, "truncated": self.truncated,
                "csv": self.csv, "query_id": self.query_id, "row_cap": self.row_cap, "message": self.message,
                "notes": self.notes}


class QueryFailed(WorkspaceError):
    """The query was refused or failed; nothing was changed. The message says why."""

    def __init__(self, message: str, query_id: int | None = None) -> None:
        super().__init__(message)
        self.query_id = query_id


class Workspaces:
    def __init__(
        self,
        url: str,
        objects: ObjectStore,
        kb: KnowledgeBase,
        *,
        lifetime: timedelta | None = None,
        timeout_ms: int | None = None,
        row_cap: int | None = None,
        clock: Callable[[], datetime] | None = None,
    ) -> None:
        self.url = url
        self.objects = objects
        self.kb = kb
        self.lifetime = lifetime or timedelta(days=_env_number("KEA_WORKSPACE_DAYS", FILE_RETENTION.days))
        self.timeout_ms = int(timeout_ms or _env_number("KEA_SQL_TIMEOUT_MS", DEFAULT_TIMEOUT_MS))
        self.row_cap = int(row_cap or _env_number("KEA_SQL_ROW_CAP", DEFAULT_ROW_CAP))
        self.clock = clock or (lambda: datetime.now(UTC))
        self.catalog = Catalog(url)

    def close(self) -> None:
        self.catalog.close()

    def spill_prefix(self, record: Record) -> str:
        return f"{WORKSPACE_PREFIX}/{record.schema}/"

    # -- the workspace itself ----------------------------------------------------------------

    def _owned(self, conn: psycopg.Connection[Any], thread: str, user: str) -> Record | None:
        owner = thread_owner(conn, thread)
        record = self.catalog.record(conn, thread)
        if (owner is not None and owner != user) or (record is not None and record.user != user):
            raise NotYours(f"There is no conversation {thread} of yours.")
        return record

    def _open(self, thread: str, user: str) -> tuple[Record, list[str]]:
        """The thread's built workspace (made, or rebuilt after expiry) and notes on rebuilding."""
        if not THREAD_NAME.fullmatch(thread or ""):
            raise WorkspaceError(
                f"{thread!r} is not a thread name Kea accepts: letters, digits, '.', '_', ':' or '-', up to 128 characters."
            )
        now = self.clock()
        expired_files: list[Record] = []
        with self.catalog.locked(thread) as conn:
            record = self._owned(conn, thread, user) or self.catalog.add_record(conn, thread, user)
            built = self.catalog.built(conn, record)
            if built and now - record.last_used_at > self.lifetime:
                self.catalog.drop(conn, record)
                expired_files.append(record)
                built = False
            rebuild = not built and bool(self.catalog.tables(conn, thread))
            if not built:
                record = self.catalog.build(conn, record, self.timeout_ms)
            self.catalog.touch(conn, thread, now)
        for gone in expired_files:
            self._delete_files(gone)
        notes = self._rebuild(record) if rebuild else []
        self.expire_idle()
        return record, notes

    def _rebuild(self, record: Record) -> list[str]:
        """Load every recorded table again from its source, in the order it was loaded."""
        with self.catalog.conn() as conn:
            recorded = self.catalog.tables(conn, record.thread)
        notes = []
        for table in recorded:
            try:
                source = sources.source_of(table.source)
                if isinstance(source, sources.QueryResult) and table.source.get("query"):
                    if not self._result_kept(record, source.query_id):
                        answer = self._execute(record, record.user, table.source["query"])
                        source = sources.QueryResult(answer.query_id)
                self._load(record, record.user, source, table.name)
            except (WorkspaceError, FormRefused, KnowledgeError) as exc:
                reason = str(exc)
            except Exception:  # noqa: BLE001 — one table's rebuild never stops the others
                log.exception("table %s of a workspace could not be rebuilt", table.name)
                reason = "it could not be read again (the server log has the details)"
            else:
                continue
            with self.catalog.conn() as conn:
                self.catalog.forget_table(conn, record.thread, table.name)
            notes.append(f"{table.name} could not be rebuilt and is gone: {reason.rstrip('.')}.")
        if recorded:
            notes.insert(0, "This conversation's workspace had expired; it was rebuilt from the original files.")
        return notes

    def _result_kept(self, record: Record, query_id: int) -> bool:
        with self.catalog.conn() as conn:
            row = conn.execute("SELECT csv_key FROM workspace_queries WHERE id = %s", (query_id,)).fetchone()
        if not (row and row["csv_key"] and self.objects.exists(row["csv_key"])):
            return False
        return not is_expired(self.objects.stored_at(row["csv_key"]), self.clock())

    def _delete_files(self, record: Record) -> int:
        return delete_prefix(self.objects, self.spill_prefix(record))

    def expire_idle(self) -> list[str]:
        """Drop workspaces unused for longer than the lifetime, with their spill files; their threads."""
        cutoff = self.clock() - self.lifetime
        dropped: list[str] = []
        seen: set[str] = set()
        while True:
            with self.catalog.conn() as conn:
                idle = [r for r in self.catalog.idle(conn, cutoff) if r.thread not in seen]
            if not idle:
                return dropped
            for record in idle:
                seen.add(record.thread)
                with self.catalog.locked(record.thread) as conn:
                    current = self.catalog.record(conn, record.thread)
                    if current is None or current.last_used_at >= cutoff:
                        continue  # used again meanwhile
                    self.catalog.drop(conn, current)
                self._delete_files(record)
                dropped.append(record.thread)

    # -- loading -------------------------------------------------------------------------------

    def load_table(self, thread: str, user: str, source: sources.Source, name: str | None = None) -> Loaded:
        """Load a table by its coordinates; ``FormRefused`` when it has the shape of a form."""
        record, notes = self._open(thread, user)
        loaded = self._load(record, user, source, safe_name(name, "table") if name else None)
        return dataclasses.replace(loaded, notes=notes + loaded.notes)

    def _read(self, record: Record, user: str, source: sources.Source) -> sources.Read:
        if isinstance(source, sources.DocumentTable):
            return sources.read_document(self.kb, user, source)
        with self.catalog.conn() as conn:
            if isinstance(source, sources.ExtractionTable):
                return sources.read_extraction(conn, self.objects, user, source, self.clock())
            return sources.read_result(conn, self.objects, record.thread, source, self.clock())

    def _load(self, record: Record, user: str, source: sources.Source, name: str | None) -> Loaded:
        read = self._read(record, user, source)
        shaped = shape(read.header, read.rows, forms=read.forms)
        notations = column_notations([[row[i] for row in shaped.rows] for i in range(len(shaped.columns))])
        with self.catalog.locked(record.thread) as conn:
            existing = {t.name: t.source for t in self.catalog.tables(conn, record.thread)}
            chosen = name or next((n for n, s in existing.items() if s == read.record), None) or read.name
            if not name:
                base, suffix = chosen, 1
                while chosen in existing and existing[chosen] != read.record:
                    suffix += 1
                    chosen = f"{base}_{suffix}"
            self.catalog.load(conn, record, chosen, shaped, notations, read.record)
        return Loaded(
            chosen, shaped.columns, len(shaped.rows), read.description, shaped.labels,
            {c: n for c, n in zip(shaped.columns, notations, strict=True) if n}, read.record,
        )

    def tables(self, thread: str, user: str) -> tuple[list[TableInfo], list[str]]:
        """The workspace's tables with their columns, row counts and notations; notes on rebuilding."""
        record, notes = self._open(thread, user)
        with self.catalog.conn() as conn:
            recorded = self.catalog.tables(conn, record.thread)
        infos = [
            TableInfo(t.name, [c["name"] for c in t.columns], t.rows, [c["label"] for c in t.columns],
                      {c["name"]: c["notation"] for c in t.columns if c.get("notation")}, t.source)
            for t in recorded
        ]
        return infos, notes

    # -- querying -------------------------------------------------------------------------------

    def run_sql(self, thread: str, user: str, query: str) -> Answer:
        """Run one read-only query; ``QueryFailed`` (audited, nothing changed) when refused or failed."""
        record, notes = self._open(thread, user)
        answer = self._execute(record, user, query)
        return dataclasses.replace(answer, notes=notes)

    def _audit_start(self, thread: str, user: str, query: str) -> int:
        with self.catalog.conn() as conn:
            row = conn.execute(
                "INSERT INTO workspace_queries (thread_id, user_id, query) VALUES (%s, %s, %s) RETURNING id",
                (thread, user, query.replace("\x00", "")),
            ).fetchone()
        assert row is not None
        return int(row["id"])

    def _audit_end(self, query_id: int, started: float, outcome: str, *, rows: int | None = None,
                   error: str | None = None, csv_key: str | None = None) -> None:
        with self.catalog.conn() as conn:
            conn.execute(
                "UPDATE workspace_queries SET duration_ms = %s, row_count = %s, outcome = %s, error = %s, csv_key = %s"
                " WHERE id = %s",
                (int((time.monotonic() - started) * 1000), rows, outcome, error, csv_key, query_id),
            )

    def _execute(self, record: Record, user: str, query: str) -> Answer:
        started = time.monotonic()
        query_id = self._audit_start(record.thread, user, query)
        try:
            with self.catalog.conn() as conn:
                names = [t.name for t in self.catalog.tables(conn, record.thread)]
            checked = guard.check_query(query, record.schema, names)
        except guard.QueryRefused as exc:
            message = f"The query was refused: {str(exc).rstrip('.')}. Nothing was run."
            self._audit_end(query_id, started, "refused", error=message)
            raise QueryFailed(message, query_id) from exc
        assert record.password is not None
        try:
            fetched = run.fetch(
                run.role_conninfo(self.url, record.role, record.password), checked.sql,
                timeout_ms=self.timeout_ms, row_cap=self.row_cap,
            )
        except run.Timeout as exc:
            message = (f"The query ran longer than its time limit ({self.timeout_ms / 1000:g} s) and was stopped; "
                       "nothing was changed. Filter or aggregate earlier.")
            self._audit_end(query_id, started, "timeout", error=message)
            raise QueryFailed(message, query_id) from exc
        except psycopg.Error as exc:
            message = _failure(exc)
            self._audit_end(query_id, started, "failed", error=message)
            raise QueryFailed(message, query_id) from exc
        except Exception as exc:
            log.exception("query %s of a workspace failed unexpectedly", query_id)
            message = "The query failed unexpectedly (the server log has the details); nothing was changed."
            self._audit_end(query_id, started, "failed", error=message)
            raise QueryFailed(message, query_id) from exc
        key = f"{self.spill_prefix(record)}results/{query_id}.csv"
        try:
            csv_ref = run.write_spill(self.objects, key, fetched)
        except Exception as exc:
            log.exception("the result of workspace query %s could not be stored", query_id)
            message = "The query ran, but its result could not be stored (the server log has the details); try again."
            self._audit_end(query_id, started, "failed", error=message)
            raise QueryFailed(message, query_id) from exc
        outcome = "truncated" if fetched.truncated else "ok"
        self._audit_end(query_id, started, outcome, rows=len(fetched.rows), csv_key=key)
        return Answer(query_id, fetched.columns, fetched.rows[:PREVIEW_ROWS], len(fetched.rows), fetched.truncated,
                      csv_ref, self.row_cap)

    # -- forgetting ------------------------------------------------------------------------------

    def forget(self, thread: str, user: str, *, stop_run: Callable[[str], None] | None = None) -> Forgotten:
        """Forget the conversation: its workspace, its extractions' files, its selections, its
        records and its checkpoints (``tools/workspace/forget.py``); the audit keeps no query text."""
        return forget_thread(self, thread, user, stop_run=stop_run)


def _failure(exc: psycopg.Error) -> str:
    """A database error as a sentence for the user."""
    diag = exc.diag
    primary = diag.message_primary or str(exc).splitlines()[0]
    hint = f" {diag.message_hint}" if diag.message_hint else ""
    if isinstance(exc, psycopg.errors.InsufficientPrivilege):
        return f"The query reached outside this conversation's workspace and was stopped: {primary}. Nothing was changed."
    if isinstance(exc, psycopg.errors.ReadOnlySqlTransaction):
        return f"The query tried to change something, and the workspace is read-only: {primary}. Nothing was changed."
    if isinstance(exc, psycopg.OperationalError) and not diag.sqlstate:
        log.exception("a workspace query could not reach the database")
        return "The workspace's database could not be reached; nothing was run. Try again."
    return f"The query failed: {primary}.{hint} Nothing was changed."
