"""Kea's PDF parser on documents of other projects, against the tables their maintainers expect.

``evals/public/<origin>/`` pins each document by commit and checksum with the expected tables
of the project's own tests; ``make eval`` reports the same measures per origin.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evals.public.score import PUBLIC, score_document, score_origins
from tools.parsing import parse_file

CAMELOT = PUBLIC / "camelot"


def _truth(origin: Path, file: str) -> dict:
    return next(d for d in json.loads((origin / "truth.json").read_text())["documents"] if d["file"] == file)


@pytest.fixture(scope="module")
def origins() -> dict:
    return score_origins()


def test_every_public_document_is_the_pinned_file_and_keeps_its_whole_text_layer(origins) -> None:
    documents = [d for o in origins.values() for d in o["documents"]]
    assert len(documents) >= 9
    assert all(d["coverage"] >= 0.995 for d in documents), [(d["file"], d["coverage"]) for d in documents]


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
def test_a_page_printed_sideways_is_read_turned_upright(file: str) -> None:
    scores = score_document(CAMELOT, _truth(CAMELOT, file))
    assert scores["f1"] >= 0.9, scores


def test_the_structure_of_the_public_tables_holds_its_measured_floor(origins) -> None:
    # measured 0.70 on camelot's set (0.34 before the banded rows, the label column and the
    # sideways pages were read); the aim is 0.95 — this guards against going back
    assert origins["camelot"]["f1"] >= 0.68
