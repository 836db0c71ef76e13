"""Kea's parser on public documents against their maintainers' truth, per origin.

For every ``evals/public/<origin>/truth.json``: each document is parsed as ``kea ingest``
parses it; its tables on the truth's page (``page``, or each of ``pages``) are compared with
the expected tables by cell adjacency (``evals.structure``), and the words of its text layer
with the parsed text (``tools.parsing.coverage``). An invoice whose truth is its positions
(``evals.public.positions``) is scored by the positions one row of its parsed tables holds whole,
and has no structure F1. A document whose checksum differs from the pinned one is an error,
never a score.

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

from evals.public.positions import positions_found
from evals.structure import structure_scores

PUBLIC = Path(__file__).resolve().parent

# Structure F1 of each document as last measured (``measured.json``): a report of where Kea stands
# on documents nobody here wrote, guarded against going back by more than SLACK -- not a bar they
# pass. A newly pinned document is measured and entered there; a parser change that moves one
# enters its new value and says why in its commit. (A header printed over several lines is one
# name per column, "Percent Fuel Savings Improved Speed", and keeps its lines as printed
# (``Table.header_lines``): those are scored, as the maintainers' truths keep a header's lines as
# rows; where Kea places a line's cell in another column than the truth, a few relations of the
# header rows are lost (the two table_1 pages, birdisland). A Word cell merged down the rows repeats in
# each row, where docling's truth writes it in the first: word_tables.docx. docling
# splits a sheet into tables at gaps of blank cells, Kea reads the sheet's table whole:
# xlsx_07_gap_tolerance_.xlsx. Kea keeps a checkbox's mark ("☒ Orange juice") and an
# equation's text ("A=πr2") in their cells, where docling's truth leaves the marks out and writes
# equations in LaTeX: docx_checkboxes.docx, table_with_equations.docx. docling's truth keeps
# the two lines of each configuration, OTSL over HTML with their layer counts printed once
# between them, in one row of two-figure cells ("0.965 0.969"); Kea reads each line as a row, so
# that "the HTML configurations" are rows of their own: 2305.03393v1-pg9.pdf.)
MEASURED_F1: dict[str, float] = json.loads((PUBLIC / "measured.json").read_text(encoding="utf-8"))
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
    from tools.parsing import ParsedDocument, UnreadableFile, parse_file
    from tools.parsing.coverage import unread_words
    from tools.parsing.office_layer import office_text_layer

    path = folder / "documents" / case["file"]
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    if digest != case["sha256"]:
        raise ValueError(f"{path} is not the pinned file (sha256 {digest}, pinned {case['sha256']})")
    start = time.perf_counter()
    try:
        document = parse_file(path)
    except UnreadableFile as exc:  # scored as no table and no word read, and named
        document, unreadable = ParsedDocument(title=path.name, media_type="", pages=[]), str(exc)
    else:
        unreadable = ""
    seconds = time.perf_counter() - start
    # a PDF's truth is of its pages; another format's, of the whole document
    pages = set(case["pages"]) if "pages" in case else {case["page"]} if "page" in case else None
    # a header printed on several lines is scored as printed, line by line, as the truths keep it
    parsed = [[*(t.header_lines or [t.header]), *t.rows] for t in document.tables if pages is None or t.page in pages]
    if "positions" in case:  # an invoice whose truth is its positions, not its printed tables
        found = positions_found(parsed, case["positions"])
        scores: dict[str, Any] = {"relations": 0, "given": 0, "matched": 0, "positions": len(case["positions"]),
                                  "positions_found": found, "f1": found / len(case["positions"])}
    else:
        scores = structure_scores(case["tables"], parsed)
    if path.suffix.lower() == ".pdf":
        layer = _text_layer(path)
        parsed_pages = document.pages
    else:  # a Word, PowerPoint or Excel file's text against all its pages; CSV and Markdown have none
        office = office_text_layer(path)
        layer = [office] if office is not None else []
        parsed_pages = ["\n".join(document.pages)]
    words = sum(len(page) for page in layer)
    unread = sum(len(unread_words(page, parsed_pages[i] if i < len(parsed_pages) else "")) for i, page in enumerate(layer))
    return {
        "file": case["file"],
        **scores,
        "words": words,
        "unread_words": unread,
        "coverage": 1 - unread / words if words else 1.0,
        "seconds_per_page": seconds / max(1, len(document.pages)),
        "unreadable": unreadable,
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
        positions = sum(d.get("positions", 0) for d in documents)
        origins[truth["origin"]] = {
            "repository": truth["repository"],
            "commit": truth["commit"],
            "documents": documents,
            "tables": sum(len(case["tables"]) for case in truth["documents"]),
            "positions": positions,
            "positions_found": sum(d.get("positions_found", 0) for d in documents),
            # an origin whose truths are positions has no structure to score
            "f1": None if positions and not relations else 2 * precision * recall / (precision + recall) if precision + recall else 0.0,
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
            what = "share of positions found" if "positions" in d else "structure F1"
            if key not in MEASURED_F1:
                found.append(f"{key}: no measured {what} (measure it and enter it in measured.json)")
            elif d["f1"] < MEASURED_F1[key] - SLACK:
                found.append(f"{key}: {what} {d['f1']:.2f}, measured {MEASURED_F1[key]:.2f} when pinned")
            if d["coverage"] < COVERAGE_BAR and key not in BELOW_THE_COVERAGE_BAR:
                found.append(f"{key}: word coverage {d['coverage']:.2%}, under {COVERAGE_BAR:.1%}")
    return found


def _coverage(document: dict[str, Any]) -> str:
    if document["unreadable"]:
        return f"unreadable: {document['unreadable'][:80]}"
    return f"{document['coverage']:.2%}" if document["words"] else "no text layer (CSV, Markdown)"


def _score(document: dict[str, Any]) -> str:
    if "positions" in document:
        return f"{document['positions_found']} of {document['positions']} positions"
    return f"{document['f1']:.2f}"


def _f1(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f}"


def markdown(origins: dict[str, dict[str, Any]]) -> str:
    lines = [
        "| origin | documents | tables | structure F1 | precision | recall | positions found | word coverage "
        "| lowest document | slowest s/page |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, o in origins.items():
        scored = o["f1"] is not None
        positions = f"{o['positions_found']} of {o['positions']}" if o["positions"] else "—"
        lines.append(
            f"| {name} ({o['repository']}@{o['commit'][:7]}) | {len(o['documents'])} | {o['tables']} | {_f1(o['f1'])} "
            f"| {_f1(o['precision'] if scored else None)} | {_f1(o['recall'] if scored else None)} | {positions} "
            f"| {o['coverage']:.2%} | {o['lowest_coverage']:.2%} | {o['slowest_seconds_per_page']:.2f} |"
        )
    if origins:
        documents = [d for o in origins.values() for d in o["documents"]]
        relations, given = sum(d["relations"] for d in documents), sum(d["given"] for d in documents)
        matched = sum(d["matched"] for d in documents)
        precision, recall = (matched / given if given else 0.0), (matched / relations if relations else 1.0)
        pooled = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        positions = sum(o["positions"] for o in origins.values())
        found = sum(o["positions_found"] for o in origins.values())
        lines.append(
            f"| all origins | {len(documents)} | {sum(o['tables'] for o in origins.values())} | {pooled:.2f} "
            f"| {precision:.2f} | {recall:.2f} | {found} of {positions} | {min(o['coverage'] for o in origins.values()):.2%} "
            f"| {min(o['lowest_coverage'] for o in origins.values()):.2%} "
            f"| {max(o['slowest_seconds_per_page'] for o in origins.values()):.2f} |"
        )
        structured = [n for n in origins if origins[n]["f1"] is not None]
        weakest = min(structured, key=lambda n: origins[n]["f1"])
        lines += ["", f"Weakest origin by structure F1: {weakest} ({origins[weakest]['f1']:.2f})."]
        went_back = problems(origins)
        lines += ["", "Gone back since pinned: " + ("; ".join(went_back) if went_back else "nothing") + "."]
        lines += [
            "",
            "| origin | document | relations | given | matched | F1 or positions | word coverage |",
            "|---|---|---:|---:|---:|---:|---:|",
        ]
        for name, o in origins.items():
            lines += [
                f"| {name} | {d['file']} | {d['relations']} | {d['given']} | {d['matched']} | {_score(d)} "
                f"| {_coverage(d)} |"
                for d in o["documents"]
            ]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    scored = score_origins()
    print(markdown(scored))
    raise SystemExit(1 if problems(scored) else 0)
