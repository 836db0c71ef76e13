"""Ranking documents by meaning: it orders, it never filters.

Two functions for the graph and the agent (import exactly these names)::

    from tools.knowledge.ranking import choose_sample, rank

    rank(svc, query: str, document_ids: list[int], *, scope: Scope,
         terms: Sequence[str] | None = None, timeout_s: float = 10.0) -> Ranking
    choose_sample(svc, reading: Reading, document_ids: list[int], k: int = 5, *,
                  scope: Scope) -> list[int]

``svc`` is ``tools.services.Services`` (or anything with ``.kb`` and ``.vectors``); ``scope``
is the profile's scope with the asking user (``profile.scope``): an id outside it is never
returned, whatever the caller passes. ``rank`` returns a ``Ranking`` whose ``document_ids``
hold every given id in scope exactly once: the ranked ones first (at most the best 1,000 of
each vector source), the rest after in their given order, so no document is ever left out for
its score. ``Ranking.method`` names how it was ranked: ``"meaning"`` (a grouping search per
document in Milvus, one search per vector source, each query embedded with the model that
embedded that collection, and a full-text ranking in each document's own language that also
matches the names the scope's headers give the wanted columns, all merged by reciprocal rank
fusion), ``"keywords"`` (the fallback when ranking by meaning fails, times out or places
nothing: how many of the terms each document's text or path contains) or
``"unranked"`` (neither placed anything; the given order). ``choose_sample`` returns up to
``k`` ids, the documents most likely to hold wanted rows for ``reading``: by meaning, else
those containing the identifying terms (document conditions) and row terms, filled up by a
spread over the largest folders. ``query_for(reading)`` is the one place a reading becomes
query text and terms.
"""

from __future__ import annotations

import logging
import re
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from core.reading import Reading
from core.selection import Scope
from tools.engines.columns import match_column
from tools.knowledge.chunking import document_label
from tools.knowledge.embeddings import embedder_for

log = logging.getLogger(__name__)

RRF_K = 60
KEYWORD_BUDGET_MS = 3000
DEFAULT_TIMEOUT_S = 10.0
_STOP = frozenset(
    "the and for with from that this every all any each where which what who whose are was were is of in on at to by "
    "than more less below above under over between list show give me my our their its his her".split()
)


@dataclass(frozen=True)
class Ranking:
    document_ids: list[int]  # every given id in scope, ranked ones first
    method: Literal["meaning", "keywords", "unranked"]
    ranked: int = 0  # how many of document_ids the method placed (the first ``ranked``)
    note: str | None = None  # a sentence for the user when ranking by meaning did not work


@dataclass(frozen=True)
class RankQuery:
    text: str  # what is embedded
    terms: list[tuple[str, int]]  # (term, weight) for the keyword scan and the full-text ranking
    request: str = ""  # the request in the user's words (its words are matched too); else ``text``
    columns: tuple[str, ...] = ()  # the terms that are only columns: matched as the scope's headers name them


def query_for(reading: Reading) -> RankQuery:
    """The query a reading ranks with: the text embedded and the weighted terms of the keyword scan.

    The text is the request in the user's words, then what the reading made of it: document
    conditions, the row condition, row terms, columns and places (as words). The terms weigh
    what identifies a document (4) over the rows wanted (2) and the columns (1).
    """
    identifying = list(reading.document_conditions)
    rows = [*reading.row_terms, *(c.value for c in reading.conditions if c.op in ("contains", "equals") and c.value)]
    condition = reading.row_condition or "; ".join(c.text for c in reading.conditions if c.text)
    places = [document_label(p.value.replace("*", " ")) for p in reading.places]
    parts = [
        " ".join(identifying),
        condition,
        ", ".join(reading.row_terms),
        ", ".join(reading.columns),
        ", ".join(places),
    ]
    text = ". ".join(p for p in [reading.request, *parts] if p.strip())
    terms: dict[str, tuple[str, int]] = {}  # lower-cased term -> (term, its highest weight)
    for weight, group in ((4, identifying), (2, rows), (1, reading.columns)):
        for term in (t.strip() for t in group):
            if len(term) >= 2 and term.lower() not in terms:
                terms[term.lower()] = (term, weight)
    columns = tuple(term for term, weight in terms.values() if weight == 1)
    return RankQuery(text, list(terms.values()), reading.request, columns)


def _words(text: str) -> list[tuple[str, int]]:
    words = [w for w in re.findall(r"[\w][\w.'-]*[\w]|\w", text.lower()) if len(w) >= 3 and w not in _STOP]
    return [(w, 1) for w in dict.fromkeys(words)]


# -- rank ----------------------------------------------------------------------------------------


def rank(
    svc: Any,
    query: str | RankQuery,
    document_ids: Sequence[int],
    *,
    scope: Scope,
    terms: Sequence[str] | None = None,
    timeout_s: float = DEFAULT_TIMEOUT_S,
) -> Ranking:
    """Order ``document_ids`` by how well their chunks answer ``query``; every id in scope stays."""
    if isinstance(query, RankQuery):
        text, weighted, words = query.text, query.terms, _words(query.request or query.text)
        columns = frozenset(c.lower() for c in query.columns)
    else:
        text, weighted = query, ([(t, 1) for t in terms] if terms is not None else _words(query))
        words, columns = _words(query), frozenset()
    given = list(dict.fromkeys(int(i) for i in document_ids))
    readable = svc.kb.locations(scope, given)
    ids = [i for i in given if i in readable]
    if len(ids) < 2:
        return Ranking(ids, "unranked")  # nothing to order: no model is loaded, no server started
    note = None
    try:
        placed = _by_meaning(svc, text, ids, readable, timeout_s, scope, weighted, words, columns)
        if placed:
            return _ordered(ids, placed, "meaning")
        note = "No document in scope has vectors yet; the documents were ordered by keywords."
    except Exception:  # noqa: BLE001 - ranking only orders: any failure falls back to the keyword scan
        log.warning("ranking by meaning failed; ordering by keywords", exc_info=True)
        svc.vectors.reset()  # connect afresh next time (a restarted local server, another port)
        note = "Ranking by meaning is unavailable just now; the documents were ordered by keywords."
    try:
        placed = _by_keywords(svc.kb, scope, ids, weighted)
    except Exception:  # noqa: BLE001
        log.warning("the keyword scan for ranking failed; keeping the given order", exc_info=True)
        placed = []
    if placed:
        return _ordered(ids, placed, "keywords", note)
    return Ranking(ids, "unranked", 0, note)


def _ordered(ids: list[int], placed: list[int], method: Literal["meaning", "keywords"], note: str | None = None) -> Ranking:
    given = set(ids)
    first = list(dict.fromkeys(i for i in placed if i in given))
    chosen = set(first)
    return Ranking(first + [i for i in ids if i not in chosen], method, len(first), note)


def _by_meaning(svc: Any, text: str, ids: list[int], readable: dict[int, tuple[int, str]], timeout_s: float,
                scope: Scope | None = None, terms: Sequence[tuple[str, int]] = (),
                words: Sequence[tuple[str, int]] = (), columns: frozenset[str] = frozenset()) -> list[int]:
    """One grouping search per vector source, each with its own model, and the full-text ranking in
    each document's language; merged by reciprocal rank fusion."""
    deadline = time.monotonic() + timeout_s
    by_collection: dict[int, list[int]] = defaultdict(list)
    for i in ids:
        by_collection[readable[i][0]].append(i)
    sources = svc.vectors.sources(list(by_collection))
    if not sources:
        return []
    queries: dict[Any, list[float]] = {}
    lists: list[list[int]] = []
    for collection_id, source in sources.items():
        if source.spec not in queries:
            queries[source.spec] = embedder_for(source.spec).embed([text])[0]
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError(f"ranking took longer than {timeout_s:g} s")
        lists.append(svc.vectors.search(source, queries[source.spec], by_collection[collection_id], timeout_s=left))
    if scope is not None and (terms or words):
        left_ms = int((deadline - time.monotonic()) * 1000)
        try:
            lists.append(_by_terms(svc.kb, scope, ids, terms, words, min(KEYWORD_BUDGET_MS, max(left_ms, 1)),
                                   columns))
        except Exception:  # noqa: BLE001 - the vectors alone still order the documents
            log.warning("the full-text ranking failed; ranking by the vectors alone", exc_info=True)
    return reciprocal_rank_fusion(lists)


def reciprocal_rank_fusion(lists: Sequence[Sequence[int]], k: int = RRF_K) -> list[int]:
    """Merge ranked lists: score(d) = sum of 1 / (k + rank of d in each list); ties keep list order."""
    scores: dict[int, float] = defaultdict(float)
    first_seen: dict[int, tuple[int, int]] = {}
    for n, ranked in enumerate(lists):
        for position, doc in enumerate(ranked, start=1):
            scores[doc] += 1.0 / (k + position)
            first_seen.setdefault(doc, (position, n))
    return sorted(scores, key=lambda d: (-scores[d], first_seen[d]))


def _by_terms(kb: Any, scope: Scope, ids: list[int], terms: Sequence[tuple[str, int]],
              words: Sequence[tuple[str, int]], budget_ms: int = KEYWORD_BUDGET_MS,
              columns: frozenset[str] = frozenset()) -> list[int]:
    """Documents by full-text search in each one's own language, those naming the most first.

    Every term is a group of names: itself and the names the scope's headers and labels give the
    same column ("Response time", and "Reaktionszeit" where a German table heads it so), so a
    request in one language finds documents written in another. A column (a term in ``columns``)
    counts only as the scope names it: one that no header or label in scope names is no sign of
    a document holding it (a request's "supplier too" read as a column names nothing). Each name
    is matched as a phrase, stemmed and without stop words in the document's language. A
    document scores the weights of the terms it names, then (to break ties) the number of the
    request's words it has: naming what the reading wants counts over sharing words with the
    request. Only a document naming at
    least half of what is asked (by weight) is listed: a list of nearly every document, each
    sharing a word or two, would push the documents it misses (written in a language no header
    bridges) below them all in the fusion; those the list leaves out are ordered by the vectors
    alone. Ties keep the given order.
    """
    vocabulary = [name for name, _ in kb.vocabulary(scope)] if terms else []
    # (group, weight as a term, weight as a word, phrase)
    named = [(names, int(w)) for t, w in terms if (names := _names_in_scope(t, vocabulary, t.lower() in columns))]
    groups = [(n, w, 0, name) for n, (names, w) in enumerate(named) for name in names]
    groups += [(len(named) + n, 0, int(w), word) for n, (word, w) in enumerate(words)]
    if not groups:
        return []
    found = kb.phrase_scores(scope, ids, groups, budget_ms=budget_ms)
    if found is None:
        log.info("the full-text ranking stopped at its %d ms budget", budget_ms)
        return []
    order = {doc: n for n, doc in enumerate(ids)}
    wanted = sum(w for _, w in named) if named else sum(int(w) for _, w in words)
    scored = {doc: (-term, -word, order[doc]) for doc, (term, word) in found.items()
              if 2 * (term if named else word) >= wanted}
    return sorted(scored, key=scored.__getitem__)


def _names_in_scope(term: str, vocabulary: Sequence[str], printed_only: bool = False) -> list[str]:
    """``term`` and the scope's names (header cells, labels) that name the same column, in any
    words; with ``printed_only``, the scope's names alone (none when the scope prints none)."""
    names = {} if printed_only else {term.lower(): term}
    for name in vocabulary:
        if name.lower() not in names and match_column(term, [name]) == 0:
            names[name.lower()] = name
    return list(names.values())


def _by_keywords(kb: Any, scope: Scope, ids: list[int], terms: Sequence[tuple[str, int]],
                 budget_ms: int = KEYWORD_BUDGET_MS) -> list[int]:
    """Documents containing the terms (text or path), the weightiest first; those with none left out."""
    if not terms:
        return []
    scored = kb.keyword_scores(scope, ids, terms, budget_ms=budget_ms)
    if scored is None:
        log.info("the keyword scan for ranking stopped at its %d ms budget", budget_ms)
        return []
    order = {doc: n for n, doc in enumerate(ids)}
    return sorted(scored, key=lambda d: (-scored[d], order[d]))


# -- the sample ----------------------------------------------------------------------------------


def choose_sample(svc: Any, reading: Reading, document_ids: list[int], k: int = 5, *, scope: Scope) -> list[int]:
    """Up to ``k`` documents of ``document_ids`` most likely to hold rows the reading wants."""
    query = query_for(reading)
    ranking = rank(svc, query, document_ids, scope=scope)
    if not ranking.document_ids:
        return []
    chosen = ranking.document_ids[: min(k, ranking.ranked)]
    if ranking.method != "meaning":
        # the documents naming what identifies them (a supplier) and the rows wanted come first
        identified = _identified(svc.kb, scope, ranking.document_ids, reading, k)
        chosen = list(dict.fromkeys(identified + chosen))[:k]
    if len(chosen) < k:
        chosen += _folder_spread(svc.kb, scope, [i for i in ranking.document_ids if i not in set(chosen)],
                                 k - len(chosen))
    return chosen[:k]


def _identified(kb: Any, scope: Scope, ids: list[int], reading: Reading, k: int) -> list[int]:
    """Documents containing every identifying term and any row term, in the given order."""
    identifying = [t for t in reading.document_conditions if t.strip()]
    rows = [*reading.row_terms, *(c.value for c in reading.conditions if c.op in ("contains", "equals") and c.value)]
    if not identifying and not rows:
        return []
    found: set[int] | None = None
    for term in identifying:
        hits = set(_by_keywords(kb, scope, ids, [(term, 1)]))
        found = hits if found is None else found & hits
    if rows:
        with_rows = set(_by_keywords(kb, scope, ids if found is None else [i for i in ids if i in found],
                                     [(t, 1) for t in rows]))
        found = with_rows if with_rows or found is None else found
    return [i for i in ids if found and i in found][:k]


def _folder_spread(kb: Any, scope: Scope, ids: list[int], k: int) -> list[int]:
    """``k`` of ``ids``, one per folder in turn, the largest folders first."""
    if k <= 0 or not ids:
        return []
    paths = kb.locations(scope, ids)
    folders: dict[str, list[int]] = defaultdict(list)
    for i in ids:
        if i in paths:
            folders[paths[i][1].rpartition("/")[0]].append(i)
    queues = sorted(folders.values(), key=len, reverse=True)
    picked: list[int] = []
    while len(picked) < k and any(queues):
        for queue in queues:
            if queue and len(picked) < k:
                picked.append(queue.pop(0))
    return picked
