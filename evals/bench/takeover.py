"""Benchmark: seconds from SIGKILL of a ``kea serve`` replica to its run going on on another.

    python -m evals.bench.takeover [--documents 40] [--latency 0.5] [--repeats 5]

Two replicas (``kea serve`` processes, each with a home of its own) share one PostgreSQL, one
file store and one Milvus. A run reads D tiny documents with an engine whose every call takes L
seconds, C at a time, on one replica; once C documents are read, that replica is killed with
SIGKILL. Measured, per repeat: seconds from the kill to the other replica holding the run's lease
(``runs.leased_at``: the takeover) and to its first call of the engine for that run (the run
reading again), and that the run then finished with every document read. The killed replica is
started again for the next repeat, and the next run starts on the other one.

The bound comes from how often a live replica looks for orphans (``KEA_TAKEOVER_SECONDS``, 2 s,
jittered by ±25 %); a process that dies on a live machine frees its lease at once. The baseline is
what Kea did before replicas looked while running: the run waited until some ``kea serve`` started.

In a throwaway KEA_HOME and PostgreSQL cluster; everything on 127.0.0.1.
"""

from __future__ import annotations

import json
import os
import signal
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from checkpoints.cluster import free_port
from evals.bench.common import (
    BENCH_ENGINE,
    command_line,
    ingest_tiny_documents,
    isolated_home,
    machine,
    save_and_show,
)

ROOT = Path(__file__).resolve().parents[2]
GUARD = 600.0  # seconds: no step of a repeat takes this long unless something hangs
MESSAGE = "All rows with code, name and amount"


class _Replica:
    def __init__(self, name: str, home: Path, environment: dict[str, str]) -> None:
        self.name, self.home, self.environment = name, home, environment
        self.process: subprocess.Popen[bytes] | None = None
        self.port = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        import httpx

        self.port = free_port()
        with open(self.home / "serve.log", "ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "evals.bench.replica", "serve", "--port", str(self.port)],
                stdout=log, stderr=subprocess.STDOUT, cwd=ROOT, env={**self.environment, "KEA_HOME": str(self.home)},
                start_new_session=True,
            )
        deadline = time.monotonic() + GUARD
        while True:
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"replica {self.name} did not start: {(self.home / 'serve.log').read_text()[-2000:]}")
            try:
                if httpx.get(f"{self.url}/health", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)

    def kill(self) -> float:
        """SIGKILL; the time (epoch seconds) the process was gone."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=60)
        return time.time()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.process.kill()


def _run_until_read(replica: _Replica, key: str, thread: str, read: int) -> threading.Thread:
    """Start the run on ``replica`` (a client streaming its events); return once ``read``
    documents are read. The client's thread ends when the replica is killed."""
    import httpx

    enough = threading.Event()

    def listen() -> None:
        body = {"message": MESSAGE, "thread": thread, "model": "kea-bench", "confirm": "auto"}
        done = 0
        try:
            with httpx.stream("POST", f"{replica.url}/v1/runs", json=body, timeout=GUARD,
                              headers={"Authorization": f"Bearer {key}"}) as response:
                for line in response.iter_lines():
                    if line.startswith("data: ") and '"document_done"' in line:
                        done += 1
                        if done >= read:
                            enough.set()
        except httpx.HTTPError:
            pass  # the replica is killed under it
        finally:
            enough.set()

    client = threading.Thread(target=listen, daemon=True)
    client.start()
    if not enough.wait(GUARD):
        raise RuntimeError("the run never read its first documents")
    return client


def _lease(url: str, thread: str) -> tuple[str | None, float | None]:
    import psycopg

    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT holder, extract(epoch FROM leased_at) FROM runs WHERE thread_id = %s", (thread,)).fetchone()
    return (row[0], float(row[1])) if row and row[1] is not None else (None, None)


def _calls(path: Path) -> list[tuple[int, float, str]]:
    if not path.exists():
        return []
    return [(int(p), float(t), f) for p, t, f in (line.split(" ", 2) for line in path.read_text().splitlines())]


def _one(victim: _Replica, survivor: _Replica, url: str, key: str, thread: str, calls: Path, concurrency: int,
         documents: int) -> dict[str, Any]:
    import httpx

    started = time.time()
    client = _run_until_read(victim, key, thread, concurrency)
    assert victim.process is not None and survivor.process is not None
    victim_pid, survivor_pid = victim.process.pid, survivor.process.pid
    killed = victim.kill()
    client.join(timeout=60)
    deadline = time.monotonic() + GUARD
    while True:
        holder, leased = _lease(url, thread)
        if holder and holder.split(":")[1] == str(survivor_pid) and leased is not None:
            break
        if time.monotonic() > deadline:
            raise RuntimeError("the run was never taken over")
        time.sleep(0.02)
    while not (resumed := [t for p, t, _ in _calls(calls) if p == survivor_pid and t > killed]):
        if time.monotonic() > deadline:
            raise RuntimeError("the run never read again after the takeover")
        time.sleep(0.02)
    with httpx.Client(base_url=survivor.url, headers={"Authorization": f"Bearer {key}"}, timeout=60) as http:
        while (state := http.get(f"/v1/runs/{thread}").json())["status"] == "running":
            if time.monotonic() > deadline:
                raise RuntimeError("the run taken over never finished")
            time.sleep(0.1)
    mine = [(p, t, f) for p, t, f in _calls(calls) if t >= started]  # this repeat's calls
    read = {f for p, _, f in mine}
    before = {f for p, _, f in mine if p == victim_pid}
    after = [f for p, _, f in mine if p == survivor_pid]
    result = state.get("result") or {}
    return {
        "seconds_to_takeover": round(leased - killed, 3),
        "seconds_to_reading_again": round(min(resumed) - killed, 3),
        "status": state["status"],
        "documents_read": (result.get("documents") or {}).get("extracted"),
        "read_before_the_kill": len(before),
        "read_by_the_survivor": len(after),
        "read_twice": len(set(after) & before),
        "every_document_read": len(read) == documents,
    }


def run(documents: int = 40, latency: float = 0.5, repeats: int = 5, concurrency: int = 4) -> dict[str, Any]:
    from checkpoints.milvus import LocalMilvus
    from server.cli_http import _with_accounts
    from tools.services import services

    with isolated_home() as home:
        svc = services()
        ingest_tiny_documents(svc.kb, home / "docs", "takeover", documents)
        svc.kb.grant("takeover", "bench")
        _, key = _with_accounts(lambda accounts: accounts.create_key("bench"))
        calls = home / "calls.log"
        environment = {
            **{k: v for k, v in os.environ.items() if not k.startswith("KEA_")},
            "PYTHONPATH": str(ROOT),
            "KEA_DATABASE_URL": svc.database_url,
            "KEA_MILVUS_URI": LocalMilvus.default().ensure_running(),
            "KEA_STORAGE_URL": (home / "shared-files").as_uri(),  # one store for both, as a bucket would be
            "KEA_BENCH_LATENCY": str(latency),
            "KEA_BENCH_CALLS": str(calls),
        }
        replicas = []
        for name in ("a", "b"):
            folder = home / f"replica-{name}"
            (folder / "profiles").mkdir(parents=True)
            (folder / "profiles" / "bench.json").write_text(json.dumps(
                {"engine": BENCH_ENGINE, "collections": ["takeover"], "concurrency": concurrency}), encoding="utf-8")
            replicas.append(_Replica(name, folder, environment))
        try:
            for replica in replicas:
                replica.start()
            runs = []
            for i in range(repeats):
                victim, survivor = replicas[i % 2], replicas[(i + 1) % 2]
                runs.append(_one(victim, survivor, svc.database_url, key, f"bench-takeover-{i}", calls, concurrency,
                                 documents))
                victim.start()  # back for the next repeat, where it is the survivor
        finally:
            for replica in replicas:
                replica.stop()
    takeovers = [r["seconds_to_takeover"] for r in runs]
    reading = [r["seconds_to_reading_again"] for r in runs]
    return {
        "machine": machine(),
        "documents": documents,
        "latency_seconds": latency,
        "concurrency": concurrency,
        "takeover_interval_seconds": float(os.environ.get("KEA_TAKEOVER_SECONDS", "2")),
        "runs": runs,
        "seconds_to_takeover": {"median": round(statistics.median(takeovers), 3), "max": round(max(takeovers), 3)},
        "seconds_to_reading_again": {"median": round(statistics.median(reading), 3), "max": round(max(reading), 3)},
        "all_finished": all(r["status"] == "done" and r["every_document_read"] for r in runs),
        "baseline": "the run waited until some kea serve started (unbounded)",
    }


def describe(r: dict[str, Any]) -> list[str]:
    t, g = r["seconds_to_takeover"], r["seconds_to_reading_again"]
    lines = [
        f"SIGKILL of a replica to its run taken over by the other: median {t['median']} s, max {t['max']} s "
        f"(it looks every {r['takeover_interval_seconds']:g} s ±25 %); to the run reading again: median {g['median']} s, "
        f"max {g['max']} s; {len(r['runs'])} repeats, every run finished whole: {'yes' if r['all_finished'] else 'NO'}. "
        f"Before: {r['baseline']}.",
    ]
    lines += [
        f"  run {i + 1}: {x['status']}, {x['read_before_the_kill']} documents read before the kill, "
        f"{x['read_by_the_survivor']} after ({x['read_twice']} by both: in flight at the kill); taken over after "
        f"{x['seconds_to_takeover']} s, reading again after {x['seconds_to_reading_again']} s"
        for i, x in enumerate(r["runs"])
    ]
    return lines


def main() -> None:
    parser = command_line(__doc__)
    parser.add_argument("--documents", type=int, default=40)
    parser.add_argument("--latency", type=float, default=0.5)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    result = run(args.documents, args.latency, args.repeats)
    save_and_show("takeover", result, describe(result))


if __name__ == "__main__":
    main()
