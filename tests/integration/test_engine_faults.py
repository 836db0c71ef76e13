"""Engine faults injected per document through the real LLM engine and the real HTTP client.

The scripted OpenAI-compatible endpoint fails chosen documents the ways real endpoints fail:
HTTP 500, a reset connection, no answer at all, an answer that is no JSON or JSON of another
shape, and 429 storms with and without Retry-After. Every other document must finish with its
rows, each failing one must be listed with its reason, the retries per document (counted at
the server) must stay within the profile's ``max_retries``, and the run must end.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from evals.endpoint import (
    Reply, ScriptedEndpoint, Seen, allowed_endpoint, answer, connection_reset, failure, hang, malformed, trickled,
)

from evals.tables import rows_from_csv
from core.profile import Profile
from graph.runs import run_extraction
from tools.storage.rows import table_key

COLLECTION = "engine-faults"
COLUMNS = ["Code", "Item", "Quantity"]
REQUEST = "Code, item and quantity of every order"
DOCUMENTS = 12
RETRIES = 3  # the profile's max_retries (not the openai client's default of 2): at most 4 requests a call
ATTEMPTS = RETRIES + 1
TIMEOUT = 2.0  # the profile's request_timeout
RUN_LIMIT = 600  # seconds: far beyond what any of these runs needs; reaching it means a hang


@pytest.fixture(scope="module")
def endpoint() -> Iterator[ScriptedEndpoint]:
    scripted = ScriptedEndpoint()
    with allowed_endpoint(scripted, resets=True):
        yield scripted


@pytest.fixture(scope="module")
def orders(kea_home: Path, kb) -> list[str]:  # type: ignore[no-untyped-def]
    """Twelve order documents, each with one table of three rows."""
    from tools.knowledge.ingest import ingest

    folder = kea_home / "engine-fault-orders"
    folder.mkdir(exist_ok=True)
    for n in range(1, DOCUMENTS + 1):
        lines = [f"# Order {n:02d}", "", "| Code | Item | Quantity |", "|---|---|---|"]
        lines += [f"| {n:02d}-{k} | Bolt M{k + 3} | {n * 10 + k} |" for k in range(1, 4)]
        (folder / f"order-{n:02d}.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    report = ingest(kb, [folder], COLLECTION, embed=False)
    assert len(report.indexed) == DOCUMENTS, report.skipped
    return sorted(f"order-{n:02d}.md" for n in range(1, DOCUMENTS + 1))


def profile(endpoint: ScriptedEndpoint, model: str) -> Profile:
    return Profile(collections=[COLLECTION], engine="llm", model=model, base_url=endpoint.base_url,
                   max_retries=RETRIES, request_timeout=TIMEOUT, concurrency=12)


READING = {
    "kind": "table", "columns": COLUMNS, "columns_from": "request", "row_condition": None, "conditions": [],
    "row_terms": [], "document_conditions": [], "places": [], "calculations": [], "notes": [], "unused": [],
}


def rows_of(seen: Seen) -> dict[str, Any]:
    """What a careful model answers: every row of the document's table."""
    records = []
    for page, text in seen.pages():
        for line in text.splitlines():
            if "\t" in line:
                cells = [c.strip() for c in line.split("\t")]
            else:
                cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.startswith("|") else []
            if len(cells) == 3 and cells[0][:1].isdigit():
                records.append({"Code": cells[0], "Item": cells[1], "Quantity": cells[2], "record_match": "yes",
                                "page": page, "evidence": line, "note": None})
    return {"records": records}


def attempts(endpoint: ScriptedEndpoint, file: str) -> list[Seen]:
    return endpoint.extraction_requests(file)


async def bounded(run: Any) -> dict[str, Any]:
    """The run's values; a run that does not end fails the test instead of hanging it."""
    return await asyncio.wait_for(run, timeout=RUN_LIMIT)


def table_rows(svc: Any, values: dict[str, Any]) -> dict[str, list[str]]:
    with svc.objects.open(table_key(values["extraction_id"])) as handle:
        _, rows = rows_from_csv(handle.read())
    by_file: dict[str, list[str]] = {}
    for row in rows:
        by_file.setdefault(row["file"], []).append(row["values"]["Code"])
    return by_file


FAULTS: dict[str, str] = {
    "order-01.md": "500",
    "order-02.md": "reset",
    "order-03.md": "hang",
    "order-04.md": "not json",
    "order-05.md": "other shape",
    "order-06.md": "429",
    "order-07.md": "429 retry-after",
    "order-08.md": "429 twice",  # a storm that passes within the retries
    "order-09.md": "reset once",  # a dropped connection the retry gets past
    "order-10.md": "trickle",  # an answer a byte at a time: no single read times out
}


def faulty(seen: Seen, endpoint: ScriptedEndpoint) -> Reply:
    if seen.reads_request:
        return answer(READING)
    fault = FAULTS.get(seen.document or "")
    earlier = len(attempts(endpoint, seen.document or "")) - 1  # requests for it before this one
    if fault == "500":
        return failure(500, "The server had an error while processing your request.")
    if fault == "reset" or (fault == "reset once" and earlier == 0):
        return connection_reset()
    if fault == "hang":
        return hang()
    if fault == "trickle":
        return trickled(rows_of(seen))
    if fault == "not json":
        return malformed('{"records": [{"Code": "01-1", "Item": "Bolt')
    if fault == "other shape":
        return malformed(json.dumps({"rows": [["01-1", "Bolt", "1"]], "comment": "here you go"}))
    if fault == "429" or (fault == "429 twice" and earlier < 2):
        return failure(429, "Rate limit reached for requests", code="rate_limit_exceeded")
    if fault == "429 retry-after":
        return failure(429, "Rate limit reached, retry after 1 s", code="rate_limit_exceeded", retry_after=1)
    return answer(rows_of(seen))


async def test_each_failing_document_is_listed_with_its_reason_and_every_other_one_finishes(  # type: ignore[no-untyped-def]
    svc, endpoint, orders
) -> None:
    endpoint.reset(lambda seen: faulty(seen, endpoint))
    values = await bounded(run_extraction(REQUEST, profile(endpoint, "scripted-faults"), confirm="auto"))
    answer_ = values["answer"]
    assert answer_["status"] == "done", answer_["message"]

    # every document without a lasting fault finished with all of its rows
    finished = [f for f in orders if f not in FAULTS or FAULTS[f] in ("429 twice", "reset once")]
    by_file = table_rows(svc, values)
    assert sorted(by_file) == finished, (by_file, answer_["message"])
    assert all(len(codes) == 3 for codes in by_file.values())
    assert answer_["summary"]["extracted"] == len(finished) and answer_["summary"]["rows"] == 3 * len(finished)

    # each failing document is listed once, with what went wrong in words
    failed = {f["file"]: f["error"] for f in answer_["summary"]["failed"]}
    endpoint_url = endpoint.base_url
    assert failed == {
        "order-01.md": f"the model endpoint kept failing (HTTP 500) after {ATTEMPTS} attempts",
        "order-02.md": f"the connection to the model endpoint at {endpoint_url} was lost (after {ATTEMPTS} attempts)",
        "order-03.md": f"the model endpoint did not answer within {TIMEOUT:g} s (after {ATTEMPTS} attempts)",
        "order-04.md": "the model's answer did not match the requested structure twice (it was not valid JSON)",
        "order-05.md": "the model's answer did not match the requested structure twice ('records' is missing)",
        "order-06.md": f"the model endpoint kept answering 429 (rate limited) after {ATTEMPTS} attempts",
        "order-07.md": f"the model endpoint kept answering 429 (rate limited) after {ATTEMPTS} attempts",
        "order-10.md": f"the model endpoint did not answer within {TIMEOUT:g} s (after {ATTEMPTS} attempts)",
    }
    message = answer_["message"]
    assert f"Failed ({len(failed)}):" in message
    assert all(f"{file}: {error}" in message for file, error in failed.items())

    # retries are bounded: the client's own (max_retries) for transport and status faults, one
    # more question for an answer of the wrong shape, and none for a document that finished
    count = {file: len(attempts(endpoint, file)) for file in orders}
    assert count == {
        **{file: 1 for file in orders},
        **{file: ATTEMPTS for file, fault in FAULTS.items() if fault in ("500", "reset", "hang", "trickle", "429")},
        "order-07.md": ATTEMPTS, "order-04.md": 2, "order-05.md": 2, "order-08.md": 3, "order-09.md": 2,
    }
    # Retry-After is honoured between the attempts of the document that asked for it
    waited = attempts(endpoint, "order-07.md")
    assert all(later.started - earlier.ended >= 1.0 for earlier, later in zip(waited, waited[1:]))


async def test_a_429_storm_over_every_document_passes_and_the_run_completes(svc, endpoint, orders) -> None:  # type: ignore[no-untyped-def]
    """Every document's first two requests meet 429 (half of them with Retry-After); the third passes."""

    def script(seen: Seen) -> Reply:
        if seen.reads_request:
            return answer(READING)
        earlier = len(attempts(endpoint, seen.document or "")) - 1
        if earlier < 2:
            with_wait = int((seen.document or "0")[6:8]) % 2 == 1
            return failure(429, "Rate limit reached", code="rate_limit_exceeded", retry_after=1 if with_wait else None)
        return answer(rows_of(seen))

    endpoint.reset(script)
    values = await bounded(run_extraction(REQUEST, profile(endpoint, "scripted-storm"), confirm="auto"))
    answer_ = values["answer"]
    assert answer_["status"] == "done" and answer_["summary"]["failed"] == [], answer_["message"]
    assert answer_["summary"]["rows"] == 3 * DOCUMENTS
    assert sorted(table_rows(svc, values)) == orders
    assert {file: [s.status for s in attempts(endpoint, file)] for file in orders} == {file: [429, 429, 200] for file in orders}
