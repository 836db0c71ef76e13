"""Evaluate Kea end to end: every ground-truth case through the real graph, scored row by row.

    python -m evals.run [--engine offline] [--model M --base-url U] [--cases id,...]
                        [--out evals/results/eval.json] [--markdown PATH]

In a throwaway KEA_HOME with its own PostgreSQL cluster, the corpus is generated
(``corpora/first.py``) and ingested as the collection ``corpus``, the second corpus
(``corpora/second.py``, case ids ``c2-…``) as the collection ``corpus2``; every real document set
under ``evals/real/<name>/`` (``documents/`` and ``truth.json``) is ingested as the collection
``real-<name>``; the public documents under ``evals/public/<origin>/`` are parsed and scored
for table structure and word coverage against their maintainers' tables (``evals.public.score``).
Each case's message runs through ``run_extraction(..., confirm="auto")``, the stored CSV is
read back and scored against the truth (``evals/score.py``): row recall and precision,
document completeness, rows from documents that should give none, wrong rows marked yes,
whether the status is the expected one, and the time the case took.

Cases are tagged ``explicit`` (the offline engine must solve them), ``semantic`` (a language
model is needed) and ``real`` (documents nobody here wrote); totals are given per tag, for the
first corpus with the real sets (``groups``, as before the second corpus existed) and for each
corpus on its own (``corpora``: ``corpus``, ``corpus2``, ``real``). For
every true row that was not found, the report says where it stands in the parsed document:
in a parsed table no given row matches, only in the page text, or not in the text at all.

Writes the JSON report (``--out``) and prints a Markdown summary; with ``--markdown`` the
summary is written to that file too. A full run with the default ``--out`` also refreshes
``evals/RESULTS.md``. The exit status is non-zero only when a case crashed (or the arguments
are wrong), never for a low score.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from evals.report import (
    CORPUS2_COLLECTION,
    CORPUS_COLLECTION,
    corpus_of,
    corpus_totals,
    group_totals,
    report_markdown,
    save_report,
)
from evals.score import normalise_text

EVALS = Path(__file__).resolve().parent
REAL = EVALS / "real"
UNSEEN = EVALS / "unseen"
DEFAULT_OUT = EVALS / "results" / "eval.json"


class UnknownCase(ValueError):
    """``--cases`` names a case that neither the corpus nor a real set has."""


@dataclass
class Case:
    truth: dict[str, Any]
    collection: str
    # the day its requests were written on, where they say a period from today ("this year")
    today: str | None = None

    @property
    def id(self) -> str:
        return str(self.truth["id"])


# --------------------------------------------------------------------------------------------
# Cases


def real_sets(root: Path = REAL, prefix: str = "real") -> list[tuple[str, Path, dict[str, Any]]]:
    """(collection, documents folder, truth) of every document set under ``root``."""
    found = []
    for truth_file in sorted(root.glob("*/truth.json")):
        folder = truth_file.parent
        found.append(
            (f"{prefix}-{folder.name}", folder / "documents", json.loads(truth_file.read_text(encoding="utf-8")))
        )
    return found


def unseen_sets(root: Path = UNSEEN) -> list[tuple[str, Path, dict[str, Any]]]:
    """The sets of requests written from their documents alone, before any engine ran on them."""
    return real_sets(root, "unseen")


def select(cases: list[Case], wanted: str | None) -> list[Case]:
    """The cases named in ``wanted`` (comma-separated ids), in their order; all when None."""
    if not wanted:
        return cases
    ids = [w.strip() for w in wanted.split(",") if w.strip()]
    known = {c.id: c for c in cases}
    unknown = [i for i in ids if i not in known]
    if unknown:
        raise UnknownCase(f"Unknown case(s): {', '.join(unknown)}. Known: {', '.join(known)}.")
    return [known[i] for i in ids]


# --------------------------------------------------------------------------------------------
# Why a true row was not found


def _contains(text: str, value: str) -> bool:
    return normalise_text(value) in normalise_text(text)


def why_missed(row: dict[str, Any], document: Any | None) -> str:
    """Where a true row stands in the parsed document (a ``DocumentText``), in one sentence.

    Tells apart a row the parser put in a table (no row the engine gave matches it), a row whose
    values are only in the page text (no parsed table holds it), and values the parsed text
    does not hold at all (the parser lost them, or the document writes them differently).
    """
    if document is None:
        return "the document is not in the knowledge base (it was not ingested)"
    values = [str(v) for v in row["values"].values() if str(v or "").strip()]
    for table in document.tables:
        for cells in table.rows:
            line = " | ".join(cells)
            if all(_contains(line, v) for v in values):
                return (
                    f"a table the parser found on page {table.page} holds this row "
                    f"(header: {' | '.join(table.header)}), but no row the engine gave matches it"
                )
    pages = [n for n, text in enumerate(document.pages, start=1) if all(_contains(text, v) for v in values)]
    if pages:
        tables = (
            "the parser found no table in the document"
            if not document.tables
            else f"none of the {len(document.tables)} tables the parser found holds it"
        )
        return f"its values stand in the text of page {pages[0]}, but {tables}"
    missing = [v for v in values if not any(_contains(text, v) for text in document.pages)]
    if missing:
        return f"the parsed text does not hold {', '.join(repr(v) for v in missing)}"
    return "its values are in the parsed text, but on different pages"


def explain_misses(kb: Any, scope: Any, missed: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each missed row with the reason ``why_missed`` finds in its stored document."""
    documents: dict[str, Any] = {}
    explained = []
    for row in missed:
        file = row["file"]
        if file not in documents:
            refs = kb.find_by_path_suffix(scope, file)
            documents[file] = kb.read_document(scope, refs[0].id) if refs else None
        explained.append({**row, "why": why_missed(row, documents[file])})
    return explained


# --------------------------------------------------------------------------------------------
# Running the cases


def crashed(case: Case, exc: BaseException, seconds: float) -> dict[str, Any]:
    """The result of a case that raised: scored as empty, with the error."""
    from evals.score import score_case

    error = " ".join("".join(traceback.format_exception_only(exc)).split())
    result = score_case(case.truth, [], [], "error")
    return {
        **result,
        "collection": case.collection,
        "seconds": round(seconds, 3),
        "crashed": True,
        "error": error,
    }


async def run_case(case: Case, profile_values: dict[str, Any], svc: Any, *, keep: bool = False) -> dict[str, Any]:
    """One case through the real graph, read back and scored; a crash is recorded, not raised.

    ``keep`` adds the table as stored (``table``: file, values, match of every row) and each
    document's rows as its engine gave them, before the table was assembled (``engine_rows``:
    file, values, match, note)."""
    from core.profile import Profile
    from evals.score import Told, score_case
    from evals.tables import rows_from_csv
    from graph.runs import run_extraction
    from tools.storage.rows import table_key

    profile = Profile.from_mapping({**profile_values, "collections": [case.collection], "today": case.today})
    start = time.perf_counter()
    try:
        values = await run_extraction(case.truth["message"], profile, confirm="auto")
    except Exception as exc:  # noqa: BLE001 — one crashed case is reported; the others still run
        return crashed(case, exc, time.perf_counter() - start)
    seconds = time.perf_counter() - start
    answer = values.get("answer") or {}
    status = answer.get("status", "?")
    columns: list[str] = list(answer.get("columns") or [])
    rows: list[dict[str, Any]] = []
    extraction_id = answer.get("extraction_id") or values.get("extraction_id")
    if extraction_id and svc.objects.exists(table_key(extraction_id)):
        with svc.objects.open(table_key(extraction_id)) as handle:
            columns, rows = rows_from_csv(handle.read())
    summary = answer.get("summary") or {}
    engine_rows = await asyncio.to_thread(_engine_rows, svc, extraction_id, values.get("document_ids") or [])
    rows = _with_notes(rows, columns, engine_rows)
    result = score_case(case.truth, rows, columns, status, Told.of(answer))
    result.update(
        {
            "message": case.truth["message"],
            "collection": case.collection,
            "seconds": round(seconds, 3),
            "crashed": False,
            "columns": columns,
            "documents_in_scope": summary.get("documents_in_scope"),
            "documents_extracted": summary.get("extracted"),
            "documents_without_rows": summary.get("no_rows_count", len(summary.get("no_rows_from", []))),
            "documents_failed": summary.get("failed_count", len(summary.get("failed", []))),
            "failures": summary.get("failed", []),
            "model_calls": summary.get("model_calls", 0),
            "input_tokens": summary.get("input_tokens", 0),
            "output_tokens": summary.get("output_tokens", 0),
            "answer": answer.get("message", ""),
        }
    )
    if result["missed"]:
        result["missed"] = await asyncio.to_thread(explain_misses, svc.kb, profile.scope, result["missed"])
    if keep:
        result["table"] = rows
        result["engine_rows"] = engine_rows
    return result


def _with_notes(rows: list[dict[str, Any]], columns: list[str], engine_rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The table's rows, each with the note (why it is unsure) its engine gave it."""

    def key(row: dict[str, Any]) -> tuple[str, ...]:
        return (row["file"], *(str(row["values"].get(c) or "").strip() for c in columns))

    notes: dict[tuple[str, ...], str] = {}
    for row in engine_rows:
        notes.setdefault(key(row), row.get("note") or "")
    return [{**row, "note": notes.get(key(row), "")} for row in rows]


def _engine_rows(svc: Any, extraction_id: str | None, document_ids: list[int]) -> list[dict[str, Any]]:
    """Every document's rows as its engine gave them (stored before the table was assembled)."""
    found: list[dict[str, Any]] = []
    for document_id in document_ids if extraction_id else []:
        outcome = svc.rows.outcome(extraction_id, document_id)
        if outcome is None:
            continue
        for record in outcome.records:
            found.append({"file": outcome.file, "values": dict(record.values), "match": record.match, "note": record.note})
    return found


async def _run_all(
    cases: list[Case], profile_values: dict[str, Any], svc: Any, log: Any
) -> list[dict[str, Any]]:
    results = []
    for case in cases:
        start = time.perf_counter()
        try:
            result = await run_case(case, profile_values, svc)
        except Exception as exc:  # noqa: BLE001 — reading back or scoring failed: this case only
            result = crashed(case, exc, time.perf_counter() - start)
        log(
            f"  {case.id}: {result['status']}, {result['matched']}/{result['true_rows']} true rows found, "
            f"{result['predicted_rows']} given, {result['seconds']:.1f} s"
        )
        results.append(result)
    return results


def evaluate(
    profile_values: dict[str, Any], wanted: str | None, seed: int, log: Any = print
) -> dict[str, Any]:
    """Generate and ingest the corpus and the real sets, run the chosen cases, and report.

    ``profile_values`` are the profile fields every case runs with (engine, model, base_url);
    each case adds its collection.
    """
    from core.profile import Profile
    from corpora.first import cases as corpus_cases
    from corpora.first import generate
    from corpora.second import cases as corpus2_cases
    from corpora.second import generate as generate2
    from evals.bench.common import isolated_home, machine
    from tools.knowledge.ingest import ingest
    from tools.services import services

    profile = Profile.from_mapping(profile_values)

    sets = real_sets() + unseen_sets()
    planned = [Case(c, CORPUS_COLLECTION) for c in corpus_cases(seed)]
    planned += [Case(c, CORPUS2_COLLECTION) for c in corpus2_cases(seed)]
    planned += [Case(c, collection, truth.get("today")) for collection, _, truth in sets for c in truth["cases"]]
    chosen = select(planned, wanted)
    ingested: dict[str, dict[str, Any]] = {}
    with isolated_home() as home:
        svc = services()
        collections = {c.collection for c in chosen}
        if CORPUS_COLLECTION in collections:
            generate(home / "corpus", seed)
            ingested[CORPUS_COLLECTION] = _ingest(
                ingest, svc.kb, home / "corpus" / "documents", CORPUS_COLLECTION
            )
        if CORPUS2_COLLECTION in collections:
            generate2(home / "corpus2", seed)
            ingested[CORPUS2_COLLECTION] = _ingest(
                ingest, svc.kb, home / "corpus2" / "documents", CORPUS2_COLLECTION
            )
        for collection, folder, _ in sets:
            if collection in collections:
                ingested[collection] = _ingest(ingest, svc.kb, folder, collection)
        for name, report in ingested.items():
            log(
                f"Ingested {report['indexed']} documents into {name}"
                + (f"; skipped {report['skipped']}" if report["skipped"] else "")
            )
        start = time.perf_counter()
        results = asyncio.run(_run_all(chosen, profile_values, svc, log))
        seconds = time.perf_counter() - start
    return {
        "engine": profile.engine,
        "model": getattr(profile, "model", None),
        "base_url": getattr(profile, "base_url", None),
        "seed": seed,
        "machine": machine(),
        "ingested": ingested,
        "seconds": round(seconds, 3),
        "groups": group_totals([r for r in results if corpus_of(r) in ("corpus", "real")]),
        "corpora": corpus_totals(results),
        "cases": results,
    }


def _ingest(ingest: Any, kb: Any, folder: Path, collection: str) -> dict[str, Any]:
    report = ingest(kb, [folder], collection)
    return {
        "indexed": len(report.indexed),
        "skipped": [f"{path}: {reason}" for path, reason in report.skipped],
    }


def _engine_problem(profile_values: dict[str, Any]) -> str | None:
    """Why the profile's engine cannot be made (unknown name, missing settings); None when it can."""
    from core.profile import Profile
    from tools.engines import engine_named

    profile = Profile.from_mapping(profile_values)
    try:
        engine_named(profile.engine, profile)
    except Exception as exc:  # noqa: BLE001 — shown to the user before anything runs
        return f"Engine {profile.engine!r}: {exc}"
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m evals.run", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--engine",
        help="engine of the profile the cases run with: offline or llm (default: the profile's, i.e. "
        "$KEA_ENGINE, else llm when a model is given, else offline)",
    )
    parser.add_argument("--model", help="model the llm engine calls (default: $KEA_MODEL)")
    parser.add_argument("--base-url", help="OpenAI-compatible endpoint of the model (default: $KEA_BASE_URL)")
    parser.add_argument("--cases", help="comma-separated case ids to run (default: every case)")
    parser.add_argument("--seed", type=int, default=7, help="seed of the generated corpora (default: 7)")
    parser.add_argument(
        "--out",
        type=Path,
        default=DEFAULT_OUT,
        help=f"JSON report (default: {DEFAULT_OUT.relative_to(EVALS.parent)})",
    )
    parser.add_argument("--markdown", type=Path, help="also write the Markdown summary to this file")
    args = parser.parse_args(argv)

    engine = args.engine or ("llm" if args.model and not os.environ.get("KEA_ENGINE") else None)
    profile_values = {
        k: v for k, v in {"engine": engine, "model": args.model, "base_url": args.base_url}.items() if v
    }
    problem = _engine_problem(profile_values)
    if problem:
        print(problem, file=sys.stderr)
        return 2
    try:
        report = evaluate(
            profile_values, args.cases, args.seed, log=lambda line: print(line, file=sys.stderr)
        )
    except UnknownCase as exc:
        print(exc, file=sys.stderr)
        return 2
    if not args.cases:
        from evals.public.score import score_origins

        report["public"] = score_origins()
    save_report(report, args.out, report_markdown(report), args.markdown)
    if args.out.resolve() == DEFAULT_OUT and not args.cases:
        from evals.bench.charts import write_results_page

        write_results_page()
    print(f"Report: {args.out}", file=sys.stderr)
    return 1 if any(r.get("crashed") for r in report["cases"]) else 0


if __name__ == "__main__":
    sys.exit(main())
