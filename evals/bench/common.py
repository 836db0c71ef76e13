"""Shared pieces of the benchmarks: an isolated KEA_HOME, timing, the results folder, an engine
with a fixed latency, tiny documents to fan out over, and one streamed run of the graph."""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parents[1] / "results"


@contextmanager
def isolated_home() -> Iterator[Path]:
    """Benchmarks run on their own throwaway cluster, never on the user's knowledge base."""
    from checkpoints.cluster import LocalCluster
    from checkpoints.milvus import LocalMilvus
    from tools.services import reset_services

    previous = {k: os.environ.get(k) for k in ("KEA_HOME", "KEA_DATABASE_URL")}
    with tempfile.TemporaryDirectory(prefix="kea-bench-") as folder:
        os.environ["KEA_HOME"] = folder
        os.environ.pop("KEA_DATABASE_URL", None)
        reset_services()
        try:
            yield Path(folder)
        finally:
            try:
                reset_services()
            finally:
                try:
                    LocalMilvus.default().stop()
                    LocalCluster.default().stop()  # never delete the folder under a running server
                finally:
                    for key, value in previous.items():
                        if value is None:
                            os.environ.pop(key, None)
                        else:
                            os.environ[key] = value


def best_of(runs: int, action: Callable[[], Any]) -> tuple[float, Any]:
    """The fastest of ``runs`` timings (seconds) and the last result: noise only adds time."""
    best, result = float("inf"), None
    for _ in range(runs):
        start = time.perf_counter()
        result = action()
        best = min(best, time.perf_counter() - start)
    return best, result


def command_line(doc: str | None) -> argparse.ArgumentParser:
    """The parser of one benchmark's command, its module docstring as help."""
    return argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)


def save_and_show(name: str, result: dict[str, Any], lines: list[str]) -> Path:
    """Save a benchmark's result under ``RESULTS`` and print what it found."""
    path = save(name, result)
    print("\n".join(lines))
    print(f"Saved {path}")
    return path


def save(name: str, data: dict[str, Any], folder: Path = RESULTS) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.json"
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def machine() -> dict[str, Any]:
    """What the figures were measured on, saved beside them."""
    import platform
    from importlib.metadata import version

    return {
        "python": platform.python_version(),
        "system": f"{platform.system()} {platform.release()}",
        "cpus": os.cpu_count(),
        "langgraph": version("langgraph"),
        "langgraph-checkpoint-postgres": version("langgraph-checkpoint-postgres"),
    }


# --------------------------------------------------------------------------------------------
# An engine at the model boundary: a fixed wait and a fixed number of records per document


BENCH_ENGINE = "bench-fixed"
ROW_MESSAGE = "All rows with code, name and amount"


class FixedEngine:
    """Reads requests like the offline engine; "extracts" ``rows`` records after ``latency`` seconds.

    Stands in for a model-backed engine so that the graph around it is what is measured.
    Every record quotes the document's first line as evidence, so grounding finds it.
    """

    name = BENCH_ENGINE

    def __init__(self, latency: float = 0.0, rows: int = 3, timeline: list[tuple[float, float]] | None = None) -> None:
        from tools.engines.offline import OfflineEngine

        self.latency, self.rows = latency, rows
        self.timeline = timeline  # (start, end) of every call, perf_counter seconds, when given
        self._reader = OfflineEngine()

    async def read_request(self, message: str, scope: Any) -> Any:
        return await self._reader.read_request(message, scope)

    async def extract_document(self, document: Any, reading: Any) -> list[Any]:
        import asyncio

        start = time.perf_counter()
        if self.latency:
            await asyncio.sleep(self.latency)
        if self.timeline is not None:
            self.timeline.append((start, time.perf_counter()))
        return fixed_records(document, reading.columns, self.rows)


def fixed_records(document: Any, columns: list[str], rows: int) -> list[Any]:
    """``rows`` records of about 120 bytes of values each, evidenced by the document's first line."""
    from core.reading import Record

    evidence = (document.pages[0].splitlines() or [""])[0] if document.pages else ""
    return [
        Record(
            values={c: f"{c} {document.id}-{i:06d} {'x' * 24}" for c in columns},
            page=1,
            evidence=evidence,
        )
        for i in range(rows)
    ]


def use_fixed_engine(latency: float = 0.0, rows: int = 3, timeline: list[tuple[float, float]] | None = None) -> str:
    """Register the fixed engine with this latency and row count (its calls noted in ``timeline``
    when given); returns its name for a profile."""
    from tools.engines import register_engine

    register_engine(BENCH_ENGINE, lambda: FixedEngine(latency, rows, timeline))
    return BENCH_ENGINE


def ingest_tiny_documents(kb: Any, folder: Path, collection: str, count: int, *, embed: bool = True) -> int:
    """``count`` small text documents (one ``Code: … / Name: … / Amount: …`` record each), ingested
    (``embed=False``: without vectors, where ranking is not what is measured)."""
    from tools.knowledge.ingest import ingest

    folder.mkdir(parents=True, exist_ok=True)
    for i in range(count):
        (folder / f"doc-{i:05d}.txt").write_text(
            f"Code: C{i:05d}\nName: Part {i}\nAmount: {i % 97}.50\n", encoding="utf-8"
        )
    report = ingest(kb, [folder], collection, embed=embed)
    indexed = len(report.indexed) + len(report.unchanged)
    if indexed != count:
        raise RuntimeError(f"ingested {indexed} of {count} documents into {collection}: {report.skipped[:3]}")
    return indexed


# --------------------------------------------------------------------------------------------
# One run of the extraction graph, streamed, with when each node finished and the largest event


@dataclass
class GraphRun:
    values: dict[str, Any]
    seconds: float
    last_done: dict[str, float] = field(default_factory=dict)
    done: dict[str, list[float]] = field(default_factory=dict)  # every time each node finished
    started: float = 0.0  # perf_counter at the start
    events: int = 0
    largest_event: int = 0  # bytes of the largest streamed event, as JSON

    @property
    def answer(self) -> dict[str, Any]:
        return self.values.get("answer") or {}


async def stream_extraction(graph: Any, message: str, profile: Any, thread_id: str) -> GraphRun:
    """Run the graph to its end with ``confirm="auto"``; time every node and size every event."""
    config = {"configurable": {"thread_id": thread_id}}
    run = GraphRun(values={}, seconds=0.0)
    start = run.started = time.perf_counter()
    async for _mode, chunk in graph.astream(
        {"message": message, "confirm": "auto"}, config, context=profile, stream_mode=["updates", "custom"]
    ):
        now = time.perf_counter() - start
        run.events += 1
        run.largest_event = max(run.largest_event, len(json.dumps(chunk, default=str).encode("utf-8")))
        if _mode == "updates":
            for node in chunk:
                run.last_done[node] = now
                run.done.setdefault(node, []).append(now)
    run.seconds = time.perf_counter() - start
    run.values = dict((await graph.aget_state(config)).values)
    return run


def checkpoint_bytes(database_url: str, thread_id: str) -> dict[str, int]:
    """Bytes one thread wrote to the Postgres saver's tables, and its largest single value."""
    import psycopg

    with psycopg.connect(database_url) as conn:
        row = conn.execute(
            "SELECT"
            " (SELECT coalesce(sum(octet_length(blob)), 0) FROM checkpoint_blobs WHERE thread_id = %(t)s),"
            " (SELECT coalesce(max(octet_length(blob)), 0) FROM checkpoint_blobs WHERE thread_id = %(t)s),"
            " (SELECT coalesce(sum(octet_length(blob)), 0) FROM checkpoint_writes WHERE thread_id = %(t)s),"
            " (SELECT coalesce(max(octet_length(blob)), 0) FROM checkpoint_writes WHERE thread_id = %(t)s),"
            " (SELECT coalesce(sum(octet_length(checkpoint::text) + octet_length(metadata::text)), 0)"
            "  FROM checkpoints WHERE thread_id = %(t)s),"
            " (SELECT coalesce(max(octet_length(checkpoint::text)), 0) FROM checkpoints WHERE thread_id = %(t)s),"
            " (SELECT count(*) FROM checkpoints WHERE thread_id = %(t)s)",
            {"t": thread_id},
        ).fetchone()
    assert row is not None
    blobs, max_blob, writes, max_write, checkpoints, max_checkpoint, count = (int(v) for v in row)
    return {
        "checkpoint_blobs": blobs,
        "checkpoint_writes": writes,
        "checkpoints": checkpoints,
        "total": blobs + writes + checkpoints,
        "largest_value": max(max_blob, max_write, max_checkpoint),
        "checkpoint_count": count,
    }
