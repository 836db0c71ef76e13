"""Durable runs: a run killed mid-way continues where it stopped; a run cancelled stops at once.

Runs happen in separate processes (``counting_cli.py``: the real ``kea`` command with a
counting engine at the model boundary) on the session's PostgreSQL and file store.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
CLI = [sys.executable, str(Path(__file__).with_name("counting_cli.py"))]
REQUEST = "Code, item and quantity of every order"
DOCUMENTS = 30


@pytest.fixture(scope="module")
def orders(svc, tmp_path_factory) -> str:  # type: ignore[no-untyped-def]
    """Thirty small order files, ingested as the collection 'durable-orders'."""
    from tools.knowledge.ingest import ingest

    folder = tmp_path_factory.mktemp("durable-orders")
    for i in range(DOCUMENTS):
        rows = "".join(f"| {i}-{j} | Bolt {j} | {i + j} |\n" for j in range(3))
        (folder / f"order-{i:02d}.md").write_text(f"| Code | Item | Quantity |\n|---|---|---|\n{rows}", encoding="utf-8")
    assert ingest(svc.kb, [folder], "durable-orders").indexed
    return "durable-orders"


def _env(calls: Path, delay: float = 0.0, **more: str) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "KEA_ENGINE": "counting", "KEA_TEST_CALLS": str(calls),
            "KEA_TEST_DELAY": str(delay), "KEA_CANCEL_POLL_SECONDS": "0.2", **more}


def _calls(path: Path) -> list[tuple[float, str]]:
    if not path.exists():
        return []
    found = []
    for line in path.read_text(encoding="utf-8").splitlines():
        _, at, file = line.split(" ", 2)
        found.append((float(at), file))
    return found


def _wait_for(condition: Any, timeout: float = 120.0, what: str = "condition") -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def _state(thread: str) -> dict[str, Any]:
    from checkpoints.saver import postgres_checkpointer
    from graph.extraction import build_extraction_graph

    async def read() -> dict[str, Any]:
        async with postgres_checkpointer() as saver:
            return dict((await build_extraction_graph(saver).aget_state({"configurable": {"thread_id": thread}})).values)

    return asyncio.run(read())


def _alive(thread: str) -> bool:
    from checkpoints.runs import RunRecords
    from tools.services import services

    return asyncio.run(RunRecords(services().database_url).is_alive(thread))


def test_a_run_killed_half_way_resumes_and_reads_only_what_was_not_stored(orders, svc, tmp_path) -> None:  # type: ignore[no-untyped-def]
    whole, resumed = tmp_path / "whole.csv", tmp_path / "resumed.csv"
    base = ["extract", REQUEST, "--collection", orders, "--yes", "--json"]
    done = subprocess.run([*CLI, *base, "--out", str(whole)], capture_output=True, text=True, cwd=ROOT,
                          env=_env(tmp_path / "whole-calls.log"))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["documents"]["extracted"] == DOCUMENTS

    calls = tmp_path / "calls.log"
    thread = "cli-killed-half-way"
    run = subprocess.Popen([*CLI, *base, "--thread", thread, "--out", str(resumed)], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, cwd=ROOT, env=_env(calls, delay=0.25))
    try:
        _wait_for(lambda: len(_calls(calls)) >= DOCUMENTS // 2 or run.poll() is not None, what="half the documents")
        run.send_signal(signal.SIGKILL)
        run.wait(timeout=60)
    finally:
        if run.poll() is None:
            run.kill()
    assert run.returncode == -signal.SIGKILL
    assert not resumed.exists()
    before = Counter(file for _, file in _calls(calls))
    assert DOCUMENTS // 2 <= len(before) < DOCUMENTS
    extraction_id = _state(thread)["extraction_id"]
    stored = {f for f in before if svc.rows.outcome(extraction_id, _document_id(svc, f)) is not None}
    assert stored, "nothing was stored before the kill"
    _wait_for(lambda: not _alive(thread), what="the killed run's lease to be released")

    again = subprocess.run([*CLI, "resume", thread, "--json", "--out", str(resumed)], capture_output=True, text=True,
                           cwd=ROOT, env=_env(calls))
    assert again.returncode == 0, again.stderr
    answer = json.loads(again.stdout)
    assert answer["status"] == "done" and answer["thread"] == thread
    assert answer["documents"]["extracted"] == DOCUMENTS and not answer["documents"]["failed"]
    assert resumed.read_bytes() == whole.read_bytes()  # the same table as a run never interrupted
    after = Counter(file for _, file in _calls(calls)) - before
    assert not set(after) & stored, f"documents stored before the kill were sent to the engine again: {set(after) & stored}"
    assert set(before) | set(after) == {f"order-{i:02d}.md" for i in range(DOCUMENTS)}
    assert all(n == 1 for n in after.values())


def _document_id(svc, file: str) -> int:  # type: ignore[no-untyped-def]
    import psycopg

    with psycopg.connect(svc.database_url) as conn:
        row = conn.execute(
            "SELECT d.id FROM documents d JOIN collections c ON c.id = d.collection_id WHERE c.name = %s AND d.path = %s",
            ("durable-orders", file),
        ).fetchone()
    assert row, file
    return int(row[0])


async def test_a_document_stored_by_an_earlier_attempt_is_never_sent_to_the_engine_again(orders, svc, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The window a kill can hit: a document's rows stored, its task's result not yet checkpointed.
    LangGraph then runs the task again; the stored rows are taken instead of a second model call."""
    import counting_cli  # noqa: F401 — registers the counting engine in this process

    from graph.profile import Profile
    from graph.runs import resume_extraction, run_extraction
    from tools.storage.rows import table_key

    calls = tmp_path / "calls.log"
    monkeypatch.setenv("KEA_TEST_CALLS", str(calls))
    profile = Profile(collections=[orders], engine="counting")
    first = await run_extraction(REQUEST, profile, confirm="auto")
    assert first["answer"]["status"] == "done"
    paused = await run_extraction(REQUEST, profile)  # stops at its questions: nothing read yet
    assert paused["__interrupt__"]
    earlier = {f"order-{i:02d}.md" for i in range(0, DOCUMENTS, 3)}
    for file in earlier:  # as an attempt killed after storing them would have left them
        assert svc.rows.copy_outcome(first["extraction_id"], paused["extraction_id"], _document_id(svc, file))
    calls.unlink()
    done = await resume_extraction(paused["thread_id"], "yes", profile)
    assert done["answer"]["status"] == "done"
    sent = Counter(file for _, file in _calls(calls))
    assert not set(sent) & earlier
    assert set(sent) == {f"order-{i:02d}.md" for i in range(DOCUMENTS)} - earlier
    with svc.objects.open(table_key(first["extraction_id"])) as a, svc.objects.open(table_key(done["extraction_id"])) as b:
        assert a.read() == b.read()
