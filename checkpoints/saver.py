"""The checkpointer: LangGraph's Postgres saver on Kea's database.

A checkpoint that cannot be read or written because the database stopped answering (stopped,
restarted, the network gone) stops the run with a sentence (``DatabaseDown``) instead of a
driver error: what was checkpointed before stays, and the thread continues from there once the
database is back.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any

import psycopg
from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver

from checkpoints.cluster import DatabaseDown, database_url

_SETUP_LOCK = 0x6B6562  # beside the migrations' lock key: one saver set-up at a time per database
_set_up: set[str] = set()


def _down() -> str:
    return (
        "Kea's database stopped answering while the run saved its progress, so the run stopped. What was "
        "saved before is kept: once it answers again, the run continues from there."
    )


@contextmanager
def _database_answers() -> Iterator[None]:
    try:
        yield
    except psycopg.OperationalError as exc:
        raise DatabaseDown(_down()) from exc


class KeaSaver(AsyncPostgresSaver):
    """LangGraph's Postgres saver whose lost connection stops a run with ``DatabaseDown``."""

    async def aget_tuple(self, config: Any, *args: Any, **kwargs: Any) -> Any:
        with _database_answers():
            return await super().aget_tuple(config, *args, **kwargs)

    async def aput(self, config: Any, *args: Any, **kwargs: Any) -> Any:
        with _database_answers():
            return await super().aput(config, *args, **kwargs)

    async def aput_writes(self, config: Any, *args: Any, **kwargs: Any) -> None:
        with _database_answers():
            await super().aput_writes(config, *args, **kwargs)


@asynccontextmanager
async def postgres_checkpointer(url: str | None = None) -> AsyncIterator[AsyncPostgresSaver]:
    """An ``AsyncPostgresSaver`` on Kea's database; its tables are set up once per process."""
    url = url or await asyncio.to_thread(database_url)  # may start the local cluster: blocking
    async with KeaSaver.from_conn_string(url) as saver:
        if url not in _set_up:
            await _setup(saver, url)
        yield saver


async def _setup(saver: AsyncPostgresSaver, url: str) -> None:
    """Create the saver's tables once: runs starting together in one process or several must not race.

    LangGraph's ``setup()`` inserts its migration versions without a lock, so two starters on a
    fresh database collide on ``checkpoint_migrations_pkey``. A session-level advisory lock on a
    connection of our own serialises them, within one process and across processes, holding no
    transaction open (the saver's ``CREATE INDEX CONCURRENTLY`` would wait for it forever).
    """
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
        # polled, not waited for: a session waiting on the lock is a running statement, and
        # CREATE INDEX CONCURRENTLY waits for every running statement to end
        while not (await (await conn.execute("SELECT pg_try_advisory_lock(%s)", (_SETUP_LOCK,))).fetchone())[0]:
            await asyncio.sleep(0.05)
        try:
            if url not in _set_up:
                await saver.setup()
                _set_up.add(url)
        finally:
            await conn.execute("SELECT pg_advisory_unlock(%s)", (_SETUP_LOCK,))
