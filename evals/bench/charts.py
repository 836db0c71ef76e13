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
TABLED = ("parsing",)  # in the results page's table and text, without a chart
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
        ("langgraph_all_at_once_over_limit", "LangGraph, all Sends at once", BASELINE),
        ("langgraph_waves_over_limit", "LangGraph, in Kea's waves", LIMIT),
        ("kea_over_limit", "Kea's graph (Postgres saver)", KEA),
    ]
    width = 0.8 / len(series)
    for k, (key, label, color) in enumerate(series):
        xs = [i + (k - 1.5) * width for i in range(len(r["sizes"]))]
        bars = axes.bar(xs, [s[key] for s in r["sizes"]], width, label=label, color=color)
        axes.bar_label(bars, fmt="%.2f", padding=2, fontsize=7)
    axes.axhline(1.0, color="black", linewidth=0.8)
    target = r["targets"]["kea_over_limit"]
    axes.axhline(target, color=BASELINE, linestyle="--", linewidth=0.8, label=f"target {target}")
    axes.set_xticks(range(len(r["sizes"])), [f"{s['documents']:,} documents" for s in r["sizes"]])
    axes.set_ylim(0, 1.35 * max(max(s[key] for key, _, _ in series) for s in r["sizes"]))
    axes.set_ylabel("wall time / physical limit ceil(N/C)·L")
    axes.set_title(f"Fan-out, L = {r['latency_ms']:g} ms, C = {r['concurrency']}, waves of {r['wave']}")
    axes.legend(fontsize=7, loc="upper left", ncol=2)


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
    from evals.report import report_markdown

    report = _load(RESULTS, "eval")
    lines = [
        "## Evaluation (`make eval`)",
        "",
        (
            'Every ground-truth case runs through the real graph (`run_extraction(..., confirm="auto")`) on a '
            "throwaway knowledge base: the generated corpus (`corpora/first.py`), the real documents "
            "(`evals/real/`) and a second generated corpus (`corpora/second.py`, reported apart) whose "
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
    results = {name: _load(folder, name) for name in (*BENCHMARKS, *TABLED)}
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
    for name in (*BENCHMARKS, *TABLED):
        result = results[name]
        if result is None:
            continue
        try:
            row, text = _SECTIONS[name](result)
        except KeyError:  # saved by an earlier version of the benchmark
            row, text = f"| {name} | (older results: run `make bench`) | | | |", []
        summary.append(row)
        sections += [*text, ""] + ([_image(name, folder, page), ""] if name in BENCHMARKS else [])
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
    largest, t, met = r["sizes"][-1], r["targets"], r["targets_met"]
    row = (
        f"| fan-out: {largest['documents']:,} documents, L = {r['latency_ms']:g} ms, C = {r['concurrency']} "
        f"| {largest['kea_seconds']:.2f} s = {largest['kea_over_limit']:.2f}x the limit, "
        f"{largest['kea_over_langgraph_waves']:.2f}x LangGraph in the same waves "
        f"| limit {largest['limit_seconds']:.2f} s; LangGraph in waves {largest['langgraph_waves_seconds']:.2f} s, "
        f"all at once {largest['langgraph_all_at_once_seconds']:.2f} s "
        f"| ≤ {t['kea_over_limit']}x the limit, ≤ {t['kea_over_langgraph_waves']}x LangGraph "
        f"| {_yes(met['kea_over_limit'] and met['kea_over_langgraph_waves'])} |"
    )
    table = [
        "| documents | limit ceil(N/C)·L | asyncio.gather | LangGraph, all at once | LangGraph, in waves | Kea | Kea / limit "
        "| Kea / LangGraph in waves | lanes idle | ranking and sample (apart) | Kea's whole run |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for s in r["sizes"]:
        table.append(
            f"| {s['documents']:,} | {s['limit_seconds']:.2f} s | {s['gather_seconds']:.2f} s "
            f"| {s['langgraph_all_at_once_seconds']:.2f} s | {s['langgraph_waves_seconds']:.2f} s | {s['kea_seconds']:.2f} s "
            f"| {s['kea_over_limit']:.2f} | {s['kea_over_langgraph_waves']:.2f} | {100 * s['lanes'].get('lanes_idle_share', 0):.1f} % "
            f"| {s['ranking_and_sample_seconds']:.2f} s | {s['kea_whole_run_seconds']:.2f} s |"
        )
    waves = largest["lanes"].get("waves", [])
    wave_lines = [
        "| wave | documents | seconds | lanes idle | hand-over to the next wave |",
        "|---:|---:|---:|---:|---:|",
        *(
            f"| {i + 1} | {w['documents']} | {w['seconds']:.2f} | {100 * w['lanes_idle_share']:.1f} % | {w['handover_ms']:.1f} ms |"
            for i, w in enumerate(waves)
        ),
    ]
    cost = [
        "| documents, L = 0 | Kea per document | of it the fan-out | LangGraph in waves per document "
        "| largest checkpoint value | largest stream event | checkpoint bytes per document |",
        "|---:|---:|---:|---:|---:|---:|---:|",
        *(
            f"| {c['documents']:,} | {c['kea_ms_per_document']:.2f} ms | {c['kea_fanout_ms_per_document']:.2f} ms "
            f"| {c['langgraph_waves_ms_per_document']:.2f} ms | {c['largest_checkpoint_value']:,} B | {c['largest_event']:,} B "
            f"| {c['checkpoint_bytes_per_document']:,} B |"
            for c in r["cost"]
        ),
    ]
    cpu, replay, longer = r["cpu"], r["replay"], r["longer_wait"]
    steps = [
        (name, step) for name, step in cpu["worker_steps"].items() if step["calls"] >= 8
    ][:6]
    return row, [
        "### Fan-out",
        "",
        (
            f"N tiny documents through the real graph on the Postgres checkpointer with an engine that waits "
            f"L = {r['latency_ms']:g} ms per document and returns {r['records_per_document']} records, C = "
            f"{r['concurrency']} at a time, sent in waves of {r['wave']} (the profile's `wave`). The physical limit is "
            f"ceil(N/C)·L. Baselines on the same engine and saver: `asyncio.gather` behind a semaphore of C, and "
            f"LangGraph alone — a Send per document to a node that only calls the engine — once all at once and once "
            f"in the same waves. Kea's time is its whole run less ranking the scope and choosing the sample, which are "
            f"measured apart (their time is shown). Best of {r['runs']}. Targets: Kea ≤ {t['kea_over_limit']}x the "
            f"limit at the largest N ({_yes(met['kea_over_limit'])}), ≤ {t['kea_over_limit_100']}x at 100 "
            f"({_yes(met['kea_over_limit_small'])}), ≤ {t['kea_over_langgraph_waves']}x LangGraph in the same waves "
            f"({_yes(met['kea_over_langgraph_waves'])})."
        ),
        "",
        *table,
        "",
        f"The waves of the {largest['documents']:,}-document run: lanes idle is the share of C·(wave's time) no engine "
        "call used; the hand-over is the time between a wave's last engine call ending and the next wave's first starting. "
        "A call counts in the wave during which it starts: the next wave's documents read ahead on lanes the wave's tail "
        "left free count in the wave before theirs (the first wave sends twice C).",
        "",
        *wave_lines,
        "",
        "With no engine wait (L = 0), the cost per document and the largest values kept (target: flat from the "
        f"smaller to the larger scope, every value and event ≤ 64 KB — {_yes(met['largest_value'])}; growth "
        f"{r['cost_growth']}x):",
        "",
        *cost,
        "",
        (
            f"The last wave of the {replay['documents']:,}-document run replayed from its checkpoint, as after a crash: "
            f"{replay['replayed_tasks']} tasks ran again, {replay['engine_calls_in_replay']} documents went to the engine, "
            f"rows {replay['rows_before']:,} → {replay['rows_after']:,}, the table "
            f"{'identical byte for byte' if replay['table_identical'] else '**different**'}."
        ),
        "",
        (
            f"CPU per document at L = {r['latency_ms']:g} ms: {cpu['process_cpu_ms_per_document']} ms "
            f"({cpu['event_loop_cpu_ms_per_document']} ms on the event loop, {cpu['worker_cpu_ms_per_document']} ms in "
            f"worker threads) against the L/C = {r['budget_ms_per_document']} ms that C lanes of L leave. Steps in "
            "worker threads: "
            + "; ".join(
                f"`{name}` {step['calls']:,} calls, {step['cpu_ms_per_document']:.3f} ms CPU per document, "
                f"{step['wall_ms_per_call']:.1f} ms wall per call"
                for name, step in steps
            )
            + f". At L = {longer['latency_ms']:g} ms Kea took {longer['kea_over_limit']:.2f}x the limit; on LangGraph's "
            f"in-memory saver at L = {r['latency_ms']:g} ms, {r['in_memory_saver']['kea_over_limit']:.2f}x."
        ),
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
            f"assembled by the function `store_csv` calls (`assemble_table`: each document's rows read back from the "
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
def _section_parsing(r: dict[str, Any]) -> tuple[str, list[str]]:
    s = r["slowest"]
    before = f"; last saved run {r['previous_ratio']}x" if r.get("previous_ratio") else ""
    met = "yes" if r["within_page_goal"] and r.get("within_ratio_goal") is not False else "no"
    row = (
        f"| parsing: the generated corpora's PDFs | {r['generated_pdf_ratio']}x the baseline's time{before} "
        f"| pdfplumber reading their words alone | ≤ 1.2x the last saved ratio; ≤ 2 s a page | {met} |"
    )
    return row, [
        "### Parsing",
        "",
        (
            f"Every document of the generated corpora ({r['documents']['generated']}, {r['generated_seconds']} s in all) "
            f"and of the evaluation sets ({r['documents']['evaluation']}) parsed as `kea ingest` parses it, best of "
            f"{r['repeats']}. On PDFs Kea takes {r['generated_pdf_ratio']}x the time pdfplumber takes to read their words "
            f"alone (the evaluation sets' PDFs: {r['evaluation_pdf_ratio']}x). Slowest per page: {s['file']}, "
            f"{s['seconds_per_page']} s a page."
        ),
    ]


_SECTIONS = {
    "knowledge": _section_knowledge,
    "parsing": _section_parsing,
    "fanout": _section_fanout,
    "state_size": _section_state_size,
    "memory": _section_memory,
    "csv_assembly": _section_csv_assembly,
    "ranking": ranking.section,
}
