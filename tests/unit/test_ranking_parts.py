"""The parts of ranking that need no service: chunks, reciprocal rank fusion, the query of a reading."""

from __future__ import annotations

import pytest

from core.reading import Condition, Place, Reading
from tools.knowledge.chunking import chunk_pages, document_label
from tools.knowledge.embeddings import EmbeddingError, LocalMiniLM, ModelSpec, configured_spec
from tools.knowledge.ranking import query_for, reciprocal_rank_fusion


def _words(n: int, start: int = 0) -> str:
    return " ".join(f"w{i}" for i in range(start, start + n))


def test_chunks_stay_on_their_page_and_overlap() -> None:
    chunks = chunk_pages([_words(250), "", _words(10, 1000)], "label", words=100, overlap=20)
    assert [c.page for c in chunks] == [1, 1, 1, 3]  # windows start at 0, 80, 160; page 2 is empty
    first, second = (c.text.split("\n", 1)[1].split() for c in chunks[:2])
    assert first[-20:] == second[:20]
    assert all(c.text.startswith("label\n") for c in chunks)
    assert chunks[2].text.split()[-1] == "w249" and len(chunks[2].text.split()) == 1 + 90


def test_a_long_document_keeps_a_spread_including_every_page_start() -> None:
    pages = [_words(400, p * 1000) for p in range(10)]
    chunks = chunk_pages(pages, words=100, overlap=20, max_chunks=20)
    assert len(chunks) == 20 and {c.page for c in chunks} == set(range(1, 11))
    starts = {c.text.split()[0] for c in chunks}
    assert all(f"w{p * 1000}" in starts for p in range(10))  # every page's first chunk is kept
    assert chunk_pages(pages, words=100, overlap=20, max_chunks=1)[0].page == 1
    with pytest.raises(ValueError):
        chunk_pages(["x"], words=10, overlap=10)


def test_document_label_reads_the_path_as_words() -> None:
    assert document_label("invoices/2025/nordwerk-2025_01.pdf") == "invoices 2025 nordwerk 2025 01 pdf"
    assert document_label("slas/sla.md", "Service levels") == "slas sla md — Service levels"


def test_reciprocal_rank_fusion_interleaves_and_adds_up() -> None:
    assert reciprocal_rank_fusion([[1, 2, 3], [10, 20]]) == [1, 10, 2, 20, 3]
    assert reciprocal_rank_fusion([[1, 2], [2, 1], [2]])[0] == 2
    assert reciprocal_rank_fusion([]) == []


def test_the_query_of_a_reading_names_what_identifies_the_rows() -> None:
    reading = Reading(
        request="Every hardware position on Nordwerk's 2025 invoices",
        columns=["Description", "Quantity"],
        row_terms=["hardware"],
        document_conditions=["Nordwerk"],
        conditions=[Condition(column="Quantity", op="gt", value="10", text="quantity above 10")],
        places=[Place(kind="folder", value="invoices/2025")],
    )
    query = query_for(reading)
    assert query.text == (
        "Every hardware position on Nordwerk's 2025 invoices. Nordwerk. quantity above 10. hardware. "
        "Description, Quantity. invoices 2025"
    )
    assert query.terms == [("Nordwerk", 4), ("hardware", 2), ("Description", 1), ("Quantity", 1)]
    assert query_for(Reading(request="what is in here?")).text == "what is in here?"


def test_the_configured_model_is_local_unless_an_endpoint_is_named(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.delenv("KEA_EMBEDDINGS_URL", raising=False)
    assert configured_spec() == LocalMiniLM.spec
    monkeypatch.setenv("KEA_EMBEDDINGS_URL", "http://127.0.0.1:9/v1/")
    with pytest.raises(EmbeddingError, match="KEA_EMBEDDINGS_MODEL"):
        configured_spec()
    monkeypatch.setenv("KEA_EMBEDDINGS_MODEL", "e5")
    assert configured_spec() == ModelSpec("endpoint", "e5", "http://127.0.0.1:9/v1")


def test_the_local_model_embeds_offline_and_puts_similar_texts_close() -> None:
    model = LocalMiniLM()
    sla, also_sla, lunch = model.embed(
        ["response time of a priority one incident", "P1 incidents are answered within one hour", "lunch menu"]
    )
    assert len(sla) == 384 and abs(sum(v * v for v in sla) - 1) < 1e-4

    def cos(a: list[float], b: list[float]) -> float:
        return sum(x * y for x, y in zip(a, b))

    assert cos(sla, also_sla) > cos(sla, lunch) + 0.2


def test_the_local_tokenizer_is_the_pinned_file_and_a_changed_one_is_refused(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import tools.knowledge.embeddings as embeddings
    from tools.knowledge.paths import file_sha256

    assert file_sha256(embeddings.TOKENIZER_FILE) == embeddings.TOKENIZER_SHA256
    assert (embeddings.TOKENIZER_FILE.parent / "LICENSE").is_file()
    changed = tmp_path / "tokenizer.json"
    changed.write_bytes(embeddings.TOKENIZER_FILE.read_bytes().replace(b'"lowercase":true', b'"lowercase":false'))
    monkeypatch.setattr(embeddings, "TOKENIZER_FILE", changed)
    with pytest.raises(EmbeddingError, match="checksum"):
        LocalMiniLM().embed(["anything"])
    monkeypatch.setattr(embeddings, "TOKENIZER_FILE", tmp_path / "absent.json")
    with pytest.raises(EmbeddingError, match="missing"):
        LocalMiniLM().embed(["anything"])


def test_a_column_is_matched_by_the_names_the_scope_prints_it_under() -> None:
    from tools.knowledge.ranking import _names_in_scope

    vocabulary = ["Priorität", "Reaktionszeit", "Amount", "Lösungszeit"]
    assert _names_in_scope("Response time", vocabulary) == ["Response time", "Reaktionszeit"]
    assert _names_in_scope("Resolution time", vocabulary, printed_only=True) == ["Lösungszeit"]
    assert _names_in_scope("Supplier too", vocabulary, printed_only=True) == []  # no header names it
    query = query_for(Reading(request="Brightline invoices: amount", document_conditions=["Brightline"],
                              columns=["Amount", "Date"]))
    assert query.columns == ("Amount", "Date") and query.request == "Brightline invoices: amount"
