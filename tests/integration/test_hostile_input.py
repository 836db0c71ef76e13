"""Hostile and broken input at the edges a user touches: the terminal, the message, --out."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from graph.profile import Profile
from graph.runs import run_extraction
from tools.engines.conversation import MESSAGE_CHARS

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
ORDERS = "Code, item and quantity of every order"


def _kea(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "server.cli", *args], input=stdin, capture_output=True, text=True, cwd=ROOT, env=ENV
    )


@pytest.fixture(scope="module")
def escapes(svc, tmp_path_factory) -> str:  # type: ignore[no-untyped-def]
    """A collection whose cells and file names hold terminal escape sequences and a newline."""
    from tools.knowledge.ingest import ingest

    folder = tmp_path_factory.mktemp("escapes")
    table = "| Code | Item | Quantity |\n|---|---|---|\n| 1 | \x1b[2Jcleared\x1b]0;retitled\x07 | 3 |\n| 2 | [bold]markup[/] | 4 |\n"
    (folder / "orders.md").write_text(table, encoding="utf-8")
    (folder / "two\nlines\x1b[31m.md").write_text(table, encoding="utf-8")
    assert len(ingest(svc.kb, [folder], "escapes").indexed) == 2
    return "escapes"


def test_documents_cannot_write_control_sequences_to_the_terminal(escapes) -> None:  # type: ignore[no-untyped-def]
    done = _kea("extract", ORDERS, "--collection", escapes, "--yes")
    assert done.returncode == 0, done.stderr
    shown = done.stdout + done.stderr
    assert "\x1b" not in shown and "\x07" not in shown  # the escapes are shown as symbols, never sent
    assert "\u241b[2Jcleared" in done.stdout and "[bold]markup[/]" in done.stdout  # the text itself, markup included
    rows = [line for line in done.stdout.splitlines() if "two" in line and "lines" in line]
    assert len(rows) == 2 and all("\u23ce" in line for line in rows)  # a file name with a newline stays on its row


def test_out_that_cannot_be_written_is_refused_before_anything_is_read(escapes, tmp_path) -> None:  # type: ignore[no-untyped-def]
    for target, why in [(tmp_path, "is a folder"), (tmp_path / "missing" / "t.csv", "does not exist")]:
        done = _kea("extract", ORDERS, "--collection", escapes, "--yes", "--out", str(target))
        said = " ".join(done.stderr.split())  # rich wraps long lines
        assert done.returncode == 1 and why in said and "Nothing was read" in said
        assert "Extracting" not in done.stderr and "Traceback" not in done.stderr


def test_a_number_that_is_no_option_is_asked_again(escapes) -> None:  # type: ignore[no-untyped-def]
    done = _kea("extract", ORDERS, "--collection", escapes, "--json", stdin="7\n\n\n\n")
    assert done.returncode == 0, done.stderr
    assert "There is no option 7" in done.stderr
    result = json.loads(done.stdout)  # only the JSON on stdout, the prompts on stderr
    assert result["status"] == "done" and result["row_condition"] is None and result["rows"] == 4


async def test_a_message_past_the_bound_is_refused_with_why(svc, corpus) -> None:  # type: ignore[no-untyped-def]
    for message in ["Every position with description " * 30_000, "x" * (MESSAGE_CHARS + 1)]:
        values = await run_extraction(message, Profile(collections=["corpus"]), confirm="auto")
        answer: dict[str, Any] = values["answer"]
        assert answer["status"] == "failed" and "Nothing was read" in answer["message"]
        assert f"at most {MESSAGE_CHARS:,}" in answer["message"] and not values.get("document_ids")


async def test_a_long_typed_correction_is_refused_not_read(svc, corpus) -> None:  # type: ignore[no-untyped-def]
    values = await run_extraction(
        "Priority and response time from the SLAs", Profile(collections=["corpus"]), answer=lambda form: "y" * 100_000
    )
    assert values["answer"]["status"] == "failed" and "This answer is 100,000 characters long" in values["answer"]["message"]


def test_a_zip_bomb_docx_is_skipped_before_it_is_inflated(svc, tmp_path) -> None:  # type: ignore[no-untyped-def]
    import zipfile

    from tools.parsing.office import MAX_PART

    folder = tmp_path / "bomb"
    folder.mkdir()
    with zipfile.ZipFile(folder / "bomb.docx", "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        with archive.open("word/document.xml", "w") as part:  # 70 MB of nothing, a few KB on disk
            block = b" " * (1 << 20)
            for _ in range((MAX_PART >> 20) + 6):
                part.write(block)
    assert (folder / "bomb.docx").stat().st_size < 1 << 20
    (folder / "fine.md").write_text("| Code | Item | Quantity |\n|---|---|---|\n| 1 | Bolt | 3 |\n", encoding="utf-8")
    done = _kea("ingest", str(folder), "--collection", "bombs")
    said = " ".join(done.stderr.split())
    assert done.returncode == 0 and "bomb.docx: too large: its part word/document.xml unpacks to 70 MB" in said
    assert "1 indexed" in " ".join(done.stdout.split() + done.stderr.split())


def test_an_ingest_that_reads_nothing_leaves_no_collection_behind(svc, tmp_path) -> None:  # type: ignore[no-untyped-def]
    missing = _kea("ingest", str(tmp_path / "nope"), "--collection", "never-made")
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.4 not really")
    broken = _kea("ingest", str(tmp_path / "broken.pdf"), "--collection", "never-made")
    assert missing.returncode == 2 and broken.returncode == 2
    assert "never-made" not in [c.name for c in svc.kb.collections()]
