"""The fast layer's in-memory knowledge base (``tests/unit/memory_services.py``) answers as the one
in PostgreSQL does: the same folder ingested into both, the same questions asked of both."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from core.selection import ContentQuery, DocumentSelection, Scope, SelectionEntry
from tests.unit.memory_services import ingest_folder, memory_services, write_shop
from tools.knowledge.ingest import ingest
from tools.knowledge.paths import year_regex
from tools.knowledge.places import NO_YEAR

NAME = "memtwin"  # a collection of its own in the session's database, gone after this module
READER = "memtwin-reader"  # a user of its own: no other test's scope grows by these documents
SCOPES = [
    Scope(collections=[NAME]),
    Scope(collections=[NAME], path_glob="orders/**"),
    Scope(collections=[NAME], path_glob="**/*.csv"),
    Scope(user=READER, collections=[NAME]),  # granted
    Scope(user="someone-else", collections=[NAME]),  # not granted: nothing
]
SELECTIONS = [
    None,
    DocumentSelection(entries=[SelectionEntry(path_globs=["orders/2025/**"])]),
    DocumentSelection(entries=[SelectionEntry(path_globs=["notes/**", "*.md"])]),
    DocumentSelection(entries=[SelectionEntry(path_regex=year_regex("2024"))]),
    DocumentSelection(entries=[SelectionEntry(path_regex=NO_YEAR)]),
    DocumentSelection(entries=[SelectionEntry(path_globs=["orders/**"], path_regex=year_regex("2025"))]),
    DocumentSelection(entries=[SelectionEntry(content=ContentQuery(text="CABLE"))]),
    DocumentSelection(entries=[SelectionEntry(content=ContentQuery(text=r"cable [0-9]+ m", regex=True))]),
    DocumentSelection(entries=[SelectionEntry(path_globs=["notes/**"]), SelectionEntry(content=ContentQuery(text="washer"))]),
    DocumentSelection(entries=[SelectionEntry(ids=[])]),
    DocumentSelection(entries=[SelectionEntry(path_regex=r"(?i)NOTES/review\ 2023")]),  # a named document, case folded
]


@pytest.fixture(scope="module")
def twins(kb, kea_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, Any]]:  # type: ignore[no-untyped-def]
    """The same folder in PostgreSQL and in memory, each as collection NAME, readable by READER;
    removed from the session's database afterwards (the local user's scope is every collection)."""
    folder = kea_home / NAME
    write_shop(folder)
    (folder / "notes/Review 2023.md").write_text(
        "# Review of the year\n\nSupplier: Brightline\nOwner: Ana Ruiz\n\n| Topic | Status |\n|---|---|\n"
        "| Cable stock | low |\n| Bolts | fine |\n\nA control character \x1b stays visible.\n",
        encoding="utf-8",
    )
    assert len(ingest(kb, [folder], NAME, embed=False).indexed) == 5
    kb.grant(NAME, READER)
    in_memory = memory_services(tmp_path_factory.mktemp("memory"))
    assert len(ingest_folder(in_memory, folder, NAME).indexed) == 5
    in_memory.kb.grant(NAME, READER)
    yield kb, in_memory.kb
    kb.revoke(NAME, READER)
    collection = kb.ensure_collection(NAME)
    kb.delete_documents(collection, [path for _, path, _, _ in _paths(kb, Scope(collections=[NAME]))])
    kb.drop_if_unused(collection)


def _paths(kb, scope: Scope, selection: DocumentSelection | None = None) -> list[tuple[str, str, int, int]]:  # type: ignore[no-untyped-def]
    return [(d.collection, d.path, d.page_count, d.size) for d in kb.resolve(scope, selection).documents]


def _ids(kb, paths: list[str]) -> dict[str, int]:  # type: ignore[no-untyped-def]
    by_path = {d.path: d.id for d in kb.resolve(Scope(collections=[NAME])).documents}
    return {p: by_path[p] for p in paths}


@pytest.mark.parametrize("scope", SCOPES, ids=lambda s: f"{s.user}:{s.path_glob}")
def test_scope_and_selections_resolve_alike(twins, scope: Scope) -> None:  # type: ignore[no-untyped-def]
    postgres, memory = twins
    for selection in SELECTIONS:
        assert _paths(memory, scope, selection) == _paths(postgres, scope, selection), selection
        assert memory.count(scope, selection) == postgres.count(scope, selection), selection
        assert memory.folder_summary(scope, selection=selection) == postgres.folder_summary(scope, selection=selection)
        chosen = selection or DocumentSelection()
        assert memory.year_counts(scope, chosen) == postgres.year_counts(scope, chosen), selection
        assert memory.collection_counts(scope, chosen) == postgres.collection_counts(scope, chosen), selection
        assert memory.table_headers(scope, selection=chosen) == postgres.table_headers(scope, selection=chosen), selection
    named = ["orders/2025/east.docx", "notes/memo.txt"]
    by_ids = [DocumentSelection(entries=[SelectionEntry(ids=list(_ids(kb, named).values()))]) for kb in twins]
    assert _paths(memory, scope, by_ids[1]) == _paths(postgres, scope, by_ids[0])
    assert memory.years(scope) == postgres.years(scope)
    assert memory.scope_hint(scope) == postgres.scope_hint(scope)  # documents, collections, folders, years, headers, vocabulary
    assert memory.vocabulary(scope) == postgres.vocabulary(scope)
    for suffix in ["north.csv", "2025/SOUTH.csv", "/notes/memo.txt", "rth.csv", ""]:
        found = [(d.collection, d.path) for d in memory.find_by_path_suffix(scope, suffix)]
        assert found == [(d.collection, d.path) for d in postgres.find_by_path_suffix(scope, suffix)], suffix
    for text, regex in [("cable", False), ("BOLT", False), (r"[0-9]+\.50", True)]:
        hits = [[(h.path, h.page, h.line) for h in kb.search(scope, text, regex=regex).hits] for kb in twins]
        assert hits[1] == hits[0], text


def test_a_scope_without_access_is_empty_in_both(twins) -> None:  # type: ignore[no-untyped-def]
    for kb in twins:
        assert kb.count(Scope(user="someone-else", collections=[NAME])) == 0
        assert kb.count(Scope(user=READER, collections=[NAME])) == 5


def test_documents_read_alike(twins) -> None:  # type: ignore[no-untyped-def]
    postgres, memory = twins
    scope = Scope(collections=[NAME])
    paths = [p for _, p, _, _ in _paths(postgres, scope)]
    pg_ids, mem_ids = _ids(postgres, paths), _ids(memory, paths)
    for path in paths:
        read = [kb.read_document(scope, ids[path]).model_dump(exclude={"id"}) for kb, ids in ((postgres, pg_ids), (memory, mem_ids))]
        assert read[1] == read[0], path
        assert memory.document_notes(scope, mem_ids[path]) == postgres.document_notes(scope, pg_ids[path])
    review = "".join(memory.read_document(scope, mem_ids["notes/Review 2023.md"]).pages)
    assert "\x1b" not in review and "\u241b stays visible" in review
    outside = Scope(collections=[NAME], path_glob="orders/**")
    for kb, ids in ((postgres, pg_ids), (memory, mem_ids)):
        found = kb.read_documents(outside, list(ids.values()), longer_than=0)
        assert sorted(found) == sorted(ids[p] for p in paths if p.startswith("orders/")) and set(found.values()) == {None}
    located = [{i: path for i, (_, path) in kb.locations(outside, list(ids.values())).items()}
               for kb, ids in ((postgres, pg_ids), (memory, mem_ids))]
    assert sorted(located[1].values()) == sorted(located[0].values()) == [p for p in paths if p.startswith("orders/")]
    assert all(pg_ids[path] == i for i, path in located[0].items())
    terms = [("cable", 2), ("north", 1), ("washer", 4)]
    scores = [{_path_of(ids, i): s for i, s in (kb.keyword_scores(scope, list(ids.values()), terms) or {}).items()}
              for kb, ids in ((postgres, pg_ids), (memory, mem_ids))]
    assert scores[1] == scores[0] and scores[0]


def _path_of(ids: dict[str, int], document_id: int) -> str:
    return next(p for p, i in ids.items() if i == document_id)
