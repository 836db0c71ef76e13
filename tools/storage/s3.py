"""The object store on an S3-compatible bucket (boto3): ``KEA_STORAGE_URL=s3://bucket/prefix``.

The bucket is created when the store opens, with lifecycle rules that remove
``record-extraction/`` and ``workspace/`` (SQL results) objects after 7 days (a server that refuses lifecycle rules is logged
and tolerated: downloads still say a file older than 7 days expired). Links are presigned GET
URLs, valid 24 hours.
"""

from __future__ import annotations

import io
import logging
import os
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import IO, Any

from tools.storage.objects import ObjectNotFound, safe_key
from tools.storage.rows import PREFIX, WORKSPACE_PREFIX

log = logging.getLogger(__name__)
LIFECYCLE_RULE_ID = "kea-record-extraction-7-days"
WORKSPACE_RULE_ID = "kea-workspace-7-days"


class _Body(io.RawIOBase):
    """A botocore streaming body as a raw stream, so it can be buffered (lines, iteration)."""

    def __init__(self, body: Any) -> None:
        self._body = body

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        data = self._body.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)

    def close(self) -> None:
        self._body.close()
        super().close()


def _missing(exc: Exception) -> bool:
    code = str(getattr(exc, "response", {}).get("Error", {}).get("Code", ""))
    return code in ("404", "NoSuchKey", "NotFound", "NoSuchBucket")


class S3ObjectStore:
    """Objects under ``prefix/`` in ``bucket``."""

    def __init__(self, client: Any, bucket: str, prefix: str = "", *, ensure_bucket: bool = True) -> None:
        self.client, self.bucket, self.prefix = client, bucket, prefix.strip("/")
        if ensure_bucket:
            self.ensure_bucket()

    @classmethod
    def from_environment(cls, bucket: str, prefix: str = "") -> "S3ObjectStore":
        """A client from ``KEA_S3_ENDPOINT``, ``AWS_ACCESS_KEY_ID``/``AWS_SECRET_ACCESS_KEY`` and the region
        (``KEA_S3_REGION``, else ``AWS_REGION`` / ``AWS_DEFAULT_REGION``, else us-east-1)."""
        return cls(
            make_client(
                os.environ.get("KEA_S3_ENDPOINT") or None,
                os.environ.get("KEA_S3_REGION") or os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION"),
            ),
            bucket,
            prefix,
        )

    def ensure_bucket(self) -> None:
        from botocore.exceptions import ClientError

        try:
            self.client.head_bucket(Bucket=self.bucket)
        except ClientError as exc:
            if not _missing(exc):
                raise
            try:
                self.client.create_bucket(Bucket=self.bucket)
            except ClientError as made:  # replicas starting together: another one made it first
                if made.response.get("Error", {}).get("Code") != "BucketAlreadyOwnedByYou":
                    raise
        rule = {
            "ID": LIFECYCLE_RULE_ID,
            "Filter": {"Prefix": self._key(PREFIX) + "/"},
            "Status": "Enabled",
            "Expiration": {"Days": 7},
        }
        results = {**rule, "ID": WORKSPACE_RULE_ID, "Filter": {"Prefix": self._key(WORKSPACE_PREFIX) + "/"}}
        try:
            self.client.put_bucket_lifecycle_configuration(
                Bucket=self.bucket, LifecycleConfiguration={"Rules": [rule, results]}
            )
        except ClientError as exc:
            log.warning(
                "The S3 server refused the 7-day lifecycle rule on %s/%s (%s); stored tables are not removed "
                "by the server, but downloads still refuse files older than 7 days.",
                self.bucket, rule["Filter"]["Prefix"], exc,
            )

    def _key(self, key: str) -> str:
        key = safe_key(key)
        return f"{self.prefix}/{key}" if self.prefix else key

    def put_file(self, key: str, source: Path, content_type: str) -> None:
        self.client.upload_file(str(source), self.bucket, self._key(key), ExtraArgs={"ContentType": content_type})

    def put_bytes(self, key: str, data: bytes, content_type: str) -> None:
        self.client.put_object(Bucket=self.bucket, Key=self._key(key), Body=data, ContentType=content_type)

    def open(self, key: str) -> IO[bytes]:
        from botocore.exceptions import ClientError

        try:
            body = self.client.get_object(Bucket=self.bucket, Key=self._key(key))["Body"]
        except ClientError as exc:
            if _missing(exc):
                raise ObjectNotFound(f"No file stored under {key!r}.") from exc
            raise
        return io.BufferedReader(_Body(body), buffer_size=64 * 1024)

    def _head(self, key: str) -> dict[str, Any]:
        from botocore.exceptions import ClientError

        try:
            return dict(self.client.head_object(Bucket=self.bucket, Key=self._key(key)))
        except ClientError as exc:
            if _missing(exc):
                raise ObjectNotFound(f"No file stored under {key!r}.") from exc
            raise

    def exists(self, key: str) -> bool:
        try:
            self._head(key)
        except ObjectNotFound:
            return False
        return True

    def delete(self, key: str) -> None:
        self.client.delete_object(Bucket=self.bucket, Key=self._key(key))

    def publish(self, staged: str, key: str) -> None:
        """Copy the object at ``staged`` to ``key`` on the server, then delete ``staged``. S3 shows
        a copy under ``key`` only once it is whole; a failed copy leaves ``key`` as it was."""
        from botocore.exceptions import ClientError

        try:
            self.client.copy({"Bucket": self.bucket, "Key": self._key(staged)}, self.bucket, self._key(key))
        except ClientError as exc:
            if _missing(exc):
                raise ObjectNotFound(f"No file stored under {staged!r}.") from exc
            raise
        self.client.delete_object(Bucket=self.bucket, Key=self._key(staged))

    def existing(self, folder: str, names: list[str]) -> set[str]:
        """Which of the objects ``folder/name`` exist: one listing of the folder (a request for
        every 1,000 objects in it), not a request for each."""
        if not names:
            return set()
        wanted = set(names)
        base = self._key(folder).rstrip("/") + "/"
        found: set[str] = set()
        for page in self.client.get_paginator("list_objects_v2").paginate(Bucket=self.bucket, Prefix=base):
            found |= {item["Key"][len(base):] for item in page.get("Contents", [])} & wanted
        return found

    def keys(self, prefix: str) -> Iterator[str]:
        base = self._key(prefix).rstrip("/") + "/"
        strip = len(self.prefix) + 1 if self.prefix else 0
        for page in self.client.get_paginator("list_objects_v2").paginate(Bucket=self.bucket, Prefix=base):
            for item in page.get("Contents", []):
                yield item["Key"][strip:]

    def url(self, key: str) -> str:
        return f"s3://{self.bucket}/{self._key(key)}"

    def stored_at(self, key: str) -> datetime:
        return self._head(key)["LastModified"]  # type: ignore[no-any-return]

    def presigned_url(self, key: str, seconds: int) -> str:
        return str(
            self.client.generate_presigned_url(
                "get_object", Params={"Bucket": self.bucket, "Key": self._key(key)}, ExpiresIn=int(seconds)
            )
        )


def make_client(endpoint: str | None, region: str | None = None) -> Any:
    """A boto3 S3 client (SigV4; path-style addressing when an endpoint is given)."""
    import boto3
    from botocore.config import Config

    config = Config(
        signature_version="s3v4",
        s3={"addressing_style": "path" if endpoint else "auto"},
        retries={"max_attempts": 5, "mode": "standard"},
    )
    return boto3.client("s3", endpoint_url=endpoint, region_name=region or "us-east-1", config=config)
