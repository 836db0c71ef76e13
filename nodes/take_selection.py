"""take_selection: a "yes" to a waiting sample takes its selection — once — and reads the rest.

The waiting selection of this thread, profile and user is taken in one statement, so of two
confirmations arriving together one reads the selection and the other is told it was taken.
The run goes on at ``plan`` with the stored reading and documents, as confirmed; the sample's
documents are not read again.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Literal

from langgraph.graph import END
from langgraph.runtime import Runtime
from langgraph.types import Command

from core.profile import Profile, profile_of
from core.state import ExtractionState
from nodes.sample import pending_key
from tools.services import ServicesSource

log = logging.getLogger(__name__)

ALREADY_TAKEN = (
    "That selection was confirmed already: an earlier yes is reading it, and its answer brings the whole "
    "table. Nothing was read twice. Send a new request for another table."
)
NOTHING_WAITING = (
    "No sample is waiting for a yes in this conversation, so nothing was read. Tell me which table you need, "
    "e.g. \"Every position on Nordwerk's 2025 invoices with description, quantity and unit price\"."
)


async def take_selection(state: ExtractionState, runtime: Runtime[Profile], *, services: ServicesSource) -> Command[Literal["plan", "__end__"]]:
    profile = profile_of(runtime.context)
    key = pending_key(profile)
    if key is None:
        return _answer(NOTHING_WAITING)
    try:
        outcome, selection = await asyncio.to_thread((await services()).pending.take, key)
    except Exception:  # noqa: BLE001 — the user gets a sentence; the cause goes to the log
        log.exception("The waiting selection of thread %s could not be taken", key.thread)
        return Command(goto=END, update={"answer": {
            "status": "failed",
            "message": "The waiting selection could not be read (a database error, logged on the server). "
            "Nothing was read; reply yes again in a moment.",
        }})
    if selection is None:
        return _answer(ALREADY_TAKEN if outcome == "already_taken" else NOTHING_WAITING)
    update: dict[str, Any] = {
        "reading": selection.reading,
        "document_ids": selection.document_ids,
        "qualify_files": selection.qualify_files,
        "notes": selection.notes,
        "phase": "confirmed",
        "sample_ids": selection.sample_ids,
        "sample_files": selection.sample_files,
        "sample_extraction_id": selection.sample_extraction_id,
        "tally": selection.sample_tally,  # the sample's documents count as read in this table
    }
    return Command(goto="plan", update=update)


def _answer(message: str) -> Command[Literal["plan", "__end__"]]:
    return Command(goto=END, update={"answer": {"status": "answered", "message": message}})
