"""The fan-out in waves: every document read exactly once, in ranked order, never more than a
wave pending at once; a task run again (a resumed or replayed run) reads no document twice and
stores no row twice."""

from __future__ import annotations

import asyncio
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

from checkpoints.saver import postgres_checkpointer
from evals.tables import rows_from_csv
from graph.extraction import build_extraction_graph
from core.profile import Profile
from tools.engines import register_engine
from tools.engines.offline import OfflineEngine
from tools.knowledge.ingest import ingest
from core.selection import Scope
from tools.storage.assembly import assemble_table
from tools.storage.rows import output_key, table_key

DOCUMENTS = 23
WAVE = 5
# how long a test waits for an event before it calls the run stuck: a bound against a hang, never a
# measure of speed (every wait below ends on its event as soon as the run gets there)
HANG_GUARD = 120


class _Counting(OfflineEngine):
    """The offline engine, counting the documents it is asked to read and how many at once."""

    name = "counting"
    calls: Counter[str] = Counter()
    running = 0
    most_at_once = 0

    async def extract_document(self, document, reading):  # type: ignore[no-untyped-def]
        cls = type(self)
        cls.calls[document.path] += 1
        cls.running += 1
        cls.most_at_once = max(cls.most_at_once, cls.running)
        try:
            await asyncio.sleep(0.01)
            return await super().extract_document(document, reading)
        finally:
            cls.running -= 1


def _notes(folder: Path) -> list[str]:
    folder.mkdir(parents=True)
    paths = []
    for i in range(DOCUMENTS):
        (folder / f"note-{i:02d}.txt").write_text(f"Code: C{i:02d}\nName: Part {i}\nAmount: {i}.50\n", encoding="utf-8")
        paths.append(f"note-{i:02d}.txt")
    return paths


def _stored(svc: Any, extraction_id: str, name: str) -> bytes:
    with svc.objects.open(output_key(extraction_id, name)) as handle:
        return handle.read()


def _profile(collection: str) -> Profile:
    return Profile(collections=[collection], engine="counting", wave=WAVE, concurrency=3)


async def _run(graph: Any, profile: Profile, config: dict[str, Any]) -> None:
    await graph.ainvoke({"message": "All rows with code, name and amount", "confirm": "auto"}, config, context=profile)


def _collection(svc: Any, tmp_path: Path, name: str) -> list[str]:
    """The notes ingested as the collection ``name``; their paths."""
    paths = _notes(tmp_path / name)
    assert len(ingest(svc.kb, [tmp_path / name], name, embed=False).indexed) == DOCUMENTS
    return paths


async def _extract(profile: Profile) -> dict[str, Any]:
    """The request run to its end over the profile's collection, on a thread of its own: its final values."""
    config = {"configurable": {"thread_id": uuid.uuid4().hex}}
    async with postgres_checkpointer() as saver:
        graph = build_extraction_graph(saver)
        await _run(graph, profile, config)
        return dict((await graph.aget_state(config)).values)


async def test_every_document_is_read_once_a_wave_at_a_time(svc, tmp_path) -> None:  # type: ignore[no-untyped-def]
    register_engine("counting", _Counting)
    _Counting.calls.clear()
    paths = _notes(tmp_path / "notes")
    assert len(ingest(svc.kb, [tmp_path / "notes"], "notes", embed=False).indexed) == DOCUMENTS
    thread = uuid.uuid4().hex
    config = {"configurable": {"thread_id": thread}}
    async with postgres_checkpointer() as saver:
        graph = build_extraction_graph(saver)
        await _run(graph, _profile("notes"), config)
        values = (await graph.aget_state(config)).values
        history = [s async for s in graph.aget_state_history(config)]

    answer = values["answer"]
    assert answer["status"] == "done" and answer["summary"]["extracted"] == DOCUMENTS
    assert sorted(_Counting.calls) == sorted(paths) and set(_Counting.calls.values()) == {1}
    assert _Counting.most_at_once <= 3  # the profile's concurrency holds across waves
    with svc.objects.open(table_key(answer["extraction_id"])) as handle:
        _, rows = rows_from_csv(handle.read())
    files = [row["file"] for row in rows]
    assert len(rows) == DOCUMENTS and sorted(files) == sorted(paths)
    path_of = {d.id: d.path for d in svc.kb.resolve(Scope(collections=["notes"])).documents}
    assert files == [path_of[i] for i in values["document_ids"]]  # the table follows the order they were sent in

    # assembled while the waves ran, the table is the one assembled in one go at the end, byte for byte
    outputs = {name: _stored(svc, answer["extraction_id"], name) for name in ("table.csv", "review.html")}
    await asyncio.to_thread(assemble_table, svc, answer["extraction_id"], values["document_ids"], values["summary"])
    assert {name: _stored(svc, answer["extraction_id"], name) for name in outputs} == outputs

    # no step had more than a wave of documents pending: ceil(23 / 5) = 5 waves of at most 5
    pending = [n for n in (sum(t.name == "extract_document" for t in s.tasks) for s in history) if n]
    assert pending and max(pending) <= WAVE
    assert sum(pending) == DOCUMENTS and len(pending) == -(-DOCUMENTS // WAVE)


async def test_a_replayed_wave_reads_no_document_twice_and_stores_no_row_twice(svc, tmp_path) -> None:  # type: ignore[no-untyped-def]
    register_engine("counting", _Counting)
    _Counting.calls.clear()
    _notes(tmp_path / "replay")
    ingest(svc.kb, [tmp_path / "replay"], "replay", embed=False)
    thread = uuid.uuid4().hex
    config = {"configurable": {"thread_id": thread}}
    async with postgres_checkpointer() as saver:
        graph = build_extraction_graph(saver)
        await _run(graph, _profile("replay"), config)
        first = (await graph.aget_state(config)).values["answer"]
        # the checkpoint at which the third wave was about to run: its tasks run again from there,
        # as after a crash; their documents' rows are stored already
        waves = [
            s async for s in graph.aget_state_history(config)
            if any(t.name == "extract_document" for t in s.tasks)
        ]
        third = sorted(waves, key=lambda s: s.created_at)[2]
        calls_before = sum(_Counting.calls.values())
        async for _ in graph.astream(None, third.config, context=_profile("replay")):
            pass
        again = (await graph.aget_state(config)).values["answer"]

    assert sum(_Counting.calls.values()) == calls_before == DOCUMENTS  # no document went to the engine twice
    assert again["summary"]["rows"] == first["summary"]["rows"] == DOCUMENTS
    with svc.objects.open(table_key(again["extraction_id"])) as handle:
        replayed = handle.read()
    with svc.objects.open(table_key(first["extraction_id"])) as handle:
        assert replayed == handle.read()  # the same table, byte for byte


class _SlowFirst(OfflineEngine):
    """The first document asked for takes until a document of the next wave has started."""

    name = "slow-first"
    calls: Counter[str] = Counter()
    order: list[str] = []
    running = 0
    most_at_once = 0
    waited_out = False
    next_wave = asyncio.Event()

    async def extract_document(self, document, reading):  # type: ignore[no-untyped-def]
        cls = type(self)
        cls.calls[document.path] += 1
        cls.order.append(document.path)
        if len(cls.order) > WAVE:
            cls.next_wave.set()
        cls.running += 1
        cls.most_at_once = max(cls.most_at_once, cls.running)
        try:
            if len(cls.order) == 1:
                try:
                    await asyncio.wait_for(cls.next_wave.wait(), HANG_GUARD)
                except TimeoutError:
                    cls.waited_out = True
            else:
                await asyncio.sleep(0.01)
            return await super().extract_document(document, reading)
        finally:
            cls.running -= 1


async def test_a_slow_document_does_not_idle_the_lanes_the_next_wave_is_read_beside_it(svc, tmp_path) -> None:  # type: ignore[no-untyped-def]
    register_engine("slow-first", _SlowFirst)
    _SlowFirst.calls.clear()
    _SlowFirst.order.clear()
    _SlowFirst.next_wave = asyncio.Event()
    paths = _collection(svc, tmp_path, "tail")
    values = await _extract(Profile(collections=["tail"], engine="slow-first", wave=WAVE, concurrency=3))

    # while the first wave's slowest document was read, the lanes it left free read the next wave's
    assert not _SlowFirst.waited_out
    assert _SlowFirst.most_at_once == 3  # and never more than the profile's concurrency
    assert sorted(_SlowFirst.calls) == sorted(paths) and set(_SlowFirst.calls.values()) == {1}
    answer = values["answer"]
    assert answer["summary"]["extracted"] == DOCUMENTS
    with svc.objects.open(table_key(answer["extraction_id"])) as handle:
        _, rows = rows_from_csv(handle.read())
    path_of = {d.id: d.path for d in svc.kb.resolve(Scope(collections=["tail"])).documents}
    assert [row["file"] for row in rows] == [path_of[i] for i in values["document_ids"]]  # table order as sent


class _HangsButFour(OfflineEngine):
    """The first document asked for, and every one after the first wave's, waits until it is cancelled."""

    name = "hangs-but-four"
    started: list[str] = []
    cancelled: list[str] = []
    seventh = asyncio.Event()  # set when the seventh document starts: three lanes are busy

    async def extract_document(self, document, reading):  # type: ignore[no-untyped-def]
        cls = type(self)
        cls.started.append(document.path)
        if len(cls.started) > 6:
            cls.seventh.set()
        if 1 < len(cls.started) <= WAVE:
            return await super().extract_document(document, reading)
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            cls.cancelled.append(document.path)
            raise
        raise AssertionError("never reached")


async def test_a_cancel_cuts_off_the_documents_read_ahead_and_starts_no_other(svc, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from checkpoints.runs import RunRecords
    from tools.lifecycle import durable_run
    from nodes.cancelled import NOT_READ

    register_engine("hangs-but-four", _HangsButFour)
    _HangsButFour.started.clear()
    _HangsButFour.cancelled.clear()
    _HangsButFour.seventh = asyncio.Event()
    _collection(svc, tmp_path, "cut")
    thread = uuid.uuid4().hex
    config = {"configurable": {"thread_id": thread}}
    profile = Profile(collections=["cut"], engine="hangs-but-four", wave=WAVE, concurrency=3)
    async with postgres_checkpointer() as saver:
        graph = build_extraction_graph(saver)
        async with durable_run(RunRecords(svc.database_url), thread, user="local", profile="default", origin="cli") as control:
            run = asyncio.create_task(_run(graph, profile, config))
            # three lanes busy: the first wave's hanging document and two of the next wave's, read ahead
            # waits on the event; the bound only keeps a broken run from hanging the suite
            await asyncio.wait_for(_HangsButFour.seventh.wait(), HANG_GUARD)
            control.cancel()
            await asyncio.wait_for(run, HANG_GUARD)
        values = (await graph.aget_state(config)).values

    assert len(_HangsButFour.started) == 7  # no call started once the cancel was seen
    assert sorted(_HangsButFour.cancelled) == sorted([_HangsButFour.started[0], *_HangsButFour.started[5:]])
    summary = values["answer"]["summary"]
    assert summary["extracted"] == 4 and summary["rows"] == 4
    failed = summary["failed"]
    assert len(failed) == DOCUMENTS - 4 and {f["error"] for f in failed} == {NOT_READ}
    assert _HangsButFour.started[0] in {f["file"] for f in failed}


async def test_waves_no_larger_than_the_lanes_are_read_ahead_whole_and_each_document_once(svc, tmp_path) -> None:  # type: ignore[no-untyped-def]
    register_engine("counting", _Counting)
    _Counting.calls.clear()
    paths = _collection(svc, tmp_path, "small-waves")
    answer = (await _extract(Profile(collections=["small-waves"], engine="counting", wave=2, concurrency=3)))["answer"]

    assert sorted(_Counting.calls) == sorted(paths) and set(_Counting.calls.values()) == {1}
    assert answer["summary"]["extracted"] == DOCUMENTS and answer["summary"]["rows"] == DOCUMENTS


class _FailsTwo(OfflineEngine):
    """The offline engine, failing on two documents."""

    name = "fails-two"
    failing = {"note-03.txt", "note-12.txt"}

    async def extract_document(self, document, reading):  # type: ignore[no-untyped-def]
        from tools.engines import ExtractionError

        await asyncio.sleep(0.005)
        if document.path in self.failing:
            raise ExtractionError(f"the model refused {document.path}")
        return await super().extract_document(document, reading)


async def test_failed_documents_are_listed_and_the_table_assembled_across_waves_is_the_whole_one(svc, tmp_path) -> None:  # type: ignore[no-untyped-def]
    register_engine("fails-two", _FailsTwo)
    _collection(svc, tmp_path, "failing")
    values = await _extract(Profile(collections=["failing"], engine="fails-two", wave=WAVE, concurrency=3))

    summary = values["answer"]["summary"]
    assert summary["extracted"] == DOCUMENTS - 2 and summary["rows"] == DOCUMENTS - 2
    assert sorted(f["file"] for f in summary["failed"]) == sorted(_FailsTwo.failing)
    outputs = {name: _stored(svc, values["extraction_id"], name) for name in ("table.csv", "review.html", "summary.json")}
    await asyncio.to_thread(assemble_table, svc, values["extraction_id"], values["document_ids"], values["summary"])
    assert {name: _stored(svc, values["extraction_id"], name) for name in outputs} == outputs


class _FailsOnce(OfflineEngine):
    """The offline engine, failing on one document the first time it is asked for it."""

    name = "fails-once"
    asked: Counter[str] = Counter()

    async def extract_document(self, document, reading):  # type: ignore[no-untyped-def]
        from tools.engines import ExtractionError

        type(self).asked[document.path] += 1
        if document.path == "note-07.txt" and type(self).asked[document.path] == 1:
            raise ExtractionError("the model timed out")
        return await super().extract_document(document, reading)


async def test_a_document_that_failed_and_is_read_again_gives_its_rows_not_its_old_failure(svc, tmp_path) -> None:  # type: ignore[no-untyped-def]
    register_engine("fails-once", _FailsOnce)
    _FailsOnce.asked.clear()
    _collection(svc, tmp_path, "again")
    config = {"configurable": {"thread_id": uuid.uuid4().hex}}
    profile = Profile(collections=["again"], engine="fails-once", wave=WAVE, concurrency=3)
    async with postgres_checkpointer() as saver:
        graph = build_extraction_graph(saver)
        await _run(graph, profile, config)
        first = (await graph.aget_state(config)).values["answer"]
        assert [f["file"] for f in first["summary"]["failed"]] == ["note-07.txt"]
        # every wave run again from its checkpoint, as after a crash: only the failed document is read again
        waves = [s async for s in graph.aget_state_history(config) if any(t.name == "extract_document" for t in s.tasks)]
        async for _ in graph.astream(None, min(waves, key=lambda s: s.created_at).config, context=profile):
            pass
        again = (await graph.aget_state(config)).values["answer"]

    assert _FailsOnce.asked["note-07.txt"] == 2 and set(_FailsOnce.asked.values()) == {1, 2}
    assert sum(_FailsOnce.asked.values()) == DOCUMENTS + 1
    assert again["summary"]["failed"] == [] and again["summary"]["rows"] == DOCUMENTS
