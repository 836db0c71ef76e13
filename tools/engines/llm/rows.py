"""A document's rows from the model's answers: read from each answer, kept once across
windows, and checked against the document."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from core.reading import DocumentText, Reading, Record
from tools.engines.checks import check_conditions, checked, unused_notes, values_found
from tools.engines.columns import match_column
from tools.engines.llm.windows import Window

EVIDENCE_CHARS = 2000  # a longer "quote" is not a line of the document
LATER_VERDICT = "the model doubted a document condition in this part; the document's opening meets it"


def to_record(row: BaseModel, columns: Sequence[str], page_count: int) -> Record | None:
    values = {}
    for i, column in enumerate(columns):
        value = getattr(row, f"c{i}")
        values[column] = value.strip() if isinstance(value, str) and value.strip() else None
    if all(v is None for v in values.values()):
        return None
    match = row.match
    page = row.page
    evidence = (row.evidence or "").strip("\n")[:EVIDENCE_CHARS] or None
    note = row.note
    return Record(
        values=values,
        match=match,
        page=page if isinstance(page, int) and 1 <= page <= page_count else None,
        evidence=evidence,
        note=(note or "the model was not sure this row meets the condition") if match == "unsure" else None,
    )


def _loose(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().casefold()


def _occurrences(document: DocumentText, window: Window, evidence: str) -> list[tuple[int, int]]:
    """(page, offset) of every place the evidence stands in the window: exact, else whitespace-
    and case-tolerant (as grounding locates it)."""
    found: list[tuple[int, int]] = []
    for piece in window:
        text = piece.text(document)
        at = text.find(evidence)
        while at >= 0:
            found.append((piece.page, piece.start + at))
            at = text.find(evidence, at + 1)
    if found:
        return found
    words = evidence.split()
    if not words:
        return []
    pattern = re.compile(r"\s+".join(map(re.escape, words)), re.IGNORECASE)
    return [
        (piece.page, piece.start + m.start()) for piece in window for m in pattern.finditer(piece.text(document))
    ]


@dataclass
class Part:
    """What one window gave: its rows, and whether the document failed a document condition."""

    window: Window
    records: list[Record] = field(default_factory=list)
    fails_document: bool = False


def merge_windows(document: DocumentText, parts: Sequence[Part]) -> list[Record]:
    """The rows of all windows, each once.

    A row is where its evidence stands: the page and line it starts on, found in the window it
    came from, the k-th row quoting the same text taking its k-th occurrence. A line holds as
    many rows as the window that found most there; rows of later windows beyond that are new.
    Rows whose evidence stands nowhere count by their evidence and values instead.
    """
    kept_at: Counter[tuple[Any, ...]] = Counter()
    merged: list[Record] = []
    for index, part in enumerate(parts):
        # only the piece a window shares with the one before can repeat rows already kept
        overlap = part.window[0] if index > 0 else None
        here: Counter[tuple[Any, ...]] = Counter()
        quoted: Counter[tuple[str, int | None]] = Counter()
        for record in part.records:
            evidence = record.evidence or ""
            places = _occurrences(document, part.window, evidence) if evidence.strip() else []
            if places:
                # the row's own page first: the same line may stand on several pages
                places.sort(key=lambda place: place[0] != record.page)
                page, offset = places[min(quoted[evidence, record.page], len(places) - 1)]
                quoted[evidence, record.page] += 1
                line = document.pages[page - 1].rfind("\n", 0, offset) + 1
                key: tuple[Any, ...] = ("at", page, line)
                record = record.model_copy(update={"page": page})
                shared = overlap is not None and page == overlap.page and overlap.start <= offset < overlap.end
            else:
                key = ("text", _loose(evidence), tuple(sorted(record.values.items(), key=lambda kv: kv[0])))
                shared = True
            here[key] += 1
            if index == 0 or not shared or here[key] > kept_at[key]:
                merged.append(record)
        for key, count in here.items():
            kept_at[key] = max(kept_at[key], count)
    return merged


def check_records(document: DocumentText, reading: Reading, records: list[Record]) -> list[Record]:
    """Every row the model gave, unsure where a value does not stand in the document or a
    literal condition on a requested column fails its cell.

    The model read the conditions itself; what can be checked on the values it gave is
    checked with the same rules as the offline engine's rows (``tools.engines.checks``), and a
    failed check lowers its ``yes`` with the reason: it never drops the row.
    """
    columns = list(reading.columns)
    checkable = [
        c.model_copy(update={"column": columns[i]})
        for c in reading.conditions
        if c.op != "judgement" and c.column and (i := match_column(c.column, columns, translate=False)) is not None
    ]
    kept = []
    for record in values_found(document, records):

        def cell_of(column: str, record: Record = record) -> str | None:
            return " ".join(v for v in record.values.values() if v) if not column else record.values.get(column)

        _, notes = check_conditions(checkable, cell_of)
        kept.append(checked(record, notes + unused_notes(reading)))
    return kept
