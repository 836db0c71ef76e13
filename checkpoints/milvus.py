"""A Milvus Lite server that Kea starts itself under ``$KEA_HOME``, beside the PostgreSQL cluster.

Only one process may open a Milvus Lite data folder, so Kea never opens it in-process: the
first process that needs the vectors starts ``milvus-lite server`` on a free loopback port
(``python -m milvus_lite server --data-dir D --host 127.0.0.1 --port N``) and every process,
the first included, talks to it over gRPC with pymilvus. Start and stop are serialised
between processes by a lock file, the port and the server's pid are kept in files, exactly as
the PostgreSQL cluster does (``checkpoints/cluster.py``). ``KEA_MILVUS_URI`` points Kea at any
other Milvus instead (``KEA_MILVUS_TOKEN`` for its credentials), and then nothing is started.
``kea services stop`` stops the local server; the next command that needs it starts it again.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from checkpoints.cluster import LocalService, ServiceError, free_port, _port_open, kea_home

START_TIMEOUT_S = 30.0


@dataclass
class LocalMilvus(LocalService):
    """The Milvus Lite server under ``root`` (``$KEA_HOME/milvus``): start, stop, status."""

    @classmethod
    def default(cls) -> "LocalMilvus":
        return cls(kea_home() / "milvus")

    @property
    def pid_file(self) -> Path:
        return self.root / "pid"

    @property
    def uri(self) -> str:
        return f"http://127.0.0.1:{self.port()}"

    def _pid(self) -> int | None:
        try:
            pid = int(self.pid_file.read_text().strip())
        except (OSError, ValueError):
            return None
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return None
        except PermissionError:
            pass  # alive, someone else's: is_running still checks the port
        return pid

    def is_running(self) -> bool:
        """Our server runs: its pid is alive and our port answers."""
        if not self.port_file.exists() or self._pid() is None:
            return False
        return _port_open(self.port())

    def ensure_running(self) -> str:
        """Start the server unless it runs; return its URI."""
        with self._lock():
            if self.is_running():
                return self.uri
            self._kill_stale()
            port = self.port() if self.port_file.exists() else free_port()
            if _port_open(port):  # taken by something else since we last ran
                port = free_port()
            self.port_file.write_text(str(port))
            self._start(port)
            return self.uri

    def _start(self, port: int) -> None:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        command = [sys.executable, "-m", "milvus_lite", "server", "--data-dir", str(self.data_dir),
                   "--host", "127.0.0.1", "--port", str(port)]
        with open(self.log_file, "ab") as log:
            # its own session: the server outlives the command that started it, like PostgreSQL
            process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=log, stderr=log, start_new_session=True)
        self.pid_file.write_text(str(process.pid))
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if process.poll() is not None:
                break
            if _port_open(port):
                return
            time.sleep(0.05)
        if process.poll() is None:
            process.kill()
        tail = self.log_file.read_text(errors="replace")[-2000:] if self.log_file.exists() else ""
        raise ServiceError(f"The Milvus Lite server did not start (port {port}):\n{tail}")

    def _kill_stale(self) -> None:
        """A server whose port no longer answers (hung, or half started) is ended before a new one."""
        if (pid := self._pid()) is not None:
            _terminate(pid)
        self.pid_file.unlink(missing_ok=True)

    def stop(self) -> bool:
        """Stop the server; return False when it was not running."""
        with self._lock():
            pid = self._pid()
            self.pid_file.unlink(missing_ok=True)
            if pid is None:
                return False
            _terminate(pid)
            return True


def _terminate(pid: int, wait_s: float = 10.0) -> None:
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    deadline = time.monotonic() + wait_s
    while time.monotonic() < deadline:
        try:
            finished, _ = os.waitpid(pid, os.WNOHANG)  # our own child: reap it
            if finished:
                return
        except ChildProcessError:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                return
        time.sleep(0.05)
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def milvus_uri(start: bool = True) -> str:
    """The Milvus Kea uses: ``KEA_MILVUS_URI`` if set, else the local server (started)."""
    if uri := os.environ.get("KEA_MILVUS_URI"):
        return uri
    server = LocalMilvus.default()
    return server.ensure_running() if start else server.uri
