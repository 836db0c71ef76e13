"""store_csv: the stored rows streamed into one CSV, stored by reference, and the answer.

The documents' outcomes are read back from storage one at a time, so the full lists of
documents without rows and of failures come from there, not from graph state; they are
stored beside the table as ``summary.json``. The answer carries the first names of each list.
"""

from __future__ import annotations

import asyncio
import json
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from langgraph.config import get_config
from langgraph.runtime import Runtime

from graph.profile import Profile
from graph.state import Answer, ExtractionState
from tools.services import Services, aservices
from tools.storage.rows import summary_key, table_key
from tools.storage.table import TableWriter, header
from tools.workspace.hint import next_step

LISTED_NAMES = 20
NOT_STORED = "no result was stored for it (the run may have been interrupted); ask again to read it"


@dataclass
class Assembled:
    writer: TableWriter
    csv_url: str
    summary_url: str
    no_rows_from: list[str] = field(default_factory=list)
    failed: list[dict[str, str]] = field(default_factory=list)


def _assemble(svc: Services, extraction_id: str, document_ids: list[int], summary: dict[str, Any]) -> Assembled:
    """Stream every document's stored outcome into the CSV; collect who gave nothing or failed."""
    no_rows_from: list[str] = []
    failed: list[dict[str, str]] = []
    with tempfile.TemporaryDirectory(prefix="kea-table-") as folder:
        path = Path(folder) / "table.csv"
        with open(path, "w", encoding="utf-8", newline="") as out:
            writer = TableWriter(list(summary["columns"]), out)
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
                    writer.write(outcome.file, record)
                if writer.rows == before:
                    no_rows_from.append(outcome.file)
        svc.objects.put_file(table_key(extraction_id), path, "text/csv; charset=utf-8")
    full = {**summary, "rows": writer.rows, "no_rows_from": no_rows_from, "failed": failed}
    svc.objects.put_bytes(summary_key(extraction_id), json.dumps(full, ensure_ascii=False, indent=1).encode(), "application/json")
    return Assembled(writer, svc.objects.url(table_key(extraction_id)), svc.objects.url(summary_key(extraction_id)), no_rows_from, failed)


def _more(shown: int, total: int) -> str:
    return f" and {total - shown} more (all in summary.json)" if total > shown else ""


def compose_message(summary: dict[str, Any], csv_url: str, preview_rows: int) -> str:
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
        names = ", ".join(summary["no_rows_from"])
        lines.append(f"No rows from ({summary['no_rows_count']}): {names}{_more(len(summary['no_rows_from']), summary['no_rows_count'])}.")
    if summary["calculation_note"]:
        lines.append(summary["calculation_note"])
    if summary.get("next_step"):
        lines.append(summary["next_step"])
    lines += summary["notes"]
    if summary["rows"]:
        shown = f" (the preview holds the first {preview_rows} of {summary['rows']} rows)" if preview_rows < summary["rows"] else ""
        lines.append(f"Table: {csv_url}{shown}.")
    else:
        lines.append(f"The table is empty: {csv_url}.")
    return "\n".join(lines)


async def store_csv(state: ExtractionState, runtime: Runtime[Profile]) -> dict[str, Any]:
    svc = await aservices()
    summary = dict(state["summary"] or {})
    extraction_id = state["extraction_id"]
    done = await asyncio.to_thread(_assemble, svc, extraction_id, state.get("document_ids", []), summary)
    summary |= {
        "rows": done.writer.rows,
        "no_rows_count": len(done.no_rows_from),
        "no_rows_from": done.no_rows_from[:LISTED_NAMES],
        "failed_count": len(done.failed),
        "failed": done.failed[:LISTED_NAMES],
        "details": done.summary_url,
    }
    if summary.get("calculations") and done.writer.rows:  # the sum is SQL's job: offer the workspace
        summary["next_step"] = next_step(get_config().get("configurable", {}).get("thread_id"), extraction_id)
    failed_all = summary["extracted"] == 0 and bool(done.failed)
    answer: Answer = {
        "status": "failed" if failed_all else "done",
        "message": compose_message(summary, done.csv_url, len(done.writer.preview)),
        "extraction_id": extraction_id,
        "csv": done.csv_url,
        "columns": list(summary["columns"]),
        "preview_header": header(list(summary["columns"]))[:-1],  # the preview leaves out Evidence
        "preview": done.writer.preview,
        "preview_note": "The preview is cut to stay small; the CSV holds every row." if done.writer.preview_cut else None,
        "summary": summary,
    }
    return {"answer": answer}
