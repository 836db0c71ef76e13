"""Runs in flight, in PostgreSQL: who runs which thread, and whether it was asked to stop.

A process that runs a thread takes a *lease* on it: a connection of its own holding a
session-level advisory lock on the thread, and the thread's row in ``runs`` marked
``running``. The lock belongs to the connection, so a process that dies — killed, crashed,
its machine gone — releases it with its connection; a row still ``running`` whose lock is free
is a run whose process is gone. Nobody can take a lease on a thread another process runs, so
a run is never continued twice at once.

A cancel (``kea cancel``, ``DELETE /v1/runs/{thread}``) only sets ``cancel_requested_at``; the
process holding the lease polls its row on the lease's connection and stops the run itself.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, Literal

import psycopg
from psycopg.rows import dict_row

# the advisory lock of a thread is (LOCK_CLASS, hashtext(thread)): apart from every other lock of Kea's
LOCK_CLASS = 0x6B72
RunState = Literal["running", "finished", "stopped", "cancelled"]
Origin = Literal["cli", "server"]


class RunBusy(RuntimeError):
    """Another process runs this thread right now."""


@dataclass(frozen=True)
class RunRecord:
    thread: str
    user: str
    profile: str
    origin: Origin
    state: RunState
    narrowing: dict[str, Any] = field(default_factory=dict)  # the CLI options that narrowed the profile
    cancel_requested: bool = False


def _record(row: dict[str, Any]) -> RunRecord:
    return RunRecord(
        thread=row["thread_id"], user=row["user_id"], profile=row["profile"], origin=row["origin"], state=row["state"],
        narrowing=dict(row["narrowing"] or {}), cancel_requested=row["cancel_requested_at"] is not None,
    )


_COLUMNS = "thread_id, user_id, profile, narrowing, origin, state, cancel_requested_at"


class RunLease:
    """The lease of one running thread: its lock, and its row written over the same connection."""

    def __init__(self, conn: psycopg.AsyncConnection[Any], thread: str) -> None:
        self.conn = conn
        self.thread = thread

    async def cancel_requested(self) -> bool:
        cur = await self.conn.execute(
            "SELECT cancel_requested_at IS NOT NULL AS asked FROM runs WHERE thread_id = %s", (self.thread,)
        )
        row = await cur.fetchone()
        return bool(row and row["asked"])

    async def saw_cancel(self, at: float) -> None:
        """Note when this process saw the cancel (seconds since the epoch, its own clock)."""
        await self.conn.execute(
            "UPDATE runs SET cancel_seen_at = to_timestamp(%s), updated_at = now() WHERE thread_id = %s", (at, self.thread)
        )

    async def end(self, state: RunState) -> None:
        await self.conn.execute("UPDATE runs SET state = %s, updated_at = now() WHERE thread_id = %s", (state, self.thread))


class RunRecords:
    """The ``runs`` table of one database."""

    def __init__(self, url: str) -> None:
        self.url = url

    async def _connect(self) -> psycopg.AsyncConnection[Any]:
        return await psycopg.AsyncConnection.connect(self.url, autocommit=True, row_factory=dict_row)  # type: ignore[arg-type]

    async def get(self, thread: str) -> RunRecord | None:
        async with await self._connect() as conn:
            cur = await conn.execute(f"SELECT {_COLUMNS} FROM runs WHERE thread_id = %s", (thread,))
            row = await cur.fetchone()
        return _record(row) if row else None

    async def running(self, origin: Origin) -> list[RunRecord]:
        """Runs of ``origin`` marked running, oldest first (alive or not: see ``is_alive``)."""
        async with await self._connect() as conn:
            cur = await conn.execute(
                f"SELECT {_COLUMNS} FROM runs WHERE state = 'running' AND origin = %s ORDER BY started_at", (origin,)
            )
            return [_record(r) for r in await cur.fetchall()]

    async def is_alive(self, thread: str) -> bool:
        """Whether some process holds the thread's lease now."""
        async with await self._connect() as conn:
            cur = await conn.execute("SELECT pg_try_advisory_lock(%s, hashtext(%s)) AS got", (LOCK_CLASS, thread))
            got = (await cur.fetchone())["got"]
            if got:
                await conn.execute("SELECT pg_advisory_unlock(%s, hashtext(%s))", (LOCK_CLASS, thread))
        return not got

    async def request_cancel(self, thread: str, user: str) -> RunRecord | None:
        """Ask the process running ``user``'s thread to stop it; None when it is not theirs or not running."""
        async with await self._connect() as conn:
            cur = await conn.execute(
                "UPDATE runs SET cancel_requested_at = coalesce(cancel_requested_at, now()), updated_at = now()"
                f" WHERE thread_id = %s AND user_id = %s AND state = 'running' RETURNING {_COLUMNS}",
                (thread, user),
            )
            row = await cur.fetchone()
        return _record(row) if row else None

    async def mark(self, thread: str, state: RunState) -> None:
        """Set a thread's state without a lease (a run whose process is gone)."""
        async with await self._connect() as conn:
            await conn.execute("UPDATE runs SET state = %s, updated_at = now() WHERE thread_id = %s", (state, thread))

    @asynccontextmanager
    async def lease(
        self, thread: str, *, user: str, profile: str, origin: Origin, narrowing: dict[str, Any] | None = None,
        wait: float = 0.0,
    ) -> AsyncIterator[RunLease]:
        """Run ``thread`` here: ``RunBusy`` when another run holds it still after ``wait`` seconds."""
        conn = await self._connect()
        try:
            deadline = asyncio.get_running_loop().time() + wait
            while True:  # polled, not waited for in the database: a waiting session holds a statement open
                cur = await conn.execute("SELECT pg_try_advisory_lock(%s, hashtext(%s)) AS got", (LOCK_CLASS, thread))
                if (await cur.fetchone())["got"]:
                    break
                if asyncio.get_running_loop().time() >= deadline:
                    raise RunBusy(f"Thread {thread} is running in another process right now.")
                await asyncio.sleep(0.2)
            await conn.execute(
                "INSERT INTO runs (thread_id, user_id, profile, narrowing, origin, state) VALUES (%s, %s, %s, %s, %s, 'running')"
                " ON CONFLICT (thread_id) DO UPDATE SET user_id = EXCLUDED.user_id, profile = EXCLUDED.profile,"
                " narrowing = EXCLUDED.narrowing, origin = EXCLUDED.origin, state = 'running',"
                " cancel_requested_at = NULL, cancel_seen_at = NULL, started_at = now(), updated_at = now()",
                (thread, user, profile, json.dumps(narrowing or {}), origin),
            )
            yield RunLease(conn, thread)
        finally:
            await conn.close()  # the lock goes with the connection

