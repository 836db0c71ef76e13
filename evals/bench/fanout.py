"""Benchmark: fan-out of the extraction graph against the physical limit and bare LangGraph.

    python -m evals.bench.fanout [--documents 100 1000] [--latency-ms 50] [--concurrency 16] [--cost-documents 1000 5000]

N tiny documents are ingested (not timed); an engine that waits L per document and returns a
few records is registered; the real graph runs over them on the Postgres checkpointer with
the profile's concurrency C. References, in the same process on the same engine and saver:

* the physical limit ceil(N / C) · L — what C slots of L each cannot beat;
* ``asyncio.gather`` of the same engine calls behind a semaphore of C;
* LangGraph alone, two ways: one Send per document all at once, and in waves the way Kea
  dispatches (plan → Send × wave → a node that sends the next wave; the first wave twice the
  concurrency), each to a node that only calls the engine behind the same semaphore.

Kea's figure is its whole run less the time spent ranking the scope and choosing the sample
(measured apart: ``evals/bench/ranking.py``, ``python -m evals.sample``); the whole run is
reported beside it. Also measured: how idle the C lanes stand during the fan-out and between
its waves; the cost per document with L = 0 at the cost sizes (flat, not rising, is the goal);
the largest checkpoint value and stream event at those sizes (at most 64 KB); a wave replayed
from its checkpoint (as after a crash) sending no document to the engine again and storing no
row twice; one run at 5 L; and one run with its CPU counted, step by step.
"""

from __future__ import annotations

import asyncio
import math
import operator
import threading
import time
import uuid
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated, Any, TypedDict

from evals.bench.common import (
    ROW_MESSAGE,
    FixedEngine,
    best_of,
    checkpoint_bytes,
    command_line,
    ingest_tiny_documents,
    isolated_home,
    machine,
    save_and_show,
    stream_extraction,
    use_fixed_engine,
)

RUNS = 3
COST_RUNS = 2  # the L = 0 runs (best of): one alone varies by a fifth on a shared machine
RECORDS = 3  # records per document: a few, as a small invoice gives
TARGET = 1.10  # Kea / limit at the largest N
TARGET_SMALL = 1.3  # Kea / limit at 100 documents
TARGET_BARE = 1.05  # Kea / LangGraph alone in the same waves
LARGEST_VALUE = 64 * 1024
LONGER_WAIT = 5  # one more run at 5 L shows how the overhead shrinks as the engine slows


@contextmanager
def _ranking_and_sample_timed() -> Iterator[list[float]]:
    """Wall seconds of every ranking of the scope and every choice of a sample during the block
    (the nodes call them by module attribute)."""
    import nodes.resolve_scope
    import nodes.sample

    spent: list[float] = []
    originals = (nodes.resolve_scope.rank, nodes.sample.choose_sample)

    def timed(func: Any) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return func(*args, **kwargs)
            finally:
                spent.append(time.perf_counter() - start)

        return call

    nodes.resolve_scope.rank, nodes.sample.choose_sample = timed(originals[0]), timed(originals[1])
    try:
        yield spent
    finally:
        nodes.resolve_scope.rank, nodes.sample.choose_sample = originals


def _profile(collection: str, n: int, concurrency: int, engine: str) -> Any:
    from core.profile import Profile

    return Profile(
        name=f"bench-{concurrency}", collections=[collection], engine=engine, concurrency=concurrency,
        max_documents_total=max(n, 1000),
    )


async def _graph_run(collection: str, n: int, latency: float, concurrency: int, saver: str = "postgres") -> dict[str, Any]:
    """One run of the real graph: its times, its lanes' use, its largest checkpoint value and event."""
    from langgraph.checkpoint.memory import InMemorySaver

    from checkpoints.saver import postgres_checkpointer
    from graph.extraction import build_extraction_graph
    from tools.services import services

    timeline: list[tuple[float, float]] = []
    profile = _profile(collection, n, concurrency, use_fixed_engine(latency, RECORDS, timeline))
    thread = uuid.uuid4().hex
    with _ranking_and_sample_timed() as ranking:
        if saver == "postgres":
            async with postgres_checkpointer() as checkpointer:
                run = await stream_extraction(build_extraction_graph(checkpointer), ROW_MESSAGE, profile, thread)
        else:
            run = await stream_extraction(build_extraction_graph(InMemorySaver()), ROW_MESSAGE, profile, thread)
    summary = run.answer.get("summary") or {}
    if summary.get("extracted") != n or summary.get("rows") != n * RECORDS:
        raise RuntimeError(f"the graph read {summary.get('extracted')} of {n} documents: {run.answer.get('message')}")
    aside = sum(ranking)
    fanout_start = run.last_done.get("sample", run.last_done.get("plan", 0.0))
    last_document = run.last_done.get("extract_document", fanout_start)
    result = {
        "seconds": run.seconds - aside,
        "whole_run_seconds": run.seconds,
        "ranking_and_sample_seconds": aside,
        "before_fanout": fanout_start - aside,
        "fanout": last_document - fanout_start,
        "after_fanout": run.seconds - last_document,
        "largest_event": run.largest_event,
        "lanes": _lanes(timeline, run, concurrency),
        "thread": thread,
    }
    if saver == "postgres":
        stored = checkpoint_bytes(services().database_url, thread)
        result["largest_value"] = stored["largest_value"]
        result["checkpoint_bytes_per_document"] = round(stored["total"] / n)
    return result


def _lanes(timeline: list[tuple[float, float]], run: Any, concurrency: int) -> dict[str, Any]:
    """How busy the C lanes were during the fan-out, wave by wave: the share of lane time no
    engine call used, and the hand-over between waves (every lane idle)."""
    if not timeline:
        return {}
    calls = sorted((start - run.started, end - run.started) for start, end in timeline)
    ends = run.done.get("next_wave", [])
    waves, begin = [], calls[0][0]
    for end in ends:
        inside = [c for c in calls if begin <= c[0] < end]
        if not inside:
            continue
        busy = sum(min(e, end) - s for s, e in inside)
        following = next((s for s, _ in calls if s >= end), None)
        waves.append(
            {
                "documents": len(inside),
                "seconds": round(end - begin, 4),
                "lanes_idle_share": round(1 - busy / (concurrency * (end - begin)), 4),
                "handover_ms": round(1000 * ((following if following is not None else end) - max(e for _, e in inside)), 2),
            }
        )
        begin = following if following is not None else end
    window = max(e for _, e in calls) - calls[0][0]
    busy = sum(e - s for s, e in calls)
    return {"lanes_idle_share": round(1 - busy / (concurrency * window), 4), "waves": waves}


def _best_graph(collection: str, n: int, latency: float, concurrency: int, runs: int, saver: str = "postgres") -> dict[str, Any]:
    """The fastest of ``runs`` graph runs (noise only adds time)."""
    results = [asyncio.run(_graph_run(collection, n, latency, concurrency, saver)) for _ in range(runs)]
    return min(results, key=lambda r: r["seconds"])


def _gather_seconds(documents: list[Any], reading: Any, latency: float, concurrency: int) -> float:
    """The same engine calls with nothing around them but a semaphore and ``asyncio.gather``."""
    engine = FixedEngine(latency, RECORDS)

    async def all_documents() -> None:
        slots = asyncio.Semaphore(concurrency)

        async def one(document: Any) -> list[Any]:
            async with slots:
                return await engine.extract_document(document, reading)

        await asyncio.gather(*(one(d) for d in documents))

    seconds, _ = best_of(RUNS, lambda: asyncio.run(all_documents()))
    return seconds


class _BareState(TypedDict):
    done: Annotated[int, operator.add]
    start: int


def _bare_send_seconds(
    documents: list[Any], reading: Any, latency: float, concurrency: int, wave: int | None, runs: int = RUNS,
    saver: str = "postgres",
) -> float:
    """LangGraph alone: a Send per document to a node that only calls the engine — all at once
    (``wave`` None) or in waves of ``wave`` the way Kea dispatches them.

    No document read, no rows stored, no progress events: the difference to Kea's graph is
    what Kea's nodes do around the engine call.
    """
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.graph import START, StateGraph
    from langgraph.types import Send

    from checkpoints.saver import postgres_checkpointer
    from core.profile import Profile
    from nodes.plan import first_wave_size

    engine = FixedEngine(latency, RECORDS)
    size = wave or len(documents)
    first = first_wave_size(Profile(wave=size, concurrency=concurrency))  # the first wave as Kea sends it

    async def once() -> float:
        slots = asyncio.Semaphore(concurrency)

        async def one(sent: dict[str, int]) -> dict[str, int]:
            async with slots:
                await engine.extract_document(documents[sent["i"]], reading)
            return {"done": 1}

        def dispatch(state: _BareState) -> Any:
            end = state["start"] + (first if state["start"] == 0 else size)
            sends = [Send("one", {"i": i}) for i in range(state["start"], min(end, len(documents)))]
            return sends or "__end__"

        builder = StateGraph(_BareState)
        builder.add_node("plan", lambda state: {"start": 0})
        builder.add_node("one", one)
        builder.add_node("next", lambda state: {"start": state["start"] + (first if state["start"] == 0 else size)})
        builder.add_edge(START, "plan")
        builder.add_conditional_edges("plan", dispatch, ["one", "__end__"])
        builder.add_edge("one", "next")
        builder.add_conditional_edges("next", dispatch, ["one", "__end__"])
        config = {"configurable": {"thread_id": uuid.uuid4().hex}}

        async def timed(graph: Any) -> float:
            # timed like Kea's graph: the saver is open and the graph built before the clock starts
            start = time.perf_counter()
            result = await graph.ainvoke({"done": 0, "start": 0}, config)
            assert result["done"] == len(documents)
            return time.perf_counter() - start

        if saver == "postgres":
            async with postgres_checkpointer() as checkpointer:
                return await timed(builder.compile(checkpointer=checkpointer))
        return await timed(builder.compile(checkpointer=InMemorySaver()))

    return min(asyncio.run(once()) for _ in range(runs))


async def _replay_a_wave(collection: str, n: int, concurrency: int) -> dict[str, Any]:
    """Run to the end, then run the last wave again from its checkpoint, as after a crash: no
    document goes to the engine again and the table is the same, byte for byte."""
    from checkpoints.saver import postgres_checkpointer
    from graph.extraction import build_extraction_graph
    from tools.services import services
    from tools.storage.rows import table_key

    timeline: list[tuple[float, float]] = []
    profile = _profile(collection, n, concurrency, use_fixed_engine(0.0, RECORDS, timeline))
    config = {"configurable": {"thread_id": uuid.uuid4().hex}}
    objects = services().objects
    async with postgres_checkpointer() as checkpointer:
        graph = build_extraction_graph(checkpointer)
        await graph.ainvoke({"message": ROW_MESSAGE, "confirm": "auto"}, config, context=profile)
        first = (await graph.aget_state(config)).values["answer"]
        waves = [s async for s in graph.aget_state_history(config) if any(t.name == "extract_document" for t in s.tasks)]
        last = max(waves, key=lambda s: s.created_at)
        sent = sum(t.name == "extract_document" for t in last.tasks)
        calls = len(timeline)
        await graph.ainvoke(None, last.config, context=profile)
        again = (await graph.aget_state(config)).values["answer"]
    with objects.open(table_key(first["extraction_id"])) as a, objects.open(table_key(again["extraction_id"])) as b:
        identical = a.read() == b.read()
    return {
        "documents": n,
        "replayed_tasks": sent,
        "engine_calls_in_replay": len(timeline) - calls,
        "rows_before": first["summary"]["rows"],
        "rows_after": again["summary"]["rows"],
        "table_identical": identical,
    }


@contextmanager
def _thread_hops_timed() -> Iterator[dict[str, list[float]]]:
    """Time every ``asyncio.to_thread`` call made while the block runs.

    For each function sent to a worker thread: calls, CPU seconds spent in the worker
    (``thread_time``) and wall seconds from the caller's ``await`` to its return (queueing for
    a worker and for the GIL included). The nodes and LangGraph's saver call it by module
    attribute, so replacing it for the block reaches them all.
    """
    original = asyncio.to_thread
    seen: dict[str, list[float]] = defaultdict(lambda: [0, 0.0, 0.0])
    lock = threading.Lock()

    async def timed(func: Any, /, *args: Any, **kwargs: Any) -> Any:
        name = getattr(func, "__qualname__", repr(func))

        def measured() -> Any:
            start = time.thread_time()
            try:
                return func(*args, **kwargs)
            finally:
                with lock:
                    seen[name][1] += time.thread_time() - start

        start = time.perf_counter()
        try:
            return await original(measured)
        finally:
            with lock:
                seen[name][0] += 1
                seen[name][2] += time.perf_counter() - start

    asyncio.to_thread = timed  # type: ignore[assignment]
    try:
        yield seen
    finally:
        asyncio.to_thread = original


def _cpu_per_document(collection: str, n: int, latency: float, concurrency: int) -> dict[str, Any]:
    """One run with its CPU counted: the whole process, the event-loop thread, each worker-thread step."""
    with _thread_hops_timed() as seen:
        process, loop = time.process_time(), time.thread_time()
        run = asyncio.run(_graph_run(collection, n, latency, concurrency))
        process, loop = time.process_time() - process, time.thread_time() - loop
    steps = {
        name: {
            "calls": int(calls),
            "cpu_ms_per_document": round(1000 * cpu / n, 3),
            "wall_ms_per_call": round(1000 * wall / calls, 3),
        }
        for name, (calls, cpu, wall) in sorted(seen.items(), key=lambda item: -item[1][1])
    }
    return {
        "seconds": round(run["seconds"], 4),
        "process_cpu_ms_per_document": round(1000 * process / n, 3),
        "event_loop_cpu_ms_per_document": round(1000 * loop / n, 3),
        "worker_cpu_ms_per_document": round(1000 * (process - loop) / n, 3),
        "worker_steps": steps,
    }


def _documents(svc: Any, collection: str) -> list[Any]:
    from core.reading import DocumentText
    from core.selection import Scope

    return [
        DocumentText(id=d.id, collection=collection, path=d.path, pages=[f"Code: {d.path}"])
        for d in svc.kb.resolve(Scope(collections=[collection])).documents
    ]


def run(sizes: list[int], latency_ms: float, concurrency: int, cost_sizes: list[int] | None = None) -> dict[str, Any]:
    from core.profile import Profile
    from core.reading import Reading
    from tools.services import services, settle_heap

    latency = latency_ms / 1000
    wave = Profile.wave
    cost_sizes = sorted(cost_sizes or [max(sizes)])
    reading = Reading(request=ROW_MESSAGE, columns=["Code", "Name", "Amount"])
    results: list[dict[str, Any]] = []
    with isolated_home() as home:
        svc = services()
        documents: dict[int, list[Any]] = {}
        for n in sorted(set(sizes) | set(cost_sizes)):
            ingest_tiny_documents(svc.kb, home / f"fanout-{n}", f"fanout-{n}", n, embed=False)  # ranking is measured apart
            documents[n] = _documents(svc, f"fanout-{n}")
        settle_heap()  # as `kea serve` and `kea extract` do once started: every run below in the same process
        for n in sizes:
            limit = math.ceil(n / concurrency) * latency
            gather = _gather_seconds(documents[n], reading, latency, concurrency)
            bare_all = _bare_send_seconds(documents[n], reading, latency, concurrency, None)
            bare_waves = _bare_send_seconds(documents[n], reading, latency, concurrency, wave)
            kea = _best_graph(f"fanout-{n}", n, latency, concurrency, RUNS)
            results.append(
                {
                    "documents": n,
                    "limit_seconds": round(limit, 4),
                    "gather_seconds": round(gather, 4),
                    "langgraph_all_at_once_seconds": round(bare_all, 4),
                    "langgraph_waves_seconds": round(bare_waves, 4),
                    "kea_seconds": round(kea["seconds"], 4),
                    "kea_whole_run_seconds": round(kea["whole_run_seconds"], 4),
                    "ranking_and_sample_seconds": round(kea["ranking_and_sample_seconds"], 4),
                    "kea_over_limit": round(kea["seconds"] / limit, 3),
                    "kea_over_langgraph_waves": round(kea["seconds"] / bare_waves, 3),
                    "gather_over_limit": round(gather / limit, 3),
                    "langgraph_all_at_once_over_limit": round(bare_all / limit, 3),
                    "langgraph_waves_over_limit": round(bare_waves / limit, 3),
                    "phases_seconds": {k: round(kea[k], 4) for k in ("before_fanout", "fanout", "after_fanout")},
                    "lanes": kea["lanes"],
                }
            )
        cost = []
        for n in cost_sizes:
            kea = _best_graph(f"fanout-{n}", n, 0.0, concurrency, COST_RUNS)
            bare = _bare_send_seconds(documents[n], reading, 0.0, concurrency, wave, COST_RUNS)
            cost.append(
                {
                    "documents": n,
                    "kea_ms_per_document": round(1000 * kea["seconds"] / n, 3),
                    "kea_fanout_ms_per_document": round(1000 * kea["fanout"] / n, 3),
                    "langgraph_waves_ms_per_document": round(1000 * bare / n, 3),
                    "largest_checkpoint_value": kea["largest_value"],
                    "largest_event": kea["largest_event"],
                    "checkpoint_bytes_per_document": kea["checkpoint_bytes_per_document"],
                }
            )
        n = max(sizes)
        replay = asyncio.run(_replay_a_wave(f"fanout-{n}", n, concurrency))
        slower = LONGER_WAIT * latency
        longer = _best_graph(f"fanout-{n}", n, slower, concurrency, 1)
        memory = _best_graph(f"fanout-{n}", n, latency, concurrency, 1, "memory")
        cpu = _cpu_per_document(f"fanout-{n}", n, latency, concurrency)
    largest, smallest = results[-1], results[0]
    growth = round(cost[-1]["kea_ms_per_document"] / cost[0]["kea_ms_per_document"], 3) if len(cost) > 1 else None
    met = {
        "kea_over_limit": largest["kea_over_limit"] <= TARGET,
        "kea_over_limit_small": smallest["documents"] > 100 or smallest["kea_over_limit"] <= TARGET_SMALL,
        "kea_over_langgraph_waves": largest["kea_over_langgraph_waves"] <= TARGET_BARE,
        "largest_value": all(c["largest_checkpoint_value"] <= LARGEST_VALUE and c["largest_event"] <= LARGEST_VALUE for c in cost),
        "replay": replay["engine_calls_in_replay"] == 0 and replay["table_identical"] and replay["rows_before"] == replay["rows_after"],
    }
    return {
        "machine": machine(),
        "latency_ms": latency_ms,
        "concurrency": concurrency,
        "wave": wave,
        "records_per_document": RECORDS,
        "runs": RUNS,
        "targets": {"kea_over_limit": TARGET, "kea_over_limit_100": TARGET_SMALL, "kea_over_langgraph_waves": TARGET_BARE,
                    "largest_value_bytes": LARGEST_VALUE},
        "targets_met": met,
        "target_met": all(met.values()),
        "sizes": results,
        "cost": cost,
        "cost_growth": growth,
        "replay": replay,
        "longer_wait": {
            "latency_ms": round(1000 * slower, 1),
            "limit_seconds": round(math.ceil(n / concurrency) * slower, 4),
            "kea_seconds": round(longer["seconds"], 4),
            "kea_over_limit": round(longer["seconds"] / (math.ceil(n / concurrency) * slower), 3),
        },
        "in_memory_saver": {
            "documents": n,
            "kea_seconds": round(memory["seconds"], 4),
            "kea_over_limit": round(memory["seconds"] / (math.ceil(n / concurrency) * latency), 3),
        },
        "cpu": cpu,
        "budget_ms_per_document": round(1000 * latency / concurrency, 3),
    }


def describe(result: dict[str, Any]) -> list[str]:
    lines = [
        f"{r['documents']} documents (L={result['latency_ms']:g} ms, C={result['concurrency']}, waves of "
        f"{result['wave']}): Kea {r['kea_seconds']} s (whole run {r['kea_whole_run_seconds']} s, of it ranking and "
        f"sample {r['ranking_and_sample_seconds']} s), limit {r['limit_seconds']} s, LangGraph in waves "
        f"{r['langgraph_waves_seconds']} s, all at once {r['langgraph_all_at_once_seconds']} s, gather "
        f"{r['gather_seconds']} s → Kea/limit {r['kea_over_limit']}, Kea/LangGraph-waves {r['kea_over_langgraph_waves']}; "
        f"lanes idle {r['lanes'].get('lanes_idle_share')}"
        for r in result["sizes"]
    ]
    for c in result["cost"]:
        lines.append(
            f"L=0, {c['documents']} documents: Kea {c['kea_ms_per_document']} ms/document (LangGraph in waves "
            f"{c['langgraph_waves_ms_per_document']} ms); largest checkpoint value {c['largest_checkpoint_value']:,} B, "
            f"largest event {c['largest_event']:,} B"
        )
    r = result["replay"]
    lines.append(
        f"Replaying the last wave ({r['replayed_tasks']} tasks): {r['engine_calls_in_replay']} engine calls, rows "
        f"{r['rows_before']} → {r['rows_after']}, table identical: {r['table_identical']}"
    )
    cpu = result["cpu"]
    lines.append(
        f"CPU per document: {cpu['process_cpu_ms_per_document']} ms (event loop {cpu['event_loop_cpu_ms_per_document']} ms, "
        f"worker threads {cpu['worker_cpu_ms_per_document']} ms) against a budget of L/C = {result['budget_ms_per_document']} ms. "
        f"Targets met: {result['targets_met']}"
    )
    return lines


def main() -> None:
    parser = command_line(__doc__)
    parser.add_argument("--documents", type=int, nargs="+", default=[100, 1000], help="document counts N")
    parser.add_argument("--latency-ms", type=float, default=50.0, help="engine wait per document L (ms)")
    parser.add_argument("--concurrency", type=int, default=16, help="documents read at once C")
    parser.add_argument("--cost-documents", type=int, nargs="+", default=[1000, 5000], help="document counts of the L = 0 runs")
    args = parser.parse_args()
    result = run(sorted(args.documents), args.latency_ms, args.concurrency, args.cost_documents)
    save_and_show("fanout", result, describe(result))


if __name__ == "__main__":
    main()
