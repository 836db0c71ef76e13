"""Several ``kea serve`` replicas on one PostgreSQL, one S3 bucket and one model endpoint.

Two replicas — real ``kea serve`` processes, each with a home of its own as on two machines —
share the session's PostgreSQL, a real S3 server (weed mini) and the scripted model endpoint,
which runs in this process and sees every model call (which document, which replica). Clients
send each request to the other replica than their last one, as a load balancer without sticky
sessions does, and move to the live one when a replica does not answer.

The main test kills one replica with SIGKILL while runs are in flight. Every conversation must
get its table, byte for byte the table of an uninterrupted run; no document whose rows the dead
replica stored is read again (only documents whose call it had in flight are); no answer
crosses into another conversation; and at most ``model_concurrency`` calls of the model run at
once across both replicas.

``KEA_TEST_REPLICA_CONVERSATIONS`` sets the number of conversations: 10 in ``make test``,
50 in ``make test-replicas``. Tests wait on conditions, each bounded only against a hang.
"""

from __future__ import annotations

import asyncio
import csv
import io
import json
import os
import signal
import statistics
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from http_server import free_port
from evals.endpoint import Reply, ScriptedEndpoint, Seen, allowed_endpoint, answer, hang

ROOT = Path(__file__).resolve().parents[2]
COLLECTION = "replicas"
PROFILE = "replicated"
MODEL = f"kea-{PROFILE}"
PIPE_USER = "petra@example.com"  # an Open WebUI user, as the pipe names her
CONVERSATIONS = int(os.environ.get("KEA_TEST_REPLICA_CONVERSATIONS", "10"))
DOCUMENTS = 4  # per conversation, each in a folder of its own
ROWS = 3  # per document
CAP = 4  # model_concurrency: calls of the model at once, across both replicas
CALL_SECONDS = 0.4  # how long the scripted model takes to answer a document
GUARD = 600.0  # seconds: far beyond what any wait here needs; reaching it means a hang
COLUMNS = ["Code", "Item", "Quantity"]
READING = {
    "kind": "table", "columns": COLUMNS, "columns_from": "request", "row_condition": None, "conditions": [],
    "row_terms": [], "document_conditions": [], "places": [], "calculations": [], "notes": [], "unused": [],
}


def request_of(number: int) -> str:
    return f"Code, item and quantity of every order in conv-{number:02d}/"


def rows_of(seen: Seen) -> dict[str, Any]:
    """What a careful model answers: every row of the document's table, as it is printed."""
    records = []
    for page, text in seen.pages():
        for line in text.splitlines():
            if "\t" in line:  # a table as the engines see it: tab-separated cells
                cells = [c.strip() for c in line.split("\t")]
            else:
                cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.startswith("|") else []
            if len(cells) == 3 and cells[0][:1] == "C" and cells[0][1:2].isdigit():
                records.append({"Code": cells[0], "Item": cells[1], "Quantity": cells[2], "record_match": "yes",
                                "page": page, "evidence": line, "note": None})
    return {"records": records}


def script(seen: Seen) -> Reply:
    if seen.reads_request:
        return answer(READING)
    return answer(rows_of(seen), delay=CALL_SECONDS)


# -- the shared services and the replicas -------------------------------------------------------


@pytest.fixture(scope="module")
def endpoint() -> Iterator[ScriptedEndpoint]:
    scripted = ScriptedEndpoint()
    with allowed_endpoint(scripted):
        scripted.reset(script)
        yield scripted


@pytest.fixture(scope="module")
def corpus(kea_home: Path, svc) -> dict[int, dict[str, int]]:  # type: ignore[no-untyped-def]
    """A folder per conversation (conv-NN/order-K.md, rows coded CNN-K-R); {conversation: {path: document id}}."""
    from tools.knowledge.ingest import ingest

    root = kea_home / "replicas-corpus"
    for n in range(max(CONVERSATIONS, 2)):
        folder = root / f"conv-{n:02d}"
        folder.mkdir(parents=True, exist_ok=True)
        for k in range(DOCUMENTS):
            lines = [f"# Order {n:02d}-{k}", "", "| Code | Item | Quantity |", "|---|---|---|"]
            lines += [f"| C{n:02d}-{k}-{r} | Bolt M{r + 3} | {n * 100 + k * 10 + r} |" for r in range(ROWS)]
            (folder / f"order-{k}.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    report = ingest(svc.kb, [root], COLLECTION, embed=False)
    assert len(report.indexed) + len(report.unchanged) == max(CONVERSATIONS, 2) * DOCUMENTS, report.skipped
    svc.kb.grant(COLLECTION, "rita")
    svc.kb.grant(COLLECTION, PIPE_USER)
    with psycopg.connect(svc.database_url) as conn:
        found = conn.execute(
            "SELECT d.path, d.id FROM documents d JOIN collections c ON c.id = d.collection_id WHERE c.name = %s",
            (COLLECTION,)).fetchall()
    ids: dict[int, dict[str, int]] = {}
    for path, document in found:
        ids.setdefault(int(path[5:7]), {})[path] = int(document)
    return ids


@pytest.fixture(scope="module")
def keys(svc) -> Iterator[dict[str, str]]:  # type: ignore[no-untyped-def]
    """API keys of rita (who may read the corpus) and mallory; revoked after the module."""
    from server.cli_http import _with_accounts

    made = {u: _with_accounts(lambda accounts, u=u: accounts.create_key(u))[1] for u in ("rita", "mallory")}
    made["pipe"] = _with_accounts(lambda accounts: accounts.create_key("replicas-pipe", service=True))[1]
    try:
        yield made
    finally:
        with psycopg.connect(svc.database_url, autocommit=True) as conn:
            conn.execute("UPDATE api_keys SET revoked_at = now() WHERE user_id IN ('rita', 'mallory', 'replicas-pipe')")


@pytest.fixture(scope="module")
def bucket(s3_server) -> dict[str, str]:  # type: ignore[no-untyped-def]
    """The environment that points a process at the shared bucket."""
    return {"KEA_STORAGE_URL": "s3://kea-replicas/shared", "KEA_S3_ENDPOINT": s3_server.endpoint,
            "AWS_ACCESS_KEY_ID": s3_server.access_key, "AWS_SECRET_ACCESS_KEY": s3_server.secret_key}


@pytest.fixture(scope="module")
def rows(bucket, monkeypatch_module):  # type: ignore[no-untyped-def]
    """The rows every replica stores, read from the shared bucket."""
    for name, value in bucket.items():
        if name != "KEA_STORAGE_URL":
            monkeypatch_module.setenv(name, value)
    from tools.storage import open_object_store
    from tools.storage.rows import RowStore

    return RowStore(open_object_store(bucket["KEA_STORAGE_URL"]))


@pytest.fixture(scope="module")
def monkeypatch_module() -> Iterator[pytest.MonkeyPatch]:
    with pytest.MonkeyPatch.context() as patch:
        yield patch


@dataclass
class Replica:
    name: str
    port: int
    home: Path
    process: subprocess.Popen[bytes]
    model_key: str  # the API key it sends the model endpoint: which replica made a call

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int:
        return self.process.pid

    def alive(self) -> bool:
        return self.process.poll() is None

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=60)

    def log(self) -> str:
        return (self.home / "serve.log").read_text(errors="replace")[-3000:]


@dataclass
class Replicas:
    """Start ``kea serve`` replicas on the shared services; all are stopped after the module."""

    environment: dict[str, str]
    folder: Path
    started: list[Replica] = field(default_factory=list)

    def start(self, name: str) -> Replica:
        home = self.folder / name
        (home / "profiles").mkdir(parents=True, exist_ok=True)
        model_key = f"model-key-{name}"
        profile = {"engine": "llm", "model": "scripted-replicas", "base_url": self.environment["KEA_BASE_URL"],
                   "collections": [COLLECTION], "model_concurrency": CAP, "concurrency": CAP, "request_timeout": 60,
                   "max_retries": 2}
        (home / "profiles" / f"{PROFILE}.json").write_text(json.dumps(profile), encoding="utf-8")
        port = free_port()
        env = {**self.environment, "KEA_HOME": str(home), "OPENAI_API_KEY": model_key}
        with open(home / "serve.log", "ab") as log:
            process = subprocess.Popen(
                [sys.executable, "-c", "from server.cli import app; app(prog_name='kea')", "serve", "--port", str(port)],
                stdout=log, stderr=subprocess.STDOUT, cwd=ROOT, env=env, start_new_session=True,
            )
        replica = Replica(name, port, home, process, model_key)
        self.started.append(replica)
        deadline = time.monotonic() + GUARD
        while True:
            assert replica.alive(), f"replica {name} exited:\n{replica.log()}"
            try:
                if httpx.get(f"{replica.url}/health", timeout=2).status_code == 200:
                    return replica
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, f"replica {name} did not start:\n{replica.log()}"
            time.sleep(0.1)

    def stop(self) -> None:
        for replica in self.started:
            if replica.alive():
                replica.process.terminate()
                try:
                    replica.process.wait(timeout=60)
                except subprocess.TimeoutExpired:
                    replica.kill()


@pytest.fixture(scope="module")
def replicas(svc, corpus, endpoint, bucket, keys, tmp_path_factory) -> Iterator[Replicas]:  # type: ignore[no-untyped-def]
    from checkpoints.milvus import LocalMilvus

    environment = {
        **{k: v for k, v in os.environ.items() if not k.startswith("KEA_")},
        **bucket,
        "PYTHONPATH": str(ROOT),
        "KEA_DATABASE_URL": svc.database_url,
        "KEA_MILVUS_URI": LocalMilvus.default().ensure_running(),
        "KEA_BASE_URL": endpoint.base_url,
        "KEA_ALLOWED_BASE_URLS": endpoint.base_url,
    }
    started = Replicas(environment, tmp_path_factory.mktemp("replicas"))
    try:
        yield started
    finally:
        started.stop()


@pytest.fixture(scope="module")
def pair(replicas) -> list[Replica]:  # type: ignore[no-untyped-def]
    return [replicas.start("a"), replicas.start("b")]


# -- clients -------------------------------------------------------------------------------------

BROKEN = (httpx.TransportError, httpx.RemoteProtocolError)


class Balancer:
    """Each request of a conversation to the other replica than its last; a replica that does
    not answer is left out from then on (what a load balancer's health check does)."""

    def __init__(self, replicas: list[Replica], key: str) -> None:
        self.replicas = replicas
        self.down: set[str] = set()
        self.turns: Counter[str] = Counter()
        self.owners: dict[str, int] = {}  # thread → the conversation it belongs to
        self.headers = {"Authorization": f"Bearer {key}"}
        self.http = httpx.AsyncClient(timeout=httpx.Timeout(GUARD, connect=5.0), limits=httpx.Limits(max_connections=400))

    def next(self, conversation: str) -> Replica:
        live = [r for r in self.replicas if r.name not in self.down] or self.replicas
        self.turns[conversation] += 1
        return live[self.turns[conversation] % len(live)]

    async def call(self, conversation: str, method: str, path: str, **kwargs: Any) -> httpx.Response:
        for _ in range(2 * len(self.replicas)):
            replica = self.next(conversation)
            try:
                return await self.http.request(method, replica.url + path, headers=self.headers, **kwargs)
            except httpx.ConnectError:
                self.down.add(replica.name)
        raise AssertionError(f"no replica answered {method} {path}")

    async def events(self, conversation: str, path: str, body: dict[str, Any]) -> tuple[str, dict[str, Any] | None]:
        """POST ``body`` and read the run API's events: ("questions"|"result", data), or
        ("broken", None) when the replica went away before its answer."""
        from http_server import EventReader

        for _ in range(2 * len(self.replicas)):
            replica = self.next(conversation)
            reader = EventReader()
            try:
                async with self.http.stream("POST", replica.url + path, json=body, headers=self.headers) as response:
                    if response.status_code == 409:  # answered meanwhile: the state says what now
                        return "broken", None
                    assert response.status_code == 200, (response.status_code, await response.aread())
                    async for line in response.aiter_lines():
                        reader.add(line)
            except httpx.ConnectError:
                self.down.add(replica.name)
                continue
            except BROKEN:
                return "broken", None
            for name, data in reader.events:
                if name in ("questions", "result"):
                    return name, data
            return "broken", None
        raise AssertionError(f"no replica answered POST {path}")

    async def settled(self, conversation: str, thread: str) -> dict[str, Any]:
        """The thread's state once no run is in flight on it (any replica answers)."""
        deadline = time.monotonic() + GUARD
        while True:
            response = await self.call(conversation, "GET", f"/v1/runs/{thread}")
            assert response.status_code == 200, response.text
            state = response.json()
            if state["status"] != "running":
                return state
            assert time.monotonic() < deadline, f"thread {thread} never settled"
            await asyncio.sleep(0.1)

    async def close(self) -> None:
        await self.http.aclose()


async def run_api_conversation(balancer: Balancer, number: int, thread: str) -> dict[str, Any]:
    """The run API: the request, its questions, "yes", the table — following the thread's state
    wherever a replica went away under a request."""
    me = f"conversation-{number}"
    balancer.turns[me] = number  # conversations start on either replica
    balancer.owners[thread] = number
    start = {"message": request_of(number), "thread": thread, "model": MODEL}
    kind, data = await balancer.events(me, "/v1/runs", start)
    for _ in range(20):
        if kind == "broken":
            state = await balancer.settled(me, thread)
            if state["status"] == "new":  # the replica went away before the run began
                kind, data = await balancer.events(me, "/v1/runs", start)
                continue
            kind, data = ("questions", state["questions"]) if state["status"] == "waiting" else ("result", state["result"])
        if kind == "questions":
            assert data is not None and f"conv-{number:02d}" in json.dumps(data["form"]), data  # its own request
            kind, data = await balancer.events(me, f"/v1/runs/{thread}/resume",
                                               {"reply": "yes", "interrupt_id": data["interrupt_id"]})
            continue
        assert data is not None
        return data
    raise AssertionError(f"conversation {number} went round in circles")


async def chat_conversation(balancer: Balancer, number: int) -> tuple[str, dict[str, Any]]:
    """The OpenAI-compatible API with no thread named: the second message finds its thread from
    the conversation it sends back, on the other replica. Returns the thread and its result."""
    me = f"conversation-{number}"
    balancer.turns[me] = number  # conversations start on either replica
    messages = [{"role": "user", "content": request_of(number)}]
    thread, content, status = await chat_turn(balancer, me, messages)
    if status == "broken":  # the replica went away during the questions: ask again, as a chat client does
        thread, content, status = await chat_turn(balancer, me, messages)
    assert status == "questions" and f"conv-{number:02d}" in content, (status, content)
    first = thread
    messages += [{"role": "assistant", "content": content}, {"role": "user", "content": "yes"}]
    thread, content, status = await chat_turn(balancer, me, messages)
    assert thread in (first, None), "the conversation did not find its thread on the other replica"
    state = await balancer.settled(me, first)
    seen = [status, state["status"]]
    if state["status"] == "waiting":  # "yes" never reached a live replica: the thread still asks
        kind, data = await balancer.events(me, f"/v1/runs/{first}/resume",
                                           {"reply": "yes", "interrupt_id": state["questions"]["interrupt_id"]})
        state = await balancer.settled(me, first)
        seen += [kind, state["status"]]
    assert state["status"] == "done", (seen, state, content[-300:], await asyncio.to_thread(_diagnosis, first))
    return first, state["result"]


def _diagnosis(thread: str) -> Any:
    """What the database holds of ``thread``: its run record and its last checkpoint's next nodes."""
    from tools.services import services

    with psycopg.connect(services().database_url) as conn:
        run = conn.execute("SELECT state, origin, holder, takeovers, cancel_requested_at FROM runs WHERE thread_id = %s",
                           (thread,)).fetchone()
        checkpoints = conn.execute("SELECT count(*) FROM checkpoints WHERE thread_id = %s", (thread,)).fetchone()
    return {"run": run, "checkpoints": checkpoints}


async def chat_turn(balancer: Balancer, me: str, messages: list[dict[str, str]]) -> tuple[str | None, str, str]:
    """One streamed chat answer: (its thread, its text, its status or "broken")."""
    for _ in range(2 * len(balancer.replicas)):
        replica = balancer.next(me)
        thread, content, status = None, "", "broken"
        try:
            async with balancer.http.stream("POST", replica.url + "/v1/chat/completions", headers=balancer.headers,
                                            json={"model": MODEL, "messages": messages, "stream": True}) as response:
                assert response.status_code == 200, await response.aread()
                thread = response.headers.get("x-kea-thread")
                if thread:
                    balancer.owners[thread] = int(me.rsplit("-", 1)[-1])
                async for line in response.aiter_lines():
                    if not line.startswith("data: {"):
                        continue
                    chunk = json.loads(line[6:])
                    content += chunk["choices"][0]["delta"].get("content") or ""
                    if chunk["choices"][0]["finish_reason"]:
                        status = chunk["metadata"]["status"]
        except httpx.ConnectError:
            balancer.down.add(replica.name)
            continue
        except BROKEN:
            pass
        return thread, content, status
    raise AssertionError("no replica answered the chat")


# -- what the tests look at ----------------------------------------------------------------------


def table_of(csv_bytes: bytes) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(csv_bytes.decode("utf-8-sig"))))


async def downloaded(balancer: Balancer, me: str, result: dict[str, Any]) -> bytes:
    """The table through the answer's link (presigned by S3) and through a replica with the
    caller's key: the same bytes."""
    linked = await balancer.http.get(result["csv"])
    assert linked.status_code == 200, linked.text
    through = await balancer.call(me, "GET", f"/files/{result['extraction_id']}/table.csv")
    assert through.status_code == 200, through.text
    assert through.content == linked.content
    return linked.content


def holders(url: str, pid: int) -> list[str]:
    """Threads whose run the process ``pid`` holds now."""
    with psycopg.connect(url) as conn:
        return [r[0] for r in conn.execute(
            "SELECT thread_id FROM runs WHERE state = 'running' AND split_part(holder, ':', 2) = %s", (str(pid),))]


async def extraction_of(thread: str) -> str | None:
    from checkpoints.saver import postgres_checkpointer
    from graph.extraction import build_extraction_graph

    async with postgres_checkpointer() as saver:
        values = (await build_extraction_graph(saver).aget_state({"configurable": {"thread_id": thread}})).values
    return values.get("extraction_id")


def most_at_once(requests: list[Seen], cut: dict[str, float]) -> int:
    """The most requests in flight at once, a request of a killed client ending when it died."""
    edges = []
    for seen in requests:
        end = min(seen.ended or time.monotonic(), cut.get(seen.key, float("inf")))
        if end > seen.started:
            edges += [(seen.started, 1), (end, -1)]
    most = now = 0
    for _, step in sorted(edges, key=lambda e: (e[0], e[1])):
        now += step
        most = max(most, now)
    return most


# -- the tests -------------------------------------------------------------------------------------


async def test_any_replica_answers_any_request_of_any_thread(pair, keys, endpoint, svc) -> None:  # type: ignore[no-untyped-def]
    """Cancel, state, download and forget each on the other replica than the one running the thread."""
    from http_server import EventReader

    a, b = pair
    slow = "order-0.md"  # read at once; the others are cancelled in flight
    endpoint.reset(lambda seen: answer(READING) if seen.reads_request else (
        answer(rows_of(seen)) if (seen.document or "").endswith(slow) else hang()))
    headers = {"Authorization": f"Bearer {keys['rita']}"}
    thread = "replicas-cross"
    first_read = asyncio.Event()
    async with httpx.AsyncClient(headers=headers, timeout=GUARD) as http:
        async def listen() -> None:
            body = {"message": request_of(0), "thread": thread, "model": MODEL, "confirm": "auto"}
            reader = EventReader()
            async with http.stream("POST", f"{a.url}/v1/runs", json=body) as response:
                async for line in response.aiter_lines():
                    reader.add(line)
                    if any(name == "progress" and data["event"] == "document_done" for name, data in reader.events):
                        first_read.set()

        listening = asyncio.create_task(listen())
        await asyncio.wait_for(asyncio.wait([asyncio.ensure_future(first_read.wait()), listening],
                                            return_when=asyncio.FIRST_COMPLETED), GUARD)
        assert first_read.is_set(), "no document was read"
        assert (await http.get(f"{b.url}/v1/runs/{thread}")).json()["status"] == "running"
        stranger = await http.delete(f"{b.url}/v1/runs/{thread}", headers={"Authorization": f"Bearer {keys['mallory']}"})
        assert stranger.status_code == 404
        stopped = await http.delete(f"{b.url}/v1/runs/{thread}")
        await asyncio.wait_for(listening, GUARD)
        assert stopped.status_code == 200 and stopped.json()["status"] == "cancelled", stopped.text
        result = stopped.json()["result"]
        assert result["documents"]["extracted"] == 1 and result["rows"] == ROWS and "partial" in result["message"]
        assert (await http.get(f"{a.url}/v1/runs/{thread}")).json()["status"] == "cancelled"
        table = await http.get(f"{b.url}/files/{result['extraction_id']}/table.csv")
        assert table.status_code == 200 and len(table_of(table.content)) == ROWS
        gone = await http.delete(f"{a.url}/v1/threads/{thread}")
        assert gone.status_code == 200 and gone.json()["forgotten"]["checkpoints"] > 0
        assert (await http.get(f"{b.url}/v1/runs/{thread}")).status_code == 404
        assert (await http.get(f"{b.url}/files/{result['extraction_id']}/table.csv")).status_code == 404
    with psycopg.connect(svc.database_url) as conn:
        secrets = conn.execute("SELECT count(*) FROM shared_secrets WHERE name = 'download-links'").fetchone()[0]
    assert secrets == 1  # both replicas sign download links with the one secret of the database
    assert (a.home / "link-secret").read_bytes() != (b.home / "link-secret").read_bytes()


async def test_a_replica_killed_mid_run_leaves_every_conversation_its_table(  # type: ignore[no-untyped-def]
    pair, keys, endpoint, corpus, rows, svc, replicas,
) -> None:
    victim, survivor = pair
    assert victim.alive() and survivor.alive()
    endpoint.reset(script)
    balancer = Balancer(pair, keys["rita"])
    threads = {n: f"replicas-{n:02d}" for n in range(CONVERSATIONS) if n % 3 != 2}  # the others chat

    async def conversation(n: int) -> tuple[str, dict[str, Any]]:
        if n in threads:
            return threads[n], await run_api_conversation(balancer, n, threads[n])
        return await chat_conversation(balancer, n)

    running = [asyncio.create_task(conversation(n)) for n in range(CONVERSATIONS)]
    total_calls = CONVERSATIONS * DOCUMENTS
    try:
        # the kill: a quarter of the documents read, and the victim running at least two runs
        deadline = time.monotonic() + GUARD
        while True:
            done_calls = sum(1 for s in endpoint.extraction_requests() if s.ended)
            held = await asyncio.to_thread(holders, svc.database_url, victim.pid)
            if done_calls >= total_calls // 4 and len(held) >= min(2, CONVERSATIONS // 2):
                break
            assert time.monotonic() < deadline and not any(t.done() and t.exception() for t in running), \
                "the runs never got under way on both replicas"
            await asyncio.sleep(0.05)
        most_before = endpoint.max_in_flight
        with endpoint.answers_held():  # nothing new is stored while the test looks at what the victim stored
            victim.kill()
            killed_clock, killed_at = time.monotonic(), time.time()
            orphaned = await asyncio.to_thread(holders, svc.database_url, victim.pid)
            stored: set[str] = set()
            for thread in orphaned:
                extraction = await extraction_of(thread)
                if extraction:
                    documents = corpus[balancer.owners[thread]]
                    stored |= {p for p, i in documents.items() if rows.outcome(extraction, i, failed=False)}
        results = await asyncio.wait_for(asyncio.gather(*running), GUARD)
    finally:
        for task in running:
            task.cancel()
        await asyncio.gather(*running, return_exceptions=True)

    # every conversation got its own table, whole, through any replica
    tables: dict[int, bytes] = {}
    for n, (thread, result) in enumerate(results):
        assert result["status"] == "done", (n, result)
        assert result["documents"]["extracted"] == DOCUMENTS and not result["documents"]["failed"], (n, result)
        assert result["rows"] == DOCUMENTS * ROWS and result["unsure_rows"] == 0, (n, result)
        tables[n] = await downloaded(balancer, f"conversation-{n}", result)
        table = table_of(tables[n])
        assert {r["File"] for r in table} == set(corpus[n]), (n, table[:3])  # nobody else's documents
        assert sorted(r["Code"] for r in table) == sorted(f"C{n:02d}-{k}-{r}" for k in range(DOCUMENTS) for r in range(ROWS))
    assert len({r["extraction_id"] for _, r in results}) == CONVERSATIONS

    # no document the dead replica had stored was read again; the ones read twice were in flight at the kill
    calls = Counter(s.document for s in endpoint.extraction_requests())
    assert set(calls) == {p for documents in corpus.values() for p in documents} & set(calls)
    assert all(calls[p] >= 1 for n in range(CONVERSATIONS) for p in corpus[n])
    again = {p for p, count in calls.items() if count > 1}
    assert all(calls[p] == 2 for p in again), calls
    assert not again & stored, f"documents whose rows were stored were read again: {sorted(again & stored)}"
    first_calls = {}
    for seen in endpoint.extraction_requests():
        first_calls.setdefault(seen.document, seen)
    assert all(first_calls[p].key == victim.model_key and first_calls[p].started < killed_clock for p in again)
    assert len(again) <= 2 * CAP  # in flight at the kill, or answered and not yet stored

    # the cap held across both replicas (a call of the killed replica ends with it)
    assert {s.key for s in endpoint.requests} == {victim.model_key, survivor.model_key}
    assert most_at_once(endpoint.requests, {victim.model_key: killed_clock}) <= CAP
    assert most_before == CAP  # both replicas kept the model as busy as it may be

    # the dead replica's runs went on on the live one, within seconds
    with psycopg.connect(svc.database_url) as conn:
        taken = conn.execute(
            "SELECT thread_id, extract(epoch FROM leased_at), holder FROM runs WHERE takeovers > 0").fetchall()
    taken = [t for t in taken if t[0] in orphaned]
    assert {t[0] for t in taken} == set(orphaned) and all(t[2].split(":")[1] == str(survivor.pid) for t in taken)
    seconds = sorted(float(t[1]) - killed_at for t in taken)
    print(f"\n{CONVERSATIONS} conversations; {len(orphaned)} runs taken over after the kill, in "
          f"{statistics.median(seconds):.2f} s (median), {seconds[-1]:.2f} s at most; {len(again)} documents "
          f"that were in flight read again; at most {CAP} model calls at once")
    assert seconds[-1] < 60

    # and a run taken over made the table an uninterrupted run makes, byte for byte
    endpoint.reset(script)
    for thread in orphaned:
        number = next((n for n, (t, _) in enumerate(results) if t == thread), None)
        if number is None:
            continue  # a chat's first thread, asked again on the other replica
        body = {"message": request_of(number), "thread": f"{thread}-whole", "model": MODEL, "confirm": "auto"}
        kind, whole = await balancer.events("reference", "/v1/runs", body)
        assert kind == "result" and whole is not None and whole["status"] == "done", whole
        assert await downloaded(balancer, "reference", whole) == tables[number], f"thread {thread}: the table differs"
    await balancer.close()


class Failover:
    """A TCP load balancer: each connection goes to the first replica that accepts it (a killed
    one refuses), and is cut when that replica goes away — what a client behind any balancer sees."""

    def __init__(self, replicas: list[Replica]) -> None:
        self.replicas = replicas
        self.server: asyncio.AbstractServer | None = None

    async def __aenter__(self) -> str:
        self.server = await asyncio.start_server(self._connection, "127.0.0.1", 0)
        return f"http://127.0.0.1:{self.server.sockets[0].getsockname()[1]}"

    async def __aexit__(self, *exc: Any) -> None:
        assert self.server is not None
        self.server.close()

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        for replica in self.replicas:
            try:
                up_reader, up_writer = await asyncio.open_connection("127.0.0.1", replica.port)
                break
            except OSError:
                continue
        else:
            writer.transport.abort()
            return

        async def pump(source: asyncio.StreamReader, target: asyncio.StreamWriter) -> None:
            try:
                while block := await source.read(65536):
                    target.write(block)
                    await target.drain()
            except (ConnectionError, OSError):
                pass
            finally:
                target.transport.abort()  # one side gone: the other is cut too

        await asyncio.gather(pump(reader, up_writer), pump(up_reader, writer))


async def test_open_webui_behind_a_balancer_gets_its_answer_when_its_server_dies(  # type: ignore[no-untyped-def]
    pair, replicas, keys, endpoint, corpus,
) -> None:
    """The pipe speaks to a balancer; the server answering its "yes" is killed mid-run; the pipe
    follows the thread on the server left and answers with the table."""
    from server.openwebui.kea_pipe import Pipe

    live = [r for r in pair if r.alive()]
    assert live
    endpoint.reset(script)
    doomed = await asyncio.to_thread(replicas.start, "e")
    statuses: list[str] = []

    async def emit(event: dict[str, Any]) -> None:
        if event["type"] == "status":
            statuses.append(event["data"]["description"])

    async with Failover([doomed, *live]) as url:
        pipe = Pipe()
        pipe.valves = Pipe.Valves(KEA_URL=url, KEA_API_KEY=keys["pipe"], ATTACH_CSV=False)
        user = {"id": "id-petra", "email": PIPE_USER, "name": "petra"}

        async def chat(messages: list[dict[str, str]], message_id: str) -> str:
            answer = await pipe.pipe({"model": f"kea.{MODEL}", "messages": messages}, __user__=user,
                                     __event_emitter__=emit, __event_call__=None, __chat_id__="replicas-chat",
                                     __message_id__=message_id)
            return answer if isinstance(answer, str) else "".join([piece async for piece in answer])

        messages = [{"role": "user", "content": request_of(3)}]
        asked = await chat(messages, "m1")
        assert "conv-03" in asked, asked
        messages += [{"role": "assistant", "content": asked}, {"role": "user", "content": "yes"}]
        answering = asyncio.create_task(chat(messages, "m3"))
        deadline = time.monotonic() + GUARD
        while not any(s.ended and s.key == doomed.model_key for s in endpoint.extraction_requests()):
            assert time.monotonic() < deadline and not answering.done(), "no document was read"
            await asyncio.sleep(0.05)
        doomed.kill()
        answer = await asyncio.wait_for(answering, GUARD)
    assert "Kea's server changed; the run goes on…" in statuses, statuses
    assert f"Done: {DOCUMENTS * ROWS} rows from {DOCUMENTS} documents." in statuses, (statuses, answer)
    assert "C03-0-0" in answer and "C04-" not in answer, answer


async def test_a_new_request_on_a_thread_whose_server_died_runs_after_its_run_is_continued(  # type: ignore[no-untyped-def]
    pair, replicas, keys, endpoint, corpus,
) -> None:
    """The live replica that gets the new request is also the one to continue the old run: it
    does so first, then answers the new request."""
    live = [r for r in pair if r.alive()]
    assert live
    doomed = await asyncio.to_thread(replicas.start, "d")
    answered: list[Seen] = []

    def cut_midway(seen: Seen) -> Reply:
        """The doomed replica gets one document answered; its other calls wait until it dies, so
        its run is cut midway however fast the machine."""
        if seen.key == doomed.model_key and not seen.reads_request:
            answered.append(seen)
            if len(answered) > 1:
                return Reply(hang=True)
        return script(seen)

    endpoint.reset(cut_midway)
    thread = "replicas-orphan-then-new"
    balancer = Balancer([doomed], keys["rita"])
    body = {"message": request_of(1), "thread": thread, "model": MODEL, "confirm": "auto"}
    started = asyncio.create_task(balancer.events("orphan", "/v1/runs", body))
    deadline = time.monotonic() + GUARD
    while not any(s.ended and s.key == doomed.model_key for s in endpoint.extraction_requests()):
        assert time.monotonic() < deadline and not started.done(), "no document was read"
        await asyncio.sleep(0.05)
    doomed.kill()
    assert (await started)[0] == "broken"
    await balancer.close()
    balancer = Balancer(live, keys["rita"])
    kind, data = await balancer.events("orphan", "/v1/runs", {"message": request_of(2), "thread": thread, "model": MODEL})
    await balancer.close()
    assert kind == "questions" and data is not None and "conv-02" in json.dumps(data["form"]), (kind, data)
    read = {s.document for s in endpoint.extraction_requests()}
    assert set(corpus[1]) <= read  # the old run read all of its documents before the new request ran
    keys_seen = {s.key for s in endpoint.extraction_requests()}
    continued_by = keys_seen - {doomed.model_key}
    assert doomed.model_key in keys_seen and len(continued_by) == 1, keys_seen  # one live replica did both
    assert continued_by <= {r.model_key for r in live}, keys_seen


async def test_a_server_that_starts_continues_the_runs_of_one_that_died(  # type: ignore[no-untyped-def]
    pair, replicas, keys, endpoint, corpus, svc,
) -> None:
    """No replica alive: the next ``kea serve`` to start continues the dead one's run."""
    live = [r for r in pair if r.alive()]
    assert live
    # one document is read before the kill; the others wait for an answer until their replica dies,
    # so the run is cut midway whatever the machine's speed
    first = "order-0.md"
    endpoint.reset(lambda seen: answer(READING) if seen.reads_request else (
        answer(rows_of(seen)) if (seen.document or "").endswith(first) else hang()))
    thread = "replicas-restarted"
    balancer = Balancer(live, keys["rita"])
    body = {"message": request_of(1), "thread": thread, "model": MODEL, "confirm": "auto"}
    started = asyncio.create_task(balancer.events("restart", "/v1/runs", body))
    deadline = time.monotonic() + GUARD
    while sum(1 for s in endpoint.extraction_requests() if s.ended) < 1:
        assert time.monotonic() < deadline and not started.done(), "no document was read"
        await asyncio.sleep(0.05)
    for replica in live:
        replica.kill()
    assert (await started)[0] == "broken"
    endpoint.reset(script)  # the next server's calls are answered
    later = await asyncio.to_thread(replicas.start, "c")
    balancer = Balancer([later], keys["rita"])
    state = await balancer.settled("restart", thread)
    await balancer.close()
    assert state["status"] == "done", state
    assert state["result"]["documents"]["extracted"] == DOCUMENTS
    assert {s.key for s in endpoint.extraction_requests()} >= {later.model_key}
