"""Kea in the real Open WebUI, driven in headless Chromium: the questions dialog, the answer with
its preview and the attached CSV, the text fallback, access by Open WebUI user, background tasks.

Run with ``make test-browser`` (it installs Open WebUI and Chromium first). Screenshots go to
``evals/results/browser/``.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import psycopg
import pytest
from conftest import DIALOG_CAP_SECONDS, MODEL, PASSWORDS
from openwebui import OpenWebUI
from pipe_people import ADA, BOB, NORDWERK

from tools.storage.rows import table_key

CHIP = re.compile(r"kea-table-[0-9a-f]+\.csv")
HEADERS = ["Location", "Filter Condition", "Values to extract"]


class ChatPage:
    """One signed-in user's Open WebUI tab."""

    def __init__(self, browser: Any, owui: OpenWebUI, email: str) -> None:
        self.owui, self.email = owui, email
        self.context = browser.new_context(viewport={"width": 1400, "height": 1000}, accept_downloads=True)
        self.page = self.context.new_page()
        self.page.set_default_timeout(60_000)

    def sign_in(self) -> "ChatPage":
        page = self.page
        page.goto(f"{self.owui.url}/auth")
        page.locator("#email").fill(self.email)
        page.locator("#password").fill(PASSWORDS[self.email])
        page.locator("#auth-page button[type=submit]").click()
        page.locator("#chat-input").wait_for()
        return self

    def new_chat(self) -> None:
        self.page.goto(f"{self.owui.url}/?models={MODEL}")
        self.page.locator("#chat-input").wait_for()
        popup = self.page.get_by_role("button", name="Okay, Let's Go!")
        if popup.count() and popup.is_visible():
            popup.click()

    def send(self, text: str) -> None:
        self.page.locator("#chat-input").fill(text)
        self.page.locator("#send-message-button").click()

    def dialog(self) -> Any:
        card = self.page.locator("section").filter(has=self.page.get_by_role("button", name="Cancel")).last
        card.wait_for()
        return card

    def answer_dialog(self, shots: Path | None = None) -> list[str]:
        """Step through the questions keeping each recommended option; the headers seen, in order."""
        seen = []
        for step in range(1, len(HEADERS) + 1):
            card = self.dialog()
            card.get_by_text(f"{step}/{len(HEADERS)}", exact=True).wait_for()
            seen.append(card.inner_text().split("\n", 1)[0].strip())
            if shots:
                self.page.screenshot(path=str(shots / f"dialog-{step}-{seen[-1].lower().replace(' ', '-')}.png"))
            card.get_by_role("button").first.click()  # the first option is the one recommended
        submit = self.page.get_by_role("button", name="Submit answers")
        if submit.count() and submit.is_visible():
            submit.click()
        return seen

    def answer(self, containing: str, index: int = -1) -> Any:
        reply = self.page.locator(".chat-assistant").nth(index)
        reply.get_by_text(containing).first.wait_for(timeout=180_000)
        return reply

    def chat_id(self) -> str:
        self.page.wait_for_url(re.compile(r"/c/[0-9a-f-]+"))
        return self.page.url.rsplit("/c/", 1)[1].split("?")[0]

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def ada(chromium, owui) -> Any:  # type: ignore[no-untyped-def]
    tab = ChatPage(chromium, owui, ADA).sign_in()
    yield tab
    tab.close()


def owui_kea_url(tab: ChatPage) -> str:
    """Where the answer's own links point: Kea, as the pipe reaches it."""
    return tab.owui.kea_url


def _extraction_of(svc: Any, chat_id: str) -> str:
    with psycopg.connect(svc.database_url) as conn:
        found = conn.execute(
            "SELECT extraction_id FROM thread_extractions WHERE thread_id = %s ORDER BY created_at DESC",
            (f"owui-{chat_id}",),
        ).fetchone()
    assert found, f"Kea made no table for chat {chat_id}"
    return str(found[0])


def _assistant_messages(owui: OpenWebUI, token: str, chat_id: str) -> list[dict[str, Any]]:
    with owui.api(token) as client:
        chat = client.get(f"/api/v1/chats/{chat_id}").raise_for_status().json()["chat"]
    messages = sorted(chat["history"]["messages"].values(), key=lambda m: m.get("timestamp", 0))
    return [m for m in messages if m["role"] == "assistant"]


def test_the_dialog_steps_through_the_questions_and_the_answer_carries_the_csv(ada, owui, svc, screenshots) -> None:  # type: ignore[no-untyped-def]
    ada.new_chat()
    ada.send(NORDWERK)
    assert ada.answer_dialog(screenshots) == HEADERS
    reply = ada.answer("Download the table")
    chip = reply.get_by_role("button", name=CHIP)
    chip.wait_for()
    reply.get_by_text("Location: year 2025, folder invoices").wait_for()  # the chosen answers, listed
    assert "First 20 of 64 rows" in reply.inner_text() and "invoices/2025/nordwerk-2025-0" in reply.inner_text()
    assert reply.get_by_role("link", name="review.html").get_attribute("href").startswith(owui_kea_url(ada))
    assert reply.get_by_role("link", name="table.xlsx").count() == 1
    ada.page.screenshot(path=str(screenshots / "answer.png"))
    reply.scroll_into_view_if_needed()
    chip.scroll_into_view_if_needed()
    ada.page.screenshot(path=str(screenshots / "answer-chip.png"))

    chip.click()  # the file's dialog: its name links the stored file
    link = ada.page.locator("a[href*='/api/v1/files/']").filter(has_text=CHIP).first
    href = link.get_attribute("href")
    try:
        with ada.page.expect_download(timeout=15_000) as download:
            link.click()
        downloaded = Path(download.value.path()).read_bytes()
    except Exception:  # noqa: BLE001 — Chromium opened it in a tab instead: fetch it as that tab did
        downloaded = ada.context.request.get(f"{owui.url}{href}").body()
    stored = svc.objects.open(table_key(_extraction_of(svc, ada.chat_id()))).read()
    assert downloaded == stored and stored.startswith("\ufeffFile,Description,Quantity,Unit price".encode())

    last = _assistant_messages(owui, owui.tokens[ADA], ada.chat_id())[-1]
    statuses = [s["description"] for s in last["statusHistory"]]
    assert len([s for s in statuses if s.startswith("Read invoices/2025/")]) == 11, statuses  # one line a document
    assert statuses[-1].startswith("Done: ") and statuses.index("Reading 11 documents…") < len(statuses) - 12
    assert len(last["files"]) == 1 and CHIP.fullmatch(last["files"][0]["name"])  # kept with the message


def test_a_cancelled_dialog_asks_as_text_and_a_typed_yes_runs_it(ada, screenshots) -> None:  # type: ignore[no-untyped-def]
    ada.new_chat()
    ada.send(NORDWERK)
    ada.dialog().get_by_role("button", name="Cancel").click()
    first = ada.answer("You closed the questions dialog")
    assert "Location: year 2025, folder invoices" in first.inner_text()
    assert first.get_by_role("button", name=CHIP).count() == 0
    ada.page.screenshot(path=str(screenshots / "cancelled-text-questions.png"))
    ada.send("yes")
    second = ada.answer("Download the table", index=-1)
    assert "Read 11 of 11 documents" in second.inner_text()
    second.get_by_role("button", name=CHIP).wait_for()


def test_a_dialog_left_open_past_open_webuis_cap_falls_back_to_text(ada, screenshots) -> None:  # type: ignore[no-untyped-def]
    ada.new_chat()
    ada.send(NORDWERK)
    ada.dialog()
    time.sleep(DIALOG_CAP_SECONDS)
    reply = ada.answer("The questions dialog closed before it was answered")
    assert "Reply \"yes\"" in reply.inner_text()
    ada.page.screenshot(path=str(screenshots / "timed-out-text-questions.png"))


def test_an_open_webui_user_without_access_gets_no_rows_from_a_collection(chromium, owui) -> None:  # type: ignore[no-untyped-def]
    bob = ChatPage(chromium, owui, BOB).sign_in()
    try:
        bob.new_chat()
        bob.send(NORDWERK)
        bob.answer_dialog()
        # Bob's one note is read (its path holds no year: 2025 is its date) and gives nothing
        reply = bob.answer("The table is empty")
        text = reply.inner_text()
        assert "Read 1 of 1 documents in scope" in text and "nordwerk-2025" not in text and "invoices/" not in text
        assert reply.get_by_role("button", name=CHIP).count() == 0
    finally:
        bob.close()


def test_a_title_generation_task_never_starts_an_extraction(owui, svc) -> None:  # type: ignore[no-untyped-def]
    with psycopg.connect(svc.database_url) as conn:
        before = conn.execute("SELECT count(*) FROM chat_threads").fetchone()
    with owui.api(owui.tokens[ADA]) as client:
        response = client.post(
            "/api/v1/tasks/title/completions",
            json={"model": MODEL, "messages": [{"role": "user", "content": NORDWERK}], "chat_id": "local:title-check"},
        )
    assert response.status_code == 200, response.text
    title = response.json()["choices"][0]["message"]["content"]
    with psycopg.connect(svc.database_url) as conn:
        after = conn.execute("SELECT count(*) FROM chat_threads").fetchone()
    assert title.startswith('{"title": "Kea: Every position on Nordwerk') and before == after
    # and every chat the other tests started got its title from the pipe, without a run
    with owui.api(owui.tokens[ADA]) as client:
        chats = client.get("/api/v1/chats/").raise_for_status().json()
    assert chats and all(c["title"].startswith("Kea: Every position") for c in chats), [c["title"] for c in chats]


def test_the_stop_button_cancels_the_run_on_kea_and_keeps_what_was_read(ada, owui, svc, kea, screenshots, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import asyncio

    import httpx

    from tools.engines import register_engine
    from tools.engines.offline import OfflineEngine

    started: list[float] = []

    class SlowModel(OfflineEngine):  # the model boundary: every document takes a slow model's time
        async def extract_document(self, document, reading):  # type: ignore[no-untyped-def]
            started.append(time.time())
            await asyncio.sleep(4)
            return await super().extract_document(document, reading)

    register_engine("offline", SlowModel)
    monkeypatch.setenv("KEA_CANCEL_POLL_SECONDS", "0.2")
    try:
        ada.new_chat()
        ada.send(NORDWERK)
        ada.answer_dialog()
        deadline = time.monotonic() + 120
        while len(started) <= 8:  # eight documents read at a time: the first eight done, the rest being read
            assert time.monotonic() < deadline, "no document was read"
            time.sleep(0.05)
        chat_id = ada.chat_id()
        ada.page.screenshot(path=str(screenshots / "stop-while-reading.png"))
        ada.page.get_by_role("button", name="Stop").click()
        url, key = kea
        thread = f"owui-{chat_id}"
        with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {key}", "X-Kea-User": ADA}, timeout=30) as client:
            deadline = time.monotonic() + 120
            while (state := client.get(f"/v1/runs/{thread}").json())["status"] in ("running", "new", "waiting"):
                assert time.monotonic() < deadline, state
                time.sleep(0.2)
    finally:
        register_engine("offline", OfflineEngine)
    assert state["status"] == "cancelled", state
    result = state["result"]
    assert "Cancelled on request" in result["message"] and "partial" in result["message"]
    assert 8 <= result["documents"]["extracted"] < 11 and result["rows"] > 0
    with psycopg.connect(svc.database_url) as conn:
        seen = conn.execute("SELECT extract(epoch FROM cancel_seen_at) FROM runs WHERE thread_id = %s", (thread,)).fetchone()[0]
    assert not [at for at in started if at > float(seen)], "a model call started after the stop was seen"
    ada.page.get_by_text("Cancelled on request").first.wait_for(timeout=30_000)  # the chat says what was read
    ada.page.screenshot(path=str(screenshots / "stopped.png"))
