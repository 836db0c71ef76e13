"""Pin public documents with their maintainers' expected tables into ``evals/public/<origin>/``.

    python -m evals.public.build camelot PATH_TO_A_CAMELOT_CHECKOUT

Copies each chosen test file of the project at its checked-out commit into ``documents/`` and
writes ``truth.json``: per document its sha256 and the tables the project's own tests expect
(taken from their data, never written from Kea's output), with the commit they came from. Only
cases the project reads with its default settings are taken: a truth that needs an option
(table areas, column positions, a line scale) describes that option, not the page. Kea keeps
no code of the project: the script reads its test data as data.
"""

from __future__ import annotations

import ast
import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent

# camelot: (document, page, flavor its test reads it with, the names of its expected tables)
CAMELOT = [
    ("health.pdf", 1, "stream", ["data_stream"]),
    ("tabula/12s0324.pdf", 1, "stream", ["data_stream_two_tables_1", "data_stream_two_tables_2"]),
    ("twotables_2.pdf", 1, "lattice", ["data_lattice_two_tables_1", "data_lattice_two_tables_2"]),
    ("stream_inner_outer_columns.pdf", 1, "stream", ["data_stream_inner_outer_columns"]),
    ("clockwise_table_2.pdf", 1, "stream", ["data_stream_table_rotated"]),
    ("anticlockwise_table_2.pdf", 1, "stream", ["data_stream_table_rotated"]),
    ("clockwise_table_1.pdf", 1, "lattice", ["data_lattice_table_rotated"]),
    ("anticlockwise_table_1.pdf", 1, "lattice", ["data_lattice_table_rotated"]),
    ("tabula/arabic.pdf", 1, "lattice", ["data_arabic"]),
]


def _data(source: str) -> dict[str, Any]:
    """The module's top-level lists, evaluated as literals (a name may stand for an earlier one,
    sliced or copied: ``data_stream = data_hybrid[1:]``)."""
    values: dict[str, Any] = {}
    for node in ast.parse(source).body:
        if not isinstance(node, ast.Assign) or len(node.targets) != 1 or not isinstance(node.targets[0], ast.Name):
            continue
        expr = node.value
        try:
            values[node.targets[0].id] = ast.literal_eval(expr)
            continue
        except ValueError:
            pass
        if isinstance(expr, ast.Subscript) and isinstance(expr.value, ast.Name) and expr.value.id in values:
            s = expr.slice
            if isinstance(s, ast.Slice):
                lower = ast.literal_eval(s.lower) if s.lower else None
                upper = ast.literal_eval(s.upper) if s.upper else None
                values[node.targets[0].id] = values[expr.value.id][lower:upper]
        elif isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id == "list" and expr.args:
            arg = expr.args[0]
            if isinstance(arg, ast.Name) and arg.id in values:
                values[node.targets[0].id] = list(values[arg.id])
    return values


def _commit(repo: Path) -> str:
    """The commit the files come from: the checkout's HEAD, or COMMIT given beside the path for
    an exported tree (``git archive``) that has none."""
    pinned = repo / "COMMIT"
    if pinned.exists():
        return pinned.read_text().strip()
    return subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()


def build_camelot(repo: Path) -> None:
    out = HERE / "camelot"
    documents = out / "documents"
    documents.mkdir(parents=True, exist_ok=True)
    commit = _commit(repo)
    data = _data((repo / "tests" / "data.py").read_text(encoding="utf-8"))
    cases = []
    for name, page, flavor, tables in CAMELOT:
        source = repo / "tests" / "files" / name
        target = documents / Path(name).name
        shutil.copyfile(source, target)
        cases.append({
            "file": target.name,
            "source": f"tests/files/{name}",
            "sha256": hashlib.sha256(target.read_bytes()).hexdigest(),
            "page": page,
            "flavor": flavor,
            "tables": [data[t] for t in tables],
        })
    shutil.copyfile(repo / "LICENSE", out / "LICENSE")
    truth = {
        "origin": "camelot",
        "repository": "camelot-dev/camelot",
        "commit": commit,
        "licence": "MIT",
        "truth": "the expected tables of the project's own tests (tests/data.py), read with the default settings",
        "documents": cases,
    }
    (out / "truth.json").write_text(json.dumps(truth, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2 or args[0] not in {"camelot"}:
        print(__doc__, file=sys.stderr)
        return 2
    build_camelot(Path(args[1]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
