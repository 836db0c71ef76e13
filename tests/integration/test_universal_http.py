"""The Universal Agent through ``kea serve``: the openai client, the run API and the Open WebUI pipe.

The model is the scripted OpenAI-compatible server (HTTP, tool calls); the extraction inside
runs on the offline engine; Kea's app, database and files are real.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from http_server import serve_app
from openai import OpenAI
from evals.endpoint import Reply, ScriptedEndpoint, Seen, serve, text, tool_call

from server.openwebui.kea_pipe import Pipe
from tools.storage.rows import table_key

ROOT = Path(__file__).resolve().parents[2]
LINK = re.compile(r"\[table\.csv\]\((http[^)]+)\)")
SLAS = "Priority, response time and resolution time from the SLAs"
CLOSING = "The SLA times are in the table below; the unsure rows are marked."
USER = "uma@example.com"


def sla_arguments() -> dict[str, Any]:
    return {
        "request": SLAS,
        "selection": {"folders": ["slas"]},
        "columns": ["Priority", "Response time", "Resolution time"],
    }


def agent_script(seen: Seen) -> Reply:
    """The model: extract_records for a new request, then one closing sentence (or an apology)."""
    last = seen.body["messages"][-1]
    if last["role"] == "user":
        return tool_call("extract_records", sla_arguments())
    if "declined" in str(last.get("content")):
        return text("Understood, nothing was read.")
    return text(CLOSING)


@pytest.fixture(scope="module")
def endpoint() -> Iterator[ScriptedEndpoint]:
    scripted = ScriptedEndpoint()
    with serve(scripted) as url:
        before = os.environ.get("KEA_ALLOWED_BASE_URLS")
        os.environ["KEA_ALLOWED_BASE_URLS"] = url  # the operator allows this endpoint
        try:
            yield scripted
        finally:
            if before is None:
                os.environ.pop("KEA_ALLOWED_BASE_URLS", None)
            else:
                os.environ["KEA_ALLOWED_BASE_URLS"] = before


@pytest.fixture(scope="module")
def keys(svc, corpus) -> Iterator[dict[str, str]]:  # type: ignore[no-untyped-def]
    from server.cli_http import _with_accounts

    svc.kb.grant("corpus", USER)
    made = {
        "user": _with_accounts(lambda accounts: accounts.create_key(USER))[1],
        "pipe": subprocess.run(
            [sys.executable, "-m", "server.cli", "keys", "create", "--service", "open-webui-universal"],
            capture_output=True, text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
        ).stdout.strip(),
    }
    try:
        yield made
    finally:
        with psycopg.connect(svc.database_url, autocommit=True) as conn:  # later tests expect no live key
            conn.execute("UPDATE api_keys SET revoked_at = now() WHERE user_id IN (%s, 'open-webui-universal')", (USER,))


@pytest.fixture(scope="module")
def kea(svc, endpoint, keys) -> Iterator[str]:  # type: ignore[no-untyped-def]
    from server.app import create_app
    from server.profiles import SHIPPED, Profiles

    universal = {**SHIPPED["universal"], "model": "scripted", "base_url": endpoint.base_url, "engine": "offline"}
    with serve_app(create_app(svc, profiles=Profiles({**SHIPPED, "universal": universal}))) as url:
        yield url


def _client(url: str, key: str) -> OpenAI:
    return OpenAI(base_url=f"{url}/v1", api_key=key, max_retries=0)


def _converse(client: OpenAI, *turns: str) -> list[str]:
    messages: list[dict[str, str]] = []
    answers = []
    for said in turns:
        messages.append({"role": "user", "content": said})
        reply = client.chat.completions.create(model="kea-universal", messages=messages)  # type: ignore[arg-type]
        answers.append(reply.choices[0].message.content or "")
        messages.append({"role": "assistant", "content": answers[-1]})
    return answers


def test_the_models_include_the_universal_templates(kea, keys) -> None:  # type: ignore[no-untyped-def]
    listed = {m.id for m in _client(kea, keys["user"]).models.list()}
    assert {"kea-document-tables", "kea-universal", "kea-data-analyst", "kea-workplace-assistant"} <= listed


def test_the_conversation_asks_the_form_as_text_and_yes_brings_the_table(kea, keys, endpoint, svc, corpus) -> None:  # type: ignore[no-untyped-def]
    endpoint.reset(agent_script)
    form, answer = _converse(_client(kea, keys["user"]), SLAS, "yes")
    assert form.startswith("Before I read any document") and "1. Location:" in form and "2. Filter Condition:" in form
    assert answer.startswith(CLOSING + "\n\n")
    assert "| Priority | Response time | Resolution time |" in answer.split(CLOSING)[1]
    (link,) = LINK.findall(answer)
    download = httpx.get(link)
    assert download.status_code == 200
    extraction_id = link.split("/files/")[1].split("/")[0]
    with svc.objects.open(table_key(extraction_id)) as handle:
        assert download.content == handle.read()
    offered = {t["function"]["name"] for t in endpoint.requests[0].body["tools"]}
    assert "extract_records" in offered and "rank_knowledge_documents" in offered
    tool_result = next(m for m in endpoint.requests[-1].body["messages"] if m["role"] == "tool")
    assert "First 5 of" in tool_result["content"] and "http" not in tool_result["content"]


def test_streamed_answers_carry_the_extractions_progress(kea, keys, endpoint) -> None:  # type: ignore[no-untyped-def]
    endpoint.reset(agent_script)
    client = _client(kea, keys["user"])
    messages = [{"role": "user", "content": SLAS}]
    form = client.chat.completions.create(model="kea-universal", messages=messages).choices[0].message.content or ""  # type: ignore[arg-type]
    messages += [{"role": "assistant", "content": form}, {"role": "user", "content": "yes"}]
    pieces = [
        chunk.choices[0].delta.content or ""
        for chunk in client.chat.completions.create(model="kea-universal", messages=messages, stream=True)  # type: ignore[arg-type]
        if chunk.choices
    ]
    streamed = "".join(pieces)
    assert "Reading 3 documents…" in streamed and "Read slas/" in streamed
    assert streamed.index("Read slas/") < streamed.index(CLOSING) and LINK.search(streamed)


def test_no_reaches_the_model_over_http(kea, keys, endpoint) -> None:  # type: ignore[no-untyped-def]
    endpoint.reset(agent_script)
    _, answer = _converse(_client(kea, keys["user"]), SLAS, "no")
    assert answer == "Understood, nothing was read."


def _events(response: httpx.Response) -> list[tuple[str, dict[str, Any]]]:
    found, name = [], "message"
    for line in response.text.splitlines():
        if line.startswith("event:"):
            name = line[6:].strip()
        elif line.startswith("data:"):
            found.append((name, json.loads(line[5:])))
    return found


def test_the_run_api_streams_questions_progress_and_the_result(kea, keys, endpoint) -> None:  # type: ignore[no-untyped-def]
    endpoint.reset(agent_script)
    auth = {"Authorization": f"Bearer {keys['user']}"}
    started = httpx.post(f"{kea}/v1/runs", json={"message": SLAS, "model": "kea-universal"}, headers=auth, timeout=60)
    (asked,) = [data for name, data in _events(started) if name == "questions"]
    assert [q["header"] for q in asked["form"]["questions"]] == ["Location", "Filter Condition", "Values to extract"]
    waiting = httpx.get(f"{kea}/v1/runs/{asked['thread']}", headers=auth).json()
    assert waiting["status"] == "waiting"
    resumed = httpx.post(
        f"{kea}/v1/runs/{asked['thread']}/resume", json={"reply": "yes", "interrupt_id": asked["interrupt_id"]},
        headers=auth, timeout=60,
    )
    events = _events(resumed)
    names = [name for name, _ in events]
    assert "progress" in names and names[-1] == "result"
    assert any(data.get("event") == "document_done" for name, data in events if name == "progress")
    result = events[-1][1]
    assert result["status"] == "answered" and result["markdown"].startswith(CLOSING)
    assert result["csv"].startswith("http") and len(result["tables"]) == 1 and result["tables"][0]["status"] == "done"
    assert result["markdown"].endswith(result["tables"][0]["markdown"])
    state = httpx.get(f"{kea}/v1/runs/{asked['thread']}", headers=auth).json()
    # the same answer; its links are signed afresh on each read (their expiry may be a second later)
    unsigned = lambda text: re.sub(r"\?expires=\d+&sig=[0-9a-f]+", "", text)  # noqa: E731
    assert state["status"] == "answered" and unsigned(state["result"]["markdown"]) == unsigned(result["markdown"])


async def test_the_open_webui_pipe_renders_the_universal_answer(kea, keys, endpoint) -> None:  # type: ignore[no-untyped-def]
    endpoint.reset(agent_script)
    pipe = Pipe()
    pipe.valves = Pipe.Valves(KEA_URL=kea, KEA_API_KEY=keys["pipe"], ATTACH_CSV=False)
    statuses: list[str] = []

    async def emit(event: dict[str, Any]) -> None:
        if event["type"] == "status":
            statuses.append(event["data"]["description"])

    async def dialog(event: dict[str, Any]) -> dict[str, Any]:
        questions = event["data"]["questions"]
        return {"status": "answered", "answers": {q["id"]: {"type": "option", "option_index": 0, "label": q["options"][0]["label"]} for q in questions}}

    assert {"id": "kea-universal", "name": "Kea · universal"} in await pipe.pipes()
    answer = await pipe.pipe(
        {"model": "kea.kea-universal", "messages": [{"role": "user", "content": SLAS}]},
        __user__={"id": "id-uma", "email": USER, "name": "uma"}, __event_emitter__=emit, __event_call__=dialog,
        __chat_id__=f"chat-{os.urandom(6).hex()}", __message_id__="m1",
    )
    said = "".join([piece async for piece in answer])  # type: ignore[union-attr]
    assert said.startswith("You chose:\n- **Location:**") and CLOSING in said and LINK.search(said)
    assert any(s.startswith("Read slas/") for s in statuses), statuses


def test_without_a_model_the_universal_model_says_so_in_one_sentence(svc, keys) -> None:  # type: ignore[no-untyped-def]
    from server.app import create_app

    with serve_app(create_app(svc)) as url:  # the shipped profiles; no KEA_MODEL in the tests
        (answer,) = _converse(_client(url, keys["user"]), SLAS)
    assert "kea-document-tables" in answer and "offline engine" in answer
    assert answer.count(". ") == 0 and answer.endswith(".")


def test_the_cli_runs_a_universal_agent_profile(endpoint, svc, corpus, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The CLI loads profiles as kea serve does (by name, or a .json file) and runs the graph a
    profile names: a Universal Agent profile answers with the model's text and its tables."""
    from server.profiles import SHIPPED

    endpoint.reset(agent_script)
    profile = tmp_path / "assistant.json"
    profile.write_text(json.dumps({**SHIPPED["universal"], "model": "scripted", "base_url": endpoint.base_url,
                                   "engine": "offline", "collections": ["corpus"]}), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "server.cli", "extract", SLAS, "--profile", str(profile), "--yes", "--json"],
        capture_output=True, text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout)
    assert result["message"] == CLOSING and result["columns"] == ["Priority", "Response time", "Resolution time"]
    assert result["rows"] > 0 and result["csv"]
    unknown = subprocess.run([sys.executable, "-m", "server.cli", "extract", SLAS, "--profile", "no-such-profile"],
                             capture_output=True, text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    said = " ".join(unknown.stderr.split())
    assert unknown.returncode == 1 and "No profile 'no-such-profile'; the profiles are document-tables, universal" in said
