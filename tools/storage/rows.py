"""Rows of an extraction, stored per document beside its table: never in graph state.

Layout under ``record-extraction/{extraction_id}/``: ``rows/{document_id}.jsonl`` (one record
a line, written whole and atomically, so a retried document overwrites and never duplicates)
and the assembled ``table.csv``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

from tools.engines.reading import Record
from tools.storage.objects import ObjectNotFound, ObjectStore

PREFIX = "record-extraction"


def extraction_prefix(extraction_id: str) -> str:
    if not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", extraction_id):
        raise ValueError(f"not an extraction id: {extraction_id!r}")
    return f"{PREFIX}/{extraction_id}"


def rows_key(extraction_id: str, document_id: int) -> str:
    return f"{extraction_prefix(extraction_id)}/rows/{int(document_id)}.jsonl"


def table_key(extraction_id: str) -> str:
    return f"{extraction_prefix(extraction_id)}/table.csv"


class RowStore:
    def __init__(self, objects: ObjectStore) -> None:
        self.objects = objects

    def write(self, extraction_id: str, document_id: int, file: str, records: list[Record]) -> None:
        """Store one document's records whole, replacing what an earlier attempt stored."""
        lines = (json.dumps({"file": file, **r.model_dump(mode="json")}, ensure_ascii=False) + "\n" for r in records)
        self.objects.put_bytes(rows_key(extraction_id, document_id), "".join(lines).encode("utf-8"), "application/x-ndjson")

    def read(self, extraction_id: str, document_id: int) -> Iterator[tuple[str, Record]]:
        """(file, record) of one document, streamed; nothing when none were stored."""
        try:
            handle = self.objects.open(rows_key(extraction_id, document_id))
        except ObjectNotFound:
            return
        with handle:
            for line in handle:
                if line.strip():
                    data = json.loads(line)
                    yield data.pop("file"), Record.model_validate(data)
