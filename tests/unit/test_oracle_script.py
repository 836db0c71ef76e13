"""The perfect model's script (``evals/oracle.py``) on requests built by hand: a row is given once,
by the first window that shows all its values, and only what the text shows is given."""

from __future__ import annotations

import json
from typing import Any

from evals.endpoint import Seen
from evals.oracle import Oracle

CASE = {
    "id": "t", "columns": ["Item", "Amount"],
    "rows": [{"file": "docs/a.pdf", "values": {"Item": "Rice", "Amount": "1,200"}},
             {"file": "docs/a.pdf", "values": {"Item": "Corn  crop", "Amount": "(9,2)"}},
             {"file": "docs/b.pdf", "values": {"Item": "Wheat", "Amount": "7"}}],
}


def _call(document: str, text: str) -> Seen:
    schema = {"type": "object", "properties": {"records": {"type": "array"}}}
    user = f"Document: {document}\nTitle: -\nPages: 2\n\n{text}"
    body = {"messages": [{"role": "system", "content": "s"}, {"role": "user", "content": user}],
            "response_format": {"type": "json_schema", "json_schema": {"name": "DocumentRecords", "schema": schema}}}
    return Seen(body=body, started=0.0)


def _records(oracle: Oracle, seen: Seen) -> list[dict[str, Any]]:
    return json.loads(json.dumps(oracle(seen).answer))["records"]


def test_a_row_is_given_once_by_the_first_window_that_shows_it_whole() -> None:
    oracle = Oracle()
    oracle.start(CASE)
    first = _call("docs/a.pdf", "=== Page 1 ===\nRice\t1,200\nCorn crop\t(9,2")
    second = _call("docs/a.pdf", "=== Page 1 (continued) ===\nRice\t1,200\nCorn\tcrop\t(9,2)")
    assert [r["Item"] for r in _records(oracle, first)] == ["Rice"]
    got = _records(oracle, second)
    assert [(r["Item"], r["evidence"], r["page"], r["record_match"]) for r in got] == [
        ("Corn  crop", "Corn\tcrop\t(9,2)", 1, "yes")]
    assert _records(oracle, first)[0]["Item"] == "Rice"  # the same window asked again
    assert oracle.given() == [0, 1] and oracle.missing == {0: [], 1: []}


def test_a_row_no_window_shows_whole_is_not_given_and_its_missing_values_are_kept() -> None:
    oracle = Oracle()
    oracle.start(CASE)
    assert _records(oracle, _call("docs/a.pdf", "=== Page 2 ===\nRice\t1.200\nCorn crop\t( 9,2)")) == []
    assert oracle.missing == {0: ["1,200"], 1: ["(9,2)"]}
    assert oracle.nearest == {0: "Rice\t1.200", 1: "Corn crop\t( 9,2)"}
    assert _records(oracle, _call("docs/c.pdf", "=== Page 1 ===\nWheat\t7")) == []  # not b.pdf
