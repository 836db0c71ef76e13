"""The global per-model cap: at most N calls of one model in flight across every run and replica.

Every process that shares Kea's database shares the table ``model_slots(model, slot)``. A
model call takes one free row of its model (``SELECT ... FOR UPDATE SKIP LOCKED``) and keeps
it locked, in an open transaction, for as long as the call runs; the transaction ends when the
call does, whether it answered or failed. When every row is locked the caller waits, polling
with short jittered sleeps. A row lock belongs to its connection: a process that dies
releases its slots with its connections, so no slot ever leaks: at once when the process
dies on a live machine, and within ``KEA_LEASE_SECONDS`` (TCP keepalives on each slot's
connection) when its machine vanishes — the slots of a replica that is gone return to the others.

Within one process an ``asyncio.Semaphore`` of the same size sits in front of the table, so a
busy process does not poll for slots it could never take, and the connection pool never holds
more connections than the cap. Pools and semaphores belong to an event loop; each loop gets
its own.
"""

from __future__ import annotations

import asyncio
import random
import weakref
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from psycopg_pool import AsyncConnectionPool

POLL_FIRST = 0.05  # seconds before the first look again; doubles up to POLL_LONGEST
POLL_LONGEST = 1.0

_FILL = (
    "INSERT INTO model_slots (model, slot) SELECT %s, s FROM generate_series(0, %s - 1) AS s"
    " ON CONFLICT DO NOTHING"
)
_TAKE = (
    "SELECT slot FROM model_slots WHERE model = %s AND slot < %s"
    " ORDER BY slot LIMIT 1 FOR UPDATE SKIP LOCKED"
)


async def _alive_settings(conn: Any) -> None:
    """A slot's session ends soon after its process's machine vanishes (not when it idles: a
    slot is held idle in its transaction for the whole call)."""
    from checkpoints.runs import keep_alive_settings, lease_seconds

    await keep_alive_settings(conn, lease_seconds(), idle_limit=False)


class ModelSlots:
    """The slots of one model on one database, as one event loop of one process uses them.

    ``size`` is this process's cap for the model: it never takes a slot numbered ``size`` or
    more, so processes configured with different caps share the lower slots.
    """

    def __init__(self, url: str, model: str, size: int) -> None:
        self.url = url
        self.model = model
        self.size = max(1, int(size))
        self.waits = 0  # how often a caller found every slot of the database taken
        self._local = asyncio.Semaphore(self.size)
        self._opening = asyncio.Lock()
        self._pool: AsyncConnectionPool | None = None

    async def _opened(self) -> AsyncConnectionPool:
        async with self._opening:
            if self._pool is None:
                pool = AsyncConnectionPool(
                    self.url,
                    min_size=1,
                    max_size=self.size,
                    # a slot's transaction lasts a whole model call, retries included: a server
                    # timeout on idle transactions would free the slot behind the cap's back
                    kwargs={"autocommit": True, "options": "-c idle_in_transaction_session_timeout=0"},
                    open=False,
                    timeout=60.0,
                    name=f"kea-model-slots-{self.model}",
                    configure=_alive_settings,
                )
                try:
                    await pool.open(wait=True, timeout=60.0)
                    async with pool.connection() as conn:
                        await conn.execute(_FILL, (self.model, self.size))
                except BaseException:
                    await pool.close()  # a failed or cancelled start must not leave connections open
                    raise
                self._pool = pool
            return self._pool

    @asynccontextmanager
    async def hold(self) -> AsyncIterator[int]:
        """Wait for a free slot and keep it for the block; the slot number is yielded."""
        async with self._local:
            pool = await self._opened()
            pause = POLL_FIRST
            while True:
                async with pool.connection() as conn, conn.transaction():
                    row = await (await conn.execute(_TAKE, (self.model, self.size))).fetchone()
                    if row is not None:
                        # the row stays locked until this transaction ends, with the block
                        yield int(row[0])
                        return
                self.waits += 1
                await asyncio.sleep(pause * random.uniform(0.5, 1.5))
                pause = min(pause * 2, POLL_LONGEST)

    async def close(self) -> None:
        if self._pool is not None:
            await self._pool.close()
            self._pool = None


_by_loop: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[tuple[str, str, int], ModelSlots]] = (
    weakref.WeakKeyDictionary()
)


def model_slots(url: str, model: str, size: int) -> ModelSlots:
    """The slots of ``model`` for the running event loop (one pool per loop, database and cap)."""
    per_loop = _by_loop.setdefault(asyncio.get_running_loop(), {})
    key = (url, model, max(1, int(size)))
    if key not in per_loop:
        per_loop[key] = ModelSlots(url, model, key[2])
    return per_loop[key]
