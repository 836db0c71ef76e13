"""The protocol between a run and its clients: replies classified once, the form and events typed."""

from __future__ import annotations

import json

import pytest

from core.protocol import (
    OptionAnswer,
    OtherAnswer,
    ProgressEvent,
    QuestionsForm,
    parse_reply,
    progress_event,
)
from core.result import Preview, RunResult, build_result
from server.chat_text import CHAT_ACTIONS, markdown_table, render_markdown
from server.run_api import run_events_schema
from server.cli_terminal import next_steps
from nodes.questions import build_form
from core.reading import Reading, ScopeHint


@pytest.mark.parametrize("typed", ["no", "No.", "NO!", " nope ", "cancel", "Nein", "", None])
def test_typed_no_declines(typed) -> None:  # type: ignore[no-untyped-def]
    assert parse_reply(typed).action == "decline"


@pytest.mark.parametrize("typed", ["yes", "Yes.", "OK!", "go ahead", "  Go   ahead ", "ja"])
def test_typed_yes_keeps(typed) -> None:  # type: ignore[no-untyped-def]
    assert parse_reply(typed).action == "keep"


def test_anything_else_typed_is_a_correction() -> None:
    reply = parse_reply("only the 2024 invoices")
    assert (reply.action, reply.text) == ("correct", "only the 2024 invoices")
    assert parse_reply("No, the 2024 ones").action == "correct"  # more than a no


def test_dialog_answers_are_typed_by_question_id() -> None:
    raw = {
        "status": "answered",
        "answers": {
            "location": {"type": "other", "text": "invoices/2024"},
            "filter": {"type": "option", "option_index": 0, "label": "Every row", "description": "x"},
            "values": "Description",  # a bare label
        },
    }
    for shape in (raw, json.dumps(raw)):
        reply = parse_reply(shape)
        assert reply.action == "answers"
        assert reply.answers["location"] == OtherAnswer(text="invoices/2024")
        assert isinstance(reply.answers["filter"], OptionAnswer) and reply.answers["filter"].label == "Every row"
        assert reply.answers["values"].label == "Description"  # type: ignore[union-attr]


@pytest.mark.parametrize("status", ["cancelled", "timeout", "error"])
def test_a_dialog_that_was_not_answered_declines(status) -> None:  # type: ignore[no-untyped-def]
    assert parse_reply({"status": status, "answers": {"location": {"type": "other", "text": "x"}}}).action == "decline"


def test_the_form_the_node_builds_is_the_typed_form() -> None:
    reading = Reading(request="Description and amount", columns=["Description", "Amount"])
    form = QuestionsForm.model_validate(build_form(reading, ScopeHint(documents=3)))
    assert [q.id for q in form.questions] == ["location", "filter", "values"]
    assert form.kind == "questions" and "Reply \"yes\"" in form.text
    assert form.questions[2].options[0].label == "Description, Amount"


def test_progress_events_are_typed_and_say_a_line() -> None:
    event = progress_event({"kind": "progress", "event": "document_done", "file": "a.pdf", "rows": 3, "unsure_rows": 1,
                            "first_rows": [["x"]]})
    assert isinstance(event, ProgressEvent) and event.line() == "Read a.pdf: 3 rows, 1 unsure."
    assert progress_event({"kind": "questions"}) is None


def test_the_run_events_schema_names_every_event() -> None:
    schema = run_events_schema()
    assert set(schema["events"]) == {"progress", "questions", "result", "error"}
    questions = schema["events"]["questions"]
    assert {"thread", "interrupt_id", "form"} <= set(questions["properties"])
    assert "QuestionsForm" in questions["$defs"] and "Option" in questions["$defs"]
    assert {"status", "message", "csv", "preview", "thread", "markdown"} <= set(schema["events"]["result"]["properties"])
    json.dumps(schema)  # publishable as it is


def test_the_result_is_built_from_the_final_state_and_keeps_the_cli_contract() -> None:
    values = {
        "thread_id": "t-1",
        "extraction_id": "e1",
        "reading": {"columns": ["A"], "row_condition": None, "places": [{"kind": "folder", "value": "x"}], "calculations": []},
        "answer": {
            "status": "done", "message": "Read 2 of 2 documents.", "csv": "file:///s/table.csv",
            "preview_header": ["File", "A", "Match", "Page"], "preview": [["x/a.txt", "1|2", "yes", "1"]],
            "summary": {"documents_in_scope": 2, "extracted": 2, "rows": 1, "unsure_rows": 0, "failed": [], "no_rows_from": ["x/b.txt"]},
            "actions": [{"kind": "calculate", "thread": "t-1", "extraction_id": "e1"}],
        },
    }
    result = build_result(values)
    assert result.contract() == {
        "status": "done", "extraction_id": "e1", "csv": "file:///s/table.csv", "columns": ["A"], "row_condition": None,
        "places": ["x"], "calculations": [],
        "documents": {"in_scope": 2, "extracted": 2, "failed": [], "no_rows_from": ["x/b.txt"], "no_rows": [], "sample": [],
                      "not_read": [], "not_read_count": 0},
        "rows": 1, "unsure_rows": 0, "message": "Read 2 of 2 documents.", "thread": "t-1", "xlsx": None, "review": None,
        "estimated_minutes": None, "breakdown": None,
        "actions": [{"kind": "calculate", "thread": "t-1", "extraction_id": "e1"}],
    }
    linked = result.with_links({"table.csv": "http://127.0.0.1:1/files/e1/table.csv?sig=x"})
    assert linked.message == result.message and linked.csv.startswith("http://")  # type: ignore[union-attr]
    text = render_markdown(linked)
    assert "| x/a.txt | 1\\|2 | yes | 1 |" in text
    assert "[table.csv](http://127.0.0.1:1/files/e1/table.csv?sig=x) (the links are valid for 24 hours" in text
    # what to do next, in a chat's words; the CLI names its command for the same action
    assert text.rstrip().endswith(CHAT_ACTIONS["calculate"]) and "kea sql" not in text
    assert any("kea sql --thread t-1 --load e1" in line for line in next_steps(result))
    assert build_result({}).status == "failed"  # a run without an answer still answers


def test_markdown_table_escapes_pipes_and_line_breaks() -> None:
    table = markdown_table(Preview(header=["a|b"], rows=[["x\ny|z"]]))
    assert table.splitlines() == ["| a\\|b |", "|---|", "| x y\\|z |"]
    assert RunResult(status="declined", message="Declined.").contract()["thread"] is None
