"""Bounds on what a user or a document hands Kea: cleaned text, pattern sizes, reading cost, pages."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.protocol import clean_input, clean_text, parse_reply, reply_problem
from tools.engines.offline.request import read_message
from tools.engines.offline.scan import Scan
from core.reading import FolderCount, ScopeHint
from tools.knowledge.paths import MAX_WILDCARDS, BadPattern, glob_to_regex, matches_glob

HINT = ScopeHint(documents=3, folders=[FolderCount(folder="orders", documents=2), FolderCount(folder="archive", documents=1)],
                 table_headers=[["Code", "Item", "Quantity"]], vocabulary=["Code", "Item", "Quantity"])


def test_control_characters_and_lone_surrogates_are_dropped_and_the_rest_kept() -> None:
    assert clean_text("Code\x00 and item\x1b[2J of every \ud800order\x7f") == "Code and item[2J of every order"
    assert clean_text("tab\tline\nfeed\fkept \U0001f600 \ud83d\ude00 مسمار 볼트") == "tab\tline\nfeed\fkept \U0001f600 \U0001f600 مسمار 볼트"
    reply = {"status": "answered", "answers": {"values\x00": {"type": "other", "text": "Code\ud800, item"}}}
    assert clean_input(reply) == {"status": "answered", "answers": {"values": {"type": "other", "text": "Code, item"}}}
    assert clean_input(["a\x00", ("b\x01",)]) == ["a", ("b",)]


def _boundary_checks(message: str, monkeypatch: pytest.MonkeyPatch) -> int:
    calls = 0
    original = Scan.is_boundary

    def counted(self, i):  # type: ignore[no-untyped-def]
        nonlocal calls
        calls += 1
        return original(self, i)

    monkeypatch.setattr(Scan, "is_boundary", counted)
    read_message(message, HINT)
    monkeypatch.setattr(Scan, "is_boundary", original)
    return calls


def test_reading_a_message_costs_in_proportion_to_its_length(monkeypatch: pytest.MonkeyPatch) -> None:
    """Counted, not timed: four times the message, about four times the work (a scan from every
    "of" to the end of the message was sixteen times)."""
    short = _boundary_checks(("of " * 400)[:1_000], monkeypatch)
    long = _boundary_checks(("of " * 1_600)[:4_000], monkeypatch)
    assert long < 6 * short, (short, long)


def test_a_glob_with_redundant_wildcards_is_simplified_and_one_with_too_many_refused() -> None:
    assert glob_to_regex("**/" * 1_300 + "*.md") == glob_to_regex("**/*.md")
    assert glob_to_regex("invoices/****/x.pdf") == glob_to_regex("invoices/**/x.pdf")
    assert matches_glob("a/b/c/x.md", "**/**/**/*.md") and not matches_glob("a/b/x.pdf", "**/**/*.md")
    glob_to_regex("*a" * MAX_WILDCARDS)  # at the bound: taken
    with pytest.raises(BadPattern, match=f"has {MAX_WILDCARDS + 1} wildcards; Kea takes at most {MAX_WILDCARDS}"):
        glob_to_regex("*a" * (MAX_WILDCARDS + 1))


def test_a_reply_is_refused_with_why_when_it_cannot_be_used() -> None:
    ids = ["location", "filter", "values"]
    assert reply_problem(parse_reply("yes"), ids) is None
    assert reply_problem(parse_reply({"answers": {"filter": {"type": "other", "text": "Quantity > 2"}}}), ids) is None
    assert "not valid JSON (Expecting" in str(reply_problem(parse_reply('{"answers": '), ids))
    deep = '{"a":' + "[" * 100_000 + "]" * 100_000 + "}"  # valid JSON too deep for the parser
    assert "not valid JSON (nested too deeply)" in str(reply_problem(parse_reply(deep), ids))
    assert "('colour')" in str(reply_problem(parse_reply({"answers": {"colour": "red"}}), ids))
    assert "must be an object" in str(reply_problem(parse_reply({"status": "answered", "answers": "yes"}), ids))
    assert "5,000 characters long" in str(reply_problem(parse_reply("x" * 5_000), ids))


def test_a_file_past_the_size_bound_is_not_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import tools.parsing as parsing
    from tools.parsing import UnreadableFile, parse_file

    path = tmp_path / "big.txt"
    path.write_bytes(b"Code Item\n" * (300 << 10))  # 3 MB
    monkeypatch.setattr(parsing, "MAX_FILE_BYTES", 2 << 20)
    with pytest.raises(UnreadableFile, match="^too large: 2 MB; Kea reads files up to 2 MB"):
        parse_file(path)


def test_a_text_past_the_page_bound_keeps_its_first_pages_and_says_so(tmp_path: Path) -> None:
    from tools.parsing import parse_file
    from tools.parsing.base import MAX_PAGES

    path = tmp_path / "long.md"
    pages = ["| Code | Item |\n|---|---|\n| A1 | Bolt |"] + [f"page {n}" for n in range(2, MAX_PAGES + 11)]
    pages[-1] = "| Code | Item |\n|---|---|\n| Z9 | Past |"
    path.write_text("\f".join(pages), encoding="utf-8")
    document = parse_file(path)
    assert len(document.pages) == MAX_PAGES and [t.rows for t in document.tables] == [[["A1", "Bolt"]]]
    assert document.notes == [f"only its first {MAX_PAGES:,} of {MAX_PAGES + 10:,} pages were read: Kea reads at most "
                              f"{MAX_PAGES:,} pages of a document; split it to read the rest"]


def test_the_reader_takes_a_request_ending_in_a_keyword() -> None:
    for message in ["Code and item with", "with", "Code, item for", "Code of"]:
        read_message(message, HINT)  # no exception: a reading, whatever it finds


def _understated_docx(path: Path, inflated_mb: int) -> None:
    """A DOCX whose word/document.xml holds ``inflated_mb`` MB while its zip entries declare 1 MB."""
    import struct
    import zipfile

    import docx

    base = path.with_suffix(".base.docx")
    docx.Document().save(str(base))
    with zipfile.ZipFile(base) as source, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
        for info in source.infolist():
            data = source.read(info.filename)
            if info.filename == "word/document.xml":
                data = data.replace(b"<w:body>", b"<w:body><!--" + b"A" * (inflated_mb << 20) + b"-->", 1)
            out.writestr(info, data)
    raw = bytearray(path.read_bytes())
    name = b"word/document.xml"
    at = raw.find(b"PK\x01\x02")
    while at != -1:  # the central directory's entry
        length = struct.unpack("<H", raw[at + 28 : at + 30])[0]
        if raw[at + 46 : at + 46 + length] == name:
            struct.pack_into("<I", raw, at + 24, 1 << 20)
        at = raw.find(b"PK\x01\x02", at + 4)
    with zipfile.ZipFile(path) as archive:  # and the local header
        struct.pack_into("<I", raw, archive.getinfo("word/document.xml").header_offset + 22, 1 << 20)
    path.write_bytes(bytes(raw))


def test_a_package_that_understates_a_parts_size_is_refused_without_inflating_it(tmp_path: Path) -> None:
    import tracemalloc

    from tools.parsing import UnreadableFile, parse_file

    bomb = tmp_path / "bomb.docx"
    _understated_docx(bomb, 64)
    assert bomb.stat().st_size < (1 << 20)
    tracemalloc.start()
    try:
        with pytest.raises(UnreadableFile, match="not a readable DOCX: Bad CRC-32"):
            parse_file(bomb)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 16 << 20  # a megabyte at a time, never the 64 MB the part holds
