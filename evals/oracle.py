"""Kea's llm engine under a perfect model: where Kea's own code loses rows a model would give.

    python -m evals.oracle [--cases id,...] [--out evals/results/oracle.json] [--markdown PATH]

The scripted endpoint of ``evals/endpoint.py`` plays the model and answers from the truth of
the unseen requests (``evals/unseen/``), at the model boundary only:

* the request is read as a table of the case's columns, in their order, and nothing else (no
  condition, place or document condition: the oracle applies the request by choosing rows);
* each document call is answered with the truth rows of that document whose every value stands
  in the text Kea sent below its page markers (whitespace collapsed), each ``yes``, with the
  line that holds them (or the shortest run of lines) as evidence. A row whose values are not
  all in the text is not given: a perfect model cannot read what it was not shown. Where Kea
  reads a document in several windows, a row is given once, by the first window that holds it
  (the same window asked again gets the same answer).

Each case then says what was lost where:

* ``lost_before_model``: true rows no call showed whole (the values missing from the call that
  showed most of them, or that the document was never sent);
* ``dropped_or_changed``: rows the model gave that the table does not hold as given, and
  whether the engine's own rows (stored before assembly) still held them;
* ``lowered``: rows the model gave as ``yes`` that Kea marked ``unsure``, with its reason;
* ``added``: rows in the table the model never gave; ``wrong_yes`` as ``make eval`` counts it.

Writes the JSON report (``--out``), prints the Markdown summary (also to ``--markdown``).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evals.endpoint import Reply, ScriptedEndpoint, Seen, allowed_endpoint, answer, reading
from evals.report import save_report
from evals.run import EVALS, Case, UnknownCase, crashed, run_case, select, unseen_sets

DEFAULT_OUT = EVALS / "results" / "oracle.json"
MODEL = "oracle"
MAX_EVIDENCE_LINES = 40  # a row's values further apart than this are quoted with the page's first lines


def _squash(text: str) -> str:
    return " ".join(str(text).split())


def holds(text: str, value: str) -> bool:
    """Whether the value stands in the text, whitespace collapsed on both sides."""
    return _squash(value) in _squash(text)


def _asks_document_condition(body: dict[str, Any]) -> bool:
    if "response_format" in body:
        schema = body["response_format"]["json_schema"]["schema"]
    else:
        schema = body["tools"][0]["function"]["parameters"]
    return "document_condition" in (schema.get("properties") or {})


def _same_file(truth_file: str, document: str) -> bool:
    a, b = truth_file.strip("/"), document.strip("/")
    return a == b or a.endswith("/" + b) or b.endswith("/" + a)


def evidence_for(pages: list[tuple[int, str]], values: list[str]) -> tuple[int | None, str]:
    """(page, evidence) of a row: the first line that holds every value, else the shortest run
    of consecutive lines of one page that does, else the page's first lines."""
    for page, text in pages:
        for line in text.splitlines():
            if all(holds(line, v) for v in values):
                return page, line.strip()
    best: tuple[int, int, str] | None = None
    for page, text in pages:
        lines = text.splitlines()
        for start in range(len(lines)):
            run = ""
            for end in range(start + 1, min(len(lines), start + MAX_EVIDENCE_LINES) + 1):
                if best is not None and end - start >= best[0]:
                    break
                run = f"{run} {lines[end - 1]}"
                if all(holds(run, v) for v in values):
                    best = (end - start, page, "\n".join(lines[start:end]).strip())
                    break
    if best is not None:
        return best[1], best[2]
    page, text = pages[0] if pages else (None, "")
    return page, text.strip()[:400]


def nearest_line(text: str, values: list[str]) -> str:
    """The line of the text that holds most of the values (the first of the best): what the
    text made of a row it does not hold whole."""
    best, score = "", 0
    for line in text.splitlines():
        found = sum(1 for v in values if holds(line, v))
        if found > score:
            best, score = line.strip(), found
    return best


@dataclass
class Call:
    """One document call the oracle answered."""

    document: str
    given: list[int] = field(default_factory=list)  # indexes of the case's rows


class Oracle:
    """The script of a perfect model for one case at a time (``start``)."""

    def __init__(self) -> None:
        self.case: dict[str, Any] = {"columns": [], "rows": []}
        self.lock = threading.Lock()
        self.calls: list[Call] = []
        self.given_by: dict[int, str] = {}  # row index -> the text of the window that gave it
        self.missing: dict[int, list[str]] = {}  # row index -> the fewest values a call lacked
        self.nearest: dict[int, str] = {}  # row index -> the line of that call that holds most of its values
        self.readings = 0
        self.conditions_asked = 0  # calls that asked for a document condition the model did not read

    def start(self, case: dict[str, Any]) -> None:
        with self.lock:
            self.case = case
            self.calls, self.given_by, self.missing, self.nearest = [], {}, {}, {}
            self.readings = self.conditions_asked = 0

    def values(self, index: int) -> list[str | None]:
        row = self.case["rows"][index]["values"]
        return [row.get(c) for c in self.case["columns"]]

    def __call__(self, seen: Seen) -> Reply:
        with self.lock:
            if seen.reads_request:
                self.readings += 1
                return answer(reading(list(self.case["columns"])))
            document = seen.document or ""
            pages = seen.pages()
            text = "\n".join(t for _, t in pages)
            window = _squash(text)
            call = Call(document)
            records = []
            for index, row in enumerate(self.case["rows"]):
                if not _same_file(row["file"], document):
                    continue
                values = [v for v in self.values(index) if v is not None and str(v).strip()]
                missing = [v for v in values if _squash(v) not in window]
                if missing:
                    if index not in self.missing or len(missing) < len(self.missing[index]):
                        self.missing[index] = missing
                        self.nearest[index] = nearest_line(text, values)
                    continue
                if self.given_by.setdefault(index, window) != window:
                    continue  # another window gave it
                self.missing[index] = []
                page, evidence = evidence_for(pages, values)
                cells = dict(zip(self.case["columns"], self.values(index)))
                records.append(cells | {"record_match": "yes", "page": page, "evidence": evidence, "note": None})
                call.given.append(index)
            self.calls.append(call)
            verdict = {}
            if _asks_document_condition(seen.body):
                # Kea asks about a document condition the model never read: a perfect model
                # says the documents with true rows meet it and cannot tell for the others
                self.conditions_asked += 1
                held = any(_same_file(row["file"], document) for row in self.case["rows"])
                verdict = {"document_condition": "met" if held else "unclear"}
            return answer({"records": records} | verdict)

    def given(self) -> list[int]:
        return sorted(self.given_by)


# --------------------------------------------------------------------------------------------
# Comparing what the model gave with what Kea kept


def _cells(values: dict[str, Any], columns: list[str]) -> list[str]:
    """The row's values in the case's column order: by name, else by position."""
    named = {_squash(k).casefold(): v for k, v in values.items()}
    if all(_squash(c).casefold() in named for c in columns):
        return [_squash(named[_squash(c).casefold()] or "") for c in columns]
    cells = [_squash(v or "") for v in values.values()]
    return cells + [""] * (len(columns) - len(cells))


def _pair(given: list[tuple[str, list[str]]], kept: list[tuple[str, list[str]]]) -> tuple[list[int], set[int]]:
    """Given rows no kept row holds exactly (same file, same values), and the kept rows used."""
    used: set[int] = set()
    unmatched = []
    for i, (file, cells) in enumerate(given):
        hit = next((j for j, (f, c) in enumerate(kept) if j not in used and _same_file(f, file) and c == cells), None)
        if hit is None:
            unmatched.append(i)
        else:
            used.add(hit)
    return unmatched, used


def _closest(file: str, cells: list[str], kept: list[tuple[str, list[str]]], used: set[int]) -> list[str] | None:
    """The kept row of the same file that shares most values with these (at least one)."""
    best, score = None, 0
    for j, (f, c) in enumerate(kept):
        if j in used or not _same_file(f, file):
            continue
        shared = sum(1 for a, b in zip(cells, c) if a and a == b)
        if shared > score:
            best, score = c, shared
    return best


def compare(case: dict[str, Any], oracle: Oracle, result: dict[str, Any]) -> dict[str, Any]:
    """What became of the rows the oracle gave, and of those it could not give."""
    columns = list(case["columns"])
    rows = case["rows"]
    sent = {c.document for c in oracle.calls}
    lost = []
    for index, row in enumerate(rows):
        if index in oracle.given_by:
            continue
        was_sent = any(_same_file(row["file"], d) for d in sent)
        lost.append({
            "file": row["file"],
            "values": row["values"],
            "missing": oracle.missing.get(index, []) if was_sent else None,
            "text_holds": oracle.nearest.get(index, "") if was_sent else None,
            "why": "its values never stood together in one call's text" if was_sent else "the document was never sent to the model",
        })
    given = [(rows[i]["file"], _cells(rows[i]["values"], columns)) for i in oracle.given()]
    table = [(r["file"], _cells(r["values"], columns)) for r in result.get("table", [])]
    engine = [(r["file"], _cells(r["values"], columns)) for r in result.get("engine_rows", [])]
    not_in_table, used = _pair(given, table)
    not_in_engine, _ = _pair(given, engine)
    dropped = []
    for i in not_in_table:
        file, cells = given[i]
        closest = _closest(file, cells, table, used)
        dropped.append({
            "file": file,
            "given": cells,
            "kept_as": closest,
            "where": "the engine's rows" if i in not_in_engine else "assembling the table",
        })
    _, table_used = _pair(given, table)
    added = [{"file": f, "values": c} for j, (f, c) in enumerate(table) if j not in table_used]
    lowered = [
        {"file": r["file"], "values": _cells(r["values"], columns), "note": r.get("note")}
        for r in result.get("engine_rows", [])
        if r.get("match") == "unsure"
    ]
    return {
        "calls": len(oracle.calls),
        "readings": oracle.readings,
        "document_conditions_asked": oracle.conditions_asked,
        "given": len(given),
        "lost_before_model": lost,
        "dropped_or_changed": dropped,
        "lowered": lowered,
        "added": added,
    }


# --------------------------------------------------------------------------------------------
# Running


def exact(result: dict[str, Any]) -> bool:
    return bool(result["status_ok"] and result["recall"] == 1.0 and result["precision"] == 1.0)


async def _run_all(cases: list[Case], oracle: Oracle, profile_values: dict[str, Any], svc: Any, log: Any) -> list[dict[str, Any]]:
    results = []
    for case in cases:
        oracle.start(case.truth)
        start = time.perf_counter()
        try:
            result = await run_case(case, profile_values, svc, keep=True)
        except Exception as exc:  # noqa: BLE001 — one case only
            result = crashed(case, exc, time.perf_counter() - start)
        result["oracle"] = compare(case.truth, oracle, result)
        result["exact"] = exact(result)
        o = result["oracle"]
        log(
            f"  {case.id}: {'exact' if result['exact'] else 'not exact'}; {result['true_rows']} true rows, "
            f"{o['given']} given by the model ({len(o['lost_before_model'])} lost before it), "
            f"{len(o['dropped_or_changed'])} dropped or changed, {len(o['lowered'])} lowered, "
            f"{result['predicted_rows']} in the table, {result['seconds']:.1f} s"
        )
        results.append(result)
    return results


def evaluate(wanted: str | None, log: Any = print, svc: Any = None) -> dict[str, Any]:
    """Serve the oracle, ingest the unseen sets (in a throwaway home, unless ``svc`` is given:
    then its collections are used as they are) and run the chosen cases against it."""
    from tools.knowledge.ingest import ingest

    sets = unseen_sets()
    planned = [Case(c, collection, truth.get("today")) for collection, _, truth in sets for c in truth["cases"]]
    chosen = select(planned, wanted)
    oracle = Oracle()
    endpoint = ScriptedEndpoint()
    endpoint.reset(oracle)
    start = time.perf_counter()
    with allowed_endpoint(endpoint):
        profile_values = {"engine": "llm", "model": MODEL, "base_url": endpoint.base_url}
        if svc is not None:
            results = asyncio.run(_run_all(chosen, oracle, profile_values, svc, log))
        else:
            from evals.bench.common import isolated_home
            from tools.services import services

            with isolated_home():
                svc = services()
                for collection, folder, _ in sets:
                    if collection in {c.collection for c in chosen}:
                        indexed = ingest(svc.kb, [folder], collection)
                        log(f"Ingested {len(indexed.indexed)} documents into {collection}")
                results = asyncio.run(_run_all(chosen, oracle, profile_values, svc, log))
    return {"engine": "llm", "model": MODEL, "seconds": round(time.perf_counter() - start, 3), "cases": results}


# --------------------------------------------------------------------------------------------
# Report


def _values(values: Any) -> str:
    cells = values.values() if isinstance(values, dict) else values
    return " / ".join(str(v or "") or "–" for v in cells)


def _line(text: str | None) -> str:
    """A line of document text as a Markdown table cell: TABs shown as ' ⇥ ', pipes escaped, cut."""
    if not text:
        return ""
    cell = text.replace("\t", " ⇥ ").replace("|", "\\|")
    return f"`{cell[:160]}{'…' if len(cell) > 160 else ''}`"


def report_markdown(report: dict[str, Any]) -> str:
    results = report["cases"]
    by_set: dict[str, list[dict[str, Any]]] = {}
    for r in results:
        by_set.setdefault(r["collection"], []).append(r)
    total = lambda rs, key: sum(len(r["oracle"][key]) for r in rs)  # noqa: E731
    lines = [
        f"Kea's llm engine against a perfect model (`evals/oracle.py`); {len(results)} cases.",
        "",
        "| set | cases | exact | true rows | given by the model | lost before the model | dropped or changed by Kea "
        "| lowered to unsure | added by Kea | wrong rows marked yes |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, rs in [*by_set.items(), ("all", results)]:
        lines.append(
            f"| {name} | {len(rs)} | {sum(r['exact'] for r in rs)} | {sum(r['true_rows'] for r in rs)} "
            f"| {sum(r['oracle']['given'] for r in rs)} | {total(rs, 'lost_before_model')} "
            f"| {total(rs, 'dropped_or_changed')} | {total(rs, 'lowered')} | {total(rs, 'added')} "
            f"| {sum(r.get('wrong_yes', 0) for r in rs)} |"
        )
    lines += [
        "",
        "| case | exact | status | true rows | given | lost before the model | dropped or changed | lowered | added | in the table | wrong yes |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        o = r["oracle"]
        status = "ok" if r["status_ok"] else f"{r['status']} (want {r['expected_status']})"
        lines.append(
            f"| {r['id']} | {'yes' if r['exact'] else 'no'} | {status} | {r['true_rows']} | {o['given']} "
            f"| {len(o['lost_before_model'])} | {len(o['dropped_or_changed'])} | {len(o['lowered'])} | {len(o['added'])} "
            f"| {r['predicted_rows']} | {r.get('wrong_yes', 0)} |"
        )
    lost = [(r["id"], x) for r in results for x in r["oracle"]["lost_before_model"]]
    if lost:
        lines += ["", "Rows lost before the model (no call's text held all their values):", "",
                  "| case | file | row | missing from the text | the text's line with most of the row |", "|---|---|---|---|---|"]
        lines += [f"| {i} | {x['file']} | {_values(x['values'])} | "
                  f"{', '.join(repr(v) for v in x['missing']) if x['missing'] is not None else x['why']} "
                  f"| {_line(x.get('text_holds'))} |" for i, x in lost]
    dropped = [(r["id"], x) for r in results for x in r["oracle"]["dropped_or_changed"]]
    if dropped:
        lines += ["", "Rows the model gave that the table does not hold as given:", "",
                  "| case | file | given | in the table as | lost in |", "|---|---|---|---|---|"]
        lines += [f"| {i} | {x['file']} | {_values(x['given'])} | {_values(x['kept_as']) if x['kept_as'] else '(dropped)'} "
                  f"| {x['where']} |" for i, x in dropped]
    lowered = [(r["id"], x) for r in results for x in r["oracle"]["lowered"]]
    if lowered:
        lines += ["", "Rows the model gave as yes that Kea lowered to unsure:", "",
                  "| case | file | row | reason |", "|---|---|---|---|"]
        lines += [f"| {i} | {x['file']} | {_values(x['values'])} | {x['note']} |" for i, x in lowered]
    added = [(r["id"], x) for r in results for x in r["oracle"]["added"]]
    if added:
        lines += ["", "Rows in the table the model never gave:", "", "| case | file | row |", "|---|---|---|"]
        lines += [f"| {i} | {x['file']} | {_values(x['values'])} |" for i, x in added]
    wrong = [r for r in results if not r["exact"]]
    if wrong:
        lines += ["", "How Kea understood the cases that are not exact (the answer's first line; the model read "
                  "each as a table of the case's columns and nothing else):", ""]
        lines += [f"- `{r['id']}` ({r['status']}): {(r.get('answer') or r.get('error') or '').splitlines()[0] if (r.get('answer') or r.get('error')) else ''}"
                  + (f"; {r['oracle']['document_conditions_asked']} calls asked for a document condition the model "
                     "had not read" if r["oracle"].get("document_conditions_asked") else "") for r in wrong]
    crashed_ = [r for r in results if r.get("crashed")]
    if crashed_:
        lines += ["", "Crashed: " + "; ".join(f"`{r['id']}`: {r['error']}" for r in crashed_)]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m evals.oracle", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--cases", help="comma-separated case ids to run (default: every unseen case)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT,
                        help=f"JSON report (default: {DEFAULT_OUT.relative_to(EVALS.parent)})")
    parser.add_argument("--markdown", type=Path, help="also write the Markdown summary to this file")
    args = parser.parse_args(argv)
    try:
        report = evaluate(args.cases, log=lambda line: print(line, file=sys.stderr))
    except UnknownCase as exc:
        print(exc, file=sys.stderr)
        return 2
    save_report(report, args.out, report_markdown(report), args.markdown)
    print(f"Report: {args.out}", file=sys.stderr)
    return 1 if any(r.get("crashed") for r in report["cases"]) else 0


if __name__ == "__main__":
    sys.exit(main())
