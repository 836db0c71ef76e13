"""Faults under a real run: the database killed, or restarted, while documents are read.

The run happens in a separate process on a PostgreSQL cluster of its own (its own KEA_HOME), so
killing that server touches nothing else of the test session.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def folder() -> Iterator[Path]:
    """A folder for a run's own KEA_HOME (``folder / "home"``) outside pytest's temporary root,
    which pytest keeps at mode 0700: the postgres OS user (the server's owner when Kea runs as
    root) must reach it. The services the run started there are stopped after the test."""
    from checkpoints.cluster import LocalCluster
    from checkpoints.milvus import LocalMilvus

    path = Path(tempfile.mkdtemp(prefix="kea-fault-run-"))
    try:
        yield path
    finally:
        for service in (LocalMilvus(path / "home" / "milvus"), LocalCluster(path / "home" / "postgres")):
            try:
                service.stop()
            except Exception:  # noqa: BLE001 — a server the test killed has nothing left to stop
                pass
        shutil.rmtree(path, ignore_errors=True)

RUN = textwrap.dedent(
    """
    import asyncio, sys
    from core.profile import Profile
    from graph.runs import run_extraction
    from tools.engines import register_engine
    from tools.engines.offline import OfflineEngine
    from tools.knowledge.ingest import ingest
    from tools.services import services
    from pathlib import Path

    class Slow(OfflineEngine):
        name = "slow"
        async def extract_document(self, document, reading):
            await asyncio.sleep(0.3)
            return await super().extract_document(document, reading)

    register_engine("slow", Slow)
    ingest(services().kb, [Path(sys.argv[1])], "orders", embed=False)
    def progress(event):
        if event.get("event") == "document_done":
            print("DONE", event["file"], flush=True)
    try:
        values = asyncio.run(run_extraction("Code, item and quantity of every order",
                             Profile(collections=["orders"], engine="slow", concurrency=2), confirm="auto", on_progress=progress))
        print("ANSWER", values["answer"]["status"], flush=True)
    except Exception as exc:
        from graph.runs import stopped_result
        print("STOPPED", type(exc).__name__, exc, [a.kind for a in stopped_result(exc, "t").actions], flush=True)
    """
)


def test_a_run_whose_database_is_killed_stops_with_a_sentence(folder: Path) -> None:
    from checkpoints.cluster import LocalCluster, _find_bindir

    home, docs = folder / "home", folder / "orders"
    docs.mkdir()
    for i in range(60):
        (docs / f"order-{i:02d}.md").write_text(f"| Code | Item | Quantity |\n|---|---|---|\n| {i} | Bolt | {i} |\n", encoding="utf-8")
    env = {**os.environ, "KEA_HOME": str(home), "PYTHONPATH": str(ROOT)}
    env.pop("KEA_DATABASE_URL", None)
    run = subprocess.Popen([sys.executable, "-c", RUN, str(docs)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    try:
        assert run.stdout is not None
        for line in run.stdout:  # wait until documents are being read
            if line.startswith("DONE"):
                break
        cluster = LocalCluster(home / "postgres")  # the run's own cluster, as Kea started it
        subprocess.run(cluster._as_owner([str(_find_bindir() / "pg_ctl"), "-D", str(cluster.data_dir), "-m", "immediate", "stop"]),
                       check=True, capture_output=True)
        killed = time.monotonic()
        rest, errors = run.communicate(timeout=240)  # a hang fails here, whatever the machine's speed
    finally:
        if run.poll() is None:
            run.kill()
    stopped = [line for line in rest.splitlines() if line.startswith(("STOPPED", "ANSWER"))]
    assert stopped and stopped[0].startswith("STOPPED DatabaseDown"), (rest, errors[-2000:])
    assert "Kea's database stopped answering" in stopped[0] and "['check_services', 'resume']" in stopped[0]
    assert "kea " not in stopped[0]  # no command of one client in the answer every client shows
    # The documents of the wave under way were loaded before the kill: they finish (their rows are
    # stored beside the table and never sent to the engine again), then the run stops; it never
    # waits for the database, document after document.
    assert time.monotonic() - killed < 240


RESTART_RUN = textwrap.dedent(
    """
    import asyncio, json, sys
    from pathlib import Path
    from core.profile import Profile
    from graph.runs import run_extraction
    from tools.engines import register_engine
    from tools.engines.offline import OfflineEngine
    from tools.knowledge.ingest import ingest
    from tools.services import services

    class Slow(OfflineEngine):
        name = "slow"
        async def extract_document(self, document, reading):
            print("READ", document.path, flush=True)
            await asyncio.sleep(0.3)
            return await super().extract_document(document, reading)

    register_engine("slow", Slow)
    profile = Profile(collections=["orders"], engine="slow", concurrency=2)
    thread, docs = sys.argv[1], sys.argv[2]

    def progress(event):
        if event.get("event") == "document_done":
            print("DONE", event["file"], flush=True)

    async def resume():
        from checkpoints.saver import postgres_checkpointer
        from graph.extraction import build_extraction_graph

        async with postgres_checkpointer() as saver:
            return await build_extraction_graph(saver).ainvoke(None, {"configurable": {"thread_id": thread}}, context=profile)

    try:
        if docs == "resume":
            values = asyncio.run(resume())
        else:
            ingest(services().kb, [Path(docs)], "orders", embed=False)
            values = asyncio.run(run_extraction("Code, item and quantity of every order", profile, confirm="auto",
                                                on_progress=progress, thread_id=thread))
        answer = values["answer"]
        print("ANSWER", json.dumps({"status": answer["status"], "rows": answer["summary"]["rows"],
                                    "failed": answer["summary"]["failed"], "csv": answer["csv"]}), flush=True)
    except Exception as exc:
        print("STOPPED", type(exc).__name__, exc, flush=True)
    """
)


def _tables(home: Path) -> list[Path]:
    return sorted((home / "files" / "record-extraction").glob("*/table.csv"))


def test_a_run_whose_database_restarts_stops_or_finishes_whole_and_resumes_from_its_checkpoint(folder: Path) -> None:
    from checkpoints.cluster import LocalCluster, _find_bindir

    home, docs = folder / "home", folder / "orders"
    docs.mkdir()
    for i in range(60):
        (docs / f"order-{i:02d}.md").write_text(f"| Code | Item | Quantity |\n|---|---|---|\n| {i} | Bolt | {i} |\n", encoding="utf-8")
    env = {**os.environ, "KEA_HOME": str(home), "PYTHONPATH": str(ROOT)}
    env.pop("KEA_DATABASE_URL", None)
    thread = "restarted-run"
    run = subprocess.Popen([sys.executable, "-c", RESTART_RUN, thread, str(docs)], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    cluster = LocalCluster(home / "postgres")  # the run's own cluster, as Kea started it
    try:
        assert run.stdout is not None
        done: set[str] = set()
        for line in run.stdout:  # wait until ten documents are read (their results are checkpointed)
            if line.startswith("DONE"):
                done.add(line.split(" ", 1)[1].strip())
            if len(done) == 10:
                break
        pg_ctl = str(_find_bindir() / "pg_ctl")
        subprocess.run(cluster._as_owner([pg_ctl, "-D", str(cluster.data_dir), "-m", "fast", "-w", "stop"]),
                       check=True, capture_output=True)
        cluster.ensure_running()  # started again on the same port, with every committed checkpoint
        rest, errors = run.communicate(timeout=240)  # a hang fails here, whatever the machine's speed
    finally:
        if run.poll() is None:
            run.kill()
    outcome = [line for line in rest.splitlines() if line.startswith(("STOPPED", "ANSWER"))]
    assert len(outcome) == 1, (rest, errors[-2000:])
    if outcome[0].startswith("STOPPED"):
        # a clear sentence, and no part of a table offered: a table stored before the run stopped
        # (it saves its checkpoints in the background, so it may get that far) is a whole one
        assert outcome[0].startswith("STOPPED DatabaseDown") and "Kea's database stopped answering" in outcome[0], outcome
        for table in _tables(home):
            assert len(table.read_text(encoding="utf-8-sig").splitlines()) == 61, table
    else:  # it rode the restart out: then the table is whole
        finished = json.loads(outcome[0].split(" ", 1)[1])
        assert finished["status"] == "done" and finished["rows"] == 60 and finished["failed"] == [], finished

    # the thread continues from its checkpoint, as `kea resume` does: the whole table, once
    resumed = subprocess.run([sys.executable, "-c", RESTART_RUN, thread, "resume"], capture_output=True, text=True,
                             env=env, cwd=ROOT, timeout=240)
    try:
        said = [line for line in resumed.stdout.splitlines() if line.startswith(("STOPPED", "ANSWER"))]
        assert len(said) == 1 and said[0].startswith("ANSWER"), (outcome, resumed.stdout[-2000:], resumed.stderr[-2000:])
        final = json.loads(said[0].split(" ", 1)[1])
        assert final["status"] == "done" and final["rows"] == 60 and final["failed"] == [], final
        table = Path(final["csv"].removeprefix("file://")).read_text(encoding="utf-8-sig").splitlines()
        assert sorted(row.split(",")[0] for row in table[1:]) == [f"order-{i:02d}.md" for i in range(60)]
        done |= {line.split(" ", 1)[1] for line in rest.splitlines() if line.startswith("DONE")}
        read_again = {line.split(" ", 1)[1] for line in resumed.stdout.splitlines() if line.startswith("READ")}
        assert not read_again & done, read_again & done  # a finished document is never read a second time
    finally:
        cluster.stop()
