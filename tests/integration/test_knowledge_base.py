"""The knowledge base against the real local PostgreSQL: selections, access, search, ingestion."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tools.knowledge.errors import DocumentNotFound, KnowledgeError
from tools.knowledge.ingest import ingest
from core.selection import ContentQuery, DocumentSelection, Scope, SelectionEntry


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
    report = ingest(kb, [root], "shelf", embed=False)
    assert sorted(report.indexed) == sorted(
        ["invoices/2024/acme-01.txt", "invoices/2025/acme-02.txt", "invoices/2025/zeta-01.txt",
         "contracts/acme-frame.md", "notes/todo.txt"]
    )
    vault = _write(tmp_path_factory.mktemp("vault"), {"secret/plan.txt": "Acme acquisition plan"})
    ingest(kb, [vault], "vault", embed=False)
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
    ingest(kb, [root], "regex-budget", embed=False)
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
    ingest(kb, [root], "paged", embed=False)
    scope = Scope(collections=["paged"])
    doc_id = kb.resolve(scope).documents[0].id
    assert kb.read_document(scope, doc_id).pages == ["page one", "page two", "page three"]
    assert kb.read_document(scope, doc_id, 2, 3).pages == ["page two", "page three"]


def test_reingest_is_idempotent_and_replaces_changed_files(kb, tmp_path) -> None:  # type: ignore[no-untyped-def]
    root = _write(tmp_path / "src", {"a.txt": "alpha", "b.txt": "beta"})
    first = ingest(kb, [root], "idem", embed=False)
    assert sorted(first.indexed) == ["a.txt", "b.txt"]
    scope = Scope(collections=["idem"])
    ids = {d.path: d.id for d in kb.resolve(scope).documents}

    again = ingest(kb, [root], "idem", embed=False)
    assert again.indexed == [] and sorted(again.unchanged) == ["a.txt", "b.txt"] and again.exit_code == 0

    (root / "a.txt").write_text("alpha, second version", encoding="utf-8")
    (root / "b.txt").unlink()
    changed = ingest(kb, [root], "idem", embed=False)
    assert changed.replaced == ["a.txt"]
    docs = {d.path: d.id for d in kb.resolve(scope).documents}
    assert docs == ids  # b.txt is kept (no --prune); a.txt keeps its id
    assert kb.read_document(scope, docs["a.txt"]).pages == ["alpha, second version"]
    assert kb.search(scope, "alpha").hits[0].line == "alpha, second version"

    pruned = ingest(kb, [root], "idem", prune=True, embed=False)
    assert pruned.pruned == ["b.txt"]
    assert [d.path for d in kb.resolve(scope).documents] == ["a.txt"]


def test_broken_and_unsupported_files_are_named_and_skipped(kb, tmp_path) -> None:  # type: ignore[no-untyped-def]
    root = _write(tmp_path, {"good.md": "# Fine\nreadable"})
    (root / "broken.pdf").write_bytes(b"%PDF-1.4\n\x00\x01garbage")
    (root / "empty.docx").write_bytes(b"")
    (root / "image.png").write_bytes(b"\x89PNG....")
    report = ingest(kb, [root], "broken", embed=False)
    assert report.indexed == ["good.md"]
    reasons = dict(report.skipped)
    assert set(reasons) == {"broken.pdf", "empty.docx", "image.png"}
    assert "unsupported" in reasons["image.png"]
    assert report.exit_code == 0

    only_broken = tmp_path / "only"
    only_broken.mkdir()
    (only_broken / "broken.pdf").write_bytes(b"%PDF-1.4 garbage")
    assert ingest(kb, [only_broken], "broken-only", embed=False).exit_code == 2


def test_paths_never_escape_the_collection(kb, tmp_path) -> None:  # type: ignore[no-untyped-def]
    outside = _write(tmp_path / "outside", {"secret.txt": "outside the root"})
    root = _write(tmp_path / "root", {"inside.txt": "inside"})
    (root / "link.txt").symlink_to(outside / "secret.txt")
    report = ingest(kb, [root], "escape", embed=False)
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
    ingest(kb, [root], "prune-guard", embed=False)
    with pytest.raises(KnowledgeError, match="Not pruning"):
        ingest(kb, [tmp_path / "unmounted"], "prune-guard", prune=True, embed=False)
    assert [d.path for d in kb.resolve(Scope(collections=["prune-guard"])).documents] == ["a.txt"]


def test_hidden_entries_links_to_folders_and_special_files_are_named(kb, tmp_path) -> None:  # type: ignore[no-untyped-def]
    import os

    root = _write(tmp_path / "root", {"ok.txt": "fine", ".env": "SECRET=1", ".git/config": "x"})
    other = _write(tmp_path / "other", {"b.txt": "beta"})
    (root / "linked").symlink_to(other, target_is_directory=True)
    os.mkfifo(root / "pipe.txt")
    report = ingest(kb, [root], "special", embed=False)
    assert report.indexed == ["ok.txt"]
    assert dict(report.skipped) == {
        ".env": "a hidden file; not read",
        ".git": "a hidden folder; not read",
        "linked": "a link to a folder; not followed",
        "pipe.txt": "not a regular file",
    }


def test_notes_are_reported_and_stored_with_the_document(kb, tmp_path) -> None:  # type: ignore[no-untyped-def]
    import openpyxl

    root = _write(tmp_path, {"plain.txt": "nothing to note"})
    workbook = openpyxl.Workbook()
    workbook.active.title = "Prices"
    workbook.active.append(["Item", "Qty", "Unit price", "Amount"])
    workbook.active.append(["Cable", 10, 4.5, "=B2*C2"])  # openpyxl saves no result for it
    workbook.save(str(root / "prices.xlsx"))
    report = ingest(kb, [root], "noted", embed=False)
    assert sorted(report.indexed) == ["plain.txt", "prices.xlsx"]
    note = (
        "sheet Prices: 1 formula cell has no saved value (D2); "
        "open and save the file in a spreadsheet program to keep it"
    )
    assert report.notes == [("prices.xlsx", note)]
    scope = Scope(collections=["noted"])
    ids = {d.path: d.id for d in kb.resolve(scope).documents}
    assert kb.document_notes(scope, ids["prices.xlsx"]) == [note]
    assert kb.document_notes(scope, ids["plain.txt"]) == []
    with pytest.raises(DocumentNotFound):
        kb.document_notes(Scope(user="mallory"), ids["prices.xlsx"])
    with pytest.raises(DocumentNotFound):
        kb.document_notes(scope, 10**12)
    assert ingest(kb, [root], "noted", embed=False).notes == []  # unchanged files are not read again


@pytest.fixture(scope="module")
def vocabularies(kb, tmp_path_factory):  # type: ignore[no-untyped-def]
    """Two collections: 'words-a' (carol may read it) and 'words-b' (nobody but 'local')."""
    a = _write(
        tmp_path_factory.mktemp("words-a"),
        {
            "invoice-1.txt": "Item            Qty     Amount\nServer rack       2   2.498,00\nPatch cable      25     112,50\n",
            "contract.md": "# Frame contract\n\n**Supplier:** Acme GmbH\n\n| item | Price | Unit |\n|---|---|---|\n| Cable | 4,50 | m |\n",
            "ticket.txt": "supplier: Zeta Ltd\nDate: 2025-03-14\n",
        },
    )
    ingest(kb, [a], "words-a", embed=False)
    b = _write(tmp_path_factory.mktemp("words-b"), {"payroll.md": "Salary: 1\nItem: secret\n"})
    ingest(kb, [b], "words-b", embed=False)
    kb.grant("words-a", "carol")


def test_vocabulary_counts_documents_per_term(kb, vocabularies) -> None:  # type: ignore[no-untyped-def]
    scope = Scope(collections=["words-a"])
    assert kb.vocabulary(scope) == [
        ("Item", 2), ("Supplier", 2), ("Amount", 1), ("Date", 1), ("Price", 1), ("Qty", 1), ("Unit", 1)
    ]
    assert kb.vocabulary(scope, limit=2) == [("Item", 2), ("Supplier", 2)]
    both = dict(kb.vocabulary(Scope(collections=["words-a", "words-b"])))
    assert both["Item"] == 3 and both["Salary"] == 1


def test_vocabulary_respects_access_and_profile_glob(kb, vocabularies) -> None:  # type: ignore[no-untyped-def]
    carol = dict(kb.vocabulary(Scope(user="carol")))
    assert "Salary" not in carol and carol["Item"] == 2
    assert kb.vocabulary(Scope(user="carol", collections=["words-b"])) == []
    assert kb.vocabulary(Scope(user="nobody")) == []
    assert kb.vocabulary(Scope(collections=["words-a"], path_glob="*.txt")) == [
        ("Amount", 1), ("Date", 1), ("Item", 1), ("Qty", 1), ("supplier", 1)
    ]


def test_vocabulary_is_bounded_and_replaced_with_the_document(kb, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from core.reading import Table
    from tools.parsing.base import ParsedDocument

    collection = kb.ensure_collection("words-many")
    header = [f"Column {i}" for i in range(300)] + ["2025", "1.249,00", ""]
    wide = ParsedDocument("wide", "text/plain", ["Owner: Jane"], [Table(page=1, header=header, rows=[])])
    kb.store_document(collection, "wide.txt", 1, "x", wide)
    scope = Scope(collections=["words-many"])
    terms = kb.vocabulary(scope, limit=1000)
    assert len(terms) == 200 and ("Column 0", 1) in terms and ("Column 199", 1) in terms
    kb.store_document(collection, "wide.txt", 1, "y", ParsedDocument("wide", "text/plain", ["Owner: Jane"]))
    assert kb.vocabulary(scope) == [("Owner", 1)]


def test_vocabulary_of_the_generated_corpus(kb, corpus) -> None:  # type: ignore[no-untyped-def]
    terms = kb.vocabulary(Scope(collections=["corpus"]))
    assert 0 < len(terms) <= 500
    counts = [n for _, n in terms]
    assert counts == sorted(counts, reverse=True) and counts[0] > 1
    names = {term.casefold() for term, _ in terms}
    assert len(names) == len(terms)  # one entry per name, whatever its case
    assert "priority" in names  # the tickets' "Priority:" label


def test_migration_gives_stored_documents_their_header_vocabulary(database) -> None:  # type: ignore[no-untyped-def]
    import psycopg
    from psycopg.conninfo import make_conninfo

    from checkpoints.migrations import apply_migrations, migration_files

    with psycopg.connect(database, autocommit=True) as admin:
        admin.execute("DROP DATABASE IF EXISTS kea_backfill")
        admin.execute("CREATE DATABASE kea_backfill")
    url = make_conninfo(database, dbname="kea_backfill")
    try:
        with psycopg.connect(url, autocommit=True) as conn:
            # the schema as it was before documents had a vocabulary
            conn.execute("CREATE TABLE kea_schema_version (version integer PRIMARY KEY, name text NOT NULL,"
                         " applied_at timestamptz NOT NULL DEFAULT now())")
            for version, name, text in migration_files():
                if version < 3:
                    conn.execute(text)  # type: ignore[arg-type]
                    conn.execute("INSERT INTO kea_schema_version (version, name) VALUES (%s, %s)", (version, name))
            conn.execute("INSERT INTO collections (name) VALUES ('old')")
            conn.execute("INSERT INTO documents (collection_id, path, media_type, size, sha256, page_count)"
                         " SELECT id, p, 'text/plain', 1, 'x', 1 FROM collections, unnest(ARRAY['a.txt', 'b.txt']) p")
            conn.execute(
                "INSERT INTO document_tables (document_id, ordinal, page_no, header, rows)"
                " SELECT d.id, t.ordinal, 1, t.header::jsonb, '[]' FROM documents d,"
                " (VALUES (0, '[\"Item\", \"Qty\", \"2025\", \"\", \"1.249,00\"]'), (1, '[\"qty\", \"Preis\"]')) t(ordinal, header)"
                " WHERE d.path = 'a.txt'"
            )
        assert apply_migrations(url)[0] == "0003_document_notes.sql"  # and any later ones
        with psycopg.connect(url) as conn:
            rows = dict(conn.execute("SELECT path, vocabulary FROM documents").fetchall())
            notes = conn.execute("SELECT DISTINCT notes FROM documents").fetchall()
        assert rows == {"a.txt": ["Item", "Qty", "Preis"], "b.txt": []}
        assert notes == [([],)]
    finally:
        with psycopg.connect(database, autocommit=True) as admin:
            admin.execute("DROP DATABASE IF EXISTS kea_backfill WITH (FORCE)")


def test_migration_gives_stored_documents_their_language_and_terms(database) -> None:  # type: ignore[no-untyped-def]
    import psycopg
    from psycopg.conninfo import make_conninfo

    from checkpoints.migrations import apply_migrations, migration_files

    with psycopg.connect(database, autocommit=True) as admin:
        admin.execute("DROP DATABASE IF EXISTS kea_languages")
        admin.execute("CREATE DATABASE kea_languages")
    url = make_conninfo(database, dbname="kea_languages")
    pages = {
        "de.txt": "Die Reaktionszeiten gelten ab dem Eingang der Meldung und werden an Werktagen gemessen.",
        "fr.txt": "Les délais de résolution sont mesurés à partir de la réception du ticket par le support.",
        "en.txt": "The response times are measured from the moment the ticket is opened by the customer.",
        "numbers.txt": "P1 15 30 60 120",
    }
    try:
        with psycopg.connect(url, autocommit=True) as conn:
            # the schema as it was before documents had a language
            conn.execute("CREATE TABLE kea_schema_version (version integer PRIMARY KEY, name text NOT NULL,"
                         " applied_at timestamptz NOT NULL DEFAULT now())")
            for version, name, text in migration_files():
                if version < 12:
                    conn.execute(text)  # type: ignore[arg-type]
                    conn.execute("INSERT INTO kea_schema_version (version, name) VALUES (%s, %s)", (version, name))
            conn.execute("INSERT INTO collections (name) VALUES ('old')")
            for path, text in pages.items():
                conn.execute("INSERT INTO documents (collection_id, path, media_type, size, sha256, page_count)"
                             " SELECT id, %s, 'text/plain', 1, 'x', 1 FROM collections", (path,))
                conn.execute("INSERT INTO document_pages (document_id, page_no, text)"
                             " SELECT id, 1, %s FROM documents WHERE path = %s", (text, path))
        assert apply_migrations(url)[0] == "0012_full_text.sql"  # and any later ones
        with psycopg.connect(url) as conn:
            languages = dict(conn.execute("SELECT path, language FROM documents").fetchall())
            found = conn.execute(
                "SELECT d.path FROM documents d JOIN document_pages p ON p.document_id = d.id"
                " WHERE p.terms @@ phraseto_tsquery(d.language::regconfig, %s) ORDER BY 1", ("Reaktionszeit",)
            ).fetchall()
            by_path = conn.execute(
                "SELECT d.path FROM documents d JOIN document_pages p ON p.document_id = d.id"
                " WHERE p.terms @@ phraseto_tsquery(d.language::regconfig, 'numbers')").fetchall()
        assert languages == {"de.txt": "german", "fr.txt": "french", "en.txt": "english", "numbers.txt": "simple"}
        assert found == [("de.txt",)]  # stemmed: "Reaktionszeiten" is found as "Reaktionszeit"
        assert by_path == [("numbers.txt",)]  # the first page carries the path's words
    finally:
        with psycopg.connect(database, autocommit=True) as admin:
            admin.execute("DROP DATABASE IF EXISTS kea_languages WITH (FORCE)")
