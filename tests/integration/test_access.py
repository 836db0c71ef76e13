"""Nobody let in, nothing kept: access through every entry point, and forgetting a conversation.

Everything is real: ``kea serve``'s app under uvicorn, the ``kea`` command in its own process,
PostgreSQL with LangGraph's checkpointer, the folder store and a real S3 server (``weed mini``).
Only the Universal Agent's model is scripted (the language-model boundary).

Users: fay reads the 102 order files (``access-orders``), hal reads the generated corpus, ivy
reads both, gus reads nothing.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from http_server import EventReader, serve_app
from psycopg import sql

from core.profile import Profile
from tools.storage.rows import extraction_prefix

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
COLLECTION = "access-orders"
CABLES = "Item and price of every row where the item contains cable"
BOLTS = "Item and price of every row where the item contains bolt"
SLAS = "Priority, response time and resolution time from the SLAs"
USERS = ("fay", "gus", "hal", "ivy")


@pytest.fixture(scope="module")
def orders(kb, kea_home: Path, corpus) -> None:  # type: ignore[no-untyped-def]
    """102 order files: more than 100 documents, so a confirmed request leaves a sample waiting."""
    from tools.knowledge.ingest import ingest

    folder = kea_home / COLLECTION
    for i in range(102):
        file = folder / "orders" / f"order-{i:03d}.csv"
        file.parent.mkdir(parents=True, exist_ok=True)
        lines = ["Item,Quantity,Price", f"steel bolt M{i % 12 + 3},{i % 7 + 1},{i % 9 + 1}.25"]
        if i % 17 == 3:
            lines.append(f"copper cable {i} m,1,{i}.50")
        file.write_text("\n".join(lines) + "\n", encoding="utf-8")
    report = ingest(kb, [folder], COLLECTION, embed=False)
    assert len(report.indexed + report.unchanged) == 102, report.skipped
    for collection, user in ((COLLECTION, "fay"), ("corpus", "hal"), (COLLECTION, "ivy"), ("corpus", "ivy")):
        kb.grant(collection, user)


@pytest.fixture(scope="module")
def keys(svc, orders) -> Iterator[dict[str, str]]:  # type: ignore[no-untyped-def]
    from server.cli_http import _with_accounts

    made = {user: _with_accounts(lambda accounts, u=user: accounts.create_key(u))[1] for user in USERS}
    made["pipe"] = _with_accounts(lambda accounts: accounts.create_key("access-pipe", service=True))[1]
    yield made
    with psycopg.connect(svc.database_url, autocommit=True) as conn:  # later tests expect their own keys only
        conn.execute("UPDATE api_keys SET revoked_at = now() WHERE user_id = ANY(%s)", ([*USERS, "access-pipe"],))


def auth(keys: dict[str, str], who: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {keys[who]}"}


@pytest.fixture(scope="module")
def url(svc, keys) -> Iterator[str]:  # type: ignore[no-untyped-def]
    from server.app import create_app

    with serve_app(create_app(svc)) as served:
        yield served


def kea(*args: str, env: dict[str, str] | None = None) -> tuple[int, dict[str, Any]]:
    """``kea ARGS --json`` in its own process: the exit code and the one JSON object it printed."""
    done = subprocess.run([sys.executable, "-m", "server.cli", *args, "--json"], capture_output=True, text=True,
                          cwd=ROOT, env={**ENV, **(env or {})}, timeout=600)
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 1, done.stdout + done.stderr
    return done.returncode, json.loads(lines[0])


def events(url: str, path: str, body: dict[str, Any], headers: dict[str, str]) -> list[tuple[str, dict[str, Any]]]:
    reader = EventReader()
    with httpx.stream("POST", f"{url}{path}", json=body, headers=headers, timeout=300) as response:
        assert response.status_code == 200, response.read()
        for line in response.iter_lines():
            reader.add(line)
    return reader.events


def result_of(url: str, message: str, headers: dict[str, str], thread: str | None = None) -> dict[str, Any]:
    """One confirmed run through the run API: its result event."""
    body: dict[str, Any] = {"message": message, "confirm": "auto", **({"thread": thread} if thread else {})}
    name, data = events(url, "/v1/runs", body, headers)[-1]
    assert name == "result", data
    return data


# -- forgetting: nothing of the conversation remains ---------------------------------------------


def mentions(svc, needles: list[str]) -> dict[str, int]:  # type: ignore[no-untyped-def]
    """Rows of every table of Kea's schema (its own and LangGraph's) whose text holds any needle;
    the query audit is counted apart (it keeps its rows, without their text)."""
    found: dict[str, int] = {}
    with psycopg.connect(svc.database_url) as conn:
        tables = [r[0] for r in conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1").fetchall()]
        for table in tables:
            row = sql.SQL("t::text")
            if table == "workspace_queries":  # who ran what when stays: everything but the thread's name
                row = sql.SQL("concat_ws(' ', t.query, t.error, t.csv_key)")
            count = conn.execute(
                sql.SQL("SELECT count(*) FROM {} t WHERE {} LIKE ANY(%s)").format(sql.Identifier("public", table), row),
                ([f"%{n}%" for n in needles],),
            ).fetchone()[0]
            if count:
                found[table] = count
    return found


def stored(store, extraction_ids: list[str], workspace: str) -> list[str]:  # type: ignore[no-untyped-def]
    keys = [k for e in extraction_ids for k in store.keys(extraction_prefix(e) + "/")]
    return keys + list(store.keys(f"workspace/{workspace}/"))


def s3_env(s3_server) -> dict[str, str]:  # type: ignore[no-untyped-def]
    return {"KEA_STORAGE_URL": "s3://kea-test-files/team-a", "KEA_S3_ENDPOINT": s3_server.endpoint,
            "AWS_ACCESS_KEY_ID": s3_server.access_key, "AWS_SECRET_ACCESS_KEY": s3_server.secret_key}


@contextmanager
def on_store(svc, request, kind: str) -> Iterator[tuple[Any, str, dict[str, str]]]:  # type: ignore[no-untyped-def]
    """Services on the folder store or on S3, Kea's app served on them, and the ``kea`` environment."""
    from server.app import create_app
    from tools.services import Services
    from tools.storage.rows import RowStore

    if kind == "file":
        chosen, env = svc, {}
    else:
        s3 = request.getfixturevalue("s3_store")
        chosen, env = Services(svc.database_url, svc.kb, s3, RowStore(s3)), s3_env(request.getfixturevalue("s3_server"))
    with serve_app(create_app(chosen)) as served:
        yield chosen, served, env


async def stop_before_the_table(services, thread: str) -> str:  # type: ignore[no-untyped-def]
    """A run on ``thread`` that stops before its table is stored (as a killed run does): its rows
    are stored, its extraction is recorded nowhere but in the checkpoints. Its extraction id."""
    from checkpoints.saver import postgres_checkpointer
    from graph.extraction import build_extraction_graph

    async with postgres_checkpointer() as saver:
        graph = build_extraction_graph(saver, services=services)
        values = await graph.ainvoke(
            {"message": BOLTS, "confirm": "auto"}, {"configurable": {"thread_id": thread}},
            context=Profile(name="script", user="fay", collections=[COLLECTION], path_glob="orders/order-00*"),
            interrupt_before=["store_csv"],
        )
    return str(values["extraction_id"])


@pytest.mark.parametrize(("store", "how"), [("file", "cli"), ("s3", "api"), ("file", "api"), ("s3", "cli")])
def test_forgetting_a_conversation_leaves_nothing_of_it(svc, keys, request, store: str, how: str) -> None:  # type: ignore[no-untyped-def]
    from tools.workspace.sources import ExtractionTable
    from tools.workspace.workspace import Workspaces

    thread = f"forget-{store}-{how}-{uuid.uuid4().hex[:8]}"
    with on_store(svc, request, store) as (services, url, env):
        fay = auth(keys, "fay")
        # a chat: the questions, a yes, and a sample of 5 whose selection waits for the next yes
        chat: list[dict[str, str]] = []
        for text in (CABLES, "yes"):
            chat.append({"role": "user", "content": text})
            answer = httpx.post(f"{url}/v1/chat/completions", headers={**fay, "X-Kea-Thread": thread}, timeout=300,
                                json={"model": "kea-document-tables", "messages": chat}).json()
            chat.append({"role": "assistant", "content": answer["choices"][0]["message"]["content"]})
        assert answer["metadata"]["status"] == "sample"
        link = re.search(r"\[table\.csv\]\((http[^)]+)\)", chat[-1]["content"]).group(1)  # type: ignore[union-attr]
        state = httpx.get(f"{url}/v1/runs/{thread}", headers=fay).json()
        sample = state["result"]["extraction_id"]
        # its SQL workspace: the sample's table loaded, one query answered (a result file)
        workspaces = Workspaces(svc.database_url, services.objects, svc.kb)
        try:
            loaded = workspaces.load_table(thread, "fay", ExtractionTable(sample))
            workspaces.run_sql(thread, "fay", f"SELECT count(*) FROM {loaded.table}")
            schema = workspaces.catalog.name_for(thread)
        finally:
            workspaces.close()
        stopped = asyncio.run(stop_before_the_table(services, thread))

        needles = [thread, sample, stopped]
        before = mentions(svc, needles)
        files = stored(services.objects, [sample, stopped], schema)
        assert {"chat_threads", "chat_turns", "thread_extractions", "pending_selections", "workspaces",
                "workspace_tables", "checkpoints", "checkpoint_blobs", "checkpoint_writes"} <= set(before)
        assert any("/rows/" in k for k in files) and any(k.endswith("table.xlsx") for k in files)
        assert any(k.startswith(f"workspace/{schema}/") for k in files)
        assert any(k.startswith(extraction_prefix(stopped)) for k in files)

        # another user: "no such thread", and nothing is removed
        if how == "api":
            refused = httpx.delete(f"{url}/v1/threads/{thread}", headers=auth(keys, "gus"))
            assert refused.status_code == 404 and refused.json()["error"]["message"] == f"There is no thread {thread}."
        else:
            code, refused_json = kea("forget", thread, "--user", "gus", env=env)
            assert code == 1 and refused_json == {"error": f"There is no conversation {thread} of yours; nothing was removed."}
        assert mentions(svc, needles) == before and stored(services.objects, [sample, stopped], schema) == files

        if how == "api":
            response = httpx.delete(f"{url}/v1/threads/{thread}", headers=fay)
            assert response.status_code == 200
            gone = response.json()
        else:
            code, gone = kea("forget", thread, "--user", "fay", env=env)
            assert code == 0
        assert gone["thread"] == thread
        assert gone["forgotten"] | {"extraction_files": 0} == {
            "tables": 1, "files": 1, "queries": 1, "extractions": 2, "checkpoints": True, "selections": 1,
            "extraction_files": 0,
        }
        assert gone["forgotten"]["extraction_files"] == len([k for k in files if k.startswith("record-extraction/")])

        assert mentions(svc, needles) == {}  # no row of Kea's or LangGraph's tables names it
        assert stored(services.objects, [sample, stopped], schema) == []  # no object under its prefixes
        if store == "file":
            assert not (services.objects.root / extraction_prefix(sample)).exists()  # not even an empty folder
        with psycopg.connect(svc.database_url) as conn:
            assert not conn.execute("SELECT 1 FROM pg_namespace WHERE nspname = %s", (schema,)).fetchall()
            assert not conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (schema,)).fetchall()
            audit = conn.execute("SELECT user_id, outcome, duration_ms FROM workspace_queries WHERE thread_id = %s",
                                 (thread,)).fetchall()
        assert [(u, o) for u, o, _ in audit] == [("fay", "ok")] and audit[0][2] is not None  # who, what came of it
        assert httpx.get(link, timeout=30).status_code in (403, 404)  # the answer's own link opens nothing now
        assert httpx.get(f"{url}/v1/runs/{thread}", headers=fay).status_code == 404
        assert httpx.delete(f"{url}/v1/threads/{thread}", headers=fay).status_code == 404  # nothing left to forget


async def test_forgetting_an_agent_conversation_removes_its_subgraphs_checkpoints_and_tables(svc, orders) -> None:  # type: ignore[no-untyped-def]
    from agent_fakes import ScriptedToolModel, call, last_tool, say

    from graph.runs import run_universal
    from tools.workspace.workspace import Workspaces

    def script(messages, tools):  # type: ignore[no-untyped-def]
        if last_tool(messages) is None:
            return call("extract_records", {"request": SLAS, "selection": {"folders": ["slas"]},
                                            "columns": ["Priority", "Response time", "Resolution time"]}, messages)
        return say("The SLA times are in the table below.")

    thread = f"forget-agent-{uuid.uuid4().hex[:8]}"
    agent = Profile(name="universal", user="hal", collections=["corpus"], document_tools=True, engine="offline",
                    extraction_confirmation="none")
    done = await run_universal(SLAS, agent, model=ScriptedToolModel(script=script), thread_id=thread)
    (table,) = done["tables"]
    extraction = table["extraction_id"]
    assert list(svc.objects.keys(extraction_prefix(extraction) + "/"))
    with psycopg.connect(svc.database_url) as conn:
        namespaces = {r[0] for r in conn.execute("SELECT DISTINCT checkpoint_ns FROM checkpoints WHERE thread_id = %s",
                                                 (thread,))}
    assert "" in namespaces and len(namespaces) > 1  # the extraction graph ran as a subgraph of the agent

    workspaces = Workspaces(svc.database_url, svc.objects, svc.kb)
    try:
        gone = await asyncio.to_thread(workspaces.forget, thread, "hal")
    finally:
        workspaces.close()
    assert gone.extractions == 1 and gone.checkpoints
    assert mentions(svc, [thread, extraction]) == {}
    assert list(svc.objects.keys(extraction_prefix(extraction) + "/")) == []


# -- access: a user without access to a collection sees nothing of it, whichever way they ask ------


def test_the_cli_profile_reads_only_what_its_user_may_read(orders) -> None:  # type: ignore[no-untyped-def]
    for extra in ([], ["--collection", "corpus"]):
        code, answer = kea("extract", SLAS, "--user", "gus", "--yes", *extra)
        assert answer["status"] == "no_documents" and answer["rows"] == 0 and not answer.get("csv")
        assert "user 'gus' may read" in answer["message"]
        assert [a["kind"] for a in answer["actions"]] == ["add_documents", "ask_for_access"]
    code, answer = kea("extract", SLAS, "--user", "hal", "--yes")
    assert code == 0 and answer["status"] == "done" and answer["rows"] > 0  # the same request, for a reader
    # the table is hal's: hal loads it into the thread's workspace, nobody else can
    code, loaded = kea("sql", "--thread", answer["thread"], "--load", answer["extraction_id"], "--user", "hal")
    assert code == 0 and loaded["rows"] == answer["rows"]
    code, refused = kea("sql", "--thread", f"gus-{uuid.uuid4().hex[:8]}", "--load", answer["extraction_id"], "--user", "gus")
    assert code == 1 and refused == {"error": f"There is no extraction {answer['extraction_id']} of yours."}


def test_the_run_api_reads_only_what_the_key_s_user_may_read(url, keys) -> None:  # type: ignore[no-untyped-def]
    refused = result_of(url, SLAS, auth(keys, "gus"))
    assert refused["status"] == "no_documents" and refused["rows"] == 0 and not refused.get("csv")
    assert "slas/" not in json.dumps(refused)
    assert result_of(url, SLAS, auth(keys, "hal"))["rows"] > 0


def test_chat_completions_read_only_what_the_key_s_user_may_read(url, keys) -> None:  # type: ignore[no-untyped-def]
    def ask(who: str) -> str:
        """The request, and "yes" when it was asked back: the last answer."""
        body = {"model": "kea-document-tables", "messages": [{"role": "user", "content": SLAS}]}
        answer = httpx.post(f"{url}/v1/chat/completions", json=body, headers=auth(keys, who), timeout=300).json()
        if answer["metadata"]["status"] == "questions":
            body["messages"] += [{"role": "assistant", "content": answer["choices"][0]["message"]["content"]},
                                 {"role": "user", "content": "yes"}]
            answer = httpx.post(f"{url}/v1/chat/completions", json=body, headers=auth(keys, who), timeout=300).json()
        return str(answer["choices"][0]["message"]["content"])

    assert "| File | Priority |" in ask("hal")
    refused = ask("gus")
    assert "user 'gus' may read" in refused and "| File |" not in refused and "slas/" not in refused


async def test_the_open_webui_pipe_runs_each_chat_as_its_user(url, keys) -> None:  # type: ignore[no-untyped-def]
    from server.openwebui.kea_pipe import Pipe

    pipe = Pipe()
    pipe.valves = Pipe.Valves(KEA_URL=url, KEA_API_KEY=keys["pipe"], ATTACH_CSV=False)

    async def send(email: str, chat_id: str, text: str) -> str:
        async def answered(event: dict[str, Any]) -> dict[str, Any]:  # the dialog, every recommended option kept
            return {"status": "answered", "answers": {q["id"]: {"type": "option", "option_index": 0, "label": q["options"][0]["label"]}
                                                      for q in event["data"]["questions"]}}

        async def emit(event: dict[str, Any]) -> None:
            return None

        reply = await pipe.pipe({"model": "kea.kea-document-tables", "messages": [{"role": "user", "content": text}]},
                                __user__={"id": email, "email": email, "name": email}, __event_emitter__=emit,
                                __event_call__=answered, __chat_id__=chat_id, __message_id__="m1")
        return reply if isinstance(reply, str) else "".join([piece async for piece in reply])

    hal_chat = f"chat-{uuid.uuid4().hex[:8]}"
    assert "| File | Priority |" in await send("hal", hal_chat, SLAS)
    refused = await send("gus", f"chat-{uuid.uuid4().hex[:8]}", SLAS)
    assert "table.csv" not in refused and "slas/" not in refused
    # a chat id of someone else's chat: Kea answers as for a thread that does not exist
    theirs = await send("gus", hal_chat, "yes")
    assert "404" in theirs and "There is no thread" in theirs and "slas/" not in theirs


def test_the_agent_s_document_tools_reach_only_the_user_s_collections(svc, orders) -> None:  # type: ignore[no-untyped-def]
    from tools.agent import documents
    from tools.agent.schemas import (
        ListDocuments, RankDocuments, ReadDocument, SearchDocuments, SelectDocuments, SelectionPart,
    )
    from core.selection import Scope

    slas = [d for d in svc.kb.resolve(Scope(user="hal", collections=["corpus"])).documents if d.path.startswith("slas/")]
    path = slas[0].path
    for scope in (Scope(user="gus"), Scope(user="gus", collections=["corpus"]), Scope(user="fay", collections=["corpus"])):
        said = [
            documents.list_documents(svc, scope, ListDocuments()),
            documents.list_documents(svc, scope, ListDocuments(folder="slas")),
            documents.read_document(svc, scope, ReadDocument(path=path)),
            documents.read_document(svc, scope, ReadDocument(path=f"corpus:{path}")),
            documents.search_documents(svc, scope, SearchDocuments(text="Priority")),
            documents.search_documents(svc, scope, SearchDocuments(text="P.iority", regex=True)),
            documents.rank_documents(svc, scope, RankDocuments(query="service level agreement")),
        ]
        chosen, count = documents.select_documents(svc, scope, SelectDocuments(parts=[
            SelectionPart(path_globs=["slas/**"]), SelectionPart(ids=[d.id for d in slas])]))
        assert count == 0 and not any(d.path in chosen for d in slas), chosen
        assert all(text.startswith(("No ", "Nothing ")) for text in said), said
        assert not any(d.path in text.replace(path, "") for text in said for d in slas), said  # only the asked path, echoed
    readable = documents.read_document(svc, Scope(user="hal"), ReadDocument(path=path))
    assert path in readable  # the same call, for a reader


async def test_the_agent_s_extract_records_reads_only_the_user_s_collections(svc, orders) -> None:  # type: ignore[no-untyped-def]
    from agent_fakes import ScriptedToolModel, call, last_tool, say

    from graph.runs import run_universal

    def script(messages, tools):  # type: ignore[no-untyped-def]
        if last_tool(messages) is None:
            return call("extract_records", {"request": SLAS, "selection": {"folders": ["slas"]},
                                            "columns": ["Priority", "Response time", "Resolution time"]}, messages)
        return say("Done.")

    agent = Profile(name="universal", user="gus", collections=["corpus"], document_tools=True, engine="offline",
                    extraction_confirmation="none")
    done = await run_universal(SLAS, agent, model=ScriptedToolModel(script=script))
    assert not done.get("tables")
    assert "slas/" not in json.dumps(done.get("answer") or {}, default=str)


def test_the_sql_workspace_loads_only_documents_the_user_may_read(svc, orders) -> None:  # type: ignore[no-untyped-def]
    from tools.agent.workspace_tools import LoadTable, run
    from core.selection import Scope

    order = "orders/order-003.csv"
    code, refused = kea("sql", "--thread", f"ws-gus-{uuid.uuid4().hex[:8]}", "--load-document", order,
                        "--collection", COLLECTION, "--user", "gus")
    assert code == 1 and refused == {"error": f"There is no document '{order}' in collection '{COLLECTION}' that you may read."}
    code, loaded = kea("sql", "--thread", f"ws-fay-{uuid.uuid4().hex[:8]}", "--load-document", order,
                       "--collection", COLLECTION, "--user", "fay")
    assert code == 0 and loaded["rows"] >= 1  # the same load, for a reader
    # the Data Analyst's load_table: the user's access, and the profile's own collections
    for scope, thread in ((Scope(user="gus"), "ws-agent-gus"), (Scope(user="ivy", collections=["corpus"]), "ws-agent-ivy")):
        said = run(svc, scope, f"{thread}-{uuid.uuid4().hex[:8]}", "load_table",
                   LoadTable(document_path=f"{COLLECTION}:{order}"))
        assert said.startswith("load_table did not run") and "rows" not in said, said
    said = run(svc, Scope(user="ivy"), f"ws-agent-ivy-{uuid.uuid4().hex[:8]}", "load_table",
               LoadTable(document_path=f"{COLLECTION}:{order}"))
    assert said.startswith("Loaded"), said


def test_another_user_s_thread_cannot_be_read_forgotten_or_downloaded_from(url, keys) -> None:  # type: ignore[no-untyped-def]
    hal, gus = auth(keys, "hal"), auth(keys, "gus")
    mine = result_of(url, SLAS, hal, thread=f"hal-{uuid.uuid4().hex[:8]}")
    other = result_of(url, SLAS, hal)
    thread, csv_link = mine["thread"], mine["csv"]
    plain = csv_link.split("?")[0]
    assert httpx.get(csv_link).status_code == 200 and httpx.get(plain, headers=hal).status_code == 200

    # no way to a link: the thread does not exist for gus
    for response in (httpx.get(f"{url}/v1/runs/{thread}", headers=gus),
                     httpx.post(f"{url}/v1/runs/{thread}/resume", json={"reply": "yes"}, headers=gus),
                     httpx.delete(f"{url}/v1/threads/{thread}", headers=gus)):
        assert response.status_code == 404 and response.json()["error"]["message"] == f"There is no thread {thread}."
    # the file by key: the same 404 as a file that does not exist
    assert httpx.get(plain, headers=gus).status_code == 404
    # a link opens its own file only: another extraction's path under its signature, or a changed signature
    query = csv_link.split("?")[1]
    assert httpx.get(f"{other['csv'].split('?')[0]}?{query}").status_code == 403
    assert httpx.get(plain.replace("table.csv", "summary.json") + "?" + query).status_code == 403
    assert httpx.get(csv_link.replace("sig=", "sig=f")).status_code == 403
    assert httpx.get(f"{url}/files/..%2F..%2Fpostgres/table.csv?{query}").status_code in (403, 404)
    # and after all that, hal's thread is whole
    assert httpx.get(f"{url}/v1/runs/{thread}", headers=hal).json()["status"] == "done"
    assert httpx.get(csv_link).status_code == 200


def test_no_key_reaches_the_local_user_who_reads_every_collection(url, keys) -> None:  # type: ignore[no-untyped-def]
    refused = subprocess.run([sys.executable, "-m", "server.cli", "keys", "create", "local"], capture_output=True,
                             text=True, cwd=ROOT, env=ENV)
    assert refused.returncode != 0 and "gets no key" in " ".join(refused.stderr.split()) and "kea_" not in refused.stdout
    acting = httpx.post(f"{url}/v1/runs", json={"message": SLAS, "confirm": "auto"},
                        headers={**auth(keys, "pipe"), "X-Kea-User": "local"})
    assert acting.status_code == 403 and "cannot act for 'local'" in acting.json()["error"]["message"]
    assert httpx.post(f"{url}/v1/runs", json={"message": SLAS, "confirm": "auto"},
                      headers={**auth(keys, "pipe"), "X-Kea-User": "gus"}).status_code == 200
