"""The LLM engine with a fake chat model at the model boundary: schemas, windows, splits, prompts."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import re
from collections.abc import AsyncIterator, Callable
from typing import Any

import openai
import pytest
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage
from langchain_core.runnables import RunnableLambda
from openai.types import CompletionUsage
from openai.types.chat import ChatCompletion
from pydantic import Field

from core.profile import Profile
from tools.engines import engine_named
from tools.engines.llm import prompt_text as prompts
from tools.engines.base import ExtractionError
from tools.engines.llm.engine import LLMEngine
from tools.engines.llm.rows import Part, merge_windows
from tools.engines.llm.schemas import RequestReading, record_schema
from tools.engines.llm.windows import Piece, plan_windows, split_window
from core.reading import Condition, DocumentText, FolderCount, Reading, Record, ScopeHint, Table
from tools.engines.usage import metered

CUT = object()  # the fake's answer was cut off by the output limit
CUT_WITHOUT_ERROR = object()  # ... the way function calling reports it: finish_reason only


class FakeStructuredModel(GenericFakeChatModel):
    """Answers ``with_structured_output`` calls from a script: ``script(schema, system, user)``."""

    script: Any = None
    calls: list[tuple[str, str, str]] = Field(default_factory=list)

    def with_structured_output(self, schema: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        async def run(messages: list[Any]) -> dict[str, Any]:
            system, user = str(messages[0].content), str(messages[-1].content)
            self.calls.append((schema.__name__, system, user))
            result = self.script(schema, system, user)
            if result is CUT:
                usage = CompletionUsage(prompt_tokens=50, completion_tokens=4096, total_tokens=4146)
                completion = ChatCompletion(id="x", choices=[], created=0, model="fake", object="chat.completion", usage=usage)
                raise openai.LengthFinishReasonError(completion=completion)
            finish = "length" if result is CUT_WITHOUT_ERROR else "stop"
            raw = AIMessage(
                content="" if finish == "length" else json.dumps(result),
                usage_metadata={"input_tokens": 50, "output_tokens": 10, "total_tokens": 60},
                response_metadata={"finish_reason": finish},
            )
            parsed = None if finish == "length" else schema.model_validate(result)
            return {"raw": raw, "parsed": parsed, "parsing_error": None}

        return RunnableLambda(lambda messages: None, afunc=run)


class NoSlots:
    """Slots that never wait: the unit tests need no database."""

    @contextlib.asynccontextmanager
    async def hold(self) -> AsyncIterator[int]:
        yield 0


def engine(script: Callable[..., Any], **profile: Any) -> tuple[LLMEngine, FakeStructuredModel]:
    fake = FakeStructuredModel(messages=iter([]), script=script)
    settings = {"engine": "llm", "model": "fake", "base_url": "http://127.0.0.1:9/v1", **profile}
    return LLMEngine(Profile(**settings), model=fake, slots=NoSlots()), fake


SCOPE = ScopeHint(
    documents=176,
    collections=["corpus"],
    folders=[FolderCount(folder=f, documents=n) for f, n in [("tickets/2025", 140), ("invoices", 19), ("invoices/2025", 11)]],
    years=["2024", "2025"],
    table_headers=[["Item", "Description", "Qty", "Unit price", "Amount"]],
)


def reading_answer(**fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "kind": "table", "columns": [], "columns_from": "request", "row_condition": None, "conditions": [],
        "row_terms": [], "document_conditions": [], "places": [], "calculations": [], "notes": [], "unused": [],
    }
    return {**base, **fields}


def rows_in(user: str) -> list[tuple[int, str]]:
    """(page, line) of every numbered row of the marked text of a prompt."""
    found, page = [], 0
    for line in user.splitlines():
        if line.startswith("=== Page "):
            page = int(line.split()[2])
        elif page and "\t" in line and line.split("\t")[0].isdigit():
            found.append((page, line))
    return found


def table_rows(user: str, *, document_condition: str | None = None) -> dict[str, Any]:
    records = [
        {"Description": line.split("\t")[1], "Amount": line.split("\t")[2], "record_match": "yes", "page": page,
         "evidence": line, "note": None}
        for page, line in rows_in(user)
    ]
    return {"records": records} | ({"document_condition": document_condition} if document_condition else {})


READING = Reading(request="Description and amount of every position", columns=["Description", "Amount"])


def long_document(pages: int = 10, rows_per_page: int = 6) -> DocumentText:
    texts, n = [], 0
    for page in range(1, pages + 1):
        lines = ["Brightline Ltd, Manchester", "Invoice 2025-07"] if page == 1 else [f"Invoice 2025-07, page {page}"]
        if page == 1:
            lines.append("No\tDescription\tAmount")
        for _ in range(rows_per_page):
            n += 1
            lines.append(f"{n}\tPosition number {n} of the order\t{n * 10}.00")
        texts.append("\n".join(lines))
    table = Table(page=1, header=["No", "Description", "Amount"], rows=[])
    return DocumentText(id=1, collection="c", path="invoices/long.txt", title="Invoice", pages=texts, tables=[table])


# -- the record schema -----------------------------------------------------------------------


def test_the_record_schema_has_a_nullable_string_per_column_and_the_row_fields() -> None:
    schema = record_schema(["Description", "Unit price", "품목"])
    row = schema.model_json_schema()["$defs"]["Row"]
    assert list(row["properties"]) == ["Description", "Unit price", "품목", "record_match", "page", "evidence", "note"]
    assert set(row["required"]) == set(row["properties"])
    assert row["properties"]["Unit price"]["anyOf"] == [{"type": "string"}, {"type": "null"}]
    assert row["properties"]["record_match"]["enum"] == ["yes", "unsure"]
    assert row["properties"]["page"]["anyOf"] == [{"type": "integer"}, {"type": "null"}]
    assert list(schema.model_json_schema()["properties"]) == ["records"]

    parsed = schema.model_validate(
        {"records": [{"Description": "Cable", "Unit price": "1.249,00", "품목": None, "record_match": "unsure",
                      "page": 2, "evidence": "1\tCable\t1.249,00", "note": "no unit"}]}
    )
    assert (parsed.records[0].c1, parsed.records[0].match, parsed.records[0].page) == ("1.249,00", "unsure", 2)
    loose = schema.model_validate(  # a number where a string belongs is taken as written
        {"records": [{"Description": "Cable", "Unit price": 12, "품목": None, "record_match": "yes", "page": None,
                      "evidence": "Cable 12", "note": None}]}
    )
    assert loose.records[0].c1 == "12"


def test_a_column_named_like_a_row_field_keeps_its_name_and_the_field_moves_aside() -> None:
    schema = record_schema(["Page", "Evidence"], document_conditions=True)
    row = schema.model_json_schema()["$defs"]["Row"]
    assert list(row["properties"]) == ["Page", "Evidence", "record_match", "row_page", "row_evidence", "note"]
    assert schema.model_json_schema()["properties"]["document_condition"]["enum"] == ["met", "not_met", "unclear"]


# -- windows ---------------------------------------------------------------------------------


def test_a_document_that_fits_is_one_window_of_whole_pages() -> None:
    document = long_document(pages=3)
    (window,) = plan_windows(document, budget=10_000)
    assert window == tuple(Piece(n, 0, len(t)) for n, t in enumerate(document.pages, start=1))


def test_long_documents_are_read_in_windows_that_overlap_by_one_piece() -> None:
    document = long_document(pages=10)
    budget = 4 * max(len(p) for p in document.pages)
    windows = plan_windows(document, budget)
    assert len(windows) == 3
    for window in windows:
        assert sum(p.size for p in window) <= budget
    for before, after in itertools.pairwise(windows):
        assert after[0] == before[-1]  # the overlap
    covered = {p.page for w in windows for p in w}
    assert covered == set(range(1, 11))


def test_a_page_longer_than_a_quarter_window_is_cut_after_lines() -> None:
    page = "\n".join(f"{n}\tRow {n}\t{n}.00" for n in range(1, 200))
    document = DocumentText(id=1, collection="c", path="big.csv", pages=[page])
    windows = plan_windows(document, budget=800)
    pieces = sorted({p for w in windows for p in w}, key=lambda p: p.start)
    assert pieces[0].start == 0 and pieces[-1].end == len(page)
    for a, b in itertools.pairwise(pieces):
        assert a.end == b.start and page[a.end - 1] == "\n"  # contiguous, cut after a line
    assert all(p.size <= 200 for p in pieces)


def test_a_part_is_halved_between_pages_or_after_a_line_of_one_page() -> None:
    document = long_document(pages=4)
    whole = plan_windows(document, budget=10_000)[0]
    first, second = split_window(document, whole)
    assert (len(first), len(second)) == (2, 2)

    one_page = (whole[0],)
    top, bottom = split_window(document, one_page)
    text = document.pages[0]
    assert top[0].start == 0 and bottom[0].end == len(text) and top[0].end == bottom[0].start
    assert text[top[0].end - 1] == "\n"

    short = DocumentText(id=2, collection="c", path="s.txt", pages=["1\tShort\t1.00"])
    assert split_window(short, (Piece(1, 0, len(short.pages[0])),)) is None


def test_rows_found_in_two_overlapping_windows_are_kept_once() -> None:
    page_two = "2\tCable\t5.00\n3\tCable\t5.00\n4\tDock\t20.00"  # two equal lines: two rows
    document = DocumentText(id=1, collection="c", path="d.txt", pages=["1\tServer\t900.00", page_two, "5\tMouse\t9.00"])
    p1, p2, p3 = (Piece(n, 0, len(t)) for n, t in enumerate(document.pages, start=1))

    def row(line: str, page: int) -> Any:
        from core.reading import Record

        return Record(values={"Description": line.split("\t")[1]}, page=page, evidence=line.split("\t", 1)[1])

    a = Part((p1, p2), [row("1\tServer\t900.00", 1), row("2\tCable\t5.00", 2), row("3\tCable\t5.00", 2), row("4\tDock\t20.00", 2)])
    b = Part((p2, p3), [row("3\tCable\t5.00", 2), row("3\tCable\t5.00", 2), row("4\tDock\t20.00", 2), row("5\tMouse\t9.00", 3)])
    merged = merge_windows(document, [a, b])
    assert [r.values["Description"] for r in merged] == ["Server", "Cable", "Cable", "Dock", "Mouse"]


# -- the engine: cut-off answers, conditions, grounding ---------------------------------------


async def test_a_cut_off_answer_splits_its_part_and_every_row_comes_once() -> None:
    def script(schema: Any, system: str, user: str) -> Any:
        return CUT if len(rows_in(user)) > 8 else table_rows(user)

    llm, fake = engine(script)
    document = long_document(pages=4)  # 24 rows: cut off whole, then in halves of 12, read in quarters
    with metered() as usage:
        records = await llm.extract_document(document, READING)
    assert [r.values["Description"] for r in records] == [f"Position number {n} of the order" for n in range(1, 25)]
    assert usage.calls == len(fake.calls) == 1 + 2 + 4
    assert usage.output_tokens == 3 * 4096 + 4 * 10  # a cut-off answer's tokens count too


async def test_a_cut_off_reported_only_by_finish_reason_splits_too() -> None:
    def script(schema: Any, system: str, user: str) -> Any:
        return CUT_WITHOUT_ERROR if len(rows_in(user)) > 12 else table_rows(user)

    llm, fake = engine(script)
    records = await llm.extract_document(long_document(pages=4), READING)
    assert len(records) == 24 and len(fake.calls) == 3


async def test_an_answer_cut_off_at_every_size_fails_the_document_with_its_reason() -> None:
    llm, fake = engine(lambda schema, system, user: CUT)
    with pytest.raises(ExtractionError, match="cut off by its output limit"):
        await llm.extract_document(long_document(pages=2), READING)
    assert len(fake.calls) > 1  # halves were tried; nothing was accepted


async def test_windows_after_the_first_carry_the_letterhead_and_the_table_header() -> None:
    llm, fake = engine(lambda schema, system, user: table_rows(user), context_tokens=1)
    document = long_document(pages=10)
    records = await llm.extract_document(document, READING)
    assert len(records) == 60 and len({r.evidence for r in records}) == 60
    prompts_sent = [user for _, _, user in fake.calls]
    assert len(prompts_sent) > 1
    assert "Brightline Ltd" not in prompts_sent[0].split("=== Page 1 ===")[0]
    for user in prompts_sent[1:]:
        assert "The document's first lines" in user and "Brightline Ltd, Manchester" in user
        assert "No\tDescription\tAmount" in user.split("=== Page")[0]  # the header, before the text
        assert "(this part holds " in user


async def test_a_document_that_fails_its_document_condition_gives_no_rows_after_one_call() -> None:
    reading = READING.model_copy(update={"document_conditions": ["Nordwerk"]})
    llm, fake = engine(lambda schema, system, user: table_rows(user, document_condition="not_met"), context_tokens=1)
    assert await llm.extract_document(long_document(pages=10), reading) == []
    assert len(fake.calls) == 1  # the first window holds the letterhead: nothing more is read
    assert "Document conditions: Nordwerk" in fake.calls[0][1]


async def test_invented_values_and_rows_failing_a_condition_are_kept_unsure_with_the_reason() -> None:
    reading = READING.model_copy(
        update={"conditions": [Condition(column="Amount", op="gt", value="25", text="Amount above 25")],
                "row_condition": "Amount above 25"}
    )

    def script(schema: Any, system: str, user: str) -> Any:
        answer = table_rows(user)
        answer["records"][0]["Amount"] = "1000.00"  # the document says 10.00
        answer["records"][3]["record_match"] = "unsure"
        answer["records"][3]["note"] = "the amount is unclear"
        return answer

    llm, _ = engine(script)
    records = await llm.extract_document(long_document(pages=1), reading)
    by_number = {r.evidence.split("\t")[0]: r for r in records if r.evidence}
    # the model's rows stand: row 2 (20.00) fails "above 25" as Kea reads it, and says so
    assert set(by_number) == {"1", "2", "3", "4", "5", "6"}
    assert by_number["2"].match == "unsure"
    assert by_number["2"].note == "'Amount' is '20.00', which does not meet 'Amount above 25' as Kea reads it"
    assert by_number["1"].match == "unsure" and "not found in the document: Amount '1000.00'" in by_number["1"].note
    assert by_number["4"].match == "unsure" and by_number["4"].note == "the amount is unclear"
    assert by_number["3"].match == "yes" and by_number["3"].note is None


# -- prompts and the reading ------------------------------------------------------------------


async def test_the_reading_prompt_lists_the_scope_and_the_rules() -> None:
    llm, fake = engine(lambda schema, system, user: reading_answer(columns=["Description", "Amount"]))
    await llm.read_request("Description and amount of every Brightline invoice", SCOPE)
    ((name, system, user),) = fake.calls
    assert name == "RequestReading" and user == "Description and amount of every Brightline invoice"
    assert "tickets/2025 (140), invoices (19), invoices/2025 (11)" in system
    assert "2024, 2025" in system and "Item | Description | Qty | Unit price | Amount" in system
    assert "A supplier, a party, a customer or a topic is never a place" in system
    assert "never computed" in system


async def test_greetings_and_questions_about_kea_cost_no_model_call() -> None:
    llm, fake = engine(lambda schema, system, user: pytest.fail("no call expected"))
    assert (await llm.read_request("Hello!", SCOPE)).kind == "greeting"
    assert (await llm.read_request("What can you do?", SCOPE)).kind == "about"
    assert fake.calls == []


async def test_a_supplier_is_never_a_place_and_folders_are_named_as_stored() -> None:
    answer = reading_answer(
        columns=["Description", "Amount"],
        document_conditions=["Nordwerk"],
        places=[{"kind": "folder", "value": "Invoices/"}, {"kind": "folder", "value": "nordwerk"},
                {"kind": "year", "value": "2025"}, {"kind": "year", "value": "last year"}],
        calculations=["sum of Amount"],
    )
    llm, _ = engine(lambda schema, system, user: answer)
    reading = await llm.read_request("Nordwerk's 2025 invoices with description and amount, and their total", SCOPE)
    assert [(p.kind, p.value) for p in reading.places] == [("folder", "invoices"), ("year", "2025")]
    assert reading.document_conditions == ["Nordwerk"] and reading.calculations == ["sum of Amount"]
    assert reading.columns == ["Description", "Amount"] and reading.columns_from == "request"


async def test_columns_designed_by_the_model_say_so() -> None:
    llm, _ = engine(lambda schema, system, user: reading_answer(columns=["Supplier", "Liability cap"], columns_from="model"))
    reading = await llm.read_request("Liability caps below one million in the archived agreements", SCOPE)
    assert reading.columns == ["Supplier", "Liability cap"] and reading.columns_from == "model"


def test_the_extraction_rules_are_in_the_prompt() -> None:
    from tools.engines.llm.prompts import extraction_prompt

    reading = READING.model_copy(update={"row_condition": "hardware positions", "row_terms": ["hardware"],
                                         "document_conditions": ["Nordwerk"]})
    system = extraction_prompt(reading)
    assert "- Description\n- Amount" in system
    assert "Which rows: hardware positions" in system and "Rows about: hardware" in system
    for rule in ('record_match "unsure"', "gives no rows", "verbatim quote", "exactly as the document writes them"):
        assert rule in system
    assert prompts.PAGE_MARK.format(page=3) in system.replace("N ===", "3 ===")


# -- the profile and the registry -------------------------------------------------------------


def test_the_engine_defaults_to_llm_when_a_model_is_configured(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("KEA_ENGINE", raising=False)
    monkeypatch.delenv("KEA_MODEL", raising=False)
    assert Profile().engine == "offline" and Profile().model is None
    monkeypatch.setenv("KEA_MODEL", "gpt-4o-mini")
    monkeypatch.setenv("KEA_BASE_URL", "http://127.0.0.1:8000/v1")
    profile = Profile()
    assert (profile.engine, profile.model, profile.base_url) == ("llm", "gpt-4o-mini", "http://127.0.0.1:8000/v1")
    monkeypatch.setenv("KEA_ENGINE", "offline")
    assert Profile().engine == "offline"
    loaded = Profile.from_mapping({"model": "m", "context_tokens": 8000, "model_concurrency": 2, "unknown": 1})
    assert (loaded.model, loaded.context_tokens, loaded.model_concurrency, loaded.api_key_env) == ("m", 8000, 2, "OPENAI_API_KEY")


def test_engine_named_gives_the_llm_engine_its_profile() -> None:
    profile = Profile(engine="llm", model="m", base_url="http://127.0.0.1:9/v1", max_retries=2, context_tokens=999)
    llm = engine_named("llm", profile)
    assert isinstance(llm, LLMEngine)
    assert (llm.settings.model, llm.settings.max_retries, llm.settings.context_tokens) == ("m", 2, 999)
    assert engine_named("offline", profile).name == "offline"
    with pytest.raises(ExtractionError, match="KEA_MODEL"):
        engine_named("llm", Profile(engine="llm", model=None))


def test_the_reading_schema_asks_for_every_field() -> None:
    schema = RequestReading.model_json_schema()
    assert set(schema["required"]) == set(schema["properties"])


def test_the_estimate_counts_windows_and_lanes() -> None:
    from core.profile import Profile
    from tools.engines.llm.engine import LLMEngine

    engine = LLMEngine(Profile(model="m", context_tokens=8000, model_concurrency=4))
    small = engine.estimate([1] * 40, parallel=8)
    assert (small.documents, small.pages, small.model_calls) == (40, 40, 40)
    assert small.minutes == 10 * 20 / 60  # 40 calls, 4 at a time (the model's cap), 20 s each
    long = engine.estimate([60], parallel=8)
    assert long.model_calls > 1 and "model calls" in long.sentence()


def test_a_line_repeated_on_a_later_page_is_a_row_of_its_own() -> None:
    from tools.engines.llm.rows import Part, merge_windows
    from tools.engines.llm.windows import Piece

    line = "Service fee\t50.00\n"
    first, second = "Header\n" + line + "x\n", "y\n" + line
    document = DocumentText(id=1, collection="c", path="a", pages=[first, second])
    opening = (Piece(1, 0, len(first)),)
    later = (Piece(1, 0, len(first)), Piece(2, 0, len(second)))  # shares page 1 with the opening

    def row(page: int) -> Record:
        return Record(values={"D": "Service fee", "A": "50.00"}, page=page, evidence="Service fee\t50.00")

    # the later window reports only page 2's row: it is not the page-1 row seen before
    merged = merge_windows(document, [Part(opening, [row(1)]), Part(later, [row(2)])])
    assert [r.page for r in merged] == [1, 2]
    # the same page-1 row reported by both windows is kept once
    assert [r.page for r in merge_windows(document, [Part(opening, [row(1)]), Part(later, [row(1), row(2)])])] == [1, 2]


def test_only_the_opening_of_a_document_can_fail_its_document_condition() -> None:
    line = "Service fee\t50.00\n"
    pages = ["ACME GmbH invoice 2025\n" + "filler text line\n" * 30, "filler\n" * 20 + line + "filler\n" * 20, "more filler\n" * 30 + line]
    document = DocumentText(id=1, collection="c", path="a.pdf", pages=pages)
    reading = Reading(request="x", columns=["Description", "Amount"], document_conditions=["ACME"])

    def script(schema, system, user):  # type: ignore[no-untyped-def]
        rows = [
            {"Description": "Service fee", "Amount": "50.00", "record_match": "yes", "page": None,
             "evidence": "Service fee\t50.00", "note": None}
            for _ in re.finditer(r"Service fee\t50.00", user)
        ]
        opening = "ACME GmbH invoice" in user and "=== Page 1 ===" in user
        return {"records": rows, "document_condition": "met" if opening else "not_met"}

    llm, _ = engine(script, context_tokens=300)
    records = asyncio.run(llm.extract_document(document, reading))
    assert [r.page for r in records] == [2, 3]  # a later part's doubt keeps its rows, marked unsure
    assert all(r.match == "unsure" for r in records)
