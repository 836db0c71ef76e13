"""The evaluation's report: totals per case, group and corpus, as JSON figures and Markdown."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from evals.score import markdown_table, summarise

CORPUS_COLLECTION = "corpus"
CORPUS2_COLLECTION = "corpus2"
GROUPS = ("explicit", "semantic", "real")


def corpus_of(result: dict[str, Any]) -> str:
    """Which corpus a case result belongs to: ``corpus``, ``corpus2``, ``real`` or ``unseen``."""
    collection = str(result.get("collection") or CORPUS_COLLECTION)
    if collection == CORPUS2_COLLECTION:
        return "corpus2"
    if collection.startswith("unseen-"):
        return "unseen"
    if collection.startswith("real-"):
        return "real"
    return "corpus"


def corpus_totals(results: list[dict[str, Any]]) -> dict[str, dict[str, dict[str, Any]]]:
    """``group_totals`` of each corpus that has results, in the order corpus, corpus2, real."""
    return {
        name: group_totals(members)
        for name in ("corpus", "corpus2", "real", "unseen")
        if (members := [r for r in results if corpus_of(r) == name])
    }


def group_totals(results: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Micro totals of every group (tag) and of all cases, with the seconds they took."""
    summary = summarise(results)
    groups = {g: summary["by_tag"][g] for g in GROUPS if g in summary["by_tag"]}
    groups["all"] = {k: v for k, v in summary.items() if k != "by_tag"}
    for name, totals in groups.items():
        members = [r for r in results if name == "all" or name in r.get("tags", [])]
        totals["seconds"] = round(sum(r["seconds"] for r in members), 3)
        totals["crashed"] = sum(1 for r in members if r.get("crashed"))
    return groups


def _with_column(table: str, name: str, cells: list[str]) -> str:
    """A Markdown table with one more column at the right: header, separator, then ``cells``."""
    lines = table.rstrip("\n").split("\n")
    extra = [f" {name} |", "---:|", *(f" {c} |" for c in cells)]
    return "\n".join(line + cell for line, cell in zip(lines, extra)) + "\n"


_GROUP_HEADER = [
    "| group | cases | status ok | perfect | recall | precision | documents complete | rows from wrong documents | wrong rows marked yes | missed: said / unsure / silent | seconds |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
]


def _group_line(name: str, t: dict[str, Any]) -> str:
    return (
        f"| {name} | {t['cases']} | {t['status_ok']} | {t['perfect']} | {t['recall']:.2f} | {t['precision']:.2f} "
        f"| {t['document_completeness']:.2f} | {t['rows_from_wrong_documents']} | {t['wrong_yes']} "
        f"| {t.get('said', 0)} / {t.get('unsure', 0)} / {t.get('silent', 0)} | {t['seconds']:.1f} |"
    )


def _cases_table(results: list[dict[str, Any]]) -> str:
    total_seconds = sum(r["seconds"] for r in results)
    return _with_column(
        markdown_table(results),
        "seconds",
        [f"{r['seconds']:.1f}" for r in results] + [f"{total_seconds:.1f}"],
    )


def report_markdown(report: dict[str, Any]) -> str:
    """The short Markdown summary: per case, per group, and every missed row of real documents.

    The first corpus and the real sets come first, as they always did; the second corpus
    (``corpora/second.py``) follows in a section of its own, and a last table gives each corpus's
    totals per group side by side.
    """
    results = report["cases"]
    first = [r for r in results if corpus_of(r) in ("corpus", "real")]
    second = [r for r in results if corpus_of(r) == "corpus2"]
    unseen = [r for r in results if corpus_of(r) == "unseen"]
    lines = [
        f"Engine `{report['engine']}`"
        + (f", model `{report['model']}`" if report.get("model") else "")
        + f"; corpus seed {report['seed']}; {len(results)} cases"
        + (
            f" ({len(first)} of the first corpus and the real sets, {len(second)} of the second)."
            if second
            else "."
        ),
        "",
    ]
    if first:
        groups = report["groups"]
        lines += [_cases_table(first), *_GROUP_HEADER, *(_group_line(n, t) for n, t in groups.items())]
    if second:
        lines += [
            "",
            "### Second corpus (`corpora/second.py`)",
            "",
            "Requests written before any engine ran on them, over documents nobody tuned to.",
            "",
            _cases_table(second),
            *_GROUP_HEADER,
            *(_group_line(n, t) for n, t in group_totals(second).items()),
        ]
    if unseen:
        lines += [
            "",
            "### Unseen requests (`evals/unseen/`)",
            "",
            "Requests and their tables written from the documents alone by a reader who had not read "
            "Kea's code, before any engine ran on them: public PDFs of three table libraries, and a "
            "business corpus of another author.",
            "",
            _cases_table(unseen),
            *_GROUP_HEADER,
            *(_group_line(n, t) for n, t in group_totals(unseen).items()),
        ]
    if second or unseen:
        corpora = report.get("corpora") or corpus_totals(results)
        lines += ["", "Per corpus:", "", "| corpus " + _GROUP_HEADER[0], "|---" + _GROUP_HEADER[1]]
        for corpus, groups in corpora.items():
            lines += [f"| {corpus} " + _group_line(n, t) for n, t in groups.items()]
    if report.get("public"):
        from evals.public.score import markdown as public_markdown

        lines += [
            "",
            "### Public documents: table structure and words (`evals/public/`)",
            "",
            "Documents of other projects, pinned by commit and checksum, with the tables their maintainers' "
            "tests or ground-truth files expect. Structure: F1 over the adjacency of non-empty cells (the "
            "ICDAR 2013 measure), all tables of a document pooled; words: the share of the text layer's "
            "words the parsed text holds.",
            "",
            public_markdown(report["public"]),
        ]
    crashed = [r for r in results if r.get("crashed")]
    if crashed:
        lines += ["", "Crashed: " + "; ".join(f"`{r['id']}`: {r['error']}" for r in crashed)]
    for r in (r for r in results if "real" in r.get("tags", [])):
        lines += _real_rows(r)
    return "\n".join(lines) + "\n"


def _cells(row: dict[str, Any]) -> str:
    return " / ".join(str(v or "") or "–" for v in row["values"].values())


def _real_rows(r: dict[str, Any]) -> list[str]:
    """The rows of a real case that were missed (with why) or given but not true."""
    lines: list[str] = []
    missing, extra = r["true_rows"] - r["matched"], r["predicted_rows"] - r["matched"]
    if missing:
        shown = "" if len(r["missed"]) == missing else f" (the first {len(r['missed'])})"
        lines += ["", f"Missed rows of `{r['id']}`: {missing} of {r['true_rows']}{shown}.", ""]
        lines += ["| file | row | why |", "|---|---|---|"]
        lines += [f"| {row['file']} | {_cells(row)} | {row['why']} |" for row in r["missed"]]
    if extra:
        shown = "" if len(r["extra"]) == extra else f" (the first {len(r['extra'])})"
        lines += ["", f"Rows of `{r['id']}` given but not in the truth: {extra}{shown}.", ""]
        lines += ["| file | row |", "|---|---|"]
        lines += [f"| {row['file']} | {_cells(row)} |" for row in r["extra"]]
    return lines


def save_report(report: dict[str, Any], out: Path, text: str, markdown: Path | None) -> None:
    """The JSON report to ``out``, its Markdown summary printed and, with ``markdown``, written."""
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(text)
    if markdown:
        markdown.parent.mkdir(parents=True, exist_ok=True)
        markdown.write_text(text, encoding="utf-8")
