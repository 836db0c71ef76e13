"""The extraction graph end to end over the generated corpus, on the real Postgres checkpointer."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from evals.score import score_case
from evals.tables import rows_from_csv
from core.profile import Profile
from graph.runs import resume_extraction, run_extraction
from tools.engines import ExtractionError, register_engine
from tools.engines.offline import OfflineEngine
from tools.storage.rows import extraction_prefix, table_key

CORPUS = Profile(collections=["corpus"])
ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}  # subprocesses import the project as installed or not


def _case(truth: dict[str, Any], case_id: str) -> dict[str, Any]:
    return next(c for c in truth["cases"] if c["id"] == case_id)


def _table(svc, values: dict[str, Any]) -> tuple[list[str], list[dict[str, Any]]]:  # type: ignore[no-untyped-def]
    with svc.objects.open(table_key(values["extraction_id"])) as handle:
        return rows_from_csv(handle.read())


def _explicit_ids() -> list[str]:
    import tempfile

    from corpora.first import generate

    with tempfile.TemporaryDirectory() as folder:
        return [c["id"] for c in generate(Path(folder))["cases"] if "explicit" in c["tags"]]


@pytest.mark.parametrize("case_id", _explicit_ids())
async def test_explicit_cases_give_exactly_the_true_rows(case_id, corpus, svc) -> None:  # type: ignore[no-untyped-def]
    case = _case(corpus, case_id)
    values = await run_extraction(case["message"], CORPUS, confirm="auto")
    answer = values["answer"]
    assert answer["status"] == case["status"], answer["message"]
    if case["status"] != "done":
        return
    columns, rows = _table(svc, values)
    result = score_case(case, rows, columns, answer["status"])
    assert (result["recall"], result["precision"]) == (1.0, 1.0), result
    assert answer["summary"]["rows"] == len(rows)


async def test_a_file_named_by_path_gives_only_its_rows(corpus, svc) -> None:  # type: ignore[no-untyped-def]
    values = await run_extraction(_case(corpus, "brightline-file")["message"], CORPUS, confirm="auto")
    _, rows = _table(svc, values)
    assert rows and {r["file"] for r in rows} == {"invoices/2024/brightline-2024-03.pdf"}
    assert values["answer"]["summary"]["documents_in_scope"] == 1


async def test_a_year_without_documents_answers_with_the_folders(corpus, svc) -> None:  # type: ignore[no-untyped-def]
    values = await run_extraction("Description and amount from the 2023 invoices", CORPUS, confirm="auto")
    answer = values["answer"]
    assert answer["status"] == "no_documents"
    assert "2023" in answer["message"] and "invoices (" in answer["message"] and "tickets" in answer["message"]
    assert not svc.objects.exists(table_key(values["extraction_id"]))


async def test_a_calculation_is_named_and_never_computed(corpus, svc) -> None:  # type: ignore[no-untyped-def]
    values = await run_extraction("The total amount of all Brightline invoices", CORPUS, confirm="auto")
    answer = values["answer"]
    assert values["reading"]["calculations"] and "Amount" in values["reading"]["columns"]
    assert "I don't calculate" in answer["message"]
    _, rows = _table(svc, values)
    amounts = [float(r["values"]["Amount"].replace(",", "")) for r in rows]
    total = sum(amounts)
    for shown in (f"{total:,.2f}", f"{total:.2f}", f"{total:,.0f}"):
        assert shown not in answer["message"]


async def test_questions_are_asked_before_anything_is_read(corpus, svc, reads) -> None:  # type: ignore[no-untyped-def]
    message = _case(corpus, "nordwerk-2025-positions")["message"]
    paused = await run_extraction(message, CORPUS)  # nobody answers: the run waits at its questions
    (form,) = paused["__interrupt__"]
    assert form["kind"] == "questions"
    assert [q["header"] for q in form["questions"]] == ["Location", "Filter Condition", "Values to extract"]
    location, condition, columns = form["questions"]
    assert "invoices" in location["options"][0]["label"] and "2025" in location["options"][0]["label"]
    assert "invoices (" in location["question"]  # the largest folders as a hint
    assert "That is 11 documents (" in location["question"] and "without a language model" in location["question"]
    assert "Nordwerk" in condition["options"][0]["label"]
    assert columns["options"][0]["label"] == "Description, Quantity, Unit price"
    for q in form["questions"]:
        assert len(q["question"]) <= 500 and 1 <= len(q["options"]) <= 3 and q["allow_other"]
        assert all(len(o["label"]) <= 60 for o in q["options"])
    assert not list(svc.objects.keys(extraction_prefix(paused["extraction_id"])))
    assert reads == []

    done = await resume_extraction(paused["thread_id"], "yes", CORPUS)
    assert done["answer"]["status"] == "done" and done["answer"]["summary"]["rows"] > 0


@pytest.mark.parametrize(
    "reply", ["no", "", None, {"status": "cancelled", "answers": {}}, {"status": "timeout"}, {"error": "disconnected", "status": "error"}]
)
async def test_anything_but_a_confirmation_declines_without_reading(reply, corpus, svc, reads) -> None:  # type: ignore[no-untyped-def]
    values = await run_extraction("Every position on Brightline's invoices", CORPUS, answer=lambda form: reply)
    assert values["answer"]["status"] == "declined"
    assert reads == []
    assert not list(svc.objects.keys(extraction_prefix(values["extraction_id"])))


async def test_auto_confirm_holds_for_one_message_only(corpus, reads) -> None:  # type: ignore[no-untyped-def]
    from checkpoints.saver import postgres_checkpointer
    from graph.extraction import build_extraction_graph

    config = {"configurable": {"thread_id": "auto-once"}}
    async with postgres_checkpointer() as saver:
        graph = build_extraction_graph(saver)
        first = await graph.ainvoke({"message": _case(corpus, "sla-times")["message"], "confirm": "auto"}, config, context=CORPUS)
        assert first["answer"]["status"] == "done"
        read_before = len(reads)
        second = await graph.ainvoke({"message": "Every position on Brightline's invoices"}, config, context=CORPUS)
    assert "__interrupt__" in second  # the next message on the thread is asked back again
    assert len(reads) == read_before


async def test_a_typed_correction_is_read_once_more_without_a_second_form(corpus, svc) -> None:  # type: ignore[no-untyped-def]
    asked: list[dict[str, Any]] = []

    def answer(form: dict[str, Any]) -> str:
        asked.append(form)
        return "only the 2024 invoices"

    values = await run_extraction(
        "Every position on Brightline's invoices with description and amount", CORPUS, answer=answer
    )
    assert len(asked) == 1
    assert {p["value"] for p in values["reading"]["places"]} == {"invoices", "2024"}
    _, rows = _table(svc, values)
    assert rows and all("/2024/" in r["file"] and "brightline" in r["file"] for r in rows)


async def test_dialog_answers_choose_alternatives_and_free_text(corpus, svc) -> None:  # type: ignore[no-untyped-def]
    def answer(form: dict[str, Any]) -> dict[str, Any]:
        location, condition, values = form["questions"]
        return {
            "status": "answered",
            "answers": {
                "location": {"type": "other", "text": "invoices/2025"},
                "filter": {"type": "option", "option_index": 0, "label": condition["options"][0]["label"]},
                "values": {"type": "other", "text": "description and amount"},
            },
        }

    values = await run_extraction("Every position on Brightline's invoices with description", CORPUS, answer=answer)
    assert values["reading"]["columns"] == ["Description", "Amount"]
    _, rows = _table(svc, values)
    assert rows and all(r["file"].startswith("invoices/2025/brightline") for r in rows)


async def test_a_greeting_gets_an_answer_and_no_form(corpus) -> None:  # type: ignore[no-untyped-def]
    values = await run_extraction("Hello!", CORPUS)
    assert "__interrupt__" not in values
    assert values["answer"]["status"] == "answered" and "table" in values["answer"]["message"]


class _FailingOn(OfflineEngine):
    """The offline engine, except that one document fails (a model error, say)."""

    name = "failing-on-sla"

    async def extract_document(self, document, reading):  # type: ignore[no-untyped-def]
        if document.path.startswith("slas/") and document.path.endswith(".pdf"):
            raise ExtractionError("the model returned an error for this document")
        return await super().extract_document(document, reading)


class _BuggyOn(OfflineEngine):
    """The offline engine with a bug that one document trips (not a bad document: Kea's fault)."""

    name = "buggy-on-sla"

    async def extract_document(self, document, reading):  # type: ignore[no-untyped-def]
        if document.path.startswith("slas/") and document.path.endswith(".pdf"):
            return {}["no such key"]
        return await super().extract_document(document, reading)


async def test_an_unexpected_fault_is_logged_with_its_traceback_and_said_in_a_sentence(corpus, svc, caplog) -> None:  # type: ignore[no-untyped-def]
    register_engine(_BuggyOn.name, _BuggyOn)
    with caplog.at_level("ERROR", logger="nodes.extract_document"):
        values = await run_extraction(_case(corpus, "sla-times")["message"], Profile(collections=["corpus"], engine=_BuggyOn.name), confirm="auto")
    (failure,) = values["answer"]["summary"]["failed"]
    assert failure["error"] == "Kea failed on it unexpectedly (KeyError); the details are in Kea's log"
    (logged,) = [r for r in caplog.records if r.name == "nodes.extract_document"]
    assert failure["file"] in logged.getMessage() and logged.exc_info and logged.exc_info[0] is KeyError
    assert values["answer"]["summary"]["extracted"] == 2  # the other documents finished


async def test_a_failing_document_is_listed_while_the_others_finish(corpus, svc) -> None:  # type: ignore[no-untyped-def]
    register_engine(_FailingOn.name, _FailingOn)
    profile = Profile(collections=["corpus"], engine=_FailingOn.name)
    values = await run_extraction(_case(corpus, "sla-times")["message"], profile, confirm="auto")
    answer = values["answer"]
    assert answer["status"] == "done"
    (failure,) = answer["summary"]["failed"]
    assert failure["file"].startswith("slas/") and "model returned an error" in failure["error"]
    assert "Failed (1)" in answer["message"]
    _, rows = _table(svc, values)
    assert {r["file"] for r in rows} and failure["file"] not in {r["file"] for r in rows}


RESUME_SCRIPT = textwrap.dedent(
    """
    import asyncio, json, sys
    from core.profile import Profile
    from graph.runs import resume_extraction, run_extraction
    profile = Profile(collections=["corpus"])
    if sys.argv[1] == "start":
        values = asyncio.run(run_extraction(sys.argv[2], profile))
        print(json.dumps({"thread_id": values["thread_id"], "asked": len(values.get("__interrupt__", []))}))
    else:
        values = asyncio.run(resume_extraction(sys.argv[2], "yes", profile))
        print(json.dumps(values["answer"]["summary"]))
    """
)


def test_interrupt_and_resume_in_two_processes(corpus, tmp_path) -> None:  # type: ignore[no-untyped-def]
    script = tmp_path / "resume.py"
    script.write_text(RESUME_SCRIPT, encoding="utf-8")
    message = _case(corpus, "sla-times")["message"]
    first = subprocess.run([sys.executable, str(script), "start", message], capture_output=True, text=True, cwd=ROOT, env=ENV)
    assert first.returncode == 0, first.stderr
    started = json.loads(first.stdout.strip().splitlines()[-1])
    assert started["asked"] == 1
    second = subprocess.run(
        [sys.executable, str(script), "resume", started["thread_id"]], capture_output=True, text=True, cwd=ROOT, env=ENV
    )
    assert second.returncode == 0, second.stderr
    summary = json.loads(second.stdout.strip().splitlines()[-1])
    assert summary["rows"] == len(_case(corpus, "sla-times")["rows"])


def test_cli_extract_yes_json_honours_the_contract(corpus, tmp_path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "table.csv"
    done = subprocess.run(
        [sys.executable, "-m", "server.cli", "extract", _case(corpus, "sla-times")["message"],
         "--collection", "corpus", "--yes", "--json", "--out", str(out)],
        capture_output=True, text=True, cwd=ROOT, env=ENV,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)  # exactly one JSON object on stdout
    assert set(result) == {"status", "extraction_id", "csv", "columns", "row_condition", "places", "calculations",
                           "documents", "rows", "unsure_rows", "message", "thread", "estimated_minutes", "breakdown",
                           "xlsx", "review", "actions"}
    assert result["status"] == "done" and result["columns"] == ["Priority", "Response time", "Resolution time"]
    assert Path(result["review"].removeprefix("file://")).is_file() and result["xlsx"].endswith("/table.xlsx")
    assert done.stderr.startswith(f"thread: {result['thread']}\n")  # named first, so a script can continue or forget it
    assert set(result["documents"]) == {
        "in_scope", "extracted", "failed", "no_rows_from", "no_rows", "sample", "not_read", "not_read_count"
    }
    assert result["documents"]["sample"] == [] and result["estimated_minutes"] is None  # 3 documents: no sample
    assert result["rows"] == len(_case(corpus, "sla-times")["rows"])
    assert out.read_bytes().startswith(b"\xef\xbb\xbfFile,Priority,Response time,Resolution time,Match,Page,Evidence")

    none = subprocess.run(
        [sys.executable, "-m", "server.cli", "extract", "Description and amount from the 2023 invoices",
         "--collection", "corpus", "--yes", "--json"],
        capture_output=True, text=True, cwd=ROOT, env=ENV,
    )
    assert none.returncode == 0 and json.loads(none.stdout)["status"] == "no_documents"


class _Slow(OfflineEngine):
    name = "slow-offline"

    async def extract_document(self, document, reading):  # type: ignore[no-untyped-def]
        await asyncio.sleep(0.35)
        return await super().extract_document(document, reading)


async def test_progress_names_long_documents_finished_documents_and_slow_ones(corpus, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    register_engine(_Slow.name, _Slow)
    monkeypatch.setenv("KEA_STILL_READING_SECONDS", "0.1")
    events: list[dict[str, Any]] = []
    profile = Profile(collections=["corpus"], engine=_Slow.name, long_document_pages=1)
    await run_extraction(_case(corpus, "nordwerk-2025-positions")["message"], profile, confirm="auto", on_progress=events.append)
    kinds = [e["event"] for e in events]
    assert kinds[0] == "scope_resolved" and events[0]["documents"] == 11
    assert {"file": "invoices/2025/nordwerk-2025-05.pdf", "pages": 2} in [
        {"file": e["file"], "pages": e["pages"]} for e in events if e["event"] == "long_document_started"
    ]
    assert "still_reading" in kinds
    done = [e for e in events if e["event"] == "document_done"]
    assert len(done) == 11
    first = next(e for e in done if e["file"] == "invoices/2025/nordwerk-2025-05.pdf")
    assert first["rows"] == 45 and len(first["first_rows"]) == 3
    assert all(len(json.dumps(e)) < 4096 for e in events)


async def test_more_documents_than_the_profile_reads_offers_narrowing(corpus, svc) -> None:  # type: ignore[no-untyped-def]
    profile = Profile(collections=["corpus"], max_documents_total=50)
    values = await run_extraction(_case(corpus, "tickets-p1")["message"], profile, confirm="auto")
    answer = values["answer"]
    assert answer["status"] == "needs_narrowing"
    assert "140 documents" in answer["message"] and "tickets/2025 (140)" in answer["message"]
    assert not list(svc.objects.keys(extraction_prefix(values["extraction_id"])))


async def test_a_user_without_access_reads_nothing_and_is_told_why(corpus) -> None:  # type: ignore[no-untyped-def]
    values = await run_extraction(
        _case(corpus, "sla-times")["message"], Profile(user="mallory", collections=["corpus"])
    )
    answer = values["answer"]
    assert "__interrupt__" not in values
    assert answer["status"] == "no_documents" and "user 'mallory' may read" in answer["message"]
    assert [a["kind"] for a in answer["actions"]] == ["add_documents", "ask_for_access"]


async def test_files_are_named_with_their_collection_when_the_scope_spans_several(svc, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from tools.knowledge.ingest import ingest

    for name in ("twin-a", "twin-b"):
        folder = tmp_path / name
        folder.mkdir()
        (folder / "prices.csv").write_text(f"Item,Price\n{name} bolt,1.00\n", encoding="utf-8")
        ingest(svc.kb, [folder], name, embed=False)
    values = await run_extraction("Item and price of every row", Profile(collections=["twin-a", "twin-b"]), confirm="auto")
    _, rows = _table(svc, values)
    assert sorted(r["file"] for r in rows) == ["twin-a:prices.csv", "twin-b:prices.csv"]


def test_cli_asks_its_questions_in_the_terminal(corpus) -> None:  # type: ignore[no-untyped-def]
    command = [sys.executable, "-m", "server.cli", "extract", _case(corpus, "sla-times")["message"], "--collection", "corpus"]
    kept = subprocess.run(command, input="\n\n\n", capture_output=True, text=True, cwd=ROOT, env=ENV)
    assert kept.returncode == 0, kept.stderr
    assert "Location" in kept.stderr and "Filter Condition" in kept.stderr and "(recommended)" in kept.stderr
    assert f"{len(_case(corpus, 'sla-times')['rows'])} rows" in kept.stdout
    declined = subprocess.run(command, input="no\n", capture_output=True, text=True, cwd=ROOT, env=ENV)
    assert declined.returncode == 0 and "Declined" in declined.stdout
    unanswered = subprocess.run(command, input="", capture_output=True, text=True, cwd=ROOT, env=ENV)
    assert "Declined" in unanswered.stdout and "--yes" in unanswered.stderr  # no stdin: nothing is read


async def test_a_bad_pattern_is_answered_in_a_sentence(corpus) -> None:  # type: ignore[no-untyped-def]
    bad_profile = await run_extraction("Priority from the SLAs", Profile(collections=["corpus"], path_glob="a[z-a]*"), confirm="auto")
    assert bad_profile["answer"]["status"] == "failed" and "not a valid path pattern" in bad_profile["answer"]["message"]

    def answer(form: dict[str, Any]) -> dict[str, Any]:
        return {"status": "answered", "answers": {"location": {"type": "other", "text": "slas/[z-a]*"}}}

    bad_place = await run_extraction("Priority from the SLAs", CORPUS, answer=answer)
    assert bad_place["answer"]["status"] == "no_documents"
    assert "not a valid path pattern" in bad_place["answer"]["message"]


async def test_resuming_a_thread_without_a_question_says_so(corpus) -> None:  # type: ignore[no-untyped-def]
    from graph.runs import NothingToResume

    done = await run_extraction("Hello", CORPUS)
    with pytest.raises(NothingToResume, match="nothing to resume"):
        await resume_extraction(done["thread_id"], "yes", CORPUS)


async def test_a_place_that_holds_nothing_is_named_while_the_others_are_read(corpus, svc) -> None:  # type: ignore[no-untyped-def]
    def answer(form: dict[str, Any]) -> dict[str, Any]:
        return {"status": "answered", "answers": {"location": {"type": "other", "text": "slas and archive/old"}}}

    values = await run_extraction("Priority, response time and resolution time", CORPUS, answer=answer)
    answer_ = values["answer"]
    assert answer_["status"] == "done", answer_["message"]
    assert "Nothing in scope is at archive/old" in answer_["message"]
    _, rows = _table(svc, values)
    assert rows and all(r["file"].startswith("slas/") for r in rows)


def test_cli_options_narrow_a_profile_and_never_widen_it(corpus, kea_home) -> None:  # type: ignore[no-untyped-def]
    profiles = kea_home / "profiles"
    profiles.mkdir(exist_ok=True)
    (profiles / "sla-desk.json").write_text(json.dumps({"collections": ["corpus"], "path_glob": "slas/**"}))
    base = [sys.executable, "-m", "server.cli", "extract", "Priority and response time of every row", "--profile", "sla-desk", "--yes"]
    done = subprocess.run([*base, "--json"], capture_output=True, text=True, cwd=ROOT, env=ENV)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["status"] == "done" and result["documents"]["in_scope"] == 3  # the profile's glob holds
    widened = subprocess.run([*base, "--collection", "other"], capture_output=True, text=True, cwd=ROOT, env=ENV)
    assert widened.returncode == 1 and "outside it" in widened.stderr
    replaced = subprocess.run([*base, "--path-glob", "**"], capture_output=True, text=True, cwd=ROOT, env=ENV)
    assert replaced.returncode == 1 and "cannot replace it" in replaced.stderr


async def test_an_unknown_engine_is_answered_in_a_sentence(corpus) -> None:  # type: ignore[no-untyped-def]
    values = await run_extraction("Priority from the SLAs", Profile(collections=["corpus"], engine="gpt-9"), confirm="auto")
    assert values["answer"]["status"] == "failed" and "unknown engine 'gpt-9'" in values["answer"]["message"]
