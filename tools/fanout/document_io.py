"""The I/O of one extraction's documents, batched across its tasks.

Every document task of the fan-out (``DocumentRead`` in ``document.py``) loads one document
and stores its rows. Done one by one, each is a trip to a worker thread and a round trip to
PostgreSQL or the object store, and the tasks queue behind each other for the few worker
threads. Here the tasks that ask in the same turn of the event loop share one trip
(``batches.py``):

- ``load``: the documents' text in three queries for up to ``BATCH`` documents, checked against
  the asking user's scope (the next wave's are fetched while a wave is read: ``prefetch``); with each, whether this extraction holds its rows already (a run
  resumed after a crash: such a document is never sent to the engine a second time). A long
  document (more than ``LONG_PAGES`` pages) is read alone, when its task gets to it, so a batch
  never holds many long texts at once.
- ``store``: each document's records verified against its text (a row whose evidence is not
  found is kept, marked unsure) and written whole (a retried task overwrites, never duplicates).
- ``wave_begins``: from the second wave on, the table is assembled in the background up to each
  document soon after its outcome is stored.
- ``read_ahead``: a lane no task wants reads the next loaded document ahead (``lanes.py``);
  its task finds the call made, or under way, when it loads the document.

One ``DocumentIO`` per event loop, extraction and scope, kept while its runs go on (the last 32):
what it holds is the extraction's reading, which never changes once its documents are read,
documents loaded or read ahead for tasks still to come, and the table's head start.
"""

from __future__ import annotations

import asyncio
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Collection, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from core.reading import DocumentText, Reading, Record
from core.selection import Scope
from tools.engines.grounding import verify_evidence
from tools.engines.reasons import explain_no_rows
from tools.engines.usage import Usage
from tools.fanout.batches import TickBatch
from tools.knowledge.errors import DocumentNotFound
from tools.storage.review import PageIndex

if TYPE_CHECKING:
    from tools.fanout.lanes import HandOn, Lanes
    from tools.services import Services
    from tools.storage.assembly import Ahead as TableAhead

BATCH = 64
LONG_PAGES = 50  # a longer document is read when its task needs it, never ahead in a batch
KEPT = 32  # DocumentIOs kept per event loop (runs at once in one process)


@dataclass
class Read:
    """One document's engine call, filled in as it goes: what it cost, its records, how long it took."""

    usage: Usage = field(default_factory=Usage)
    records: list[Record] = field(default_factory=list)
    ms: int = 0


@dataclass
class Ahead:
    """A document read ahead on a lane no task wanted: the call (done or under way) and its Read."""

    work: "asyncio.Future[None]"
    read: Read


@dataclass
class Loaded:
    """One document as its task gets it: its text and, when this extraction stored it already, its
    rows; or when a lane read it ahead, that call."""

    document: DocumentText
    reading: Reading  # the extraction's confirmed reading
    stored: list[Record] | None = None
    ahead: Ahead | None = None
    failed_before: bool = True  # an earlier attempt's failure may be stored (False: looked, there is none)


@dataclass
class ToStore:
    document: DocumentText
    file: str
    records: list[Record]
    failed_before: bool = True  # as loaded: whether an earlier attempt's failure may be stored


class DocumentIO:
    def __init__(self, svc: "Services", extraction_id: str, scope: Scope) -> None:
        self.svc, self.extraction_id, self.scope = svc, extraction_id, scope
        self._loads: TickBatch[int, Loaded | None] = TickBatch(self._load_many, BATCH)
        self._stores: TickBatch[int, list[Record]] = TickBatch(self._store_many, BATCH)
        self._pending: dict[int, ToStore] = {}
        self._prefetched: dict[int, asyncio.Future[dict[int, Loaded | None | BaseException]]] = {}
        self._deferred: list[Callable[[], None]] = []
        self._ahead: dict[int, Loaded] = {}
        self._reader: "tuple[Lanes, HandOn] | None" = None  # the lanes and hand-on of the last lane used
        self._table: TableAhead | None = None  # the table assembled in the background, when it is
        self._final: set[int] = set()  # documents final since this wave began (the set only grows; a wave starts a new one)
        self._advancing = False
        self._taken: set[int] = set()  # documents a task has asked for since this wave began

    def reading(self) -> Reading:
        """The extraction's reading (read from the store once: RowStore.reading is cached)."""
        return self.svc.rows.reading(self.extraction_id)

    def once_reading(self, work: Callable[[], None]) -> None:
        """Run ``work`` (background work: the next wave's prefetch, the table's head start) once
        the next engine call has started, not while a wave is being handed over to the next."""
        self._deferred.append(work)

    def reading_started(self) -> None:
        """An engine call starts: deferred background work may go now."""
        while self._deferred:
            self._deferred.pop(0)()

    def wave_begins(self, table: "TableAhead", finished: Collection[int]) -> None:
        """A wave of the run begins (``next_wave``), with the ``finished`` documents of the waves
        before it final. Once the next engine call has started, they are added to the table in
        the background (``tools/storage/assembly.py``), and each document of this wave soon
        after its outcome is stored. What earlier runs of the extraction in this process (a
        replayed wave) settled or asked for counts no more.

        Background work still waiting for an engine call (none started in the wave before: its
        documents were all stored or read ahead) goes now, before this wave's tasks load: a
        prefetch never lands after the tasks it was for."""
        self.reading_started()
        self._table = table
        self._final = set(finished)  # a new set: the one earlier background steps hold is left as it was
        self._taken = set()
        self.once_reading(self._advance)

    def _advance(self) -> None:
        self._advancing = False
        if self._table is not None:
            self._table.advance_soon(self._final)

    def prefetch(self, ids: Sequence[int]) -> None:
        """Load these documents in the background now (the next wave's, while this one is read):
        their tasks find them loaded. Returns at once; a failed prefetch is only a miss."""
        wanted = [i for i in dict.fromkeys(ids) if i not in self._prefetched and i not in self._taken]
        for start in range(0, len(wanted), BATCH):
            chunk = wanted[start : start + BATCH]
            work = asyncio.ensure_future(asyncio.to_thread(self._load_many, chunk))
            for document_id in chunk:
                self._prefetched[document_id] = work
            work.add_done_callback(self._arrived)

    def read_ahead(self, lanes: "Lanes", start: Callable[[Loaded, Read], Awaitable[None]], limit: int) -> "HandOn":
        """What a lane of ``lanes`` no task wants does (``Lanes.hand_on``): take the next
        prefetched document not stored yet and read it with ``start`` there, while fewer than
        ``limit`` of this extraction's documents wait read ahead; the lane is handed on again when
        it is done. Documents prefetched later take the lanes standing idle by then."""

        def hand_on(lanes: "Lanes") -> bool:
            picked = self._next_ahead(limit)
            if picked is None:
                return False
            read = Read()

            def done(work: "asyncio.Future[None]") -> None:
                # on again when it read its document; a failed or cancelled one (a run stopping) gives the lane back
                lanes.hand_on(hand_on if not work.cancelled() and work.exception() is None else None)

            work = asyncio.get_running_loop().create_task(start(picked, read))
            work.add_done_callback(done)  # even when cancelled before it ever ran
            self._ahead[picked.document.id] = replace(picked, ahead=Ahead(work, read))
            return True

        self._reader = (lanes, hand_on)
        return hand_on

    def _arrived(self, work: "asyncio.Future[Any]") -> None:
        """Prefetched documents are in hand: lanes standing idle read them ahead."""
        _retrieved(work)
        if self._reader is not None and not work.cancelled() and work.exception() is None:
            lanes, hand_on = self._reader
            lanes.fill(hand_on)

    def _next_ahead(self, limit: int) -> Loaded | None:
        """The first prefetched document loaded and not stored, taken off the prefetched ones."""
        if len(self._ahead) >= limit:
            return None
        for document_id, work in self._prefetched.items():
            if not work.done():
                return None  # loaded in order: the ones after are not in hand either
            if work.cancelled() or work.exception() is not None:
                continue
            loaded = work.result().get(document_id)
            if isinstance(loaded, Loaded) and loaded.stored is None:
                del self._prefetched[document_id]
                return loaded
        return None

    async def load(self, document_id: int) -> Loaded:
        """The document (``DocumentNotFound`` when it is not in scope, or no longer exists)."""
        self._taken.add(document_id)  # never loaded again ahead of its task, nor read ahead
        read_ahead = self._ahead.pop(document_id, None)
        if read_ahead is not None:
            return read_ahead
        ahead = self._prefetched.pop(document_id, None)
        loaded: Loaded | None | BaseException
        if ahead is not None and not (ahead.done() and (ahead.cancelled() or ahead.exception() is not None)):
            # shared by a batch: shielded from this task's cancel; mostly loaded already, and taken at once
            batch = ahead.result() if ahead.done() else await asyncio.shield(ahead)
            loaded = batch.get(document_id, _not_found(document_id))
            if isinstance(loaded, BaseException):
                raise loaded
        else:
            loaded = await self._loads.get(document_id)
        if loaded is None:  # a long one: read alone, now that its task needs it
            loaded = await asyncio.to_thread(self._load_one, document_id)
        return loaded

    async def store(self, item: ToStore) -> list[Record]:
        """Store one document's records (in a worker thread, with others); the records as stored."""
        self._pending[item.document.id] = item
        try:
            stored = await self._stores.get(item.document.id)
        finally:
            self._pending.pop(item.document.id, None)
        self.settled(item.document.id)
        return stored

    def settled(self, document_id: int) -> None:
        """The document's outcome (its rows, or why it has none) is stored for good: the table's
        head start may add it."""
        self._final.add(document_id)
        if self._table is not None and not self._advancing:  # once for the documents settled in this turn
            self._advancing = True
            asyncio.get_running_loop().call_soon(self._advance)

    # -- in a worker thread ------------------------------------------------------------------

    def _load_many(self, ids: Sequence[int]) -> dict[int, Loaded | None | BaseException]:
        found = self.svc.kb.read_documents(self.scope, ids, longer_than=LONG_PAGES)
        loaded = [i for i in ids if found.get(i) is not None]
        failed = self.svc.rows.failed(self.extraction_id, loaded)
        stored = self.svc.rows.stored_rows(self.extraction_id, loaded, failed)
        reading = self.reading()
        answers: dict[int, Loaded | None | BaseException] = {}
        for document_id in ids:
            if document_id not in found:
                answers[document_id] = _not_found(document_id)
                continue
            document = found[document_id]
            answers[document_id] = (
                None if document is None else Loaded(document, reading, stored.get(document_id), failed_before=document_id in failed)
            )
        return answers

    def _load_one(self, document_id: int) -> Loaded:
        document = self.svc.kb.read_document(self.scope, document_id)
        failed = self.svc.rows.failed(self.extraction_id, [document_id])
        stored = self.svc.rows.stored_rows(self.extraction_id, [document_id], failed)
        return Loaded(document, self.reading(), stored.get(document_id), failed_before=document_id in failed)

    def _store_many(self, ids: Sequence[int]) -> dict[int, list[Record] | BaseException]:
        reading = self.reading()
        answers: dict[int, list[Record] | BaseException] = {}
        for document_id in ids:
            try:
                answers[document_id] = self._store_one(self._pending[document_id], reading)
            except Exception as exc:  # noqa: BLE001 — one document's failure is its task's alone
                answers[document_id] = exc
        return answers

    def _store_one(self, item: ToStore, reading: Reading) -> list[Record]:
        """Verify each record's evidence and note where it stands on its page, then store the
        document's records whole (or why it has none)."""
        document = item.document
        index = PageIndex(document.pages)
        records = [r.model_copy(update={"source": index.context(r.page, r.evidence)}) for r in verify_evidence(item.records, document)]
        why = None if records else explain_no_rows(document, reading).model_dump()
        self.svc.rows.write(
            self.extraction_id, document.id, item.file, records, no_rows=why, notes=document.notes, failed_before=item.failed_before
        )
        return records


def _retrieved(work: "asyncio.Future[Any]") -> None:
    """A prefetch nobody awaited keeps its failure to itself (its tasks load afresh)."""
    if not work.cancelled():
        work.exception()


def _not_found(document_id: int) -> DocumentNotFound:
    return DocumentNotFound(f"Document {document_id} is not in your scope or does not exist.")


_kept: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, OrderedDict[tuple[int, str], DocumentIO]]" = (
    weakref.WeakKeyDictionary()
)


def document_io(svc: "Services", extraction_id: str, scope: Scope) -> DocumentIO:
    """The batched I/O of ``extraction_id``'s documents read in ``scope``, on this event loop."""
    per_loop = _kept.setdefault(asyncio.get_running_loop(), OrderedDict())
    key = (id(svc), extraction_id)
    io = per_loop.get(key)
    if io is None or io.svc is not svc or io.scope != scope:
        io = per_loop[key] = DocumentIO(svc, extraction_id, scope)
        while len(per_loop) > KEPT:
            per_loop.popitem(last=False)
    per_loop.move_to_end(key)
    return io

