"""The engine lanes of a profile: at most C documents read at once, and kept busy across a
wave's hand-over.

Every run of a profile in a process shares its C lanes (C = the profile's ``concurrency``), on
each event loop; at most 2 C documents are *in hand* (extracted, or waiting for their rows to
be stored), and C more of a run read ahead, so a fast engine's rows never pile up ahead of
their storage.

A wave of the fan-out (``nodes/plan.py``) ends only once its slowest document is stored, and the
next wave's tasks start a LangGraph step after that. A lane freed in between would stand idle,
every wave, for the length of the wave's tail and the hand-over. So a lane is not given back
when no task wants one: it *reads ahead*. The next wave's first documents, loaded already
(``document_io.py`` prefetches them), start their engine call on it; when the next wave is
sent, their tasks take the call's outcome instead of making it. A task that wants a lane
always comes first: no read ahead starts while one is waiting or on its way to one, and at
most C documents of a run are read ahead at a time. A read ahead that no task takes (the run
stopped with an error) cost one engine call; it is kept, with its document, until the run's
I/O is dropped (``document_io.py``) or a resumed run's task takes it. A read ahead that
failed, or was cut off, gives its lane back.

    lanes = lanes_for(profile.name, profile.concurrency)   # as ``DocumentRead`` (document.py) does
    with lanes.coming() as coming:            # this task will want a lane
        ...                                   # load the document
        async with lanes.lane(coming, hand_on=read_ahead):
            ...                               # the engine call
"""

from __future__ import annotations

import asyncio
import weakref
from collections import deque
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager

# Given the lane a task is done with: start a read ahead that takes it over (True) or do
# nothing (False: the lane is given back).
HandOn = Callable[["Lanes"], bool]


class Coming:
    """One task on its way to a lane: counted as wanting one until it has it or leaves."""

    def __init__(self, lanes: "Lanes") -> None:
        self._lanes, self._counted = lanes, True
        lanes.wanting += 1

    def arrived(self) -> None:
        if self._counted:
            self._counted = False
            self._lanes.wanting -= 1


class Lanes:
    def __init__(self, concurrency: int) -> None:
        self.concurrency = max(1, concurrency)
        self.in_hand = asyncio.Semaphore(2 * self.concurrency)
        self.wanting = 0  # tasks waiting for a lane or on their way to one (loading their document)
        self._idle = self.concurrency  # lanes nobody holds
        self._waiters: deque[asyncio.Future[None]] = deque()

    @contextmanager
    def coming(self) -> Iterator[Coming]:
        coming = Coming(self)
        try:
            yield coming
        finally:
            coming.arrived()

    @asynccontextmanager
    async def lane(self, coming: Coming, hand_on: HandOn | None = None) -> AsyncIterator[None]:
        """Hold one lane for the block. Leaving it, the lane goes to the next task waiting, or
        to ``hand_on`` (a read ahead) when none wants it; leaving it with an error, it is free."""
        await self._take()
        coming.arrived()
        try:
            yield
        except BaseException:
            self._give()  # a failed or cancelled task (a run stopping) starts nothing more
            raise
        self.hand_on(hand_on)

    def hand_on(self, hand_on: HandOn | None) -> None:
        """Done with a lane: a read ahead may take it over when no task wants it; else it is free."""
        if hand_on is not None and self.wanting == 0 and hand_on(self):
            return
        self._give()

    def fill(self, hand_on: HandOn) -> None:
        """Lanes standing idle while no task wants one go to ``hand_on``, as long as it takes them
        (documents to read ahead have arrived)."""
        while self.wanting == 0 and self._idle > 0 and not self._waiters:
            self._idle -= 1
            if not hand_on(self):
                self._give()
                return

    async def _take(self) -> None:
        if self._idle > 0 and not self._waiters:
            self._idle -= 1
            return
        handed: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.append(handed)
        try:
            await handed
        except asyncio.CancelledError:
            if handed.done() and not handed.cancelled():
                self._give()  # handed a lane just as this task was cancelled: the next one has it
            elif handed in self._waiters:
                self._waiters.remove(handed)
            raise

    def _give(self) -> None:
        while self._waiters:
            handed = self._waiters.popleft()
            if not handed.done():
                handed.set_result(None)
                return
        self._idle += 1


_lanes: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[tuple[str, int], Lanes]]" = weakref.WeakKeyDictionary()


def lanes_for(profile_name: str, concurrency: int) -> Lanes:
    """The lanes of the profile ``profile_name`` at ``concurrency``, on this event loop."""
    per_loop = _lanes.setdefault(asyncio.get_running_loop(), {})
    key = (profile_name, max(1, concurrency))
    if key not in per_loop:
        per_loop[key] = Lanes(key[1])
    return per_loop[key]
