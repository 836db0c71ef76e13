"""Discovery mode with a scripted tool-calling model at the model boundary; the knowledge base,
the extraction graph (offline engine), storage and checkpoints are real."""

from __future__ import annotations

from typing import Any

from agent_fakes import ScriptedToolModel, call, last_tool, say
from langchain_core.messages import HumanMessage

from evals.score import score_case
from evals.tables import rows_from_csv
from core.profile import Profile
from graph.runs import resume_extraction, run_extraction
from nodes.discovery import FALLBACK_ASK, NO_MODEL_NOTE
from tools.storage.rows import table_key

CASE = "nordwerk-2025-positions"
DISCOVERY = Profile(collections=["corpus"], discovery=True)


def _case(truth: dict[str, Any]) -> dict[str, Any]:
    return next(c for c in truth["cases"] if c["id"] == CASE)


def _rows(svc, values: dict[str, Any]) -> tuple[list[str], list[dict[str, Any]]]:  # type: ignore[no-untyped-def]
    with svc.objects.open(table_key(values["extraction_id"])) as handle:
        return rows_from_csv(handle.read())


def searching_then_selecting(parts: list[dict[str, Any]], search: dict[str, Any] | None = None) -> ScriptedToolModel:
    def script(messages, tools):  # type: ignore[no-untyped-def]
        tool = last_tool(messages)
        if tool is None:
            return call("search_documents", search or {"text": "Nordwerk"}, messages)
        if tool.name == "search_documents":
            return call("select_knowledge_documents", {"parts": parts}, messages)
        return say("Selected.")

    return ScriptedToolModel(script=script)


def _paths(kb, ids: list[int]) -> set[str]:  # type: ignore[no-untyped-def]
    return {d.path for d in kb.resolve(DISCOVERY.scope).documents if d.id in set(ids)}


async def test_discovery_selects_and_only_the_selection_is_read(corpus, svc, reads) -> None:  # type: ignore[no-untyped-def]
    case = _case(corpus)
    model = searching_then_selecting([{"path_globs": ["invoices/**"], "content": {"text": "Nordwerk"}}])
    values = await run_extraction(case["message"], DISCOVERY, confirm="auto", model=model)
    assert values["answer"]["status"] == "done", values["answer"]["message"]
    offered = model.offered(0)
    assert "select_knowledge_documents" in offered and "rank_knowledge_documents" in offered and "extract_records" not in offered
    read = _paths(svc.kb, reads)
    assert read and all("nordwerk" in p.lower() or "invoices/2025" in p for p in read)
    containing = {h.path for h in svc.kb.search(DISCOVERY.scope, "Nordwerk", limit=500).hits}
    assert read <= containing  # only the selected documents were read
    columns, rows = _rows(svc, values)
    result = score_case(case, rows, columns, "done")
    assert (result["recall"], result["precision"]) == (1.0, 1.0), result

    reads.clear()
    await run_extraction(case["message"], Profile(collections=["corpus"]), confirm="auto")
    assert len(set(reads)) > len(read)  # without discovery every document at the places is read


async def test_the_confirmed_location_replaces_the_search_path(corpus, svc, reads) -> None:  # type: ignore[no-untyped-def]
    case = _case(corpus)
    model = searching_then_selecting([{"path_globs": ["contracts/**"]}])  # a path outside the user's place
    values = await run_extraction(case["message"], DISCOVERY, confirm="auto", model=model)
    assert values["answer"]["status"] == "done", values["answer"]["message"]
    assert all(p.startswith("invoices/") and "2025" in p for p in _paths(svc.kb, reads))
    columns, rows = _rows(svc, values)
    assert score_case(case, rows, columns, "done")["recall"] == 1.0


async def test_a_loop_without_selection_asks_the_fallback_once_and_keeps_only_paths(corpus, svc, reads) -> None:  # type: ignore[no-untyped-def]
    case = _case(corpus)
    asked: list[int] = []

    def script(messages, tools):  # type: ignore[no-untyped-def]
        if isinstance(messages[-1], HumanMessage) and messages[-1].content == FALLBACK_ASK:
            asked.append(len(tools))
            parts = [{"path_globs": ["invoices/2025/**"], "content": {"text": "Nordwerk"}}]
            return call("select_knowledge_documents", {"parts": parts}, messages)
        if last_tool(messages) is None:
            return call("search_documents", {"text": "2025", "limit": 1}, messages)  # stops at its limit
        return say("I could not decide.")

    model = ScriptedToolModel(script=script)
    values = await run_extraction(case["message"], DISCOVERY, confirm="auto", model=model)
    assert asked == [1]  # one fallback call, offered only the selection
    assert values["answer"]["status"] == "done", values["answer"]["message"]
    read = _paths(svc.kb, reads)
    assert read and all(p.startswith("invoices/2025/") for p in read)
    # the content condition was dropped from the selection: documents without Nordwerk were read too
    containing = {h.path for h in svc.kb.search(DISCOVERY.scope, "Nordwerk", limit=500).hits}
    assert read - containing


async def test_offline_discovery_reads_the_whole_scope_and_says_so(corpus, svc) -> None:  # type: ignore[no-untyped-def]
    case = _case(corpus)
    values = await run_extraction(case["message"], Profile(collections=["corpus"], discovery=True, engine="offline"), confirm="auto")
    answer = values["answer"]
    assert answer["status"] == "done"
    assert NO_MODEL_NOTE in answer["message"]
    columns, rows = _rows(svc, values)
    assert score_case(case, rows, columns, "done")["recall"] == 1.0


async def test_discovery_off_never_calls_the_loop(corpus) -> None:  # type: ignore[no-untyped-def]
    model = searching_then_selecting([{"path_globs": ["contracts/**"]}])
    values = await run_extraction(_case(corpus)["message"], Profile(collections=["corpus"]), confirm="auto", model=model)
    assert values["answer"]["status"] == "done"
    assert model.seen == []


async def test_the_questions_add_keywords_that_guide_the_search(corpus) -> None:  # type: ignore[no-untyped-def]
    model = searching_then_selecting([{"path_globs": ["invoices/**"], "content": {"text": "Nordwerk"}}])
    paused = await run_extraction(_case(corpus)["message"], DISCOVERY, model=model)
    (form,) = paused["__interrupt__"]
    headers = [q["header"] for q in form["questions"]]
    assert headers == ["Location", "Filter Condition", "Values to extract", "Exact keyword(s)", "Semantic keyword(s)"]
    answers = {"status": "answered", "answers": {"exact": {"type": "other", "text": "Nordwerk GmbH"}}}
    done = await resume_extraction(paused["thread_id"], answers, DISCOVERY, model=model)
    assert done["answer"]["status"] == "done", done["answer"]["message"]
    assert "Nordwerk GmbH" in str(model.seen[0][0][-1].content)  # the keyword reached the search, as guidance
