"""Calls of one event-loop turn are served together; each caller gets its own answer or error."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import pytest

from tools.fanout.batches import TickBatch


def test_calls_of_one_turn_share_one_serve_and_each_gets_its_own_answer() -> None:
    served: list[list[int]] = []

    def serve(keys: Sequence[int]) -> dict[int, int | BaseException]:
        served.append(list(keys))
        return {k: (ValueError(f"no {k}") if k == 13 else k * 10) for k in keys if k != 7}

    async def main() -> list[object]:
        batch: TickBatch[int, int] = TickBatch(serve, limit=4)
        first = await asyncio.gather(*(batch.get(k) for k in range(10)), return_exceptions=True)
        later = await asyncio.gather(batch.get(13), batch.get(2), return_exceptions=True)
        return [*first, *later]

    answers = asyncio.run(main())
    assert served == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9], [13, 2]]  # ten callers, three trips; then one
    assert answers[:7] == [0, 10, 20, 30, 40, 50, 60] and answers[8:10] == [80, 90]
    assert isinstance(answers[7], KeyError)  # left out by serve: that caller alone fails
    assert isinstance(answers[10], ValueError) and answers[11] == 20


def test_a_failing_serve_fails_its_callers_and_not_the_next_turn() -> None:
    calls = 0

    def serve(keys: Sequence[int]) -> dict[int, int | BaseException]:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise ConnectionError("database gone")
        return {k: k for k in keys}

    async def main() -> tuple[list[object], int]:
        batch: TickBatch[int, int] = TickBatch(serve)
        failed = await asyncio.gather(batch.get(1), batch.get(2), return_exceptions=True)
        return failed, await batch.get(3)

    failed, later = asyncio.run(main())
    assert all(isinstance(f, ConnectionError) for f in failed) and later == 3


def test_a_cancelled_caller_does_not_break_the_others() -> None:
    def serve(keys: Sequence[int]) -> dict[int, int | BaseException]:
        return {k: k for k in keys}

    async def main() -> int:
        batch: TickBatch[int, int] = TickBatch(serve)
        doomed = asyncio.ensure_future(batch.get(1))
        other = asyncio.ensure_future(batch.get(2))
        await asyncio.sleep(0)
        doomed.cancel()
        with pytest.raises(asyncio.CancelledError):
            await doomed
        return await other

    assert asyncio.run(main()) == 2
