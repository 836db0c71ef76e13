"""State of the extraction graph: references, counts and previews only — never the table.

Rows go from the node that extracted them straight into storage; the state keeps the
document ids of the scope, a running tally of what the documents gave, and the answer with
a preview of at most 100 rows.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired, TypedDict

Confirm = Literal["ask", "auto"]
Status = Literal["done", "sample", "no_documents", "needs_narrowing", "declined", "failed", "answered", "cancelled"]
# "cancelled": stopped on request; the table holds what was read before the stop (partial)
# How plan reads the scope: "all" of it; a "sample" first (more than 100 documents, asked);
# "auto_sample" (the same, confirmed on its own: everything is read, the sample first); the
# "confirmed" rest of a selection whose sample was shown (its rows are reused).
Phase = Literal["all", "sample", "auto_sample", "confirmed"]


class Tally(TypedDict):
    """Counts of what the documents gave, summed as they finish (order-independent).

    Which documents gave no rows or failed is not kept here — the lists grow with the scope —
    but in storage (each document stores its rows or its failure), where ``store_csv`` reads
    them back and counts them.
    """

    extracted: int
    rows: int
    unsure_rows: int
    subject_rows: int  # rows a table gave the reading's subject of (see ``Reading.subject``)
    model_calls: int
    input_tokens: int
    output_tokens: int
    read_ms: int  # time spent reading documents, summed over documents (estimates use it)


COUNTS = ("extracted", "rows", "unsure_rows", "subject_rows", "model_calls", "input_tokens", "output_tokens", "read_ms")


def empty_tally() -> Tally:
    return {key: 0 for key in COUNTS}  # type: ignore[return-value]


RESET: dict[str, Any] = {"reset": True}


def merge_tally(current: Tally | None, update: dict[str, Any] | None) -> Tally:
    """Add one document's counts to the tally; ``RESET`` starts a new run's tally."""
    if update is None or update.get("reset"):
        return empty_tally()
    merged = {**empty_tally(), **(current or {})}
    for key in COUNTS:
        merged[key] += int(update.get(key, 0))
    return merged  # type: ignore[return-value]


class Answer(TypedDict):
    """The run's answer: what every interface shows the user."""

    status: Status
    message: str
    extraction_id: NotRequired[str]
    csv: NotRequired[str | None]
    xlsx: NotRequired[str | None]
    review: NotRequired[str | None]
    columns: NotRequired[list[str]]
    preview_header: NotRequired[list[str]]
    preview: NotRequired[list[list[str]]]
    preview_note: NotRequired[str | None]
    summary: NotRequired[dict[str, Any]]
    estimated_minutes: NotRequired[float | None]  # a sample's estimate for the whole selection
    breakdown: NotRequired[dict[str, Any] | None]  # needs_narrowing: Breakdown.model_dump()
    actions: NotRequired[list[dict[str, Any]]]  # what the user can do next: core.result.Action.model_dump()


class ExtractionInput(TypedDict):
    """What a caller passes: the message, and ``confirm="auto"`` when nobody can answer questions.

    ``confirmed_reading`` (a ``Reading.model_dump()``) is a reading its caller has asked back
    already — the Universal Agent's ``extract_records`` — read as is, without the engine's
    reading and without the questions; a selection of more than 100 documents still gets its sample.
    """

    message: str
    confirm: NotRequired[Confirm]
    confirmed_reading: NotRequired[dict[str, Any] | None]


class ExtractionOutput(TypedDict):
    extraction_id: str
    reading: dict[str, Any] | None
    answer: Answer | None


class ExtractionState(TypedDict):
    message: str
    confirm: NotRequired[Confirm]  # as passed with this message; consumed by read_request
    confirmed_reading: NotRequired[dict[str, Any] | None]  # as passed with this message; consumed by read_request
    auto_confirm: NotRequired[bool]  # this run takes the reading as understood
    extraction_id: NotRequired[str]
    reading: NotRequired[dict[str, Any] | None]  # Reading.model_dump()
    scope_hint: NotRequired[dict[str, Any] | None]  # ScopeHint.model_dump()
    corrected: NotRequired[bool]
    document_ids: NotRequired[list[int]]
    qualify_files: NotRequired[bool]  # the scope spans collections: files are named collection:path
    notes: NotRequired[list[str]]  # what resolving the scope found worth saying
    # discovery mode's hand-over: {"selection", "source", "row_conditions"} or {"note"} (no search, or none selected)
    discovery: NotRequired[dict[str, Any] | None]
    phase: NotRequired[Phase]
    sample_ids: NotRequired[list[int]]  # the sample's documents, in the order shown
    sample_files: NotRequired[list[str]]
    sample_extraction_id: NotRequired[str | None]  # the extraction whose stored rows the sample reuses
    # the fan-out runs in waves (nodes/plan.py): where in documents_to_read the current one starts, and its size
    wave_start: NotRequired[int]
    wave_size: NotRequired[int]
    tally: Annotated[Tally, merge_tally]
    summary: NotRequired[dict[str, Any] | None]
    answer: NotRequired[Answer | None]


class DocumentTask(TypedDict):
    """The input of one ``extract_document`` task (sent once per document; kept tiny, since
    LangGraph keeps every pending task in one checkpoint blob: the reading is in storage)."""

    extraction_id: str
    document_id: int
    qualify: NotRequired[bool]


def documents_to_read(state: ExtractionState) -> list[int]:
    """The documents this run sends to ``extract_document``, in the order they are sent."""
    ids = list(state.get("document_ids") or [])
    sample = list(state.get("sample_ids") or [])
    phase = state.get("phase", "all")
    if phase == "sample":
        return sample
    if phase == "auto_sample":
        chosen = set(sample)
        return sample + [i for i in ids if i not in chosen]
    if phase == "confirmed":
        chosen = set(sample)
        return [i for i in ids if i not in chosen]
    return ids


def documents_in_table(state: ExtractionState) -> list[int]:
    """The documents whose stored rows make this run's table, in scope order."""
    if state.get("phase") == "sample":
        return list(state.get("sample_ids") or [])
    return list(state.get("document_ids") or [])
