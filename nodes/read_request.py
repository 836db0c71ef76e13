"""read_request: the message becomes a Reading — columns, conditions, places, calculations."""

from __future__ import annotations

import asyncio
import logging
import uuid
from datetime import date
from typing import Any, Literal

from langgraph.graph import END
from langgraph.runtime import Runtime
from langgraph.types import Command

from core.profile import Profile, profile_of
from core.protocol import parse_reply, too_long
from core.reading import Place, Reading, ScopeHint
from core.state import RESET, Answer, ExtractionState
from nodes.sample import pending_key
from tools.engines import ExtractionError, engine_named
from tools.engines.conversation import kind_of
from tools.engines.columns import header_holding
from tools.knowledge.base import KnowledgeBase
from tools.knowledge.places import named_tables
from tools.knowledge.paths import BadPattern, path_like_tokens
from tools.services import ServicesSource

ABOUT = (
    "I turn one request into one table across the documents in your scope: every row names its "
    "file, read from every document, and the table is stored as a CSV. Ask for example: "
    "\"Every position on Nordwerk's 2025 invoices with description, quantity and unit price\". "
    "Before I read anything I ask back how I understood the request."
)
GREETING = "Hello! " + ABOUT
READER_FAULT = (
    "Kea could not read this request because of an internal error (it is logged). Nothing was read. "
    "Say it in other words, for example: the values you need, which rows, and where."
)
DECLINED_SAMPLE = "Declined: the documents beyond the sample are not read. Ask again any time."
log = logging.getLogger(__name__)


async def read_request(
    state: ExtractionState, runtime: Runtime[Profile], *, services: ServicesSource
) -> Command[Literal["questions", "take_selection", "resolve_scope", "__end__"]]:
    profile = profile_of(runtime.context)
    message = state["message"].strip()
    given = state.get("confirmed_reading")
    # A new message starts a new run: nothing of an earlier run on this thread carries over.
    fresh: dict[str, Any] = {
        # "auto" holds for this message only: a later message on the thread is asked again
        "confirm": "ask",
        "confirmed_reading": None,
        "auto_confirm": state.get("confirm") == "auto" or profile.confirm == "auto",
        "extraction_id": uuid.uuid4().hex,
        "reading": None,
        "scope_hint": None,
        "corrected": False,
        "document_ids": [],
        "qualify_files": False,
        "notes": [],
        "discovery": None,
        "tally": RESET,
        "summary": None,
        "answer": None,
        "phase": "all",
        "sample_ids": [],
        "sample_files": [],
        "sample_extraction_id": None,
    }
    if given:  # asked back by the caller already: read as is, no questions
        return await _confirmed(Reading.model_validate(given), profile, fresh, services)
    if (refusal := too_long(message)) is not None:
        return Command(goto=END, update={**fresh, "answer": {"status": "failed", "message": refusal}})
    reply = parse_reply(message)
    if reply.action == "keep":  # a yes: to the sample waiting on this thread, if one waits
        return Command(goto="take_selection", update=fresh)
    if reply.action == "decline" and message and await _discard(profile, services):
        return Command(goto=END, update={**fresh, "answer": {"status": "declined", "message": DECLINED_SAMPLE}})
    kind = kind_of(message)  # a greeting or a question about Kea: no engine, no scope needed
    if kind != "table":
        text = {"greeting": GREETING, "about": ABOUT, "empty": "Tell me which table you need. " + ABOUT}[kind]
        reading = Reading(request=message, kind=kind, columns_from="none")
        return Command(goto=END, update={**fresh, "reading": reading.model_dump(mode="json"), "answer": {"status": "answered", "message": text}})
    await _discard(profile, services)  # a new request replaces the selection waiting on this thread
    kb = (await services()).kb
    hint = await _scope_hint(kb, profile, fresh)
    if isinstance(hint, Command):
        return hint
    try:
        reading = await engine_named(profile.engine, profile).read_request(message, hint)
    except ExtractionError as exc:
        text = f"{exc} Nothing was read."
        return Command(goto=END, update={**fresh, "answer": {"status": "failed", "message": text}})
    except Exception:  # noqa: BLE001 — a fault of the reader, not of the message: logged, said in a sentence
        log.exception("Reading a request of %d characters failed", len(message))
        return Command(goto=END, update={**fresh, "answer": {"status": "failed", "message": READER_FAULT}})
    reading = await asyncio.to_thread(with_written_files, kb, reading, message, profile)
    if reading.columns_from == "tables":
        reading = await asyncio.to_thread(with_named_tables, kb, reading, profile)
    fresh |= {"reading": reading.model_dump(mode="json"), "scope_hint": hint.model_dump(mode="json")}
    if reading.kind != "table":  # an engine may still find that no table was asked for
        text = {"greeting": GREETING, "about": ABOUT, "empty": "Tell me which table you need. " + ABOUT}[reading.kind]
        return Command(goto=END, update={**fresh, "answer": {"status": "answered", "message": text}})
    if hint.documents == 0:
        return Command(goto=END, update={**fresh, "answer": empty_scope(profile)})
    return Command(goto="questions", update=fresh)


async def _confirmed(
    reading: Reading, profile: Profile, fresh: dict[str, Any], services: ServicesSource
) -> Command[Literal["questions", "take_selection", "resolve_scope", "__end__"]]:
    """A reading its caller confirmed: straight to the scope, as a confirmed form would go."""
    await _discard(profile, services)  # a new request replaces the selection waiting on this thread
    hint = await _scope_hint((await services()).kb, profile, fresh)
    if isinstance(hint, Command):
        return hint
    fresh |= {"reading": reading.model_dump(mode="json"), "scope_hint": hint.model_dump(mode="json")}
    if hint.documents == 0:
        return Command(goto=END, update={**fresh, "answer": empty_scope(profile)})
    return Command(goto="resolve_scope", update=fresh)


async def _scope_hint(kb: KnowledgeBase, profile: Profile, fresh: dict[str, Any]) -> ScopeHint | Command[Literal["__end__"]]:
    """What the scope holds (for the questions and the engines), or the answer when its glob is bad."""
    try:
        today = date.fromisoformat(profile.today) if profile.today else date.today()
    except (TypeError, ValueError):
        text = f"The profile's day 'today' ({profile.today!r}) is no date; write it as YYYY-MM-DD. Nothing was read."
        return Command(goto=END, update={**fresh, "answer": {"status": "failed", "message": text}})
    try:
        hint = await asyncio.to_thread(kb.scope_hint, profile.scope)
    except BadPattern as exc:
        text = f"The profile's path glob cannot be used: {exc} Nothing was read; fix the profile."
        return Command(goto=END, update={**fresh, "answer": {"status": "failed", "message": text}})
    # the day is fixed with the reading: a run resumed tomorrow reads "this year" as it was asked
    return hint.model_copy(update={"today": today.isoformat()})


async def _discard(profile: Profile, services: ServicesSource) -> bool:
    """Drop the selection waiting on this thread; True when one waited."""
    key = pending_key(profile)
    if key is None:
        return False
    try:
        return await asyncio.to_thread((await services()).pending.discard, key)
    except Exception:  # noqa: BLE001 — a stale selection must not stop a new request
        log.exception("The waiting selection of thread %s could not be dropped", key.thread)
        return False


def empty_scope(profile: Profile) -> Answer:
    """The answer when nothing can be read at all: why, and that documents or access would change it."""
    where = f"the collection(s) {', '.join(profile.collections)}" if profile.collections else "any collection"
    glob = f" matching {profile.path_glob}" if profile.path_glob else ""
    return {
        "status": "no_documents",
        "message": f"There is no document{glob} in {where} that user '{profile.user}' may read, so nothing was read.",
        "actions": [{"kind": "add_documents"}, {"kind": "ask_for_access"}],
    }


def with_written_files(kb: KnowledgeBase, reading: Reading, message: str, profile: Profile) -> Reading:
    """A file path the user wrote out is a place, matched as the end of a stored path, no model.

    Engines may report it already; any token of the message that ends a stored document path
    (at a folder boundary) is added, so "invoices/2024/a.pdf" is read even when an engine took
    it for a topic.
    """
    places = list(reading.places)
    known = {p.value for p in places if p.kind == "file"}
    for token in path_like_tokens(message):
        if token in known:
            continue
        if kb.find_by_path_suffix(profile.scope, token):
            places.append(Place(kind="file", value=token))
            known.add(token)
    # an engine's file place that names no document stays: resolve_scope reports it as empty
    return reading.model_copy(update={"places": places})


def with_named_tables(kb: KnowledgeBase, reading: Reading, profile: Profile) -> Reading:
    """A request that names no column but names its documents ("all the lines of the Brightcell
    invoice INV-BC-20931", "the contracts in legal/contracts") asks for the columns of their
    table, not of the scope's most common one; as before when they hold no table that fits."""
    columns = header_holding(named_tables(reading, kb, profile.scope), reading.conditions)
    return reading.model_copy(update={"columns": columns}) if columns else reading
