"""Which thread made each extraction, and whose thread it is (``chat_threads``, ``thread_extractions``).

Every entry point runs an extraction through the graph's ``store_csv``, which records its
extraction under the run's thread here: the CLI, the Python API, the HTTP API and the Universal
Agent alike. A thread first seen here belongs to the run's user; an extraction is recorded
only under a thread of the user who ran it. Downloads by key, loading an extraction into a SQL
workspace and forgetting a conversation read these records. Values reach SQL as parameters.
"""

from __future__ import annotations

from typing import Any

from psycopg_pool import ConnectionPool

_RECORD = """
WITH made AS (
    INSERT INTO chat_threads (thread_id, user_id, profile) VALUES (%(thread)s, %(user)s, %(profile)s)
    ON CONFLICT (thread_id) DO NOTHING
    RETURNING thread_id, user_id
), owner AS (
    SELECT thread_id, user_id FROM made
    UNION ALL
    SELECT thread_id, user_id FROM chat_threads WHERE thread_id = %(thread)s
)
INSERT INTO thread_extractions (extraction_id, thread_id)
SELECT %(extraction)s, thread_id FROM owner WHERE user_id = %(user)s LIMIT 1
ON CONFLICT (extraction_id) DO NOTHING
RETURNING thread_id
"""


def record_extraction(pool: ConnectionPool[Any], extraction_id: str, thread: str, user: str, profile: str) -> bool:
    """Record ``extraction_id`` under ``thread`` (started for ``user`` if new); False when the thread
    is someone else's (nothing is recorded) or the extraction was recorded already."""
    with pool.connection() as conn:
        row = conn.execute(
            _RECORD, {"thread": thread, "user": user, "profile": profile, "extraction": extraction_id}
        ).fetchone()
    return row is not None


def thread_owner(conn: Any, thread: str) -> str | None:
    """Who the thread belongs to, as recorded (None: no record of it)."""
    row = conn.execute("SELECT user_id FROM chat_threads WHERE thread_id = %s", (thread,)).fetchone()
    return str(row["user_id"]) if row else None


def thread_extractions(conn: Any, thread: str) -> list[str]:
    """The extractions recorded under ``thread``."""
    rows = conn.execute("SELECT extraction_id FROM thread_extractions WHERE thread_id = %s", (thread,)).fetchall()
    return [str(r["extraction_id"]) for r in rows]


def recorded_elsewhere(conn: Any, thread: str, extraction_ids: list[str]) -> set[str]:
    """Those of ``extraction_ids`` recorded under another thread than ``thread``."""
    rows = conn.execute(
        "SELECT extraction_id FROM thread_extractions WHERE extraction_id = ANY(%s) AND thread_id <> %s",
        (list(extraction_ids), thread),
    ).fetchall()
    return {str(r["extraction_id"]) for r in rows}
