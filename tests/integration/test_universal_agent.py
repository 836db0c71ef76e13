"""The Universal Agent with a scripted tool-calling model, on the real Postgres checkpointer and corpus.

The fake is only at the language-model boundary: the knowledge base, the extraction graph (on
the offline engine), storage and checkpoints are real.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

from agent_fakes import ScriptedToolModel, arguments_of, call, last_tool, last_user, say

from evals.tables import rows_from_csv
from graph.profile import Profile
from graph.result import build_agent_result, build_result, render_markdown
from graph.runs import resume_universal, run_extraction, run_universal
from tools.storage.rows import table_key

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(Path(__file__).parent)])}
AGENT = Profile(name="universal", collections=["corpus"], document_tools=True, engine="offline")
CLOSING = "The table lists Nordwerk's 2025 positions; check the unsure rows before you use it."


def _case(truth: dict[str, Any], case_id: str) -> dict[str, Any]:
    return next(c for c in truth["cases"] if c["id"] == case_id)


def _csv(svc, extraction_id: str) -> bytes:  # type: ignore[no-untyped-def]
    with svc.objects.open(table_key(extraction_id)) as handle:
        return handle.read()


def searching_then_extracting(arguments: dict[str, Any], closing: str = CLOSING) -> ScriptedToolModel:
    """Search first, then extract_records with ``arguments``, then a short closing text."""

    def script(messages, tools):  # type: ignore[no-untyped-def]
        tool = last_tool(messages)
        if tool is None:
            return call("search_documents", {"text": "Nordwerk"}, messages)
        if tool.name == "search_documents":
            return call("extract_records", arguments, messages)
        if "declined" in str(tool.content):
            return say("Understood, I read nothing.")
        return say(closing)

    return ScriptedToolModel(script=script)


async def test_a_conversation_searches_asks_and_pins_the_table(corpus, svc) -> None:  # type: ignore[no-untyped-def]
    case = _case(corpus, "nordwerk-2025-positions")
    reference = await run_extraction(case["message"], Profile(collections=["corpus"]), confirm="auto")
    model = searching_then_extracting(arguments_of(reference["reading"]))

    paused = await run_universal(case["message"], AGENT, model=model)
    (form,) = paused["__interrupt__"]
    assert form["kind"] == "questions"
    assert [q["header"] for q in form["questions"]] == ["Location", "Filter Condition", "Values to extract"]
    location, condition, values = form["questions"]
    assert "invoices" in location["options"][0]["label"] and "2025" in location["options"][0]["label"]
    assert "Nordwerk" in condition["options"][0]["label"]
    assert values["options"][0]["label"] == "Description, Quantity, Unit price"
    assert "yes" in form["text"]

    done = await resume_universal(paused["thread_id"], "yes", AGENT, model=model)
    (table,) = done["tables"]
    result = build_agent_result(done)
    block = render_markdown(build_result(table))
    assert result.markdown == f"{CLOSING}\n\n{block}"  # the model's text, then the block as stored
    assert result.csv == table["answer"]["csv"] and result.rows == table["answer"]["summary"]["rows"]
    header, rows = rows_from_csv(_csv(svc, table["extraction_id"]))
    assert len(rows) == len(case["rows"]) and all(r["values"]["Description"] in block for r in rows[:20])
    assert _csv(svc, table["extraction_id"]) == _csv(svc, reference["extraction_id"])
    assert not any(r["values"]["Description"] in result.message for r in rows)
    # the model read the summary and the first rows only
    seen = str(last_tool(model.seen[-1][0]).content)  # type: ignore[union-attr]
    assert "First 5 of" in seen and "do not repeat its rows" in seen
    tab_lines = [line for line in seen.splitlines() if "\t" in line]
    assert len(rows) > 5 and len(tab_lines) == 1 + 5  # the header and the first five rows
    assert set(model.offered(0)) == {
        "list_documents", "read_document", "search_documents", "rank_knowledge_documents", "extract_records"
    }
