"""Reading a stored table back as rows for scoring: ``{"file", "values": {column: value}}``."""

from __future__ import annotations

import csv
import io
from typing import Any

from tools.storage.table import FORMULA_STARTS, header

FIXED = frozenset(header([]))  # the columns Kea adds around the requested ones


def rows_from_csv(data: bytes) -> tuple[list[str], list[dict[str, Any]]]:
    """(columns, rows) of a Kea CSV; formula-guard quotes are removed from values."""
    reader = csv.reader(io.StringIO(data.decode("utf-8-sig")))
    names = next(reader, [])
    columns = [h for h in names if h not in FIXED]
    rows = []
    for cells in reader:
        record = dict(zip(names, cells))
        values = {c: _unguard(record.get(c, "")) for c in columns}
        rows.append({"file": record["File"], "values": values, "match": record.get("Match")})
    return columns, rows


def _unguard(cell: str) -> str:
    return cell[1:] if cell.startswith("'") and cell[1:2].startswith(FORMULA_STARTS) and cell[1:2] else cell
