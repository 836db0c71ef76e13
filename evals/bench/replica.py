"""``kea`` with the benchmarks' fixed engine, for benchmarks that run ``kea serve`` replicas.

    python -m evals.bench.replica serve --port N

Profiles pick the engine with ``"engine": "bench-fixed"``. Each call waits
``$KEA_BENCH_LATENCY`` seconds (a model's answer time) and appends ``<pid> <epoch seconds>
<document path>`` to ``$KEA_BENCH_CALLS`` when it starts, so the benchmark sees which process
read which document when.
"""

from __future__ import annotations

import os
import time
from typing import Any

from evals.bench.common import BENCH_ENGINE, FixedEngine


class LoggedEngine(FixedEngine):
    async def extract_document(self, document: Any, reading: Any) -> list[Any]:
        with open(os.environ["KEA_BENCH_CALLS"], "a", encoding="utf-8") as log:
            log.write(f"{os.getpid()} {time.time():.6f} {document.path}\n")
        return await super().extract_document(document, reading)


def main() -> None:
    from server.cli import app
    from tools.engines import register_engine

    register_engine(BENCH_ENGINE, lambda: LoggedEngine(float(os.environ.get("KEA_BENCH_LATENCY", "0"))))
    app(prog_name="kea")


if __name__ == "__main__":
    main()
