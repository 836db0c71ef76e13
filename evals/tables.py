"""Reading a stored table back as rows for scoring: ``{"file", "values": {column: value}}``."""

from __future__ import annotations

import csv
import io
from typing import Any

FIXED = ("File", "Match", "Page", "Evidence")


def rows_from_csv(data: bytes) -> tuple[list[str], list[dict[str, Any]]]:
    """(columns, rows) of a Kea CSV; formula-guard quotes are removed from values."""
    reader = csv.reader(io.StringIO(data.decode("utf-8-sig")))
    header = next(reader, [])
    columns = [h for h in header if h not in FIXED]
    rows = []
    for cells in reader:
        record = dict(zip(header, cells))
        values = {c: _unguard(record.get(c, "")) for c in columns}
        rows.append({"file": record["File"], "values": values, "match": record.get("Match")})
    return columns, rows


def _unguard(cell: str) -> str:
    return cell[1:] if cell.startswith("'") and cell[1:2] in ("=", "+", "-", "@", "\t", "\r") else cell
