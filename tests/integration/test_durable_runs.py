"""Durable runs: a run killed mid-way continues where it stopped; a run cancelled stops at once.

Runs happen in separate processes (``counting_cli.py``: the real ``kea`` command with a
counting engine at the model boundary) on the session's PostgreSQL and file store.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
CLI = [sys.executable, str(Path(__file__).with_name("counting_cli.py"))]
REQUEST = "Code, item and quantity of every order"
DOCUMENTS = 30


@pytest.fixture(scope="module")
def orders(svc, tmp_path_factory) -> str:  # type: ignore[no-untyped-def]
    """Thirty small order files, ingested as the collection 'durable-orders' (and one decoy beside them)."""
    from tools.knowledge.ingest import ingest

    folder = tmp_path_factory.mktemp("durable-orders")
    for i in range(DOCUMENTS):
        rows = "".join(f"| {i}-{j} | Bolt {j} | {i + j} |\n" for j in range(3))
        (folder / f"order-{i:02d}.md").write_text(f"| Code | Item | Quantity |\n|---|---|---|\n{rows}", encoding="utf-8")
    assert ingest(svc.kb, [folder], "durable-orders", embed=False).indexed
    decoy = tmp_path_factory.mktemp("durable-decoy")  # what a run narrowed to the orders never reads
    (decoy / "decoy.md").write_text("| Code | Item | Quantity |\n|---|---|---|\n| X | Decoy | 1 |\n", encoding="utf-8")
    assert ingest(svc.kb, [decoy], "durable-decoy", embed=False).indexed
    return "durable-orders"


def _env(calls: Path, delay: float = 0.0, **more: str) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "KEA_ENGINE": "counting", "KEA_TEST_CALLS": str(calls),
            "KEA_TEST_DELAY": str(delay), "KEA_CANCEL_POLL_SECONDS": "0.2", **more}


def _calls(path: Path) -> list[tuple[float, str]]:
    if not path.exists():
        return []
    found = []
    for line in path.read_text(encoding="utf-8").splitlines():
        _, at, file = line.split(" ", 2)
        found.append((float(at), file))
    return found


def _wait_for(condition: Any, timeout: float = 120.0, what: str = "condition") -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def _state(thread: str) -> dict[str, Any]:
    from checkpoints.saver import postgres_checkpointer
    from graph.extraction import build_extraction_graph

    async def read() -> dict[str, Any]:
        async with postgres_checkpointer() as saver:
            return dict((await build_extraction_graph(saver).aget_state({"configurable": {"thread_id": thread}})).values)

    return asyncio.run(read())


def _alive(thread: str) -> bool:
    from checkpoints.runs import RunRecords
    from tools.services import services

    return asyncio.run(RunRecords(services().database_url).is_alive(thread))


@pytest.fixture(scope="module")
def whole(orders, tmp_path_factory) -> bytes:  # type: ignore[no-untyped-def]
    """The table of a run never interrupted."""
    folder = tmp_path_factory.mktemp("whole")
    done = subprocess.run([*CLI, "extract", REQUEST, "--collection", orders, "--yes", "--json", "--out", str(folder / "whole.csv")],
                          capture_output=True, text=True, cwd=ROOT, env=_env(folder / "calls.log"))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["documents"]["extracted"] == DOCUMENTS
    return (folder / "whole.csv").read_bytes()


def test_a_run_killed_half_way_resumes_and_reads_only_what_was_not_stored(orders, whole, svc, tmp_path) -> None:  # type: ignore[no-untyped-def]
    resumed = tmp_path / "resumed.csv"
    base = ["extract", REQUEST, "--collection", orders, "--yes", "--json"]

    calls = tmp_path / "calls.log"
    thread = "cli-killed-half-way"
    run = subprocess.Popen([*CLI, *base, "--thread", thread, "--out", str(resumed)], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, cwd=ROOT, env=_env(calls, delay=1.0))
    try:
        # half the documents sent to the engine, and the rows of one of them stored at least
        _wait_for(lambda: len(_calls(calls)) >= DOCUMENTS // 2 and _stored_any(svc, thread, calls) or run.poll() is not None,
                  what="half the documents")
        run.send_signal(signal.SIGKILL)
        run.wait(timeout=60)
    finally:
        if run.poll() is None:
            run.kill()
    assert run.returncode == -signal.SIGKILL
    assert not resumed.exists()
    before = Counter(file for _, file in _calls(calls))
    assert DOCUMENTS // 2 <= len(before) < DOCUMENTS
    extraction_id = _state(thread)["extraction_id"]
    stored = {f for f in before if svc.rows.outcome(extraction_id, _document_id(svc, f)) is not None}
    assert stored, "nothing was stored before the kill"
    _wait_for(lambda: not _alive(thread), what="the killed run's lease to be released")

    again = subprocess.run([*CLI, "resume", thread, "--json", "--out", str(resumed)], capture_output=True, text=True,
                           cwd=ROOT, env=_env(calls))
    assert again.returncode == 0, again.stderr
    answer = json.loads(again.stdout)
    assert answer["status"] == "done" and answer["thread"] == thread
    assert answer["documents"]["extracted"] == DOCUMENTS and not answer["documents"]["failed"]
    assert resumed.read_bytes() == whole  # the same table as a run never interrupted
    after = Counter(file for _, file in _calls(calls)) - before
    assert not set(after) & stored, f"documents stored before the kill were sent to the engine again: {set(after) & stored}"
    assert set(before) | set(after) == {f"order-{i:02d}.md" for i in range(DOCUMENTS)}
    assert all(n == 1 for n in after.values())


def _stored_any(svc, thread: str, calls: Path) -> bool:  # type: ignore[no-untyped-def]
    """Whether the run on ``thread`` stored the rows of a document it sent to the engine."""
    from tools.storage.rows import rows_key

    extraction_id = _state(thread).get("extraction_id")
    return bool(extraction_id) and any(
        svc.objects.exists(rows_key(extraction_id, _document_id(svc, f))) for _, f in _calls(calls)
    )


def _document_id(svc, file: str) -> int:  # type: ignore[no-untyped-def]
    import psycopg

    with psycopg.connect(svc.database_url) as conn:
        row = conn.execute(
            "SELECT d.id FROM documents d JOIN collections c ON c.id = d.collection_id WHERE c.name = %s AND d.path = %s",
            ("durable-orders", file),
        ).fetchone()
    assert row, file
    return int(row[0])


async def test_a_document_stored_by_an_earlier_attempt_is_never_sent_to_the_engine_again(orders, svc, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The window a kill can hit: a document's rows stored, its task's result not yet checkpointed.
    LangGraph then runs the task again; the stored rows are taken instead of a second model call."""
    import counting_cli  # noqa: F401 — registers the counting engine in this process

    from core.profile import Profile
    from graph.runs import resume_extraction, run_extraction
    from tools.storage.rows import table_key

    calls = tmp_path / "calls.log"
    monkeypatch.setenv("KEA_TEST_CALLS", str(calls))
    profile = Profile(collections=[orders], engine="counting")
    first = await run_extraction(REQUEST, profile, confirm="auto")
    assert first["answer"]["status"] == "done"
    paused = await run_extraction(REQUEST, profile)  # stops at its questions: nothing read yet
    assert paused["__interrupt__"]
    earlier = {f"order-{i:02d}.md" for i in range(0, DOCUMENTS, 3)}
    for file in earlier:  # as an attempt killed after storing them would have left them
        assert svc.rows.copy_outcome(first["extraction_id"], paused["extraction_id"], _document_id(svc, file))
    calls.unlink()
    done = await resume_extraction(paused["thread_id"], "yes", profile)
    assert done["answer"]["status"] == "done"
    sent = Counter(file for _, file in _calls(calls))
    assert not set(sent) & earlier
    assert set(sent) == {f"order-{i:02d}.md" for i in range(DOCUMENTS)} - earlier
    with svc.objects.open(table_key(first["extraction_id"])) as a, svc.objects.open(table_key(done["extraction_id"])) as b:
        assert a.read() == b.read()


def test_a_run_stopped_by_an_error_at_a_node_is_continued_by_kea_resume(orders, whole, svc, tmp_path) -> None:  # type: ignore[no-untyped-def]
    calls, thread, table = tmp_path / "calls.log", "cli-stopped-by-an-error", tmp_path / "table.csv"
    env = _env(calls, KEA_TEST_FAIL_ON="order-12.md", KEA_TEST_FAIL_ONCE=str(tmp_path / "failed-once"))
    failed = subprocess.run([*CLI, "extract", REQUEST, "--collection", orders, "--yes", "--json", "--thread", thread,
                             "--out", str(table)], capture_output=True, text=True, cwd=ROOT, env=env)
    assert failed.returncode == 1 and "database stopped answering" in json.loads(failed.stdout)["message"]
    assert not table.exists()
    before = Counter(file for _, file in _calls(calls))
    extraction_id = _state(thread)["extraction_id"]
    stored = {f for f in before if svc.rows.outcome(extraction_id, _document_id(svc, f)) is not None}
    again = subprocess.run([*CLI, "resume", thread, "--json", "--out", str(table)], capture_output=True, text=True,
                           cwd=ROOT, env=env)
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["status"] == "done"
    assert table.read_bytes() == whole
    after = Counter(file for _, file in _calls(calls)) - before
    assert not set(after) & stored and "order-12.md" in after
    finished = subprocess.run([*CLI, "resume", thread, "--json"], capture_output=True, text=True, cwd=ROOT, env=env)
    assert finished.returncode == 1 and "not waiting for anything" in json.loads(finished.stdout)["message"]


def test_a_thread_left_at_its_questions_asks_them_again_on_resume(orders, svc, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The profile (a file: its engine) and the narrowing (--collection) the run started with are
    the ones its continuation reads with."""
    calls, thread, profile = tmp_path / "calls.log", "cli-left-at-its-questions", tmp_path / "counting.json"
    profile.write_text(json.dumps({"engine": "counting"}), encoding="utf-8")
    env = {k: v for k, v in _env(calls).items() if k != "KEA_ENGINE"}  # the engine comes from the profile only
    asking = subprocess.Popen([*CLI, "extract", "Code, item and quantity", "--profile", str(profile), "--collection", orders,
                               "--thread", thread], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, cwd=ROOT, env=env)
    try:
        assert asking.stderr is not None
        seen = ""
        while "> " not in seen:  # the first question's prompt
            chunk = asking.stderr.read(1)
            assert chunk, seen
            seen += chunk
        asking.send_signal(signal.SIGKILL)
        asking.wait(timeout=60)
    finally:
        if asking.poll() is None:
            asking.kill()
    assert not calls.exists()  # nothing was read
    _wait_for(lambda: not _alive(thread), what="the killed run's lease to be released")
    scripted = subprocess.run([*CLI, "resume", thread, "--json"], capture_output=True, text=True, cwd=ROOT, env=env)
    assert scripted.returncode == 1
    assert "waits for answers to its questions, and there is no terminal" in json.loads(scripted.stdout)["message"]
    import pty

    terminal, its_end = pty.openpty()  # stdin is a terminal: the questions are asked there
    try:
        answered = subprocess.Popen([*CLI, "resume", thread, "--json"], stdin=its_end, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env)
        os.close(its_end)
        os.write(terminal, b"\n\n\n")  # Enter keeps each recommended answer
        output, errors = answered.communicate(timeout=180)
    finally:
        os.close(terminal)
    assert answered.returncode == 0, errors
    assert "Before I read any document" in errors  # asked again
    result = json.loads(output)
    assert result["status"] == "done" and result["documents"]["in_scope"] == DOCUMENTS
    assert {file for _, file in _calls(calls)} == {f"order-{i:02d}.md" for i in range(DOCUMENTS)}


def _cancel_seen_at(svc, thread: str) -> float | None:  # type: ignore[no-untyped-def]
    import psycopg

    with psycopg.connect(svc.database_url) as conn:
        row = conn.execute("SELECT extract(epoch FROM cancel_seen_at) FROM runs WHERE thread_id = %s", (thread,)).fetchone()
    return float(row[0]) if row and row[0] is not None else None


def test_kea_cancel_stops_a_run_of_another_process_with_a_partial_table(orders, svc, tmp_path) -> None:  # type: ignore[no-untyped-def]
    calls, thread, table = tmp_path / "calls.log", "cli-to-cancel", tmp_path / "partial.csv"
    run = subprocess.Popen([*CLI, "extract", REQUEST, "--collection", orders, "--yes", "--json", "--thread", thread,
                            "--out", str(table)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                           env=_env(calls, delay=10.0))
    try:
        _wait_for(lambda: len(_calls(calls)) > 8 or run.poll() is not None, what="the first documents read")
        stranger = subprocess.run([*CLI, "cancel", thread, "--user", "mallory"], capture_output=True, text=True, cwd=ROOT,
                                  env=_env(calls))
        assert stranger.returncode == 1 and f"There is no thread {thread}." in stranger.stderr
        snooping = subprocess.run([*CLI, "resume", thread, "--user", "mallory", "--json"], capture_output=True, text=True,
                                  cwd=ROOT, env=_env(calls))
        assert snooping.returncode == 1 and json.loads(snooping.stdout)["message"] == f"There is no thread {thread}."
        twice = subprocess.run([*CLI, "resume", thread, "--json"], capture_output=True, text=True, cwd=ROOT, env=_env(calls))
        assert twice.returncode == 1 and "running in another process" in json.loads(twice.stdout)["message"]
        stopped = subprocess.run([*CLI, "cancel", thread], capture_output=True, text=True, cwd=ROOT, env=_env(calls))
        assert stopped.returncode == 0, stopped.stderr
        assert f"Cancelled thread {thread}" in stopped.stdout
        output, errors = run.communicate(timeout=120)
    finally:
        if run.poll() is None:
            run.kill()
    assert run.returncode == 0, errors
    answer = json.loads(output)
    assert answer["status"] == "cancelled"
    assert "Cancelled on request" in answer["message"] and "partial" in answer["message"]
    read = answer["documents"]["extracted"]
    assert 8 <= read < DOCUMENTS
    assert answer["rows"] == 3 * read  # every row of each document read before the stop, nothing else
    assert table.read_text(encoding="utf-8-sig").count("\n") == 3 * read + 1
    # the documents the cancel left unread are counted and named in one place, none of them as failed
    assert answer["documents"]["failed"] == []
    unread = DOCUMENTS - read
    assert answer["documents"]["not_read_count"] == unread and len(answer["documents"]["not_read"]) == min(20, unread)
    seen = _cancel_seen_at(svc, thread)
    assert seen is not None
    late = [(at, file) for at, file in _calls(calls) if at > seen]
    assert not late, f"model calls started after the cancel was seen: {late}"
    again = subprocess.run([*CLI, "cancel", thread], capture_output=True, text=True, cwd=ROOT, env=_env(calls))
    assert again.returncode == 1 and "is not running" in again.stderr


# -- the run API, the Open WebUI pipe and kea serve ---------------------------------------------

PIPE_USER = "olga@example.com"


@pytest.fixture(scope="module")
def served(svc, orders):  # type: ignore[no-untyped-def]
    """Kea's app on a free port with a profile 'slow-orders' (the counting engine), keys for ann,
    mallory and the pipe; the keys are revoked after the module (later tests expect none live)."""
    import psycopg
    from http_server import serve_app

    import counting_cli  # noqa: F401 — the counting engine, in this process where the app runs
    from server.app import create_app
    from server.cli_http import _with_accounts
    from server.profiles import SHIPPED, Profiles

    profiles = Profiles({**{n: dict(v) for n, v in SHIPPED.items()}, "slow-orders": {"engine": "counting", "collections": [orders]}})
    keys = {u: _with_accounts(lambda accounts, u=u: accounts.create_key(u))[1] for u in ("ann", "mallory")}
    keys["pipe"] = _with_accounts(lambda accounts: accounts.create_key("durable-pipe", service=True))[1]
    for user in ("ann", PIPE_USER):
        svc.kb.grant(orders, user)
    try:
        with serve_app(create_app(svc, profiles=profiles)) as url:
            yield url, keys
    finally:
        with psycopg.connect(svc.database_url, autocommit=True) as conn:
            conn.execute("UPDATE api_keys SET revoked_at = now() WHERE user_id IN ('ann', 'mallory', 'durable-pipe')")


@pytest.fixture
def counted(tmp_path, monkeypatch) -> Path:  # type: ignore[no-untyped-def]
    """The counting engine of this process, slow: four seconds a document."""
    calls = tmp_path / "calls.log"
    for name, value in {"KEA_TEST_CALLS": str(calls), "KEA_TEST_DELAY": "4", "KEA_CANCEL_POLL_SECONDS": "0.2"}.items():
        monkeypatch.setenv(name, value)
    return calls


def _bearer(key: str, **more: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}", **more}


def _assert_cancelled_with_what_was_read(svc, thread: str, result: dict[str, Any], calls: Path) -> None:  # type: ignore[no-untyped-def]
    assert result["status"] == "cancelled"
    assert "Cancelled on request" in result["message"] and "partial" in result["message"]
    read = result["documents"]["extracted"]
    assert 8 <= read < DOCUMENTS and result["rows"] == 3 * read
    seen = _cancel_seen_at(svc, thread)
    assert seen is not None
    late = [(at, file) for at, file in _calls(calls) if at > seen]
    assert not late, f"model calls started after the cancel was seen: {late}"


def test_delete_on_the_run_api_cancels_the_run_and_answers_with_what_was_read(served, svc, counted) -> None:  # type: ignore[no-untyped-def]
    import threading

    import httpx
    from http_server import EventReader

    url, keys = served
    thread, reader = "run-to-cancel", EventReader()

    def listen() -> None:
        body = {"message": REQUEST, "thread": thread, "model": "kea-slow-orders", "confirm": "auto"}
        with httpx.stream("POST", f"{url}/v1/runs", json=body, headers=_bearer(keys["ann"]), timeout=300) as response:
            for line in response.iter_lines():
                reader.add(line)

    listener = threading.Thread(target=listen)
    listener.start()
    try:
        _wait_for(lambda: len(_calls(counted)) > 8, what="the first documents read")  # 8 at a time
        assert httpx.delete(f"{url}/v1/runs/{thread}", headers=_bearer(keys["mallory"])).status_code == 404
        assert httpx.get(f"{url}/v1/runs/{thread}", headers=_bearer(keys["ann"])).json()["status"] == "running"
        stopped = httpx.delete(f"{url}/v1/runs/{thread}", headers=_bearer(keys["ann"]), timeout=120)
    finally:
        listener.join(timeout=300)
    assert stopped.status_code == 200, stopped.text
    assert stopped.json()["status"] == "cancelled"
    _assert_cancelled_with_what_was_read(svc, thread, stopped.json()["result"], counted)
    streamed = [data for name, data in reader.events if name == "result"]
    assert streamed and streamed[-1]["status"] == "cancelled"  # the client that started it hears it too
    assert httpx.get(f"{url}/v1/runs/{thread}", headers=_bearer(keys["ann"])).json()["status"] == "cancelled"
    again = httpx.delete(f"{url}/v1/runs/{thread}", headers=_bearer(keys["ann"]))
    assert again.status_code == 409 and "nothing to cancel" in again.json()["error"]["message"]


async def test_the_stop_button_of_open_webui_cancels_the_run_on_kea(served, svc, counted) -> None:  # type: ignore[no-untyped-def]
    import httpx

    from server.openwebui.kea_pipe import Pipe, thread_of

    url, keys = served
    pipe = Pipe()
    pipe.valves = Pipe.Valves(KEA_URL=url, KEA_API_KEY=keys["pipe"], ATTACH_CSV=False)
    chat_id = f"chat-{os.urandom(6).hex()}"
    statuses: list[str] = []

    async def emit(event: dict[str, Any]) -> None:
        if event["type"] == "status":
            statuses.append(event["data"]["description"])

    async def chat() -> str:
        answer = await pipe.pipe(
            {"model": "kea.kea-slow-orders", "messages": [{"role": "user", "content": f"{REQUEST}"}]},
            __user__={"id": "id-olga", "email": PIPE_USER, "name": "olga"}, __event_emitter__=emit,
            __event_call__=None, __chat_id__=chat_id, __message_id__="m1",
        )
        return answer if isinstance(answer, str) else "".join([piece async for piece in answer])

    thread = thread_of(chat_id)
    # nobody answers a dialog here: the run waits at its questions; "yes" in the chat confirms them
    first = await chat()
    assert "yes" in first.lower() or "confirm" in first.lower(), first

    async def confirm() -> str:
        answer = await pipe.pipe(
            {"model": "kea.kea-slow-orders", "messages": [{"role": "user", "content": REQUEST},
                                                          {"role": "assistant", "content": first},
                                                          {"role": "user", "content": "yes"}]},
            __user__={"id": "id-olga", "email": PIPE_USER, "name": "olga"}, __event_emitter__=emit,
            __event_call__=None, __chat_id__=chat_id, __message_id__="m3",
        )
        return answer if isinstance(answer, str) else "".join([piece async for piece in answer])

    task = asyncio.create_task(confirm())
    deadline = time.monotonic() + 120
    while len(_calls(counted)) <= 8:  # the first eight read, the next being read
        assert time.monotonic() < deadline and not task.done(), "no document was read"
        await asyncio.sleep(0.05)
    task.cancel()  # what Open WebUI's stop button does to the pipe's answer
    with pytest.raises(asyncio.CancelledError):
        await task
    headers = _bearer(keys["pipe"], **{"X-Kea-User": PIPE_USER})
    async with httpx.AsyncClient(base_url=url, headers=headers, timeout=30) as client:
        deadline = time.monotonic() + 120
        while (state := (await client.get(f"/v1/runs/{thread}")).json())["status"] in ("running", "waiting", "new"):
            assert time.monotonic() < deadline, state
            await asyncio.sleep(0.1)
    _assert_cancelled_with_what_was_read(svc, thread, state["result"], counted)


def _serve(port: int, calls: Path, delay: float) -> subprocess.Popen[str]:
    import httpx

    server = subprocess.Popen([*CLI, "serve", "--port", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              text=True, cwd=ROOT, env=_env(calls, delay=delay))

    def up() -> bool:
        assert server.poll() is None, server.stderr.read() if server.stderr else ""
        try:
            return httpx.get(f"http://127.0.0.1:{port}/health", timeout=2).status_code == 200
        except httpx.HTTPError:
            return False

    _wait_for(up, what="kea serve to answer")
    return server


def test_kea_serve_killed_mid_run_is_finished_by_a_live_server(served, svc, kea_home, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The server of this module (in this process) is a live replica on the same database: it
    continues the run of a ``kea serve`` killed under it within seconds, without a restart."""
    import threading

    import httpx
    from http_server import free_port

    url, keys = served
    profile = kea_home / "profiles" / "slow-orders.json"
    profile.parent.mkdir(exist_ok=True)
    profile.write_text(json.dumps({"engine": "counting", "collections": ["durable-orders"]}), encoding="utf-8")
    calls, thread = tmp_path / "calls.log", "run-picked-up"
    monkeypatch.setenv("KEA_TEST_CALLS", str(calls))  # the live server's engine counts into the same log
    monkeypatch.setenv("KEA_TEST_DELAY", "0.5")  # its first rows are stored well after the look below
    files = {f"order-{i:02d}.md": _document_id(svc, f"order-{i:02d}.md") for i in range(DOCUMENTS)}
    server: subprocess.Popen[str] | None = None
    try:
        first_port = free_port()
        server = _serve(first_port, calls, delay=1.0)

        def ask() -> None:
            body = {"message": REQUEST, "thread": thread, "model": "kea-slow-orders", "confirm": "auto"}
            try:
                with httpx.stream("POST", f"http://127.0.0.1:{first_port}/v1/runs", json=body,
                                  headers=_bearer(keys["ann"]), timeout=300) as response:
                    for _ in response.iter_lines():
                        pass
            except httpx.HTTPError:
                pass  # the server is killed under it

        asking = threading.Thread(target=ask, daemon=True)
        asking.start()
        _wait_for(lambda: len(_calls(calls)) >= DOCUMENTS // 2, what="half the documents")
        extraction_id = _state(thread)["extraction_id"]
        server.send_signal(signal.SIGKILL)
        server.wait(timeout=60)
        killed_at, killed_clock = time.time(), time.monotonic()
        # what the killed server stored, looked at before the live one can store anything
        stored = {f for f, i in files.items() if svc.rows.outcome(extraction_id, i) is not None}
        asking.join(timeout=60)
        deadline = time.monotonic() + 180
        with httpx.Client(base_url=url, headers=_bearer(keys["ann"]), timeout=30) as client:
            while (state := client.get(f"/v1/runs/{thread}").json())["status"] in ("running", "new"):
                assert time.monotonic() < deadline, state
                time.sleep(0.2)
            assert client.get(f"/v1/runs/{thread}", headers=_bearer(keys["mallory"])).status_code == 404
    finally:
        profile.unlink(missing_ok=True)
        if server is not None and server.poll() is None:
            server.terminate()
            server.wait(timeout=60)
    result = state["result"]
    assert state["status"] == "done", state
    assert result["documents"]["extracted"] == DOCUMENTS and result["rows"] == 3 * DOCUMENTS
    before = Counter(file for at, file in _calls(calls) if at < killed_at)
    after = Counter(file for at, file in _calls(calls) if at >= killed_at)
    assert stored and len(before) < DOCUMENTS
    assert not set(after) & stored
    assert set(before) | set(after) == set(files) and all(n == 1 for n in after.values())
    import psycopg

    with psycopg.connect(svc.database_url) as conn:
        takeovers, holder = conn.execute("SELECT takeovers, holder FROM runs WHERE thread_id = %s", (thread,)).fetchone()
    assert takeovers == 1 and holder.split(":")[1] == str(os.getpid())  # this process continued it
    assert time.monotonic() - killed_clock < 180


def test_forgetting_a_thread_whose_run_is_in_flight_stops_the_run_first(served, svc, counted) -> None:  # type: ignore[no-untyped-def]
    import threading

    import httpx
    import psycopg

    url, keys = served
    thread = "run-to-forget"

    def listen() -> None:
        body = {"message": REQUEST, "thread": thread, "model": "kea-slow-orders", "confirm": "auto"}
        with httpx.stream("POST", f"{url}/v1/runs", json=body, headers=_bearer(keys["ann"]), timeout=300) as response:
            for _ in response.iter_lines():
                pass

    listener = threading.Thread(target=listen)
    listener.start()
    try:
        _wait_for(lambda: len(_calls(counted)) > 8, what="the first documents read")
        assert httpx.delete(f"{url}/v1/threads/{thread}", headers=_bearer(keys["mallory"])).status_code == 404
        gone = httpx.delete(f"{url}/v1/threads/{thread}", headers=_bearer(keys["ann"]), timeout=180)
    finally:
        listener.join(timeout=300)
    assert gone.status_code == 200, gone.text
    assert not listener.is_alive()  # the run ended (it was cancelled before anything was removed)
    assert len(_calls(counted)) < DOCUMENTS
    with psycopg.connect(svc.database_url) as conn:
        assert conn.execute("SELECT count(*) FROM runs WHERE thread_id = %s", (thread,)).fetchone()[0] == 0
        assert conn.execute("SELECT count(*) FROM checkpoints WHERE thread_id = %s", (thread,)).fetchone()[0] == 0
    assert httpx.get(f"{url}/v1/runs/{thread}", headers=_bearer(keys["ann"])).status_code == 404
