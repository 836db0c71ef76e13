"""LangGraph Studio's server (`langgraph dev`) loads langgraph.json and runs the extraction graph."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from checkpoints.cluster import free_port


def _post(url: str, body: dict[str, Any], timeout: float = 120) -> Any:
    request = urllib.request.Request(url, json.dumps(body).encode(), {"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=timeout) as response:
        return json.loads(response.read())


@pytest.fixture
def studio_server(corpus, tmp_path):  # type: ignore[no-untyped-def]
    cli = Path(sys.executable).parent / "langgraph"
    if not cli.exists():
        cli = Path(shutil.which("langgraph") or "langgraph")
    port = free_port()
    env = {**os.environ, "LANGGRAPH_CLI_NO_ANALYTICS": "1", "LANGSMITH_TRACING": "false"}
    log = open(tmp_path / "langgraph-dev.log", "w")
    process = subprocess.Popen(
        [str(cli), "dev", "--no-browser", "--no-reload", "--host", "127.0.0.1", "--port", str(port)],
        cwd=Path(__file__).resolve().parents[2], env=env, stdout=log, stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(120):
            try:
                with urllib.request.urlopen(base + "/ok", timeout=1):
                    break
            except OSError:
                if process.poll() is not None:
                    break
                time.sleep(0.5)
        else:
            pytest.fail("langgraph dev did not answer /ok")
        assert process.poll() is None, (tmp_path / "langgraph-dev.log").read_text()
        yield base
    finally:
        process.terminate()
        process.wait(timeout=20)
        log.close()


def test_langgraph_dev_runs_the_extraction_graph(studio_server, corpus, tmp_path) -> None:  # type: ignore[no-untyped-def]
    assert "End of Life" not in (tmp_path / "langgraph-dev.log").read_text()  # a supported langgraph-api
    assistants = _post(studio_server + "/assistants/search", {"graph_id": "extraction"})
    assert assistants and assistants[0]["graph_id"] == "extraction"
    thread = _post(studio_server + "/threads", {})
    message = next(c for c in corpus["cases"] if c["id"] == "sla-times")["message"]
    output = _post(
        f"{studio_server}/threads/{thread['thread_id']}/runs/wait",
        {"assistant_id": "extraction", "input": {"message": message, "confirm": "auto"},
         "context": {"collections": ["corpus"]}},
    )
    assert output["answer"]["status"] == "done", output
    assert output["answer"]["summary"]["rows"] == len(next(c for c in corpus["cases"] if c["id"] == "sla-times")["rows"])


def test_langgraph_dev_serves_the_universal_agent(studio_server, corpus) -> None:  # type: ignore[no-untyped-def]
    assistants = _post(studio_server + "/assistants/search", {"graph_id": "universal"})
    assert assistants and assistants[0]["graph_id"] == "universal"
    thread = _post(studio_server + "/threads", {})
    output = _post(
        f"{studio_server}/threads/{thread['thread_id']}/runs/wait",
        {"assistant_id": "universal", "input": {"message": "Which SLAs do we have?"},
         "context": {"collections": ["corpus"], "document_tools": True}},
    )
    # no model is configured here: the agent says so, and names the model that needs none
    assert "kea-document-tables" in output["answer"]["message"], output
