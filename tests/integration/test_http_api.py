"""``kea serve`` over HTTP: the official openai client and plain httpx against the real app.

The app runs under uvicorn on a loopback port, on the session's PostgreSQL and file store,
with the offline engine (the default): no fake anywhere.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from http_server import EventReader, MovingClock, serve_app
from openai import NotFoundError, OpenAI

from core.protocol import ProgressEvent, QuestionsEvent
from core.result import RunResult

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
NORDWERK = "Every position on Nordwerk's 2025 invoices with description, quantity and unit price"
SLAS = "Priority, response time and resolution time from the SLAs"
MODEL = "kea-document-tables"
LINK = re.compile(r"\[table\.csv\]\((http[^)]+)\)")


@dataclass
class Server:
    url: str
    clock: MovingClock
    keys: dict[str, str]

    def client(self, who: str, **headers: str) -> OpenAI:
        return OpenAI(base_url=f"{self.url}/v1", api_key=self.keys[who], max_retries=0, default_headers=headers or None)

    def auth(self, who: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.keys[who]}"}


@pytest.fixture(scope="module")
def app_server(svc, corpus) -> Iterator[tuple[str, MovingClock]]:  # type: ignore[no-untyped-def]
    from server.app import create_app

    clock = MovingClock()
    with serve_app(create_app(svc, clock=clock)) as url:
        yield url, clock


def _kea(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "server.cli", *args], capture_output=True, text=True, cwd=ROOT, env=ENV)


@pytest.fixture
def no_keys(svc) -> Iterator[None]:  # type: ignore[no-untyped-def]
    """No live API key while the test runs (others' keys are set aside and restored after)."""
    import psycopg

    with psycopg.connect(svc.database_url, autocommit=True) as conn:
        aside = [r[0] for r in conn.execute("UPDATE api_keys SET revoked_at = now() WHERE revoked_at IS NULL RETURNING id")]
    try:
        yield
    finally:
        with psycopg.connect(svc.database_url, autocommit=True) as conn:
            conn.execute("UPDATE api_keys SET revoked_at = NULL WHERE id = ANY(%s)", (aside,))


def test_without_a_key_only_the_local_user_is_served_until_a_key_exists(app_server, svc, no_keys) -> None:  # type: ignore[no-untyped-def]
    import hashlib

    import psycopg

    url, _ = app_server
    assert httpx.get(f"{url}/v1/models").status_code == 200  # no key yet: the local user, on loopback
    made = _kea("keys", "create", "dora")
    assert made.returncode == 0, made.stderr
    key = made.stdout.strip()
    assert key.startswith("kea_") and "shown only now" in made.stderr
    with psycopg.connect(svc.database_url) as conn:
        stored = conn.execute("SELECT key_sha256 FROM api_keys WHERE user_id = 'dora'").fetchall()
    assert stored == [(hashlib.sha256(key.encode()).hexdigest(),)]  # the key itself is kept nowhere
    refused = httpx.get(f"{url}/v1/models")
    assert refused.status_code == 401 and "needs an API key" in refused.json()["error"]["message"]
    assert httpx.get(f"{url}/v1/models", headers={"Authorization": f"Bearer {key}"}).status_code == 200
    listed = _kea("keys", "list")
    assert "dora" in listed.stdout and key not in listed.stdout  # only the first characters are shown
    key_id = next(line.split()[1] for line in listed.stdout.splitlines() if "dora" in line)
    other = _kea("keys", "create", "erin")
    assert other.returncode == 0, other.stderr
    assert _kea("keys", "revoke", key_id).returncode == 0
    assert httpx.get(f"{url}/v1/models", headers={"Authorization": f"Bearer {key}"}).status_code == 401  # revoked
    erin_id = next(line.split()[1] for line in _kea("keys", "list").stdout.splitlines() if "erin" in line)
    assert _kea("keys", "revoke", erin_id).returncode == 0
    assert httpx.get(f"{url}/v1/models").status_code == 200  # no live key again
    # keyless on loopback, any bearer is the local user, as local OpenAI-compatible servers take any key
    assert httpx.get(f"{url}/v1/models", headers={"Authorization": "Bearer sk-none"}).status_code == 200


async def test_without_a_key_a_caller_off_this_machine_is_refused(svc, no_keys) -> None:  # type: ignore[no-untyped-def]
    from server.app import create_app

    app = create_app(svc)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app, client=("10.1.2.3", 40000))
        async with httpx.AsyncClient(transport=transport, base_url="http://kea") as client:
            response = await client.get("/v1/models")
    assert response.status_code == 401 and "only on this machine" in response.json()["error"]["message"]


def test_without_a_key_a_request_through_a_proxy_is_not_local(app_server, no_keys) -> None:  # type: ignore[no-untyped-def]
    url, _ = app_server
    proxied = httpx.get(f"{url}/v1/models", headers={"X-Forwarded-For": "203.0.113.9"})
    assert proxied.status_code == 401 and "only on this machine" in proxied.json()["error"]["message"]


@pytest.fixture(scope="module")
def server(app_server, kb) -> Server:  # type: ignore[no-untyped-def]
    from server.cli_http import _with_accounts

    keys = {}
    for user in ("ann", "ben", "cleo"):
        keys[user] = _with_accounts(lambda accounts, u=user: accounts.create_key(u))[1]
    keys["pipe"] = _with_accounts(lambda accounts: accounts.create_key("open-webui", service=True))[1]
    kb.grant("corpus", "ann")
    kb.grant("corpus", "ben")  # cleo may read nothing
    url, clock = app_server
    return Server(url, clock, keys)


def _ask(client: OpenAI, messages: list[dict[str, str]], **extra: Any) -> tuple[str, str]:
    """One non-streaming turn: (the answer's text, its thread)."""
    raw = client.chat.completions.with_raw_response.create(model=MODEL, messages=messages, **extra)  # type: ignore[arg-type]
    completion = raw.parse()
    thread = raw.headers["x-kea-thread"]
    assert completion.metadata["thread_id"] == thread  # type: ignore[index]
    return completion.choices[0].message.content or "", thread


def _converse(client: OpenAI, *turns: str) -> tuple[list[str], list[str]]:
    """A conversation of user turns; returns every answer and every answer's thread."""
    messages: list[dict[str, str]] = []
    answers, threads = [], []
    for text in turns:
        messages.append({"role": "user", "content": text})
        answer, thread = _ask(client, messages)
        messages.append({"role": "assistant", "content": answer})
        answers.append(answer)
        threads.append(thread)
    return answers, threads


def _stream(client: OpenAI, messages: list[dict[str, str]]) -> str:
    stream = client.chat.completions.create(model=MODEL, messages=messages, stream=True)  # type: ignore[arg-type]
    return "".join(chunk.choices[0].delta.content or "" for chunk in stream if chunk.choices)


def test_models_name_one_model_per_profile(server) -> None:  # type: ignore[no-untyped-def]
    assert MODEL in [m.id for m in server.client("ann").models.list()]


def test_a_request_is_asked_back_and_yes_answers_with_a_preview_and_a_link(server) -> None:  # type: ignore[no-untyped-def]
    (form, answer), threads = _converse(server.client("ann"), NORDWERK, "yes")
    assert form.startswith("Before I read any document") and "1. Location:" in form and 'Reply "yes"' in form
    assert threads[0] == threads[1]  # the reply went to the thread that asked
    assert "Read 11 of 11 documents in scope" in answer
    assert "| File | Description | Quantity | Unit price | Match | Page |" in answer
    assert "| invoices/2025/nordwerk-2025-" in answer and "file://" not in answer
    link = LINK.search(answer).group(1)  # type: ignore[union-attr]
    download = httpx.get(link)  # a plain client, no key: the signed link is the access
    assert download.status_code == 200 and download.headers["content-type"].startswith("text/csv")
    assert download.content.startswith("\ufeffFile,Description,Quantity,Unit price,Match,Page,Evidence".encode())
    assert "nordwerk" in download.content.decode("utf-8-sig")

    review = httpx.get(re.search(r"\[review\.html\]\((http[^)]+)\)", answer).group(1))  # type: ignore[union-attr]
    assert review.status_code == 200 and review.headers["content-type"].startswith("text/html")
    assert review.headers["content-disposition"].startswith("inline")  # opens in the browser
    assert review.headers["content-security-policy"].startswith("default-src 'none'")  # and may fetch nothing
    assert "nordwerk-2025-01.pdf" in review.text
    sheet = httpx.get(re.search(r"\[table\.xlsx\]\((http[^)]+)\)", answer).group(1))  # type: ignore[union-attr]
    assert sheet.status_code == 200 and sheet.content.startswith(b"PK") and "attachment" in sheet.headers["content-disposition"]
    tampered = httpx.get(link.replace("table.csv", "review.html"))  # a link signs one file, not its neighbours
    assert tampered.status_code == 403


def test_streaming_shows_progress_lines_then_the_answer(server) -> None:  # type: ignore[no-untyped-def]
    client = server.client("ann")
    messages = [{"role": "user", "content": SLAS}]
    form = _stream(client, messages)
    assert form.startswith("Before I read any document")
    messages += [{"role": "assistant", "content": form}, {"role": "user", "content": "Yes."}]
    answer = _stream(client, messages)
    assert answer.startswith("Reading 3 documents")
    assert re.search(r"Read slas/[^:]+: \d+ rows", answer)
    assert "| File | Priority | Response time | Resolution time |" in answer
    download = httpx.get(LINK.search(answer).group(1))  # type: ignore[union-attr]
    assert download.status_code == 200 and download.content.startswith(b"\xef\xbb\xbfFile,Priority")


def test_no_declines_without_reading(server) -> None:  # type: ignore[no-untyped-def]
    (_, answer), _ = _converse(server.client("ann"), SLAS, "no")
    assert answer.startswith("Declined: no document was read")


def test_a_typed_correction_is_read_once_more_and_answered_without_a_second_form(server) -> None:  # type: ignore[no-untyped-def]
    (_, answer), _ = _converse(
        server.client("ann"), "Every position on Brightline's invoices with description and amount", "only the 2024 invoices"
    )
    assert "Before I read" not in answer  # no second form: the corrected reading is extracted
    files = re.findall(r"^\| (invoices/\S+) \|", answer, re.MULTILINE)
    assert files and all("/2024/" in f and "brightline" in f for f in files)


def test_two_open_threads_never_answer_each_others_questions(server) -> None:  # type: ignore[no-untyped-def]
    client = server.client("ann")
    chats: dict[str, list[dict[str, str]]] = {name: [] for name in ("slas", "nordwerk", "twin")}
    for name, request in (("slas", SLAS), ("nordwerk", NORDWERK), ("twin", SLAS)):  # twin opens like slas
        chats[name].append({"role": "user", "content": request})
        form, _ = _ask(client, chats[name])
        chats[name].append({"role": "assistant", "content": form})
    assert chats["slas"] == chats["twin"]  # two chats that open alike
    replies = {"nordwerk": "yes", "slas": "no", "twin": "yes"}
    answers = {}
    for name, reply in replies.items():
        chats[name].append({"role": "user", "content": reply})
        answers[name], _ = _ask(client, chats[name])
    assert "| invoices/2025/nordwerk-" in answers["nordwerk"]
    assert answers["slas"].startswith("Declined")
    assert "| File | Priority |" in answers["twin"]  # its own question, not the declined one


def test_an_explicit_thread_is_kept_and_another_user_cannot_use_it(server) -> None:  # type: ignore[no-untyped-def]
    ann, ben = server.client("ann"), server.client("ben")
    form, thread = _ask(ann, [{"role": "user", "content": SLAS}], extra_headers={"X-Kea-Thread": "ann-slas-1"})
    assert thread == "ann-slas-1" and form.startswith("Before I read")
    with pytest.raises(NotFoundError):
        ben.chat.completions.create(model=MODEL, messages=[{"role": "user", "content": "yes"}], metadata={"thread_id": thread})
    for response in (
        httpx.get(f"{server.url}/v1/runs/{thread}", headers=server.auth("ben")),
        httpx.post(f"{server.url}/v1/runs/{thread}/resume", json={"reply": "yes"}, headers=server.auth("ben")),
    ):
        assert response.status_code == 404 and response.json()["error"]["message"] == f"There is no thread {thread}."
    answer, same = _ask(ann, [{"role": "user", "content": "yes"}], metadata={"thread_id": thread})
    assert same == thread and "| File | Priority |" in answer


def test_downloads_check_the_owner_the_link_and_the_age(server) -> None:  # type: ignore[no-untyped-def]
    (_, answer), (thread, _) = _converse(server.client("ann"), SLAS, "yes")
    link = LINK.search(answer).group(1)  # type: ignore[union-attr]
    plain = link.split("?")[0]
    assert httpx.get(plain, headers=server.auth("ann")).content.startswith(b"\xef\xbb\xbfFile,Priority")
    other = httpx.get(plain, headers=server.auth("ben"))
    missing = httpx.get(plain.replace("/files/", "/files/0").replace("table.csv", "table.csv"), headers=server.auth("ben"))
    assert other.status_code == missing.status_code == 404 and other.json() == missing.json()
    assert httpx.get(plain).status_code == 401  # no key, no signature
    assert httpx.get(plain, headers={**server.auth("pipe"), "X-Kea-User": "ann"}).status_code == 200
    assert httpx.get(plain, headers={**server.auth("pipe"), "X-Kea-User": "ben"}).status_code == 404
    assert httpx.get(plain, headers=server.auth("pipe")).status_code == 400  # a service names its user
    assert httpx.get(plain, headers={**server.auth("ben"), "X-Kea-User": "ann"}).status_code == 403  # only services act for others

    tampered = httpx.get(link.replace("sig=", "sig=0"))
    assert tampered.status_code == 403 and "changed" in tampered.json()["error"]["message"]
    with server.clock.moved(hours=25):
        expired = httpx.get(link)
        assert expired.status_code == 403 and "expired" in expired.json()["error"]["message"]
    with server.clock.moved(days=8):
        old = httpx.get(plain, headers=server.auth("ann"))
        assert old.status_code == 410 and "expired" in old.json()["error"]["message"]
    state = httpx.get(f"{server.url}/v1/runs/{thread}", headers=server.auth("ann")).json()
    assert state["status"] == "done" and state["result"]["csv"].startswith(server.url + "/files/")


def test_a_user_without_access_to_a_collection_gets_no_rows(server) -> None:  # type: ignore[no-untyped-def]
    answer, _ = _ask(server.client("cleo"), [{"role": "user", "content": SLAS}])
    assert "user 'cleo' may read" in answer and "| File |" not in answer
    # what to do, in a chat's words: there is no command line there
    assert "Whoever runs Kea can give you access to a collection." in answer and "kea " not in answer


def _events(response: httpx.Response) -> list[tuple[str, dict[str, Any]]]:
    """The Server-Sent Events of a response, read line by line as they arrive."""
    reader = EventReader()
    for line in response.iter_lines():
        reader.add(line)
    return reader.events


def test_the_run_api_streams_typed_questions_progress_and_the_result(server) -> None:  # type: ignore[no-untyped-def]
    with httpx.stream("POST", f"{server.url}/v1/runs", json={"message": NORDWERK}, headers=server.auth("ben")) as response:
        assert response.status_code == 200 and response.headers["content-type"].startswith("text/event-stream")
        events = _events(response)
    (name, data), = events
    asked = QuestionsEvent.model_validate(data)
    assert name == "questions" and [q.header for q in asked.form.questions] == ["Location", "Filter Condition", "Values to extract"]
    assert asked.form.questions[2].options[0].label == "Description, Quantity, Unit price"
    waiting = httpx.get(f"{server.url}/v1/runs/{asked.thread}", headers=server.auth("ben")).json()
    assert waiting["status"] == "waiting" and waiting["questions"]["interrupt_id"] == asked.interrupt_id

    wrong = httpx.post(f"{server.url}/v1/runs/{asked.thread}/resume", json={"reply": "yes", "interrupt_id": "0" * 32},
                       headers=server.auth("ben"))
    assert wrong.status_code == 409 and "answered already" in wrong.json()["error"]["message"]
    reply = {"status": "answered", "answers": {"location": {"type": "option", "option_index": 0,
                                                            "label": asked.form.questions[0].options[0].label}}}
    with httpx.stream("POST", f"{server.url}/v1/runs/{asked.thread}/resume",
                      json={"reply": reply, "interrupt_id": asked.interrupt_id}, headers=server.auth("ben")) as response:
        events = _events(response)
    names = [n for n, _ in events]
    assert names[0] == "progress" and names[-1] == "result" and "questions" not in names
    progress = [ProgressEvent.model_validate(d) for n, d in events if n == "progress"]
    assert progress[0].event == "scope_resolved" and progress[0].documents == 11
    assert sum(p.event == "document_done" for p in progress) == 11
    result = RunResult.model_validate(events[-1][1])
    assert result.status == "done" and result.thread == asked.thread and result.rows > 0
    assert result.preview.header[:4] == ["File", "Description", "Quantity", "Unit price"]
    assert httpx.get(result.csv).status_code == 200  # type: ignore[arg-type]
    again = httpx.post(f"{server.url}/v1/runs/{asked.thread}/resume", json={"reply": "yes"}, headers=server.auth("ben"))
    assert again.status_code == 409 and "nothing to resume" in again.json()["error"]["message"]

    for message, columns in ((SLAS, "Priority, Response time, Resolution time"), (NORDWERK, "Description, Quantity, Unit price")):
        # a new message on the thread is a new request, even while a question waits
        with httpx.stream("POST", f"{server.url}/v1/runs", json={"message": message, "thread": asked.thread},
                          headers=server.auth("ben")) as response:
            (name, data), = _events(response)
        assert name == "questions" and QuestionsEvent.model_validate(data).form.questions[2].options[0].label == columns


def test_the_run_api_publishes_the_schema_of_its_events(server) -> None:  # type: ignore[no-untyped-def]
    schema = httpx.get(f"{server.url}/v1/runs/schema").json()
    assert set(schema["events"]) == {"progress", "questions", "result", "error"}


def test_on_s3_the_answer_links_a_presigned_url_and_old_files_expire(server, svc, s3_store) -> None:  # type: ignore[no-untyped-def]
    from server.app import create_app
    from tools.services import Services
    from tools.storage.rows import RowStore

    on_s3 = Services(svc.database_url, svc.kb, s3_store, RowStore(s3_store))
    clock = MovingClock()
    with serve_app(create_app(on_s3, clock=clock)) as url:
        s3_server = Server(url, clock, server.keys)
        (_, answer), _ = _converse(s3_server.client("ann"), SLAS, "yes")
        link = LINK.search(answer).group(1)  # type: ignore[union-attr]
        assert "X-Amz-Signature=" in link and "X-Amz-Expires=86400" in link and not link.startswith(url)
        assert httpx.get(link).content.startswith(b"\xef\xbb\xbfFile,Priority")  # straight from the bucket
        extraction_id = re.search(r"record-extraction/([0-9a-f]+)/table\.csv", link).group(1)  # type: ignore[union-attr]
        through_kea = f"{url}/files/{extraction_id}/table.csv"
        assert httpx.get(through_kea, headers=s3_server.auth("ann")).status_code == 200
        assert httpx.get(through_kea, headers=s3_server.auth("ben")).status_code == 404
        with clock.moved(days=7, hours=1):
            assert httpx.get(through_kea, headers=s3_server.auth("ann")).status_code == 410


def test_kea_serve_listens_on_loopback_by_default(server) -> None:  # type: ignore[no-untyped-def]
    import time

    from http_server import free_port

    port = free_port()
    process = subprocess.Popen([sys.executable, "-m", "server.cli", "serve", "--port", str(port)], cwd=ROOT, env=ENV,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                health = httpx.get(f"http://127.0.0.1:{port}/health", timeout=1)
                break
            except httpx.HTTPError:
                assert process.poll() is None and time.monotonic() < deadline, "kea serve did not start"
                time.sleep(0.1)
        assert health.json() == {"status": "ok"}
        models = httpx.get(f"http://127.0.0.1:{port}/v1/models", headers=server.auth("ann")).json()
        assert MODEL in [m["id"] for m in models["data"]]
        assert httpx.get(f"http://127.0.0.1:{port}/v1/models").status_code == 401  # keys exist: one is needed
        if shutil.which("ss"):
            listening = [line.split()[3] for line in subprocess.run(["ss", "-ltnH"], capture_output=True, text=True).stdout.splitlines()]
            assert [a for a in listening if a.endswith(f":{port}")] == [f"127.0.0.1:{port}"]
    finally:
        process.terminate()
        process.wait(timeout=15)


async def test_a_thread_made_outside_the_api_cannot_be_taken_over(server) -> None:  # type: ignore[no-untyped-def]
    from core.profile import Profile
    from graph.runs import run_extraction

    paused = await run_extraction(SLAS, Profile(collections=["corpus"]), thread_id="made-by-the-cli-1")
    assert paused["__interrupt__"]
    async with httpx.AsyncClient(base_url=server.url, headers=server.auth("ben")) as client:
        chat = await client.post("/v1/chat/completions", json={"model": MODEL, "messages": [{"role": "user", "content": "yes"}]},
                                 headers={"X-Kea-Thread": "made-by-the-cli-1"})
        run = await client.post("/v1/runs", json={"message": SLAS, "thread": "made-by-the-cli-1"})
        read = await client.get("/v1/runs/made-by-the-cli-1")
    assert chat.status_code == run.status_code == read.status_code == 404


def test_a_table_whose_publishing_did_not_finish_is_not_served(server, svc) -> None:  # type: ignore[no-untyped-def]
    from tools.storage.rows import summary_key

    (_, answer), _ = _converse(server.client("ann"), SLAS, "yes")
    link = LINK.search(answer).group(1)  # type: ignore[union-attr]
    extraction_id = link.split("/files/", 1)[1].split("/", 1)[0]
    assert httpx.get(link).status_code == 200
    # what a crash between publishing the table and its summary (published last) leaves behind
    with svc.objects.open(summary_key(extraction_id)) as handle:
        saved = handle.read()
    svc.objects.delete(summary_key(extraction_id))
    try:
        for response in (httpx.get(link), httpx.get(link.split("?")[0], headers=server.auth("ann"))):
            assert response.status_code == 409 and "not complete" in response.json()["error"]["message"]
    finally:
        svc.objects.put_bytes(summary_key(extraction_id), saved, "application/json")
    assert httpx.get(link).status_code == 200
