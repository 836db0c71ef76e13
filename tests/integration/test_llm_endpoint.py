"""The LLM engine through the real graph and the real langchain-openai HTTP client.

A scripted OpenAI-compatible endpoint (``evals/endpoint.py``) plays the model: it reads the
prompts Kea sends and answers as a careful model would — or with the faults a real endpoint
has (429 with Retry-After, 500, an exhausted quota, a slow answer, an answer cut off by the
output limit). The tests assert what a user notices in the answer and the table.
"""

from __future__ import annotations

import asyncio
import os
import re
import sys
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from evals.endpoint import Reply, ScriptedEndpoint, Seen, allowed_endpoint, answer, cut_off, failure

from evals.score import score_case
from evals.tables import rows_from_csv
from core.profile import Profile
from graph.runs import run_extraction
from tools.engines.columns import map_columns
from tools.engines.grounding import NOT_FOUND
from tools.engines.llm.prompts import extraction_prompt
from tools.engines.llm.windows import plan_windows, window_chars
from tools.engines.model_slots import ModelSlots
from core.reading import Reading
from tools.storage.rows import table_key

ROOT = Path(__file__).resolve().parents[2]
SLAS = "Priority, response time and resolution time from the SLAs"
SLA_COLUMNS = ["Priority", "Response time", "Resolution time"]
PARTS = "No, part and amount of every row of the parts list"
PARTS_COLUMNS = ["No", "Part", "Amount"]
PARTS_ROWS = 48


@pytest.fixture(scope="module")
def endpoint() -> Iterator[ScriptedEndpoint]:
    scripted = ScriptedEndpoint()
    with allowed_endpoint(scripted):
        yield scripted


def profile(endpoint: ScriptedEndpoint, **settings: Any) -> Profile:
    values: dict[str, Any] = {"collections": ["corpus"], "engine": "llm", "model": "scripted", "base_url": endpoint.base_url}
    return Profile(**{**values, **settings})


# -- the scripted model ------------------------------------------------------------------------


def reading(columns: list[str], **fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "kind": "table", "columns": columns, "columns_from": "request", "row_condition": None, "conditions": [],
        "row_terms": [], "document_conditions": [], "places": [], "calculations": [], "notes": [], "unused": [],
    }
    return {**base, **fields}


def _cells(line: str) -> list[str]:
    if "\t" in line:
        return [c.strip() for c in line.split("\t")]
    if line.strip().startswith("|"):
        return [c.strip() for c in line.strip().strip("|").split("|")]
    return []


def _columns(seen: Seen) -> list[str]:
    listed = seen.system.split("The table's columns, in order:\n", 1)[1].split("\n\n", 1)[0]
    return [line[2:] for line in listed.splitlines()]


def _document_conditions(seen: Seen) -> list[str]:
    line = re.search(r"^Document conditions: (.+)$", seen.system, re.MULTILINE)
    return [] if not line or line.group(1).startswith("none") else line.group(1).split(" and ")


def careful_model(seen: Seen) -> list[dict[str, Any]]:
    """The rows a careful model gives: every table row under a header it has seen, values as written.

    A row of a table whose header it has not seen (in the text or carried with the part) is
    left out: without the header it cannot tell which value is which.
    """
    columns = _columns(seen)
    carried = re.search(r"^The last table header before this part.*\n(.+)$", seen.user, re.MULTILINE)
    header = _cells(carried.group(1)) if carried else None
    records = []
    for page, text in seen.pages():
        for line in text.splitlines():
            cells = _cells(line)
            if len(cells) < 2:
                continue
            mapping = map_columns(columns, cells)
            if 2 * len(mapping) >= len(columns) and not cells[0].isdigit():
                header = cells
                continue
            if header is None or len(cells) != len(header):
                continue
            use = map_columns(columns, header)
            values = {c: cells[use[c]] if c in use else None for c in columns}
            records.append({**values, "record_match": "yes", "page": page, "evidence": line, "note": None})
    return records


def letterhead_meets(seen: Seen) -> bool:
    """Whether the document's own head (before its first table line) names every document condition."""
    head = seen.user.split("\t", 1)[0].split("\n|", 1)[0].casefold()
    return all(any(t.casefold() in head for t in term.split(" or ")) for term in _document_conditions(seen))


def model(read: dict[str, Any], extract: Callable[[Seen], Reply] | None = None) -> Callable[[Seen], Reply]:
    """A script: the reading for the request, then ``extract`` (a careful model by default) per part."""

    def script(seen: Seen) -> Reply:
        if seen.reads_request:
            return answer(read)
        if extract is not None:
            return extract(seen)
        return answer({"records": careful_model(seen)} | ({"document_condition": "met"} if _document_conditions(seen) else {}))

    return script


def _table(svc: Any, values: dict[str, Any]) -> tuple[list[str], list[dict[str, Any]]]:
    with svc.objects.open(table_key(values["extraction_id"])) as handle:
        return rows_from_csv(handle.read())


def _stored(svc: Any, values: dict[str, Any]) -> list[tuple[str, Any]]:
    """(file, record) of every row stored for the run, notes included (the CSV has none)."""
    outcomes = [svc.rows.outcome(values["extraction_id"], i) for i in values["document_ids"]]
    return [(o.file, record) for o in outcomes if o is not None for record in o.records]


# -- document conditions, unsure rows, grounding ----------------------------------------------


async def test_another_suppliers_invoice_gives_no_rows_and_is_listed(corpus, svc, endpoint) -> None:  # type: ignore[no-untyped-def]
    case = next(c for c in corpus["cases"] if c["id"] == "nordwerk-2025-positions")

    def extract(seen: Seen) -> Reply:
        if letterhead_meets(seen):
            return answer({"records": careful_model(seen), "document_condition": "met"})
        # a sloppy answer: the document fails its condition, yet rows are listed; Kea keeps none
        sloppy = careful_model(seen) if "tessel" in (seen.document or "") else []
        return answer({"records": sloppy, "document_condition": "not_met"})

    endpoint.reset(model(
        reading(["Description", "Quantity", "Unit price"], document_conditions=["Nordwerk"],
                places=[{"kind": "folder", "value": "invoices"}, {"kind": "year", "value": "2025"}]),
        extract,
    ))
    values = await run_extraction(case["message"], profile(endpoint), confirm="auto")
    answer_ = values["answer"]
    assert answer_["status"] == "done", answer_["message"]
    columns, rows = _table(svc, values)
    result = score_case(case, rows, columns, answer_["status"])
    assert (result["recall"], result["precision"]) == (1.0, 1.0), result
    assert {r["file"] for r in rows} == set(case["documents_with_rows"])
    others = set(answer_["summary"]["no_rows_from"])
    assert {"invoices/2025/tessel-2025-02.pdf", "invoices/2025/brightline-2025-02.pdf", "invoices/2025/kappa-2025-04.docx"} <= others
    assert "No rows from (7)" in answer_["message"]
    tessel = endpoint.extraction_requests("invoices/2025/tessel-2025-02.pdf")
    assert len(tessel) == 1 and "Document conditions: Nordwerk" in tessel[0].system

    # the answer names the engine and what the model cost (11 documents, one call each)
    assert "(llm engine)" in answer_["message"]
    assert "Model use: 11 calls, 1,320 input and 330 output tokens." in answer_["message"]


async def test_unsure_rows_are_kept_and_counted_and_ungrounded_rows_are_marked(corpus, svc, endpoint) -> None:  # type: ignore[no-untyped-def]
    def extract(seen: Seen) -> Reply:
        records = []
        for record in careful_model(seen):
            if record["Priority"] == "P2":
                records.append(record | {"record_match": "unsure", "note": "P2 may count as critical here"})
            elif record["Priority"] == "P1":
                records.append(record)
        if "sla-kappa" in (seen.document or ""):
            records[0]["evidence"] = "P1 | 2 hours | 12 hours"  # not a quote of the document
        if "sla-nordwerk" in (seen.document or ""):
            records[0]["Resolution time"] = "within one business week"  # a value the document does not hold
        return answer({"records": records})

    endpoint.reset(model(reading(SLA_COLUMNS, row_condition="critical priorities", row_terms=["critical"],
                                 places=[{"kind": "folder", "value": "slas"}]), extract))
    values = await run_extraction("Response and resolution times of critical priorities in the SLAs", profile(endpoint), confirm="auto")
    answer_ = values["answer"]
    assert answer_["summary"]["rows"] == 6 and answer_["summary"]["unsure_rows"] == 5
    assert "5 marked unsure (check the Match column)" in answer_["message"]
    _, rows = _table(svc, values)
    by_row = {(r["file"], r["values"]["Priority"]): r["match"] for r in rows}
    assert by_row[("slas/sla-halden-hosting.pdf", "P1")] == "yes"
    assert all(by_row[(f, "P2")] == "unsure" for f, _ in by_row)
    notes = {(file, r.values["Priority"]): r.note for file, r in _stored(svc, values)}
    assert notes[("slas/sla-kappa.md", "P1")] == NOT_FOUND
    assert "not found in the document: Resolution time 'within one business week'" in notes[("slas/sla-nordwerk.docx", "P1")]
    assert notes[("slas/sla-nordwerk.docx", "P2")] == "P2 may count as critical here"


# -- long documents: windows, carried headers, cut-off answers --------------------------------


@pytest.fixture(scope="module")
def parts_list(kea_home: Path, kb) -> Any:  # type: ignore[no-untyped-def]
    """A six-page Markdown parts list whose one table runs over every page, its header on page 1 only."""
    from tools.knowledge.ingest import ingest

    folder = kea_home / "long-documents"
    folder.mkdir(exist_ok=True)
    pages, number = [], 0
    for page in range(1, 7):
        lines = (
            ["# Parts list 2025", "Supplier: Halden Cloud Services Ltd", "Customer: Marlow Systems GmbH", "",
             "| No | Part | Amount |", "|---|---|---|"]
            if page == 1 else [f"Parts list 2025, page {page}", ""]
        )
        for _ in range(PARTS_ROWS // 6):
            number += 1
            lines.append(f"| {number} | Part {number:02d}, bracket and fixings set | {number * 12}.50 |")
        pages.append("\n".join(lines) + "\n")
    (folder / "parts-list.md").write_text("\f".join(pages), encoding="utf-8")
    assert ingest(kb, [folder], "long", embed=False).indexed
    (ref,) = kb.find_by_path_suffix(Profile(collections=["long"]).scope, "parts-list.md")
    return kb.read_document(Profile(collections=["long"]).scope, ref.id)


def _numbers(rows: list[dict[str, Any]]) -> list[int]:
    return [int(r["values"]["No"]) for r in rows]


async def test_a_long_document_is_read_in_three_windows_and_each_row_comes_once(svc, endpoint, parts_list) -> None:  # type: ignore[no-untyped-def]
    prompt = extraction_prompt(Reading(request=PARTS, columns=PARTS_COLUMNS))
    context_tokens = next(
        t for t in range(200, 20_000, 25) if len(plan_windows(parts_list, window_chars(t, len(prompt)))) == 3
    )
    endpoint.reset(model(reading(PARTS_COLUMNS)))
    values = await run_extraction(PARTS, profile(endpoint, collections=["long"], context_tokens=context_tokens), confirm="auto")
    assert values["answer"]["status"] == "done", values["answer"]["message"]
    _, rows = _table(svc, values)
    assert _numbers(rows) == list(range(1, PARTS_ROWS + 1))  # every row, once, in order

    parts = endpoint.extraction_requests()
    assert len(parts) == 3
    given = sum(len(careful_model(seen)) for seen in parts)
    assert given > PARTS_ROWS  # the overlaps gave rows twice; the table holds them once
    for later in parts[1:]:
        context = later.user.split("=== Page", 1)[0]
        assert "No\tPart\tAmount" in context and "Supplier: Halden Cloud Services Ltd" in context


async def test_an_answer_cut_off_by_the_output_limit_is_split_and_every_row_recovered(svc, endpoint, parts_list) -> None:  # type: ignore[no-untyped-def]
    def extract(seen: Seen) -> Reply:
        records = careful_model(seen)
        return cut_off({"records": records}) if len(records) > 16 else answer({"records": records})

    endpoint.reset(model(reading(PARTS_COLUMNS), extract))
    values = await run_extraction(PARTS, profile(endpoint, collections=["long"]), confirm="auto")
    assert values["answer"]["status"] == "done", values["answer"]["message"]
    _, rows = _table(svc, values)
    assert _numbers(rows) == list(range(1, PARTS_ROWS + 1))
    finishes = [seen.finish_reason for seen in endpoint.extraction_requests()]
    assert finishes.count("length") >= 2 and finishes[0] == "length"  # the whole document, then its halves
    assert values["answer"]["summary"]["unsure_rows"] == 0


# -- faults of the endpoint --------------------------------------------------------------------


async def test_a_429_with_retry_after_is_waited_out_and_the_run_completes(corpus, svc, endpoint) -> None:  # type: ignore[no-untyped-def]
    def extract(seen: Seen) -> Reply:
        if seen.document == "slas/sla-kappa.md" and len(endpoint.extraction_requests(seen.document)) == 1:
            return failure(429, "Rate limit reached, retry after 1 s", code="rate_limit_exceeded", retry_after=1)
        return answer({"records": careful_model(seen)})

    endpoint.reset(model(reading(SLA_COLUMNS, places=[{"kind": "folder", "value": "slas"}]), extract))
    values = await run_extraction(SLAS, profile(endpoint), confirm="auto")
    assert values["answer"]["status"] == "done" and values["answer"]["summary"]["rows"] == 12
    limited, retried = endpoint.extraction_requests("slas/sla-kappa.md")
    assert (limited.status, retried.status) == (429, 200)
    assert retried.started - limited.ended >= 1.0  # Retry-After: 1 honoured


async def test_a_document_failing_after_the_last_attempt_is_listed_while_the_others_finish(corpus, svc, endpoint) -> None:  # type: ignore[no-untyped-def]
    def extract(seen: Seen) -> Reply:
        if seen.document == "slas/sla-halden-hosting.pdf":
            return failure(500, "The server had an error while processing your request.")
        return answer({"records": careful_model(seen)})

    endpoint.reset(model(reading(SLA_COLUMNS, places=[{"kind": "folder", "value": "slas"}]), extract))
    values = await run_extraction(SLAS, profile(endpoint, max_retries=1), confirm="auto")
    answer_ = values["answer"]
    assert answer_["status"] == "done" and answer_["summary"]["rows"] == 8
    assert answer_["summary"]["failed"] == [
        {"file": "slas/sla-halden-hosting.pdf", "error": "the model endpoint kept failing (HTTP 500) after 2 attempts"}
    ]
    assert "Failed (1): slas/sla-halden-hosting.pdf: the model endpoint kept failing (HTTP 500)" in answer_["message"]
    assert len(endpoint.extraction_requests("slas/sla-halden-hosting.pdf")) == 2


async def test_a_slow_answer_fails_its_document_after_the_timeout(corpus, svc, endpoint) -> None:  # type: ignore[no-untyped-def]
    def extract(seen: Seen) -> Reply:
        reply = answer({"records": careful_model(seen)})
        if seen.document == "slas/sla-nordwerk.docx":
            reply.delay = 1.5
        return reply

    endpoint.reset(model(reading(SLA_COLUMNS, places=[{"kind": "folder", "value": "slas"}]), extract))
    values = await run_extraction(SLAS, profile(endpoint, request_timeout=0.5, max_retries=0), confirm="auto")
    (failed,) = values["answer"]["summary"]["failed"]
    assert failed == {"file": "slas/sla-nordwerk.docx", "error": "the model endpoint did not answer within 0.5 s (after 1 attempt)"}
    assert values["answer"]["summary"]["rows"] == 8


@pytest.mark.parametrize(
    ("model_name", "reply", "reason"),
    [
        ("scripted-quota", failure(429, "You exceeded your current quota.", code="insufficient_quota"),
         "the model endpoint's quota is exhausted (429 insufficient_quota): add credit or raise the quota, then ask again"),
        ("scripted-key", failure(401, "Incorrect API key provided.", code="invalid_api_key"),
         "the model endpoint refused the API key in OPENAI_API_KEY (HTTP 401)"),
    ],
    ids=["quota", "key"],
)
async def test_an_exhausted_quota_or_a_refused_key_fails_at_once(corpus, svc, endpoint, model_name, reply, reason) -> None:  # type: ignore[no-untyped-def]
    # each case has its own model name: a refusal is remembered per endpoint and model for a minute
    endpoint.reset(model(reading(SLA_COLUMNS, places=[{"kind": "folder", "value": "slas"}]), lambda seen: reply))
    values = await run_extraction(SLAS, profile(endpoint, model=model_name, max_retries=6), confirm="auto")
    answer_ = values["answer"]
    assert answer_["status"] == "failed"
    assert {f["error"] for f in answer_["summary"]["failed"]} == {reason}
    per_document = [len(endpoint.extraction_requests(f["file"])) for f in answer_["summary"]["failed"]]
    assert max(per_document) == 1  # not retried


@pytest.mark.parametrize("status", [400, 500])
async def test_an_endpoint_without_json_schema_is_asked_by_function_calling(corpus, svc, endpoint, status) -> None:  # type: ignore[no-untyped-def]
    # 500: llama-cpp-python's server refuses a json_schema response format with a validation error
    endpoint.reset(model(reading(SLA_COLUMNS, places=[{"kind": "folder", "value": "slas"}])), refuse_json_schema=status)
    values = await run_extraction(SLAS, profile(endpoint, model=f"scripted-tools-{status}", max_retries=1), confirm="auto")
    assert values["answer"]["status"] == "done" and values["answer"]["summary"]["rows"] == 12
    refused = [seen for seen in endpoint.requests if "response_format" in seen.body]
    rest = [seen for seen in endpoint.requests if "response_format" not in seen.body]
    assert refused and all(seen.status == status for seen in refused)
    first = refused[0]
    assert first.status == status and "response_format" in first.body
    assert rest and all("tools" in seen.body and "response_format" not in seen.body for seen in rest)


# -- the global per-model cap -------------------------------------------------------------------


async def test_the_global_model_cap_holds_across_two_concurrent_runs(corpus, svc, endpoint) -> None:  # type: ignore[no-untyped-def]
    def extract(seen: Seen) -> Reply:
        return answer({"records": careful_model(seen)}, delay=0.25)

    def script(seen: Seen) -> Reply:
        if seen.reads_request:
            folder = "slas" if "SLA" in seen.user else "invoices/2024"
            columns = SLA_COLUMNS if folder == "slas" else ["Description", "Amount"]
            return answer(reading(columns, places=[{"kind": "folder", "value": folder}]))
        return extract(seen)

    endpoint.reset(script)
    settings = {"model_concurrency": 2, "concurrency": 4}
    slas, invoices = await asyncio.gather(
        run_extraction(SLAS, profile(endpoint, name="run-a", **settings), confirm="auto"),
        run_extraction("Description and amount of the 2024 invoices", profile(endpoint, name="run-b", **settings), confirm="auto"),
    )
    assert slas["answer"]["summary"]["rows"] == 12 and invoices["answer"]["summary"]["extracted"] == 8
    assert endpoint.max_in_flight == 2  # never more than the cap, and not one at a time either


async def test_slots_are_shared_by_processes_and_freed_when_one_dies(database) -> None:  # type: ignore[no-untyped-def]
    """Two pools stand for two replicas; a killed process gives its slot back."""
    first, second = ModelSlots(database, "replicas", 2), ModelSlots(database, "replicas", 2)
    try:
        async with first.hold() as a, second.hold() as b:
            assert {a, b} == {0, 1}
            third = asyncio.ensure_future(_hold_briefly(first))
            await asyncio.sleep(0.4)
            assert not third.done() and first.waits > 0  # every slot of the database is taken
        assert await asyncio.wait_for(third, timeout=5) in (0, 1)

        holder = await asyncio.create_subprocess_exec(
            sys.executable, "-c", HOLD_SCRIPT, database, cwd=ROOT, stdout=asyncio.subprocess.PIPE,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        lone = ModelSlots(database, "replicas-lone", 1)
        try:
            assert holder.stdout is not None
            assert (await asyncio.wait_for(holder.stdout.readline(), timeout=30)).strip() == b"holding"
            waiting = asyncio.ensure_future(_hold_briefly(lone))
            await asyncio.sleep(0.4)
            assert not waiting.done()  # the other process holds the only slot
            holder.kill()  # dies holding it: its connection closes and the lock with it
            assert await asyncio.wait_for(waiting, timeout=10) == 0
        finally:
            if holder.returncode is None:
                holder.kill()
            await holder.wait()
            await lone.close()
    finally:
        await first.close()
        await second.close()


async def _hold_briefly(slots: ModelSlots) -> int:
    async with slots.hold() as slot:
        return slot


HOLD_SCRIPT = textwrap.dedent(
    """
    import asyncio, sys
    from tools.engines.model_slots import ModelSlots

    async def main():
        async with ModelSlots(sys.argv[1], "replicas-lone", 1).hold():
            print("holding", flush=True)
            await asyncio.sleep(60)

    asyncio.run(main())
    """
)


async def test_the_key_goes_only_to_endpoints_the_operator_allows(endpoint) -> None:  # type: ignore[no-untyped-def]
    endpoint.reset(lambda seen: answer({"records": []}))
    refusals = {
        "not one this installation allows": {"base_url": "http://127.0.0.1:9/v1"},
        "only OPENAI_": {"api_key_env": "KEA_DATABASE_URL"},
    }
    for why, settings in refusals.items():
        values = await run_extraction(
            "Priority, response time and resolution time from the SLAs", profile(endpoint, **settings), confirm="auto"
        )
        assert values["answer"]["status"] == "failed" and why in values["answer"]["message"], values["answer"]
