"""Who uses Kea through Open WebUI in the tests: Ada reads the corpus, Bob only his own notes;
Kea serves them on loopback with a service key for the pipe."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psycopg
from http_server import serve_app

ROOT = Path(__file__).resolve().parents[2]
NORDWERK = "Every position on Nordwerk's 2025 invoices with description, quantity and unit price"
ADA, BOB = "ada+tables@example.com", "bob@example.com"


@contextmanager
def kea_for_the_pipe(svc: Any, notes: Path) -> Iterator[tuple[str, str]]:
    """Kea's app on a free port; yields its URL and a service key made as the README says."""
    from server.app import create_app
    from tools.knowledge.ingest import ingest

    (notes / "todo.md").write_text("# Things to do\n\n| Task | Owner |\n|---|---|\n| Order paper | Bob |\n", encoding="utf-8")
    ingest(svc.kb, [notes], "bob-notes", embed=False)
    svc.kb.grant("corpus", ADA)
    svc.kb.grant("bob-notes", BOB)
    made = subprocess.run(
        [sys.executable, "-m", "server.cli", "keys", "create", "--service", "open-webui"],
        capture_output=True, text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert made.returncode == 0, made.stderr
    try:
        with serve_app(create_app(svc)) as url:
            yield url, made.stdout.strip()
    finally:
        with psycopg.connect(svc.database_url, autocommit=True) as conn:  # later tests expect no live key
            conn.execute("UPDATE api_keys SET revoked_at = now() WHERE service AND user_id = 'open-webui'")
