"""Runs in flight, in PostgreSQL: who runs which thread, and whether it was asked to stop.

A process that runs a thread takes a *lease* on it: a connection of its own holding a
session-level advisory lock on the thread, and the thread's row in ``runs`` marked
``running`` with the lease's ``holder``. The lock belongs to the connection, so a process that
dies — killed, crashed, its machine gone — releases it with its connection; a row still
``running`` whose lock is free is an *orphan*: a run whose process is gone. Nobody can take a
lease on a thread another process runs, so a run is never continued twice at once.

Why a lock and not a heartbeat row with an expiry: PostgreSQL itself ends the lease when the
process's connection ends, at once for a process that dies on a live machine, with no clock to
compare and no write every few seconds per run. Two cases a plain lock would miss are bounded
by the lease connection's settings (``lease_seconds``): a machine that vanishes (TCP keepalives
and a user timeout end its session) and a process that stops answering while its machine lives
(it polls its row every half second; ``idle_session_timeout`` ends a session silent for longer).

``kea serve`` replicas look for orphans of the server's runs every few seconds and continue
them (``lease(..., takeover=True)``): the takeover rechecks the row under the lock and writes
itself as the holder, so a process that lost its lease and comes back finds another holder
(``RunLease.regain``) and stops instead of running the thread a second time.

A cancel (``kea cancel``, ``DELETE /v1/runs/{thread}``) only sets ``cancel_requested_at``; the
process holding the lease polls its row on the lease's connection and stops the run itself.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field
from typing import Any, Literal

import psycopg
from psycopg.rows import dict_row

# the advisory lock of a thread is (LOCK_CLASS, hashtext(thread)): apart from every other lock of Kea's
LOCK_CLASS = 0x6B72
RunState = Literal["running", "finished", "stopped", "cancelled"]
Origin = Literal["cli", "server"]


def lease_seconds() -> float:
    """How long a lease outlives a process that stopped answering (its machine gone, or frozen)."""
    return max(5.0, float(os.environ.get("KEA_LEASE_SECONDS", "30")))


async def keep_alive_settings(conn: psycopg.AsyncConnection[Any], seconds: float, *, idle_limit: bool) -> None:
    """Make the server end ``conn``'s session within about ``seconds`` once its client is gone.

    TCP keepalives and a user timeout find a client whose machine vanished (the defaults wait
    two hours); with ``idle_limit`` a session silent for ``seconds`` ends too (PostgreSQL 14+).
    On a Unix socket the TCP settings are ignored: a local process's end closes its socket.
    """
    idle = max(1, int(seconds / 3))
    interval = max(1, int(seconds / 10))
    settings = {"tcp_keepalives_idle": idle, "tcp_keepalives_interval": interval, "tcp_keepalives_count": 3}
    version = conn.info.server_version
    if version >= 120000:
        settings["tcp_user_timeout"] = int(seconds * 1000)
    if idle_limit and version >= 140000:
        settings["idle_session_timeout"] = int(seconds * 1000)
    for name, value in settings.items():
        await conn.execute(f"SET {name} = {int(value)}")  # names and integers of ours, never input


class RunBusy(RuntimeError):
    """Another process runs this thread right now."""


class NothingToTakeOver(LookupError):
    """The orphan is one no longer: it ended, was cancelled, or another replica took it."""


@dataclass(frozen=True)
class RunRecord:
    thread: str
    user: str
    profile: str
    origin: Origin
    state: RunState
    narrowing: dict[str, Any] = field(default_factory=dict)  # the CLI options that narrowed the profile
    cancel_requested: bool = False
    holder: str | None = None  # who holds (or last held) the lease
    takeovers: int = 0


def _record(row: dict[str, Any]) -> RunRecord:
    return RunRecord(
        thread=row["thread_id"], user=row["user_id"], profile=row["profile"], origin=row["origin"], state=row["state"],
        narrowing=dict(row["narrowing"] or {}), cancel_requested=row["cancel_requested_at"] is not None,
        holder=row["holder"], takeovers=int(row["takeovers"] or 0),
    )


_COLUMNS = "thread_id, user_id, profile, narrowing, origin, state, cancel_requested_at, holder, takeovers"
_LOCK = "SELECT pg_try_advisory_lock(%s, hashtext(%s)) AS got"
_UNLOCK = "SELECT pg_advisory_unlock(%s, hashtext(%s))"


def new_holder() -> str:
    """A lease's holder: this machine and process, and a nonce telling two leases of one process apart."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


class RunLease:
    """The lease of one running thread: its lock, and its row written over the same connection."""

    def __init__(self, records: "RunRecords", conn: psycopg.AsyncConnection[Any], thread: str, holder: str) -> None:
        self.records = records
        self.conn = conn
        self.thread = thread
        self.holder = holder

    @property
    def broken(self) -> bool:
        """Whether the lease's connection is gone (and with it, perhaps, the lock)."""
        return bool(self.conn.closed or self.conn.broken)

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
        """The run ended here: its state, unless another process holds the thread now."""
        await self.conn.execute(
            "UPDATE runs SET state = %s, updated_at = now() WHERE thread_id = %s AND holder = %s",
            (state, self.thread, self.holder),
        )

    async def regain(self) -> bool | None:
        """After the lease's connection broke: take the lock again on a new one.

        True: regained, nobody took the run meanwhile. False: lost — another process holds the
        run now, or it ended. None: cannot tell yet (the database does not answer, or the lock is
        still held by this process's old session, which the server has not ended yet).
        """
        conn = await self.records.lease_connection()
        try:
            got = (await (await conn.execute(_LOCK, (LOCK_CLASS, self.thread))).fetchone())["got"]
            row = await (await conn.execute("SELECT holder, state FROM runs WHERE thread_id = %s", (self.thread,))).fetchone()
            ours = row is not None and row["holder"] == self.holder and row["state"] == "running"
            if not ours:
                await conn.close()
                return False
            if not got:
                await conn.close()
                return None
        except BaseException:
            await conn.close()
            raise
        old, self.conn = self.conn, conn
        with suppress(Exception):
            await old.close()
        return True


class RunRecords:
    """The ``runs`` table of one database."""

    def __init__(self, url: str) -> None:
        self.url = url

    async def _connect(self) -> psycopg.AsyncConnection[Any]:
        return await psycopg.AsyncConnection.connect(self.url, autocommit=True, row_factory=dict_row)  # type: ignore[arg-type]

    async def lease_connection(self) -> psycopg.AsyncConnection[Any]:
        """A connection for a lease: its session ends soon after its process stops answering."""
        conn = await self._connect()
        try:
            await keep_alive_settings(conn, lease_seconds(), idle_limit=True)
        except BaseException:
            await conn.close()
            raise
        return conn

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

    async def orphans(self, origin: Origin, conn: psycopg.AsyncConnection[Any] | None = None) -> list[RunRecord]:
        """Runs of ``origin`` marked running whose lease nobody holds, oldest first: one query,
        no lock taken (a takeover checks again under the lock)."""
        query = (
            f"SELECT {_COLUMNS} FROM runs r WHERE r.state = 'running' AND r.origin = %s AND NOT EXISTS ("
            " SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory' AND l.granted"
            " AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())"
            " AND l.classid = %s AND l.objid = hashtext(r.thread_id)::oid AND l.objsubid = 2)"
            " ORDER BY r.started_at"
        )
        if conn is not None:
            return [_record(r) for r in await (await conn.execute(query, (origin, LOCK_CLASS))).fetchall()]
        async with await self._connect() as own:
            return [_record(r) for r in await (await own.execute(query, (origin, LOCK_CLASS))).fetchall()]

    async def is_alive(self, thread: str) -> bool:
        """Whether some process holds the thread's lease now."""
        async with await self._connect() as conn:
            cur = await conn.execute(_LOCK, (LOCK_CLASS, thread))
            got = (await cur.fetchone())["got"]
            if got:
                await conn.execute(_UNLOCK, (LOCK_CLASS, thread))
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
        """Set a thread's state without a lease."""
        async with await self._connect() as conn:
            await conn.execute("UPDATE runs SET state = %s, updated_at = now() WHERE thread_id = %s", (state, thread))

    async def settle_orphan(self, thread: str, state: RunState) -> bool:
        """Set the state of a run whose process is gone, under its lock: False when a process
        holds it (then it is alive, and its holder ends it). Race-free against a takeover."""
        async with await self._connect() as conn:
            if not (await (await conn.execute(_LOCK, (LOCK_CLASS, thread))).fetchone())["got"]:
                return False
            try:
                await conn.execute(
                    "UPDATE runs SET state = %s, updated_at = now() WHERE thread_id = %s AND state = 'running'",
                    (state, thread),
                )
            finally:
                await conn.execute(_UNLOCK, (LOCK_CLASS, thread))
        return True

    @asynccontextmanager
    async def lease(
        self, thread: str, *, user: str, profile: str, origin: Origin, narrowing: dict[str, Any] | None = None,
        wait: float = 0.0, takeover: bool = False,
    ) -> AsyncIterator[RunLease]:
        """Run ``thread`` here: ``RunBusy`` when another run holds it still after ``wait`` seconds.

        A new run of a thread whose server run is an orphan waits for a replica to continue that
        run first (it is busy until then). ``takeover``: continue the orphan itself;
        ``NothingToTakeOver`` when it is no orphan any more — and a cancel asked for while its
        process was gone ends it here as cancelled.
        """
        conn = await self.lease_connection()
        holder = new_holder()
        lease = RunLease(self, conn, thread, holder)
        try:
            deadline = asyncio.get_running_loop().time() + wait
            while True:  # polled, not waited for in the database: a waiting session holds a statement open
                if (await (await conn.execute(_LOCK, (LOCK_CLASS, thread))).fetchone())["got"]:
                    cur = await conn.execute(f"SELECT {_COLUMNS} FROM runs WHERE thread_id = %s", (thread,))
                    row = await cur.fetchone()
                    record = _record(row) if row else None
                    if takeover:
                        if record is None or record.state != "running":
                            raise NothingToTakeOver(f"The run on thread {thread} is not waiting to be continued.")
                        if record.cancel_requested:
                            await lease.conn.execute(
                                "UPDATE runs SET state = 'cancelled', updated_at = now() WHERE thread_id = %s", (thread,)
                            )
                            raise NothingToTakeOver(f"The run on thread {thread} was cancelled while its process was gone.")
                        break
                    if record is None or record.state != "running" or record.origin != "server":
                        break
                    await conn.execute(_UNLOCK, (LOCK_CLASS, thread))  # an orphan: continued first, by a replica
                if asyncio.get_running_loop().time() >= deadline:
                    raise RunBusy(f"Thread {thread} is running in another process right now.")
                await asyncio.sleep(0.2)
            if takeover:
                await conn.execute(
                    "UPDATE runs SET holder = %s, leased_at = now(), takeovers = takeovers + 1, updated_at = now()"
                    " WHERE thread_id = %s",
                    (holder, thread),
                )
            else:
                await conn.execute(
                    "INSERT INTO runs (thread_id, user_id, profile, narrowing, origin, state, holder, leased_at)"
                    " VALUES (%s, %s, %s, %s, %s, 'running', %s, now())"
                    " ON CONFLICT (thread_id) DO UPDATE SET user_id = EXCLUDED.user_id, profile = EXCLUDED.profile,"
                    " narrowing = EXCLUDED.narrowing, origin = EXCLUDED.origin, state = 'running',"
                    " cancel_requested_at = NULL, cancel_seen_at = NULL, started_at = now(), updated_at = now(),"
                    " holder = EXCLUDED.holder, leased_at = now(), takeovers = 0",
                    (thread, user, profile, json.dumps(narrowing or {}), origin, holder),
                )
            yield lease
        finally:
            with suppress(Exception):
                await lease.conn.close()  # the lock goes with the connection
