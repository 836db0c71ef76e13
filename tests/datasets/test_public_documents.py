"""Kea's PDF parser on documents of other projects, against the tables their maintainers expect.

``evals/public/<origin>/`` pins each document by commit and checksum with the expected tables
of the project's own tests or ground-truth files. These tests check the pins -- every file is the
one its truth names, every truth is well formed and has its licence beside it -- and parse only a
handful of documents for behaviour a user would notice. Parsing and scoring every document, and
guarding each one's measured structure and words, is ``python -m evals.public.score`` (and
``make eval``).
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest

from evals.public.build import BUILDERS, LARGEST
from evals.public.score import MEASURED_F1, PUBLIC, score_document
from tools.parsing import parse_file

CAMELOT = PUBLIC / "camelot"
TRUTHS = sorted(PUBLIC.glob("*/truth.json"))


def _load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _truth(origin: Path, file: str) -> dict:
    return next(d for d in _load(origin / "truth.json")["documents"] if d["file"] == file)


def test_the_public_set_keeps_its_origins_and_documents() -> None:
    truths = [_load(f) for f in TRUTHS]
    assert {t["origin"] for t in truths} == {f.parent.name for f in TRUTHS}
    assert {t["origin"] for t in truths} <= set(BUILDERS)
    assert len(truths) >= 5
    assert sum(len(t["documents"]) for t in truths) >= 28


@pytest.mark.parametrize("truth_file", TRUTHS, ids=lambda p: p.parent.name)
def test_every_pinned_document_is_the_file_its_truth_names(truth_file: Path) -> None:
    truth = _load(truth_file)
    folder = truth_file.parent
    assert (folder / "LICENSE").is_file() and truth["licence"] in {"MIT", "BSD", "Apache-2.0"}
    assert re.fullmatch(r"[0-9a-f]{40}", truth["commit"])
    files = sorted(p.name for p in (folder / "documents").iterdir())
    assert files == sorted(d["file"] for d in truth["documents"]), "a document is pinned twice or not at all"
    for case in truth["documents"]:
        data = (folder / "documents" / case["file"]).read_bytes()
        assert hashlib.sha256(data).hexdigest() == case["sha256"], case["file"]
        assert len(data) <= LARGEST and data.startswith(b"%PDF")
        assert case["repository"] == truth["repository"] and case["commit"] == truth["commit"]
        assert case["source"].endswith(case["file"]) and case["method"]
        pages = case["pages"] if "pages" in case else [case["page"]]
        assert pages and all(isinstance(p, int) and p >= 1 for p in pages), case["file"]
        for table in case["tables"]:
            assert table and all(isinstance(row, list) and all(isinstance(c, str) for c in row) for row in table)


def test_every_pinned_document_has_its_measured_structure() -> None:
    pinned = {f"{t['origin']}/{d['file']}" for t in map(_load, TRUTHS) for d in t["documents"]}
    assert pinned == set(MEASURED_F1)


def test_a_row_of_a_ruled_table_shaded_in_bands_keeps_its_label_and_each_figure_in_a_cell() -> None:
    """camelot's health.pdf: rules that do not separate the columns of every other row (a shaded
    band) once gave "Arunachal Pradesh 2,241,609 107,549 …" as one cell."""
    expected = [[c for c in row if c] for row in _truth(CAMELOT, "health.pdf")["tables"][0]]
    body = [row for row in expected if len(row) == 8 and row[1][0].isdigit()]
    document = parse_file(CAMELOT / "documents" / "health.pdf")
    parsed = [[c for c in row if c] for t in document.tables for row in [t.header, *t.rows]]
    assert len(body) >= 20
    assert [row for row in body if row not in parsed] == []


@pytest.mark.parametrize("file", ["clockwise_table_1.pdf", "anticlockwise_table_1.pdf"])
def test_a_page_printed_sideways_is_read_turned_upright_with_all_its_words(file: str) -> None:
    scores = score_document(CAMELOT, _truth(CAMELOT, file))
    assert scores["f1"] >= 0.9, scores
    assert scores["unread_words"] == 0, scores
