"""Storage of tables and rows: the object store (``file://`` folder or ``s3://`` bucket), rows, CSV."""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import unquote, urlsplit

from tools.storage.objects import FileObjectStore, ObjectStore


class StorageConfigError(ValueError):
    """KEA_STORAGE_URL names no store Kea can use; the message says why."""


def open_object_store(url: str | None = None) -> ObjectStore:
    """The store ``url`` names (default ``KEA_STORAGE_URL``; unset: ``$KEA_HOME/files``).

    ``file:///path`` is a folder; ``s3://bucket/prefix`` a bucket reached with boto3 at
    ``KEA_S3_ENDPOINT`` (unset: AWS) with the usual ``AWS_*`` credentials and region.
    """
    from checkpoints.cluster import kea_home

    url = url if url is not None else os.environ.get("KEA_STORAGE_URL", "")
    if not url:
        return FileObjectStore(kea_home() / "files")
    parts = urlsplit(url)
    if parts.scheme == "file":
        return FileObjectStore(Path(unquote(parts.path)))
    if parts.scheme == "s3":
        from tools.storage.s3 import S3ObjectStore

        if len(parts.netloc) < 3:
            raise StorageConfigError(f"KEA_STORAGE_URL={url!r} names no bucket: use s3://bucket/prefix (a bucket name has 3 or more characters).")
        return S3ObjectStore.from_environment(parts.netloc, parts.path.strip("/"))
    raise StorageConfigError(f"KEA_STORAGE_URL={url!r} is neither file:///path nor s3://bucket/prefix.")
