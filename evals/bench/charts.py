"""Charts of the saved results (one PNG per benchmark) and the page that shows them, evals/RESULTS.md.

Everything here reads the JSON files the benchmarks and the evaluation saved; nothing is
measured. The charts need matplotlib (``pip install -e '.[bench]'``); the page does not.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from evals.bench import ranking
from evals.bench.common import RESULTS

EVALS = RESULTS.parent
PAGE = EVALS / "RESULTS.md"
BENCHMARKS = ("knowledge", "fanout", "state_size", "memory", "csv_assembly", "ranking")
KEA, BASELINE, REFERENCE, LIMIT = "#1f6f8b", "#c0504d", "#9bbb59", "#7f7f7f"


def _load(folder: Path, name: str) -> dict[str, Any] | None:
    path = folder / f"{name}.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None


# --------------------------------------------------------------------------------------------
# Charts


def draw_charts(folder: Path = RESULTS) -> list[Path]:
    """One PNG per saved benchmark result in ``folder``; returns the files written."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    drawn = []
    for name in BENCHMARKS:
        result = _load(folder, name)
        if result is None:
            continue
        figure, axes = plt.subplots(figsize=(7, 4))
        _DRAW[name](axes, result)
        axes.spines[["top", "right"]].set_visible(False)
        figure.tight_layout()
        path = folder / f"{name}.png"
        figure.savefig(path, dpi=110)
        plt.close(figure)
        drawn.append(path)
    return drawn


def _bars(axes: Any, labels: list[str], values: list[float], colors: list[str], fmt: str) -> None:
    bars = axes.bar(labels, values, color=colors)
    axes.bar_label(bars, labels=[fmt.format(v) for v in values], padding=2, fontsize=9)


def _draw_knowledge(axes: Any, r: dict[str, Any]) -> None:
    resolve = r["resolve"]
    _bars(
        axes,
        ["database (Kea)", "fetch every path,\nmatch in Python"],
        [1000 * resolve["database_seconds"], 1000 * resolve["naive_scan_seconds"]],
        [KEA, BASELINE],
        "{:.1f} ms",
    )
    axes.set_ylabel("milliseconds (best of 5)")
    axes.set_title(f"Resolve {resolve['glob']} over {resolve['documents']:,} documents")


def _draw_fanout(axes: Any, r: dict[str, Any]) -> None:
    series = [
        ("gather_over_limit", "asyncio.gather", REFERENCE),
        ("langgraph_send_over_limit", "LangGraph Send alone", LIMIT),
        ("graph_over_limit", "Kea's graph (Postgres saver)", KEA),
    ]
    width = 0.8 / len(series)
    for k, (key, label, color) in enumerate(series):
        xs = [i + (k - 1) * width for i in range(len(r["sizes"]))]
        bars = axes.bar(xs, [s[key] for s in r["sizes"]], width, label=label, color=color)
        axes.bar_label(bars, fmt="%.2f", padding=2, fontsize=8)
    axes.axhline(1.0, color="black", linewidth=0.8)
    axes.axhline(
        r["target_graph_over_limit"],
        color=BASELINE,
        linestyle="--",
        linewidth=0.8,
        label=f"target {r['target_graph_over_limit']}",
    )
    axes.set_xticks(range(len(r["sizes"])), [f"{s['documents']:,} documents" for s in r["sizes"]])
    axes.set_ylim(0, 1.35 * max(s["graph_over_limit"] for s in r["sizes"]))
    axes.set_ylabel("wall time / physical limit ceil(N/C)·L")
    axes.set_title(f"Fan-out, L = {r['latency_ms']:g} ms, C = {r['concurrency']}")
    axes.legend(fontsize=8, loc="upper left", ncol=2)


def _draw_state_size(axes: Any, r: dict[str, Any]) -> None:
    rows = [k["rows_per_document"] for k in r["kea"]]
    for runs, key, style, color, label in [
        (r["kea"], "bytes_per_document", "o-", KEA, "Kea: checkpoint bytes / document"),
        (
            r["rows_in_state"],
            "bytes_per_document",
            "o-",
            BASELINE,
            "rows in state: checkpoint bytes / document",
        ),
        (r["kea"], "largest_event", "s:", KEA, "Kea: largest stream event"),
    ]:
        axes.plot(rows, [run[key] for run in runs], style, color=color, label=label)
    axes.axhline(64 * 1024, color=LIMIT, linestyle="--", linewidth=0.8, label="64 KB")
    axes.set_xscale("log")
    axes.set_yscale("log")
    axes.set_xlabel("rows per document")
    axes.set_ylabel("bytes")
    axes.set_title(f"State size, {r['documents']} documents")
    axes.legend(fontsize=8)


def _draw_memory(axes: Any, r: dict[str, Any]) -> None:
    width = 0.38
    xs = range(len(r["sizes"]))
    for k, (key, label, color) in enumerate(
        [("kea", "Kea", KEA), ("table_in_memory", "table in memory", BASELINE)]
    ):
        bars = axes.bar(
            [x + (k - 0.5) * width for x in xs],
            [s[key]["peak_rss_kib"] / 1024 for s in r["sizes"]],
            width,
            label=label,
            color=color,
        )
        axes.bar_label(bars, fmt="%.0f", padding=2, fontsize=8)
    axes.set_xticks(list(xs), [f"{s['rows']:,} rows" for s in r["sizes"]])
    axes.set_ylim(
        0, 1.3 * max(s[k]["peak_rss_kib"] / 1024 for s in r["sizes"] for k in ("kea", "table_in_memory"))
    )
    axes.set_ylabel("peak resident memory (MiB)")
    axes.set_title(f"Peak memory of a run ({r['rows_per_document']} rows per document)")
    axes.legend(fontsize=8, loc="upper left", ncol=2)


def _draw_csv_assembly(axes: Any, r: dict[str, Any]) -> None:
    from matplotlib.ticker import StrMethodFormatter

    _bars(
        axes,
        ["Kea: stored rows\n→ CSV", "csv.writer on rows\nin memory", "Kea: storing rows\nper document"],
        [r["kea_rows_per_second"], r["csv_writer_rows_per_second"], r["row_writes_rows_per_second"]],
        [KEA, BASELINE, REFERENCE],
        "{:,.0f}",
    )
    axes.yaxis.set_major_formatter(StrMethodFormatter("{x:,.0f}"))
    axes.set_ylabel("rows per second")
    axes.set_title(f"CSV assembly, {r['rows']:,} rows from {r['documents']} documents")


# --------------------------------------------------------------------------------------------
# The page


def _yes(met: bool) -> str:
    return "yes" if met else "**no**"


def _image(name: str, folder: Path, page: Path) -> str:
    chart = folder / f"{name}.png"
    if not chart.exists():
        return "(chart not drawn: install matplotlib, `pip install -e '.[bench]'`)"
    return f"![{name}]({os.path.relpath(chart, page.parent)})"


def write_results_page(folder: Path = RESULTS, page: Path = PAGE) -> Path:
    """Write the results page from the JSON files in ``folder`` (the evaluation from ``RESULTS``)."""
    parts = [
        "# Kea, measured",
        "",
        (
            "Every figure here is read from the JSON files in `evals/results/` and is reproduced by one "
            "command: `make eval` (the evaluation) and `make bench` (the benchmarks; "
            "`python -m evals.bench --quick` runs smaller sizes). Each benchmark compares Kea with a "
            "baseline measured in the same run, on the same machine."
        ),
        "",
        *_evaluation_section(),
        *_benchmark_sections(folder, page),
    ]
    page.parent.mkdir(parents=True, exist_ok=True)
    page.write_text("\n".join(parts).rstrip() + "\n", encoding="utf-8")
    return page


def _evaluation_section() -> list[str]:
    from evals.run import report_markdown

    report = _load(RESULTS, "eval")
    lines = [
        "## Evaluation (`make eval`)",
        "",
        (
            'Every ground-truth case runs through the real graph (`run_extraction(..., confirm="auto")`) on a '
            "throwaway knowledge base: the generated corpus (`evals/corpus/`), the real documents "
            "(`evals/real/`) and a second generated corpus (`evals/corpus2/`, reported apart) whose "
            "requests were written before any engine ran on them. The stored CSV is read back and matched row by row to the truth "
            "(`evals/score.py`). Recall: true rows found; precision: rows given that are true; documents "
            "complete: documents that should give rows and gave at least one true row; rows from wrong "
            "documents: rows from documents that should give none. `explicit` cases are those the offline "
            "engine must solve; `semantic` cases need a language model; `real` cases read documents "
            "nobody here wrote."
        ),
        "",
    ]
    if report is None:
        return [*lines, "Not run yet: `make eval` writes `evals/results/eval.json`.", ""]
    lines.append(report_markdown(report))
    real = [r for r in report["cases"] if "real" in r.get("tags", [])]
    if real:
        lines += [
            (
                "The real documents, their source and licence, and what their layout asks of a parser are "
                "described in `evals/real/README.md`."
            ),
            "",
        ]
    return lines


def _benchmark_sections(folder: Path, page: Path) -> list[str]:
    results = {name: _load(folder, name) for name in BENCHMARKS}
    machine = next((r["machine"] for r in results.values() if r and "machine" in r), None)
    lines = ["## Benchmarks (`make bench`)", ""]
    if machine:
        lines += [
            (
                f"Measured on {machine['cpus']} CPUs, {machine['system']}, Python {machine['python']}, "
                f"langgraph {machine['langgraph']}, langgraph-checkpoint-postgres "
                f"{machine['langgraph-checkpoint-postgres']}; PostgreSQL is the local cluster Kea starts itself."
            ),
            "",
        ]
    loads = [x for r in results.values() if r for x in r.get("load_average", [])]
    if loads:
        lines += [
            (
                f"The machine's 1-minute load average during the runs was {min(loads):.1f}–{max(loads):.1f} on "
                f"{machine['cpus'] if machine else '?'} CPUs; other processes add time to every timed figure, to Kea's and "
                f"to the baselines' alike."
            ),
            "",
        ]
    summary = [
        "| benchmark | Kea | baseline in the same run | target | met |",
        "|---|---|---|---|---|",
    ]
    sections: list[str] = []
    for name in BENCHMARKS:
        result = results[name]
        if result is None:
            continue
        try:
            row, text = _SECTIONS[name](result)
        except KeyError:  # saved by an earlier version of the benchmark
            row, text = f"| {name} | (older results: run `make bench`) | | | |", []
        summary.append(row)
        sections += [*text, "", _image(name, folder, page), ""]
    if len(summary) == 2:
        return [*lines, "Not run yet: `make bench`.", ""]
    return [*lines, *summary, "", *sections]


def _section_knowledge(r: dict[str, Any]) -> tuple[str, list[str]]:
    i, s = r["ingest"], r["resolve"]
    row = (
        f"| knowledge: resolve `{s['glob']}` over {s['documents']:,} documents | {1000 * s['database_seconds']:.1f} ms "
        f"| fetch every path and match in Python: {1000 * s['naive_scan_seconds']:.1f} ms ({s['naive_over_database']}x) | – | – |"
    )
    return row, [
        "### Knowledge base",
        "",
        (
            f"Ingesting the generated corpus: {i['indexed']} documents in {i['seconds']} s "
            f"({i['documents_per_second']} documents/s); ingesting it again, unchanged, {i['unchanged_rerun_seconds']} s. "
            f"Resolving the glob `{s['glob']}` over {s['documents']:,} document rows ({s['matched']:,} match) in the "
            f"database takes {1000 * s['database_seconds']:.1f} ms; fetching every path of the scope and matching the "
            f"glob in Python takes {1000 * s['naive_scan_seconds']:.1f} ms ({s['naive_over_database']}x). Best of 5 each."
        ),
    ]


def _section_fanout(r: dict[str, Any]) -> tuple[str, list[str]]:
    largest, b = r["sizes"][-1], r["breakdown"]
    cost = b["cost_ms_per_document"]
    row = (
        f"| fan-out: {largest['documents']:,} documents, L = {r['latency_ms']:g} ms, C = {r['concurrency']} "
        f"| {largest['graph_seconds']:.2f} s = {largest['graph_over_limit']:.2f}x the limit "
        f"| limit {largest['limit_seconds']:.2f} s; asyncio.gather {largest['gather_seconds']:.2f} s "
        f"(Kea {largest['graph_over_gather']:.2f}x) | ≤ {r['target_graph_over_limit']}x the limit | {_yes(r['target_met'])} |"
    )
    table = [
        (
            "| documents | limit ceil(N/C)·L | asyncio.gather | LangGraph Send alone | Kea's graph | Kea / limit | Kea / gather "
            "| before the fan-out | fan-out | table assembly |"
        ),
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for s in r["sizes"]:
        p = s["phases_seconds"]
        table.append(
            f"| {s['documents']:,} | {s['limit_seconds']:.2f} s | {s['gather_seconds']:.2f} s "
            f"| {s['langgraph_send_seconds']:.2f} s | {s['graph_seconds']:.2f} s | {s['graph_over_limit']:.2f} "
            f"| {s['graph_over_gather']:.2f} | {p['before_fanout']:.2f} s | {p['fanout']:.2f} s | {p['after_fanout']:.2f} s |"
        )
    postgres_share = cost["graph_postgres"] - cost["graph_in_memory_saver"]
    saver = (
        f"the Postgres checkpointer adds {postgres_share:.2f} ms"
        if postgres_share > 0
        else "no measurable difference: the checkpointer is not where the time goes"
    )
    cpu = b["cpu"]
    n = b["documents"]
    per_document_steps = [
        (name, step) for name, step in cpu["worker_steps"].items() if step["calls"] >= n / 2
    ]
    steps = [
        "| step in a worker thread | calls | CPU per document | wall per call, as the awaiting node sees it |",
        "|---|---:|---:|---:|",
        *(
            f"| `{name}` | {step['calls']:,} | {step['cpu_ms_per_document']:.2f} ms | {step['wall_ms_per_call']:.1f} ms |"
            for name, step in per_document_steps
        ),
    ]
    process_seconds = n * cpu["process_cpu_ms_per_document"] / 1000
    bound = cpu["process_cpu_ms_per_document"] > b["budget_ms_per_document"]
    longer = b["longer_wait"]
    slowest = max(per_document_steps, key=lambda item: item[1]["wall_ms_per_call"], default=None)
    limits = [
        (
            f"The cost per document, with no engine wait, at {n:,} documents: {cost['graph_postgres']} ms on the "
            f"Postgres saver, {cost['graph_in_memory_saver']} ms on LangGraph's in-memory saver ({saver}); LangGraph "
            f"alone, on the Postgres saver, {cost['langgraph_send_postgres']} ms. With the engine's wait, the in-memory "
            f"saver runs {b['graph_in_memory_saver_seconds']:.2f} s ({b['graph_in_memory_saver_over_limit']}x the "
            f"limit) and LangGraph alone on it {b['langgraph_send_in_memory_saver_seconds']:.2f} s "
            f"({b['langgraph_send_in_memory_saver_over_limit']}x)."
        ),
        "",
        (
            f"One more run at L = {r['latency_ms']:g} ms ({cpu['seconds']:.2f} s) with its CPU counted: the Python "
            f"process spends {cpu['process_cpu_ms_per_document']} ms of CPU per document — "
            f"{cpu['event_loop_cpu_ms_per_document']} ms on the event-loop thread (LangGraph's scheduling of the Sends, the "
            f"checkpointer's calls, the nodes' own code, the stream) and {cpu['worker_cpu_ms_per_document']} ms in "
            f"worker threads, step by step:"
        ),
        "",
        *steps,
        "",
    ]
    if bound:
        limits.append(
            f"What limits it: CPU. C slots of L leave L/C = {b['budget_ms_per_document']} ms per document; the process "
            f"needs {cpu['process_cpu_ms_per_document']} ms, so {n:,} documents take {process_seconds:.1f} s of CPU in "
            f"one Python process (one event loop; worker threads share its GIL) against a limit of "
            f"{largest['limit_seconds']:.2f} s, and the wall time follows the CPU rather than the engine. More of it "
            + (
                "runs on the event loop than in the worker threads"
                if cpu["event_loop_cpu_ms_per_document"] >= cpu["worker_cpu_ms_per_document"]
                else "runs in the worker threads than on the event loop"
            )
            + ". "
            + (
                f"A step sent to a worker thread comes back much later than its CPU takes (`{slowest[0]}`: "
                f"{slowest[1]['cpu_ms_per_document']:.2f} ms of CPU, {slowest[1]['wall_ms_per_call']:.1f} ms until the node "
                f"resumes) because it queues for the GIL (and a free worker) behind everything else, and the steps of "
                f"`extract_document` run inside its concurrency slot, so each slot is held that much longer than L. "
                if slowest
                else ""
            )
            + f"As the engine slows the same cost weighs less: at L = {longer['latency_ms']:g} ms the graph took "
            f"{longer['graph_seconds']:.2f} s against a limit of {longer['limit_seconds']:.2f} s "
            f"({longer['graph_over_limit']:.2f}x). A language model's calls take seconds."
        )
    else:
        limits.append(
            f"The process needs {cpu['process_cpu_ms_per_document']} ms of CPU per document, within the "
            f"L/C = {b['budget_ms_per_document']} ms that C slots of L leave; at L = {longer['latency_ms']:g} ms the "
            f"graph took {longer['graph_over_limit']:.2f}x the limit."
        )
    return row, [
        "### Fan-out",
        "",
        (
            f"N tiny documents through the real graph on the Postgres checkpointer with an engine that waits "
            f"L = {r['latency_ms']:g} ms per document and returns {r['records_per_document']} records, C = "
            f"{r['concurrency']} at a time (profile concurrency). The physical limit is ceil(N/C)·L; the bare baseline "
            f'is `asyncio.gather` of the same engine calls behind a semaphore of C; "LangGraph Send alone" is a '
            f"two-node graph with one Send per document to a node that only calls the engine, on the same Postgres "
            f"saver. Best of {r['runs']}. Target: Kea ≤ {r['target_graph_over_limit']}x the limit at the largest N — "
            f"{'met' if r['target_met'] else 'not met'}."
        ),
        "",
        *table,
        "",
        *limits,
    ]


def _section_state_size(r: dict[str, Any]) -> tuple[str, list[str]]:
    small, large = r["kea"][0], r["kea"][-1]
    base_large = r["rows_in_state"][-1]
    row = (
        f"| state size: checkpoint bytes per document, {small['rows_per_document']:,} → {large['rows_per_document']:,} "
        f"rows per document | {small['bytes_per_document']:,} → {large['bytes_per_document']:,} B "
        f"({r['growth_bytes_per_document']}x); largest event {r['largest_event']:,} B "
        f"| rows in state: {r['rows_in_state'][0]['bytes_per_document']:,} → {base_large['bytes_per_document']:,} B "
        f"| independent of rows per document (≤ {r['target']['growth_at_most']}x); events ≤ 64 KB | {_yes(r['target_met'])} |"
    )
    table = [
        (
            "| rows per document | Kea: bytes / document | Kea: largest stored value | Kea: largest event "
            "| rows in state: bytes / document | rows in state: largest stored value | rows in state: largest event |"
        ),
        "|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for kea, carried in zip(r["kea"], r["rows_in_state"]):
        table.append(
            f"| {kea['rows_per_document']:,} | {kea['bytes_per_document']:,} | {kea['largest_stored_value']:,} "
            f"| {kea['largest_event']:,} | {carried['bytes_per_document']:,} | {carried['largest_stored_value']:,} "
            f"| {carried['largest_event']:,} |"
        )
    return row, [
        "### State size",
        "",
        (
            f"{r['documents']} documents, each giving R records (an engine that returns R records), through the real graph "
            f"on the Postgres checkpointer. Bytes per document: everything the thread wrote to `checkpoints`, "
            f"`checkpoint_blobs` and `checkpoint_writes`, divided by the documents; the largest stored value is the "
            f"largest single blob or checkpoint; the largest event is the largest item of "
            f'`astream(..., stream_mode=["updates", "custom"])` as JSON. The baseline carries each document\'s '
            f"records in state (a Send per document into a list reducer) on the same saver. Kea's figures include the "
            f"answer with its preview of at most 100 rows, which is why it writes more than the baseline when documents "
            f"give few rows."
        ),
        "",
        *table,
    ]


def _section_memory(r: dict[str, Any]) -> tuple[str, list[str]]:
    small, large = r["sizes"][0], r["sizes"][-1]
    row = (
        f"| memory: peak RSS, {small['rows']:,} → {large['rows']:,} rows | {small['kea']['peak_rss_kib'] / 1024:.0f} → "
        f"{large['kea']['peak_rss_kib'] / 1024:.0f} MiB ({r['kea_growth']}x) | table in memory: "
        f"{small['table_in_memory']['peak_rss_kib'] / 1024:.0f} → {large['table_in_memory']['peak_rss_kib'] / 1024:.0f} MiB "
        f"({r['table_in_memory_growth']}x) | grows < {round(100 * (r['target_growth_below'] - 1))} % | {_yes(r['target_met'])} |"
    )
    table = [
        "| rows | documents | Kea: peak RSS | Kea: seconds | table in memory: peak RSS |",
        "|---:|---:|---:|---:|---:|",
    ]
    for s in r["sizes"]:
        table.append(
            f"| {s['rows']:,} | {s['documents']:,} | {s['kea']['peak_rss_kib'] / 1024:.0f} MiB | {s['kea']['seconds']} "
            f"| {s['table_in_memory']['peak_rss_kib'] / 1024:.0f} MiB |"
        )
    return row, [
        "### Memory",
        "",
        (
            f"Peak resident memory (`VmHWM`) of a fresh process that runs the real graph on the Postgres checkpointer "
            f"to a table of the given size: documents of {r['rows_per_document']} records each (one document's records "
            f"are in memory while it is extracted, so the size grows by documents). The baseline process builds the same "
            f"records into one list and writes them with Python's `csv` writer, as a design that holds the table in "
            f"memory does."
        ),
        "",
        *table,
    ]


def _section_csv_assembly(r: dict[str, Any]) -> tuple[str, list[str]]:
    row = (
        f"| CSV assembly: {r['rows']:,} rows | {r['kea_rows_per_second']:,} rows/s | csv.writer on rows in memory: "
        f"{r['csv_writer_rows_per_second']:,} rows/s (Kea takes {r['kea_over_csv_writer_seconds']}x the time) | – | – |"
    )
    return row, [
        "### CSV assembly",
        "",
        (
            f"{r['rows']:,} rows of {r['documents']} documents, stored per document as `extract_document` stores them, "
            f"assembled by the function `store_csv` calls (`_assemble`: each document's rows read back from the "
            f"object store, written through `TableWriter` with the formula guard and the preview, the CSV stored): "
            f"{r['kea_rows_per_second']:,} rows/s. Python's `csv.writer` writing the same rows, already in memory as "
            f"lists of strings, to a file: {r['csv_writer_rows_per_second']:,} rows/s. Kea pays for reading and "
            f"validating every stored row, and in exchange never holds more than one document's rows. Storing the rows "
            f"per document in the first place runs at {r['row_writes_rows_per_second']:,} rows/s."
        ),
    ]


_DRAW = {
    "knowledge": _draw_knowledge,
    "fanout": _draw_fanout,
    "state_size": _draw_state_size,
    "memory": _draw_memory,
    "csv_assembly": _draw_csv_assembly,
    "ranking": ranking.draw,
}
_SECTIONS = {
    "knowledge": _section_knowledge,
    "fanout": _section_fanout,
    "state_size": _section_state_size,
    "memory": _section_memory,
    "csv_assembly": _section_csv_assembly,
    "ranking": ranking.section,
}
