"""extract_records: the Universal Agent's table tool runs the extraction graph itself.

The call's arguments become a ``Reading`` (``ExtractRecords.reading``). A new call is asked back
with the extraction graph's own three-part form (``nodes.questions.build_form``: Location, Filter
Condition, Values to extract) through an ``interrupt`` that reaches the agent's caller; the reply
is classified by ``core.protocol.parse_reply``. A yes runs the compiled extraction graph on the
confirmed reading, inside this tool's task: it shares the agent's checkpointer, thread and
profile, and its progress reaches the agent's stream. "no" tells the model the user declined;
any other reply, or a location that names nothing in scope, goes back to the model, and its
next call in the same answer runs unasked.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from langgraph.types import interrupt

from core.profile import Profile
from core.protocol import parse_reply, reply_problem
from core.reading import Reading, folder_list
from core.result import build_result
from nodes.questions import build_form, changed_parts, estimate
from tools.agent.documents import cut
from tools.agent.schemas import ExtractRecords
from tools.engines import engine_named
from tools.knowledge.paths import BadPattern
from tools.knowledge.places import selection_for
from tools.services import Services

FIRST_ROWS = 5  # rows of the table the model reads; the user sees the preview and the CSV
DECLINED = "The user declined: no document was read. Do not call extract_records again for this request."
NOT_YET = (
    "The user has not confirmed the sample yet: leave the yes to the user (they reply yes to read the rest). "
    "Nothing was read."
)
LEAVE_TABLE = (
    "The user sees this table (its preview and download links) right below your answer: do not repeat its rows "
    "and do not calculate from it; say in a sentence or two what it holds and what to check."
)


@dataclass
class Outcome:
    """What one call gives: the text the model reads, the table to pin, the answer's flags."""

    content: str
    table: dict[str, Any] | None = None
    flags: dict[str, Any] = field(default_factory=dict)
    selection: dict[str, Any] | None = None  # a successful select_knowledge_documents: {"selection", "documents"}


async def extract_records(
    args: ExtractRecords, profile: Profile, svc: Services, extraction: Any, *, asked: bool, auto: bool, sampled: bool
) -> Outcome:
    """Run one call. ``asked``: ask the user first; ``auto``: nobody answers questions (a sample
    is read whole); ``sampled``: this answer already left a sample waiting for the user."""
    if args.continue_sample:
        if sampled:
            return Outcome(NOT_YET)
        return await _run(extraction, {"message": "yes"}, profile)
    reading = args.reading()
    where = await asyncio.to_thread(_missing_places, reading, svc, profile)
    if where:
        return Outcome(where, flags={"unasked": True})
    if asked:
        hint = await asyncio.to_thread(svc.kb.scope_hint, profile.scope)
        engine = engine_named(profile.engine, profile)
        # nothing before interrupt() has side effects: on resume this tool runs again from the top
        form = build_form(reading, hint, await estimate(reading, profile, engine, svc.kb))
        reply = parse_reply(interrupt(form))
        if (problem := reply_problem(reply, [q["id"] for q in form["questions"]])) is not None:
            # never handed to the model as the user's words: only why it could not be used
            return Outcome(f"The user's answer to the questions could not be used: {problem} Nothing was read; "
                           "ask the user again in a sentence.", flags={"unasked": True})
        if reply.action == "decline":
            return Outcome(DECLINED, flags={"unasked": False})
        if reply.action == "correct":
            return Outcome(_correction(f"“{reply.text}”"), flags={"unasked": True})
        if reply.action == "answers" and (changed := changed_parts(reply.answers, reading, hint)):
            said = "; ".join(f"{header}: “{text}”" for _, header, text, _ in changed)
            return Outcome(_correction(said), flags={"unasked": True})
    payload = {
        "message": reading.request or "extract_records",
        "confirmed_reading": reading.model_dump(mode="json"),
        "confirm": "auto" if auto else "ask",
    }
    outcome = await _run(extraction, payload, profile)
    outcome.flags.setdefault("unasked", False)
    return outcome


def _correction(said: str) -> str:
    return (
        f"The user corrected the request instead of confirming it: {said}. Nothing was read. Call extract_records "
        "again with the arguments corrected accordingly (that call runs without asking again), or answer the user "
        "if they asked for something else."
    )


def _missing_places(reading: Reading, svc: Services, profile: Profile) -> str | None:
    """Why the call's places cannot be read (a place naming nothing in scope), or None."""
    try:
        _, missing = selection_for(reading, svc.kb, profile.scope)
    except BadPattern as exc:
        return f"{exc} Nothing was read and the user was not asked. Call extract_records again with a folder, file, year or glob."
    if not missing:
        return None
    folders = folder_list(svc.kb.folder_summary(profile.scope, limit=12)) or "none"
    years = ", ".join(svc.kb.years(profile.scope)) or "none"
    return (
        f"No document in scope is at {', '.join(missing)}. Nothing was read and the user was not asked. "
        f"The scope's largest folders: {folders}; years in its paths: {years}. Call extract_records again with "
        "places that exist (that call runs without asking again), or ask the user where to read."
    )


async def _run(extraction: Any, payload: dict[str, Any], profile: Profile) -> Outcome:
    """The extraction graph on ``payload``, in this task (its checkpoints under this task's namespace)."""
    values = await extraction.ainvoke(payload, context=profile)
    table = {k: values.get(k) for k in ("extraction_id", "reading", "answer")}
    answer = table.get("answer") or {}
    flags = {"sampled": True} if answer.get("status") == "sample" else {}
    text = result_for_model(table, profile.max_result_tokens * 4)
    return Outcome(text, table if answer.get("csv") else None, flags)


def result_for_model(table: dict[str, Any], budget_chars: int) -> str:
    """What the model reads of an extraction: its summary and its first rows, within the budget."""
    result = build_result(table)
    lines = [f"Status: {result.status}."]
    lines += result.message.splitlines()
    if result.preview.rows:
        shown = result.preview.rows[:FIRST_ROWS]
        lines.append(f"First {len(shown)} of {result.rows} rows (tab-separated):")
        lines.append("\t".join(result.preview.header))
        lines += ["\t".join(row) for row in shown]
    if result.csv:
        lines.append(LEAVE_TABLE)
    return cut("\n".join(lines), budget_chars)


def table_reference(table: dict[str, Any]) -> str:
    """An earlier table, as it rides back into later prompts: one line."""
    result = build_result(table)
    columns = ", ".join(result.columns) or "the columns of the tables found"
    what = "a sample" if result.status == "sample" else "a table"
    return (
        f"[{what} {result.extraction_id[:12]}: {result.rows} rows ({columns}) from {result.documents.extracted} of "
        f"{result.documents.in_scope} documents, shown to the user in an earlier answer; its rows are not repeated here]"
    )
