"""The sample's pieces without services: what is read in each phase, and what its answer and a
narrowing answer say (which five are chosen is tested with ranking, on real services)."""

from __future__ import annotations

from typing import Any

from core.state import documents_in_table, documents_to_read
from nodes.offer_sample import compose_offer
from core.reading import Reading
from core.selection import Breakdown, NamedCount


def test_each_phase_reads_its_documents_and_the_sample_first() -> None:
    state: dict[str, Any] = {"document_ids": [1, 2, 3, 4, 5, 6], "sample_ids": [5, 2]}
    assert documents_to_read({**state, "phase": "all"}) == [1, 2, 3, 4, 5, 6]  # type: ignore[typeddict-item]
    assert documents_to_read({**state, "phase": "sample"}) == [5, 2]  # type: ignore[typeddict-item]
    assert documents_to_read({**state, "phase": "auto_sample"}) == [5, 2, 1, 3, 4, 6]  # type: ignore[typeddict-item]
    assert documents_to_read({**state, "phase": "confirmed"}) == [1, 3, 4, 6]  # type: ignore[typeddict-item]
    assert documents_in_table({**state, "phase": "sample"}) == [5, 2]  # type: ignore[typeddict-item]
    assert documents_in_table({**state, "phase": "confirmed"}) == [1, 2, 3, 4, 5, 6]  # type: ignore[typeddict-item]


def test_the_sample_answer_says_what_a_yes_reads_and_how_long_it_takes() -> None:
    reading = Reading(request="x", columns=["Item", "Price"], row_condition="Item contains cable")
    answer = {"csv": "file:///t/table.csv", "summary": {"rows": 5, "failed": [], "notes": []}}
    text = compose_offer(answer, reading, 130, 125, 2.4, 1.1, 8, ["a.csv", "b.csv"], None)
    assert "130 documents match, so I read 2 of them first" in text and "(a.csv, b.csv)" in text
    assert "Columns: Item, Price." in text and "Rows: rows where Item contains cable." in text
    assert "Estimated time for the other 125: about 3 minutes (an estimate from the 1.1 s" in text
    assert 'Reply "yes" to read all 130 documents' in text and "file:///" not in text  # where the table is, each client says
    kept_not = compose_offer(answer, reading, 130, 125, 0.0, 0.01, 8, ["a.csv"], "It cannot wait.")
    assert "under a minute" in kept_not and "under 0.1 s" in kept_not and kept_not.endswith("It cannot wait.")


def test_a_breakdown_reads_as_one_sentence() -> None:
    where = Breakdown(
        folders=[NamedCount(name="parts", documents=130)], years=[NamedCount(name="2024", documents=70)],
        collections=[NamedCount(name="parts130", documents=130), NamedCount(name="corpus", documents=90)],
    )
    assert where.sentence() == "by folder: parts (130); by year: 2024 (70); by collection: parts130 (130), corpus (90)"
