"""``kea`` with a counting engine, for tests that run the CLI in a separate process.

The engine is the offline engine behind a pause: each call appends a line
``START <epoch seconds> <document path>`` to the file ``$KEA_TEST_CALLS`` before it reads the
document, sleeps ``$KEA_TEST_DELAY`` seconds (default 0) and then extracts. Profiles pick it
with ``KEA_ENGINE=counting``. With ``$KEA_TEST_FAIL_ON`` naming a document, its first call
(the first while the file ``$KEA_TEST_FAIL_ONCE`` does not exist) fails as a lost database
connection does. Usage: ``python tests/integration/counting_cli.py extract ...``.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tools.engines import register_engine  # noqa: E402
from tools.engines.offline import OfflineEngine  # noqa: E402


class CountingEngine(OfflineEngine):
    name = "counting"

    async def extract_document(self, document, reading):  # type: ignore[no-untyped-def]
        with open(os.environ["KEA_TEST_CALLS"], "a", encoding="utf-8") as log:
            log.write(f"START {time.time():.6f} {document.path}\n")
        once = os.environ.get("KEA_TEST_FAIL_ONCE")
        if document.path == os.environ.get("KEA_TEST_FAIL_ON") and once and not os.path.exists(once):
            Path(once).touch()
            import psycopg

            raise psycopg.OperationalError("server closed the connection unexpectedly")
        await asyncio.sleep(float(os.environ.get("KEA_TEST_DELAY", "0")))
        return await super().extract_document(document, reading)


register_engine("counting", CountingEngine)

if __name__ == "__main__":
    from server.cli import app

    app(prog_name="kea")
