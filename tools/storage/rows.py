"""What each document of an extraction gave, stored beside its table: never in graph state.

Layout under ``record-extraction/{extraction_id}/``:
- ``rows/{document_id}.jsonl``: a first line ``{"file": ...}`` (with ``"no_rows": {"reason",
  "detail"}`` when the document gave none), then one record a line, written whole and
  atomically, so a retried document overwrites and never duplicates;
- ``failed/{document_id}.json``: ``{"file", "error"}`` for a document that could not be read;
- ``reading.json``: the confirmed reading every document is extracted with;
- ``table.csv``, ``table.xlsx``, ``review.html`` and ``summary.json``: the assembled table (twice),
  the page to check it against its sources, and the run's full summary.
A document has either rows or a failure: writing one removes the other.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass

from core.reading import Reading, Record
from tools.storage.objects import ObjectNotFound, ObjectStore

PREFIX = "record-extraction"
WORKSPACE_PREFIX = "workspace"  # the SQL workspaces' query results (tools/workspace/), kept as long too


def extraction_prefix(extraction_id: str) -> str:
    if not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", extraction_id):
        raise ValueError(f"not an extraction id: {extraction_id!r}")
    return f"{PREFIX}/{extraction_id}"


def rows_key(extraction_id: str, document_id: int) -> str:
    return f"{extraction_prefix(extraction_id)}/rows/{int(document_id)}.jsonl"


def failure_key(extraction_id: str, document_id: int) -> str:
    return f"{extraction_prefix(extraction_id)}/failed/{int(document_id)}.json"


def reading_key(extraction_id: str) -> str:
    return f"{extraction_prefix(extraction_id)}/reading.json"


def table_key(extraction_id: str) -> str:
    return f"{extraction_prefix(extraction_id)}/table.csv"


def summary_key(extraction_id: str) -> str:
    return f"{extraction_prefix(extraction_id)}/summary.json"


# what an extraction leaves for people: the table twice, the page to check it, the full summary
OUTPUTS = ("table.csv", "table.xlsx", "review.html", "summary.json")


def output_key(extraction_id: str, name: str) -> str:
    if name not in OUTPUTS:
        raise ValueError(f"not an output of an extraction: {name!r}")
    return f"{extraction_prefix(extraction_id)}/{name}"


@dataclass
class Outcome:
    """One document's result as stored: its file and either its records or its failure."""

    file: str
    records: Iterator[Record]
    error: str | None = None
    no_rows: dict[str, str] | None = None  # why a document gave no rows: {"reason", "detail"}
    notes: list[str] | None = None  # what of the document could be read only in part


class RowStore:
    def __init__(self, objects: ObjectStore) -> None:
        self.objects = objects

    def write_reading(self, extraction_id: str, reading: Reading) -> None:
        self.objects.put_bytes(reading_key(extraction_id), reading.model_dump_json().encode("utf-8"), "application/json")

    @functools.lru_cache(maxsize=64)  # noqa: B019 — a reading never changes once its extraction started
    def reading(self, extraction_id: str) -> Reading:
        with self.objects.open(reading_key(extraction_id)) as handle:
            return Reading.model_validate_json(handle.read())

    def write(
        self, extraction_id: str, document_id: int, file: str, records: list[Record], no_rows: dict[str, str] | None = None,
        notes: list[str] | None = None, failed_before: bool = True,
    ) -> None:
        """Store one document's records whole, replacing what an earlier attempt stored; a document
        without records keeps why (``no_rows``), one read only in part what was left (``notes``).
        An earlier attempt's failure is removed, unless the caller knows there is none
        (``failed_before=False``, from ``failed``): a request saved on S3."""
        head: dict[str, object] = {"file": file}
        if not records and no_rows:
            head["no_rows"] = no_rows
        if notes:
            head["notes"] = list(notes)
        lines = [json.dumps(head, ensure_ascii=False)]
        lines += [json.dumps(r.model_dump(mode="json"), ensure_ascii=False) for r in records]
        data = ("\n".join(lines) + "\n").encode("utf-8")
        self.objects.put_bytes(rows_key(extraction_id, document_id), data, "application/x-ndjson")
        if failed_before:
            self.objects.delete(failure_key(extraction_id, document_id))

    def write_failure(self, extraction_id: str, document_id: int, file: str, error: str) -> None:
        data = json.dumps({"file": file, "error": error}, ensure_ascii=False).encode("utf-8")
        self.objects.put_bytes(failure_key(extraction_id, document_id), data, "application/json")
        self.objects.delete(rows_key(extraction_id, document_id))

    def copy_outcome(self, source_id: str, target_id: str, document_id: int) -> bool:
        """Store under ``target_id`` what ``source_id`` stored for one document (its rows or its
        failure), so a document already read is not read again; False when it stored nothing."""
        for key in (rows_key, failure_key):
            try:
                with self.objects.open(key(source_id, document_id)) as handle:
                    data = handle.read()
            except ObjectNotFound:
                continue
            kind = "application/x-ndjson" if key is rows_key else "application/json"
            self.objects.put_bytes(key(target_id, document_id), data, kind)
            return True
        return False

    def stored_rows(
        self, extraction_id: str, document_ids: list[int], failed: set[int] | None = None
    ) -> dict[int, list[Record]]:
        """The records this extraction holds already of those of ``document_ids`` whose rows were
        stored whole: a resumed run reads them no second time. One look for them all (and one
        for their failures, unless the caller looked already: ``failed``)."""
        folder = f"{extraction_prefix(extraction_id)}/rows"
        there = self.objects.existing(folder, [f"{int(i)}.jsonl" for i in document_ids])
        with_rows = [i for i in document_ids if f"{int(i)}.jsonl" in there]
        if failed is None:
            failed = self.failed(extraction_id, with_rows) if with_rows else set()
        found: dict[int, list[Record]] = {}
        for document_id in with_rows:
            outcome = self.outcome(extraction_id, document_id, failed=document_id in failed)
            if outcome is not None and outcome.error is None:
                found[document_id] = list(outcome.records)
        return found

    def failed(self, extraction_id: str, document_ids: list[int]) -> set[int]:
        """Those of ``document_ids`` whose failure this extraction holds: one look for them all."""
        names = {f"{int(i)}.json": int(i) for i in document_ids}
        return {names[n] for n in self.objects.existing(f"{extraction_prefix(extraction_id)}/failed", list(names))}

    def outcome(self, extraction_id: str, document_id: int, failed: bool = True) -> Outcome | None:
        """The stored outcome of one document (records streamed); None when it stored nothing.
        A failure stored beside rows (a crash between the two writes) wins; ``failed=False``: the
        caller knows (from ``failed``) there is none, and it is not looked for."""
        if failed:
            try:
                with self.objects.open(failure_key(extraction_id, document_id)) as handle:
                    failure = json.loads(handle.read())
                return Outcome(failure["file"], iter(()), failure["error"])
            except ObjectNotFound:
                pass
        try:
            handle = self.objects.open(rows_key(extraction_id, document_id))
        except ObjectNotFound:
            return None
        head = json.loads(handle.readline() or b"{}")
        return Outcome(head.get("file", f"document {document_id}"), _records(handle), no_rows=head.get("no_rows"),
                       notes=head.get("notes"))


def _records(handle) -> Iterator[Record]:  # type: ignore[no-untyped-def]
    with handle:
        for line in handle:
            if line.strip():
                yield Record.model_validate_json(line)
