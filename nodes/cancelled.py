"""What a cancelled run answers: what was read before the stop, in a table marked partial.

A run asked to stop reads nothing more: documents not started yet, and those whose model call
was cut off, store ``NOT_READ`` as their outcome, and the run assembles the rows stored so far
as usual. ``cancelled_answer`` turns that answer into the cancelled one — status
``cancelled``, the message saying how much was read and that the table is partial — and marks
the full summary the same way.
"""

from __future__ import annotations

from typing import Any

from core.state import Answer
from nodes.store_csv import LISTED_NAMES, compose_message

NOT_READ = "not read: the run was cancelled before it was read"


def cancelled_answer(answer: Answer, full: dict[str, Any] | None) -> tuple[Answer, dict[str, Any] | None]:
    """The cancelled form of a run's answer, and of its stored ``summary.json`` (``full``)."""
    summary = dict(answer.get("summary") or {})
    every_failure = list((full or summary).get("failed") or [])
    not_read = [f["file"] for f in every_failure if f.get("error") == NOT_READ]
    failed = [f for f in every_failure if f.get("error") != NOT_READ]
    summary |= {
        "failed": failed[: len(summary.get("failed") or [])] if full is None else failed[:LISTED_NAMES],
        "failed_count": int(summary.get("failed_count", len(every_failure))) - len(not_read),
        "partial": True,
        "not_read_count": len(not_read),
        "not_read": not_read[:LISTED_NAMES],
    }
    read = int(summary.get("extracted", 0))
    lead = (
        f"Cancelled on request: {read} of {summary.get('documents_in_scope', read + len(not_read))} documents were read "
        f"before the stop; {len(not_read)} were not read. The table is partial: it holds only the rows of the "
        "documents read before the stop. Ask again to read them all."
    )
    message = lead + "\n" + compose_message(summary)
    changed: Answer = {**answer, "status": "cancelled", "message": message, "summary": summary}
    if full is not None:
        full = {**full, "failed": failed, "not_read": not_read, "not_read_count": len(not_read), "partial": True,
                "status": "cancelled"}
    return changed, full
