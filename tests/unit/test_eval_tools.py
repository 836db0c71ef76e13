"""The evaluation's own logic: why a row was missed, totals per group, the report, the real sets."""

from __future__ import annotations

import pytest

from evals.bench.common import fixed_records
from evals.report import group_totals, report_markdown
from evals.run import REAL, Case, UnknownCase, real_sets, select, why_missed
from evals.score import score_case
from tools.engines.grounding import verify_evidence
from core.reading import DocumentText, Table

ROW = {"file": "results.pdf", "values": {"Name": "Fritz ILGEN", "Team": "TSV Lindau", "Time": "51.78"}}


def _document(pages: list[str], tables: list[Table] | None = None) -> DocumentText:
    return DocumentText(id=1, collection="real", path="results.pdf", pages=pages, tables=tables or [])


def test_a_row_in_a_parsed_table_is_blamed_on_the_engine() -> None:
    table = Table(page=2, header=["Name", "Team", "Time"], rows=[["Fritz ILGEN", "TSV Lindau", "51.78"]])
    reason = why_missed(ROW, _document(["Results", "Fritz ILGEN TSV Lindau 51.78"], [table]))
    assert "table the parser found on page 2" in reason and "no row the engine gave matches it" in reason


def test_a_row_only_in_the_text_is_blamed_on_the_missing_table() -> None:
    reason = why_missed(ROW, _document(["Results", "1 1/4 Fritz ILGEN GER 1933 TSV Lindau\n51.78 ( 0.85)"]))
    assert reason == "its values stand in the text of page 2, but the parser found no table in the document"
    other = Table(page=1, header=["Event", "Record"], rows=[["50m Backstroke", "46.82"]])
    reason = why_missed(ROW, _document(["Results", "Fritz ILGEN TSV Lindau 51.78"], [other]))
    assert "none of the 1 tables the parser found holds it" in reason


def test_values_the_text_lacks_and_documents_never_ingested_are_named() -> None:
    assert "'51.78'" in why_missed(ROW, _document(["Fritz ILGEN TSV Lindau"]))
    assert "not ingested" in why_missed(ROW, None)


def _result(
    case_id: str, tags: list[str], found: int, seconds: float, crashed: bool = False, wrong: int = 0
) -> dict:
    case = {
        "id": case_id,
        "tags": tags,
        "status": "done",
        "columns": ["Name"],
        "documents_with_rows": ["a.pdf"],
        "rows": [{"file": "a.pdf", "values": {"Name": f"n{i}"}} for i in range(4)],
    }
    predicted = [{"file": "a.pdf", "values": {"Name": f"n{i}"}} for i in range(found)]
    predicted += [{"file": "a.pdf", "values": {"Name": f"wrong {i}"}} for i in range(wrong)]
    result = score_case(case, predicted, ["Name"], "error" if crashed else "done")
    result["missed"] = [{**row, "why": "its values stand in the text of page 1"} for row in result["missed"]]
    return {
        **result,
        "seconds": seconds,
        "crashed": crashed,
        "error": "RuntimeError: boom" if crashed else None,
    }


def test_group_totals_sum_rows_before_dividing_and_add_the_time() -> None:
    results = [
        _result("one", ["explicit"], 4, 1.0),
        _result("two", ["explicit", "real"], 1, 2.0),
        _result("three", ["semantic"], 0, 0.5, crashed=True),
    ]
    groups = group_totals(results)
    assert list(groups) == ["explicit", "semantic", "real", "all"]
    assert (groups["explicit"]["matched"], groups["explicit"]["true_rows"]) == (5, 8)
    assert groups["explicit"]["recall"] == pytest.approx(5 / 8)
    assert groups["explicit"]["seconds"] == 3.0 and groups["all"]["seconds"] == 3.5
    assert groups["semantic"]["crashed"] == 1 and groups["all"]["status_ok"] == 2


def test_the_report_shows_time_per_case_groups_crashes_and_the_missed_real_rows() -> None:
    results = [
        _result("one", ["explicit"], 4, 1.0),
        _result("two", ["explicit", "real"], 1, 2.0, wrong=1),
        _result("three", ["semantic"], 0, 0.5, crashed=True),
    ]
    text = report_markdown(
        {"engine": "offline", "seed": 7, "cases": results, "groups": group_totals(results)}
    )
    case_lines = [line for line in text.splitlines() if line.startswith(("| one ", "| **total**"))]
    assert case_lines[0].endswith("| 1.0 |") and case_lines[1].endswith("| 3.5 |")
    assert "| real | 1 | 1 | 0 | 0.25 | 0.50 |" in text
    assert "`three`: RuntimeError: boom" in text
    assert (
        "Missed rows of `two`: 3 of 4." in text
        and "| a.pdf | n1 | its values stand in the text of page 1 |" in text
    )
    assert "Rows of `two` given but not in the truth: 1." in text and "| a.pdf | wrong 0 |" in text


def test_cases_are_chosen_by_id_in_the_order_given() -> None:
    cases = [Case({"id": "a"}, "corpus"), Case({"id": "b"}, "corpus"), Case({"id": "c"}, "real-x")]
    assert [c.id for c in select(cases, "c, a")] == ["c", "a"]
    assert select(cases, None) == cases
    with pytest.raises(UnknownCase, match="nope"):
        select(cases, "a,nope")


def test_every_real_set_holds_its_documents_and_a_consistent_truth() -> None:
    sets = real_sets()
    assert sets, f"no real document set under {REAL}"
    for collection, folder, truth in sets:
        assert collection.startswith("real-")
        files = {p.name for p in folder.iterdir()}
        for case in truth["cases"]:
            assert {"explicit", "real"} <= set(case["tags"])
            assert set(case["documents_with_rows"]) <= files
            assert {r["file"] for r in case["rows"]} == set(case["documents_with_rows"])
            assert all(list(r["values"]) == case["columns"] for r in case["rows"])


def test_the_fixed_engine_records_are_grounded_in_their_document() -> None:
    document = _document(["Code: C00001\nName: Part 1"])
    records = verify_evidence(fixed_records(document, ["Code", "Name"], 5), document)
    assert len(records) == 5 and all(r.match == "yes" and r.page == 1 for r in records)
    assert len({r.values["Code"] for r in records}) == 5
