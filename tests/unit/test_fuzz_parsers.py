"""The parsers under random and damaged input (hypothesis, a bounded number of examples).

Whatever the bytes, a parser returns a document or raises the clean ``UnreadableFile`` — never
another exception, and never hangs: each example runs under a watchdog whose signal is no
``Exception``, so the parsers' own error handling cannot swallow it.
"""

from __future__ import annotations

import functools
import io
import signal
import tempfile
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.reading import Table
from tools.parsing import parse_file
from tools.parsing.aligned import find_tables
from tools.parsing.base import ParsedDocument, UnreadableFile
from tools.parsing.fields import key_value_lines, labels

WATCHDOG = 30  # seconds for one example; a parser that loops or backtracks runs far past it
TEXT = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
BINARY = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)


class Hang(BaseException):
    """The watchdog fired: the parser did not return."""


@contextmanager
def watchdog(seconds: int = WATCHDOG) -> Iterator[None]:
    def fire(signum, frame):  # type: ignore[no-untyped-def]
        raise Hang(f"no answer within {seconds} s")

    previous = signal.signal(signal.SIGALRM, fire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def parse_bytes(data: bytes, suffix: str) -> ParsedDocument | None:
    """``data`` parsed as a file with ``suffix``: the document, or None when cleanly unreadable."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"fuzzed{suffix}"
        path.write_bytes(data)
        with watchdog():
            try:
                document = parse_file(path)
            except UnreadableFile as exc:
                assert str(exc)  # the reason is said
                return None
    assert isinstance(document.pages, list) and all(isinstance(p, str) for p in document.pages)
    assert all(t.page >= 1 for t in document.tables)
    return document


# -- seeds: one small valid file of each binary kind ---------------------------------------


@functools.cache
def seed(suffix: str) -> bytes:
    out = io.BytesIO()
    if suffix == ".pdf":
        from fpdf import FPDF

        pdf = FPDF()
        pdf.add_page()
        pdf.set_font("Helvetica", size=10)
        for line in ["Invoice 2025-01", "Code  Item  Quantity", "A1  Bolt  3", "B2  Nut  4"]:
            pdf.cell(0, 6, line, new_x="LMARGIN", new_y="NEXT")
        return bytes(pdf.output())
    if suffix == ".docx":
        import docx

        document = docx.Document()
        document.add_paragraph("Invoice 2025-01")
        table = document.add_table(rows=2, cols=2)
        for r, cells in enumerate([["Code", "Item"], ["A1", "Bolt"]]):
            for c, text in enumerate(cells):
                table.cell(r, c).text = text
        document.save(out)
    elif suffix == ".xlsx":
        import openpyxl

        book = openpyxl.Workbook()
        for row in [["Code", "Item", "Quantity"], ["A1", "Bolt", 3], ["B2", "Nut", 4.5]]:
            book.active.append(row)
        book.save(out)
    elif suffix == ".pptx":
        from pptx import Presentation

        deck = Presentation()
        slide = deck.slides.add_slide(deck.slide_layouts[5])
        slide.shapes.title.text = "Prices 2025"
        deck.save(out)
    elif suffix == ".hwpx":
        from hwpx.document import HwpxDocument

        document = HwpxDocument.new()
        document.add_paragraph("견적서 2025")
        table = document.add_table(2, 2)
        for r, cells in enumerate([["품목", "수량"], ["노트북", "2"]]):
            for c, text in enumerate(cells):
                table.set_cell_text(r, c, text)
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "seed.hwpx"
            document.save_to_path(str(path))
            return path.read_bytes()
    return out.getvalue()


def mutated(data: bytes, changes: list[tuple[int, int]], keep: int) -> bytes:
    """``data`` with bytes overwritten at (position, value) and cut to ``keep`` of its length."""
    buffer = bytearray(data)
    for position, value in changes:
        buffer[position % len(buffer)] = value
    return bytes(buffer[: max(1, len(buffer) * keep // 100)])


def rezipped(data: bytes, names: list[int], contents: list[bytes]) -> bytes:
    """A package of ``data`` with some of its parts replaced by ``contents``: damaged XML in a
    valid zip, which byte flips rarely reach past the zip's checksums."""
    with zipfile.ZipFile(io.BytesIO(data)) as source:
        parts = {info.filename: source.read(info) for info in source.infolist()}
    order = sorted(parts)
    for index, content in zip(names, contents):
        parts[order[index % len(order)]] = content
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as target:
        for name, content in parts.items():
            target.writestr(name, content)
    return out.getvalue()


CHANGES = st.lists(st.tuples(st.integers(0, 1 << 20), st.integers(0, 255)), max_size=12)
XML = st.one_of(
    st.binary(max_size=300),
    st.text(max_size=300).map(lambda t: f"<?xml version='1.0'?><a>{t}</a>".encode("utf-8", "surrogatepass")),
    st.sampled_from([b"<!DOCTYPE a [<!ENTITY x 'xxxxxxxxxx'><!ENTITY y '&x;&x;&x;&x;&x;&x;&x;&x;'>]><a>&y;</a>", b"<a>" * 500]),
)


# -- the text formats ----------------------------------------------------------------------


@pytest.mark.parametrize("suffix", [".txt", ".md", ".csv"])
@TEXT
@given(data=st.one_of(
    st.binary(max_size=3000),
    st.text(max_size=2000).map(lambda t: t.encode("utf-8", "surrogatepass")),
    st.text(max_size=500).map(lambda t: t.encode("utf-16", "surrogatepass")),
    st.lists(st.sampled_from(["|", "---", " ", "  ", "\t", "\f", "\n", "a", "1", ",", ";", '"', ":", "\r"]), max_size=600).map(
        lambda parts: "".join(parts).encode()),
))
def test_text_files_give_a_document_or_a_clean_refusal(suffix: str, data: bytes) -> None:
    parse_bytes(data, suffix)


# -- the binary formats: damaged bytes and damaged parts -----------------------------------


@pytest.mark.parametrize("suffix", [".pdf", ".docx", ".xlsx", ".pptx", ".hwpx"])
@BINARY
@given(changes=CHANGES, keep=st.integers(1, 100))
def test_damaged_files_give_a_document_or_a_clean_refusal(suffix: str, changes: list[tuple[int, int]], keep: int) -> None:
    parse_bytes(mutated(seed(suffix), changes, keep), suffix)


@pytest.mark.parametrize("suffix", [".docx", ".xlsx", ".pptx", ".hwpx"])
@BINARY
@given(names=st.lists(st.integers(0, 50), min_size=1, max_size=3), contents=st.lists(XML, min_size=1, max_size=3))
def test_packages_with_damaged_parts_give_a_document_or_a_clean_refusal(
    suffix: str, names: list[int], contents: list[bytes]
) -> None:
    parse_bytes(rezipped(seed(suffix), names, contents), suffix)


def test_the_seeds_themselves_are_read() -> None:
    for suffix in (".pdf", ".docx", ".xlsx", ".pptx", ".hwpx"):
        assert parse_bytes(seed(suffix), suffix) is not None, suffix


# -- the text helpers every parser shares --------------------------------------------------

LINES = st.lists(
    st.one_of(st.text(max_size=120), st.lists(st.sampled_from(["Code", "Item", "12", "3.50", " ", "   ", "a b", "-"]), max_size=30).map("".join)),
    max_size=60,
)


@TEXT
@given(lines=LINES)
def test_aligned_tables_come_from_the_lines_they_name(lines: list[str]) -> None:
    with watchdog():
        found = find_tables(lines)
    for table in found:
        assert 0 <= table.start < table.end <= len(lines) and table.rows


@TEXT
@given(pages=st.lists(st.text(max_size=400), max_size=5), cells=st.lists(st.lists(st.text(max_size=30), min_size=1, max_size=4), max_size=6))
def test_key_value_lines_and_labels_never_fail(pages: list[str], cells: list[list[str]]) -> None:
    tables = [Table(page=1, header=cells[0], rows=cells[1:])] if cells else []
    with watchdog():
        pairs = key_value_lines(pages, tables)
        keys = labels(pages, tables)
    assert all(pair.key and pair.page >= 1 for pair in pairs)
    assert len({k.casefold() for k in keys}) == len(keys)



# -- a package whose directory lies about its sizes ---------------------------------------


def _lying_package(real: int, declared: int) -> bytes:
    """An XLSX whose sheet inflates to ``real`` bytes while its zip headers say ``declared``."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(seed(".xlsx"))) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            if info.filename == "xl/worksheets/sheet1.xml":
                with target.open(info.filename, "w") as part:
                    for _ in range(real >> 20):
                        part.write(b" " * (1 << 20))
            else:
                target.writestr(info.filename, source.read(info))
    data = bytearray(out.getvalue())
    name = b"xl/worksheets/sheet1.xml"
    for signature, size_at in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):  # local header, central directory
        start = 0
        while (start := data.find(signature, start)) != -1:
            name_at = start + (30 if signature == b"PK\x03\x04" else 46)
            if data[name_at : name_at + len(name)] == name:
                data[start + size_at : start + size_at + 4] = declared.to_bytes(4, "little")
            start += 4
    return bytes(data)


def test_a_package_lying_about_its_sizes_is_never_inflated_past_them() -> None:
    import tracemalloc

    data = _lying_package(real=300 << 20, declared=4096)
    tracemalloc.start()
    try:
        assert parse_bytes(data, ".xlsx") is None  # the inflated data does not match: unreadable
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 64 << 20  # only what the headers declared was inflated, never the 300 MB
