"""Benchmark: what the extraction graph writes to its checkpoints and streams, by rows per document.

    python -m evals.bench.state_size [--documents 10] [--rows 10 10000]

D tiny documents are ingested; an engine that returns R records per document is registered;
the real graph runs on the Postgres checkpointer and its stream (``updates`` and ``custom``)
is read. Measured per run: the bytes the thread wrote to ``checkpoints``,
``checkpoint_blobs`` and ``checkpoint_writes`` divided by D, the largest single stored value
and the largest streamed event (as JSON).

The baseline, in the same run on the same saver: a graph that carries each document's rows in
state (one ``Send`` per document returning its records into a list reducer) — what a design
that keeps the table in state writes.
"""

from __future__ import annotations

import asyncio
import operator
import uuid
from typing import Annotated, Any, TypedDict

from evals.bench.common import (
    ROW_MESSAGE,
    checkpoint_bytes,
    command_line,
    fixed_records,
    ingest_tiny_documents,
    isolated_home,
    machine,
    save_and_show,
    stream_extraction,
    use_fixed_engine,
)

EVENT_LIMIT = 64 * 1024
FLAT_WITHIN = 1.10  # "independent of rows per document": the largest size writes at most 10 % more


async def _kea(collection: str, documents: int, rows: int) -> dict[str, Any]:
    from checkpoints.saver import postgres_checkpointer
    from core.profile import Profile
    from graph.extraction import build_extraction_graph
    from tools.services import services

    profile = Profile(collections=[collection], engine=use_fixed_engine(0.0, rows), concurrency=8)
    thread = uuid.uuid4().hex
    async with postgres_checkpointer() as saver:
        run = await stream_extraction(build_extraction_graph(saver), ROW_MESSAGE, profile, thread)
    summary = run.answer.get("summary") or {}
    if summary.get("rows") != documents * rows:
        raise RuntimeError(
            f"the graph gave {summary.get('rows')} of {documents * rows} rows: {run.answer.get('message')}"
        )
    stored = checkpoint_bytes(services().database_url, thread)
    return _figures(stored, documents, rows, run.largest_event, run.events, run.seconds)


class _CarriedState(TypedDict):
    rows: Annotated[list[dict[str, Any]], operator.add]


async def _rows_in_state(documents: list[Any], rows: int) -> dict[str, Any]:
    """The baseline: the same records carried through graph state into one merged list."""
    import json
    import time

    from langgraph.graph import START, StateGraph
    from langgraph.types import Send

    from checkpoints.saver import postgres_checkpointer
    from tools.services import services

    columns = ["Code", "Name", "Amount"]

    async def extract(sent: dict[str, int]) -> dict[str, Any]:
        document = documents[sent["i"]]
        return {
            "rows": [
                {"file": document.path, **r.model_dump(mode="json")}
                for r in fixed_records(document, columns, rows)
            ]
        }

    builder = StateGraph(_CarriedState)
    builder.add_node("plan", lambda state: {})
    builder.add_node("extract", extract)
    builder.add_edge(START, "plan")
    builder.add_conditional_edges(
        "plan", lambda state: [Send("extract", {"i": i}) for i in range(len(documents))], ["extract"]
    )
    thread = uuid.uuid4().hex
    largest, events = 0, 0
    start = time.perf_counter()
    async with postgres_checkpointer() as saver:
        graph = builder.compile(checkpointer=saver)
        async for _mode, chunk in graph.astream(
            {"rows": []}, {"configurable": {"thread_id": thread}}, stream_mode=["updates", "custom"]
        ):
            events += 1
            largest = max(largest, len(json.dumps(chunk, default=str).encode("utf-8")))
    seconds = time.perf_counter() - start
    stored = checkpoint_bytes(services().database_url, thread)
    return _figures(stored, len(documents), rows, largest, events, seconds)


def _figures(
    stored: dict[str, int], documents: int, rows: int, largest_event: int, events: int, seconds: float
) -> dict[str, Any]:
    return {
        "rows_per_document": rows,
        "documents": documents,
        "checkpoint_bytes": stored,
        "bytes_per_document": round(stored["total"] / documents),
        "largest_stored_value": stored["largest_value"],
        "largest_event": largest_event,
        "events": events,
        "seconds": round(seconds, 3),
    }


def run(documents: int, rows_per_document: list[int]) -> dict[str, Any]:
    from core.selection import Scope
    from tools.services import services

    kea: list[dict[str, Any]] = []
    baseline: list[dict[str, Any]] = []
    with isolated_home() as home:
        svc = services()
        collection = "state-size"
        ingest_tiny_documents(svc.kb, home / collection, collection, documents)
        docs = [
            svc.kb.read_document(Scope(collections=[collection]), d.id)
            for d in svc.kb.resolve(Scope(collections=[collection])).documents
        ]
        for rows in rows_per_document:
            kea.append(asyncio.run(_kea(collection, documents, rows)))
            baseline.append(asyncio.run(_rows_in_state(docs, rows)))
    growth = kea[-1]["bytes_per_document"] / kea[0]["bytes_per_document"]
    largest_event = max(r["largest_event"] for r in kea)
    return {
        "machine": machine(),
        "documents": documents,
        "kea": kea,
        "rows_in_state": baseline,
        "growth_bytes_per_document": round(growth, 3),
        "largest_event": largest_event,
        "largest_stored_value": max(r["largest_stored_value"] for r in kea),
        "target": {"growth_at_most": FLAT_WITHIN, "largest_event_at_most": EVENT_LIMIT},
        "target_met": growth <= FLAT_WITHIN and largest_event <= EVENT_LIMIT,
    }


def describe(result: dict[str, Any]) -> list[str]:
    lines = []
    for kea, carried in zip(result["kea"], result["rows_in_state"]):
        lines.append(
            f"{kea['rows_per_document']} rows per document × {kea['documents']}: Kea writes "
            f"{kea['bytes_per_document']:,} checkpoint bytes per document (largest value "
            f"{kea['largest_stored_value']:,} B, largest event {kea['largest_event']:,} B); rows in state "
            f"{carried['bytes_per_document']:,} B per document (largest value {carried['largest_stored_value']:,} B, "
            f"largest event {carried['largest_event']:,} B)"
        )
    lines.append(
        f"Kea's bytes per document grow {result['growth_bytes_per_document']}x from the smallest to the largest "
        f"row count; largest event {result['largest_event']:,} B (limit {EVENT_LIMIT:,})"
    )
    return lines


def main() -> None:
    parser = command_line(__doc__)
    parser.add_argument("--documents", type=int, default=10, help="documents D")
    parser.add_argument("--rows", type=int, nargs="+", default=[10, 10_000], help="rows per document R")
    args = parser.parse_args()
    result = run(args.documents, sorted(args.rows))
    save_and_show("state_size", result, describe(result))


if __name__ == "__main__":
    main()
