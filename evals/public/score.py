"""Kea's parser on public documents against their maintainers' truth, per origin.

For every ``evals/public/<origin>/truth.json``: each document is parsed as ``kea ingest``
parses it; its tables on the truth's page (``page``, or each of ``pages``) are compared with
the expected tables by cell adjacency (``evals.structure``), and the words of its text layer
with the parsed text (``tools.parsing.coverage``). A document whose checksum differs from the
pinned one is an error, never a score.

    python -m evals.public.score

prints the tables and exits 1 when something went back since the documents were pinned
(``problems``): this, not the unit tests, is where every public document is parsed.
"""

from __future__ import annotations

import hashlib
import json
import time
from pathlib import Path
from typing import Any

from evals.structure import structure_scores

PUBLIC = Path(__file__).resolve().parent

# Structure F1 of each document as last measured: a report of where Kea stands on documents nobody
# here wrote, guarded against going back by more than SLACK -- not a bar they pass. A newly pinned
# document is measured and entered here; a parser change that moves one enters its new value and
# says why in its commit. (A header printed over several lines is one name per column since
# parser 5, "Percent Fuel Savings Improved Speed"; the maintainers' truth keeps the header's lines
# as rows, so health, twotables_2, foo, the two table_1 pages and 2305's page lose a few
# relations of their header rows.)
MEASURED_F1 = {
    "camelot/health.pdf": 0.95,
    "camelot/12s0324.pdf": 0.97,
    "camelot/twotables_2.pdf": 0.93,
    "camelot/stream_inner_outer_columns.pdf": 0.95,
    "camelot/clockwise_table_2.pdf": 0.95,
    "camelot/anticlockwise_table_2.pdf": 0.95,
    "camelot/clockwise_table_1.pdf": 0.91,
    "camelot/anticlockwise_table_1.pdf": 0.91,
    "camelot/arabic.pdf": 1.00,
    "camelot/multiple_tables.pdf": 1.00,
    "camelot/vertical_header.pdf": 0.89,
    "camelot/birdisland.pdf": 0.90,
    "camelot/foo.pdf": 0.88,
    "docling/2305.03393v1-pg9.pdf": 0.89,
    "docling/amt_handbook_sample.pdf": 1.00,
    "docling/code_and_formula.pdf": 1.00,
    "docling/multi_page.pdf": 1.00,
    "docling/normal_4pages.pdf": 0.43,
    "docling/picture_classification.pdf": 1.00,
    "docling/redp5110_sampled.pdf": 0.64,
    "docling/right_to_left_01.pdf": 1.00,
    "docling/right_to_left_02.pdf": 0.00,
    "docling/right_to_left_03.pdf": 0.00,
    "docling/table_mislabeled_as_picture.pdf": 0.34,
    "tabula-extractor/frx_2012_disclosure.pdf": 0.97,
    "tabula-java/spanning_cells.pdf": 1.00,
    "tabula-java/twotables.pdf": 0.95,
    "tabula-py/data.pdf": 1.00,
}
SLACK = 0.02

# No word of a text layer may be lost; documents that Kea's parsed text did not keep to this share
# when they were pinned are named below so that they stay in sight, and any other one is a fault.
COVERAGE_BAR = 0.995
BELOW_THE_COVERAGE_BAR: set[str] = set()


def _text_layer(path: Path) -> list[list[str]]:
    import pdfplumber

    from tools.parsing.pdf.words import drawn_once, sideways, text_layer

    with pdfplumber.open(path) as pdf:
        return [[w["text"] for w in text_layer(p, sideways(p))] for p in map(drawn_once, pdf.pages)]


def score_document(folder: Path, case: dict[str, Any]) -> dict[str, Any]:
    from tools.parsing import parse_file
    from tools.parsing.coverage import unread_words

    path = folder / "documents" / case["file"]
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    if digest != case["sha256"]:
        raise ValueError(f"{path} is not the pinned file (sha256 {digest}, pinned {case['sha256']})")
    start = time.perf_counter()
    document = parse_file(path)
    seconds = time.perf_counter() - start
    pages = set(case["pages"]) if "pages" in case else {case["page"]}
    parsed = [[t.header, *t.rows] for t in document.tables if t.page in pages]
    scores = structure_scores(case["tables"], parsed)
    layer = _text_layer(path) if path.suffix.lower() == ".pdf" else []
    words = sum(len(page) for page in layer)
    unread = sum(len(unread_words(page, document.pages[i] if i < len(document.pages) else "")) for i, page in enumerate(layer))
    return {
        "file": case["file"],
        **scores,
        "words": words,
        "unread_words": unread,
        "coverage": 1 - unread / words if words else 1.0,
        "seconds_per_page": seconds / max(1, len(document.pages)),
    }


def score_origins(root: Path = PUBLIC) -> dict[str, dict[str, Any]]:
    """Per origin: its documents' scores and the pooled structure F1 and coverage."""
    origins: dict[str, dict[str, Any]] = {}
    for truth_file in sorted(root.glob("*/truth.json")):
        truth = json.loads(truth_file.read_text(encoding="utf-8"))
        documents = [score_document(truth_file.parent, case) for case in truth["documents"]]
        relations = sum(d["relations"] for d in documents)
        given = sum(d["given"] for d in documents)
        matched = sum(d["matched"] for d in documents)
        precision = matched / given if given else 0.0
        recall = matched / relations if relations else 1.0
        words = sum(d["words"] for d in documents)
        origins[truth["origin"]] = {
            "repository": truth["repository"],
            "commit": truth["commit"],
            "documents": documents,
            "tables": sum(len(case["tables"]) for case in truth["documents"]),
            "f1": 2 * precision * recall / (precision + recall) if precision + recall else 0.0,
            "precision": precision,
            "recall": recall,
            "coverage": 1 - sum(d["unread_words"] for d in documents) / words if words else 1.0,
            "lowest_coverage": min((d["coverage"] for d in documents), default=1.0),
            "slowest_seconds_per_page": max((d["seconds_per_page"] for d in documents), default=0.0),
        }
    return origins


def problems(origins: dict[str, dict[str, Any]]) -> list[str]:
    """What went back since the documents were pinned: a document's structure F1 under its measured
    value less SLACK, a document with no measured value, a document's words under the bar."""
    found = []
    for name, o in origins.items():
        for d in o["documents"]:
            key = f"{name}/{d['file']}"
            if key not in MEASURED_F1:
                found.append(f"{key}: no measured structure F1 (measure it and enter it in MEASURED_F1)")
            elif d["f1"] < MEASURED_F1[key] - SLACK:
                found.append(f"{key}: structure F1 {d['f1']:.2f}, measured {MEASURED_F1[key]:.2f} when pinned")
            if d["coverage"] < COVERAGE_BAR and key not in BELOW_THE_COVERAGE_BAR:
                found.append(f"{key}: word coverage {d['coverage']:.2%}, under {COVERAGE_BAR:.1%}")
    return found


def markdown(origins: dict[str, dict[str, Any]]) -> str:
    lines = [
        "| origin | documents | tables | structure F1 | precision | recall | word coverage | lowest document | slowest s/page |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, o in origins.items():
        lines.append(
            f"| {name} ({o['repository']}@{o['commit'][:7]}) | {len(o['documents'])} | {o['tables']} | {o['f1']:.2f} "
            f"| {o['precision']:.2f} | {o['recall']:.2f} | {o['coverage']:.2%} | {o['lowest_coverage']:.2%} "
            f"| {o['slowest_seconds_per_page']:.2f} |"
        )
    if origins:
        documents = [d for o in origins.values() for d in o["documents"]]
        relations, given = sum(d["relations"] for d in documents), sum(d["given"] for d in documents)
        matched = sum(d["matched"] for d in documents)
        precision, recall = (matched / given if given else 0.0), (matched / relations if relations else 1.0)
        pooled = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        lines.append(
            f"| all origins | {len(documents)} | {sum(o['tables'] for o in origins.values())} | {pooled:.2f} "
            f"| {precision:.2f} | {recall:.2f} | {min(o['coverage'] for o in origins.values()):.2%} "
            f"| {min(o['lowest_coverage'] for o in origins.values()):.2%} "
            f"| {max(o['slowest_seconds_per_page'] for o in origins.values()):.2f} |"
        )
        weakest = min(origins, key=lambda n: origins[n]["f1"])
        lines += ["", f"Weakest origin by structure F1: {weakest} ({origins[weakest]['f1']:.2f})."]
        went_back = problems(origins)
        lines += ["", "Gone back since pinned: " + ("; ".join(went_back) if went_back else "nothing") + "."]
        lines += [
            "",
            "| origin | document | relations | given | matched | F1 | word coverage |",
            "|---|---|---:|---:|---:|---:|---:|",
        ]
        for name, o in origins.items():
            lines += [
                f"| {name} | {d['file']} | {d['relations']} | {d['given']} | {d['matched']} | {d['f1']:.2f} "
                f"| {d['coverage']:.2%} |"
                for d in o["documents"]
            ]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    scored = score_origins()
    print(markdown(scored))
    raise SystemExit(1 if problems(scored) else 0)
