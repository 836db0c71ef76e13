"""The Open WebUI pipe against the real Kea server (run API, service key, downloads).

Open WebUI itself is not here (``make test-browser`` runs the pipe inside the real one): the pipe
is called as Open WebUI calls it, with an event emitter that records what a chat would show and
a dialog that answers as Open WebUI's ``request:user_input`` answers. Kea, its database and its
files are real. Attaching the CSV needs Open WebUI's file store, so it is off here.
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from pipe_people import ADA, BOB, NORDWERK, kea_for_the_pipe

from server.openwebui.kea_pipe import Pipe
from tools.storage.rows import table_key


@pytest.fixture(scope="module")
def kea(svc, corpus, tmp_path_factory) -> Iterator[tuple[str, str]]:  # type: ignore[no-untyped-def]
    with kea_for_the_pipe(svc, tmp_path_factory.mktemp("bob-notes")) as served:
        yield served


class Chat:
    """What one Open WebUI chat shows of the pipe: status lines, files, the answers' text."""

    def __init__(self, pipe: Pipe, email: str, dialog: Any = None) -> None:
        self.pipe, self.email, self.dialog = pipe, email, dialog
        self.chat_id = f"chat-{os.urandom(6).hex()}"
        self.messages: list[dict[str, str]] = []
        self.statuses: list[str] = []
        self.dialogs: list[dict[str, Any]] = []

    async def emit(self, event: dict[str, Any]) -> None:
        if event["type"] == "status":
            self.statuses.append(event["data"]["description"])

    async def call(self, event: dict[str, Any]) -> Any:
        self.dialogs.append(event)
        return self.dialog(event) if callable(self.dialog) else self.dialog

    async def send(self, text: str) -> str:
        self.messages.append({"role": "user", "content": text})
        content = await self._call([*self.messages])
        self.messages.append({"role": "assistant", "content": content})
        return content

    async def task(self, task: str, prompt: str) -> str:
        """A background task of Open WebUI about this chat: its own prompt, the chat in the task body."""
        return await self._call([{"role": "user", "content": prompt}], task=task, task_body={"messages": list(self.messages)})

    async def _call(self, messages: list[dict[str, str]], task: str | None = None, task_body: Any = None) -> str:
        answer = await self.pipe.pipe(
            {"model": "kea.kea-document-tables", "messages": messages},
            __user__={"id": f"id-{self.email}", "email": self.email, "name": self.email.split("@")[0]},
            __event_emitter__=self.emit,
            __event_call__=self.call if self.dialog is not None else None,
            __chat_id__=self.chat_id,
            __message_id__=f"m{len(self.messages)}",
            __task__=task,
            __task_body__=task_body,
        )
        return answer if isinstance(answer, str) else "".join([piece async for piece in answer])


def _pipe(url: str, key: str) -> Pipe:
    pipe = Pipe()
    pipe.valves = Pipe.Valves(KEA_URL=url, KEA_API_KEY=key, ATTACH_CSV=False)
    return pipe


def _keep_all(event: dict[str, Any]) -> dict[str, Any]:
    """The dialog answered with every recommended (first) option, as Open WebUI returns it."""
    questions = event["data"]["questions"]
    return {
        "status": "answered",
        "answers": {q["id"]: {"type": "option", "option_index": 0, "label": q["options"][0]["label"]} for q in questions},
    }


async def test_models_are_kea_profiles(kea) -> None:  # type: ignore[no-untyped-def]
    url, key = kea
    listed = await _pipe(url, key).pipes()
    assert {"id": "kea-document-tables", "name": "Kea · document tables"} in listed
    assert all(m["id"].startswith("kea-") and m["name"].startswith("Kea · ") for m in listed)
    assert (await _pipe(url, "kea_wrong").pipes())[0]["id"] == "unreachable"


async def test_the_dialog_confirms_and_the_table_comes_with_progress(kea, svc, corpus) -> None:  # type: ignore[no-untyped-def]
    url, key = kea
    chat = Chat(_pipe(url, key), ADA, dialog=_keep_all)
    answer = await chat.send(NORDWERK)

    asked = chat.dialogs[0]
    assert asked["type"] == "request:user_input" and 60_000 <= asked["data"]["timeout_ms"] <= 240_000
    assert [q["header"] for q in asked["data"]["questions"]] == ["Location", "Filter Condition", "Values to extract"]
    assert answer.startswith("You chose:\n- **Location:** year 2025, folder invoices")
    read_lines = [s for s in chat.statuses if s.startswith("Read invoices/2025/")]
    assert len(read_lines) == 11, chat.statuses  # one status line per document read
    assert chat.statuses[-1].startswith("Done: ") and "rows from 11 documents" in chat.statuses[-1]
    assert "| Description | Quantity | Unit price |" in answer and "[table.csv](http" in answer

    with psycopg.connect(svc.database_url) as conn:
        owner, = conn.execute("SELECT user_id FROM chat_threads WHERE thread_id = %s", (f"owui-{chat.chat_id}",)).fetchone()
        extraction, = conn.execute(
            "SELECT extraction_id FROM thread_extractions WHERE thread_id = %s", (f"owui-{chat.chat_id}",)
        ).fetchone()
    assert owner == ADA  # Kea ran as the Open WebUI user, named by e-mail
    rows = list(csv.DictReader(io.StringIO(svc.objects.open(table_key(extraction)).read().decode("utf-8-sig"))))
    assert rows and {r["File"].split("/")[1] for r in rows} == {"2025"}
    assert f"{len(rows)} rows" in chat.statuses[-1] and f": {len(rows)} rows." in answer


async def test_a_cancelled_dialog_asks_as_text_and_a_typed_yes_runs_it(kea) -> None:  # type: ignore[no-untyped-def]
    url, key = kea
    chat = Chat(_pipe(url, key), ADA, dialog={"status": "cancelled", "answers": {}})
    first = await chat.send(NORDWERK)
    assert first.startswith("You closed the questions dialog") and "1. Location: year 2025, folder invoices" in first
    assert "table.csv" not in first
    second = await chat.send("yes")
    assert "Read 11 of 11 documents" in second and "[table.csv](http" in second


async def test_a_dialog_closed_at_its_time_cap_or_no_dialog_falls_back_to_text(kea) -> None:  # type: ignore[no-untyped-def]
    url, key = kea
    timed_out = Chat(_pipe(url, key), ADA, dialog={"error": "Event call timed out. The browser tab may be inactive or closed."})
    assert (await timed_out.send(NORDWERK)).startswith("The questions dialog closed before it was answered")
    no = await timed_out.send("no")
    assert no.startswith("Declined: no document was read")

    disconnected = Chat(_pipe(url, key), ADA, dialog={"error": "Client session disconnected."})
    assert (await disconnected.send(NORDWERK)).startswith("Before I read any document")
    without = Chat(_pipe(url, key), ADA)  # an Open WebUI without the event at all
    assert (await without.send(NORDWERK)).startswith("Before I read any document")


async def test_a_user_without_access_gets_no_rows_from_a_collection(kea) -> None:  # type: ignore[no-untyped-def]
    url, key = kea
    chat = Chat(_pipe(url, key), BOB, dialog=_keep_all)
    answer = await chat.send(NORDWERK)
    # Bob's one note is read (its paths hold no year: 2025 is its date) and gives nothing;
    # nothing of the corpus he may not read is named or counted
    assert "Read 1 of 1 documents in scope" in answer and ": 0 rows." in answer
    assert "invoices/" not in answer and "nordwerk-" not in answer.casefold() and "The table is empty" in answer


async def test_title_and_tag_tasks_never_start_an_extraction(kea, svc) -> None:  # type: ignore[no-untyped-def]
    url, key = kea
    chat = Chat(_pipe(url, key), ADA, dialog=_keep_all)
    with psycopg.connect(svc.database_url) as conn:
        before = conn.execute("SELECT count(*) FROM chat_threads").fetchone()
    await chat.send(NORDWERK)  # asks its questions: one thread
    title = await chat.task("title_generation", "### Task: Generate a concise, 3-5 word title for the chat history.")
    tags = await chat.task("tags_generation", "### Task: Generate 1-3 broad tags for the chat history.")
    follow = await chat.task("follow_up_generation", "### Task: Suggest 3-5 follow-up questions.")
    with psycopg.connect(svc.database_url) as conn:
        after = conn.execute("SELECT count(*) FROM chat_threads").fetchone()
    assert json.loads(title) == {"title": "Kea: Every position on Nordwerk's 2025 invoices with description…"}
    assert json.loads(tags)["tags"] and json.loads(follow) == {"follow_ups": []}
    assert after[0] == before[0] + 1 and len(chat.dialogs) == 1  # the tasks asked nothing and ran nothing


async def test_kea_down_or_a_wrong_key_is_said_in_a_sentence(kea) -> None:  # type: ignore[no-untyped-def]
    from http_server import free_port

    url, key = kea
    down = await Chat(_pipe(f"http://127.0.0.1:{free_port()}", key), ADA, dialog=_keep_all).send(NORDWERK)
    assert down.startswith("Kea could not be reached at http://127.0.0.1:") and "Nothing was read" in down
    refused = await Chat(_pipe(url, "kea_not-a-key"), ADA, dialog=_keep_all).send(NORDWERK)
    assert refused.startswith("Kea answered 401: This API key is not valid") and "Nothing was read" in refused
