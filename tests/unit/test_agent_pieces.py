"""The Universal Agent's pieces that need no services: tool schemas, condensing, the answer, templates."""

from __future__ import annotations

from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from core.agent_state import RESET, add_tables, merge_flags
from core.result import RunResult, TableResult, build_agent_result
from server.chat_text import render_markdown
from core.templates import NO_DOCUMENT_TOOLS, system_prompt
from nodes.agent_answer import without_retyped_tables
from nodes.agent_start import earlier_tables_as_references
from nodes.condense import CONDENSED, DIGEST_ID, condensed, state_bytes
from tools.agent.schemas import DOCUMENT_TOOLS, ExtractRecords, tool_specs
from core.reading import Condition, Place


def test_document_tools_are_offered_only_when_switched_on() -> None:
    assert tool_specs(False) == []
    names = [spec["function"]["name"] for spec in tool_specs(True)]
    assert names == list(DOCUMENT_TOOLS) == [
        "list_documents", "read_document", "search_documents", "rank_knowledge_documents", "extract_records"
    ]
    assert all(spec["function"]["parameters"]["type"] == "object" for spec in tool_specs(True))


def test_extract_records_arguments_become_a_reading() -> None:
    args = ExtractRecords.model_validate({
        "request": "Every position on Nordwerk's 2025 invoices with description and amount over 100",
        "selection": {"folders": ["/invoices/"], "years": ["2025"], "files": [" "]},
        "columns": ["Description", " Amount ", ""],
        "row_condition": "amount over 100",
        "conditions": [{"column": "Amount", "op": "gt", "value": "100", "text": "amount over 100"}],
        "document_conditions": ["Nordwerk"],
    })
    reading = args.reading()
    assert reading.columns == ["Description", "Amount"] and reading.columns_from == "request"
    assert reading.places == [Place(kind="folder", value="invoices"), Place(kind="year", value="2025")]
    assert reading.conditions == [Condition(column="Amount", op="gt", value="100", text="amount over 100")]
    assert reading.document_conditions == ["Nordwerk"] and reading.kind == "table"
    assert ExtractRecords(request="all rows").reading().columns_from == "tables"


def _round(n: int, result: str) -> list:  # type: ignore[type-arg]
    return [
        AIMessage(content="", id=f"a{n}", tool_calls=[{"name": "read_document", "args": {"path": f"d{n}"}, "id": f"c{n}"}]),
        ToolMessage(content=result, tool_call_id=f"c{n}", name="read_document", id=f"t{n}"),
    ]


def test_condensing_digests_earlier_answers_and_cuts_older_results() -> None:
    table = ToolMessage(
        content="Status: done.\n" + "row\t1\n" * 200, tool_call_id="x1", name="extract_records", id="tx",
        artifact={"kea_table": {"extraction_id": "e1", "reference": "[a table e1: 200 rows]"}},
    )
    history = [
        HumanMessage(content="first question", id="h1"),
        AIMessage(content="", id="ax", tool_calls=[{"name": "extract_records", "args": {}, "id": "x1"}]),
        table,
        AIMessage(content="The table is below.", id="a0"),
    ]
    current = [HumanMessage(content="now read two documents", id="h2"), *_round(1, "x" * 5000), *_round(2, "y" * 5000)]
    out = condensed(history + current, budget_chars=20_000)
    digest = out[0]
    assert digest.id == DIGEST_ID and "- The user: first question" in digest.content
    assert "- [a table e1: 200 rows]" in digest.content and "- You: The table is below." in digest.content
    assert [m.id for m in out[1:]] == ["h2", "a1", "t1", "a2", "t2"]  # calls and results stay in pairs
    assert str(out[3].content).endswith(CONDENSED) and len(str(out[3].content)) < 500
    assert out[5].content == "y" * 5000  # the last round is kept while it fits
    tight = condensed(history + current, budget_chars=2_000)
    assert len(str(tight[-1].content)) < 5000 and str(tight[-1].content).endswith(CONDENSED)
    again = condensed(tight + [AIMessage(content="done", id="a3"), HumanMessage(content="next", id="h3")], 20_000)
    assert again[0].id == DIGEST_ID and "first question" in again[0].content and "now read two documents" in again[0].content
    assert state_bytes({"messages": again}) < state_bytes({"messages": history + current})


def test_earlier_tables_become_references_once() -> None:
    table = ToolMessage(
        content="long", tool_call_id="x1", name="extract_records", id="tx",
        artifact={"kea_table": {"extraction_id": "e1", "reference": "[a table e1]"}},
    )
    (ref,) = earlier_tables_as_references([HumanMessage(content="q", id="h"), table])
    assert ref.id == "tx" and ref.content == "[a table e1]" and ref.tool_call_id == "x1"
    assert earlier_tables_as_references([ref]) == []


def test_the_answer_keeps_the_model_from_retyping_a_table() -> None:
    text = "Here it is:\n\n| A | B |\n|---|---|\n| 1 | 2 |\n\nCheck the unsure rows."
    assert without_retyped_tables(text) == "Here it is:\n\nCheck the unsure rows."


def test_the_agents_answer_renders_its_text_then_each_table_block() -> None:
    one = TableResult(status="done", message="Read 3 documents.", csv="file:///t1.csv", rows=2)
    two = TableResult(status="done", message="Read 1 document.", csv="file:///t2.csv", extraction_id="e2", rows=1)
    result = build_agent_result({"answer": {"status": "answered", "message": "Two tables."}}, thread="t", tables=[one, two])
    assert render_markdown(result) == "\n\n".join(["Two tables.", render_markdown(one), render_markdown(two)])
    assert result.csv == "file:///t2.csv" and result.extraction_id == "e2" and result.rows == 1
    assert RunResult.model_json_schema()["properties"]["tables"]["items"] == {"$ref": "#/$defs/TableResult"}


def test_reducers_and_templates() -> None:
    assert add_tables([{"a": 1}], [{"b": 2}]) == [{"a": 1}, {"b": 2}] and add_tables([{"a": 1}], RESET) == []
    assert merge_flags({"unasked": True}, {"sampled": True}) == {"unasked": True, "sampled": True}
    assert merge_flags({"unasked": True}, RESET) == {}
    assert NO_DOCUMENT_TOOLS in system_prompt("workplace-assistant", False)
    assert "extract_records" in system_prompt("knowledge-assistant", True, "The scope holds 3 documents.")
