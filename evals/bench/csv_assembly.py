"""Benchmark: rows per second of Kea's CSV assembly against Python's csv writer.

    python -m evals.bench.csv_assembly [--documents 100] [--rows-per-document 2000]

The rows of D documents are stored the way ``extract_document`` stores them (``RowStore``,
one JSON-lines object per document; timed apart as "row writes"). Kea's assembly is the
function ``store_csv`` calls (``assemble_table``): every document's stored outcome streamed from
the object store through ``TableWriter`` (formula guard, preview) into one CSV, stored back
in the object store with the run's summary. The
baseline writes the same rows, already in memory as lists of strings, with ``csv.writer``
to a file: what assembly would cost with the whole table held in memory and nothing to read.
"""

from __future__ import annotations

import csv
import tempfile
import uuid
from typing import Any

from evals.bench.common import best_of, command_line, isolated_home, machine, save_and_show

RUNS = 3
COLUMNS = ["Description", "Quantity", "Unit price"]


def _records(document_id: int, rows: int) -> list[Any]:
    from core.reading import Record

    return [
        Record(
            values={
                "Description": f"Position {i} of document {document_id}, Cat6 cable 1 m",
                "Quantity": str(i % 40 + 1),
                "Unit price": f"{(i * 37) % 2000 + 0.5:,.2f}",
            },
            page=1 + i // 40,
            evidence=f"{i + 1} Position {i} of document {document_id}, Cat6 cable 1 m {i % 40 + 1} {(i * 37) % 2000 + 0.5:,.2f}",
        )
        for i in range(rows)
    ]


def run(documents: int, rows_per_document: int) -> dict[str, Any]:
    from tools.services import services
    from tools.storage.assembly import assemble_table
    from tools.storage.table import header

    total = documents * rows_per_document
    with isolated_home():
        svc = services()
        extraction_id = uuid.uuid4().hex
        stored = {d: _records(d, rows_per_document) for d in range(1, documents + 1)}
        write_seconds, _ = best_of(
            1,
            lambda: [
                svc.rows.write(extraction_id, d, f"folder/document-{d}.pdf", r) for d, r in stored.items()
            ],
        )
        kea_seconds, done = best_of(
            RUNS, lambda: assemble_table(svc, extraction_id, list(stored), {"columns": COLUMNS})
        )
        if done.writer.rows != total:
            raise RuntimeError(f"the assembled table holds {done.writer.rows} of {total} rows")
        in_memory = [
            [
                f"folder/document-{d}.pdf",
                *(r.values[c] or "" for c in COLUMNS),
                r.match,
                str(r.page),
                r.evidence or "",
            ]
            for d, records in stored.items()
            for r in records
        ]

        def plain() -> None:
            with tempfile.TemporaryFile("w", encoding="utf-8", newline="") as out:
                plain_writer = csv.writer(out, lineterminator="\r\n")
                plain_writer.writerow(header(COLUMNS))
                plain_writer.writerows(in_memory)

        plain_seconds, _ = best_of(RUNS, plain)
    return {
        "machine": machine(),
        "documents": documents,
        "rows": total,
        "row_writes_rows_per_second": round(total / write_seconds),
        "kea_seconds": round(kea_seconds, 4),
        "kea_rows_per_second": round(total / kea_seconds),
        "csv_writer_seconds": round(plain_seconds, 4),
        "csv_writer_rows_per_second": round(total / plain_seconds),
        "kea_over_csv_writer_seconds": round(kea_seconds / plain_seconds, 2),
    }


def describe(result: dict[str, Any]) -> list[str]:
    return [
        (
            f"{result['rows']:,} rows from {result['documents']} documents: Kea's assembly "
            f"{result['kea_rows_per_second']:,} rows/s ({result['kea_seconds']} s), csv writer on rows in memory "
            f"{result['csv_writer_rows_per_second']:,} rows/s ({result['csv_writer_seconds']} s): "
            f"{result['kea_over_csv_writer_seconds']}x the time; storing the rows per document "
            f"{result['row_writes_rows_per_second']:,} rows/s"
        )
    ]


def main() -> None:
    parser = command_line(__doc__)
    parser.add_argument("--documents", type=int, default=100, help="documents D")
    parser.add_argument("--rows-per-document", type=int, default=2000, help="rows each document gave")
    args = parser.parse_args()
    result = run(args.documents, args.rows_per_document)
    save_and_show("csv_assembly", result, describe(result))


if __name__ == "__main__":
    main()
