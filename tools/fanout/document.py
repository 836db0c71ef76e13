"""One document of the fan-out read: loaded, extracted on a lane (or taken from the call a lane
made for it ahead), its records verified and stored.

``DocumentRead`` is what a document's task runs (``nodes/extract_document.py``). It takes the
document through the fan-out's scheduling: the batched load (``document_io.py``), a place in
hand and a lane (``lanes.py``), the engine call with its meter and the run's cancel cut-off,
the batched store. It says what happens while the document is read, for the task to tell its
user:

    document = DocumentRead(svc, profile, extraction_id, document_id, qualify=False)
    async with aclosing(document.news()) as news:
        async for item in news:          # LongDocument, then StillReading every so often
            ...
    document.records                     # as stored; document.usage and .ms: its engine call

A failure is raised as it came, for the task to say what it means to its user, except two:
``RunCancelled`` (the run's cancel came before or during the engine call: nothing was read) and
``StoreFault`` (the object store failed loading or storing it, as it would for every document).
Its name (``file``) and what its engine call cost stay known after a failure; the task stores
why with ``store_failure``.
"""

from __future__ import annotations

import asyncio
import functools
import os
import time
from collections.abc import AsyncGenerator, Awaitable
from contextlib import aclosing
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from langchain_core.runnables.config import var_child_runnable_config

from core.profile import Profile
from core.reading import Record
from tools.engines import engine_named
from tools.engines.usage import Usage, metered
from tools.fanout.document_io import DocumentIO, Loaded, Read, ToStore, document_io
from tools.fanout.lanes import lanes_for
from tools.lifecycle import current_control, run_cancelled
from tools.storage.objects import is_store_fault

if TYPE_CHECKING:
    from tools.fanout.document_io import Ahead
    from tools.services import Services

T = TypeVar("T")


class RunCancelled(Exception):
    """The run was cancelled before or while this document was read."""


class StoreFault(Exception):
    """The object store failed while the document was loaded or stored (``cause``: how)."""

    def __init__(self, cause: Exception) -> None:
        super().__init__(str(cause))
        self.cause = cause


@dataclass(frozen=True)
class LongDocument:
    """The engine call of a document longer than the profile's ``long_document_pages`` starts."""

    pages: int


@dataclass(frozen=True)
class StillReading:
    """The document's engine call still goes on, ``seconds`` after its task began to wait for it."""

    seconds: int


def still_reading_seconds() -> float:
    return float(os.environ.get("KEA_STILL_READING_SECONDS", "60"))


class DocumentRead:
    """One document of ``extraction_id`` as its task reads it (with ``news()``): the name it is
    listed under (``file``: its path, or with ``qualify`` its collection and path), its records
    once stored, and what its engine call cost (``usage``, ``ms``), also when it failed."""

    def __init__(self, svc: "Services", profile: Profile, extraction_id: str, document_id: int, *, qualify: bool) -> None:
        self.profile, self.document_id, self.qualify = profile, document_id, qualify
        self.file = f"document {document_id}"  # until it is loaded
        self.records: list[Record] = []
        self._read = Read()
        self._io = document_io(svc, extraction_id, profile.scope)
        self._lanes = lanes_for(profile.name, profile.concurrency)

    @property
    def usage(self) -> Usage:
        return self._read.usage

    @property
    def subject(self) -> str | None:
        """What each row is when a table had to say it (``Reading.subject``); read after the document."""
        return self._io.reading().subject

    @property
    def ms(self) -> int:
        """Milliseconds its engine call took (estimates are made from it)."""
        return self._read.ms

    async def news(self) -> AsyncGenerator[LongDocument | StillReading, None]:
        """Read the document and store its records; what happens meanwhile, as it happens."""
        io, lanes, profile = self._io, self._lanes, self.profile
        with lanes.coming() as coming:
            # before taking a lane: the tasks of a wave load their documents together (document_io.py)
            loaded = await _store_io(io.load(self.document_id))
            document = loaded.document
            self.file = f"{document.collection}:{document.path}" if self.qualify else document.path
            if loaded.stored is not None:
                self.records = loaded.stored  # stored by an earlier attempt of this run: never read twice
                return
            # in hand: extracted or waiting to be stored, at most twice the concurrency; the rows
            # of a fast engine never pile up in memory ahead of their storage
            ahead = _read_ahead_of(loaded)
            if ahead is not None:
                self._read = ahead.read
            async with lanes.in_hand:
                if ahead is not None:  # a lane no task wanted read it ahead: the call is made, or under way
                    coming.arrived()
                    io.reading_started()  # the lanes are busy: deferred background work may go
                    async with aclosing(_watched(ahead.work)) as waited:
                        async for seconds in waited:
                            yield StillReading(seconds)
                    ahead.work.result()  # what the call made ahead raised
                else:
                    # leaving it, the lane reads the next wave's documents ahead when no task wants it
                    read_ahead = functools.partial(_read_ahead, profile, io)
                    async with lanes.lane(coming, hand_on=io.read_ahead(lanes, read_ahead, profile.concurrency)):
                        if run_cancelled():  # the run was cancelled: nothing more is read
                            raise RunCancelled()
                        io.reading_started()  # background work waiting for the lanes to be busy goes now
                        if document.page_count > profile.long_document_pages:
                            yield LongDocument(document.page_count)
                        call = _EngineCall(profile, loaded, self._read)
                        async with aclosing(_watched(call.future)) as waited:
                            async for seconds in waited:
                                yield StillReading(seconds)
                        call.outcome()
                # the lane is free already
                stored = ToStore(document, self.file, self._read.records, loaded.failed_before)
                self.records = await _store_io(io.store(stored))

    async def store_failure(self, error: str, *, settle: bool = True) -> None:
        """Store why the document has no rows (``error``, as its user reads it). Settled, the
        table's head start may add it; else it is left to the table's assembly at the end."""
        io = self._io
        await asyncio.to_thread(io.svc.rows.write_failure, io.extraction_id, self.document_id, self.file, error)
        if settle:
            io.settled(self.document_id)


async def _store_io(work: Awaitable[T]) -> T:
    """A document's load or store; the object store failing is a ``StoreFault``."""
    try:
        return await work
    except Exception as exc:
        if not is_store_fault(exc):
            raise
        raise StoreFault(exc) from exc


def _read_ahead_of(loaded: Loaded) -> "Ahead | None":
    """The call a lane made ahead for this document, unless it ended without the document's
    outcome (cut off by the cancel of an earlier run: the document is read now)."""
    ahead = loaded.ahead
    if ahead is None or (ahead.work.done() and (ahead.work.cancelled() or isinstance(ahead.work.exception(), RunCancelled))):
        return None
    return ahead


async def _read_ahead(profile: Profile, io: DocumentIO, loaded: Loaded, read: Read) -> None:
    """A document read ahead, in a task of its own: no LangGraph task's callbacks are its."""
    var_child_runnable_config.set(None)
    if run_cancelled():
        raise RunCancelled()
    io.reading_started()
    call = _EngineCall(profile, loaded, read)
    try:
        await call.future  # this task cancelled, the call is cancelled with it
    except BaseException:
        if not call.future.done():  # cancelled before it waited for the call
            call.future.cancel()
            raise
    call.outcome()


class _EngineCall:
    """One engine call, metered and timed into ``read``; a cancel of the run cuts it off (and no
    call starts once the cancel is seen)."""

    def __init__(self, profile: Profile, loaded: Loaded, read: Read) -> None:
        self.read, self.started = read, time.monotonic()
        engine = engine_named(profile.engine, profile)
        self.control = current_control()
        with metered(read.usage):  # the call's task reports its usage into read's
            if run_cancelled():
                raise RunCancelled()
            self.future = asyncio.ensure_future(engine.extract_document(loaded.document, loaded.reading))
        if self.control is not None:
            self.control.cut_off_on_cancel(self.future)

    def outcome(self) -> None:
        """Once the call is done: its records into ``read``, or what it raised (``RunCancelled``
        when the run's cancel cut it off)."""
        control = self.control
        try:
            self.read.records = self.future.result()
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if control is not None and control.cancelled and not (task and task.cancelling()):
                raise RunCancelled() from None  # the run's cancel, not this task's
            raise
        except Exception:
            if control is not None and control.cancelled:
                raise RunCancelled() from None  # what the engine raised while it was cut off
            raise
        finally:
            self.read.ms = int((time.monotonic() - self.started) * 1000)


async def _watched(work: "asyncio.Future[Any]") -> AsyncGenerator[int, None]:
    """Wait until a document's engine call is done, yielding the seconds waited every
    ``still_reading_seconds`` while it goes on. Left before then (its task cancelled), the call
    is cancelled and waited for, as a future awaited would be."""
    interval = still_reading_seconds()
    waited = 0.0
    try:
        while not work.done():
            await asyncio.wait({work}, timeout=interval)
            if not work.done():
                waited += interval
                yield int(waited)
    finally:
        if not work.done():
            work.cancel()
            await asyncio.wait({work})
            if not work.cancelled():
                work.exception()  # dropped: the document's task stops for a reason of its own
