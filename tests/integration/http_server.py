"""Kea's HTTP app served by uvicorn on a free loopback port, in a thread of the test process."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

import uvicorn


class MovingClock:
    """The server's clock; tests move it instead of waiting."""

    def __init__(self) -> None:
        self.offset = timedelta()

    def __call__(self) -> datetime:
        return datetime.now(UTC) + self.offset

    @contextmanager
    def moved(self, **delta: float) -> Iterator[None]:
        self.offset += timedelta(**delta)
        try:
            yield
        finally:
            self.offset -= timedelta(**delta)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def serve_app(app: Any, timeout: float = 30.0) -> Iterator[str]:
    """Serve ``app`` (lifespan included); yields its base URL ``http://127.0.0.1:PORT``."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", access_log=False))
    thread = threading.Thread(target=server.run, name="kea-serve", daemon=True)
    thread.start()
    deadline = time.monotonic() + timeout
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("kea serve did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=15)


class EventReader:
    """Server-Sent Events from the lines of a response: ``add`` each line, ``events`` the result."""

    def __init__(self) -> None:
        self.events: list[tuple[str, dict[str, Any]]] = []
        self._name: str | None = None
        self._data: list[str] = []

    def add(self, line: str) -> None:
        if line.startswith("event: "):
            self._name = line[7:]
        elif line.startswith("data: "):
            self._data.append(line[6:])
        elif not line and self._name:
            self.events.append((self._name, json.loads("\n".join(self._data))))
            self._name, self._data = None, []
