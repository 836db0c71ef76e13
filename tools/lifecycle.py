"""A run's life across processes: leased while it runs, cancellable from anywhere, resumable.

``durable_run`` wraps one run of a thread (a new request, an answer to its questions, or the
continuation of a run whose process died): it takes the thread's lease
(``checkpoints/runs.py``), so no other process runs it at the same time, and watches the
thread's row for a cancel. A cancel seen sets the run's ``RunControl``; the documents the run
reads (``tools/fanout/document.py``) find it through a context variable, start no model call
after it, cut off those in flight, and the run ends with the rows stored so far —
``graph.runs.settle_cancelled`` then turns its answer into the cancelled one.

A lease whose connection broke is taken again on a new one; when another process took the run
over meanwhile (``checkpoints/runs.py``), this process has lost it: the run's task is cancelled
where it stands and ``RunLost`` raised, so the thread is never run twice at once.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import os
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field
from typing import Any

from checkpoints.runs import Origin, RunRecords, RunState, lease_seconds

log = logging.getLogger(__name__)


def poll_seconds() -> float:
    """How often a running process looks for a cancel of its run (and shows the database it lives)."""
    return min(float(os.environ.get("KEA_CANCEL_POLL_SECONDS", "0.5")), lease_seconds() / 4)


class RunLost(RuntimeError):
    """This process lost the run's lease to another one, which continues the run."""


@dataclass
class RunControl:
    """What a running thread's nodes may ask: has the run been cancelled?"""

    thread: str
    stop: asyncio.Event = field(default_factory=asyncio.Event)
    seen_at: float | None = None  # when this process saw the cancel (time.time())
    failed: bool = False  # the run stopped with an error (resumable)
    lost: bool = False  # another process took the run over: this one stops where it stands
    task: "asyncio.Task[Any] | None" = None  # the task running the thread here
    _calls: "set[asyncio.Future[Any]]" = field(default_factory=set)

    @property
    def cancelled(self) -> bool:
        return self.stop.is_set()

    def cancel(self) -> None:
        if not self.stop.is_set():
            self.stop.set()
            self.seen_at = time.time()
            for call in list(self._calls):
                call.cancel()

    def lose(self) -> None:
        """The lease went to another process: stop the run's task at once (nothing more is
        written for it here; its new holder continues from the last checkpoint)."""
        self.lost = True
        if self.task is not None and not self.task.done():
            self.task.cancel()

    def cut_off_on_cancel(self, call: "asyncio.Future[Any]") -> None:
        """Cancel ``call`` (a model call in flight) when the run is cancelled."""
        if self.cancelled:
            call.cancel()
            return
        self._calls.add(call)
        call.add_done_callback(self._calls.discard)


_control: contextvars.ContextVar[RunControl | None] = contextvars.ContextVar("kea_run_control", default=None)


def current_control() -> RunControl | None:
    """The control of the run this code runs in (None outside ``durable_run``)."""
    return _control.get()


def run_cancelled() -> bool:
    control = _control.get()
    return control is not None and control.cancelled


@asynccontextmanager
async def durable_run(
    records: RunRecords, thread: str, *, user: str, profile: str, origin: Origin, narrowing: dict[str, Any] | None = None,
    wait: float = 0.0, takeover: bool = False,
) -> AsyncIterator[RunControl]:
    """Run ``thread`` here, leased and watched for a cancel (``RunBusy`` when another process runs it).

    The run's state on exit: ``cancelled`` after a cancel, ``stopped`` when the block set
    ``control.failed`` or raised, ``finished`` otherwise. ``wait``: seconds to wait for a run of the
    thread still going on elsewhere to end. ``takeover``: continue the run of a process that
    died (``NothingToTakeOver`` when it needs that no more). A block cancelled itself (the
    process shutting down) leaves the run ``running`` with its lease released: it is picked up
    again. ``RunLost`` when another process took the run over from this one.
    """
    async with records.lease(
        thread, user=user, profile=profile, origin=origin, narrowing=narrowing, wait=wait, takeover=takeover
    ) as lease:
        control = RunControl(thread, task=asyncio.current_task())
        token = _control.set(control)
        watcher = asyncio.create_task(_watch(lease, control), name=f"kea-cancel-watch-{thread}")
        state: RunState | None = None
        try:
            yield control
            state = "cancelled" if control.cancelled else "stopped" if control.failed else "finished"
        except asyncio.CancelledError:
            if control.lost:
                task = asyncio.current_task()
                if task is not None:
                    task.uncancel()
                raise RunLost(
                    f"Another Kea process took over the run on thread {thread} while this one had lost touch with the "
                    "database; it continues there."
                ) from None
            raise  # the process stops: the run stays 'running' for whoever continues it
        except BaseException:
            state = "stopped"
            raise
        finally:
            watcher.cancel()
            with suppress(asyncio.CancelledError, Exception):
                await watcher
            _control.reset(token)
            if state is not None:
                try:
                    await lease.end(state)
                except Exception:  # noqa: BLE001 — the lease ends with its connection anyway
                    log.exception("Could not record the end of the run on thread %s", thread)


async def _watch(lease: Any, control: RunControl) -> None:
    """Poll the thread's row until a cancel is asked for; then stop the run and note when.

    The polls also keep the lease's session busy, which is how the database tells this live
    process from a frozen one. A broken lease connection is replaced; a lease lost to another
    process stops the run."""
    while True:
        await asyncio.sleep(poll_seconds())
        try:
            if lease.broken:
                kept = await lease.regain()
                if kept is False:
                    log.warning("The run on thread %s was taken over by another process; it stops here.", control.thread)
                    control.lose()
                    return
                if kept is None:
                    continue  # still held by this process's old session, or the database is away: look again
                log.info("The lease of thread %s was taken again after its connection broke.", control.thread)
            asked = await lease.cancel_requested()
        except Exception:  # noqa: BLE001 — a lost database stops the run elsewhere; keep looking
            log.warning("Could not look for a cancel of thread %s", control.thread, exc_info=True)
            continue
        if asked:
            control.cancel()
            with suppress(Exception):
                await lease.saw_cancel(control.seen_at or time.time())
            return
