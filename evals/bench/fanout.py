"""Benchmark: fan-out of the extraction graph against the physical limit and a bare gather.

    python -m evals.bench.fanout [--documents 100 1000] [--latency-ms 50] [--concurrency 16]

N tiny documents are ingested (not timed); an engine that waits L per document and returns a
few records is registered; the real graph runs over them on the Postgres checkpointer with
the profile's concurrency C. Two references, in the same process on the same engine:

* the physical limit ceil(N / C) · L — what C slots of L each cannot beat;
* a bare ``asyncio.gather`` of the same engine calls behind a semaphore of C — the least any
  orchestration costs.

At the largest N the time is broken down: the graph's phases (before the fan-out, the fan-out,
assembling the table), the same run on LangGraph's in-memory saver (what the Postgres
checkpointer adds), LangGraph alone (one Send per document to a node that only calls the
engine), the same runs with L = 0 (the cost per document), one run at 5 L, and one run with
its CPU counted: the whole process, the event-loop thread, and every step sent to a worker
thread (CPU in the worker, wall time as the awaiting node sees it).
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
    command_line,
    ingest_tiny_documents,
    isolated_home,
    machine,
    save_and_show,
    stream_extraction,
    use_fixed_engine,
)

RUNS = 3
RECORDS = 3  # records per document: a few, as a small invoice gives
TARGET = 1.10
LONGER_WAIT = 5  # one more run at 5 L shows how the overhead shrinks as the engine slows


async def _graph_wall(
    collection: str, n: int, latency: float, concurrency: int, saver: str
) -> dict[str, Any]:
    """One run of the real graph; its wall time and when each phase ended."""
    from langgraph.checkpoint.memory import InMemorySaver

    from checkpoints.saver import postgres_checkpointer
    from graph.extraction import build_extraction_graph
    from graph.profile import Profile

    engine = use_fixed_engine(latency, RECORDS)
    profile = Profile(
        name=f"bench-{concurrency}",
        collections=[collection],
        engine=engine,
        concurrency=concurrency,
        max_documents_total=max(n, 1000),
    )
    if saver == "postgres":
        async with postgres_checkpointer() as checkpointer:
            run = await stream_extraction(
                build_extraction_graph(checkpointer), ROW_MESSAGE, profile, uuid.uuid4().hex
            )
    else:
        run = await stream_extraction(
            build_extraction_graph(InMemorySaver()), ROW_MESSAGE, profile, uuid.uuid4().hex
        )
    summary = run.answer.get("summary") or {}
    if summary.get("extracted") != n or summary.get("rows") != n * RECORDS:
        raise RuntimeError(
            f"the graph read {summary.get('extracted')} of {n} documents: {run.answer.get('message')}"
        )
    plan_done = run.last_done.get("plan", 0.0)
    last_document = run.last_done.get("extract_document", plan_done)
    return {
        "seconds": run.seconds,
        "before_fanout": plan_done,
        "fanout": last_document - plan_done,
        "after_fanout": run.seconds - last_document,
    }


def _best_graph(
    collection: str, n: int, latency: float, concurrency: int, saver: str, runs: int
) -> dict[str, Any]:
    """The fastest of ``runs`` graph runs (noise only adds time), with its phases."""
    results = [asyncio.run(_graph_wall(collection, n, latency, concurrency, saver)) for _ in range(runs)]
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


def _bare_send_seconds(
    documents: list[Any], reading: Any, latency: float, concurrency: int, saver: str, runs: int = RUNS
) -> float:
    """LangGraph alone: one ``Send`` per document to a node that only calls the engine.

    No document read, no rows stored, no progress events: the difference to Kea's graph is
    what Kea's node does around the engine call.
    """
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.graph import START, StateGraph
    from langgraph.types import Send

    from checkpoints.saver import postgres_checkpointer

    engine = FixedEngine(latency, RECORDS)

    async def once() -> float:
        slots = asyncio.Semaphore(concurrency)

        async def one(sent: dict[str, int]) -> dict[str, int]:
            async with slots:
                await engine.extract_document(documents[sent["i"]], reading)
            return {"done": 1}

        builder = StateGraph(_BareState)
        builder.add_node("plan", lambda state: {})
        builder.add_node("one", one)
        builder.add_edge(START, "plan")
        builder.add_conditional_edges(
            "plan", lambda state: [Send("one", {"i": i}) for i in range(len(documents))], ["one"]
        )
        config = {"configurable": {"thread_id": uuid.uuid4().hex}}

        async def timed(graph: Any) -> float:
            # timed like Kea's graph: the saver is open and the graph built before the clock starts
            start = time.perf_counter()
            result = await graph.ainvoke({"done": 0}, config)
            assert result["done"] == len(documents)
            return time.perf_counter() - start

        if saver == "postgres":
            async with postgres_checkpointer() as checkpointer:
                return await timed(builder.compile(checkpointer=checkpointer))
        return await timed(builder.compile(checkpointer=InMemorySaver()))

    return min(asyncio.run(once()) for _ in range(runs))


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
        run = asyncio.run(_graph_wall(collection, n, latency, concurrency, "postgres"))
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


def run(sizes: list[int], latency_ms: float, concurrency: int) -> dict[str, Any]:
    from tools.engines.reading import DocumentText, Reading
    from tools.knowledge.selection import Scope
    from tools.services import services

    latency = latency_ms / 1000
    reading = Reading(request=ROW_MESSAGE, columns=["Code", "Name", "Amount"])
    results: list[dict[str, Any]] = []
    with isolated_home() as home:
        svc = services()
        documents: dict[int, list[Any]] = {}
        for n in sizes:
            collection = f"fanout-{n}"
            ingest_tiny_documents(svc.kb, home / collection, collection, n)
            documents[n] = [
                DocumentText(id=d.id, collection=collection, path=d.path, pages=[f"Code: {d.path}"])
                for d in svc.kb.resolve(Scope(collections=[collection])).documents
            ]
        for n in sizes:
            limit = math.ceil(n / concurrency) * latency
            gather = _gather_seconds(documents[n], reading, latency, concurrency)
            bare = _bare_send_seconds(documents[n], reading, latency, concurrency, "postgres")
            graph = _best_graph(f"fanout-{n}", n, latency, concurrency, "postgres", RUNS)
            results.append(
                {
                    "documents": n,
                    "limit_seconds": round(limit, 4),
                    "gather_seconds": round(gather, 4),
                    "langgraph_send_seconds": round(bare, 4),
                    "graph_seconds": round(graph["seconds"], 4),
                    "graph_over_limit": round(graph["seconds"] / limit, 3),
                    "graph_over_gather": round(graph["seconds"] / gather, 3),
                    "gather_over_limit": round(gather / limit, 3),
                    "langgraph_send_over_limit": round(bare / limit, 3),
                    "phases_seconds": {
                        k: round(graph[k], 4) for k in ("before_fanout", "fanout", "after_fanout")
                    },
                }
            )
        n = max(sizes)
        collection = f"fanout-{n}"
        limit = math.ceil(n / concurrency) * latency
        # the breakdown: one run each (noise only adds time, so a single run errs on the slow side)
        memory = _best_graph(collection, n, latency, concurrency, "memory", 1)
        bare_memory = _bare_send_seconds(documents[n], reading, latency, concurrency, "memory", 1)
        no_wait = _best_graph(collection, n, 0.0, concurrency, "postgres", 1)
        no_wait_memory = _best_graph(collection, n, 0.0, concurrency, "memory", 1)
        bare_no_wait = _bare_send_seconds(documents[n], reading, 0.0, concurrency, "postgres", 1)
        slower = LONGER_WAIT * latency
        longer = _best_graph(collection, n, slower, concurrency, "postgres", 1)
        cpu = _cpu_per_document(collection, n, latency, concurrency)
        per_document = lambda seconds: round(1000 * seconds / n, 3)
        breakdown = {
            "documents": n,
            "graph_in_memory_saver_seconds": round(memory["seconds"], 4),
            "graph_in_memory_saver_over_limit": round(memory["seconds"] / limit, 3),
            "langgraph_send_in_memory_saver_seconds": round(bare_memory, 4),
            "langgraph_send_in_memory_saver_over_limit": round(bare_memory / limit, 3),
            "cost_ms_per_document": {
                "graph_postgres": per_document(no_wait["seconds"]),
                "graph_in_memory_saver": per_document(no_wait_memory["seconds"]),
                "langgraph_send_postgres": per_document(bare_no_wait),
            },
            "cpu": cpu,
            "budget_ms_per_document": round(1000 * latency / concurrency, 3),
            "longer_wait": {
                "latency_ms": round(1000 * slower, 1),
                "limit_seconds": round(math.ceil(n / concurrency) * slower, 4),
                "graph_seconds": round(longer["seconds"], 4),
                "graph_over_limit": round(longer["seconds"] / (math.ceil(n / concurrency) * slower), 3),
            },
            "no_latency_phases_seconds": {
                k: round(no_wait[k], 4) for k in ("before_fanout", "fanout", "after_fanout")
            },
        }
    largest = results[-1]
    return {
        "machine": machine(),
        "latency_ms": latency_ms,
        "concurrency": concurrency,
        "records_per_document": RECORDS,
        "runs": RUNS,
        "target_graph_over_limit": TARGET,
        "target_met": largest["graph_over_limit"] <= TARGET,
        "sizes": results,
        "breakdown": breakdown,
    }


def describe(result: dict[str, Any]) -> list[str]:
    lines = [
        f"{r['documents']} documents (L={result['latency_ms']:g} ms, C={result['concurrency']}): graph "
        f"{r['graph_seconds']} s, limit {r['limit_seconds']} s, gather {r['gather_seconds']} s, "
        f"LangGraph Send alone {r['langgraph_send_seconds']} s → wall/limit {r['graph_over_limit']}, "
        f"wall/gather {r['graph_over_gather']}"
        for r in result["sizes"]
    ]
    b = result["breakdown"]
    cost, cpu = b["cost_ms_per_document"], b["cpu"]
    lines.append(
        f"At {b['documents']} documents: in-memory saver {b['graph_in_memory_saver_seconds']} s "
        f"({b['graph_in_memory_saver_over_limit']}x the limit). With no engine wait the graph costs "
        f"{cost['graph_postgres']} ms per document (in-memory saver {cost['graph_in_memory_saver']} ms, "
        f"LangGraph Send alone {cost['langgraph_send_postgres']} ms) against a budget of L/C = "
        f"{b['budget_ms_per_document']} ms. CPU per document: {cpu['process_cpu_ms_per_document']} ms "
        f"(event loop {cpu['event_loop_cpu_ms_per_document']} ms, worker threads {cpu['worker_cpu_ms_per_document']} ms)"
    )
    return lines


def main() -> None:
    parser = command_line(__doc__)
    parser.add_argument("--documents", type=int, nargs="+", default=[100, 1000], help="document counts N")
    parser.add_argument("--latency-ms", type=float, default=50.0, help="engine wait per document L (ms)")
    parser.add_argument("--concurrency", type=int, default=16, help="documents read at once C")
    args = parser.parse_args()
    result = run(sorted(args.documents), args.latency_ms, args.concurrency)
    save_and_show("fanout", result, describe(result))


if __name__ == "__main__":
    main()
