"""questions: the reading is asked back before any document is read (an interrupt).

The form has three questions — Location, Filter Condition, Values to extract — each
pre-filled as understood, with an alternative and a free answer. The resume value is either
the dialog's answers (a JSON object by question id) or typed text: "yes" keeps the reading,
"no" declines, anything else is a correction read once more, with no second form.
"""

from __future__ import annotations

import asyncio
from typing import Any, Literal

from langgraph.graph import END
from langgraph.runtime import Runtime
from langgraph.types import Command, interrupt

from core.profile import Profile, profile_of
from core.protocol import NO, YES, OtherAnswer, Reply, is_yes, parse_reply, reply_problem
from core.reading import Place, Reading, ScopeHint, folder_list
from core.state import ExtractionState
from nodes.plan import SAMPLE_ABOVE
from tools.engines import Engine, engine_named
from tools.engines.accounting import with_accounting
from tools.engines.base import Estimate
from tools.knowledge.base import KnowledgeBase
from tools.knowledge.paths import BadPattern, path_like_tokens
from tools.knowledge.places import places_to_read
from tools.services import ServicesSource
from tools.storage.table import shorten

ASKS = 3  # a reply that cannot be used is explained and asked again, this many times in all
QUESTION_CHARS = 500
HEADER_CHARS = 40
LABEL_CHARS = 60
__all__ = ["NO", "YES", "apply_reply", "build_form", "changed_parts", "estimate", "merge_correction", "questions"]

SAMPLE_NOTE = "More than 100 documents: I read a sample of 5 first and ask again before reading the rest."
ALL_DOCUMENTS = "All documents in scope"
EVERY_ROW = "Every row"
TABLE_COLUMNS = "Columns of the tables found"
NO_KEYWORDS = "None"


async def questions(
    state: ExtractionState, runtime: Runtime[Profile], *, services: ServicesSource
) -> Command[Literal["resolve_scope", "discover", "__end__"]]:
    profile = profile_of(runtime.context)
    after = "discover" if profile.discovery else "resolve_scope"
    if state.get("auto_confirm"):
        return Command(goto=after)
    reading = Reading.model_validate(state["reading"])
    hint = ScopeHint.model_validate(state["scope_hint"])
    engine = engine_named(profile.engine, profile)
    # Nothing before interrupt() has side effects (the estimate only reads): on resume this
    # node runs again from the top.
    cost = await estimate(reading, profile, engine, (await services()).kb)
    if profile.discovery:
        reading = with_keywords(reading)
    parsed = ask(build_form(reading, hint, cost, discovery=profile.discovery))
    if isinstance(parsed, str):
        return Command(goto=END, update={"answer": {"status": "failed", "message": parsed}})
    confirmed = await apply_reply(parsed, reading, hint, engine, discovery=profile.discovery)
    if confirmed is None:
        return Command(
            goto=END,
            update={"answer": {"status": "declined", "message": "Declined: no document was read. Ask again any time."}},
        )
    return Command(
        goto=after,
        update={"reading": confirmed.model_dump(mode="json"), "corrected": confirmed != reading},
    )


def ask(form: dict[str, Any]) -> Reply | str:
    """The form's reply; a reply that cannot be used is explained and the form asked again, up
    to ``ASKS`` times in all. Past that, why the last one could not be used (a str).

    Each ask is its own interrupt: on resume this runs again from the top and every earlier
    reply is handed back in order, so asking again loses nothing and reads nothing.
    """
    ids = [q["id"] for q in form["questions"]]
    problem = None
    for _ in range(ASKS):
        asked = form if problem is None else {**form, "problem": problem, "text": f"{problem}\n\n{form['text']}"}
        parsed = parse_reply(interrupt(asked))
        problem = reply_problem(parsed, ids)
        if problem is None:
            return parsed
    return f"{problem} The questions were asked {ASKS} times without an answer Kea could use, so nothing was read; ask again."


async def estimate(reading: Reading, profile: Profile, engine: Engine, kb: KnowledgeBase) -> Estimate | None:
    """The cost of reading the places as understood; None when they cannot be resolved."""
    try:
        _, selection, _, _ = await asyncio.to_thread(places_to_read, reading, kb, profile.scope)
        documents = (await asyncio.to_thread(kb.resolve, profile.scope, selection)).documents
    except BadPattern:
        return None
    return engine.estimate([d.page_count for d in documents], profile.concurrency)


# -- the form ------------------------------------------------------------------------------


def _option(label: str, description: str) -> dict[str, str]:
    return {"label": shorten(label, LABEL_CHARS), "description": shorten(description, 200)}


def _folders_hint(hint: ScopeHint, limit: int = 8) -> str:
    folders = folder_list(hint.folders, limit)
    return f"Largest folders: {folders}." if folders else ""


def with_keywords(reading: Reading) -> Reading:
    """The keywords the search is offered, pre-filled from the reading unless it has its own:
    names and terms to search for literally, the request's kind of document to rank by."""
    exact = reading.exact_keywords or list(dict.fromkeys([*reading.document_conditions, *reading.row_terms]))
    semantic = reading.semantic_keywords or [reading.request.strip()][: bool(reading.request.strip())]
    return reading.model_copy(update={"exact_keywords": exact, "semantic_keywords": semantic})


def _keyword_questions(reading: Reading) -> list[dict[str, Any]]:
    exact, semantic = ", ".join(reading.exact_keywords), ", ".join(reading.semantic_keywords)
    guide = "They guide the search for documents and never filter rows."
    return [
        _question("exact", "Exact keyword(s)", f"Which names or numbers should I search for literally? I understood: {exact or 'none'}. {guide}",
                  [_option(exact or NO_KEYWORDS, "As I understood it"), *([_option(NO_KEYWORDS, "Search without them")] if exact else [])]),
        _question("semantic", "Semantic keyword(s)", f"Which kind of document should I rank by meaning? I understood: {semantic or 'none'}. {guide}",
                  [_option(semantic or NO_KEYWORDS, "As I understood it"), *([_option(NO_KEYWORDS, "Rank without them")] if semantic else [])]),
    ]


def build_form(reading: Reading, hint: ScopeHint, estimate: Estimate | None = None, *, discovery: bool = False) -> dict[str, Any]:
    """The interrupt payload: ``{"kind": "questions", "text", "questions", "reading"}``; with
    ``discovery`` also the keywords that guide the search."""
    places = reading.describe_places()
    where = places or ALL_DOCUMENTS
    cost = f" {estimate.sentence()}" if estimate else ""
    location_q = (
        f"Where should I read? I understood: {where}.{cost} "
        f"The scope holds {hint.documents} documents. {_folders_hint(hint)}"
    )
    location_options = [_option(where, "As I understood it")]
    if places:
        location_options.append(_option(ALL_DOCUMENTS, f"Every one of the {hint.documents} documents in scope"))

    condition = reading.describe_filter()
    notes = " ".join(reading.notes)
    filter_q = f"Which rows? I understood: {condition or 'every row'}." + (f" {notes}" if notes else "")
    filter_options = [_option(condition or EVERY_ROW, "As I understood it")]
    if condition:
        filter_options.append(_option(EVERY_ROW, "No condition: every row of every document"))

    columns = ", ".join(reading.columns)
    values_q = f"Which values should each row hold? I understood: {columns or 'the columns of the tables found'}."
    if reading.calculations:
        values_q += " " + reading.calculation_note()
    values_options = [_option(columns or TABLE_COLUMNS, "As I understood it")]
    table_columns = _table_columns(hint)
    if columns and table_columns and table_columns != reading.columns:
        values_options.append(_option(TABLE_COLUMNS, "The most common table header in scope: " + ", ".join(table_columns)))

    form_questions = [
        _question("location", "Location", location_q, location_options),
        _question("filter", "Filter Condition", filter_q, filter_options),
        _question("values", "Values to extract", values_q, values_options),
        *(_keyword_questions(reading) if discovery else []),
    ]
    text = "\n".join(
        [
            "Before I read any document, please confirm how I understood your request:",
            "",
            *(f"{i}. {q['header']}: {q['options'][0]['label']}" for i, q in enumerate(form_questions, 1)),
            "",
            *([estimate.sentence()] if estimate else []),
            *([SAMPLE_NOTE] if estimate and estimate.documents > SAMPLE_ABOVE else []),
            *([n for n in [_folders_hint(hint), notes] if n]),
            *([reading.calculation_note()] if reading.calculations else []),
            'Reply "yes" to read it like this, "no" to cancel, or write what to change.',
        ]
    )
    return {"kind": "questions", "text": text, "questions": form_questions, "reading": reading.model_dump(mode="json")}


def _table_columns(hint: ScopeHint) -> list[str]:
    """The most common table header in scope, without empty cells."""
    return [c for c in hint.table_headers[0] if c.strip()] if hint.table_headers else []


def _question(qid: str, header: str, question: str, options: list[dict[str, str]]) -> dict[str, Any]:
    return {
        "id": qid,
        "header": shorten(header, HEADER_CHARS),
        "question": shorten(question, QUESTION_CHARS),
        "options": options[:3],
        "allow_other": True,
    }


# -- the reply -----------------------------------------------------------------------------


async def apply_reply(reply: Any, reading: Reading, hint: ScopeHint, engine: Engine, *, discovery: bool = False) -> Reading | None:
    """The confirmed reading, or None when the user declined (the reply is classified by
    ``core.protocol.parse_reply``; this only applies it)."""
    parsed = parse_reply(reply)
    if parsed.action == "decline":
        return None
    if parsed.action == "keep":
        return reading
    if parsed.action == "answers":
        return _accounted(await _apply_answers(parsed.answers, reading, hint, engine, discovery), hint, engine)
    corrected = await engine.read_request(parsed.text, hint)
    return _accounted(merge_correction(reading, corrected), hint, engine)


def _accounted(reading: Reading, hint: ScopeHint, engine: Engine) -> Reading:
    """A corrected reading's unused words, worked out again where Kea's own reader accounts for
    them (a model's account of the first message stands until it reads the words)."""
    return with_accounting(reading, hint) if engine.name == "offline" else reading


def merge_correction(reading: Reading, correction: Reading) -> Reading:
    """A typed correction replaces each part it names and keeps the rest."""
    update: dict[str, Any] = {}
    if correction.places:
        update["places"] = correction.places
    if correction.columns and correction.columns_from == "request":
        update["columns"] = correction.columns
        update["columns_from"] = "request"
        update["subject"] = correction.subject  # what the rows are was read beside the columns named
    if correction.conditions or correction.row_condition or correction.row_terms:
        update |= {
            "conditions": correction.conditions,
            "row_condition": correction.row_condition,
            "row_terms": correction.row_terms,
        }
    if correction.document_conditions:
        update["document_conditions"] = correction.document_conditions
    if correction.calculations:
        update["calculations"] = correction.calculations
    update["notes"] = correction.notes if ("conditions" in update or "row_terms" in update) else reading.notes
    return reading.model_copy(update=update)


def changed_parts(
    answers: dict[str, Any], reading: Reading, hint: ScopeHint, *, discovery: bool = False
) -> list[tuple[str, str, str, bool]]:
    """The dialog's answers that change the reading, in form order:
    (question id, header, what was chosen or written, whether it is the offered alternative)."""
    changed = []
    for q in build_form(reading, hint, discovery=discovery)["questions"]:
        answer = answers.get(q["id"])
        if answer is None:
            continue
        kind, text = ("other", answer.text) if isinstance(answer, OtherAnswer) else ("option", answer.label)
        labels = [o["label"] for o in q["options"]]
        if (kind == "option" and (not text or text == labels[0])) or is_yes(text):
            continue  # kept as understood
        changed.append((q["id"], q["header"], text, kind == "option" and text in labels))
    return changed


async def _apply_answers(answers: dict[str, Any], reading: Reading, hint: ScopeHint, engine: Engine, discovery: bool = False) -> Reading:
    update: dict[str, Any] = {}
    for qid, _header, text, alternative in changed_parts(answers, reading, hint, discovery=discovery):
        if qid in ("exact", "semantic"):  # keywords are taken as written: a list, or none
            words = [] if alternative else [w.strip() for w in text.replace(";", ",").split(",") if w.strip()]
            update[f"{qid}_keywords"] = words
            continue
        if alternative:
            update |= {
                "location": {"places": []},
                "filter": {"conditions": [], "row_condition": None, "row_terms": [], "document_conditions": [], "notes": []},
                "values": {"columns": _table_columns(hint), "columns_from": "tables"},
            }[qid]
            continue
        update |= await _read_part(qid, text, hint, engine)
    return reading.model_copy(update=update)


async def _read_part(qid: str, text: str, hint: ScopeHint, engine: Engine) -> dict[str, Any]:
    """A free answer to one question, read as that part of the request only."""
    if qid == "location":
        places = list((await engine.read_request(f"documents in {text}", hint)).places)
        # a written path the engine did not place stays as written: the scope reports it if empty
        named = {p.value for p in places}
        for token in path_like_tokens(text):
            if token not in named and not any(token.endswith("/" + n) or n.endswith(token) for n in named):
                places.append(Place(kind="glob" if "*" in token else "folder", value=token.strip("/")))
        return {"places": places or [Place(kind="glob" if "*" in text else "folder", value=text.strip().strip("/"))]}
    if qid == "filter":
        part = await engine.read_request(f"every row where {text}", hint)
        return {
            "conditions": part.conditions,
            "row_condition": part.row_condition,
            "row_terms": part.row_terms,
            "document_conditions": part.document_conditions,
            "notes": part.notes,
        }
    part = await engine.read_request(f"Columns: {text}", hint)
    return {"columns": part.columns, "columns_from": "request"}
