"""Running one checked query as the conversation's role, and keeping its result as a CSV.

The query runs on a connection that logs in as the workspace's role (never a role switch on
Kea's own connection, which a query could undo), in a READ ONLY transaction that is always
rolled back, under a statement timeout (and a watchdog that cancels it should the server not),
through a server-side cursor: PostgreSQL itself then accepts only one SELECT. At most
``row_cap`` rows are fetched; one more tells whether the cap was hit. Every cell comes back as
the text PostgreSQL prints for it.
"""

from __future__ import annotations

import csv
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

import psycopg
from psycopg.conninfo import make_conninfo
from psycopg.types.string import TextLoader

from tools.storage.objects import ObjectStore
from tools.storage.table import neutralise


@dataclass(frozen=True)
class Fetched:
    columns: list[str]
    rows: list[list[str | None]]
    truncated: bool


class Timeout(Exception):
    """The statement ran past its time limit and was cancelled."""


def role_conninfo(admin_url: str, role: str, password: str) -> str:
    """Kea's database, logged in as the workspace's role."""
    return make_conninfo(admin_url, user=role, password=password, application_name="kea-workspace")


def _as_text(conn: psycopg.Connection) -> None:
    """Load every value as the text PostgreSQL sends (numbers stay exactly as printed)."""
    for info in psycopg.postgres.types:
        conn.adapters.register_loader(info.oid, TextLoader)
        if info.array_oid:
            conn.adapters.register_loader(info.array_oid, TextLoader)


def fetch(conninfo: str, query: str, *, timeout_ms: int, row_cap: int) -> Fetched:
    with psycopg.connect(conninfo, connect_timeout=10) as conn:
        _as_text(conn)
        conn.read_only = True
        watchdog = threading.Timer(timeout_ms / 1000 + 5, conn.cancel_safe)
        watchdog.start()
        try:
            conn.execute("SELECT set_config('statement_timeout', %s, true)", (str(int(timeout_ms)),))
            with conn.cursor(name="kea_query") as cur:
                cur.execute(query.strip().rstrip(";"))  # no parameters: the text goes to the server as written
                rows = cur.fetchmany(row_cap + 1)
                columns = [d.name for d in cur.description or []]
        except psycopg.errors.QueryCanceled as exc:
            raise Timeout(str(exc)) from exc
        finally:
            watchdog.cancel()
            conn.rollback()
    truncated = len(rows) > row_cap
    return Fetched(columns, [list(r) for r in rows[:row_cap]], truncated)


def write_spill(objects: ObjectStore, key: str, fetched: Fetched) -> str:
    """The result as a CSV in the store (UTF-8 BOM, formula cells guarded); its reference."""
    with tempfile.TemporaryDirectory(prefix="kea-result-") as folder:
        path = Path(folder) / "result.csv"
        with open(path, "w", encoding="utf-8", newline="") as out:
            out.write("\ufeff")
            writer = csv.writer(out, lineterminator="\r\n")
            writer.writerow([neutralise(c) for c in fetched.columns])
            for row in fetched.rows:
                writer.writerow([neutralise("" if c is None else c) for c in row])
        objects.put_file(key, path, "text/csv; charset=utf-8")
    return objects.url(key)
