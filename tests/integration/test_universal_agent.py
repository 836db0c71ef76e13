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

import pytest
from agent_fakes import ScriptedToolModel, arguments_of, call, last_tool, last_user, say

from evals.tables import rows_from_csv
from core.profile import Profile
from core.result import build_agent_result, build_result
from server.chat_text import render_markdown
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
    assert render_markdown(result) == f"{CLOSING}\n\n{block}"  # the model's text, then the block as stored
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


def extracting(arguments: dict[str, Any], closing: str = "Here is the table.") -> ScriptedToolModel:
    """extract_records with ``arguments`` at once; after its result (whatever it says) a closing text."""

    def script(messages, tools):  # type: ignore[no-untyped-def]
        tool = last_tool(messages)
        if tool is None:
            return call("extract_records", arguments, messages)
        return say(closing)

    return ScriptedToolModel(script=script)


def _explicit_done() -> list[str]:
    import tempfile

    from corpora.first import generate

    with tempfile.TemporaryDirectory() as folder:
        cases = generate(Path(folder))["cases"]
    return [c["id"] for c in cases if "explicit" in c["tags"] and c["status"] == "done"]


@pytest.mark.parametrize("case_id", _explicit_done())
async def test_the_same_request_gives_a_byte_identical_csv_through_both_graphs(case_id, corpus, svc) -> None:  # type: ignore[no-untyped-def]
    case = _case(corpus, case_id)
    reference = await run_extraction(case["message"], Profile(collections=["corpus"]), confirm="auto")
    assert reference["answer"]["status"] == "done"
    model = extracting(arguments_of(reference["reading"]))
    done = await run_universal(case["message"], AGENT, model=model, confirm="auto")
    (table,) = done["tables"]
    def same(reading: dict[str, Any]) -> dict[str, Any]:  # the order of the places reads the same documents
        return {**{k: v for k, v in reading.items() if k != "notes"}, "places": sorted(map(str, reading["places"]))}

    assert same(table["reading"]) == same(reference["reading"])
    assert _csv(svc, table["extraction_id"]) == _csv(svc, reference["extraction_id"])


async def test_no_reaches_the_model_as_the_user_declined(corpus, svc) -> None:  # type: ignore[no-untyped-def]
    model = searching_then_extracting(arguments_of(await _read(corpus, "sla-times")))
    done = await run_universal("Priority and times from the SLAs", AGENT, model=model, answer=lambda form: "no")
    assert done["tables"] == [] and done["answer"]["message"] == "Understood, I read nothing."
    declined = str(last_tool(model.seen[-1][0]).content)  # type: ignore[union-attr]
    assert declined.startswith("The user declined")


async def _read(truth: dict[str, Any], case_id: str) -> dict[str, Any]:
    """The reading the document-tables graph confirms for a case (as its model would call the tool)."""
    values = await run_extraction(_case(truth, case_id)["message"], Profile(collections=["corpus"]), answer=lambda form: "no")
    return values["reading"]


async def test_a_correction_goes_back_to_the_model_and_its_next_call_runs_unasked(corpus, svc) -> None:  # type: ignore[no-untyped-def]
    reading = await _read(corpus, "sla-times")
    first = arguments_of(reading) | {"columns": ["Priority"]}
    corrected = arguments_of(reading)

    def script(messages, tools):  # type: ignore[no-untyped-def]
        tool = last_tool(messages)
        if tool is None:
            return call("extract_records", first, messages)
        if tool.name == "extract_records" and "corrected the request" in str(tool.content):
            return call("extract_records", corrected, messages)
        return say("The SLA times are in the table below.")

    model = ScriptedToolModel(script=script)
    forms: list[dict[str, Any]] = []

    def answer(form):  # type: ignore[no-untyped-def]
        forms.append(form)
        return "also the response time and the resolution time"

    done = await run_universal("Priority from the SLAs", AGENT, model=model, answer=answer)
    assert len(forms) == 1  # the corrected call ran without a second form
    back = [str(m.content) for m in model.seen[1][0] if m.type == "tool"]
    assert "“also the response time and the resolution time”" in back[-1] and "Nothing was read" in back[-1]
    (table,) = done["tables"]
    assert table["answer"]["status"] == "done" and table["reading"]["columns"] == reading["columns"]
    assert table["answer"]["summary"]["rows"] == len(_case(corpus, "sla-times")["rows"])


async def test_dialog_answers_that_change_a_part_go_back_to_the_model(corpus) -> None:  # type: ignore[no-untyped-def]
    reading = await _read(corpus, "sla-times")
    model = extracting(arguments_of(reading))
    reply = {"status": "answered", "answers": {"location": {"type": "other", "text": "contracts/slas"}}}
    done = await run_universal("Priority and times from the SLAs", AGENT, model=model, answer=lambda form: reply)
    back = str(last_tool(model.seen[-1][0]).content)  # type: ignore[union-attr]
    assert "Location: “contracts/slas”" in back and done["tables"] == []
    kept = {"status": "answered", "answers": {"location": {"type": "option", "label": "keep"}}}
    kept["answers"]["location"]["label"] = ""  # an option without a label keeps the part as understood
    done = await run_universal("Priority and times from the SLAs", AGENT, model=extracting(arguments_of(reading)), answer=lambda form: kept)
    assert len(done["tables"]) == 1


async def test_a_location_naming_nothing_goes_back_to_the_model_unasked(corpus) -> None:  # type: ignore[no-untyped-def]
    reading = await _read(corpus, "sla-times")
    wrong = arguments_of(reading) | {"selection": {"folders": ["agreements/2031"]}}

    def script(messages, tools):  # type: ignore[no-untyped-def]
        tool = last_tool(messages)
        if tool is None:
            return call("extract_records", wrong, messages)
        if "No document in scope is at" in str(tool.content):
            return call("extract_records", arguments_of(reading), messages)
        return say("Done.")

    forms: list[Any] = []
    done = await run_universal("SLA times", AGENT, model=ScriptedToolModel(script=script), answer=lambda f: forms.append(f) or "yes")
    assert forms == [] and len(done["tables"]) == 1  # never asked: the second call ran unasked


async def test_the_extractions_progress_reaches_the_agents_stream(corpus) -> None:  # type: ignore[no-untyped-def]
    reading = await _read(corpus, "sla-times")
    events: list[dict[str, Any]] = []
    await run_universal("SLA times", AGENT, model=extracting(arguments_of(reading)), confirm="auto", on_progress=events.append)
    kinds = [e.get("event") for e in events]
    assert "scope_resolved" in kinds and kinds.count("document_done") == len({r["file"] for r in _case(corpus, "sla-times")["rows"]})


async def test_a_profile_without_document_tools_offers_none(corpus) -> None:  # type: ignore[no-untyped-def]
    def script(messages, tools):  # type: ignore[no-untyped-def]
        tool = last_tool(messages)
        if tool is None:
            return call("list_documents", {}, messages)  # a model that calls a tool it was not offered
        return say("I can't see documents here.")

    model = ScriptedToolModel(script=script)
    workplace = Profile(name="workplace-assistant", template="workplace-assistant", collections=["corpus"])
    done = await run_universal("Which invoices do we have?", workplace, model=model)
    assert model.offered(0) == [] and model.offered(1) == []
    assert "kea-document-tables" in str(model.seen[0][0][0].content)  # the instructions name it
    refused = str(last_tool(model.seen[1][0]).content)  # type: ignore[union-attr]
    assert refused.startswith("There is no tool named list_documents") and "invoices/" not in refused
    assert done["answer"]["message"] == "I can't see documents here."


async def test_the_condenser_fires_on_an_oversized_state_and_the_run_continues(corpus) -> None:  # type: ignore[no-untyped-def]
    files = [d for d in corpus["documents"] if d.startswith("contracts/")][:6]

    def script(messages, tools):  # type: ignore[no-untyped-def]
        read = sum(1 for m in messages if m.type == "tool")
        if read < len(files):
            return call("read_document", {"path": files[read]}, messages)
        return say(f"I read {read} contracts.")

    model = ScriptedToolModel(script=script)
    small = Profile(name="universal", collections=["corpus"], document_tools=True, condense_above_bytes=6_000)
    done = await run_universal("Read the contracts", small, model=model)
    assert done["answer"]["message"] == f"I read {len(files)} contracts."  # the run went on to its answer
    last_prompt = model.seen[-1][0]
    assert any("condensed to keep the conversation small" in str(m.content) for m in last_prompt)
    assert [m.type for m in last_prompt].count("tool") == len(files)  # calls and results kept in pairs

    from checkpoints.saver import postgres_checkpointer
    from graph.universal import build_universal_agent

    async with postgres_checkpointer() as saver:
        state = await build_universal_agent(saver, model=model).aget_state({"configurable": {"thread_id": done["thread_id"]}})
    assert state.values["condensed"] >= 1
    whole = sum(len(str(m.content)) for m in last_prompt if m.type == "tool")
    read = sum(len(svc_text) for svc_text in _texts(files))
    assert whole < read / 2  # the results the model reads now are a fraction of the documents


def _texts(paths: list[str]) -> list[str]:
    from tools.services import services

    kb = services().kb
    scope = Profile(collections=["corpus"]).scope
    return ["".join(kb.read_document(scope, kb.find_by_path_suffix(scope, p)[0].id).pages) for p in paths]


async def test_earlier_tables_ride_back_as_one_line(corpus) -> None:  # type: ignore[no-untyped-def]
    reading = await _read(corpus, "sla-times")

    def script(messages, tools):  # type: ignore[no-untyped-def]
        tool = last_tool(messages)
        if "thanks" in last_user(messages):
            return say("You're welcome.")
        if tool is None:
            return call("extract_records", arguments_of(reading), messages)
        return say("Here it is.")

    model = ScriptedToolModel(script=script)
    first = await run_universal("SLA times", AGENT, model=model, confirm="auto")
    second = await run_universal("thanks", AGENT, model=model, thread_id=first["thread_id"])
    assert second["tables"] == [] and render_markdown(build_agent_result(second)) == "You're welcome."
    (earlier,) = [m for m in model.seen[-1][0] if m.type == "tool"]
    assert str(earlier.content).startswith("[a table ") and "\n" not in str(earlier.content)
    assert "shown to the user in an earlier answer" in str(earlier.content)


async def test_without_a_model_the_agent_says_so_in_one_sentence(corpus) -> None:  # type: ignore[no-untyped-def]
    done = await run_universal("Every SLA's response time", AGENT)
    message = done["answer"]["message"]
    assert "kea-document-tables" in message and message.count(". ") == 0 and message.endswith(".")
    assert done["tables"] == []


SCRIPT = textwrap.dedent(
    """
    import asyncio, json, sys
    from agent_fakes import ScriptedToolModel, call, last_tool, say
    from core.profile import Profile
    from graph.runs import resume_universal, run_universal

    ARGS = json.loads(sys.argv[3])

    def script(messages, tools):
        return call("extract_records", ARGS, messages) if last_tool(messages) is None else say("Done.")

    PROFILE = Profile(name="universal", collections=["corpus"], document_tools=True, engine="offline")

    async def main():
        model = ScriptedToolModel(script=script)
        if sys.argv[1] == "start":
            out = await run_universal(sys.argv[2], PROFILE, model=model)
            print(json.dumps({"thread_id": out["thread_id"], "asked": len(out.get("__interrupt__", []))}))
        else:
            out = await resume_universal(sys.argv[2], "yes", PROFILE, model=model)
            table = out["tables"][0]
            print(json.dumps({"status": table["answer"]["status"], "rows": table["answer"]["summary"]["rows"],
                              "message": out["answer"]["message"]}))

    asyncio.run(main())
    """
)


async def test_the_form_pauses_in_one_process_and_resumes_in_another(corpus, tmp_path) -> None:  # type: ignore[no-untyped-def]
    reading = await _read(corpus, "sla-times")
    script = tmp_path / "agent_turn.py"
    script.write_text(SCRIPT)
    args = json.dumps(arguments_of(reading))
    first = subprocess.run([sys.executable, str(script), "start", "SLA times", args], capture_output=True, text=True, cwd=ROOT, env=ENV)
    assert first.returncode == 0, first.stderr
    started = json.loads(first.stdout.strip().splitlines()[-1])
    assert started["asked"] == 1
    second = subprocess.run(
        [sys.executable, str(script), "resume", started["thread_id"], args], capture_output=True, text=True, cwd=ROOT, env=ENV
    )
    assert second.returncode == 0, second.stderr
    resumed = json.loads(second.stdout.strip().splitlines()[-1])
    assert resumed == {"status": "done", "rows": len(_case(corpus, "sla-times")["rows"]), "message": "Done."}


async def test_a_selection_over_100_documents_takes_the_sample_path_and_a_yes_reads_the_rest(corpus, svc) -> None:  # type: ignore[no-untyped-def]
    case = _case(corpus, "tickets-p1")
    reading = await _read(corpus, "tickets-p1")

    def script(messages, tools):  # type: ignore[no-untyped-def]
        tool = last_tool(messages)
        if last_user(messages) == "yes":
            if tool is None:
                return call("extract_records", {"request": "yes", "continue_sample": True}, messages)
            return say("All tickets are read now.")
        if tool is None:
            return call("extract_records", arguments_of(reading), messages)
        if "This is a sample" in str(tool.content):
            return call("extract_records", {"request": "all of them", "continue_sample": True}, messages)
        return say("A sample first; reply yes to read the rest.")

    model = ScriptedToolModel(script=script)
    sampled = await run_universal(case["message"], AGENT, model=model, answer=lambda form: "yes")
    (sample,) = sampled["tables"]
    assert sample["answer"]["status"] == "sample" and len(sample["answer"]["summary"]["sample"]) == 5
    not_yet = str(last_tool(model.seen[-1][0]).content)  # type: ignore[union-attr]
    assert not_yet.startswith("The user has not confirmed the sample yet")  # the model cannot say yes for the user
    assert "Reply \"yes\"" in render_markdown(build_agent_result(sampled))

    rest = await run_universal("yes", AGENT, model=model, thread_id=sampled["thread_id"], answer=lambda form: pytest.fail("asked"))
    (table,) = rest["tables"]
    assert table["answer"]["status"] == "done" and rest["answer"]["message"] == "All tickets are read now."
    _, rows = rows_from_csv(_csv(svc, table["extraction_id"]))
    assert len(rows) == len(case["rows"])


async def test_one_extraction_per_model_turn(corpus) -> None:  # type: ignore[no-untyped-def]
    reading = await _read(corpus, "sla-times")

    def script(messages, tools):  # type: ignore[no-untyped-def]
        if last_tool(messages) is None:
            twice = call("extract_records", arguments_of(reading), messages)
            second = {**twice.tool_calls[0], "id": "call_second"}
            return twice.model_copy(update={"tool_calls": [twice.tool_calls[0], second]})
        return say("One table.")

    model = ScriptedToolModel(script=script)
    done = await run_universal("SLA times, twice", AGENT, model=model, confirm="auto")
    assert len(done["tables"]) == 1
    results = [str(m.content) for m in model.seen[-1][0] if m.type == "tool"]
    assert len(results) == 2 and results[1].startswith("One table at a time")


async def test_a_failing_model_gives_a_sentence_and_is_logged(corpus, caplog) -> None:  # type: ignore[no-untyped-def]
    def script(messages, tools):  # type: ignore[no-untyped-def]
        raise ConnectionError("the endpoint went away")

    done = await run_universal("Hello", AGENT, model=ScriptedToolModel(script=script))
    assert done["answer"] == {
        "status": "failed", "message": "The language model could not answer (ConnectionError); try again in a moment."
    }
    assert any("The model of profile universal failed" in r.getMessage() for r in caplog.records)


async def test_the_data_analyst_totals_an_extracted_table_with_sql_not_in_its_head(corpus, svc) -> None:  # type: ignore[no-untyped-def]
    import re

    case = _case(corpus, "nordwerk-2025-positions")
    reference = await run_extraction(case["message"], Profile(collections=["corpus"]), confirm="auto")
    truth = sum(int(r["values"]["Quantity"]) for r in case["rows"])  # computed here, from the generator's truth

    def script(messages, tools):  # type: ignore[no-untyped-def]
        tool = last_tool(messages)
        if tool is None:
            return call("extract_records", arguments_of(reference["reading"]), messages)
        if tool.name == "extract_records":
            return call("load_table", {"extraction_id": tool.artifact["kea_table"]["extraction_id"]}, messages)
        if tool.name == "load_table":
            table = re.search(r"as table (\w+)", str(tool.content))[1]  # type: ignore[index]
            column = next(c for c in re.search(r"columns ([^;]+);", str(tool.content))[1].split(", ") if "quantity" in c)  # type: ignore[index]
            return call("run_sql", {"query": f"SELECT sum(kea_number({column})) AS total FROM {table}"}, messages)
        total = str(tool.content).splitlines()[2]
        return say(f"The positions add up to {total} units.")

    model = ScriptedToolModel(script=script)
    analyst = Profile(name="data-analyst", collections=["corpus"], document_tools=True, workspace_tools=True,
                      template="data-analyst", engine="offline")
    done = await run_universal(case["message"], analyst, model=model, confirm="auto")
    assert build_agent_result(done).message == f"The positions add up to {truth} units."
    assert {"load_table", "run_sql", "list_tables"} <= set(model.offered(0))
    from tools.agent.schemas import tool_specs

    assert not {"load_table", "run_sql", "list_tables"} & {s["function"]["name"] for s in tool_specs(True)}  # not without the setting
