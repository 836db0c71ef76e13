"""Benchmark: ranking latency over 10,000 documents (Milvus Lite) and embedding throughput,
beside the keyword scan that ranking falls back to, in the same run.

    python -m evals.bench.ranking [--documents 10000]

The documents are the generated corpus's pages, copied with a number of their own until
there are ``--documents`` of them (the same words in many documents, as in a real
collection), stored in PostgreSQL and chunked as ingestion chunks them. Embedding 10,000
documents with the local model would take most of an hour on two cores, so their chunk
vectors are the local model's vectors of the corpus's chunks with a little noise per copy;
the query is embedded by the real model on every call, and the search is Kea's real one: a
grouping search per document over the given ids in the local Milvus Lite server. Embedding
throughput is measured apart, on the corpus's real chunks and on short queries. The keyword
scan is ``rank``'s fallback on the same documents and the same terms. Figures: best of 5.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import random
import time
from typing import Any

from evals.bench.common import best_of, isolated_home, machine, save

QUERIES = [
    "Priority, response time and resolution time from the SLAs",
    "Supplier and liability cap of every contract where liability cap is below 1,000,000",
    "Every position on Nordwerk's 2025 invoices with description, quantity and unit price",
]


class _CopiedVectors:
    """The local model's spec, answering each chunk of a copy with its original's vector plus noise."""

    def __init__(self, model: Any, originals: dict[str, list[float]]) -> None:
        self.spec = model.spec
        self._model = model
        self._originals = originals

    def embed(self, texts: list[str]) -> list[list[float]]:
        out = []
        for text in texts:
            base = _original(text)
            if base not in self._originals:
                self._originals[base] = self._model.embed([base])[0]
            rng = random.Random(hashlib.sha256(text.encode()).digest())
            noisy = [v + rng.gauss(0, 0.01) for v in self._originals[base]]
            norm = sum(v * v for v in noisy) ** 0.5
            out.append([v / norm for v in noisy])
        return out


def _original(text: str) -> str:
    """A chunk of a copy without its copy number (the first line names the copy)."""
    label, _, body = text.partition("\n")
    return " ".join(w for w in label.split() if not w.startswith("copy")) + "\n" + body


def _copy_documents(kb: Any, source: str, target_id: int, count: int) -> int:
    """``count`` documents into collection ``target_id``, each a numbered copy of one of ``source``'s."""
    with kb.pool.connection() as conn:
        originals = conn.execute(
            "SELECT d.id, d.path, d.page_count FROM documents d JOIN collections c ON c.id = d.collection_id"
            " WHERE c.name = %s AND d.page_count > 0 ORDER BY d.path",
            (source,),
        ).fetchall()
        pages = {}
        for row in conn.execute(
            "SELECT document_id, page_no, text FROM document_pages WHERE document_id = ANY(%s) ORDER BY page_no",
            ([o["id"] for o in originals],),
        ):
            pages.setdefault(row["document_id"], []).append(row["text"])
        with conn.transaction():
            with conn.cursor().copy(
                "COPY documents (collection_id, path, title, media_type, size, sha256, page_count) FROM STDIN"
            ) as copy:
                for n in range(count):
                    o = originals[n % len(originals)]
                    folder, _, name = o["path"].rpartition("/")
                    copy.write_row((target_id, f"{folder}/copy{n:05d}-{name}".lstrip("/"), "", "text/plain", 1000,
                                    hashlib.sha256(str(n).encode()).hexdigest(), o["page_count"]))
            ids = conn.execute("SELECT id, path FROM documents WHERE collection_id = %s", (target_id,)).fetchall()
            by_path = {o["path"]: o["id"] for o in originals}
            with conn.cursor().copy("COPY document_pages (document_id, page_no, text) FROM STDIN") as copy:
                for row in ids:
                    folder, _, name = row["path"].rpartition("/")
                    original = by_path[(folder + "/" if folder else "") + name.split("-", 1)[1]]
                    for number, text in enumerate(pages[original], start=1):
                        copy.write_row((row["id"], number, text))
        conn.execute("ANALYZE documents")
        conn.execute("ANALYZE document_pages")
    return len(ids)


def run(documents: int) -> dict[str, Any]:
    from core.selection import Scope
    from corpora.first import generate
    from tools.engines.offline import OfflineEngine
    from tools.knowledge.chunking import chunk_pages, document_label
    from tools.knowledge.embeddings import LocalMiniLM, register_embedder
    from tools.knowledge.ingest import ingest
    from tools.knowledge.ranking import _by_keywords, query_for, rank
    from tools.services import services

    with isolated_home() as home:
        svc = services()
        generate(home / "corpus")
        ingest(svc.kb, [home / "corpus" / "documents"], "corpus", embed=False)
        model = LocalMiniLM()
        model.embed(["warm up"])

        # embedding throughput on the corpus's real chunks and on short queries
        chunks = []
        for d in svc.kb.resolve(Scope(collections=["corpus"])).documents:
            text = svc.kb.read_document(Scope(), d.id)
            chunks += [c.text for c in chunk_pages(text.pages, document_label(d.path, text.title))]
        sample = chunks[:: max(1, len(chunks) // 200)][:200]
        start = time.perf_counter()
        model.embed(sample)
        chunk_seconds = time.perf_counter() - start
        queries = [f"{q} ({n})" for n in range(34) for q in QUERIES][:100]
        start = time.perf_counter()
        model.embed(queries)
        query_seconds = time.perf_counter() - start

        # 10,000 documents with their chunk vectors in Milvus Lite
        target = svc.kb.ensure_collection("large")
        stored = _copy_documents(svc.kb, "corpus", target, documents)
        register_embedder(_CopiedVectors(model, {}))
        start = time.perf_counter()
        synced = svc.vectors.sync(target)
        sync_seconds = time.perf_counter() - start
        register_embedder(model)
        scope = Scope(collections=["large"])
        ids = [d.id for d in svc.kb.resolve(scope).documents]
        random.Random(7).shuffle(ids)
        hint = svc.kb.scope_hint(Scope(collections=["corpus"]))
        readings = [asyncio.run(OfflineEngine().read_request(q, hint)) for q in QUERIES]

        rank(svc, query_for(readings[0]), ids, scope=scope)  # loads the collection into the server's memory
        per_query = []
        for reading in readings:
            query = query_for(reading)
            meaning_s, ranking = best_of(5, lambda: rank(svc, query, ids, scope=scope))
            assert ranking.method == "meaning" and len(ranking.document_ids) == len(ids)
            subset = ids[:1000]
            subset_s, _ = best_of(5, lambda: rank(svc, query, subset, scope=scope))
            keywords_s, placed = best_of(5, lambda: _by_keywords(svc.kb, scope, ids, query.terms))
            embed_s, _ = best_of(5, lambda: model.embed([query.text]))
            per_query.append({
                "query": reading.request,
                "meaning_seconds": round(meaning_s, 4),
                "meaning_1000_ids_seconds": round(subset_s, 4),
                "query_embedding_seconds": round(embed_s, 4),
                "keyword_scan_seconds": round(keywords_s, 4),
                "keyword_scan_placed": len(placed),
                "keywords_over_meaning": round(keywords_s / meaning_s, 2),
            })
    median = sorted(per_query, key=lambda q: q["meaning_seconds"])[len(per_query) // 2]
    return {
        "machine": machine(),
        "embedding": {
            "model": model.spec.model,
            "chunks": len(sample),
            "chunks_per_second": round(len(sample) / chunk_seconds, 1),
            "queries": len(queries),
            "queries_per_second": round(len(queries) / query_seconds, 1),
        },
        "index": {
            "documents": stored,
            "chunks": synced.chunks,
            "sync_seconds_with_copied_vectors": round(sync_seconds, 1),
        },
        "ranking": {
            "documents": len(ids),
            "queries": per_query,
            "median_meaning_seconds": median["meaning_seconds"],
            "median_keyword_scan_seconds": median["keyword_scan_seconds"],
            "median_keywords_over_meaning": median["keywords_over_meaning"],
        },
    }


def describe(r: dict[str, Any]) -> list[str]:
    e, i, k = r["embedding"], r["index"], r["ranking"]
    lines = [
        f"Embedding ({e['model']}): {e['chunks_per_second']} chunks/s, {e['queries_per_second']} queries/s",
        f"Index: {i['documents']:,} documents, {i['chunks']:,} chunks in Milvus Lite",
    ]
    for q in k["queries"]:
        lines.append(
            f"rank over {k['documents']:,} documents: {1000 * q['meaning_seconds']:.0f} ms by meaning "
            f"(query embedding {1000 * q['query_embedding_seconds']:.0f} ms; 1,000 ids {1000 * q['meaning_1000_ids_seconds']:.0f} ms), "
            f"keyword scan {1000 * q['keyword_scan_seconds']:.0f} ms ({q['keywords_over_meaning']}x) — {q['query'][:40]}"
        )
    return lines


def draw(axes: Any, r: dict[str, Any]) -> None:
    """The chart: ranking by meaning against the keyword scan, per query, over the same documents."""
    queries = r["ranking"]["queries"]
    xs = range(len(queries))
    width = 0.38
    meaning = axes.bar([x - width / 2 for x in xs], [1000 * q["meaning_seconds"] for q in queries], width,
                       label="rank by meaning (Kea, Milvus Lite)", color="#1f6f8b")
    scan = axes.bar([x + width / 2 for x in xs], [1000 * q["keyword_scan_seconds"] for q in queries], width,
                    label="keyword scan (the fallback)", color="#c0504d")
    for bars in (meaning, scan):
        axes.bar_label(bars, labels=[f"{b.get_height():.0f} ms" for b in bars], padding=2, fontsize=8)
    axes.set_xticks(list(xs), [q["query"][:28] + "…" for q in queries], fontsize=7)
    axes.set_ylabel("milliseconds (best of 5)")
    axes.set_title(f"Ranking {r['ranking']['documents']:,} documents")
    axes.legend(fontsize=8)


def section(r: dict[str, Any]) -> tuple[str, list[str]]:
    """The results page's table row and section."""
    e, i, k = r["embedding"], r["index"], r["ranking"]
    row = (
        f"| ranking: {k['documents']:,} documents, {i['chunks']:,} chunks | {1000 * k['median_meaning_seconds']:.0f} ms "
        f"by meaning (median query) | keyword scan {1000 * k['median_keyword_scan_seconds']:.0f} ms "
        f"({k['median_keywords_over_meaning']}x) | – | – |"
    )
    return row, [
        "### Ranking",
        "",
        (
            f"`rank` over {k['documents']:,} documents ({i['chunks']:,} chunk vectors in the local Milvus Lite server), "
            f"each query embedded by {e['model']} on every call: median {1000 * k['median_meaning_seconds']:.0f} ms; "
            f"the keyword scan it falls back to takes {1000 * k['median_keyword_scan_seconds']:.0f} ms on the same "
            f"documents ({k['median_keywords_over_meaning']}x). Embedding: {e['chunks_per_second']} chunks/s of the "
            f"corpus's chunks and {e['queries_per_second']} short queries/s on this machine's CPUs. The chunk vectors "
            "of the large collection are the model's vectors of the corpus's chunks with noise per copy (embedding "
            "10,000 documents would take most of an hour); how well ranking orders is measured by "
            "`python -m evals.sample` (`evals/results/sample.json`)."
        ),
        *_sample_lines(),
    ]


def _sample_lines() -> list[str]:
    """The sample evaluation's figures, when it has been run."""
    import json

    from evals.bench.common import RESULTS

    path = RESULTS / "sample.json"
    if not path.exists():
        return []
    sample = json.loads(path.read_text(encoding="utf-8"))
    s, n = sample["summary"], sample["cases"]
    return [
        "",
        (
            f"The five-document sample (`python -m evals.sample`, {n} cases whose wanted rows stand in 1 to 10 "
            f"documents of a mixed collection of {' or '.join(str(v) for v in sample['collections'].values())} "
            f"documents): by meaning {s['meaning']['sample_hits']} of {s['meaning']['of_possible']} possible "
            f"documents with wanted rows, a hit in {s['meaning']['cases_with_a_hit']} cases, the first relevant "
            f"document at median rank {s['meaning']['median_first_relevant_rank']}; the keyword fallback "
            f"{s['keywords']['sample_hits']} (a hit in {s['keywords']['cases_with_a_hit']}); a folder spread alone "
            f"{s['folder_spread']['sample_hits']} (a hit in {s['folder_spread']['cases_with_a_hit']})."
        ),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--documents", type=int, default=10_000, help="documents in the ranked collection")
    args = parser.parse_args()
    result = run(args.documents)
    path = save("ranking", result)
    print("\n".join(describe(result)))
    print(f"Saved {path}")


if __name__ == "__main__":
    main()
