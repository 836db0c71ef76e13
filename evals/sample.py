"""Evaluation: how many of the five sample documents hold wanted rows, in a mixed collection.

    python -m evals.sample

Above 100 documents Kea first extracts a sample of five documents (decision 3 of record 001).
Here each generated corpus is one mixed collection of over 100 documents (176 and 105 files);
for every case whose wanted rows stand in only a handful of them (1 to 10 documents), the
request is read by the offline engine and ``choose_sample`` picks five of the whole
collection's documents. Reported per case and in sum: how many of the five hold wanted rows
(of at most min(5, documents with rows)), and the rank of the first document with wanted
rows in ``rank``'s order of the whole collection. Three ways side by side, in one run:
ranking by meaning (the local MiniLM model, Milvus Lite), the keyword fallback (the same
knowledge base with a Milvus that does not answer) and a folder spread alone (the sample the
record rejected). Written to ``evals/results/sample.json``.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from evals.bench.common import RESULTS, isolated_home, machine, save

HANDFUL = 10
K = 5


def _cases(generate: Any, folder: Path) -> list[dict[str, Any]]:
    truth = generate(folder)
    return [c for c in truth["cases"] if c["status"] == "done" and 1 <= len(c["documents_with_rows"]) <= HANDFUL]


def _first(order: list[int], paths: dict[int, str], wanted: set[str]) -> int | None:
    return next((n for n, i in enumerate(order, start=1) if paths[i] in wanted), None)


def run() -> dict[str, Any]:
    from checkpoints.cluster import free_port
    from core.selection import Scope
    from corpora.first import generate as generate_corpus
    from corpora.second import generate as generate_corpus2
    from tools.engines.offline import OfflineEngine
    from tools.knowledge.ingest import ingest
    from tools.knowledge.ranking import _folder_spread, choose_sample, query_for, rank
    from tools.knowledge.vectors import VectorIndex
    from tools.services import Services, services

    rows: list[dict[str, Any]] = []
    collections: dict[str, int] = {}
    with isolated_home() as home:
        svc = services()
        dead = Services(svc.database_url, svc.kb, svc.objects, svc.rows,
                        VectorIndex(svc.kb, uri=f"http://127.0.0.1:{free_port()}", timeout_s=2))
        for name, generate in (("corpus", generate_corpus), ("corpus2", generate_corpus2)):
            cases = _cases(generate, home / name)
            ingest(svc.kb, [home / name / "documents"], name)
            scope = Scope(collections=[name])
            documents = svc.kb.resolve(scope).documents
            paths = {d.id: d.path for d in documents}
            ids = list(paths)
            collections[name] = len(ids)
            hint = svc.kb.scope_hint(scope)
            for case in cases:
                reading = asyncio.run(OfflineEngine().read_request(case["message"], hint))
                wanted = set(case["documents_with_rows"])
                query = query_for(reading)
                by_meaning = rank(svc, query, ids, scope=scope)
                by_keywords = rank(dead, query, ids, scope=scope)
                samples = {
                    "meaning": choose_sample(svc, reading, ids, K, scope=scope),
                    "keywords": choose_sample(dead, reading, ids, K, scope=scope),
                    "folder_spread": _folder_spread(svc.kb, scope, ids, K),
                }
                rows.append({
                    "collection": name,
                    "case": case["id"],
                    "documents": len(ids),
                    "documents_with_rows": len(wanted),
                    "best_possible": min(K, len(wanted)),
                    "method": by_meaning.method,
                    "first_relevant_rank": {"meaning": _first(by_meaning.document_ids, paths, wanted),
                                            "keywords": _first(by_keywords.document_ids, paths, wanted)},
                    "sample_hits": {way: sum(paths[i] in wanted for i in chosen) for way, chosen in samples.items()},
                })
    best = sum(r["best_possible"] for r in rows)
    summary = {
        way: {
            "sample_hits": sum(r["sample_hits"][way] for r in rows),
            "of_possible": best,
            "cases_with_a_hit": sum(r["sample_hits"][way] > 0 for r in rows),
        }
        for way in ("meaning", "keywords", "folder_spread")
    }
    for way in ("meaning", "keywords"):
        ranks = sorted(r["first_relevant_rank"][way] or 10**6 for r in rows)
        summary[way]["median_first_relevant_rank"] = ranks[len(ranks) // 2]
        summary[way]["first_relevant_in_top_5"] = sum(x <= K for x in ranks)
    return {"machine": machine(), "collections": collections, "cases": len(rows), "k": K,
            "summary": summary, "rows": rows}


def describe(result: dict[str, Any]) -> list[str]:
    s, n = result["summary"], result["cases"]
    lines = [f"{n} cases, each in a mixed collection of {', '.join(f'{v} ({k})' for k, v in result['collections'].items())} documents"]
    for way, label in (("meaning", "by meaning"), ("keywords", "keyword fallback"), ("folder_spread", "folder spread")):
        w = s[way]
        line = (f"Sample {label}: {w['sample_hits']} of {w['of_possible']} possible documents with wanted rows; "
                f"a hit in {w['cases_with_a_hit']} of {n} cases")
        if "median_first_relevant_rank" in w:
            line += (f"; first relevant document at median rank {w['median_first_relevant_rank']}, "
                     f"in the top 5 for {w['first_relevant_in_top_5']} of {n}")
        lines.append(line)
    return lines


def main() -> None:
    result = run()
    path = save("sample", result, RESULTS)
    print("\n".join(describe(result)))
    for r in result["rows"]:
        print(json.dumps({k: r[k] for k in ("case", "documents_with_rows", "first_relevant_rank", "sample_hits")}))
    print(f"Saved {path}")


if __name__ == "__main__":
    main()
