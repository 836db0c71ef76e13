"""store_csv: the stored rows streamed into one CSV, stored by reference, and the answer."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path
from typing import Any

from langgraph.runtime import Runtime

from graph.profile import Profile
from graph.state import Answer, ExtractionState
from tools.services import Services, aservices
from tools.storage.rows import table_key
from tools.storage.table import TableWriter, header

LISTED_NAMES = 20


def _write_table(svc: Services, extraction_id: str, document_ids: list[int], columns: list[str]) -> tuple[TableWriter, str]:
    with tempfile.TemporaryDirectory(prefix="kea-table-") as folder:
        path = Path(folder) / "table.csv"
        with open(path, "w", encoding="utf-8", newline="") as out:
            writer = TableWriter(columns, out)
            for document_id in document_ids:  # one document's rows in memory at a time
                writer.write_all(svc.rows.read(extraction_id, document_id))
        svc.objects.put_file(table_key(extraction_id), path, "text/csv; charset=utf-8")
    return writer, svc.objects.url(table_key(extraction_id))


def _names(files: list[str]) -> str:
    shown = ", ".join(files[:LISTED_NAMES])
    return shown + (f" and {len(files) - LISTED_NAMES} more" if len(files) > LISTED_NAMES else "")


def compose_message(summary: dict[str, Any], csv_url: str, preview_rows: int) -> str:
    """The answer in sentences: what was read, what it gave, what was left, where the table is."""
    lines = [
        f"Understood: {summary['understood']}.",
        f"Read {summary['extracted']} of {summary['documents_in_scope']} documents in scope "
        f"({summary['engine']} engine): {summary['rows']} rows"
        + (f", {summary['unsure_rows']} marked unsure (check the Match column)" if summary["unsure_rows"] else "")
        + "."
    ]
    if summary.get("model_calls"):
        lines.append(
            f"Model use: {summary['model_calls']} calls, {summary['input_tokens']:,} input and "
            f"{summary['output_tokens']:,} output tokens."
        )
    if summary["failed"]:
        lines.append(
            f"Failed ({len(summary['failed'])}): "
            + "; ".join(f"{f['file']}: {f['error']}" for f in summary["failed"][:LISTED_NAMES])
            + ". The other documents were read; ask again to retry the failed ones."
        )
    if summary["no_rows_from"]:
        lines.append(f"No rows from ({len(summary['no_rows_from'])}): {_names(summary['no_rows_from'])}.")
    if summary["calculations"]:
        lines.append(
            f"I don't calculate {', '.join(summary['calculations'])}: the table lists the values; "
            "total them from the CSV."
        )
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
    columns = list(summary["columns"])
    writer, csv_url = await asyncio.to_thread(_write_table, svc, extraction_id, state.get("document_ids", []), columns)
    failed_all = summary["extracted"] == 0 and bool(summary["failed"])
    answer: Answer = {
        "status": "failed" if failed_all else "done",
        "message": compose_message(summary, csv_url, len(writer.preview)),
        "extraction_id": extraction_id,
        "csv": csv_url,
        "columns": columns,
        "preview_header": header(columns)[:-1],  # the preview leaves out Evidence
        "preview": writer.preview,
        "preview_note": "The preview is cut to stay small; the CSV holds every row." if writer.preview_cut else None,
        "summary": summary,
    }
    return {"answer": answer}
