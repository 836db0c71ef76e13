"""Calls made in the same turn of the event loop, served together by one call in a worker thread.

The tasks of a fan-out start together: each asks for its own document, and each stores its own
rows. One trip to a worker thread and one round trip to the database for all of them costs
what one of them cost alone, where a trip each queues every task behind the others (a worker
pool of a few threads, each trip waiting for the GIL).

    batch = TickBatch(lambda keys: {k: work(k) for k in keys})
    value = await batch.get(key)     # in many tasks at once: ``serve`` runs once for them all

``serve`` answers a dict by key; a key it leaves out (or answers with an exception) raises
``KeyError`` (or that exception) in its caller only. A failing ``serve`` fails its callers.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Hashable, Sequence
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class TickBatch(Generic[K, V]):
    """Coalesces ``get`` calls of one event-loop turn into calls of ``serve`` of at most ``limit`` keys."""

    def __init__(self, serve: Callable[[Sequence[K]], dict[K, V | BaseException]], limit: int = 64) -> None:
        self.serve, self.limit = serve, max(1, limit)
        self._waiting: list[tuple[K, asyncio.Future[V]]] = []
        self._scheduled = False
        self._running: set[asyncio.Task[None]] = set()

    async def get(self, key: K) -> V:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[V] = loop.create_future()
        self._waiting.append((key, future))
        if not self._scheduled:
            self._scheduled = True
            loop.call_soon(self._flush)  # after every task woken in this turn has asked
        return await future

    def _flush(self) -> None:
        self._scheduled = False
        waiting, self._waiting = self._waiting, []
        for start in range(0, len(waiting), self.limit):
            task = asyncio.ensure_future(self._serve(waiting[start : start + self.limit]))
            self._running.add(task)  # held until done: a pending task is only weakly referenced
            task.add_done_callback(self._running.discard)

    async def _serve(self, chunk: list[tuple[K, asyncio.Future[V]]]) -> None:
        keys = list(dict.fromkeys(key for key, _ in chunk))
        try:
            answers = await asyncio.to_thread(self.serve, keys)
        except BaseException as exc:  # noqa: BLE001 — handed to every caller of this chunk
            for _, future in chunk:
                if not future.done():
                    future.set_exception(exc)
            if not isinstance(exc, Exception):
                raise
            return
        for key, future in chunk:
            if future.done():  # its caller was cancelled
                continue
            answer = answers.get(key, _MISSING)
            if answer is _MISSING:
                future.set_exception(KeyError(key))
            elif isinstance(answer, BaseException):
                future.set_exception(answer)
            else:
                future.set_result(answer)  # type: ignore[arg-type]


_MISSING = object()
