"""A real Open WebUI for the tests: started offline from its own virtual environment, set up
through its REST API (admin, users, the Kea function and its valves)."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from checkpoints.cluster import free_port

ROOT = Path(__file__).resolve().parents[2]
PIPE = ROOT / "server" / "openwebui" / "kea_pipe.py"
FUNCTION_ID = "kea"


def open_webui_command() -> Path:
    """The ``open-webui`` of ``make test-browser``'s environment (or ``$KEA_OPEN_WEBUI``)."""
    named = os.environ.get("KEA_OPEN_WEBUI") or str(ROOT / ".venv-openwebui" / "bin" / "open-webui")
    path = Path(named)
    if not path.exists():
        raise RuntimeError(f"Open WebUI is not installed at {path}: run `make test-browser`, which installs it.")
    return path


def offline_environment(data_dir: Path, port: int) -> dict[str, str]:
    """Open WebUI with no network use at all: no model servers, no downloads, no telemetry."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KEA_", "OPENAI_"))}
    env.update(
        DATA_DIR=str(data_dir),
        PORT=str(port),
        WEBUI_SECRET_KEY="kea-browser-test-secret",
        OFFLINE_MODE="true",
        HF_HUB_OFFLINE="1",
        ENABLE_OLLAMA_API="false",
        ENABLE_OPENAI_API="false",
        RAG_EMBEDDING_ENGINE="openai",
        ENABLE_VERSION_UPDATE_CHECK="false",
        ANONYMIZED_TELEMETRY="false",
        SCARF_NO_ANALYTICS="true",
        DO_NOT_TRACK="true",
        ENABLE_SIGNUP="true",
        ENABLE_BASE_MODELS_CACHE="false",
        ENABLE_AUTOCOMPLETE_GENERATION="false",
        GLOBAL_LOG_LEVEL="WARNING",
    )
    return env


@dataclass
class OpenWebUI:
    url: str
    data_dir: Path
    admin_token: str = ""
    kea_url: str = ""
    tokens: dict[str, str] = field(default_factory=dict)

    def api(self, token: str | None = None) -> httpx.Client:
        headers = {"Authorization": f"Bearer {token or self.admin_token}"}
        return httpx.Client(base_url=self.url, headers=headers, timeout=300)

    def sign_up_admin(self, email: str, password: str, name: str = "Admin") -> str:
        with httpx.Client(base_url=self.url, timeout=60) as client:
            response = client.post("/api/v1/auths/signup", json={"email": email, "password": password, "name": name})
            response.raise_for_status()
        self.admin_token = response.json()["token"]
        self.tokens[email] = self.admin_token
        return self.admin_token

    def add_user(self, email: str, password: str, name: str) -> str:
        with self.api() as client:
            client.post(
                "/api/v1/auths/add", json={"email": email, "password": password, "name": name, "role": "user"}
            ).raise_for_status()
        with httpx.Client(base_url=self.url, timeout=60) as client:
            response = client.post("/api/v1/auths/signin", json={"email": email, "password": password})
            response.raise_for_status()
        self.tokens[email] = response.json()["token"]
        return self.tokens[email]

    def install_pipe(self, valves: dict[str, Any]) -> None:
        """Create the Kea function from its file, set its valves, switch it on."""
        content = PIPE.read_text(encoding="utf-8")
        with self.api() as client:
            created = client.post(
                "/api/v1/functions/create",
                json={"id": FUNCTION_ID, "name": "Kea", "content": content, "meta": {"description": "Kea tables"}},
            )
            created.raise_for_status()
            client.post(f"/api/v1/functions/id/{FUNCTION_ID}/valves/update", json=valves).raise_for_status()
            toggled = client.post(f"/api/v1/functions/id/{FUNCTION_ID}/toggle")
            toggled.raise_for_status()
            assert toggled.json()["is_active"], toggled.text

    def models(self, token: str | None = None) -> list[str]:
        with self.api(token) as client:
            response = client.get("/api/models")
            response.raise_for_status()
        return [m["id"] for m in response.json()["data"]]

    def make_public(self, model: str, name: str) -> None:
        """Let every user chat with ``model`` (a pipe's models are the admin's until shared)."""
        with self.api() as client:
            client.post(
                "/api/v1/models/create",
                json={"id": model, "name": name, "base_model_id": None, "meta": {}, "params": {},
                      "access_grants": [{"principal_type": "user", "principal_id": "*", "permission": "read"}]},
            ).raise_for_status()

    def chat(self, token: str, model: str, messages: list[dict[str, str]], **extra: Any) -> str:
        """One answer through Open WebUI's own chat API (no browser: no dialog)."""
        with self.api(token) as client:
            response = client.post("/api/chat/completions", json={"model": model, "messages": messages, "stream": False, **extra})
            response.raise_for_status()
        data = response.json()
        return str(data["choices"][0]["message"]["content"])


@contextmanager
def running_open_webui(data_dir: Path, timeout: float = 180, extra_env: dict[str, str] | None = None) -> Iterator[OpenWebUI]:
    """Open WebUI serving on a free loopback port from a fresh ``data_dir``."""
    command = open_webui_command()
    if data_dir.exists():
        shutil.rmtree(data_dir)
    data_dir.mkdir(parents=True)
    port = free_port()
    log = (data_dir / "open-webui.log").open("w")
    process = subprocess.Popen(
        [str(command), "serve", "--host", "127.0.0.1", "--port", str(port)],
        env={**offline_environment(data_dir, port), **(extra_env or {})}, stdout=log, stderr=subprocess.STDOUT, cwd=data_dir,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + timeout
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"Open WebUI exited with {process.returncode}; see {data_dir / 'open-webui.log'}")
            try:
                if httpx.get(f"{url}/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"Open WebUI did not answer in {timeout:.0f} s; see {data_dir / 'open-webui.log'}")
            time.sleep(0.5)
        yield OpenWebUI(url, data_dir)
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()
