"""offer_sample: the sample's table is stored; the whole selection now waits for a "yes".

Runs after ``store_csv`` when only the sample was read. The selection — its document ids,
the confirmed reading and the sample's extraction, never rows — is stored for this thread,
profile and user (``tools/storage/pending.py``), and the answer says what a yes reads: the
columns, the row condition, the number of documents and the estimated minutes, measured on
the sample. The sample's rows are the answer's preview and CSV.
"""

from __future__ import annotations

import asyncio
import logging
import math
from typing import Any, Literal

from langgraph.graph import END
from langgraph.runtime import Runtime

from core.profile import Profile, profile_of
from core.reading import Reading
from core.state import ExtractionState, empty_tally
from nodes.sample import pending_key
from tools.services import ServicesSource
from tools.storage.pending import PendingSelection

log = logging.getLogger(__name__)
# When the sample measured nothing (it read no document), a document is taken to need this
# long: a typical extraction call of a language model.
DEFAULT_SECONDS_PER_DOCUMENT = 20.0


def needs_offer(state: ExtractionState) -> Literal["offer_sample", "__end__"]:
    """After the table: a sample's answer offers the whole selection; any other answer is final."""
    return "offer_sample" if state.get("phase") == "sample" else END


async def offer_sample(state: ExtractionState, runtime: Runtime[Profile], *, services: ServicesSource) -> dict[str, Any]:
    profile = profile_of(runtime.context)
    answer = dict(state.get("answer") or {})
    if answer.get("status") == "failed":  # every sample document failed: nothing worth confirming
        return {}
    ids = list(state.get("document_ids") or [])
    sample_ids = list(state.get("sample_ids") or [])
    tally = {**empty_tally(), **(state.get("tally") or {})}
    rest = len(ids) - len(sample_ids)
    seconds = tally["read_ms"] / 1000 / len(sample_ids) if sample_ids else DEFAULT_SECONDS_PER_DOCUMENT
    lanes = max(1, min(profile.concurrency, rest))
    minutes = math.ceil(rest / lanes) * seconds / 60 if rest else 0.0
    kept = await _keep(state, profile, tally, services)
    reading = Reading.model_validate(state["reading"])
    message = compose_offer(answer, reading, len(ids), rest, minutes, seconds, lanes, state.get("sample_files") or [], kept)
    note = " ".join(n for n in [f"A sample: the rows of {len(sample_ids)} of {len(ids)} documents.", answer.get("preview_note")] if n)
    return {
        "answer": {
            **answer, "status": "sample", "message": message, "preview_note": note, "estimated_minutes": round(minutes, 1)
        }
    }


async def _keep(state: ExtractionState, profile: Profile, tally: dict[str, int], services: ServicesSource) -> str | None:
    """Store the selection for a yes; None when kept, else a sentence saying why it is not."""
    key = pending_key(profile)
    if key is None:
        return "This run has no conversation thread, so the selection cannot wait for a yes: ask again with confirm=\"auto\" to read it all."
    selection = PendingSelection(
        reading=dict(state["reading"] or {}),
        document_ids=list(state.get("document_ids") or []),
        sample_ids=list(state.get("sample_ids") or []),
        sample_files=list(state.get("sample_files") or []),
        sample_extraction_id=state["extraction_id"],
        sample_tally=tally,
        qualify_files=bool(state.get("qualify_files")),
        notes=list(state.get("notes") or []),
    )
    try:
        await asyncio.to_thread((await services()).pending.offer, key, selection)
    except Exception:  # noqa: BLE001 — the sample stands; the user is told the yes cannot follow
        log.exception("The selection of thread %s could not be kept for a yes", key.thread)
        return "The selection could not be kept for a yes (a database error, logged on the server): send the request again."
    return None


def _duration(minutes: float) -> str:
    return "under a minute" if minutes < 1 else f"about {math.ceil(minutes)} minutes"


def compose_offer(
    answer: dict[str, Any], reading: Reading, documents: int, rest: int, minutes: float, seconds: float, lanes: int,
    files: list[str], not_kept: str | None,
) -> str:
    """The sample's answer: what was read, what a yes reads and how long it will take."""
    summary = answer.get("summary") or {}
    rows = summary.get("rows", 0)
    unsure = f", {summary['unsure_rows']} marked unsure" if summary.get("unsure_rows") else ""
    lines = [
        f"This is a sample: {documents} documents match, so I read {len(files)} of them first, those most "
        f"likely to hold wanted rows ({', '.join(files)}). They gave {rows} rows{unsure}; the other {rest} "
        "documents are not read yet.",
        f"Columns: {', '.join(summary.get('columns') or reading.columns) or 'the columns of the tables found'}.",
        f"Rows: {reading.describe_filter() or 'every row'}.",
        f"Documents: {documents} ({reading.describe_places() or 'every document in scope'}).",
        f"Estimated time for the other {rest}: {_duration(minutes)} (an estimate from the "
        f"{'under 0.1' if seconds < 0.1 else f'{seconds:.1f}'} s each sample document took, {lanes} at a time).",
    ]
    failed = summary.get("failed") or []
    if failed:
        lines.append("Failed in the sample: " + "; ".join(f"{f['file']}: {f['error']}" for f in failed) + ".")
    if summary.get("calculation_note"):
        lines.append(summary["calculation_note"])
    lines += summary.get("notes") or []
    if not_kept:
        lines.append(not_kept)
    else:
        lines.append(
            f'Reply "yes" to read all {documents} documents with these columns in one answer (the sample\'s '
            'rows are kept, its documents not read again), "no" to cancel, or send a new request instead.'
        )
    return "\n".join(lines)
