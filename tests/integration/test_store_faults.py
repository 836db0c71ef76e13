"""The object store failing when the table is stored: a real S3 server (weed mini) stopped and
started again.

The run stops at store_csv with its checkpoint and says so in a sentence; nothing is left under
a table's final name; running the thread again once the store is back publishes the table
without reading a document again.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from s3_server import WeedMini

from checkpoints.saver import postgres_checkpointer
from evals.tables import rows_from_csv
from graph.runs import stopped_result
from graph.extraction import build_extraction_graph
from core.profile import Profile
from tools.storage.objects import StoreUnavailable, staging_key
from tools.storage.rows import OUTPUTS, output_key, table_key

COLLECTION = "store-faults"
REQUEST = "Code, item and quantity of every order"
DOCUMENTS = 6


@pytest.fixture(scope="module")
def orders(kea_home: Path, kb) -> list[str]:  # type: ignore[no-untyped-def]
    from tools.knowledge.ingest import ingest

    folder = kea_home / "store-fault-orders"
    folder.mkdir(exist_ok=True)
    for n in range(1, DOCUMENTS + 1):
        rows = [f"| {n}-{k} | Bolt M{k + 3} | {n * 10 + k} |" for k in range(1, 4)]
        (folder / f"order-{n}.md").write_text("| Code | Item | Quantity |\n|---|---|---|\n" + "\n".join(rows) + "\n", encoding="utf-8")
    assert len(ingest(kb, [folder], COLLECTION, embed=False).indexed) == DOCUMENTS
    return [f"order-{n}.md" for n in range(1, DOCUMENTS + 1)]


@pytest.fixture
def weed(tmp_path: Path) -> Iterator[WeedMini]:
    """A weed mini of this test's own, so stopping it touches no other test."""
    server = WeedMini(tmp_path / "weed")
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def s3_services(svc, weed, monkeypatch):  # type: ignore[no-untyped-def]
    """Kea's services with the tables on the stoppable S3 server."""
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "kea-test-access")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "kea-test-secret-0123456789")
    monkeypatch.setenv("KEA_S3_ENDPOINT", weed.endpoint)
    from tools.services import Services
    from tools.storage import open_object_store
    from tools.storage.rows import RowStore

    store = open_object_store("s3://kea-store-faults/kea")
    return Services(svc.database_url, svc.kb, store, RowStore(store), vectors=svc.vectors)


async def _until_store(graph: Any, config: dict[str, Any], profile: Profile) -> None:
    """Run the request up to the step that stores the table (every document read and stored)."""
    await graph.ainvoke({"message": REQUEST, "confirm": "auto"}, config, context=profile, interrupt_before=["store_csv"])
    assert (await graph.aget_state(config)).next == ("store_csv",)


def _outputs(store: Any, extraction_id: str) -> dict[str, bool]:
    return {name: store.exists(output_key(extraction_id, name)) for name in OUTPUTS}


async def test_a_store_that_is_down_stops_the_run_with_a_sentence_and_resume_publishes_the_table(  # type: ignore[no-untyped-def]
    s3_services, weed, orders, reads
) -> None:
    profile = Profile(collections=[COLLECTION], engine="offline")
    thread = f"store-down-{uuid.uuid4().hex[:8]}"
    config = {"configurable": {"thread_id": thread}}
    async with postgres_checkpointer() as saver:
        graph = build_extraction_graph(saver, services=s3_services)
        await _until_store(graph, config, profile)
        read_before = len(reads)
        assert read_before == DOCUMENTS

        weed.stop()  # the object store goes away just as the table is to be stored
        with pytest.raises(StoreUnavailable) as stopped:
            await graph.ainvoke(None, config, context=profile)
        message = str(stopped.value)
        assert message == (
            f"The table could not be stored: the object store at {weed.endpoint} could not be reached. "
            "The rows are kept: once the object store is back, the run stores the table."
        )
        # what to do is data: each client says it in its own words (the CLI: kea resume THREAD)
        assert [a.model_dump() for a in stopped_result(stopped.value, thread).actions] == [
            {"kind": "resume", "thread": thread, "extraction_id": None}]
        state = await graph.aget_state(config)
        assert state.next == ("store_csv",) and not state.values.get("answer")  # no answer offered

        weed.start()  # the store is back: the thread continues where it stopped
        values = await graph.ainvoke(None, config, context=profile)
    answer = values["answer"]
    assert answer["status"] == "done" and answer["summary"]["rows"] == 3 * DOCUMENTS, answer["message"]
    assert len(reads) == read_before  # no document was read again
    store = s3_services.objects
    with store.open(table_key(values["extraction_id"])) as handle:
        _, rows = rows_from_csv(handle.read())
    assert sorted({r["file"] for r in rows}) == orders and len(rows) == 3 * DOCUMENTS
    assert all(_outputs(store, values["extraction_id"]).values())


async def test_a_store_failing_midway_leaves_no_part_of_the_table_under_its_name(s3_services, weed, orders) -> None:  # type: ignore[no-untyped-def]
    profile = Profile(collections=[COLLECTION], engine="offline")
    config = {"configurable": {"thread_id": f"store-midway-{uuid.uuid4().hex[:8]}"}}
    store = s3_services.objects
    async with postgres_checkpointer() as saver:
        graph = build_extraction_graph(saver, services=s3_services)
        await _until_store(graph, config, profile)
        extraction_id = (await graph.aget_state(config)).values["extraction_id"]

        written: list[str] = []

        def stop_after_the_csv(params: dict[str, Any], **_: Any) -> None:
            written.append(params["Key"])
            if params["Key"].endswith("/table.xlsx"):  # the CSV is written; the store dies before the spreadsheet
                weed.stop()

        store.client.meta.events.register("before-parameter-build.s3.PutObject", stop_after_the_csv)
        try:
            with pytest.raises(StoreUnavailable):
                await graph.ainvoke(None, config, context=profile)
        finally:
            store.client.meta.events.unregister("before-parameter-build.s3.PutObject", stop_after_the_csv)
        assert any(key.endswith("/table.csv") for key in written)  # it did fail part-way

        weed.start()
        # nothing of the failed attempt is under a final name: no table to download, half or whole
        assert _outputs(store, extraction_id) == {name: False for name in OUTPUTS}
        assert store.exists(staging_key(table_key(extraction_id)))

        values = await graph.ainvoke(None, config, context=profile)
    assert values["answer"]["status"] == "done" and values["answer"]["summary"]["rows"] == 3 * DOCUMENTS
    assert all(_outputs(store, extraction_id).values())
    assert not any("/.staging/" in key for key in store.keys(f"record-extraction/{extraction_id}"))


async def test_a_store_down_before_any_document_is_read_stops_the_run_with_a_sentence(  # type: ignore[no-untyped-def]
    s3_services, weed, orders, reads
) -> None:
    profile = Profile(collections=[COLLECTION], engine="offline")
    thread = f"store-down-early-{uuid.uuid4().hex[:8]}"
    config = {"configurable": {"thread_id": thread}}
    async with postgres_checkpointer() as saver:
        graph = build_extraction_graph(saver, services=s3_services)
        await graph.ainvoke({"message": REQUEST, "confirm": "auto"}, config, context=profile, interrupt_before=["plan"])
        assert (await graph.aget_state(config)).next == ("plan",)

        weed.stop()  # the object store goes away before the reading is stored for the tasks
        with pytest.raises(StoreUnavailable) as stopped:
            await graph.ainvoke(None, config, context=profile)
        assert str(stopped.value) == (
            f"The object store failed before any document was read (the object store at {weed.endpoint} could not "
            "be reached), so nothing was read. Once it is back, the run can continue."
        )
        assert [a.kind for a in stopped_result(stopped.value, thread).actions] == ["resume"]
        assert not reads and (await graph.aget_state(config)).next == ("plan",)

        weed.start()
        values = await graph.ainvoke(None, config, context=profile)
    assert values["answer"]["status"] == "done" and values["answer"]["summary"]["rows"] == 3 * DOCUMENTS
    assert len(reads) == DOCUMENTS


def test_a_chat_continues_a_run_the_store_stopped_when_told_continue(s3_services, weed, orders, reads) -> None:  # type: ignore[no-untyped-def]
    """Over the OpenAI-compatible chat: the answer says what to type there (no shell command), and
    "continue" finishes the run from its checkpoint once the store is back."""
    from server.chat_text import CHAT_ACTIONS
    from server.app import create_app
    from server.cli_http import _with_accounts
    from server.profiles import SHIPPED, Profiles

    user = "olga@example.com"
    s3_services.kb.grant(COLLECTION, user)
    info, key = _with_accounts(lambda accounts: accounts.create_key(user))
    profiles = Profiles({**{n: dict(v) for n, v in SHIPPED.items()}, "orders": {"collections": [COLLECTION]}})
    try:
        _continue_in_chat(create_app(s3_services, profiles=profiles), key, weed, orders, reads, CHAT_ACTIONS)
    finally:  # later tests expect no live key
        _with_accounts(lambda accounts: accounts.revoke_key(info.id))


def _continue_in_chat(app, key, weed, orders, reads, chat_actions) -> None:  # type: ignore[no-untyped-def]
    from http_server import serve_app
    from openai import OpenAI

    with serve_app(app) as url:
        client = OpenAI(base_url=f"{url}/v1", api_key=key, max_retries=0, timeout=120)
        messages: list[dict[str, str]] = []

        def say(text: str) -> str:
            messages.append({"role": "user", "content": text})
            reply = client.chat.completions.create(model="kea-orders", messages=messages)  # type: ignore[arg-type]
            content = reply.choices[0].message.content or ""
            messages.append({"role": "assistant", "content": content})
            return content

        assert say(REQUEST).startswith("Before I read any document")
        weed.stop()  # the store goes away before the confirmed reading is stored
        stopped = say("yes")
        assert "The object store failed before any document was read" in stopped and not reads
        assert chat_actions["resume"] in stopped and "kea " not in stopped
        weed.start()
        done = say("continue")
        assert f"Read {DOCUMENTS} of {DOCUMENTS} documents" in done and "[table.csv](" in done
        assert len(reads) == len(set(reads)) == len(orders)  # each document read once
