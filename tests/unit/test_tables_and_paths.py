"""Paths, globs, the CSV writer and the tally: the small pieces every run relies on."""

from __future__ import annotations

import io

import pytest

from evals.tables import rows_from_csv
from core.state import RESET, merge_tally
from core.reading import Record
from tools.knowledge.paths import UnsafePath, matches_glob, normalise_path
from tools.storage.objects import FileObjectStore
from tools.storage.table import PREVIEW_ROWS, TableWriter, neutralise


@pytest.mark.parametrize(
    ("path", "glob", "expected"),
    [
        ("invoices/2025/a.pdf", "invoices/**", True),
        ("invoices/2025/a.pdf", "invoices/*", False),
        ("invoices/2025/a.pdf", "invoices/*/a.pdf", True),
        ("a.pdf", "**/a.pdf", True),
        ("x/y/a.pdf", "**/a.pdf", True),
        ("x/y/a.pdf", "*.pdf", False),
        ("notes/a.md", "notes/?.md", True),
        ("notes/b.txt", "notes/[ab].txt", True),
        ("notes/c.txt", "notes/[!ab].txt", True),
        ("a+b (1).pdf", "a+b (1).pdf", True),
    ],
)
def test_globs(path: str, glob: str, expected: bool) -> None:
    assert matches_glob(path, glob) is expected


@pytest.mark.parametrize("bad", ["../x", "/etc/passwd", "a/../../b", "C:/x", ""])
def test_paths_that_leave_the_root_are_refused(bad: str) -> None:
    with pytest.raises(UnsafePath):
        normalise_path(bad)


def test_paths_are_normalised() -> None:
    assert normalise_path("./a\\b//c.pdf") == "a/b/c.pdf"
    assert normalise_path("quotes/견적서.hwpx") == "quotes/견적서.hwpx"


def test_object_keys_cannot_escape_the_store(tmp_path) -> None:  # type: ignore[no-untyped-def]
    store = FileObjectStore(tmp_path / "files")
    store.put_bytes("record-extraction/x/table.csv", b"ok", "text/csv")
    assert store.open("record-extraction/x/table.csv").read() == b"ok"
    for key in ("../outside", "/abs", "a/../../b"):
        with pytest.raises(UnsafePath):
            store.put_bytes(key, b"no", "text/plain")
    assert not (tmp_path / "outside").exists()


@pytest.mark.parametrize("cell", ["=SUM(A1:A9)", "+1+cmd|' /C calc'!A0", "-2+3", "@cmd", "\tx", "\rx"])
def test_formula_cells_are_neutralised(cell: str) -> None:
    assert neutralise(cell) == "'" + cell


def test_table_writer_streams_rows_with_bom_and_a_bounded_preview() -> None:
    out = io.StringIO()
    writer = TableWriter(["Description", "Amount"], out)
    for i in range(PREVIEW_ROWS + 50):
        writer.write("a.pdf", Record(values={"Description": f"=HYPERLINK(\"x\") {i}", "Amount": "1,00"}, page=1, evidence="e"))
    data = out.getvalue().encode("utf-8")
    assert data.startswith("\ufeffFile,Description,Amount,Match,Page,Evidence".encode())
    columns, rows = rows_from_csv(data)
    assert columns == ["Description", "Amount"] and len(rows) == PREVIEW_ROWS + 50
    assert "'=HYPERLINK" in data.decode() and rows[0]["values"]["Description"].startswith("=HYPERLINK")
    assert writer.rows == PREVIEW_ROWS + 50 and len(writer.preview) == PREVIEW_ROWS


def test_preview_cells_are_cut_but_the_csv_keeps_them_whole() -> None:
    out = io.StringIO()
    writer = TableWriter(["Clause"], out)
    writer.write("c.pdf", Record(values={"Clause": "x" * 500}))
    assert len(writer.preview[0][1]) == 80 and writer.preview[0][1].endswith("…")
    assert "x" * 500 in out.getvalue()


def test_tally_merges_in_any_order_and_resets_per_run() -> None:
    a = {"extracted": 1, "rows": 3, "unsure_rows": 1, "model_calls": 2, "input_tokens": 900}
    b = {"extracted": 1, "rows": 0}
    c = {"model_calls": 1, "output_tokens": 40}  # a document that failed after one call
    one = merge_tally(merge_tally(merge_tally(None, a), b), c)
    two = merge_tally(merge_tally(merge_tally(None, c), b), a)
    assert one == two == {
        "extracted": 2, "rows": 3, "unsure_rows": 1, "subject_rows": 0,
        "model_calls": 3, "input_tokens": 900, "output_tokens": 40, "read_ms": 0,
    }
    assert merge_tally(one, RESET)["rows"] == 0


@pytest.mark.parametrize("number", ["-2", "-1.249,00", "+49"])
def test_plain_numbers_are_not_taken_for_formulas(number: str) -> None:
    assert neutralise(number) == number
