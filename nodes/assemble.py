"""assemble: once every document finished, sum up what the run read and what it gave."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from core.profile import Profile, profile_of
from core.reading import Reading
from core.state import ExtractionState, empty_tally


async def assemble(state: ExtractionState, runtime: Runtime[Profile]) -> dict[str, Any]:
    profile = profile_of(runtime.context)
    reading = Reading.model_validate(state["reading"])
    tally = state.get("tally") or empty_tally()
    summary = {
        "engine": profile.engine,
        "documents_in_scope": len(state.get("document_ids", [])),
        **tally,
        # what each row is comes first, when a table had to say it ("Which states …? The totals")
        "columns": [reading.subject, *reading.columns] if reading.subject and reading.subject not in reading.columns
        and tally.get("subject_rows") else reading.columns,
        "row_condition": reading.row_condition,
        "document_conditions": reading.document_conditions,
        "places": reading.place_labels(),
        "calculations": reading.calculations,
        "unused": reading.unused,  # words of the request that became nothing: every row is unsure
        "row_terms": reading.row_terms,  # words that pick rows by meaning
        "calculation_note": reading.calculation_note(),
        "understood": reading.describe(),
        "notes": [*reading.notes, *state.get("notes", [])],
        "phase": state.get("phase", "all"),
        "sample": list(state.get("sample_files") or []),  # the sample's files, in the order shown
    }
    return {"summary": summary}
