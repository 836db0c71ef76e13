"""Kea's parser on public documents against their maintainers' truth, per origin.

For every ``evals/public/<origin>/truth.json``: each document is parsed as ``kea ingest``
parses it; its tables on the truth's page (``page``, or each of ``pages``) are compared with
the expected tables by cell adjacency (``evals.structure``), and the words of its text layer
with the parsed text (``tools.parsing.coverage``). A document whose checksum differs from the
pinned one is an error, never a score.
"""

from __future__ import annotations

import hashlib
import json
import time
from pathlib import Path
from typing import Any

from evals.structure import structure_scores

PUBLIC = Path(__file__).resolve().parent


def _text_layer(path: Path) -> list[list[str]]:
    import pdfplumber

    from tools.parsing.pdf.words import sideways, text_layer

    with pdfplumber.open(path) as pdf:
        return [[w["text"] for w in text_layer(page, sideways(page))] for page in pdf.pages]


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
        weakest = min(origins, key=lambda n: origins[n]["f1"])
        lines += ["", f"Weakest origin by structure F1: {weakest} ({origins[weakest]['f1']:.2f})."]
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
    print(markdown(score_origins()))
