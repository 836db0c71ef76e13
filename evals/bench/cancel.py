"""Benchmark: seconds from a cancel to the end of the run it stops (goal: under 5 s).

    python -m evals.bench.cancel [--documents 200] [--latency 3] [--repeats 3]

A run reads D tiny documents with an engine whose every call takes L seconds (a slow model),
eight at a time. Once a few documents are finished, the cancel is asked for as ``kea cancel``
asks from another process: a flag in the thread's row of ``runs``. Measured: seconds from
asking to the run's end (its partial table stored, its answer marked cancelled), and from
asking to the running process seeing it (its poll). The baseline is what the run would take
without cutting its model calls off: the calls in flight would first run out their L seconds.

In a throwaway KEA_HOME and PostgreSQL cluster; no network.
"""

from __future__ import annotations

import asyncio
import statistics
import time
from typing import Any

from evals.bench.common import (
    ROW_MESSAGE,
    command_line,
    ingest_tiny_documents,
    isolated_home,
    machine,
    save_and_show,
    use_fixed_engine,
)

GOAL_SECONDS = 5.0


async def _one(profile: Any, records: Any, thread: str, finished_before: int) -> dict[str, Any]:
    from graph.runs import Durable, run_extraction

    done = 0
    enough = asyncio.Event()

    def progress(event: dict[str, Any]) -> None:
        nonlocal done
        if event.get("event") == "document_done":
            done += 1
            if done >= finished_before:
                enough.set()

    durable = Durable(records, profile.user, "", "cli")
    run = asyncio.create_task(run_extraction(ROW_MESSAGE, profile, confirm="auto", on_progress=progress,
                                             thread_id=thread, durable=durable))
    await asyncio.wait_for(enough.wait(), timeout=600)
    asked = time.perf_counter()
    asked_at = time.time()
    await records.request_cancel(thread, profile.user)
    values = await asyncio.wait_for(run, timeout=600)
    ended = time.perf_counter() - asked
    seen = await _seen_after(records, thread, asked_at)
    answer = values.get("answer") or {}
    return {
        "seconds_to_end": round(ended, 3),
        "seconds_to_seen": round(seen, 3) if seen is not None else None,
        "status": answer.get("status"),
        "documents_read": (answer.get("summary") or {}).get("extracted"),
    }


async def _seen_after(records: Any, thread: str, asked_at: float) -> float | None:
    import psycopg

    async with await psycopg.AsyncConnection.connect(records.url) as conn:
        row = await (await conn.execute(
            "SELECT extract(epoch FROM cancel_seen_at) FROM runs WHERE thread_id = %s", (thread,)
        )).fetchone()
    return float(row[0]) - asked_at if row and row[0] is not None else None


def run(documents: int = 200, latency: float = 3.0, repeats: int = 3, concurrency: int = 8) -> dict[str, Any]:
    from checkpoints.runs import RunRecords
    from core.profile import Profile
    from tools.services import services

    with isolated_home() as home:
        svc = services()
        ingest_tiny_documents(svc.kb, home / "docs", "cancel", documents)
        engine = use_fixed_engine(latency=latency)
        profile = Profile(collections=["cancel"], engine=engine, concurrency=concurrency)
        records = RunRecords(svc.database_url)
        runs = [asyncio.run(_one(profile, records, f"bench-cancel-{i}", concurrency)) for i in range(repeats)]
    ends = [r["seconds_to_end"] for r in runs]
    return {
        "machine": machine(),
        "documents": documents,
        "latency_seconds": latency,
        "concurrency": concurrency,
        "runs": runs,
        "seconds_to_end": {"median": round(statistics.median(ends), 3), "max": round(max(ends), 3)},
        "goal_seconds": GOAL_SECONDS,
        "within_goal": max(ends) < GOAL_SECONDS,
        "baseline_seconds_without_cutting_calls_off": latency,
    }


def describe(r: dict[str, Any]) -> list[str]:
    s = r["seconds_to_end"]
    lines = [
        f"Cancel to the end of the run: median {s['median']} s, max {s['max']} s "
        f"(goal under {r['goal_seconds']} s: {'met' if r['within_goal'] else 'missed'}); "
        f"without cutting the calls in flight off it would wait up to {r['baseline_seconds_without_cutting_calls_off']} s more.",
    ]
    lines += [
        f"  run {i + 1}: {x['status']}, {x['documents_read']} of {r['documents']} documents read; seen after "
        f"{x['seconds_to_seen']} s, ended after {x['seconds_to_end']} s" for i, x in enumerate(r["runs"])
    ]
    return lines


def main() -> None:
    parser = command_line(__doc__)
    parser.add_argument("--documents", type=int, default=200)
    parser.add_argument("--latency", type=float, default=3.0)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    result = run(args.documents, args.latency, args.repeats)
    save_and_show("cancel", result, describe(result))


if __name__ == "__main__":
    main()
