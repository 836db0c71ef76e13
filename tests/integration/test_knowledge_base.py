"""The knowledge base against the real local PostgreSQL: selections, access, search, ingestion."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tools.knowledge.base import DocumentNotFound, KnowledgeError
from tools.knowledge.ingest import ingest
from tools.knowledge.selection import ContentQuery, DocumentSelection, Scope, SelectionEntry


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def shelf(kb, tmp_path_factory):  # type: ignore[no-untyped-def]
    """A small collection 'shelf' plus a second collection 'vault' nobody but 'local' may read."""
    root = _write(
        tmp_path_factory.mktemp("shelf"),
        {
            "invoices/2024/acme-01.txt": "Invoice from Acme GmbH\nServer rack\t2\t1.249,00",
            "invoices/2025/acme-02.txt": "Invoice from Acme GmbH\nSwitch 24 port\t1\t399,00",
            "invoices/2025/zeta-01.txt": "Invoice from Zeta Ltd\nCable\t10\t4.50",
            "contracts/acme-frame.md": "# Frame contract\n\nSupplier: Acme GmbH\nLiability cap: EUR 500,000\n",
            "notes/todo.txt": "Nothing about invoices here.",
        },
    )
    report = ingest(kb, [root], "shelf")
    assert sorted(report.indexed) == sorted(
        ["invoices/2024/acme-01.txt", "invoices/2025/acme-02.txt", "invoices/2025/zeta-01.txt",
         "contracts/acme-frame.md", "notes/todo.txt"]
    )
    vault = _write(tmp_path_factory.mktemp("vault"), {"secret/plan.txt": "Acme acquisition plan"})
    ingest(kb, [vault], "vault")
    kb.grant("shelf", "alice")
    return root


def _paths(kb, scope, selection=None):  # type: ignore[no-untyped-def]
    return [d.path for d in kb.resolve(scope, selection).documents]


def test_selection_entries_and_within_or_across(kb, shelf) -> None:  # type: ignore[no-untyped-def]
    scope = Scope(collections=["shelf"])
    both = DocumentSelection(entries=[SelectionEntry(path_globs=["invoices/**"], content=ContentQuery(text="acme"))])
    assert _paths(kb, scope, both) == ["invoices/2024/acme-01.txt", "invoices/2025/acme-02.txt"]
    either = DocumentSelection(
        entries=[SelectionEntry(path_globs=["contracts/**"]), SelectionEntry(path_regex=r"zeta")]
    )
    assert _paths(kb, scope, either) == ["contracts/acme-frame.md", "invoices/2025/zeta-01.txt"]
    assert _paths(kb, scope, DocumentSelection(entries=[SelectionEntry(ids=[])])) == []


def test_profile_glob_applies_before_any_selection(kb, shelf) -> None:  # type: ignore[no-untyped-def]
    scope = Scope(collections=["shelf"], path_glob="invoices/2025/*")
    # a selection naming a document outside the profile's glob cannot reach it
    selection = DocumentSelection(entries=[SelectionEntry(path_globs=["contracts/**", "invoices/**"])])
    assert _paths(kb, scope, selection) == ["invoices/2025/acme-02.txt", "invoices/2025/zeta-01.txt"]
    assert kb.search(scope, "Liability").hits == []
    assert kb.find_by_path_suffix(scope, "acme-frame.md") == []


def test_user_without_access_sees_nothing_of_a_collection(kb, shelf) -> None:  # type: ignore[no-untyped-def]
    alice = Scope(user="alice")
    assert {d.collection for d in kb.resolve(alice).documents} == {"shelf"}
    assert kb.search(alice, "acquisition").hits == []
    assert [c.name for c in kb.collections("alice")] == ["shelf"]
    secret = kb.resolve(Scope(collections=["vault"])).documents[0]
    with pytest.raises(DocumentNotFound):
        kb.read_document(alice, secret.id)
    assert kb.resolve(Scope(user="bob")).documents == []
    kb.grant("vault", "*")
    try:
        assert kb.search(Scope(user="bob"), "acquisition").hits[0].path == "secret/plan.txt"
    finally:
        kb.revoke("vault", "*")
    assert kb.search(Scope(user="bob"), "acquisition").hits == []


def test_search_exact_regex_glob_and_limit(kb, shelf) -> None:  # type: ignore[no-untyped-def]
    scope = Scope(collections=["shelf"])
    exact = kb.search(scope, "ACME GMBH")
    assert [h.path for h in exact.hits] == ["contracts/acme-frame.md", "invoices/2024/acme-01.txt", "invoices/2025/acme-02.txt"]
    assert exact.hits[1].line == "Invoice from Acme GmbH"
    regex = kb.search(scope, r"\d+,\d\d$", regex=True, path_glob="invoices/**")
    assert [h.path for h in regex.hits] == ["invoices/2024/acme-01.txt", "invoices/2025/acme-02.txt"]
    limited = kb.search(scope, "invoice", limit=2)
    assert len(limited.hits) == 2 and limited.limit_hit
    assert "result limit" in (limited.message or "")
    with pytest.raises(KnowledgeError, match="regular expression"):
        kb.search(scope, "(unclosed", regex=True)


def test_catastrophic_regex_stops_at_its_time_budget(kb, tmp_path) -> None:  # type: ignore[no-untyped-def]
    root = _write(tmp_path, {"long.txt": " ".join(f"word{i}" for i in range(3000))})
    ingest(kb, [root], "regex-budget")
    result = kb.search(Scope(collections=["regex-budget"]), r"(\w+) .* \1\1", regex=True, budget_ms=300)
    assert result.stopped and result.hits == []
    assert "stopped at its limit" in (result.message or "")


def test_folder_summary_and_years(kb, shelf) -> None:  # type: ignore[no-untyped-def]
    scope = Scope(collections=["shelf"])
    folders = {f.folder: f.documents for f in kb.folder_summary(scope)}
    assert folders["invoices"] == 3 and folders["invoices/2025"] == 2 and folders["contracts"] == 1
    assert kb.folder_summary(scope)[0].folder == "invoices"
    assert kb.years(scope) == ["2024", "2025"]


def test_read_document_and_page_range(kb, tmp_path) -> None:  # type: ignore[no-untyped-def]
    root = _write(tmp_path, {"paged.txt": "page one\fpage two\fpage three"})
    ingest(kb, [root], "paged")
    scope = Scope(collections=["paged"])
    doc_id = kb.resolve(scope).documents[0].id
    assert kb.read_document(scope, doc_id).pages == ["page one", "page two", "page three"]
    assert kb.read_document(scope, doc_id, 2, 3).pages == ["page two", "page three"]


def test_reingest_is_idempotent_and_replaces_changed_files(kb, tmp_path) -> None:  # type: ignore[no-untyped-def]
    root = _write(tmp_path / "src", {"a.txt": "alpha", "b.txt": "beta"})
    first = ingest(kb, [root], "idem")
    assert sorted(first.indexed) == ["a.txt", "b.txt"]
    scope = Scope(collections=["idem"])
    ids = {d.path: d.id for d in kb.resolve(scope).documents}

    again = ingest(kb, [root], "idem")
    assert again.indexed == [] and sorted(again.unchanged) == ["a.txt", "b.txt"] and again.exit_code == 0

    (root / "a.txt").write_text("alpha, second version", encoding="utf-8")
    (root / "b.txt").unlink()
    changed = ingest(kb, [root], "idem")
    assert changed.replaced == ["a.txt"]
    docs = {d.path: d.id for d in kb.resolve(scope).documents}
    assert docs == ids  # b.txt is kept (no --prune); a.txt keeps its id
    assert kb.read_document(scope, docs["a.txt"]).pages == ["alpha, second version"]
    assert kb.search(scope, "alpha").hits[0].line == "alpha, second version"

    pruned = ingest(kb, [root], "idem", prune=True)
    assert pruned.pruned == ["b.txt"]
    assert [d.path for d in kb.resolve(scope).documents] == ["a.txt"]


def test_broken_and_unsupported_files_are_named_and_skipped(kb, tmp_path) -> None:  # type: ignore[no-untyped-def]
    root = _write(tmp_path, {"good.md": "# Fine\nreadable"})
    (root / "broken.pdf").write_bytes(b"%PDF-1.4\n\x00\x01garbage")
    (root / "empty.docx").write_bytes(b"")
    (root / "image.png").write_bytes(b"\x89PNG....")
    report = ingest(kb, [root], "broken")
    assert report.indexed == ["good.md"]
    reasons = dict(report.skipped)
    assert set(reasons) == {"broken.pdf", "empty.docx", "image.png"}
    assert "unsupported" in reasons["image.png"]
    assert report.exit_code == 0

    only_broken = tmp_path / "only"
    only_broken.mkdir()
    (only_broken / "broken.pdf").write_bytes(b"%PDF-1.4 garbage")
    assert ingest(kb, [only_broken], "broken-only").exit_code == 2


def test_paths_never_escape_the_collection(kb, tmp_path) -> None:  # type: ignore[no-untyped-def]
    outside = _write(tmp_path / "outside", {"secret.txt": "outside the root"})
    root = _write(tmp_path / "root", {"inside.txt": "inside"})
    (root / "link.txt").symlink_to(outside / "secret.txt")
    report = ingest(kb, [root], "escape")
    assert report.indexed == ["inside.txt"]
    assert "outside" in dict(report.skipped)["link.txt"]
    import psycopg

    from tools.parsing.base import ParsedDocument

    # even a caller that skips normalisation cannot store a path that leaves the collection
    with pytest.raises(psycopg.errors.CheckViolation):
        kb.store_document(kb.ensure_collection("escape"), "../evil.txt", 1, "x", ParsedDocument("t", "text/plain", ["p"]))


def test_cli_ingest_collections_and_search(svc, tmp_path) -> None:  # type: ignore[no-untyped-def]
    root = _write(tmp_path / "corpus", {"invoices/2025/a.txt": "Invoice Nordwerk\nDock\t1\t99,00"})
    kea = [sys.executable, "-m", "server.cli"]
    root_dir = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root_dir)}
    done = subprocess.run([*kea, "ingest", str(root), "--collection", "cli"], capture_output=True, text=True, cwd=root_dir, env=env)
    assert done.returncode == 0, done.stderr
    assert "1 indexed" in done.stderr
    listed = subprocess.run([*kea, "collections"], capture_output=True, text=True, cwd=root_dir, env=env)
    assert "cli" in listed.stdout and "invoices" in listed.stdout
    found = subprocess.run([*kea, "search", "nordwerk", "--collection", "cli"], capture_output=True, text=True, cwd=root_dir, env=env)
    assert "invoices/2025/a.txt" in found.stdout
    empty = tmp_path / "nothing"
    empty.mkdir()
    (empty / "x.bin").write_bytes(b"\x00")
    none = subprocess.run([*kea, "ingest", str(empty), "--collection", "cli"], capture_output=True, text=True, cwd=root_dir, env=env)
    assert none.returncode == 2 and "x.bin" in none.stderr


def test_prune_with_a_missing_folder_deletes_nothing(kb, tmp_path) -> None:  # type: ignore[no-untyped-def]
    root = _write(tmp_path / "src", {"a.txt": "alpha"})
    ingest(kb, [root], "prune-guard")
    with pytest.raises(KnowledgeError, match="Not pruning"):
        ingest(kb, [tmp_path / "unmounted"], "prune-guard", prune=True)
    assert [d.path for d in kb.resolve(Scope(collections=["prune-guard"])).documents] == ["a.txt"]


def test_hidden_entries_links_to_folders_and_special_files_are_named(kb, tmp_path) -> None:  # type: ignore[no-untyped-def]
    import os

    root = _write(tmp_path / "root", {"ok.txt": "fine", ".env": "SECRET=1", ".git/config": "x"})
    other = _write(tmp_path / "other", {"b.txt": "beta"})
    (root / "linked").symlink_to(other, target_is_directory=True)
    os.mkfifo(root / "pipe.txt")
    report = ingest(kb, [root], "special")
    assert report.indexed == ["ok.txt"]
    assert dict(report.skipped) == {
        ".env": "a hidden file; not read",
        ".git": "a hidden folder; not read",
        "linked": "a link to a folder; not followed",
        "pipe.txt": "not a regular file",
    }
