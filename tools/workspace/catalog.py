"""The workspaces in PostgreSQL, as Kea's own user: schemas, roles, loaded tables, their records.

Each conversation's workspace is a schema owned by Kea and a login role that may use only that
schema: USAGE on it, SELECT on its tables, EXECUTE on its ``kea_number``. Migration 0007 takes
PUBLIC's rights on Kea's own schema, tables and functions, so the role reaches nothing else.
The role has a random password kept in ``workspaces`` (which only Kea's user can read); queries
log in with it. Every name reaches SQL through ``psycopg.sql.Identifier`` or ``Literal``, every
value as a bound parameter.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from importlib import resources
from typing import Any

import psycopg
from psycopg import sql
from psycopg.rows import dict_row
from psycopg_pool import ConnectionPool

from tools.workspace.shape import Shaped

_LOCK_SPACE = 0x6B6577  # advisory locks of workspaces: one builder or loader per thread at a time
CONNECTION_LIMIT = 4


class WorkspaceError(ValueError):
    """A workspace request that cannot be served; the message says why in a sentence."""


class NotYours(WorkspaceError):
    """The thread belongs to someone else, or the thing named is not the asking user's."""


@dataclass(frozen=True)
class Record:
    """One workspace as recorded: its thread, owner, schema, role and when it was last used."""

    thread: str
    user: str
    schema: str
    role: str
    password: str | None
    last_used_at: datetime


@dataclass(frozen=True)
class TableRecord:
    name: str
    source: dict[str, Any]
    columns: list[dict[str, Any]]
    rows: int
    loaded_at: datetime


def _function_sql() -> str:
    return (resources.files("tools.workspace") / "kea_number.sql").read_text(encoding="utf-8")


class Catalog:
    def __init__(self, url: str, max_size: int = 4) -> None:
        self.url = url
        self.pool = ConnectionPool(
            url, min_size=1, max_size=max_size, open=True, kwargs={"autocommit": True, "row_factory": dict_row}
        )
        with self.conn() as conn:
            row = conn.execute("SELECT current_database() AS db").fetchone()
        self.database = str(row["db"]) if row else ""

    def close(self) -> None:
        self.pool.close()

    @contextmanager
    def conn(self) -> Iterator[psycopg.Connection[dict[str, Any]]]:
        with self.pool.connection() as conn:
            yield conn  # type: ignore[misc]

    @contextmanager
    def locked(self, thread: str) -> Iterator[psycopg.Connection[dict[str, Any]]]:
        """A transaction holding the thread's workspace lock (released when it ends)."""
        with self.conn() as conn, conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", (_LOCK_SPACE, thread))
            yield conn

    def name_for(self, thread: str) -> str:
        """The schema (and role) name of a thread: opaque, so no catalogue shows thread names.

        Roles belong to the whole cluster, so the database's name is part of it.
        """
        digest = hashlib.sha256(f"{self.database}\0{thread}".encode()).hexdigest()[:24]
        return f"kea_ws_{digest}"

    # -- records ---------------------------------------------------------------------------

    @staticmethod
    def record(conn: psycopg.Connection[Any], thread: str) -> Record | None:
        row = conn.execute(
            "SELECT thread_id, user_id, schema_name, role_name, role_password, last_used_at FROM workspaces"
            " WHERE thread_id = %s",
            (thread,),
        ).fetchone()
        if row is None:
            return None
        return Record(row["thread_id"], row["user_id"], row["schema_name"], row["role_name"], row["role_password"],
                      row["last_used_at"])

    def add_record(self, conn: psycopg.Connection[Any], thread: str, user: str) -> Record:
        name = self.name_for(thread)
        conn.execute(
            "INSERT INTO workspaces (thread_id, user_id, schema_name, role_name) VALUES (%s, %s, %s, %s)"
            " ON CONFLICT (thread_id) DO NOTHING",
            (thread, user, name, name),
        )
        found = self.record(conn, thread)
        assert found is not None
        return found

    @staticmethod
    def touch(conn: psycopg.Connection[Any], thread: str, now: datetime) -> None:
        conn.execute("UPDATE workspaces SET last_used_at = %s WHERE thread_id = %s", (now, thread))

    @staticmethod
    def tables(conn: psycopg.Connection[Any], thread: str) -> list[TableRecord]:
        rows = conn.execute(
            "SELECT name, source, columns, row_count, loaded_at FROM workspace_tables WHERE thread_id = %s"
            " ORDER BY loaded_at, name",
            (thread,),
        ).fetchall()
        return [TableRecord(r["name"], r["source"], r["columns"], int(r["row_count"]), r["loaded_at"]) for r in rows]

    @staticmethod
    def forget_table(conn: psycopg.Connection[Any], thread: str, name: str) -> None:
        conn.execute("DELETE FROM workspace_tables WHERE thread_id = %s AND name = %s", (thread, name))

    # -- schema and role -------------------------------------------------------------------

    @staticmethod
    def built(conn: psycopg.Connection[Any], record: Record) -> bool:
        """The schema and the role exist and the password is known."""
        row = conn.execute(
            "SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = %s) AND"
            " EXISTS (SELECT 1 FROM pg_roles WHERE rolname = %s) AS built",
            (record.schema, record.role),
        ).fetchone()
        return bool(row and row["built"]) and record.password is not None

    def build(self, conn: psycopg.Connection[Any], record: Record, timeout_ms: int) -> Record:
        """Create the schema, its role (with a new password) and ``kea_number``; drop leftovers first."""
        self.drop(conn, record)
        schema, role = sql.Identifier(record.schema), sql.Identifier(record.role)
        password = secrets.token_urlsafe(32)
        conn.execute(
            sql.SQL(
                "CREATE ROLE {} WITH LOGIN NOSUPERUSER NOINHERIT NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS"
                " CONNECTION LIMIT {} PASSWORD {}"
            ).format(role, sql.Literal(CONNECTION_LIMIT), sql.Literal(password))
        )
        for setting, value in (
            ("search_path", record.schema),
            ("default_transaction_read_only", "on"),
            ("statement_timeout", f"{int(timeout_ms)}ms"),
            ("idle_in_transaction_session_timeout", "30s"),
        ):
            conn.execute(sql.SQL("ALTER ROLE {} SET {} = {}").format(role, sql.Identifier(setting), sql.Literal(value)))
        conn.execute(sql.SQL("CREATE SCHEMA {} AUTHORIZATION CURRENT_USER").format(schema))
        conn.execute(sql.SQL("REVOKE ALL ON SCHEMA {} FROM PUBLIC").format(schema))
        conn.execute(sql.SQL("GRANT USAGE ON SCHEMA {} TO {}").format(schema, role))
        previous = conn.execute("SELECT current_setting('search_path') AS path").fetchone()
        conn.execute("SELECT set_config('search_path', %s, true)", (sql.Identifier(record.schema).as_string(conn),))
        conn.execute(_function_sql())  # type: ignore[arg-type]  # a shipped file, not user input
        conn.execute("SELECT set_config('search_path', %s, true)", (previous["path"] if previous else "public",))
        conn.execute(
            sql.SQL("REVOKE ALL ON FUNCTION {}.kea_number(text, text) FROM PUBLIC").format(schema)
        )
        conn.execute(sql.SQL("GRANT EXECUTE ON FUNCTION {}.kea_number(text, text) TO {}").format(schema, role))
        self._check_isolated(conn, record.role)
        conn.execute("UPDATE workspaces SET role_password = %s WHERE thread_id = %s", (password, record.thread))
        return Record(record.thread, record.user, record.schema, record.role, password, record.last_used_at)

    @staticmethod
    def _check_isolated(conn: psycopg.Connection[Any], role: str) -> None:
        """Refuse to build a workspace whose role could reach Kea's own tables."""
        row = conn.execute(
            "SELECT has_schema_privilege(%s, 'public', 'USAGE') AS public_schema,"
            " has_table_privilege(%s, 'public.documents', 'SELECT') AS documents",
            (role, role),
        ).fetchone()
        if row and (row["public_schema"] or row["documents"]):
            raise WorkspaceError(
                "The workspace was not made: every database role may use Kea's own schema (public), so a "
                "workspace role could read Kea's tables. Revoke PUBLIC's rights on schema public (migration 0007 "
                "does so when Kea's user owns it)."
            )

    @staticmethod
    def drop(conn: psycopg.Connection[Any], record: Record) -> None:
        """Drop the schema with its tables and the role, ending the role's sessions first."""
        role_exists = conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (record.role,)).fetchone()
        if role_exists:
            conn.execute(sql.SQL("ALTER ROLE {} NOLOGIN").format(sql.Identifier(record.role)))
            try:
                with conn.transaction():  # a savepoint: Kea's user may lack the right to end sessions
                    conn.execute(
                        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                        " WHERE usename = %s AND pid <> pg_backend_pid()",
                        (record.role,),
                    )
            except psycopg.errors.InsufficientPrivilege:
                pass  # its sessions end with their statement timeout; the role cannot log in again
        conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(record.schema)))
        if role_exists:
            conn.execute(sql.SQL("DROP OWNED BY {}").format(sql.Identifier(record.role)))
            conn.execute(sql.SQL("DROP ROLE {}").format(sql.Identifier(record.role)))
        conn.execute("UPDATE workspaces SET role_password = NULL WHERE thread_id = %s", (record.thread,))

    # -- tables ----------------------------------------------------------------------------

    @staticmethod
    def load(
        conn: psycopg.Connection[Any], record: Record, name: str, shaped: Shaped, notations: list[str | None],
        source: dict[str, Any],
    ) -> None:
        """(Re)create table ``name`` of the workspace from ``shaped``, all columns text, and record it."""
        table = sql.Identifier(record.schema, name)
        columns = [sql.Identifier(c) for c in shaped.columns]
        conn.execute(sql.SQL("DROP TABLE IF EXISTS {}").format(table))
        conn.execute(
            sql.SQL("CREATE TABLE {} ({})").format(
                table, sql.SQL(", ").join(sql.SQL("{} text NOT NULL").format(c) for c in columns)
            )
        )
        with conn.cursor().copy(sql.SQL("COPY {} ({}) FROM STDIN").format(table, sql.SQL(", ").join(columns))) as copy:
            for row in shaped.rows:
                copy.write_row([cell.replace("\x00", "") for cell in row])
        conn.execute(sql.SQL("GRANT SELECT ON {} TO {}").format(table, sql.Identifier(record.role)))
        described = [
            {"name": c, "label": label, "notation": notation}
            for c, label, notation in zip(shaped.columns, shaped.labels, notations, strict=True)
        ]
        conn.execute(
            "INSERT INTO workspace_tables (thread_id, name, source, columns, row_count) VALUES (%s, %s, %s, %s, %s)"
            " ON CONFLICT (thread_id, name) DO UPDATE SET source = EXCLUDED.source, columns = EXCLUDED.columns,"
            " row_count = EXCLUDED.row_count, loaded_at = now()",
            (record.thread, name, json.dumps(source, ensure_ascii=False), json.dumps(described, ensure_ascii=False),
             len(shaped.rows)),
        )

    @staticmethod
    def idle(conn: psycopg.Connection[Any], older_than: datetime, limit: int = 20) -> list[Record]:
        """Workspaces still built but unused since ``older_than``."""
        rows = conn.execute(
            "SELECT thread_id, user_id, schema_name, role_name, role_password, last_used_at FROM workspaces"
            " WHERE last_used_at < %s AND role_password IS NOT NULL ORDER BY last_used_at LIMIT %s",
            (older_than, limit),
        ).fetchall()
        return [Record(r["thread_id"], r["user_id"], r["schema_name"], r["role_name"], r["role_password"],
                       r["last_used_at"]) for r in rows]
