"""The sample's pieces without services: what is read in each phase, which terms choose the
sample, how it is chosen, and what its answer and a narrowing answer say."""

from __future__ import annotations

from typing import Any

from graph.state import documents_in_table, documents_to_read
from nodes.offer_sample import compose_offer
from nodes.sample import _sample_ids, sample_terms
from tools.engines.reading import Condition, Reading
from tools.knowledge.base import SearchHit, SearchResult
from tools.knowledge.selection import Breakdown, NamedCount, Scope


def test_each_phase_reads_its_documents_and_the_sample_first() -> None:
    state: dict[str, Any] = {"document_ids": [1, 2, 3, 4, 5, 6], "sample_ids": [5, 2]}
    assert documents_to_read({**state, "phase": "all"}) == [1, 2, 3, 4, 5, 6]  # type: ignore[typeddict-item]
    assert documents_to_read({**state, "phase": "sample"}) == [5, 2]  # type: ignore[typeddict-item]
    assert documents_to_read({**state, "phase": "auto_sample"}) == [5, 2, 1, 3, 4, 6]  # type: ignore[typeddict-item]
    assert documents_to_read({**state, "phase": "confirmed"}) == [1, 3, 4, 6]  # type: ignore[typeddict-item]
    assert documents_in_table({**state, "phase": "sample"}) == [5, 2]  # type: ignore[typeddict-item]
    assert documents_in_table({**state, "phase": "confirmed"}) == [1, 2, 3, 4, 5, 6]  # type: ignore[typeddict-item]


def test_the_sample_terms_are_document_conditions_row_terms_and_literal_values() -> None:
    reading = Reading(
        request="x", columns=["Item"], document_conditions=["Nordwerk"], row_terms=["cable", "Cable"],
        conditions=[Condition(column="Item", op="contains", value="copper"), Condition(column="Price", op="lt", value="5")],
    )
    assert sample_terms(reading) == ["Nordwerk", "cable", "copper"]


class _Found:
    """A knowledge base whose search finds each term in the documents given for it."""

    def __init__(self, hits: dict[str, list[int]]) -> None:
        self.hits = hits

    def search(self, scope: Scope, text: str, **_: Any) -> SearchResult:
        return SearchResult([SearchHit(d, "c", f"d{d}.txt", 1, text) for d in self.hits.get(text, [])])


def test_the_sample_prefers_documents_with_more_terms_then_fills_up_in_scope_order() -> None:
    reading = Reading(request="x", document_conditions=["Nordwerk"], row_terms=["cable"])
    ids = list(range(10, 30))
    kb = _Found({"Nordwerk": [12, 15, 99], "cable": [15, 20, 12, 25]})  # 99 is outside the selection
    assert _sample_ids(kb, Scope(), reading, ids) == [12, 15, 20, 25, 10]  # type: ignore[arg-type]
    assert _sample_ids(_Found({}), Scope(), Reading(request="x"), ids) == [10, 11, 12, 13, 14]  # type: ignore[arg-type]


def test_the_sample_answer_says_what_a_yes_reads_and_how_long_it_takes() -> None:
    reading = Reading(request="x", columns=["Item", "Price"], row_condition="Item contains cable")
    answer = {"csv": "file:///t/table.csv", "summary": {"rows": 5, "failed": [], "notes": []}}
    text = compose_offer(answer, reading, 130, 125, 2.4, 1.1, 8, ["a.csv", "b.csv"], None)
    assert "130 documents match, so I read 2 of them first" in text and "(a.csv, b.csv)" in text
    assert "Columns: Item, Price." in text and "Rows: rows where Item contains cable." in text
    assert "Estimated time for the other 125: about 3 minutes (an estimate from the 1.1 s" in text
    assert 'Reply "yes" to read all 130 documents' in text and "Sample table: file:///t/table.csv." in text
    kept_not = compose_offer(answer, reading, 130, 125, 0.0, 0.01, 8, ["a.csv"], "It cannot wait.")
    assert "under a minute" in kept_not and "under 0.1 s" in kept_not and kept_not.endswith("It cannot wait.")


def test_a_breakdown_reads_as_one_sentence() -> None:
    where = Breakdown(
        folders=[NamedCount(name="parts", documents=130)], years=[NamedCount(name="2024", documents=70)],
        collections=[NamedCount(name="parts130", documents=130), NamedCount(name="corpus", documents=90)],
    )
    assert where.sentence() == "by folder: parts (130); by year: 2024 (70); by collection: parts130 (130), corpus (90)"
