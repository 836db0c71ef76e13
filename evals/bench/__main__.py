"""Run every benchmark, save its JSON and chart, and write the results page.

    python -m evals.bench [--quick] [--only fanout,memory]

Benchmarks: knowledge (ingest, resolving a glob), fanout (the graph against the physical
limit, a bare gather and LangGraph alone in the same waves), state_size (checkpoint bytes and stream events by rows per
document), memory (peak RSS by table size), csv_assembly (Kea's CSV assembly against Python's
csv writer), ranking (ranking 10,000 documents by meaning in Milvus Lite against the keyword
scan, and embedding throughput), parsing (Kea's parser against reading the text layer alone),
http_load (concurrent conversations against kea serve),
cancel (seconds from a cancel to the end of the run it stops), takeover (seconds from SIGKILL
of a kea serve replica to its run going on on another). Each compares Kea with a baseline measured in the same run, in its own
throwaway KEA_HOME and PostgreSQL cluster.

The full run saves ``evals/results/<name>.json`` and ``<name>.png`` and writes
``evals/RESULTS.md`` (about 5 minutes on two cores). ``--quick`` runs smaller sizes into
``evals/results/quick/`` so the full figures stay as they are.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from evals.bench import (
    cancel,
    csv_assembly,
    fanout,
    http_load,
    knowledge,
    memory,
    parsing,
    ranking,
    state_size,
    takeover,
)
from evals.bench.charts import BENCHMARKS, TABLED, draw_charts, write_results_page
from evals.bench.common import RESULTS, machine, save


def _knowledge(documents: int) -> dict[str, Any]:
    return {"machine": machine(), **knowledge.run(documents)}


def _knowledge_lines(r: dict[str, Any]) -> list[str]:
    i, s = r["ingest"], r["resolve"]
    return [
        f"Ingest: {i['indexed']} documents in {i['seconds']} s ({i['documents_per_second']} documents/s)",
        (
            f"Resolve {s['glob']} over {s['documents']:,} documents: {s['database_seconds']} s in the database, "
            f"{s['naive_scan_seconds']} s fetching every path ({s['naive_over_database']}x)"
        ),
    ]


@dataclass(frozen=True)
class Benchmark:
    run: Callable[..., dict[str, Any]]
    describe: Callable[[dict[str, Any]], list[str]]
    full: dict[str, Any]  # the arguments of ``run`` for the full run
    quick: dict[str, Any]  # and for --quick


SUITE = {
    "knowledge": Benchmark(_knowledge, _knowledge_lines, {"documents": 100_000}, {"documents": 20_000}),
    "fanout": Benchmark(
        fanout.run,
        fanout.describe,
        {"sizes": [100, 1000], "latency_ms": 50.0, "concurrency": 16, "cost_sizes": [1000, 5000]},
        {"sizes": [50, 200], "latency_ms": 50.0, "concurrency": 16, "cost_sizes": [200, 1000]},
    ),
    "state_size": Benchmark(
        state_size.run,
        state_size.describe,
        {"documents": 10, "rows_per_document": [10, 10_000]},
        {"documents": 10, "rows_per_document": [10, 2000]},
    ),
    "memory": Benchmark(
        memory.run,
        memory.describe,
        {"table_rows": [10_000, 200_000], "rows_per_document": 500},
        {"table_rows": [5000, 50_000], "rows_per_document": 500},
    ),
    "csv_assembly": Benchmark(
        csv_assembly.run,
        csv_assembly.describe,
        {"documents": 100, "rows_per_document": 2000},
        {"documents": 20, "rows_per_document": 1000},
    ),
    "ranking": Benchmark(ranking.run, ranking.describe, {"documents": 10_000}, {"documents": 2000}),
    "parsing": Benchmark(parsing.run, parsing.describe, {"repeats": 3}, {"repeats": 1}),
    "http_load": Benchmark(
        http_load.run,
        http_load.describe,
        {"conversations": 50, "documents": 50},
        {"conversations": 20, "documents": 20},
    ),
    "cancel": Benchmark(
        cancel.run, cancel.describe, {"documents": 200, "latency": 3.0, "repeats": 3}, {"documents": 60, "latency": 2.0, "repeats": 2}
    ),
    "takeover": Benchmark(
        takeover.run, takeover.describe, {"documents": 40, "latency": 0.5, "repeats": 5}, {"documents": 24, "latency": 0.5, "repeats": 3}
    ),
}
NAMES = (*BENCHMARKS, *TABLED, "http_load", "cancel", "takeover")  # the last three: no chart or results-page section yet


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m evals.bench",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--quick", action="store_true", help="smaller sizes, saved under evals/results/quick/"
    )
    parser.add_argument("--only", help=f"comma-separated benchmarks to run (of {', '.join(NAMES)})")
    args = parser.parse_args(argv)
    chosen = [n.strip() for n in (args.only or ",".join(NAMES)).split(",") if n.strip()]
    unknown = [n for n in chosen if n not in NAMES]
    if unknown:
        parser.error(f"unknown benchmark(s): {', '.join(unknown)}")
    folder = RESULTS / "quick" if args.quick else RESULTS
    page = folder / "RESULTS.md" if args.quick else None

    for name in chosen:
        print(f"== {name}", flush=True)
        start, load = time.perf_counter(), os.getloadavg()[0]
        bench = SUITE[name]
        result = bench.run(**(bench.quick if args.quick else bench.full))
        # other processes on the machine add time to every figure: say how busy it was
        result["load_average"] = [round(load, 2), round(os.getloadavg()[0], 2)]
        path = save(name, result, folder)
        for line in bench.describe(result):
            print(line)
        print(f"({time.perf_counter() - start:.0f} s; saved {path})", flush=True)
    try:
        charts = draw_charts(folder)
        print("Charts: " + ", ".join(str(c) for c in charts))
    except ImportError:
        print("Charts skipped: matplotlib is not installed (pip install -e '.[bench]').", file=sys.stderr)
    written = write_results_page(folder, page) if page else write_results_page(folder)
    print(f"Results page: {written}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
