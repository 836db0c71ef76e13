"""The checkpointer: LangGraph's Postgres saver on Kea's database."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver

from checkpoints.cluster import database_url


@asynccontextmanager
async def postgres_checkpointer(url: str | None = None) -> AsyncIterator[AsyncPostgresSaver]:
    """An ``AsyncPostgresSaver`` with its tables set up (idempotent)."""
    async with AsyncPostgresSaver.from_conn_string(url or database_url()) as saver:
        await saver.setup()
        yield saver
