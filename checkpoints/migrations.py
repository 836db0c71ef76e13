"""Schema migrations: SQL files applied in order, once, recorded in ``kea_schema_version``."""

from __future__ import annotations

from importlib import resources

import psycopg

_LOCK_KEY = 0x6B6561  # any constant; serialises concurrent starters on one database


def migration_files() -> list[tuple[int, str, str]]:
    """(version, name, sql) of every shipped migration, in order."""
    folder = resources.files("checkpoints") / "sql"
    found = []
    for entry in folder.iterdir():
        if entry.name.endswith(".sql"):
            version = int(entry.name.split("_", 1)[0])
            found.append((version, entry.name, entry.read_text(encoding="utf-8")))
    return sorted(found)


def apply_migrations(url: str) -> list[str]:
    """Apply the migrations a database lacks; return the names applied (idempotent, race-free)."""
    applied: list[str] = []
    with psycopg.connect(url, autocommit=True) as conn, conn.transaction():
        # the lock comes first: two processes creating the version table at once collide
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK_KEY,))
        conn.execute(
            "CREATE TABLE IF NOT EXISTS kea_schema_version ("
            " version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())"
        )
        done = {row[0] for row in conn.execute("SELECT version FROM kea_schema_version")}
        for version, name, sql in migration_files():
            if version in done:
                continue
            conn.execute(sql)  # type: ignore[arg-type]  # a shipped file, not user input
            conn.execute("INSERT INTO kea_schema_version (version, name) VALUES (%s, %s)", (version, name))
            applied.append(name)
    return applied
