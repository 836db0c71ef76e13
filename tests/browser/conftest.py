"""Fixtures of the browser tests: Kea, a real Open WebUI with the Kea pipe installed through its
REST API, and headless Chromium (Debian's, driven by Playwright; never a downloaded browser)."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "integration"))

from openwebui import OpenWebUI, running_open_webui  # noqa: E402
from pipe_people import ADA, BOB, kea_for_the_pipe  # noqa: E402

PASSWORDS = {ADA: "ada-password-1", BOB: "bob-password-1"}
MODEL = "kea.kea-document-tables"
# Open WebUI closes an unanswered dialog at this cap (its own setting; 60–240 s by default).
DIALOG_CAP_SECONDS = 30
CHROMIUM = os.environ.get("KEA_CHROMIUM", "/usr/bin/chromium")


@pytest.fixture(scope="session")
def kea(svc, corpus, tmp_path_factory) -> Iterator[tuple[str, str]]:  # type: ignore[no-untyped-def]
    with kea_for_the_pipe(svc, tmp_path_factory.mktemp("bob-notes")) as served:
        yield served


@pytest.fixture(scope="session")
def owui(kea, kea_home: Path) -> Iterator[OpenWebUI]:  # type: ignore[no-untyped-def]
    url, key = kea
    with running_open_webui(kea_home / "open-webui", extra_env={"WEBSOCKET_EVENT_CALLER_TIMEOUT": str(DIALOG_CAP_SECONDS)}) as app:
        app.kea_url = url
        app.sign_up_admin(ADA, PASSWORDS[ADA], "Ada Admin")
        app.add_user(BOB, PASSWORDS[BOB], "Bob Builder")
        app.install_pipe({"KEA_URL": url, "KEA_API_KEY": key})
        assert MODEL in app.models()
        app.make_public(MODEL, "Kea · document tables")
        assert MODEL in app.models(app.tokens[BOB])
        yield app


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        raise RuntimeError(f"No Chromium at {CHROMIUM}: `make test-browser` installs Debian's chromium.")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync"],
        )
        yield browser
        browser.close()


@pytest.fixture
def screenshots() -> Path:
    folder = Path(__file__).resolve().parents[2] / "evals" / "results" / "browser"
    folder.mkdir(parents=True, exist_ok=True)
    return folder
