"""More than 100 documents: a sample of five first, the whole selection after a yes.

A folder of 130 small order files (eight of them with a cable) is ingested with the real
ingest; every run goes through the real graph on the session's PostgreSQL with the offline
engine, and the HTTP tests through ``kea serve``'s app under uvicorn.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import pytest
from http_server import EventReader, serve_app

from evals.tables import rows_from_csv
from core.profile import Profile
from core.result import build_result
from graph.runs import run_extraction
from tools.storage.rows import table_key

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
REQUEST = "Item and price of every row where the item contains cable"
PARTS = Profile(collections=["parts130"])
CABLES = [7, 23, 39, 55, 71, 87, 103, 119]  # the orders with a cable


def _path(i: int) -> str:
    return f"parts/{2024 if i < 70 else 2025}/{'south' if i % 2 else 'north'}/order-{i:03d}.csv"


@pytest.fixture(scope="module")
def parts(kb, kea_home: Path) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    """130 order files, ingested as collection parts130; every order has a bolt, eight a cable."""
    from tools.knowledge.ingest import ingest

    folder = kea_home / "parts130"
    for i in range(130):
        file = folder / _path(i)
        file.parent.mkdir(parents=True, exist_ok=True)
        lines = ["Item,Quantity,Price", f"steel bolt M{i % 12 + 3},{i % 7 + 1},{i % 9 + 1}.25"]
        if i in CABLES:
            lines.append(f"copper cable {i} m,1,{i}.50")
        file.write_text("\n".join(lines) + "\n", encoding="utf-8")
    report = ingest(kb, [folder], "parts130")
    assert len(report.indexed) == 130, report.skipped
    kb.grant("parts130", "sam")
    kb.grant("parts130", "tess")
    # in scope order (collection, path): the cables of 2024/south, then of 2025/south
    return {"cables": [_path(i) for i in CABLES]}


def _cable_sample(files: list[str], parts: dict[str, list[str]]) -> bool:
    """Five documents, each one of the eight that hold wanted rows (ranked by meaning)."""
    return len(files) == len(set(files)) == 5 and set(files) <= set(parts["cables"])


def _yes(form: dict[str, Any]) -> str:
    return "yes"


def _rows(svc, values: dict[str, Any]) -> list[dict[str, Any]]:  # type: ignore[no-untyped-def]
    with svc.objects.open(table_key(values["extraction_id"])) as handle:
        return rows_from_csv(handle.read())[1]


def _pending(svc, thread: str) -> list[dict[str, Any]]:  # type: ignore[no-untyped-def]
    import psycopg
    from psycopg.rows import dict_row

    with psycopg.connect(svc.database_url, row_factory=dict_row) as conn:
        return conn.execute(
            "SELECT profile, user_id, state, cardinality(document_ids) AS documents, sample_ids, reading"
            " FROM pending_selections WHERE thread_id = %s",
            (thread,),
        ).fetchall()


async def test_a_large_selection_answers_with_a_sample_and_a_yes_reads_the_rest_once(parts, svc, reads) -> None:  # type: ignore[no-untyped-def]
    forms: list[dict[str, Any]] = []
    shown = await run_extraction(REQUEST, PARTS, answer=lambda form: forms.append(form) or "yes")
    assert "I read a sample of 5 first" in forms[0]["text"]  # said before anything is read
    sample = build_result(shown)
    assert sample.status == "sample", sample.message
    assert _cable_sample(sample.documents.sample, parts) and sample.documents.in_scope == 130
    assert sample.documents.extracted == 5 and len(reads) == 5  # only the sample was read
    assert [r[0] for r in sample.preview.rows] == sample.documents.sample and all("cable" in r[1] for r in sample.preview.rows)
    assert sample.preview.note and "sample" in sample.preview.note.lower()
    assert sample.message.startswith("This is a sample") and "Columns: Item, Price." in sample.message
    assert "Rows: rows where Item contains cable." in sample.message and "Documents: 130" in sample.message
    assert "Estimated time for the other 125" in sample.message and 'Reply "yes"' in sample.message
    assert sample.estimated_minutes is not None and sample.estimated_minutes >= 0
    (waiting,) = _pending(svc, shown["thread_id"])
    assert waiting["state"] == "pending" and waiting["documents"] == 130 and len(waiting["sample_ids"]) == 5
    assert set(waiting) == {"profile", "user_id", "state", "documents", "sample_ids", "reading"}
    assert waiting["reading"]["columns"] == ["Item", "Price"]  # the confirmed reading, never rows

    done = await run_extraction("Yes.", PARTS, thread_id=shown["thread_id"])
    result = build_result(done)
    assert result.status == "done", result.message
    assert result.columns == ["Item", "Price"] and result.documents.extracted == 130
    assert _cable_sample(result.documents.sample, parts)
    assert sorted(r["file"] for r in _rows(svc, done)) == parts["cables"]
    assert result.rows == 8 and "Read 130 of 130 documents" in result.message
    counted = Counter(reads)
    assert len(counted) == 130 and set(counted.values()) == {1}  # the sample's documents were not read again
    assert _pending(svc, shown["thread_id"])[0]["state"] == "taken"

    again = await run_extraction("yes", PARTS, thread_id=shown["thread_id"])
    assert again["answer"]["status"] == "answered" and "confirmed already" in again["answer"]["message"]
    assert len(reads) == 130


async def test_two_concurrent_yes_on_the_graph_read_each_document_once(parts, reads) -> None:  # type: ignore[no-untyped-def]
    shown = await run_extraction(REQUEST, PARTS, answer=_yes)
    both = await asyncio.gather(*(run_extraction("yes", PARTS, thread_id=shown["thread_id"]) for _ in range(2)))
    answers = sorted((values["answer"] for values in both), key=lambda a: a["status"])
    assert [a["status"] for a in answers] == ["answered", "done"] and "confirmed already" in answers[0]["message"]
    assert answers[1]["summary"]["rows"] == 8
    counted = Counter(reads)
    assert len(counted) == 130 and set(counted.values()) == {1}


async def test_a_new_request_replaces_the_waiting_selection(parts, svc, reads) -> None:  # type: ignore[no-untyped-def]
    shown = await run_extraction(REQUEST, PARTS, answer=_yes)
    thread = shown["thread_id"]
    assert shown["answer"]["status"] == "sample" and _pending(svc, thread)
    paused = await run_extraction("Item and quantity of every row where the item contains bolt", PARTS, thread_id=thread)
    assert paused["__interrupt__"] and not _pending(svc, thread)  # asked back; the old selection is gone
    read_before = len(reads)
    nothing = await run_extraction("yes", PARTS, thread_id=thread)
    assert nothing["answer"]["status"] == "answered" and "No sample is waiting" in nothing["answer"]["message"]
    assert len(reads) == read_before


async def test_no_declines_the_waiting_selection(parts, svc, reads) -> None:  # type: ignore[no-untyped-def]
    shown = await run_extraction(REQUEST, PARTS, answer=_yes)
    declined = await run_extraction("no", PARTS, thread_id=shown["thread_id"])
    assert declined["answer"]["status"] == "declined" and len(reads) == 5
    assert not _pending(svc, shown["thread_id"])


async def test_another_profile_or_user_does_not_see_a_threads_selection(parts, svc, reads) -> None:  # type: ignore[no-untyped-def]
    desk = Profile(name="desk-a", collections=["parts130"])
    shown = await run_extraction(REQUEST, desk, answer=_yes)
    thread = shown["thread_id"]
    assert shown["answer"]["status"] == "sample"
    for other in (Profile(name="desk-b", collections=["parts130"]), Profile(name="desk-a", user="tess", collections=["parts130"])):
        nothing = await run_extraction("yes", other, thread_id=thread)
        assert "No sample is waiting" in nothing["answer"]["message"]
    assert len(reads) == 5 and _pending(svc, thread)[0]["state"] == "pending"
    done = await run_extraction("yes", desk, thread_id=thread)
    assert done["answer"]["status"] == "done" and len(reads) == 130


async def test_auto_confirm_reads_the_whole_selection_and_names_the_sample(parts, svc, reads) -> None:  # type: ignore[no-untyped-def]
    values = await run_extraction(REQUEST, Profile(collections=["parts130"], confirm="auto"))
    result = build_result(values)
    assert result.status == "done" and result.documents.extracted == 130 and result.rows == 8
    assert _cable_sample(result.documents.sample, parts) and len(reads) == len(set(reads)) == 130
    assert "confirmed automatically" in result.message
    assert not _pending(svc, values["thread_id"])


async def test_above_max_documents_total_only_narrowing_is_offered(parts, corpus, svc, reads) -> None:  # type: ignore[no-untyped-def]
    both = Profile(collections=["parts130", "corpus"], max_documents_total=200)
    for confirm in ("ask", "auto"):
        values = await run_extraction("Item and price of every row", both, confirm=confirm, answer=_yes)
        result = build_result(values)
        assert result.status == "needs_narrowing" and reads == []
        assert result.breakdown is not None
        collections = {c.name: c.documents for c in result.breakdown.collections}
        assert collections["parts130"] == 130 and collections["corpus"] > 70
        assert {"2024", "2025"} <= {y.name for y in result.breakdown.years}
        assert ("parts", 130) in [(f.name, f.documents) for f in result.breakdown.folders]
        assert "by folder: " in result.message and "by year: " in result.message and "by collection: " in result.message
        assert "parts130 (130)" in result.message and not _pending(svc, values["thread_id"])


def test_cli_yes_reads_everything_and_lists_the_sample(parts) -> None:  # type: ignore[no-untyped-def]
    done = subprocess.run(
        [sys.executable, "-m", "server.cli", "extract", REQUEST, "--collection", "parts130", "--yes", "--json"],
        capture_output=True, text=True, cwd=ROOT, env=ENV,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["status"] == "done" and result["rows"] == 8
    assert result["documents"]["extracted"] == 130 and _cable_sample(result["documents"]["sample"], parts)
    assert "reading a sample of 5 first" in done.stderr


def test_cli_asks_after_the_sample_and_a_later_yes_reads_the_rest(parts) -> None:  # type: ignore[no-untyped-def]
    command = [sys.executable, "-m", "server.cli", "extract", REQUEST, "--collection", "parts130", "--json"]
    shown = subprocess.run(command, input="\n\n\n\n", capture_output=True, text=True, cwd=ROOT, env=ENV)
    assert shown.returncode == 0, shown.stderr
    sample = json.loads(shown.stdout)
    assert sample["status"] == "sample" and _cable_sample(sample["documents"]["sample"], parts)
    assert f"kea extract yes --thread {sample['thread']}" in shown.stderr
    later = subprocess.run(
        [sys.executable, "-m", "server.cli", "extract", "yes", "--thread", sample["thread"], "--collection", "parts130", "--json"],
        capture_output=True, text=True, cwd=ROOT, env=ENV,
    )
    assert later.returncode == 0, later.stderr
    result = json.loads(later.stdout)
    assert result["status"] == "done" and result["documents"]["extracted"] == 130 and result["rows"] == 8


# -- over HTTP ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def http(svc, parts) -> Any:  # type: ignore[no-untyped-def]
    from server.app import create_app
    from server.cli_http import _with_accounts

    keys = {user: _with_accounts(lambda accounts, u=user: accounts.create_key(u))[1] for user in ("sam", "tess")}
    with serve_app(create_app(svc)) as url:
        yield url, {user: {"Authorization": f"Bearer {key}"} for user, key in keys.items()}


async def _post(client: httpx.AsyncClient, path: str, body: dict[str, Any], headers: dict[str, str]) -> list[tuple[str, dict[str, Any]]]:
    """The Server-Sent Events of one POST, read to the end."""
    reader = EventReader()
    async with client.stream("POST", path, json=body, headers=headers) as response:
        assert response.status_code == 200, await response.aread()
        async for line in response.aiter_lines():
            reader.add(line)
    return reader.events


async def test_two_concurrent_yes_over_http_extract_the_selection_once(http, svc, reads) -> None:  # type: ignore[no-untyped-def]
    url, auth = http
    async with httpx.AsyncClient(base_url=url, timeout=120) as client:
        (name, asked), = await _post(client, "/v1/runs", {"message": REQUEST}, auth["sam"])
        assert name == "questions"
        thread = asked["thread"]
        events = await _post(client, f"/v1/runs/{thread}/resume", {"reply": "yes"}, auth["sam"])
        name, sample = events[-1]
        assert name == "result" and sample["status"] == "sample" and sample["documents"]["sample"]
        assert sample["estimated_minutes"] is not None and len(reads) == 5
        assert any(n == "progress" and e["event"] == "sample_chosen" for n, e in events)

        # another user cannot confirm it: the thread is not theirs
        foreign = await client.post("/v1/runs", json={"message": "yes", "thread": thread}, headers=auth["tess"])
        assert foreign.status_code == 404

        both = await asyncio.gather(*[_post(client, "/v1/runs", {"message": "yes", "thread": thread}, auth["sam"]) for _ in range(2)])
    results = sorted((events[-1][1] for events in both), key=lambda r: r["status"])
    assert [r["status"] for r in results] == ["answered", "done"]
    assert "confirmed already" in results[0]["message"]
    assert results[1]["documents"]["extracted"] == 130 and results[1]["rows"] == 8
    assert results[1]["documents"]["sample"] == sample["documents"]["sample"]
    counted = Counter(reads)
    assert len(counted) == 130 and set(counted.values()) == {1}  # nothing was read twice
    lines = httpx.get(results[1]["csv"]).content.decode("utf-8-sig").splitlines()
    assert lines[0].startswith("File,Item,Price,") and sum("copper cable" in line for line in lines) == 8


async def test_confirm_auto_in_the_run_api_reads_everything(http, reads) -> None:  # type: ignore[no-untyped-def]
    url, auth = http
    async with httpx.AsyncClient(base_url=url, timeout=120) as client:
        events = await _post(client, "/v1/runs", {"message": REQUEST, "confirm": "auto"}, auth["sam"])
    name, result = events[-1]
    assert name == "result" and result["status"] == "done" and result["documents"]["extracted"] == 130
    assert len(result["documents"]["sample"]) == 5 and "questions" not in [n for n, _ in events]


def test_a_chat_shows_the_sample_and_yes_answers_with_the_whole_table(http, reads) -> None:  # type: ignore[no-untyped-def]
    from openai import OpenAI

    url, auth = http
    client = OpenAI(base_url=f"{url}/v1", api_key=auth["sam"]["Authorization"].split()[1], max_retries=0, timeout=120)
    messages: list[dict[str, str]] = []
    answers = []
    for text in (REQUEST, "yes", "yes"):
        messages.append({"role": "user", "content": text})
        completion = client.chat.completions.create(model="kea-document-tables", messages=messages)  # type: ignore[arg-type]
        answers.append(completion.choices[0].message.content or "")
        messages.append({"role": "assistant", "content": answers[-1]})
    form, sample, table = answers
    assert form.startswith("Before I read any document")
    assert sample.startswith("This is a sample") and "| File | Item | Price |" in sample and "The sample's table: [table.csv](" in sample
    assert "Read 130 of 130 documents" in table and table.count("copper cable") == 8
    assert len(set(reads)) == 130
