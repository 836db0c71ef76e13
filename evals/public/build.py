"""Pin public documents with their maintainers' expected tables into ``evals/public/<origin>/``.

    python -m evals.public.build ORIGIN PATH_TO_AN_EXPORTED_TREE

ORIGIN is one of the builders below (camelot, tabula-java, tabula-extractor, tabula-py, docling,
mustangproject). The tree is the origin's repository at one commit: a checkout, or files exported from a
bare mirror with the commit written beside them, which is how each origin was pinned::

    git --git-dir=MIRROR archive COMMIT PATHS... | tar -x -C DIR && echo COMMIT > DIR/COMMIT

with PATHS (a checkout needs none of this):

    camelot           tests docs/_static/csv LICENSE
    tabula-java       src/test LICENSE
    tabula-extractor  test LICENSE.md
    tabula-py         tests LICENSE
    mustangproject    library/src/test/resources validator/src/test/resources
                      Mustang-CLI/src/test/resources LICENSE NOTICE
    docling           tests/data/pdf tests/data/csv tests/data/docx tests/data/xlsx tests/data/pptx
                      tests/data/md LICENSE   (its three arXiv papers over 4 MB excluded:
                      ':(exclude)tests/data/pdf/sources/2203.01017v2.pdf' and likewise
                      2206.01062.pdf, 2305.03393v1.pdf; they are neither kept nor read)

Copies each chosen test file of the project into ``documents/`` and writes ``truth.json``: per
document its sha256, the repository, commit and path it came from, its page(s), the method the
project's own test reads it with, and the tables that test expects (taken from the project's data
-- a Python literal, a CSV/TSV/JSON file, a ground-truth document -- never
written from Kea's output, never by hand). Only cases the project reads with its default settings
on a whole page are taken: a truth that needs an option (table areas, column positions, a line
scale, a crop) describes that option, not the page. The origin's licence is copied beside its
documents as ``LICENSE``. Kea keeps no code of the project: the script reads its test data as data.

Surveyed and not taken (so that nobody surveys them again for the same answer):

- camelot: every other expectation of tests/ is for an option (table_areas, table_regions,
  columns, line_scale, split_text, flag_size, strip_text, edge_tol, layout_kwargs,
  process_background, copy_text, shift_text), for another flavor of a document already pinned
  (hybrid, network), for a password (health_protected.pdf), or for an
  ICDAR 2013 document (us-030.pdf), which is kept out. docs/benchmark/ holds each tool's output
  (camelot's among them), not a truth.
- tabula-java: its other CSV/JSON expectations are for an area (argentina_diputados_voting_record,
  schools, frx_2012_disclosure, spreadsheet_no_bounding_frame, indictb1h_14, Publication_of_award,
  TestSpreadsheetExtractor-CELLS), for given columns (AnimalSounds, MultiColumn) or for an ICDAR
  2013 document (us-017, us-020, eu-001, icdar2013-dataset/).
- tabula-extractor: test_spanning_cells compares only the first of the page's two tables; the
  tests' other tables are read from an area.
- tabula-py: data.pdf pages 2-3 are read with guess=False; campaign_donors and MultiColumn with
  columns or areas; data_dtype.pdf's expectation is the first of five tables only.
- docling: skipped_1page/skipped_2pages have no ground truth (its end-to-end test skips them);
  the ODF renderings' ground truths are of the ODF files, not of the PDFs; its OCR test scans
  have no text layer and no table in their ground truths (they measure OCR, not tables).
- pdfplumber (jsvine/pdfplumber): its tests compare a row, a cell or a count, never a whole
  table, and read a crop or explicit settings.
- PyMuPDF: its test PDFs carry no licence of their own (the repository is AGPL-3.0; most came
  from bug reports) and its expected tables are a pickle or the last two tables of a page.
- unstructured: the one PDF its expected outputs give tables for (layout-parser-paper.pdf) was
  absent from the copy of the repository at hand; its table ground truths under
  example-docs/test_evaluate_files are for PDFs not in the repository; the CSV beside
  table-multi-row-column-cells is the truth of its PNG, and the PDF is that image with no text;
  its PDF tests check a count or a word of a table.
- ZUGFeRD/mustangproject: the XML in its invoices is invoice data, not the printed table: it gives
  no structure, but it gives each position, so its invoices are scored by positions (below).
- opendataloader-bench: its 200 PDFs are Git LFS objects, absent from the repository.
- PDFProdigy/Testing: no licence.
- jstockwin/py-pdf-parser (MIT): its tests assert whole tables, but each read from text elements
  the test picks between two headings by font, some with options (allow_gaps, a reference
  element): an area, not a page.
- ropensci/tabulapdf: its tests check counts of tables and columns; the values of mtcars.pdf
  are R's datasets as xtable formats them, not in the repository.
- thoqbk/traprange: its CSVs are the tool's past output read with options; its PDFs are
  third-party documents without a licence.
- conjuncts/gmft: its references are snapshots of its model's output (some plainly wrong: an
  author block, a reference list), read with non-default settings.
- xavctn/img2table, HazyResearch/pdftotree: their PDF tests check shapes, boxes or counts.
- BobLd/tabula-sharp: tabula-java's documents and expectations again.
- Filimoa/open-parse: its PDFs are Git LFS objects; VikParuchuri/tabled: GPL-3.0, no test data;
  microsoft/markitdown: snapshots of whole converted documents compared by line counts.
"""

from __future__ import annotations

import ast
import csv
import hashlib
import io
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
LARGEST = 2_000_000  # bytes: a larger document is not pinned

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
    # tests/test_network.py: read with flavor="network" and nothing else
    ("multiple_tables.pdf", 1, "network", ["data_network_two_tables_b_1", "data_network_two_tables_b_2"]),
    ("vertical_header.pdf", 1, "network", ["data_network_vertical_headers"]),
    # tests/test_stream.py read it with flavor="stream" and nothing else (test_stream_duplicated_text)
    # until the project began refusing the document's no-extraction permission flag; the expected
    # table stays in tests/data.py and the page is unchanged
    ("birdisland.pdf", 1, "stream", ["data_stream_duplicated_text"]),
]

# camelot's README and docs/index.rst read foo.pdf with camelot.read_pdf('foo.pdf') -- lattice,
# page 1, nothing else -- and show the one table found as docs/_static/csv/foo.csv
CAMELOT_DOCUMENTED = [
    ("foo.pdf", 1, "lattice", "docs/_static/csv/foo.csv"),
]

# tabula-java: (document, page, method, expected JSON) -- the whole-page cases of its tests
# (TestSpreadsheetExtractor.testSpanningCells, TestWriters.testJSONSerializeTwoTables); every
# other expectation there is for an area, for given rulings or columns, or for a few cells only.
TABULA_JAVA = [
    ("spanning_cells.pdf", 1, "lattice (SpreadsheetExtractionAlgorithm)", "json/spanning_cells.json"),
    ("twotables.pdf", 1, "lattice (SpreadsheetExtractionAlgorithm)", "json/twotables.json"),
]

# tabula-extractor: test_extract_tabular_data_using_lines_and_spreadsheets reads every page of
# frx_2012_disclosure.pdf (one page) whole and expects its first spreadsheet to be the TSV.
TABULA_EXTRACTOR = [
    ("frx_2012_disclosure.pdf", 1, "lattice (page.spreadsheets)", "frx_2012_disclosure.tsv"),
]

# tabula-py: test_read_pdf reads page 1 of data.pdf with stream=True and nothing else.
TABULA_PY = [
    ("data.pdf", 1, "stream", "data_1.csv"),
]

# docling: its PDF conversion tests compare each source with tests/data/pdf/groundtruth/<name>.json
# (the default PDF pipeline: layout model and TableFormer). A ground truth without tables says the
# document has none; those documents are kept too, so a table found there counts against precision.
DOCLING = [
    "2305.03393v1-pg9", "amt_handbook_sample", "code_and_formula", "multi_page", "normal_4pages",
    "picture_classification", "redp5110_sampled", "right_to_left_01", "right_to_left_02",
    "right_to_left_03", "table_mislabeled_as_picture",
]
# ... and its backends for the other formats Kea reads compare each source under
# tests/data/<format>/sources/ with tests/data/<format>/groundtruth/<file>.json: every such pair
# is taken (a ground truth without tables, again, says the document has none). Its Markdown
# sources without a ground truth are read by no test that compares tables.
DOCLING_FORMATS = ["csv", "docx", "xlsx", "pptx", "md"]


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


def _write(origin: str, repo: Path, meta: dict[str, Any], cases: list[dict[str, Any]], licence: Path) -> None:
    """Copy each case's document into ``documents/`` and write ``truth.json`` and ``LICENSE``."""
    out = HERE / origin
    documents = out / "documents"
    if documents.exists():
        shutil.rmtree(documents)
    documents.mkdir(parents=True)
    commit = _commit(repo)
    written = []
    for case in cases:
        source = repo / case["source"]
        if source.stat().st_size > LARGEST:
            raise ValueError(f"{source} is over {LARGEST} bytes")
        target = documents / source.name
        shutil.copyfile(source, target)
        written.append({
            "file": target.name,
            "repository": meta["repository"],
            "commit": commit,
            "source": case["source"],
            "sha256": hashlib.sha256(target.read_bytes()).hexdigest(),
            **{k: v for k, v in case.items() if k not in {"source", "tables"}},
            "tables": [[[_cell(c) for c in row] for row in table] for table in case["tables"]],
        })
    shutil.copyfile(licence, out / "LICENSE")
    truth = {"origin": origin, **meta, "commit": commit, "licence_file": licence.name, "documents": written}
    (out / "truth.json").write_text(json.dumps(truth, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def _cell(value: Any) -> str:
    return "" if value is None else str(value)


def build_camelot(repo: Path) -> None:
    data = _data((repo / "tests" / "data.py").read_text(encoding="utf-8"))
    cases = [
        {"source": f"tests/files/{name}", "page": page, "method": flavor, "flavor": flavor,
         "tables": [data[t] for t in tables]}
        for name, page, flavor, tables in CAMELOT
    ]
    for name, page, flavor, expected in CAMELOT_DOCUMENTED:
        text = (repo / expected).read_text(encoding="utf-8")
        cases.append({"source": f"tests/files/{name}", "page": page, "method": flavor, "flavor": flavor,
                      "truth_file": expected, "tables": [list(csv.reader(io.StringIO(text)))]})
    meta = {
        "repository": "camelot-dev/camelot",
        "licence": "MIT",
        "truth": "the expected tables of the project's own tests (tests/data.py), read with the flavor's "
        "default settings, and the table its README shows for foo.pdf (docs/_static/csv/foo.csv)",
    }
    _write("camelot", repo, meta, cases, repo / "LICENSE")


def build_tabula_java(repo: Path) -> None:
    base = Path("src/test/resources/technology/tabula")
    cases = []
    for name, page, method, expected in TABULA_JAVA:
        tables = json.loads((repo / base / expected).read_text(encoding="utf-8"))
        cases.append({
            "source": str(base / name), "page": page, "method": method,
            "truth_file": str(base / expected),
            "tables": [[[cell["text"] for cell in row] for row in table["data"]] for table in tables],
        })
    meta = {
        "repository": "tabulapdf/tabula-java",
        "licence": "MIT",
        "truth": "the JSON its tests expect from a whole page (src/test/resources/technology/tabula/json)",
    }
    _write("tabula-java", repo, meta, cases, repo / "LICENSE")


def build_tabula_extractor(repo: Path) -> None:
    cases = []
    for name, page, method, expected in TABULA_EXTRACTOR:
        text = (repo / "test" / "data" / expected).read_text(encoding="utf-8")
        reader = csv.reader(io.StringIO(text), delimiter="\t", quoting=csv.QUOTE_NONE)
        rows = [[c.strip() for c in row] for row in reader]
        cases.append({"source": f"test/data/{name}", "page": page, "method": method,
                      "truth_file": f"test/data/{expected}", "tables": [rows]})
    meta = {
        "repository": "tabulapdf/tabula-extractor",
        "licence": "MIT",
        "truth": "the TSV its test (test/tests.rb) expects from the whole page",
    }
    _write("tabula-extractor", repo, meta, cases, repo / "LICENSE.md")


def build_tabula_py(repo: Path) -> None:
    cases = []
    for name, page, method, expected in TABULA_PY:
        text = (repo / "tests" / "resources" / expected).read_text(encoding="utf-8")
        cases.append({"source": f"tests/resources/{name}", "page": page, "method": method,
                      "truth_file": f"tests/resources/{expected}",
                      "tables": [list(csv.reader(io.StringIO(text)))]})
    meta = {
        "repository": "chezou/tabula-py",
        "licence": "MIT",
        "truth": "the CSV its test (tests/test_read_pdf_table.py) expects from the whole page",
    }
    _write("tabula-py", repo, meta, cases, repo / "LICENSE")


def _docling_grid(table: dict[str, Any]) -> list[list[str]]:
    """A docling table as rows of strings: a spanning cell's text in its first row and column."""
    data = table["data"]
    grid = [[""] * data["num_cols"] for _ in range(data["num_rows"])]
    for cell in data["table_cells"]:
        grid[cell["start_row_offset_idx"]][cell["start_col_offset_idx"]] = cell["text"]
    return grid


def build_docling(repo: Path) -> None:
    base = Path("tests/data/pdf")
    cases = []
    for name in DOCLING:
        truth = json.loads((repo / base / "groundtruth" / f"{name}.json").read_text(encoding="utf-8"))
        tables = truth.get("tables", [])
        pages = sorted({p["page_no"] for t in tables for p in t.get("prov", [])})
        if not tables:
            pages = sorted(int(n) for n in truth.get("pages", {}))
        cases.append({
            "source": str(base / "sources" / f"{name}.pdf"),
            "pages": pages,
            "method": "default PDF pipeline (layout model, TableFormer)",
            "truth_file": str(base / "groundtruth" / f"{name}.json"),
            "tables": [_docling_grid(t) for t in tables],
        })
    for kind in DOCLING_FORMATS:
        base = Path("tests/data") / kind
        for truth_file in sorted((repo / base / "groundtruth").glob(f"*.{kind}.json")):
            name = truth_file.name.removesuffix(".json")
            source = repo / base / "sources" / name
            if not source.is_file() or source.stat().st_size > LARGEST:
                continue  # (docx_rich_tables_01.docx, 2.3 MB of pictures, is not pinned)
            truth = json.loads(truth_file.read_text(encoding="utf-8"))
            cases.append({
                "source": str(base / "sources" / name),
                "method": f"the {kind} backend",
                "truth_file": str(base / "groundtruth" / truth_file.name),
                "tables": [_docling_grid(t) for t in truth.get("tables", [])],
            })
    meta = {
        "repository": "docling-project/docling",
        "licence": "MIT",
        "truth": "the tables of the project's ground-truth documents (tests/data/<format>/groundtruth/*.json), "
        "which its conversion tests compare with; none there means the document has none",
    }
    _write("docling", repo, meta, cases, repo / "LICENSE")


# mustangproject: the ZUGFeRD / Factur-X invoices among its test resources (library/, validator/,
# Mustang-CLI/), each carrying its positions as XML (``evals.public.positions``). A position is
# taken when the page prints its name (every word of it in the text layer): one test invoice's XML
# names a position "FL-Rate" that its page calls "Finanzrate". Files over LARGEST and a second
# copy of a file already taken are left out; so are PDFs without invoice XML (the "blanko" copies,
# an order's XML is kept: its lines are positions too).
MUSTANG_FOLDERS = ["library/src/test/resources", "validator/src/test/resources", "Mustang-CLI/src/test/resources"]


def build_mustangproject(repo: Path) -> None:
    from evals.public.positions import line_items
    from evals.public.score import _text_layer

    cases, seen = [], set()
    for folder in MUSTANG_FOLDERS:
        for source in sorted((repo / folder).glob("*.pdf")):
            digest = hashlib.sha256(source.read_bytes()).hexdigest()
            if source.stat().st_size > LARGEST or digest in seen:
                continue
            try:
                items = line_items(source)
            except Exception:  # a test file damaged on purpose
                continue
            layer = {w.casefold() for page in _text_layer(source) for w in re.findall(r"\w+", " ".join(page))}
            printed = [i for i in items if set(re.findall(r"\w+", i["name"].casefold())) <= layer]
            if not printed:
                continue
            seen.add(digest)
            cases.append({
                "source": str(Path(folder) / source.name),
                "method": "the invoice's embedded XML (line items: name, billed quantity, line total)",
                "tables": [],
                "positions": printed,
            })
    meta = {
        "repository": "ZUGFeRD/mustangproject",
        "licence": "Apache-2.0",
        "truth": "each invoice's positions as its embedded ZUGFeRD / Factur-X XML gives them; scored as "
        "positions one row of a parsed table holds whole (name, quantity, line total), no structure F1",
    }
    _write("mustangproject", repo, meta, cases, repo / "LICENSE")
    shutil.copyfile(repo / "NOTICE", HERE / "mustangproject" / "NOTICE")


BUILDERS = {
    "camelot": build_camelot,
    "tabula-java": build_tabula_java,
    "tabula-extractor": build_tabula_extractor,
    "tabula-py": build_tabula_py,
    "docling": build_docling,
    "mustangproject": build_mustangproject,
}


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2 or args[0] not in BUILDERS:
        print(__doc__, file=sys.stderr)
        return 2
    BUILDERS[args[0]](Path(args[1]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
