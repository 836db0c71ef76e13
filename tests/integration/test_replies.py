"""A reply means the same through every client: the graph's node and the terminal agree."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from core.profile import Profile
from graph.runs import run_extraction

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
REQUEST = "Priority, response time and resolution time from the SLAs"


async def test_a_typed_no_with_a_full_stop_declines_in_the_graph(corpus) -> None:  # type: ignore[no-untyped-def]
    values = await run_extraction(REQUEST, Profile(collections=["corpus"]), answer=lambda form: "No.")
    assert values["answer"]["status"] == "declined"


def test_a_typed_no_with_a_full_stop_declines_in_the_terminal(corpus) -> None:  # type: ignore[no-untyped-def]
    command = [sys.executable, "-m", "server.cli", "extract", REQUEST, "--collection", "corpus", "--json"]
    done = subprocess.run(command, input="No.\n\n\n", capture_output=True, text=True, cwd=ROOT, env=ENV)
    assert done.returncode == 0, done.stderr
    assert '"status": "declined"' in done.stdout  # not read as a location named "No."
