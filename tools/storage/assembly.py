"""Assembling an extraction's table: its documents' stored outcomes, in table order, streamed into
the CSV, the XLSX and the review page, one document's rows in memory at a time.

A table can be assembled in one go at the end (``assemble_table``), or while its documents are
still being read: the fan-out's waves finish in table order, so after each wave the documents
finished so far are added in a background thread (``assembling(...).advance_soon``) while the
next wave runs, and from then on each document soon after its rows are stored
(``tools/fanout/document_io.py``): at the end only the last few documents are left to add. Either way the files are the
same, byte for byte: one ``TableAssembly`` adds every document, in order, by the same code.

What a background assembly holds is only a head start: a run resumed in another process, a
scope that changed, or a background step that failed starts the table afresh.
"""

from __future__ import annotations

import json
import logging
import tempfile
import threading
from collections import OrderedDict
from collections.abc import Collection, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from core.reading import Record
from tools.storage.objects import publish_together
from tools.storage.review import HTML_TYPE, ReviewSpool
from tools.storage.rows import OUTPUTS, Outcome, output_key, summary_key, table_key
from tools.storage.table import TableWriter, header
from tools.storage.xlsx import XLSX_TYPE, XlsxTable
from tools.visible import visible

if TYPE_CHECKING:
    from tools.services import Services

log = logging.getLogger(__name__)
NOT_STORED = "no result was stored for it (the run may have been interrupted); ask again to read it"
KEPT = 8  # tables assembled at once in one process
READ_IN_PART_LISTED = 10  # documents read only in part, named in the answer (all of them in summary.json)


@dataclass
class Assembled:
    writer: TableWriter
    urls: dict[str, str]  # table.csv, table.xlsx, review.html, summary.json → where each is stored
    no_rows: list[dict[str, str]] = field(default_factory=list)  # {"file", "reason", "detail"}
    failed: list[dict[str, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # the run's notes and what assembling the table adds

    @property
    def no_rows_from(self) -> list[str]:
        return [n["file"] for n in self.no_rows]


class TableAssembly:
    """One extraction's table being written, a document at a time, in table order."""

    def __init__(self, svc: "Services", extraction_id: str, document_ids: Sequence[int], columns: Sequence[str]) -> None:
        self.svc, self.extraction_id = svc, extraction_id
        self.document_ids, self.columns = list(document_ids), list(columns)
        self.added = 0  # documents added so far: document_ids[:added]
        self.no_rows: list[dict[str, str]] = []
        self.failed: list[dict[str, str]] = []
        self.read_in_part: list[str] = []  # "file: what could not be read" of documents read only in part
        self.broken = False  # a background step failed: this head start is not to be used
        self.closed = False
        self._lock = threading.Lock()
        self._folder = tempfile.TemporaryDirectory(prefix="kea-table-")
        self.work = Path(self._folder.name)
        self._xlsx = XlsxTable(self.work / "table.xlsx", header(self.columns))
        self._review = ReviewSpool(self.work, self.columns)
        self._csv: IO[str] = open(self.work / "table.csv", "w", encoding="utf-8", newline="")
        self.writer = TableWriter(self.columns, self._csv)

    def matches(self, document_ids: Sequence[int], columns: Sequence[str]) -> bool:
        return not self.broken and self.document_ids == list(document_ids) and self.columns == list(columns)

    def advance(self, finished: Collection[int]) -> None:
        """Add, in table order, the documents whose outcome is final (``finished``), up to the
        first that is not."""
        with self._lock:
            if self.closed:  # taken and finished (or given up) before this step ran
                return
            try:
                end = self.added
                while end < len(self.document_ids) and self.document_ids[end] in finished:
                    end += 1
                self._add_all(self.document_ids[self.added : end])
            except Exception:  # noqa: BLE001 — a head start only: the table is assembled afresh at the end
                log.warning("assembling the table of %s ahead failed; it is assembled at the end", self.extraction_id, exc_info=True)
                self.broken = True

    def finish(self, summary: dict[str, Any]) -> Assembled:
        """Add every document not added yet, store the table's files and the full summary."""
        with self._lock:
            try:
                self._add_all(self.document_ids[self.added :])
                return self._store(summary)
            finally:
                self.close()

    def close(self) -> None:
        self.closed = True
        self._csv.close()
        self._folder.cleanup()

    def _add_all(self, document_ids: list[int]) -> None:
        """Add these documents (the next ones in table order); which of them failed is one look."""
        failed = self.svc.rows.failed(self.extraction_id, document_ids) if document_ids else set()
        for document_id in document_ids:
            self._add(document_id, document_id in failed)

    def _add(self, document_id: int, failed: bool) -> None:
        outcome = self.svc.rows.outcome(self.extraction_id, document_id, failed=failed)
        self.added += 1
        if outcome is None:
            self.failed.append({"file": f"document {document_id}", "error": NOT_STORED})
        elif outcome.error is not None:
            self.failed.append({"file": outcome.file, "error": outcome.error})
        else:
            self._add_rows(outcome)

    def _add_rows(self, outcome: Outcome) -> None:
        self.read_in_part += [f"{outcome.file}: {note}" for note in outcome.notes or []]
        before = self.writer.rows
        file = visible(outcome.file)
        for record in outcome.records:
            record = _visible(record)  # noqa: PLW2901 — every output shows a document's control characters as symbols
            self._xlsx.add(self.writer.write(file, record))
            self._review.add(file, record)
        if self.writer.rows == before:
            why = outcome.no_rows or {"reason": "no_rows", "detail": "it gave no rows"}
            self.no_rows.append({"file": outcome.file, "reason": why["reason"], "detail": why["detail"]})

    def _store(self, summary: dict[str, Any]) -> Assembled:
        self._csv.close()
        objects, extraction_id = self.svc.objects, self.extraction_id
        full = {
            **summary, "rows": self.writer.rows, "no_rows_from": [n["file"] for n in self.no_rows],
            "no_rows": self.no_rows, "failed": self.failed,
        }
        if self.read_in_part:  # never a bound hit silently
            full["read_in_part"] = self.read_in_part
            listed = "; ".join(self.read_in_part[:READ_IN_PART_LISTED])
            more = len(self.read_in_part) - READ_IN_PART_LISTED
            full["notes"] = [*full.get("notes", []), f"Read only in part ({len(self.read_in_part)}): {listed}"
                             + (f"; and {more} more (all in summary.json)." if more > 0 else ".")]
        if self._xlsx.cut:  # never a limit hit silently
            full["notes"] = [*full.get("notes", []), f"{self._xlsx.cut} cells hold more than a spreadsheet cell takes "
                             "(32,767 characters): they are cut in table.xlsx and whole in the CSV."]
        page = self._review.save(self.work / "review.html", f"Review: {summary.get('understood') or 'the table'}",
                                 facts(full, len(self.document_ids)))
        (self.work / "summary.json").write_bytes(json.dumps(full, ensure_ascii=False, indent=1).encode())
        # under temporary keys first, then published together: a store failing part-way leaves no
        # part of a table under its name, and summary.json, published last, marks it complete
        publish_together(objects, [
            (table_key(extraction_id), self.work / "table.csv", "text/csv; charset=utf-8"),
            (output_key(extraction_id, "table.xlsx"), self._xlsx.close(), XLSX_TYPE),
            (output_key(extraction_id, "review.html"), page, HTML_TYPE),
            (summary_key(extraction_id), self.work / "summary.json", "application/json"),
        ])
        urls = {name: objects.url(output_key(extraction_id, name)) for name in OUTPUTS}
        return Assembled(self.writer, urls, self.no_rows, self.failed, list(full.get("notes", [])))


def _visible(record: Record) -> Record:
    """The record as every output shows it: its control characters as visible symbols."""
    return record.model_copy(update={
        "values": {k: visible(v) if v else v for k, v in record.values.items()},
        "evidence": visible(record.evidence) if record.evidence else record.evidence,
        "note": visible(record.note) if record.note else record.note,
    })


def facts(full: dict[str, Any], documents: int) -> list[str]:
    """What the review page says of the run, above the rows."""
    lines = [
        f"{full['rows']} rows from {documents} documents ({full.get('unsure_rows', 0)} unsure); "
        f"read with the {full.get('engine', '?')} engine.",
    ]
    lines += [f"No rows: {line}" for line in by_reason(full["no_rows"], len(full["no_rows"]))]
    lines += [f"Failed: {f['file']}: {f['error']}" for f in full["failed"]]
    return lines


def by_reason(no_rows: list[dict[str, str]], total: int) -> list[str]:
    """One line per reason: how many, why, and which files (those listed in the answer)."""
    groups: dict[str, list[str]] = {}
    for item in no_rows:
        groups.setdefault(item["detail"], []).append(item["file"])
    lines = [f"{len(files)} — {detail}: {', '.join(files)}" for detail, files in groups.items()]
    if total > len(no_rows):
        lines.append(f"{total - len(no_rows)} more, each with its reason in summary.json")
    return lines


def assemble_table(svc: "Services", extraction_id: str, document_ids: Sequence[int], summary: dict[str, Any]) -> Assembled:
    """The whole table, assembled now (with the head start of a background assembly when one
    matches): its files stored, and what it holds."""
    return take_assembly(svc, extraction_id, document_ids, summary["columns"]).finish(summary)


# -- the head start kept between the waves of a run ----------------------------------------

_kept: "OrderedDict[tuple[int, str], TableAssembly]" = OrderedDict()
_kept_lock = threading.Lock()
_background = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kea-assembly")


def assembling(svc: "Services", extraction_id: str, document_ids: Sequence[int], columns: Sequence[str]) -> "Ahead":
    """The table of ``extraction_id`` being assembled ahead in this process (begun if need be)."""
    key = (id(svc), extraction_id)
    with _kept_lock:
        current = _kept.get(key)
        if current is None or current.svc is not svc or not current.matches(document_ids, columns):
            if current is not None:
                _background.submit(current.close)
            current = _kept[key] = TableAssembly(svc, extraction_id, document_ids, columns)
            while len(_kept) > KEPT:
                _background.submit(_kept.popitem(last=False)[1].close)
        _kept.move_to_end(key)
    return Ahead(current)


def take_assembly(svc: "Services", extraction_id: str, document_ids: Sequence[int], columns: Sequence[str]) -> TableAssembly:
    """The background assembly of this table if one matches (it is taken: nobody adds to it
    again), else a new one."""
    with _kept_lock:
        current = _kept.pop((id(svc), extraction_id), None)
    if current is not None and current.svc is svc and current.matches(document_ids, columns):
        return current
    if current is not None:
        current.close()
    return TableAssembly(svc, extraction_id, document_ids, columns)


@dataclass
class Ahead:
    assembly: TableAssembly

    def advance_soon(self, finished: Collection[int]) -> None:
        """Add the finished documents in the background thread; returns at once. ``finished``
        may grow meanwhile (a set of the event loop's that only ever grows: it is only asked
        whether it holds a document)."""
        _background.submit(self.assembly.advance, finished)
