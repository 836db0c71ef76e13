"""The knowledge base's connection pool, shared by its writes and its reads."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
from psycopg.rows import dict_row
from psycopg_pool import ConnectionPool

from checkpoints.migrations import apply_migrations


class Connected:
    """One pool per process, in autocommit, rows as dicts."""

    def __init__(self, url: str, *, max_size: int = 10, migrate: bool = True) -> None:
        if migrate:
            apply_migrations(url)
        self.url = url
        self.pool = ConnectionPool(
            url, min_size=1, max_size=max_size, open=True, kwargs={"autocommit": True, "row_factory": dict_row}
        )

    def close(self) -> None:
        self.pool.close()

    @contextmanager
    def _conn(self) -> Iterator[psycopg.Connection[dict[str, Any]]]:
        with self.pool.connection() as conn:
            yield conn  # type: ignore[misc]
