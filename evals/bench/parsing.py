"""Parsing speed: Kea's parser against reading the text layer alone, on the same documents.

    python -m evals.bench.parsing [--repeats 3]

The documents are the generated corpora (``corpora/first.py`` and ``corpora/second.py``,
written afresh) and every document of the evaluation sets (``evals/real``, ``evals/unseen``,
``evals/public``). Each is parsed as ``kea ingest`` parses it (``tools.parsing.parse_file``),
best of ``--repeats``. The baseline, timed the same way in the same run: for a PDF, pdfplumber
reading every word of every page (``extract_words``), the least any parser of its tables does;
other formats have no baseline and are timed for the record.

Reported: Kea's time over the baseline's on the generated corpora's PDFs (the figure a change of
the parser is held to: within 1.2x of the last saved run, ``previous_ratio``), the same ratio on
the evaluation sets' PDFs, and the slowest document per page of all (held to 2 s a page).
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from evals.bench.common import RESULTS, best_of, command_line, machine, save_and_show

EVALS = Path(__file__).resolve().parents[1]
PAGE_SECONDS_GOAL = 2.0
RATIO_GOAL = 1.2  # Kea's ratio may grow at most this much over the last saved run


def _words_only(path: Path) -> int:
    import pdfplumber

    with pdfplumber.open(path) as pdf:
        return sum(len(page.extract_words()) for page in pdf.pages)


def _evaluation_documents() -> list[Path]:
    found: list[Path] = []
    for root in (EVALS / "real", EVALS / "unseen", EVALS / "public"):
        found += [p for p in sorted(root.rglob("*")) if p.is_file() and "documents" in p.parts]
    return found


def _time(paths: list[Path], group: str, repeats: int) -> list[dict[str, Any]]:
    from tools.parsing import SUPPORTED_SUFFIXES, UnreadableFile, parse_file

    timed = []
    for path in paths:
        suffix = path.suffix.lower()
        if suffix not in SUPPORTED_SUFFIXES:
            continue
        try:
            seconds, parsed = best_of(repeats, lambda: parse_file(path))
        except UnreadableFile:
            continue  # the corpora's unreadable documents are there to be refused
        entry: dict[str, Any] = {"group": group, "file": path.name, "suffix": suffix, "pages": max(1, len(parsed.pages)),
                                 "seconds": round(seconds, 4)}
        if suffix == ".pdf":
            entry["baseline_seconds"] = round(best_of(repeats, lambda: _words_only(path))[0], 4)
        entry["seconds_per_page"] = round(seconds / entry["pages"], 4)
        timed.append(entry)
    return timed


def _ratio(entries: list[dict[str, Any]]) -> float | None:
    pdfs = [e for e in entries if "baseline_seconds" in e]
    baseline = sum(e["baseline_seconds"] for e in pdfs)
    return round(sum(e["seconds"] for e in pdfs) / baseline, 3) if baseline else None


def run(repeats: int = 3) -> dict[str, Any]:
    from corpora.first import generate
    from corpora.second import generate as generate2

    previous_path = RESULTS / "parsing.json"
    previous = json.loads(previous_path.read_text(encoding="utf-8")) if previous_path.exists() else {}
    with tempfile.TemporaryDirectory(prefix="kea-bench-parsing-") as folder:
        root = Path(folder)
        generate(root / "first", seed=7)
        generate2(root / "second", seed=7)
        generated = sorted(p for p in root.rglob("*") if p.is_file() and "documents" in p.parts)
        entries = _time(generated, "generated", repeats)
    entries += _time(_evaluation_documents(), "evaluation", repeats)
    generated_ratio = _ratio([e for e in entries if e["group"] == "generated"])
    slowest = max(entries, key=lambda e: e["seconds_per_page"])
    before = previous.get("generated_pdf_ratio")
    return {
        "machine": machine(),
        "repeats": repeats,
        "documents": {g: sum(e["group"] == g for e in entries) for g in ("generated", "evaluation")},
        "generated_seconds": round(sum(e["seconds"] for e in entries if e["group"] == "generated"), 3),
        "generated_pdf_ratio": generated_ratio,
        "evaluation_pdf_ratio": _ratio([e for e in entries if e["group"] == "evaluation"]),
        "previous_ratio": before,
        "within_ratio_goal": None if not before or generated_ratio is None else generated_ratio <= RATIO_GOAL * before,
        "slowest": slowest,
        "within_page_goal": slowest["seconds_per_page"] <= PAGE_SECONDS_GOAL,
        "entries": entries,
    }


def describe(r: dict[str, Any]) -> list[str]:
    s = r["slowest"]
    previous = (
        f"; the last saved run: {r['previous_ratio']}x (goal within {RATIO_GOAL}x of it: "
        f"{'met' if r['within_ratio_goal'] else 'missed'})" if r["previous_ratio"] else ""
    )
    return [
        f"Generated corpora: {r['documents']['generated']} documents parsed in {r['generated_seconds']} s; "
        f"on their PDFs Kea takes {r['generated_pdf_ratio']}x the time of reading their words alone{previous}.",
        f"Evaluation sets: {r['documents']['evaluation']} documents; on their PDFs {r['evaluation_pdf_ratio']}x.",
        f"Slowest per page: {s['file']} ({s['group']}), {s['seconds_per_page']} s a page "
        f"(goal at most {PAGE_SECONDS_GOAL} s: {'met' if r['within_page_goal'] else 'missed'}).",
    ]


def main() -> None:
    parser = command_line(__doc__)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    result = run(args.repeats)
    save_and_show("parsing", result, describe(result))


if __name__ == "__main__":
    main()
