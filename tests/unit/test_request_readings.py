"""Requests written independently of Kea's corpus, read by the offline engine from the message alone.

``tests/data/readings.jsonl`` holds 45 table requests as people write them, with how a careful
reader understands each (see its README in the project's shared requests). Every message is
read with an empty scope — no headers, no folders — so everything checked here comes from
the message; whether a year is a path or a date is decided later, when the scope is resolved.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tools.engines.offline import read_message
from core.reading import Reading, ScopeHint

CASES = [json.loads(line) for line in (Path(__file__).parents[1] / "data" / "readings.jsonl").read_text().splitlines() if line.strip()]

# Each miss with its reason. A miss is a request the offline engine reads differently from the
# careful reader; none is allowed to be a confident wrong reading.
KNOWN_MISSES: dict[str, str] = {}


def _norm(value: Any) -> str:
    return " ".join(str(value or "").split()).casefold()


def _calculation_kind(text: str) -> str:
    return text.split()[0].casefold()


def observed(reading: Reading) -> dict[str, Any]:
    """The reading in the shape of the expected readings."""
    if reading.kind != "table":
        return {"kind": reading.kind}
    literal = [c for c in reading.conditions if c.op != "judgement"]
    return {
        "columns": [_norm(c) for c in reading.columns if reading.columns_from == "request"],
        "conditions": sorted((_norm(c.column) if c.column else None, c.op, _norm(c.value)) for c in literal),
        "document_conditions": [_norm(d) for d in reading.document_conditions],
        "places": sorted((p.kind, _norm(p.value).strip("/")) for p in reading.places),
        "calculations": sorted(_calculation_kind(c) for c in reading.calculations),
        "judgement": bool(reading.row_terms) or any(c.op == "judgement" for c in reading.conditions),
    }


def expected(case: dict[str, Any]) -> dict[str, Any]:
    e = case["expected"]
    if "kind" in e:
        return {"kind": e["kind"]}
    return {
        "columns": [_norm(c) for c in e["columns"]],
        "conditions": sorted((_norm(c["column"]) if c["column"] else None, c["op"], _norm(c["value"])) for c in e["conditions"]),
        "document_conditions": [_norm(d) for d in e["document_conditions"]],
        "places": sorted((p["kind"], _norm(p["value"]).strip("/")) for p in e["places"]),
        "calculations": sorted(e["calculations"]),
        "judgement": e["judgement"],
    }


def _between_as_one(conditions: list[tuple[Any, str, str]]) -> list[tuple[Any, str, str]]:
    return conditions


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_the_offline_engine_reads_the_request_as_a_careful_reader(case: dict[str, Any]) -> None:
    if case["id"] in KNOWN_MISSES:
        pytest.xfail(KNOWN_MISSES[case["id"]])
    reading = read_message(case["message"], ScopeHint(documents=0))
    assert observed(reading) == expected(case)


def test_at_least_43_of_the_45_requests_are_read_as_a_careful_reader() -> None:
    read = 0
    for case in CASES:
        reading = read_message(case["message"], ScopeHint(documents=0))
        read += observed(reading) == expected(case)
    assert len(CASES) == 45 and read >= 43


def test_no_known_miss_names_a_request_it_does_not_hold() -> None:
    assert set(KNOWN_MISSES) <= {c["id"] for c in CASES}
