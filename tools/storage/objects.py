"""The object store for tables and rows: a folder by default (``file://``), S3 when deployed.

Keys are '/'-separated and relative; a key that would leave the store's root is refused.
Every object is written whole or not at all. Files that belong together are first written
under temporary keys (``staging_key``) and then published under their own (``publish``), so a
write that fails part-way leaves nothing under a final key.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Protocol
from urllib.parse import urlsplit

from checkpoints.cluster import ServiceError
from tools.knowledge.paths import UnsafePath, normalise_path

STAGING = ".staging"  # the folder of temporary keys beside the keys they are published under


class ObjectNotFound(FileNotFoundError):
    """No object under that key (never written, or expired)."""


class StoreUnavailable(ServiceError):
    """The object store could not be read or written (down, full, refusing): nothing is lost,
    the work waits for it; the message says what to do."""


def is_store_fault(exc: BaseException) -> bool:
    """Whether ``exc`` is the object store failing (unreachable, full, refusing) rather than a
    missing object or a fault of Kea's own."""
    if isinstance(exc, ObjectNotFound):
        return False
    if isinstance(exc, OSError):
        return True
    try:
        from botocore.exceptions import BotoCoreError, ClientError
    except ImportError:  # no S3 support installed: only a folder can fail, as an OSError
        return False
    return isinstance(exc, (BotoCoreError, ClientError))


def store_fault_reason(exc: BaseException) -> str:
    """A store fault in a few words: which store could not be reached, or what it refused."""
    url = getattr(exc, "kwargs", {}).get("endpoint_url")
    if url:  # botocore: the server did not answer
        parts = urlsplit(str(url))
        return f"the object store at {parts.scheme}://{parts.netloc} could not be reached"
    error = getattr(exc, "response", {}).get("Error") if hasattr(exc, "response") else None
    if isinstance(error, dict):  # the S3 server answered with a refusal
        return f"the object store refused it ({error.get('Code', '?')}: {error.get('Message', '')})".replace(": )", ")")
    if isinstance(exc, OSError) and exc.strerror:
        return f"{exc.strerror} ({exc.filename})" if exc.filename else exc.strerror
    return " ".join(str(exc).split()) or type(exc).__name__


def staging_key(key: str) -> str:
    """The temporary key ``key`` is written under before it is published: ``a/b/.staging/c``."""
    key = safe_key(key)
    folder, _, name = key.rpartition("/")
    return f"{folder}/{STAGING}/{name}" if folder else f"{STAGING}/{name}"


class ObjectStore(Protocol):
    def put_file(self, key: str, source: Path, content_type: str) -> None: ...
    def put_bytes(self, key: str, data: bytes, content_type: str) -> None: ...
    def open(self, key: str) -> IO[bytes]: ...
    def exists(self, key: str) -> bool: ...
    def existing(self, folder: str, names: list[str]) -> set[str]: ...
    def delete(self, key: str) -> None: ...
    def publish(self, staged: str, key: str) -> None: ...
    def keys(self, prefix: str) -> Iterator[str]: ...
    def url(self, key: str) -> str: ...
    def stored_at(self, key: str) -> datetime: ...
    def presigned_url(self, key: str, seconds: int) -> str | None: ...


def safe_key(key: str) -> str:
    try:
        return normalise_path(key)
    except UnsafePath as exc:
        raise UnsafePath(f"object key leaves the store: {key!r}") from exc


def publish_together(store: ObjectStore, files: list[tuple[str, Path, str]]) -> None:
    """Store ``files`` ((key, source, content type) each) as one set: every one is written under
    its temporary key first, and only then are they published, in order. A failure while writing
    leaves no final key changed; the last file published marks the set complete."""
    for key, source, content_type in files:
        store.put_file(staging_key(key), source, content_type)
    for key, _, _ in files:
        store.publish(staging_key(key), key)


class FileObjectStore:
    """Objects as files under ``root``; writes are atomic (temp file, then rename)."""

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()
        self.root.mkdir(parents=True, exist_ok=True)

    def _path(self, key: str) -> Path:
        # safe_key leaves a relative path without '.' or '..' segments: it cannot leave the root.
        # (Resolving it on the disk, a system call a folder, was the most expensive part of
        # storing a document's rows.)
        return self.root / safe_key(key)

    def _atomic_target(self, key: str) -> tuple[Path, Path]:
        target = self._path(key)
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".part-")
        os.close(fd)
        return target, Path(tmp)

    def put_file(self, key: str, source: Path, content_type: str) -> None:
        target, tmp = self._atomic_target(key)
        try:
            shutil.copyfile(source, tmp)
            os.replace(tmp, target)
        finally:
            tmp.unlink(missing_ok=True)

    def put_bytes(self, key: str, data: bytes, content_type: str) -> None:
        target, tmp = self._atomic_target(key)
        try:
            tmp.write_bytes(data)
            os.replace(tmp, target)
        finally:
            tmp.unlink(missing_ok=True)

    def delete(self, key: str) -> None:
        """Remove an object; nothing happens when there is none."""
        self._path(key).unlink(missing_ok=True)

    def publish(self, staged: str, key: str) -> None:
        """Move the object at ``staged`` to ``key`` in one rename: ``key`` holds its old object or
        the whole new one, never a part."""
        source, target = self._path(staged), self._path(key)
        if not source.is_file():
            raise ObjectNotFound(f"No file stored under {staged!r}.")
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(source, target)

    def open(self, key: str) -> IO[bytes]:
        path = self._path(key)
        if not path.is_file():
            raise ObjectNotFound(f"No file stored under {key!r}.")
        return open(path, "rb")

    def exists(self, key: str) -> bool:
        return self._path(key).is_file()

    def existing(self, folder: str, names: list[str]) -> set[str]:
        """Which of the objects ``folder/name`` exist (a look at each: a file's is cheap; none
        when the folder is not there, as an extraction's failures mostly are not)."""
        base = self._path(folder)
        if not names or not base.is_dir():
            return set()
        return {name for name in names if (base / name).is_file()}

    def keys(self, prefix: str) -> Iterator[str]:
        base = self._path(prefix)
        if not base.is_dir():
            return
        for path in sorted(base.rglob("*")):
            if path.is_file() and not path.name.startswith(".part-"):
                yield path.relative_to(self.root).as_posix()

    def url(self, key: str) -> str:
        return self._path(key).as_uri()

    def stored_at(self, key: str) -> datetime:
        """When the object was written (the rename of a whole file, so the time of its last write)."""
        path = self._path(key)
        try:
            return datetime.fromtimestamp(path.stat().st_mtime, UTC)
        except FileNotFoundError as exc:
            raise ObjectNotFound(f"No file stored under {key!r}.") from exc

    def presigned_url(self, key: str, seconds: int) -> str | None:
        """A folder cannot sign links: the server signs links to its own download endpoint."""
        return None


def delete_prefix(store: ObjectStore, prefix: str) -> int:
    """Remove every object under ``prefix`` (a folder of keys, e.g. one extraction's); how many went.

    On the folder store the whole folder goes, with partly written temporary files and the empty
    folders left behind; elsewhere each listed key is deleted.
    """
    prefix = safe_key(prefix).rstrip("/") + "/"
    keys = list(store.keys(prefix))
    if isinstance(store, FileObjectStore):
        folder = store._path(prefix)
        if folder.is_dir():
            shutil.rmtree(folder)
        return len(keys)
    for key in keys:
        store.delete(key)
    return len(keys)
