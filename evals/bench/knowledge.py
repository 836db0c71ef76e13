"""Benchmark: ingest throughput, and resolving a glob over 100,000 documents vs a naive scan.

    python -m evals.bench.knowledge [--documents 100000]

The naive scan is what code without the database's help would do: fetch every path of the
scope and match the glob in Python. Both run in the same process on the same data; the
report is their ratio.
"""

from __future__ import annotations

import argparse
import re
import time

from evals.bench.common import best_of, isolated_home, save


def _bulk_documents(kb, collection_id: int, count: int) -> None:  # type: ignore[no-untyped-def]
    """Insert ``count`` document rows (no pages) spread over folders and years."""
    folders = ["invoices", "contracts", "slas", "tickets", "notes", "reports", "hr", "legal"]
    with kb.pool.connection() as conn, conn.cursor().copy(
        "COPY documents (collection_id, path, title, media_type, size, sha256, page_count) FROM STDIN"
    ) as copy:
        for i in range(count):
            folder = folders[i % len(folders)]
            year = 2015 + (i // len(folders)) % 11
            copy.write_row((collection_id, f"{folder}/{year}/doc-{i:06d}.pdf", "", "application/pdf", 1000, "0" * 64, 1))


def run(documents: int) -> dict[str, object]:
    from core.selection import DocumentSelection, Scope, SelectionEntry
    from corpora.first import generate
    from tools.knowledge.ingest import ingest
    from tools.knowledge.paths import glob_to_regex
    from tools.services import services

    with isolated_home() as home:
        kb = services().kb
        generate(home / "corpus")
        start = time.perf_counter()
        report = ingest(kb, [home / "corpus" / "documents"], "corpus")
        ingest_seconds = time.perf_counter() - start
        start = time.perf_counter()
        again = ingest(kb, [home / "corpus" / "documents"], "corpus")
        unchanged_seconds = time.perf_counter() - start

        collection_id = kb.ensure_collection("large")
        _bulk_documents(kb, collection_id, documents)
        with kb.pool.connection() as conn:
            conn.execute("ANALYZE documents")
        scope = Scope(collections=["large"])
        glob = "invoices/2025/**"
        selection = DocumentSelection(entries=[SelectionEntry(path_globs=[glob])])
        resolve_s, resolved = best_of(5, lambda: kb.resolve(scope, selection).documents)

        pattern = re.compile(glob_to_regex(glob))

        def naive() -> list[str]:
            with kb.pool.connection() as conn:
                rows = conn.execute(
                    "SELECT d.path FROM documents d JOIN collections c ON c.id = d.collection_id WHERE c.name = %s",
                    ("large",),
                ).fetchall()
            return [r["path"] for r in rows if pattern.match(r["path"])]

        naive_s, naive_paths = best_of(5, naive)
        assert sorted(d.path for d in resolved) == sorted(naive_paths)
    result = {
        "ingest": {
            "files": len(report.indexed) + len(report.skipped),
            "indexed": len(report.indexed),
            "seconds": round(ingest_seconds, 3),
            "documents_per_second": round(len(report.indexed) / ingest_seconds, 1),
            "unchanged_rerun_seconds": round(unchanged_seconds, 3),
            "unchanged": len(again.unchanged),
        },
        "resolve": {
            "documents": documents,
            "glob": glob,
            "matched": len(resolved),
            "database_seconds": round(resolve_s, 4),
            "naive_scan_seconds": round(naive_s, 4),
            "naive_over_database": round(naive_s / resolve_s, 2),
        },
    }
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--documents", type=int, default=100_000, help="document rows for the resolve benchmark")
    args = parser.parse_args()
    result = run(args.documents)
    path = save("knowledge", result)
    i, r = result["ingest"], result["resolve"]
    print(f"Ingest: {i['indexed']} documents in {i['seconds']} s = {i['documents_per_second']} documents/s; "  # type: ignore[index]
          f"unchanged re-run {i['unchanged_rerun_seconds']} s")  # type: ignore[index]
    print(f"Resolve {r['glob']} over {r['documents']} documents: {r['database_seconds']} s in the database, "  # type: ignore[index]
          f"{r['naive_scan_seconds']} s naive scan ({r['naive_over_database']}x)")  # type: ignore[index]
    print(f"Saved {path}")


if __name__ == "__main__":
    main()
