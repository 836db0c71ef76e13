"""Rows never travel through state, checkpoints or events: 5,000 rows, nothing above 64 KB."""

from __future__ import annotations

import json
import uuid

import psycopg

from checkpoints.saver import postgres_checkpointer
from evals.tables import rows_from_csv
from graph.extraction import build_extraction_graph
from graph.profile import Profile
from tools.knowledge.ingest import ingest
from tools.storage.rows import table_key

LIMIT = 64 * 1024


async def test_five_thousand_rows_keep_every_checkpoint_and_event_small(svc, tmp_path) -> None:  # type: ignore[no-untyped-def]
    folder = tmp_path / "bulk"
    folder.mkdir()
    for d in range(50):
        lines = ["Code,Name,Amount"] + [f"C{d:02d}-{r:03d},Part {d}-{r} {'x' * 60},{r},{d}.50" for r in range(100)]
        (folder / f"sheet-{d:02d}.csv").write_text("\n".join(lines), encoding="utf-8")
    assert len(ingest(svc.kb, [folder], "bulk").indexed) == 50

    thread = uuid.uuid4().hex
    config = {"configurable": {"thread_id": thread}}
    largest_event = 0
    async with postgres_checkpointer() as saver:
        graph = build_extraction_graph(saver)
        async for _mode, chunk in graph.astream(
            {"message": "All rows with code, name and amount", "confirm": "auto"},
            config,
            context=Profile(collections=["bulk"]),
            stream_mode=["updates", "custom"],
        ):
            largest_event = max(largest_event, len(json.dumps(chunk, default=str).encode()))
        answer = (await graph.aget_state(config)).values["answer"]

    assert answer["status"] == "done" and answer["summary"]["rows"] == 5000
    with svc.objects.open(table_key(answer["extraction_id"])) as handle:
        _, rows = rows_from_csv(handle.read())
    assert len(rows) == 5000 and len(answer["preview"]) == 100

    with psycopg.connect(svc.database_url) as conn:
        sizes = conn.execute(
            "SELECT (SELECT max(length(blob)) FROM checkpoint_blobs WHERE thread_id = %(t)s),"
            " (SELECT max(length(blob)) FROM checkpoint_writes WHERE thread_id = %(t)s),"
            " (SELECT max(length(checkpoint::text)) FROM checkpoints WHERE thread_id = %(t)s)",
            {"t": thread},
        ).fetchone()
    assert sizes is not None and all(s is not None for s in sizes)
    assert max(sizes) <= LIMIT, sizes
    assert largest_event <= LIMIT, largest_event
