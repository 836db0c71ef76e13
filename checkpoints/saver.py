"""The checkpointer: LangGraph's Postgres saver on Kea's database."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver

from checkpoints.cluster import database_url

_set_up: set[str] = set()


@asynccontextmanager
async def postgres_checkpointer(url: str | None = None) -> AsyncIterator[AsyncPostgresSaver]:
    """An ``AsyncPostgresSaver`` on Kea's database; its tables are set up once per process."""
    url = url or await asyncio.to_thread(database_url)  # may start the local cluster: blocking
    async with AsyncPostgresSaver.from_conn_string(url) as saver:
        if url not in _set_up:
            await saver.setup()
            _set_up.add(url)
        yield saver
