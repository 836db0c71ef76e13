"""Shared pieces of the benchmarks: an isolated KEA_HOME, timing, and the results folder."""

from __future__ import annotations

import json
import os
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parents[1] / "results"


@contextmanager
def isolated_home() -> Iterator[Path]:
    """Benchmarks run on their own throwaway cluster, never on the user's knowledge base."""
    from checkpoints.cluster import LocalCluster
    from tools.services import reset_services

    previous = {k: os.environ.get(k) for k in ("KEA_HOME", "KEA_DATABASE_URL")}
    with tempfile.TemporaryDirectory(prefix="kea-bench-") as folder:
        os.environ["KEA_HOME"] = folder
        os.environ.pop("KEA_DATABASE_URL", None)
        reset_services()
        try:
            yield Path(folder)
        finally:
            reset_services()
            LocalCluster.default().stop()
            for key, value in previous.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value


def best_of(runs: int, action: Callable[[], Any]) -> tuple[float, Any]:
    """The fastest of ``runs`` timings (seconds) and the last result: noise only adds time."""
    best, result = float("inf"), None
    for _ in range(runs):
        start = time.perf_counter()
        result = action()
        best = min(best, time.perf_counter() - start)
    return best, result


def save(name: str, data: dict[str, Any]) -> Path:
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / f"{name}.json"
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return path
