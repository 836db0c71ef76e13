"""Benchmark: peak memory of a run by the size of its table.

    python -m evals.bench.memory [--rows 10000 200000] [--rows-per-document 500]

Each measurement runs in a fresh Python process on the same cluster and reports its peak
resident set (``VmHWM``) at the end. Kea's run: the real graph on the Postgres
checkpointer over D documents of R records each (an engine that returns R records; R is the
same at every size, since one document's records are in memory while it is extracted), its
rows stored per document and streamed into the CSV. The baseline, the same records in a
process that keeps the table in memory — one list of every record, then written with Python's
``csv`` writer — as a design that carries rows in state or assembles them in memory does.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path
from typing import Any

from evals.bench.common import (
    ROW_MESSAGE,
    command_line,
    ingest_tiny_documents,
    isolated_home,
    machine,
    save_and_show,
)

GROWTH_LIMIT = 1.20
ROOT = Path(__file__).resolve().parents[2]


def _peak_kib() -> int:
    """Peak resident set of this process in KiB.

    ``VmHWM`` belongs to this process's own memory; ``ru_maxrss`` keeps the parent's peak
    across fork and exec on Linux, so it serves only where /proc is missing.
    """
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


def _measure_kea(collection: str, rows_per_document: int) -> dict[str, Any]:
    import asyncio
    import time
    import uuid

    from checkpoints.saver import postgres_checkpointer
    from core.profile import Profile
    from evals.bench.common import stream_extraction, use_fixed_engine
    from graph.extraction import build_extraction_graph

    profile = Profile(
        collections=[collection], engine=use_fixed_engine(0.0, rows_per_document), concurrency=8
    )

    async def once() -> Any:
        async with postgres_checkpointer() as saver:
            return await stream_extraction(
                build_extraction_graph(saver), ROW_MESSAGE, profile, uuid.uuid4().hex
            )

    start = time.perf_counter()
    run = asyncio.run(once())
    rows = (run.answer.get("summary") or {}).get("rows")
    if run.answer.get("status") != "done" or not rows:
        raise RuntimeError(f"the measured run did not produce its table: {run.answer.get('message')}")
    return {
        "rows": rows,
        "seconds": round(time.perf_counter() - start, 3),
    }


def _measure_in_memory(collection: str, rows_per_document: int) -> dict[str, Any]:
    import csv
    import tempfile
    import time

    from core.selection import Scope
    from evals.bench.common import fixed_records
    from tools.services import services
    from tools.storage.table import header

    kb = services().kb
    scope = Scope(collections=[collection])
    columns = ["Code", "Name", "Amount"]
    start = time.perf_counter()
    table = []
    for ref in kb.resolve(scope).documents:
        document = kb.read_document(scope, ref.id)
        table += [(document.path, r) for r in fixed_records(document, columns, rows_per_document)]
    with tempfile.TemporaryFile("w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(header(columns))
        for file, r in table:
            writer.writerow([file, *(r.values.get(c) or "" for c in columns), r.match, r.page, r.evidence])
    return {"rows": len(table), "seconds": round(time.perf_counter() - start, 3)}


def _child(kind: str, collection: str, rows_per_document: int) -> None:
    """Run one measurement in this (fresh) process and print it as JSON."""
    measure = _measure_kea if kind == "kea" else _measure_in_memory
    result = measure(collection, rows_per_document)
    print(json.dumps({**result, "peak_rss_kib": _peak_kib()}))


def _in_fresh_process(kind: str, collection: str, rows_per_document: int) -> dict[str, Any]:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }
    done = subprocess.run(
        [sys.executable, "-m", "evals.bench.memory", "--child", kind, collection, str(rows_per_document)],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"the {kind} measurement failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def run(table_rows: list[int], rows_per_document: int) -> dict[str, Any]:
    from tools.services import services

    sizes: list[dict[str, Any]] = []
    with isolated_home() as home:
        svc = services()
        for rows in table_rows:
            documents = max(1, rows // rows_per_document)
            collection = f"memory-{rows}"
            ingest_tiny_documents(svc.kb, home / collection, collection, documents)
            kea = _in_fresh_process("kea", collection, rows_per_document)
            in_memory = _in_fresh_process("in-memory", collection, rows_per_document)
            sizes.append(
                {"rows": kea["rows"], "documents": documents, "kea": kea, "table_in_memory": in_memory}
            )
    growth = sizes[-1]["kea"]["peak_rss_kib"] / sizes[0]["kea"]["peak_rss_kib"]
    baseline_growth = (
        sizes[-1]["table_in_memory"]["peak_rss_kib"] / sizes[0]["table_in_memory"]["peak_rss_kib"]
    )
    return {
        "machine": machine(),
        "rows_per_document": rows_per_document,
        "sizes": sizes,
        "kea_growth": round(growth, 3),
        "table_in_memory_growth": round(baseline_growth, 3),
        # a ratio flatters the process that starts bigger: the absolute growth is said too
        "kea_extra_mib": round((sizes[-1]["kea"]["peak_rss_kib"] - sizes[0]["kea"]["peak_rss_kib"]) / 1024, 1),
        "table_in_memory_extra_mib": round(
            (sizes[-1]["table_in_memory"]["peak_rss_kib"] - sizes[0]["table_in_memory"]["peak_rss_kib"]) / 1024, 1
        ),
        "target_growth_below": GROWTH_LIMIT,
        "target_met": growth < GROWTH_LIMIT,
    }


def describe(result: dict[str, Any]) -> list[str]:
    lines = [
        f"{s['rows']:,} rows ({s['documents']} documents): Kea peak {s['kea']['peak_rss_kib'] / 1024:.0f} MiB "
        f"in {s['kea']['seconds']} s; table in memory {s['table_in_memory']['peak_rss_kib'] / 1024:.0f} MiB"
        for s in result["sizes"]
    ]
    lines.append(
        f"Peak memory grows {result['kea_growth']}x (+{result['kea_extra_mib']} MiB) with Kea, "
        f"{result['table_in_memory_growth']}x (+{result['table_in_memory_extra_mib']} MiB) with the table in memory"
    )
    return lines


def main() -> None:
    if len(sys.argv) == 5 and sys.argv[1] == "--child":
        _child(sys.argv[2], sys.argv[3], int(sys.argv[4]))
        return
    parser = command_line(__doc__)
    parser.add_argument("--rows", type=int, nargs="+", default=[10_000, 200_000], help="rows of the table")
    parser.add_argument("--rows-per-document", type=int, default=500, help="records each document gives")
    args = parser.parse_args()
    result = run(sorted(args.rows), args.rows_per_document)
    save_and_show("memory", result, describe(result))


if __name__ == "__main__":
    main()
