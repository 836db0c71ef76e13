"""Rows never travel through state, checkpoints or events: only references, counts and previews."""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

import psycopg

from checkpoints.saver import postgres_checkpointer
from evals.tables import rows_from_csv
from graph.extraction import build_extraction_graph
from core.profile import Profile
from tools.engines import register_engine
from tools.engines.offline import OfflineEngine
from tools.knowledge.ingest import ingest
from tools.storage.rows import summary_key, table_key

LIMIT = 64 * 1024
TASK_BYTES_PER_DOCUMENT = 160  # LangGraph keeps the pending Sends in one blob: a reference each


class _FailsOnBroken(OfflineEngine):
    name = "fails-on-broken"

    async def extract_document(self, document, reading):  # type: ignore[no-untyped-def]
        if "/broken-" in document.path:
            raise RuntimeError("cannot read this document " + "because " * 100)
        return await super().extract_document(document, reading)


def _sheets(folder: Path, count: int) -> None:
    folder.mkdir(parents=True)
    for d in range(count):
        lines = ["Code,Name,Amount"] + [f"C{d:02d}-{r:03d},Part {d}-{r} {'x' * 60},{r},{d}.50" for r in range(100)]
        (folder / f"sheet-{d:02d}.csv").write_text("\n".join(lines), encoding="utf-8")


async def _run(collection: str, engine: str = "offline") -> tuple[str, dict[str, Any], int]:
    """Run 'All rows with code, name and amount'; return the thread, the answer, the largest event."""
    thread = uuid.uuid4().hex
    config = {"configurable": {"thread_id": thread}}
    largest_event = 0
    async with postgres_checkpointer() as saver:
        graph = build_extraction_graph(saver)
        async for _mode, chunk in graph.astream(
            {"message": "All rows with code, name and amount", "confirm": "auto"},
            config,
            context=Profile(collections=[collection], engine=engine),
            stream_mode=["updates", "custom"],
        ):
            largest_event = max(largest_event, len(json.dumps(chunk, default=str).encode()))
        answer = (await graph.aget_state(config)).values["answer"]
    return thread, answer, largest_event


def _blob_sizes(url: str, thread: str) -> dict[str, int]:
    """The largest stored value of each channel (and of each write) of the thread, in bytes."""
    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT channel, max(length(blob)) FROM checkpoint_blobs WHERE thread_id = %(t)s GROUP BY channel"
            " UNION ALL SELECT 'write:' || channel, max(length(blob)) FROM checkpoint_writes WHERE thread_id = %(t)s GROUP BY channel"
            " UNION ALL SELECT 'checkpoint', max(length(checkpoint::text)) FROM checkpoints WHERE thread_id = %(t)s",
            {"t": thread},
        ).fetchall()
    return {channel: int(size or 0) for channel, size in rows}


async def test_five_thousand_rows_keep_every_checkpoint_and_event_small(svc, tmp_path) -> None:  # type: ignore[no-untyped-def]
    _sheets(tmp_path / "bulk", 50)
    assert len(ingest(svc.kb, [tmp_path / "bulk"], "bulk", embed=False).indexed) == 50
    thread, answer, largest_event = await _run("bulk")

    assert answer["status"] == "done" and answer["summary"]["rows"] == 5000
    with svc.objects.open(table_key(answer["extraction_id"])) as handle:
        _, rows = rows_from_csv(handle.read())
    assert len(rows) == 5000 and len(answer["preview"]) == 100
    sizes = _blob_sizes(svc.database_url, thread)
    assert "answer" in sizes and max(sizes.values()) <= LIMIT, sizes
    assert largest_event <= LIMIT, largest_event


async def test_documents_without_rows_and_failures_stay_out_of_state(svc, tmp_path) -> None:  # type: ignore[no-untyped-def]
    folder = tmp_path / "mixed"
    _sheets(folder, 5)
    long = folder / ("a-rather-long-folder-name-for-a-knowledge-base/" * 2)
    long.mkdir(parents=True)
    for d in range(400):
        (long / f"memo-without-any-table-{d:04d}.txt").write_text("Nothing tabular here.", encoding="utf-8")
    for d in range(30):
        (long / f"broken-{d:04d}.txt").write_text("This one fails.", encoding="utf-8")
    assert len(ingest(svc.kb, [folder], "mixed", embed=False).indexed) == 435
    register_engine(_FailsOnBroken.name, _FailsOnBroken)

    thread, answer, largest_event = await _run("mixed", _FailsOnBroken.name)

    summary = answer["summary"]
    assert answer["status"] == "done" and summary["rows"] == 500
    assert (summary["no_rows_count"], summary["failed_count"]) == (400, 30)
    assert len(summary["no_rows_from"]) == 20 and len(summary["failed"]) == 20  # the rest in summary.json
    assert "380 more, each with its reason in summary.json" in answer["message"]
    with svc.objects.open(summary_key(answer["extraction_id"])) as handle:
        stored = json.loads(handle.read())
    assert len(stored["no_rows_from"]) == 400 and len(stored["failed"]) == 30
    assert [n["file"] for n in stored["no_rows"]] == stored["no_rows_from"] and all(n["reason"] for n in stored["no_rows"])
    assert all(len(f["error"]) <= 300 for f in stored["failed"])

    sizes = _blob_sizes(svc.database_url, thread)
    tasks = sizes.pop("__pregel_tasks")
    assert tasks <= TASK_BYTES_PER_DOCUMENT * 435, tasks
    assert max(sizes.values()) <= LIMIT, sizes
    assert largest_event <= LIMIT, largest_event
