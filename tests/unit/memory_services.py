"""Kea's services without a database: a knowledge base, waiting selections and thread records in
memory, the folder object store and a vector index that holds nothing.

The knowledge base answers the reads the graph's nodes, the agent's tools and ranking make
(``tools/knowledge/queries.py``) from documents stored by Kea's own ingest (``ingest_folder``
below calls ``tools.knowledge.ingest.ingest``, so files are parsed by Kea's parser and kept as
the database keeps them). Globs, years and selections are matched with Kea's own helpers.
``tests/integration/test_memory_double.py`` checks that it answers as PostgreSQL does.

Not here: full-text ranking in each document's language and vectors (ranking falls back to its
keyword scan, as when Milvus is unreachable), search time budgets (nothing is slow here), the
ingest's stemming and language detection, and SQL workspaces.
"""

from __future__ import annotations

import re
import threading
from collections import Counter, defaultdict
from collections.abc import Sequence
from copy import deepcopy
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import docx

from core.reading import DocumentText, FolderCount, Table
from core.selection import LOCAL_USER, DocumentSelection, NamedCount, Scope, SelectionEntry
from tools.knowledge.clauses import _YEAR_IN_PATH
from tools.knowledge.errors import DocumentNotFound, KnowledgeError
from tools.knowledge.ingest import IngestReport, ingest
from tools.knowledge.paths import matches_glob
from tools.knowledge.queries import (
    DEFAULT_SEARCH_BUDGET_MS,
    CollectionInfo,
    DocumentRef,
    Queries,
    Resolution,
    SearchHit,
    SearchResult,
)
from tools.knowledge.vectors import SyncReport
from tools.knowledge.vocabulary import document_vocabulary
from tools.parsing.base import PARSER_VERSION, ParsedDocument
from tools.services import Services
from tools.storage.objects import FileObjectStore
from tools.storage.pending import PendingKey, PendingSelection, Taken
from tools.storage.rows import RowStore
from tools.visible import visible


@dataclass
class _Document:
    id: int
    collection_id: int
    collection: str
    path: str
    title: str
    media_type: str
    size: int
    sha256: str
    parser: str
    pages: list[str]
    tables: list[Table]
    notes: list[str]
    vocabulary: list[str]


@dataclass
class _Collection:
    id: int
    name: str
    readers: set[str] = field(default_factory=set)


class MemoryKnowledgeBase:
    """The knowledge base's writes (those ingest makes, and grants) and reads, in memory."""

    def __init__(self) -> None:
        self._collections: dict[str, _Collection] = {}
        self._documents: dict[int, _Document] = {}
        self._next_id = 0
        self._lock = threading.Lock()

    def close(self) -> None:
        pass

    def _new_id(self) -> int:
        self._next_id += 1
        return self._next_id

    # -- writes ----------------------------------------------------------------------------------

    def ensure_collection(self, name: str) -> int:
        with self._lock:
            if name not in self._collections:
                self._collections[name] = _Collection(self._new_id(), name)
            return self._collections[name].id

    def drop_if_unused(self, collection_id: int) -> None:
        with self._lock:
            for name, c in list(self._collections.items()):
                used = c.readers or any(d.collection_id == c.id for d in self._documents.values())
                if c.id == collection_id and not used:
                    del self._collections[name]

    def grant(self, collection: str, user: str) -> None:
        if collection not in self._collections:
            raise KnowledgeError(f"No collection named {collection!r}.")
        self._collections[collection].readers.add(user)

    def revoke(self, collection: str, user: str) -> None:
        if collection in self._collections:
            self._collections[collection].readers.discard(user)

    def stored_hashes(self, collection_id: int) -> dict[str, str]:
        return {d.path: d.sha256 if d.parser == PARSER_VERSION else "" for d in self._documents.values()
                if d.collection_id == collection_id}

    def store_document(self, collection_id: int, path: str, size: int, sha256: str, parsed: ParsedDocument) -> int:
        """As ``Store.store_document`` keeps it: control characters made visible, the vocabulary
        computed once; a stored path keeps its id."""
        with self._lock:
            collection = next(c.name for c in self._collections.values() if c.id == collection_id)
            old = next((d.id for d in self._documents.values() if d.collection_id == collection_id and d.path == path), None)
            doc_id = old if old is not None else self._new_id()
            self._documents[doc_id] = _Document(
                doc_id, collection_id, collection, path, visible(parsed.title), parsed.media_type, size, sha256,
                PARSER_VERSION, [visible(p) for p in parsed.pages],
                [Table(page=t.page, header=[visible(c) for c in t.header], rows=[[visible(c) for c in r] for r in t.rows],
                       title=[visible(line) for line in t.title]) for t in parsed.tables],
                [visible(n) for n in parsed.notes], document_vocabulary(parsed),
            )
        return doc_id

    def delete_documents(self, collection_id: int, paths: Sequence[str]) -> int:
        with self._lock:
            gone = [i for i, d in self._documents.items() if d.collection_id == collection_id and d.path in paths]
            for i in gone:
                del self._documents[i]
        return len(gone)

    # -- the scope and selections (tools/knowledge/clauses.py) -----------------------------------

    def _readable(self, user: str) -> list[_Collection]:
        return sorted((c for c in self._collections.values() if user == LOCAL_USER or c.readers & {user, "*"}),
                      key=lambda c: c.name)

    def _in_scope(self, scope: Scope) -> list[_Document]:
        """The scope's documents in collection and path order."""
        names = {c.name for c in self._readable(scope.user)}
        if scope.collections:
            names &= set(scope.collections)
        found = [d for d in self._documents.values() if d.collection in names
                 and (not scope.path_glob or matches_glob(d.path, scope.path_glob))]
        return sorted(found, key=lambda d: (d.collection, d.path))

    def _chosen(self, scope: Scope, selection: DocumentSelection | None) -> list[_Document]:
        entries = (selection or DocumentSelection()).entries
        return [d for d in self._in_scope(scope) if not entries or any(_holds(d, e) for e in entries)]

    # -- reads (as tools/knowledge/queries.py answers them) --------------------------------------

    def collections(self, user: str = LOCAL_USER, folders: int = 5) -> list[CollectionInfo]:
        return [
            CollectionInfo(c.name, sum(d.collection_id == c.id for d in self._documents.values()),
                           self.folder_summary(Scope(user=user, collections=[c.name]), limit=folders) if folders else [])
            for c in self._readable(user)
        ]

    def resolve(self, scope: Scope, selection: DocumentSelection | None = None, *,
                budget_ms: int = DEFAULT_SEARCH_BUDGET_MS) -> Resolution:
        return Resolution([_ref(d) for d in self._chosen(scope, selection)])

    def find_by_path_suffix(self, scope: Scope, suffix: str) -> list[DocumentRef]:
        suffix = suffix.strip().strip("/").lower()
        if not suffix:
            return []
        return [_ref(d) for d in self._in_scope(scope)
                if d.path.lower() == suffix or d.path.lower().endswith("/" + suffix)]

    def folder_summary(self, scope: Scope, limit: int = 8, selection: DocumentSelection | None = None) -> list[FolderCount]:
        """Every ancestor folder of a document counts it; largest first, then by name."""
        counts: Counter[str] = Counter()
        for d in self._chosen(scope, selection):
            parts = d.path.split("/")
            counts.update("/".join(parts[:n]) for n in range(1, len(parts)))
        ordered = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
        return [FolderCount(folder=f, documents=n) for f, n in ordered[:limit]]

    def years(self, scope: Scope) -> list[str]:
        return sorted({y for d in self._in_scope(scope) for y in re.findall(_YEAR_IN_PATH, d.path)})

    def year_counts(self, scope: Scope, selection: DocumentSelection, limit: int = 10) -> list[NamedCount]:
        return _most(Counter(y for d in self._chosen(scope, selection) for y in set(re.findall(_YEAR_IN_PATH, d.path))), limit)

    def collection_counts(self, scope: Scope, selection: DocumentSelection, limit: int = 10) -> list[NamedCount]:
        return _most(Counter(d.collection for d in self._chosen(scope, selection)), limit)

    def table_headers(self, scope: Scope, limit: int = 10, selection: DocumentSelection | None = None,
                      titled: Sequence[str] = ()) -> list[list[str]]:
        tables = [t for d in sorted(self._chosen(scope, selection), key=lambda d: d.path) for t in d.tables]
        counts = Counter(tuple(t.header) for t in tables)
        names = [" ".join(n.split()).casefold() for n in titled]
        entitled = {tuple(t.header) for t in tables if any(n in " ".join(t.title).casefold() for n in names)}
        ranked = sorted(counts.items(), key=lambda pair: (pair[0] not in entitled, -pair[1]))  # stable: ties keep their order
        return [list(header) for header, _ in ranked[:limit]]

    def count(self, scope: Scope, selection: DocumentSelection | None = None) -> int:
        return len(self._chosen(scope, selection))

    scope_hint = Queries.scope_hint  # the same composition of the reads above

    def search(self, scope: Scope, text: str, *, regex: bool = False, path_glob: str | None = None,
               limit: int = 50, budget_ms: int = DEFAULT_SEARCH_BUDGET_MS) -> SearchResult:
        if not text:
            raise KnowledgeError("Give a text to search for.")
        hits = []
        for d in self._in_scope(scope):
            if path_glob and not matches_glob(d.path, path_glob):
                continue
            for number, page in enumerate(d.pages, start=1):
                if _contains(page, text, regex):
                    line = next((line for line in page.split("\n") if _contains(line, text, regex)), page)
                    hits.append(SearchHit(d.id, d.collection, d.path, number, line[:240].strip()))
        return SearchResult(hits[:limit], limit_hit=len(hits) > limit)

    read_document = Queries.read_document  # one document is a batch of one, as in PostgreSQL

    def read_documents(self, scope: Scope, ids: Sequence[int], first_page: int | None = None,
                       last_page: int | None = None, *, longer_than: int | None = None) -> dict[int, DocumentText | None]:
        first, last = first_page or 1, last_page or 1_000_000
        found: dict[int, DocumentText | None] = {}
        for d in self._in_scope(scope):
            if d.id not in ids:
                continue
            if longer_than is not None and len(d.pages) > longer_than:
                found[d.id] = None
                continue
            found[d.id] = DocumentText(
                id=d.id, collection=d.collection, path=d.path, title=d.title, media_type=d.media_type,
                pages=d.pages[first - 1 : last],
                tables=[t.model_copy(update={"page": t.page - (first - 1)}) for t in d.tables if first <= t.page <= last],
                notes=list(d.notes),
            )
        return found

    def document_notes(self, scope: Scope, document_id: int) -> list[str]:
        found = next((d for d in self._in_scope(scope) if d.id == document_id), None)
        if found is None:
            raise DocumentNotFound(f"Document {document_id} is not in your scope or does not exist.")
        return list(found.notes)

    def vocabulary(self, scope: Scope, limit: int = 500) -> list[tuple[str, int]]:
        """Names by documents using them; spellings that differ only in case are one, shown as
        most documents write it (the first in order on a tie, as PostgreSQL's ``mode()``)."""
        spellings: dict[str, Counter[str]] = defaultdict(Counter)
        documents: dict[str, set[int]] = defaultdict(set)
        for d in self._in_scope(scope):
            for term in d.vocabulary:
                spellings[term.lower()][term] += 1
                documents[term.lower()].add(d.id)
        names = [(min(s, key=lambda t: (-s[t], t)), len(documents[key]), key) for key, s in spellings.items()]
        names.sort(key=lambda n: (-n[1], n[2]))
        return [(term, n) for term, n, _ in names[:limit]]

    def locations(self, scope: Scope, ids: Sequence[int]) -> dict[int, tuple[int, str]]:
        return {d.id: (d.collection_id, d.path) for d in self._in_scope(scope) if d.id in ids}

    def keyword_scores(self, scope: Scope, ids: Sequence[int], terms: Sequence[tuple[str, int]], *,
                       budget_ms: int = DEFAULT_SEARCH_BUDGET_MS) -> dict[int, int] | None:
        scores = {}
        for d in self._in_scope(scope):
            if d.id in ids:
                named = [w for t, w in terms if _contains(d.path, t) or any(_contains(p, t) for p in d.pages)]
                if named:
                    scores[d.id] = sum(named)
        return scores


def _most(counts: Counter[str], limit: int) -> list[NamedCount]:
    """Most documents first, then by name (``ORDER BY documents DESC, name``)."""
    ordered = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    return [NamedCount(name=name, documents=n) for name, n in ordered[:limit]]


def _contains(text: str, wanted: str, regex: bool = False) -> bool:
    return re.search(wanted, text, re.IGNORECASE) is not None if regex else wanted.lower() in text.lower()


def _holds(d: _Document, entry: SelectionEntry) -> bool:
    """One selection entry's parts, ANDed (``clauses._entry_clause``)."""
    return (
        (not entry.path_globs or any(matches_glob(d.path, g) for g in entry.path_globs))
        and (not entry.path_regex or re.search(entry.path_regex, d.path) is not None)
        and (not entry.content or any(_contains(p, entry.content.text, entry.content.regex) for p in d.pages))
        and (entry.ids is None or d.id in entry.ids)
    )


def _ref(d: _Document) -> DocumentRef:
    return DocumentRef(d.id, d.collection, d.path, len(d.pages), d.size)


class MemoryPendingSelections:
    """Selections waiting for a "yes" (``tools.storage.pending.PendingSelections``), in memory."""

    def __init__(self) -> None:
        self._waiting: dict[PendingKey, tuple[str, PendingSelection]] = {}
        self._lock = threading.Lock()

    def offer(self, key: PendingKey, selection: PendingSelection) -> None:
        with self._lock:
            self._waiting[key] = ("pending", deepcopy(selection))

    def take(self, key: PendingKey) -> tuple[Taken, PendingSelection | None]:
        with self._lock:
            if key not in self._waiting:
                return "none", None
            state, selection = self._waiting[key]
            if state != "pending":
                return "already_taken", None
            self._waiting[key] = ("taken", selection)
            return "taken", deepcopy(selection)

    def discard(self, key: PendingKey) -> bool:
        with self._lock:
            state, _ = self._waiting.pop(key, ("none", None))
        return state == "pending"


class MemoryThreads:
    """Which thread made each extraction and whose thread it is (``tools.storage.owners``), in memory."""

    def __init__(self) -> None:
        self.owners: dict[str, str] = {}  # thread -> user
        self.extractions: dict[str, str] = {}  # extraction -> thread
        self._lock = threading.Lock()

    def record(self, extraction_id: str, thread: str, user: str, profile: str) -> bool:
        with self._lock:
            owner = self.owners.setdefault(thread, user)
            if owner != user or extraction_id in self.extractions:
                return False
            self.extractions[extraction_id] = thread
            return True


class NoVectors:
    """A vector index that holds nothing: ranking orders by keywords, as when Milvus is unreachable."""

    def sources(self, collection_ids: Sequence[int]) -> dict[int, Any]:
        return {}

    def search(self, source: Any, vector: list[float], document_ids: Sequence[int], timeout_s: float | None = None) -> list[int]:
        return []

    def sync(self, collection_id: int, **_: Any) -> SyncReport:
        return SyncReport()

    def forget(self, collection_id: int, paths: Sequence[str]) -> None:
        pass

    def reset(self) -> None:
        pass

    def close(self) -> None:
        pass


def memory_services(home: Path) -> Services:
    """Services on an empty in-memory knowledge base, with tables stored under ``home/files``."""
    objects = FileObjectStore(home / "files")
    return Services("", MemoryKnowledgeBase(), objects, RowStore(objects),  # type: ignore[arg-type]
                    vectors=NoVectors(), pending=MemoryPendingSelections(),  # type: ignore[arg-type]
                    record_extraction=MemoryThreads().record)


def ingest_folder(svc: Services, folder: Path, collection: str) -> IngestReport:
    """Every file under ``folder`` into ``collection``, by Kea's own ingest and parser."""
    return ingest(svc.kb, [folder], collection, vectors=svc.vectors, embed=False)


def write_shop(folder: Path) -> None:
    """Three orders (two CSV files, one Word table), each with one cable, and a memo without a table."""
    (folder / "orders/2024").mkdir(parents=True)
    (folder / "orders/2025").mkdir(parents=True)
    (folder / "notes").mkdir()
    (folder / "orders/2024/north.csv").write_text("Item,Quantity,Price\nsteel bolt,3,1.25\ncopper cable 5 m,1,7.50\n")
    (folder / "orders/2025/south.csv").write_text("Item,Quantity,Price\nwasher,10,0.10\ncopper cable 2 m,2,3.00\n")
    document = docx.Document()
    document.add_paragraph("Order East")
    table = document.add_table(rows=3, cols=3)
    for row, cells in zip(table.rows, [("Item", "Quantity", "Price"), ("hex nut", "40", "0.05"), ("copper cable 9 m", "1", "12.00")]):
        for cell, text in zip(row.cells, cells):
            cell.text = text
    document.save(str(folder / "orders/2025/east.docx"))
    (folder / "notes/memo.txt").write_text("Meeting notes\nNothing to order here.\n")
