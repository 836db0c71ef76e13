"""The perfect-model harness (``evals/oracle.py``) over a few unseen requests, through the real
graph and the real langchain-openai client: the model gives each document's true rows it was
shown, and the table Kea makes of them is the true table."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from evals.endpoint import ScriptedEndpoint, allowed_endpoint
from evals.oracle import Oracle, compare, exact
from evals.run import UNSEEN, Case, run_case

SET = UNSEEN / "public-pdfs"
DOCUMENTS = ["camelot/tests/files/health.pdf", "camelot/tests/files/population_growth.pdf",
             "camelot/tests/files/foo.pdf"]
CASES = ["unseen-p01", "unseen-p02", "unseen-p04"]
COLLECTION = "oracle-unseen"


@pytest.fixture(scope="module")
def oracle_endpoint() -> Iterator[tuple[Oracle, ScriptedEndpoint]]:
    oracle, scripted = Oracle(), ScriptedEndpoint()
    scripted.reset(oracle)
    with allowed_endpoint(scripted):
        yield oracle, scripted


@pytest.fixture(scope="module")
def unseen_pdfs(kea_home: Path, kb) -> dict[str, dict[str, Any]]:  # type: ignore[no-untyped-def]
    """Three of the unseen PDFs, at their paths in the set, as one collection."""
    from tools.knowledge.ingest import ingest

    root = kea_home / "oracle-unseen"
    for path in DOCUMENTS:
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(SET / "documents" / path, root / path)
    assert len(ingest(kb, [root], COLLECTION, embed=False).indexed) == len(DOCUMENTS)
    truth = json.loads((SET / "truth.json").read_text(encoding="utf-8"))
    return {c["id"]: c for c in truth["cases"] if c["id"] in CASES}


@pytest.mark.parametrize("case_id", CASES)
async def test_a_perfect_model_gives_the_true_table_and_kea_keeps_it(svc, oracle_endpoint, unseen_pdfs, case_id) -> None:  # type: ignore[no-untyped-def]
    oracle, scripted = oracle_endpoint
    truth = unseen_pdfs[case_id]
    assert all(row["file"] in DOCUMENTS for row in truth["rows"])
    oracle.start(truth)
    profile = {"engine": "llm", "model": "oracle", "base_url": scripted.base_url}
    result = await run_case(Case(truth, COLLECTION), profile, svc, keep=True)
    found = compare(truth, oracle, result)
    assert not result["crashed"], result.get("error")
    assert found["readings"] == 1 and found["calls"] >= len(DOCUMENTS)
    assert found["given"] == len(truth["rows"]) and found["lost_before_model"] == []
    assert found["dropped_or_changed"] == [] and found["added"] == [] and found["lowered"] == []
    assert exact(result), (result["missed"], result["extra"])
    assert sorted(tuple(r["values"].values()) for r in result["table"]) == sorted(
        tuple(r["values"][c] for c in truth["columns"]) for r in truth["rows"])


async def test_a_row_the_text_does_not_hold_is_not_given_and_is_counted_lost(svc, oracle_endpoint, unseen_pdfs) -> None:  # type: ignore[no-untyped-def]
    oracle, scripted = oracle_endpoint
    truth = json.loads(json.dumps(unseen_pdfs["unseen-p01"]))
    truth["rows"][0]["values"]["Others"] = "99,999,999"  # printed nowhere
    oracle.start(truth)
    result = await run_case(Case(truth, COLLECTION), {"engine": "llm", "model": "oracle", "base_url": scripted.base_url},
                            svc, keep=True)
    found = compare(truth, oracle, result)
    assert found["given"] == len(truth["rows"]) - 1
    assert [(x["file"], x["missing"]) for x in found["lost_before_model"]] == [(DOCUMENTS[0], ["99,999,999"])]
    assert found["dropped_or_changed"] == [] and not exact(result)
