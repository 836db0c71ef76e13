"""store_csv: the stored rows streamed into one CSV, stored by reference, and the answer.

The documents' outcomes are read back from storage one at a time, so the full lists of
documents without rows and of failures come from there, not from graph state; they are
stored beside the table as ``summary.json``. The answer carries the first names of each list.

The table, the spreadsheet, the review page and the summary are written under temporary keys
and published together once every one is stored, ``summary.json`` last: a store that fails
part-way never leaves a part of a table under its final name. When the object store cannot be
read or written, the run stops here with its checkpoint (``StoreUnavailable``): the rows stay
stored, and running the thread again (``kea resume``) publishes the table once the store is back.
"""

from __future__ import annotations

import asyncio
import json
import logging
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from langgraph.config import get_config
from langgraph.runtime import Runtime

from graph.profile import Profile
from graph.state import Answer, ExtractionState, documents_in_table
from tools.services import Services, aservices
from tools.storage.objects import StoreUnavailable, is_store_fault, publish_together, store_fault_reason
from tools.storage.review import HTML_TYPE, ReviewSpool
from tools.storage.rows import OUTPUTS, output_key, summary_key, table_key
from tools.storage.table import TableWriter, header
from tools.storage.xlsx import XLSX_TYPE, XlsxTable
from tools.workspace.hint import next_step

log = logging.getLogger(__name__)
LISTED_NAMES = 20
NOT_STORED = "no result was stored for it (the run may have been interrupted); ask again to read it"


@dataclass
class Assembled:
    writer: TableWriter
    urls: dict[str, str]  # table.csv, table.xlsx, review.html, summary.json → where each is stored
    no_rows: list[dict[str, str]] = field(default_factory=list)  # {"file", "reason", "detail"}
    failed: list[dict[str, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # the run's notes and what assembling the table adds

    @property
    def no_rows_from(self) -> list[str]:
        return [n["file"] for n in self.no_rows]


def _assemble(svc: Services, extraction_id: str, document_ids: list[int], summary: dict[str, Any]) -> Assembled:
    """Stream every document's stored outcome into the CSV, the XLSX and the review page; collect
    who gave nothing (and why) or failed."""
    no_rows: list[dict[str, str]] = []
    failed: list[dict[str, str]] = []
    columns = list(summary["columns"])
    with tempfile.TemporaryDirectory(prefix="kea-table-") as folder:
        work = Path(folder)
        xlsx, review = XlsxTable(work / "table.xlsx", header(columns)), ReviewSpool(work, columns)
        with open(work / "table.csv", "w", encoding="utf-8", newline="") as out:
            writer = TableWriter(columns, out)
            for document_id in document_ids:  # one document's rows in memory at a time
                outcome = svc.rows.outcome(extraction_id, document_id)
                if outcome is None:
                    failed.append({"file": f"document {document_id}", "error": NOT_STORED})
                    continue
                if outcome.error is not None:
                    failed.append({"file": outcome.file, "error": outcome.error})
                    continue
                before = writer.rows
                for record in outcome.records:
                    xlsx.add(writer.write(outcome.file, record))
                    review.add(outcome.file, record)
                if writer.rows == before:
                    why = outcome.no_rows or {"reason": "no_rows", "detail": "it gave no rows"}
                    no_rows.append({"file": outcome.file, "reason": why["reason"], "detail": why["detail"]})
        full = {**summary, "rows": writer.rows, "no_rows_from": [n["file"] for n in no_rows], "no_rows": no_rows, "failed": failed}
        if xlsx.cut:  # never a limit hit silently
            full["notes"] = [*full.get("notes", []), f"{xlsx.cut} cells hold more than a spreadsheet cell takes "
                             "(32,767 characters): they are cut in table.xlsx and whole in the CSV."]
        facts = _facts(full, len(document_ids))
        page = review.save(work / "review.html", f"Review: {summary.get('understood') or 'the table'}", facts)
        (work / "summary.json").write_bytes(json.dumps(full, ensure_ascii=False, indent=1).encode())
        publish_together(svc.objects, [
            (table_key(extraction_id), work / "table.csv", "text/csv; charset=utf-8"),
            (output_key(extraction_id, "table.xlsx"), xlsx.close(), XLSX_TYPE),
            (output_key(extraction_id, "review.html"), page, HTML_TYPE),
            (summary_key(extraction_id), work / "summary.json", "application/json"),  # last: the table is complete
        ])
    urls = {name: svc.objects.url(output_key(extraction_id, name)) for name in OUTPUTS}
    return Assembled(writer, urls, no_rows, failed, list(full.get("notes", [])))


def not_stored_message(thread: str | None, exc: BaseException) -> str:
    """What a user reads when the object store failed at the end: what happened, what is kept,
    what to do."""
    reason = store_fault_reason(exc)
    again = f"run `kea resume {thread}`" if thread else "ask again"
    return (
        f"The table could not be stored: {reason[:200].rstrip('.')}. The rows are kept; "
        f"{again} once the object store is back."
    )


def _facts(full: dict[str, Any], documents: int) -> list[str]:
    facts = [
        f"{full['rows']} rows from {documents} documents ({full.get('unsure_rows', 0)} unsure); "
        f"read with the {full.get('engine', '?')} engine.",
    ]
    facts += [f"No rows: {line}" for line in _by_reason(full["no_rows"], len(full["no_rows"]))]
    facts += [f"Failed: {f['file']}: {f['error']}" for f in full["failed"]]
    return facts


def _more(shown: int, total: int) -> str:
    return f" and {total - shown} more (all in summary.json)" if total > shown else ""


def _by_reason(no_rows: list[dict[str, str]], total: int) -> list[str]:
    """One line per reason: how many, why, and which files (those listed in the answer)."""
    groups: dict[str, list[str]] = {}
    for item in no_rows:
        groups.setdefault(item["detail"], []).append(item["file"])
    lines = [f"{len(files)} — {detail}: {', '.join(files)}" for detail, files in groups.items()]
    if total > len(no_rows):
        lines.append(f"{total - len(no_rows)} more, each with its reason in summary.json")
    return lines


def compose_message(summary: dict[str, Any], urls: dict[str, str], preview_rows: int) -> str:
    """The answer in sentences: what was read, what it gave, what was left, where the table is."""
    lines = [
        f"Understood: {summary['understood']}.",
        f"Read {summary['extracted']} of {summary['documents_in_scope']} documents in scope "
        f"({summary['engine']} engine): {summary['rows']} rows"
        + (f", {summary['unsure_rows']} marked unsure (check the Match column)" if summary["unsure_rows"] else "")
        + ".",
    ]
    if summary.get("model_calls"):
        lines.append(
            f"Model use: {summary['model_calls']} calls, {summary['input_tokens']:,} input and "
            f"{summary['output_tokens']:,} output tokens."
        )
    failed = summary["failed"]
    if failed:
        shown = "; ".join(f"{f['file']}: {f['error']}" for f in failed)
        lines.append(
            f"Failed ({summary['failed_count']}): {shown}{_more(len(failed), summary['failed_count'])}. "
            "The other documents were read; ask again to retry the failed ones."
        )
    if summary["no_rows_from"]:
        lines.append(f"No rows from ({summary['no_rows_count']}):")
        lines += [f"- {group}" for group in _by_reason(summary.get("no_rows") or [], summary["no_rows_count"])]
    if summary.get("sample") and summary.get("phase") != "sample":
        how = "confirmed automatically" if summary.get("phase") == "auto_sample" else "read once, for the sample you confirmed"
        lines.append(f"Sample ({how}): {', '.join(summary['sample'])}; its rows are in this table.")
    if summary["calculation_note"]:
        lines.append(summary["calculation_note"])
    if summary.get("next_step"):
        lines.append(summary["next_step"])
    lines += summary["notes"]
    if summary["rows"]:
        shown = f" (the preview holds the first {preview_rows} of {summary['rows']} rows)" if preview_rows < summary["rows"] else ""
        lines.append(f"Table: {urls['table.csv']}{shown}.")
        lines.append(f"Spreadsheet: {urls['table.xlsx']}. Check each row against its source: {urls['review.html']}.")
    else:
        lines.append(f"The table is empty: {urls['table.csv']}.")
    return "\n".join(lines)


async def store_csv(state: ExtractionState, runtime: Runtime[Profile]) -> dict[str, Any]:
    svc = await aservices()
    summary = dict(state["summary"] or {})
    extraction_id = state["extraction_id"]
    thread = get_config().get("configurable", {}).get("thread_id")
    try:
        done = await asyncio.to_thread(_assemble, svc, extraction_id, documents_in_table(state), summary)
    except Exception as exc:
        if not is_store_fault(exc):
            raise
        log.warning("The table of extraction %s could not be stored", extraction_id, exc_info=True)
        raise StoreUnavailable(not_stored_message(thread, exc)) from exc
    summary |= {
        "rows": done.writer.rows,
        "no_rows_count": len(done.no_rows_from),
        "no_rows_from": done.no_rows_from[:LISTED_NAMES],
        "no_rows": done.no_rows[:LISTED_NAMES],
        "failed_count": len(done.failed),
        "failed": done.failed[:LISTED_NAMES],
        "details": done.urls["summary.json"],
        "notes": done.notes,
    }
    if summary.get("calculations") and done.writer.rows:  # the sum is SQL's job: offer the workspace
        summary["next_step"] = next_step(thread, extraction_id)
    failed_all = summary["extracted"] == 0 and bool(done.failed)
    answer: Answer = {
        "status": "failed" if failed_all else "done",
        "message": compose_message(summary, done.urls, len(done.writer.preview)),
        "extraction_id": extraction_id,
        "csv": done.urls["table.csv"],
        "xlsx": done.urls["table.xlsx"],
        "review": done.urls["review.html"],
        "columns": list(summary["columns"]),
        "preview_header": header(list(summary["columns"]))[:-1],  # the preview leaves out Evidence
        "preview": done.writer.preview,
        "preview_note": "The preview is cut to stay small; the CSV holds every row." if done.writer.preview_cut else None,
        "summary": summary,
    }
    return {"answer": answer}
