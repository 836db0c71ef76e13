"""Ranking by meaning on the real components: Milvus Lite through Kea's local server, PostgreSQL,
the local MiniLM model, and a scripted OpenAI-compatible embeddings endpoint as the other model."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from checkpoints.cluster import free_port
from checkpoints.milvus import LocalMilvus
from core.profile import Profile
from graph.runs import run_extraction
from evals.endpoint import ScriptedEndpoint, serve
from tools.engines.offline import OfflineEngine
from core.reading import Reading
from tools.knowledge.embeddings import LocalMiniLM
from tools.knowledge.ingest import ingest
from tools.knowledge.ranking import choose_sample, query_for, rank
from core.selection import Scope
from tools.knowledge.vectors import VectorIndex
from tools.services import Services

CORPUS = Scope(collections=["corpus"])
MIXED = Scope(collections=["corpus", "corpus-languages"])
ROOT = Path(__file__).resolve().parents[2]


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def _reading(svc, message: str, scope: Scope = CORPUS) -> Reading:  # type: ignore[no-untyped-def]
    return asyncio.run(OfflineEngine().read_request(message, svc.kb.scope_hint(scope)))


def _case(truth: dict[str, Any], case_id: str) -> dict[str, Any]:
    return next(c for c in truth["cases"] if c["id"] == case_id)


def _paths(svc, scope: Scope = CORPUS) -> dict[int, str]:  # type: ignore[no-untyped-def]
    return {d.id: d.path for d in svc.kb.resolve(scope).documents}


def _chunks(svc, collection: str, document_id: int) -> int:  # type: ignore[no-untyped-def]
    collection_id = svc.kb.ensure_collection(collection)
    source = svc.vectors.sources([collection_id])[collection_id]
    rows = svc.vectors.client().query(source.milvus_collection, filter=f"doc_id == {document_id}", output_fields=["doc_id"])
    return len(rows)


def _dead_services(svc) -> Services:  # type: ignore[no-untyped-def]
    """The same knowledge base with a Milvus that does not answer (a port nothing listens on)."""
    return Services(svc.database_url, svc.kb, svc.objects, svc.rows,
                    VectorIndex(svc.kb, uri=f"http://127.0.0.1:{free_port()}", timeout_s=2))


# Documents in German and French beside the generated corpus: two German SLAs (one calls itself a
# "Service Level Agreement", the other only "Dienstgütevereinbarung"), German minutes and French minutes.
LANGUAGE_DOCUMENTS = {
    "vertraege/sla-rheinhost-rechenzentrum.md": """# Service Level Agreement Rechenzentrumsbetrieb

**Anbieter:** RheinHost GmbH, Köln
**Kunde:** Marlow Systems GmbH
**Gültig ab:** 01.01.2025

Diese Vereinbarung legt fest, wie schnell der Anbieter auf Störungen der gehosteten Systeme reagiert und
bis wann sie behoben sind. Die Zeiten gelten ab dem Eingang der Störungsmeldung über das Kundenportal oder
die Hotline und werden rund um die Uhr gemessen.

| Priorität | Beschreibung | Reaktionszeit | Lösungszeit |
|---|---|---|---|
| 1 | Ausfall aller Systeme | 15 Minuten | 4 Stunden |
| 2 | Ausfall einzelner Dienste | 1 Stunde | 8 Stunden |
| 3 | Eingeschränkte Funktion | 4 Stunden | 3 Werktage |
| 4 | Anfrage oder Änderung | 1 Werktag | 10 Werktage |

Wird eine Lösungszeit überschritten, schreibt der Anbieter dem Kunden 5 % der Monatsgebühr gut.
""",
    "vertraege/dienstguete-druckerflotte.md": """# Dienstgütevereinbarung Druckerflotte

Auftragnehmer: Bürotechnik Weser GmbH, Bremen
Auftraggeber: Marlow Systems GmbH

Der Auftragnehmer betreut die 48 Multifunktionsgeräte an den Standorten Berlin und Hamburg. Für jede
Störung gelten je nach Dringlichkeit die folgenden Fristen; sie laufen montags bis freitags von 8 bis
17 Uhr.

| Prio | Reaktionszeit | Behebungszeit |
|---|---|---|
| A | 2 Stunden | 1 Werktag |
| B | 1 Werktag | 3 Werktage |
| C | 3 Werktage | 10 Werktage |

Verbrauchsmaterial wird innerhalb von zwei Werktagen nach Bestellung geliefert.
""",
    "protokolle/besprechung-umzug-2025-03.md": """# Protokoll der Besprechung zum Umzug des Lagers

Datum: 12.03.2025
Teilnehmer: Einkauf, Logistik, Hausverwaltung

Das Lager zieht im Juni in die neue Halle am Hafen. Die Logistik plant die Reihenfolge der Regale; der
Einkauf bestellt zwei neue Gabelstapler. Die Hausverwaltung klärt, wann die Halle übergeben wird und
ob die Beleuchtung vorher erneuert werden kann. Offene Fragen werden bis zur nächsten Sitzung geklärt.

| Aufgabe | Verantwortlich | Termin |
|---|---|---|
| Regalplan | Logistik | 31.03.2025 |
| Gabelstapler bestellen | Einkauf | 15.04.2025 |
| Übergabe der Halle | Hausverwaltung | 30.05.2025 |
""",
    "comptes-rendus/reunion-fournisseurs-2025-02.md": """# Compte rendu de la réunion fournisseurs

Date : 18/02/2025
Participants : achats, qualité, direction technique

La réunion a passé en revue les livraisons du trimestre et les retards constatés chez deux
fournisseurs. La qualité demande un contrôle à réception plus strict pour les câbles. La direction
technique présentera un plan de réduction des stocks au mois d'avril.

| Fournisseur | Retards | Action |
|---|---|---|
| Câbles Delorme | 3 | rappel écrit |
| Visserie Morel | 1 | aucune |
""",
}


@pytest.fixture(scope="module", autouse=True)
def _vectors(embedded_corpus) -> None:  # type: ignore[no-untyped-def]
    """Ranking by meaning is what this module tests: the corpus has its vectors here."""


@pytest.fixture(scope="module")
def languages(corpus, svc, tmp_path_factory) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    root = _write(tmp_path_factory.mktemp("languages"), LANGUAGE_DOCUMENTS)
    ingest(svc.kb, [root], "corpus-languages")
    return corpus


@pytest.fixture(scope="module")
def endpoint() -> Iterator[ScriptedEndpoint]:
    scripted = ScriptedEndpoint()
    with serve(scripted):
        yield scripted


@pytest.fixture
def endpoint_model(endpoint, monkeypatch):  # type: ignore[no-untyped-def]
    """New vectors are made by the scripted endpoint's model while the test runs."""
    monkeypatch.setenv("KEA_EMBEDDINGS_URL", endpoint.base_url)
    monkeypatch.setenv("KEA_EMBEDDINGS_MODEL", "bag-of-words")
    endpoint.embedding_inputs.clear()
    return endpoint


@pytest.mark.parametrize("case_id", ["sla-times", "contract-caps", "price-list-cables", "nordwerk-2025-positions"])
def test_ranking_puts_documents_with_wanted_rows_first(case_id, corpus, svc) -> None:  # type: ignore[no-untyped-def]
    case = _case(corpus, case_id)
    paths = _paths(svc)
    ids = list(paths)
    ranking = rank(svc, query_for(_reading(svc, case["message"])), ids, scope=CORPUS)
    textless = set(corpus["scanned"])  # a scanned page has no text to embed: it follows the ranked ones
    assert ranking.method == "meaning" and ranking.ranked == len(ids) - len(textless)
    assert sorted(ranking.document_ids) == sorted(ids)  # every document, none left out for its score
    assert {paths[i] for i in ranking.document_ids[ranking.ranked:]} == textless
    assert sorted(ranking.document_ids) == sorted(ids)  # every document, once
    wanted = set(case["documents_with_rows"])
    first = next(n for n, i in enumerate(ranking.document_ids, start=1) if paths[i] in wanted)
    print(f"{case_id}: first document with wanted rows at rank {first} of {len(ids)}")
    assert first <= 3, (case_id, first)


def test_unranked_documents_follow_in_their_given_order(corpus, svc, tmp_path) -> None:  # type: ignore[no-untyped-def]
    files = {f"plain-{n}.txt": f"Canteen menu, week {n}" for n in range(3)}
    ingest(svc.kb, [_write(tmp_path, {**files, "service.txt": "Service levels: response times"})],
           "unembedded", embed=False)
    *plain, worded = [d.id for d in svc.kb.resolve(Scope(collections=["unembedded"])).documents]
    corpus_ids = list(_paths(svc))[:20]
    given = [plain[2], *corpus_ids, plain[0], worded, plain[1]]
    ranking = rank(svc, "response times of the service level agreements", given, scope=Scope())
    # a document without vectors is placed by its words (the full-text ranking); one with neither follows
    assert ranking.method == "meaning" and ranking.ranked == 21
    assert ranking.document_ids[21:] == [plain[2], plain[0], plain[1]]
    assert sorted(ranking.document_ids[:21]) == sorted([*corpus_ids, worded])


def test_a_stopped_milvus_or_a_timeout_falls_back_to_keywords(corpus, svc) -> None:  # type: ignore[no-untyped-def]
    paths = _paths(svc)
    ids = list(paths)
    query = query_for(_reading(svc, _case(corpus, "sla-times")["message"]))
    assert rank(svc, query, ids, scope=CORPUS).method == "meaning"
    assert LocalMilvus.default().stop()
    fallback = rank(svc, query, ids, scope=CORPUS)
    assert fallback.method == "keywords" and "unavailable" in (fallback.note or "")
    assert sorted(fallback.document_ids) == sorted(ids)
    assert paths[fallback.document_ids[0]].startswith("slas/")
    # the next ranking starts the local server again
    assert rank(svc, query, ids, scope=CORPUS).method == "meaning"
    # a ranking that runs out of time is a failure too
    late = rank(svc, query, ids, scope=CORPUS, timeout_s=1e-9)
    assert late.method == "keywords" and sorted(late.document_ids) == sorted(ids)


async def test_an_unreachable_milvus_still_reads_every_document(corpus, svc) -> None:  # type: ignore[no-untyped-def]
    dead = _dead_services(svc)
    message = _case(corpus, "sla-times")["message"]
    values = await run_extraction(message, Profile(collections=["corpus"], path_glob="slas/**"), confirm="auto", services=dead)
    answer = values["answer"]
    assert answer["status"] == "done", answer["message"]
    in_scope = len(svc.kb.resolve(Scope(collections=["corpus"], path_glob="slas/**")).documents)
    assert answer["summary"]["documents_in_scope"] == in_scope == answer["summary"]["extracted"]
    reading = await OfflineEngine().read_request(message, svc.kb.scope_hint(CORPUS))
    sample = await asyncio.to_thread(choose_sample, dead, reading, list(_paths(svc)), scope=CORPUS)
    assert len(sample) == 5


def test_the_sample_holds_the_documents_with_wanted_rows(corpus, svc) -> None:  # type: ignore[no-untyped-def]
    paths = _paths(svc)
    case = _case(corpus, "sla-times")
    reading = _reading(svc, case["message"])
    by_meaning = choose_sample(svc, reading, list(paths), scope=CORPUS)
    assert len(by_meaning) == 5 and set(case["documents_with_rows"]) <= {paths[i] for i in by_meaning}
    # without vectors: the documents naming the supplier and the rows wanted, then a folder spread
    reading = _reading(svc, _case(corpus, "brightline-bulk")["message"])
    assert reading.document_conditions
    by_keywords = choose_sample(_dead_services(svc), reading, list(paths), scope=CORPUS)
    assert len(by_keywords) == 5
    assert all("brightline" in paths[i] for i in by_keywords), [paths[i] for i in by_keywords]
    spread = choose_sample(_dead_services(svc), Reading(request="?"), list(paths), scope=CORPUS)
    assert len({paths[i].rpartition("/")[0] for i in spread}) == 5  # one from each of the largest folders


def test_rank_never_returns_documents_the_user_may_not_read(svc, tmp_path) -> None:  # type: ignore[no-untyped-def]
    ingest(svc.kb, [_write(tmp_path / "open", {"sla.txt": "Service level agreement: response time 4 hours"})], "open-kb")
    ingest(svc.kb, [_write(tmp_path / "closed", {"sla.txt": "Service level agreement: response time 1 hour"})], "closed-kb")
    svc.kb.grant("open-kb", "alice")
    everything = [d.id for d in svc.kb.resolve(Scope(collections=["open-kb", "closed-kb"])).documents]
    alice = Scope(user="alice")
    readable = [d.id for d in svc.kb.resolve(alice).documents if d.id in everything]
    assert len(everything) == 2 and len(readable) == 1
    assert rank(svc, "response time", everything, scope=alice).document_ids == readable
    assert rank(_dead_services(svc), "response time", everything, scope=alice).document_ids == readable
    assert choose_sample(svc, Reading(request="response time", columns=["Response time"]), everything,
                         scope=alice) == readable
    assert rank(svc, "response time", everything, scope=Scope(user="mallory")).document_ids == []


def test_collections_of_different_models_merge_by_reciprocal_rank_fusion(svc, endpoint_model, tmp_path,
                                                                          monkeypatch) -> None:  # type: ignore[no-untyped-def]
    texts = {
        "a-freight.txt": "Freight invoice: pallets shipped by road carrier",
        "b-cables.txt": "Cable order: copper cables and connectors",
        "c-lunch.txt": "Team lunch menu for the offsite",
    }
    report = ingest(svc.kb, [_write(tmp_path / "one", texts)], "by-endpoint")
    assert report.embedding_model.startswith("bag-of-words at http://127.0.0.1") and report.embedded == 3
    monkeypatch.delenv("KEA_EMBEDDINGS_URL")
    report = ingest(svc.kb, [_write(tmp_path / "two", texts)], "by-minilm")
    assert report.embedding_model == LocalMiniLM.spec.model
    one = {d.path: d.id for d in svc.kb.resolve(Scope(collections=["by-endpoint"])).documents}
    two = {d.path: d.id for d in svc.kb.resolve(Scope(collections=["by-minilm"])).documents}
    endpoint_model.embedding_inputs.clear()
    ranking = rank(svc, "copper cables", [*one.values(), *two.values()], scope=Scope())
    assert ranking.method == "meaning" and ranking.ranked == 6
    # the endpoint embedded the query for its collection; each list's best comes first, then the seconds
    assert endpoint_model.embedding_inputs == [("bag-of-words", ["copper cables"])]
    assert set(ranking.document_ids[:2]) == {one["b-cables.txt"], two["b-cables.txt"]}


def test_a_model_change_embeds_the_collection_again(svc, endpoint_model, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    root = _write(tmp_path, {"sla.txt": "Priority P1: response time one hour", "menu.txt": "Soup and bread"})
    assert ingest(svc.kb, [root], "switching").embedded == 2
    collection_id = svc.kb.ensure_collection("switching")
    before = svc.vectors.sources([collection_id])[collection_id]
    assert before.spec.model == "bag-of-words"
    monkeypatch.delenv("KEA_EMBEDDINGS_URL")
    again = ingest(svc.kb, [root], "switching")
    assert again.unchanged and again.embedded == 2 and again.embedding_model == LocalMiniLM.spec.model
    after = svc.vectors.sources([collection_id])[collection_id]
    assert after.spec == LocalMiniLM.spec and after.milvus_collection != before.milvus_collection
    assert not svc.vectors.client().has_collection(before.milvus_collection)
    endpoint_model.embedding_inputs.clear()
    ids = [d.id for d in svc.kb.resolve(Scope(collections=["switching"])).documents]
    ranking = rank(svc, "how fast is the response to a priority one incident", ids, scope=Scope())
    assert ranking.method == "meaning" and endpoint_model.embedding_inputs == []
    assert ingest(svc.kb, [root], "switching").embedded == 0  # in step now: nothing to embed


def test_a_changed_document_replaces_its_chunks_and_a_pruned_ones_go(svc, tmp_path) -> None:  # type: ignore[no-untyped-def]
    root = _write(tmp_path, {"long.txt": " ".join(f"word{n}" for n in range(500)), "short.txt": "one line"})
    ingest(svc.kb, [root], "chunked")
    ids = {d.path: d.id for d in svc.kb.resolve(Scope(collections=["chunked"])).documents}
    assert _chunks(svc, "chunked", ids["long.txt"]) == 6  # 120-word windows overlapping by 30
    (root / "long.txt").write_text("now a single short line", encoding="utf-8")
    assert ingest(svc.kb, [root], "chunked").replaced == ["long.txt"]
    assert _chunks(svc, "chunked", ids["long.txt"]) == 1
    (root / "long.txt").unlink()
    assert ingest(svc.kb, [root], "chunked", prune=True).pruned == ["long.txt"]
    assert _chunks(svc, "chunked", ids["long.txt"]) == 0
    assert _chunks(svc, "chunked", ids["short.txt"]) == 1


def test_a_failing_embedding_model_leaves_the_documents_stored(svc, endpoint_model, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from evals.endpoint import failure

    endpoint_model.embed_script = lambda model, texts: failure(400, "model not loaded")
    try:
        report = ingest(svc.kb, [_write(tmp_path, {"a.txt": "Lunch menu", "b.txt": "Cable order"})], "unembeddable")
    finally:
        endpoint_model.embed_script = ScriptedEndpoint().embed_script
    assert report.indexed == ["a.txt", "b.txt"] and "could not be made" in (report.embedding_error or "")
    ids = [d.id for d in svc.kb.resolve(Scope(collections=["unembeddable"])).documents]
    ranking = rank(svc, "cable", ids, scope=Scope())
    assert ranking.method == "keywords" and ranking.document_ids == ids[::-1] and ranking.ranked == 1
    assert ingest(svc.kb, [tmp_path], "unembeddable").embedded == 2  # the next ingest catches up
    assert rank(svc, "cable", ids, scope=Scope()).method == "meaning"


def test_the_local_server_serves_several_processes_and_the_cli_manages_it(corpus, svc, tmp_path) -> None:  # type: ignore[no-untyped-def]
    rank(svc, "anything", list(_paths(svc))[:3], scope=CORPUS)  # this process is connected to the server
    script = (
        "from tools.services import services\nfrom tools.knowledge.ranking import rank\n"
        "from core.selection import Scope\n"
        "svc = services(); ids = [d.id for d in svc.kb.resolve(Scope(collections=['corpus'])).documents]\n"
        "print(rank(svc, 'service level agreement response times', ids, scope=Scope(collections=['corpus'])).method)"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    other = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120)
    assert other.stdout.strip() == "meaning", other.stderr[-2000:]
    kea = [sys.executable, "-m", "server.cli", "services"]
    status = subprocess.run([*kea, "status"], capture_output=True, text=True, env=env, timeout=60)
    assert f"Milvus Lite: running on 127.0.0.1:{LocalMilvus.default().port()}" in status.stdout, status.stdout
    # stop, in a home of its own (this session's PostgreSQL keeps running)
    home = tmp_path / "home"
    server = LocalMilvus(home / "milvus")
    first = server.ensure_running()
    assert server.ensure_running() == first and server.is_running()
    alone = {**env, "KEA_HOME": str(home)}
    stopped = subprocess.run([*kea, "stop"], capture_output=True, text=True, env=alone, timeout=60)
    assert "PostgreSQL was not running." in stopped.stdout and "Milvus Lite stopped." in stopped.stdout
    assert not server.is_running()
    status = subprocess.run([*kea, "status"], capture_output=True, text=True, env=alone, timeout=60)
    assert "Milvus Lite: stopped (starts on first use)" in status.stdout


def test_an_english_request_ranks_slas_in_every_language_first(languages, svc) -> None:  # type: ignore[no-untyped-def]
    paths = _paths(svc, MIXED)
    ids = list(paths)
    slas = {p for p in paths.values() if p.startswith("slas/")} | {
        "vertraege/sla-rheinhost-rechenzentrum.md", "vertraege/dienstguete-druckerflotte.md"}
    message = "Service, priority, response time and resolution time from every service level agreement"
    reading = _reading(svc, message, MIXED)
    ranking = rank(svc, query_for(reading), ids, scope=MIXED)
    sample = choose_sample(svc, reading, ids, scope=MIXED)
    places = {paths[i]: n for n, i in enumerate(ranking.document_ids, start=1)}
    print(f"\nreading columns {reading.columns}; {len(ids)} documents; method {ranking.method}")
    print("SLA ranks:", {p: places[p] for p in sorted(slas)})
    print("first 8:", [paths[i] for i in ranking.document_ids[:8]])
    print("sample:", [paths[i] for i in sample])
    assert ranking.method == "meaning" and sorted(ranking.document_ids) == sorted(ids)
    assert {paths[i] for i in ranking.document_ids[: len(slas)]} == slas
    assert {paths[i] for i in sample} == slas


_REPLICA = """
import asyncio, json, os
import pymilvus
tokens = []
_init = pymilvus.MilvusClient.__init__
def _recording(self, *args, **kwargs):
    tokens.append(kwargs.get("token"))
    _init(self, *args, **kwargs)
pymilvus.MilvusClient.__init__ = _recording
from tools.engines.offline import OfflineEngine
from tools.knowledge.ranking import query_for, rank
from core.selection import Scope
from tools.services import services
svc = services()
scope = Scope(collections=["corpus", "corpus-languages"])
ids = [d.id for d in svc.kb.resolve(scope).documents]
reading = asyncio.run(OfflineEngine().read_request(os.environ["MESSAGE"], svc.kb.scope_hint(scope)))
ranking = rank(svc, query_for(reading), ids, scope=scope)
print(json.dumps({"method": ranking.method, "order": ranking.document_ids, "tokens": tokens}))
"""


def test_two_processes_on_one_milvus_server_with_a_token_rank_alike(languages, svc) -> None:  # type: ignore[no-untyped-def]
    """Two replicas: separate processes pointed at one Milvus server by URI, with a token."""
    import json

    message = "Service, priority, response time and resolution time from every service level agreement"
    uri = LocalMilvus.default().uri
    env = {**os.environ, "PYTHONPATH": str(ROOT), "KEA_MILVUS_URI": uri, "KEA_MILVUS_TOKEN": "root:Milvus",
           "MESSAGE": message}
    replicas = [subprocess.Popen([sys.executable, "-c", _REPLICA], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 text=True, env=env) for _ in range(2)]
    answers = []
    for replica in replicas:
        out, err = replica.communicate(timeout=180)
        assert replica.returncode == 0, err[-2000:]
        answers.append(json.loads(out.strip().splitlines()[-1]))
    here = rank(svc, query_for(_reading(svc, message, MIXED)), list(_paths(svc, MIXED)), scope=MIXED)
    for answer in answers:
        assert answer["method"] == "meaning" and answer["tokens"] == ["root:Milvus"]
        assert answer["order"] == here.document_ids
