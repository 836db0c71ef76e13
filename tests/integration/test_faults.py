"""Faults under a real run: the database killed while documents are read.

The run happens in a separate process on a PostgreSQL cluster of its own (its own KEA_HOME), so
killing that server touches nothing else of the test session.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

RUN = textwrap.dedent(
    """
    import asyncio, sys
    from graph.profile import Profile
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
    ingest(services().kb, [Path(sys.argv[1])], "orders")
    def progress(event):
        if event.get("event") == "document_done":
            print("DONE", event["file"], flush=True)
    try:
        values = asyncio.run(run_extraction("Code, item and quantity of every order",
                             Profile(collections=["orders"], engine="slow", concurrency=2), confirm="auto", on_progress=progress))
        print("ANSWER", values["answer"]["status"], flush=True)
    except Exception as exc:
        print("STOPPED", type(exc).__name__, exc, flush=True)
    """
)


def test_a_run_whose_database_is_killed_stops_with_a_sentence(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from checkpoints.cluster import LocalCluster, _find_bindir

    home, docs = tmp_path / "home", tmp_path / "orders"
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
    assert "Kea's database stopped answering" in stopped[0] and "ask again" in stopped[0]
    assert sum(line.startswith("DONE") for line in rest.splitlines()) < 59  # it stopped, it did not wait out each document
    assert time.monotonic() - killed < 240
