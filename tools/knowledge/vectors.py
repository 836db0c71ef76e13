"""Chunk vectors of the knowledge base in Milvus, kept in step with PostgreSQL.

One Milvus collection per knowledge collection and embedding model (``kea_<id>_<model key>``)
holds a vector per chunk with its document id and page. PostgreSQL records which Milvus
collection serves each knowledge collection and from which content hash each document's
chunks were made (``collection_vectors``, ``document_vectors``; migration 0005), so
``sync`` embeds exactly what is missing or stale: new and changed documents, documents an
earlier run could not embed, and, after a model change, every document into a new Milvus
collection — the record switches to it only when all are in, and the old one is dropped.

pymilvus is the client: the local Milvus Lite server (``checkpoints/milvus.py``) by default,
any Milvus via ``KEA_MILVUS_URI``. The client connects on first use, never at import.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tools.knowledge.base import KnowledgeBase
from tools.knowledge.chunking import chunk_pages, document_label
from tools.knowledge.embeddings import Embedder, ModelSpec, configured_spec, embedder_for

log = logging.getLogger(__name__)

SEARCH_TIMEOUT_S = 10.0
MAX_RANKED = 1000  # documents one search places; the rest of a larger scope follows in its given order
MAX_EF = 1024  # HNSW's search breadth at most (placed 1,000 of 10,000 documents in 75 ms)
BATCH_DOCUMENTS = 32  # documents embedded and written to Milvus together
_SYNC_LOCK = 0x6B6576  # advisory lock namespace: one sync per knowledge collection at a time


@dataclass(frozen=True)
class VectorSource:
    """Where one knowledge collection's vectors are, and the model that made them."""

    collection_id: int
    spec: ModelSpec
    milvus_collection: str


@dataclass
class SyncReport:
    model: str = ""
    documents: int = 0  # embedded in this run
    chunks: int = 0
    reembedded: bool = False  # the collection's model changed, everything was embedded again


class VectorIndex:
    """The Milvus side of the knowledge base ``kb``."""

    def __init__(self, kb: KnowledgeBase, uri: str | None = None, token: str | None = None,
                 timeout_s: float = SEARCH_TIMEOUT_S) -> None:
        self.kb = kb
        self._uri = uri
        self._token = token if token is not None else os.environ.get("KEA_MILVUS_TOKEN", "")
        self.timeout_s = timeout_s
        self._client: Any = None
        self._loaded: set[str] = set()  # Milvus collections this client loaded
        self._lock = threading.Lock()

    # -- the client ---------------------------------------------------------------------------

    def client(self) -> Any:
        with self._lock:
            if self._client is None:
                from pymilvus import MilvusClient

                from checkpoints.milvus import milvus_uri

                uri = self._uri or milvus_uri()
                # a local server that has just been started again may refuse the first connection
                # for a moment (the client's channel backs off); a server named by URI is not waited for
                deadline = time.monotonic() + (0 if self._uri or os.environ.get("KEA_MILVUS_URI") else 5)
                while True:
                    try:
                        self._client = MilvusClient(uri=uri, token=self._token, timeout=self.timeout_s, dedicated=True)
                        break
                    except Exception:
                        if time.monotonic() > deadline:
                            raise
                        time.sleep(0.25)
            return self._client

    def close(self) -> None:
        with self._lock:
            if self._client is not None:
                try:
                    self._client.close()
                except Exception:  # noqa: BLE001 - closing a client of a server that went away
                    log.debug("closing the Milvus client failed", exc_info=True)
                self._client = None
            self._loaded.clear()

    def reset(self) -> None:
        """Forget the connection (the server restarted elsewhere); the next call connects again."""
        self.close()

    # -- records ------------------------------------------------------------------------------

    def sources(self, collection_ids: Sequence[int]) -> dict[int, VectorSource]:
        """The vector source of each collection that has one."""
        with self.kb.pool.connection() as conn:
            rows = conn.execute(
                "SELECT collection_id, provider, model, endpoint, milvus_collection FROM collection_vectors"
                " WHERE collection_id = ANY(%s)",
                (list(collection_ids),),
            ).fetchall()
        return {
            int(r["collection_id"]): VectorSource(
                int(r["collection_id"]), ModelSpec(r["provider"], r["model"], r["endpoint"]), r["milvus_collection"]
            )
            for r in rows
        }

    # -- keeping vectors in step --------------------------------------------------------------

    def sync(self, collection_id: int, *, spec: ModelSpec | None = None,
             on_document: Callable[[str], None] | None = None) -> SyncReport:
        """Embed the collection's documents whose vectors are missing, stale or of another model."""
        spec = spec or configured_spec()
        report = SyncReport(model=spec.describe())
        target = f"kea_{int(collection_id)}_{spec.key}"
        embedder = embedder_for(spec)
        with self.kb.pool.connection() as lock_conn:
            # one sync per collection at a time, across processes; released with the connection
            lock_conn.execute("SELECT pg_advisory_lock(%s, %s)", (_SYNC_LOCK, int(collection_id)))
            try:
                current = self.sources([collection_id]).get(collection_id)
                stale = self._stale(collection_id, target)
                report.reembedded = current is not None and current.milvus_collection != target
                for start in range(0, len(stale), BATCH_DOCUMENTS):
                    batch = stale[start : start + BATCH_DOCUMENTS]
                    report.chunks += self._embed_documents(embedder, target, batch)
                    report.documents += len(batch)
                    for _, path, _, _ in batch:
                        if on_document:
                            on_document(path)
                if stale:
                    self._flush(target)
                if current is None or current.milvus_collection != target:
                    self._switch(collection_id, spec, target, current)
            finally:
                lock_conn.execute("SELECT pg_advisory_unlock(%s, %s)", (_SYNC_LOCK, int(collection_id)))
        return report

    def _stale(self, collection_id: int, target: str) -> list[tuple[int, str, str, str]]:
        with self.kb.pool.connection() as conn:
            rows = conn.execute(
                "SELECT d.id, d.path, d.title, d.sha256 FROM documents d"
                " LEFT JOIN document_vectors v ON v.document_id = d.id"
                " WHERE d.collection_id = %s AND (v.document_id IS NULL OR v.milvus_collection <> %s"
                " OR v.sha256 <> d.sha256) ORDER BY d.path",
                (collection_id, target),
            ).fetchall()
        return [(int(r["id"]), r["path"], r["title"], r["sha256"]) for r in rows]

    def _embed_documents(self, embedder: Embedder, target: str, batch: list[tuple[int, str, str, str]]) -> int:
        """Embed a batch of documents into ``target``, replacing their old chunks; return the chunk count."""
        ids = [document_id for document_id, _, _, _ in batch]
        pages: dict[int, list[str]] = {i: [] for i in ids}
        with self.kb.pool.connection() as conn:
            for row in conn.execute(
                "SELECT document_id, text FROM document_pages WHERE document_id = ANY(%s) ORDER BY document_id, page_no",
                (ids,),
            ):
                pages[int(row["document_id"])].append(row["text"])
        chunks = {i: chunk_pages(pages[i], document_label(path, title)) for i, path, title, _ in batch}
        texts = [c.text for i in ids for c in chunks[i]]
        vectors = iter(embedder.embed(texts)) if texts else iter(())
        rows = [{"doc_id": i, "page": c.page, "vector": next(vectors)} for i in ids for c in chunks[i]]
        client = self.client()
        if rows:
            self._ensure_collection(target, len(rows[0]["vector"]))
        if client.has_collection(target, timeout=self.timeout_s):
            client.delete(target, filter=f"doc_id in {ids}", timeout=self.timeout_s)
        if rows:
            client.insert(target, rows, timeout=self.timeout_s)
        with self.kb.pool.connection() as conn, conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO document_vectors (document_id, milvus_collection, sha256, chunks) VALUES (%s, %s, %s, %s)"
                " ON CONFLICT (document_id) DO UPDATE SET milvus_collection = EXCLUDED.milvus_collection,"
                " sha256 = EXCLUDED.sha256, chunks = EXCLUDED.chunks, embedded_at = now()",
                [(i, target, sha, len(chunks[i])) for i, _, _, sha in batch],
            )
        return len(rows)

    def _flush(self, name: str) -> None:
        """Seal what was written into indexed segments: Milvus Lite searches unsealed rows one by one."""
        client = self.client()
        if client.has_collection(name, timeout=self.timeout_s):
            client.flush(name, timeout=max(self.timeout_s, 60))

    def _ensure_collection(self, name: str, dimension: int) -> None:
        from pymilvus import DataType, MilvusClient

        client = self.client()
        if client.has_collection(name, timeout=self.timeout_s):
            return
        schema = MilvusClient.create_schema(auto_id=True, enable_dynamic_field=False)
        schema.add_field("id", DataType.INT64, is_primary=True)
        schema.add_field("doc_id", DataType.INT64)
        schema.add_field("page", DataType.INT64)
        schema.add_field("vector", DataType.FLOAT_VECTOR, dim=dimension)
        index = client.prepare_index_params()
        index.add_index(field_name="vector", metric_type="COSINE", index_type="HNSW",
                        params={"M": 16, "efConstruction": 200})
        client.create_collection(name, schema=schema, index_params=index, timeout=self.timeout_s)

    def _switch(self, collection_id: int, spec: ModelSpec, target: str, old: VectorSource | None) -> None:
        """Point the collection at ``target`` (its every document is embedded there) and drop ``old``."""
        client = self.client()
        if not client.has_collection(target, timeout=self.timeout_s):
            return  # nothing to search yet (no document has text)
        dimension = int(next(f for f in client.describe_collection(target)["fields"] if f["name"] == "vector")
                        ["params"]["dim"])
        with self.kb.pool.connection() as conn:
            conn.execute(
                "INSERT INTO collection_vectors (collection_id, provider, model, endpoint, dimension, milvus_collection)"
                " VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (collection_id) DO UPDATE SET"
                " provider = EXCLUDED.provider, model = EXCLUDED.model, endpoint = EXCLUDED.endpoint,"
                " dimension = EXCLUDED.dimension, milvus_collection = EXCLUDED.milvus_collection, embedded_at = now()",
                (collection_id, spec.provider, spec.model, spec.endpoint, dimension, target),
            )
        if old is not None and old.milvus_collection != target:
            try:
                client.drop_collection(old.milvus_collection, timeout=self.timeout_s)
            except Exception:  # noqa: BLE001 - a leftover collection is only space, never searched
                log.warning("could not drop the old vectors %s", old.milvus_collection, exc_info=True)

    def forget(self, collection_id: int, paths: Sequence[str]) -> None:
        """Delete the chunks of the collection's documents at ``paths`` (before the documents go)."""
        if not paths:
            return
        with self.kb.pool.connection() as conn:
            rows = conn.execute(
                "SELECT d.id, v.milvus_collection FROM documents d LEFT JOIN document_vectors v ON v.document_id = d.id"
                " WHERE d.collection_id = %s AND d.path = ANY(%s)",
                (collection_id, list(paths)),
            ).fetchall()
        ids = [int(r["id"]) for r in rows]
        names = {r["milvus_collection"] for r in rows if r["milvus_collection"]}
        if source := self.sources([collection_id]).get(collection_id):
            names.add(source.milvus_collection)
        client = self.client()
        for name in sorted(names):
            if ids and client.has_collection(name, timeout=self.timeout_s):
                client.delete(name, filter=f"doc_id in {ids}", timeout=self.timeout_s)
                self._flush(name)

    # -- searching ----------------------------------------------------------------------------

    def search(self, source: VectorSource, vector: list[float], document_ids: Sequence[int],
               timeout_s: float | None = None) -> list[int]:
        """Documents of ``document_ids`` in ``source``, best chunk first, one hit per document."""
        ids = [int(i) for i in document_ids]
        if not ids:
            return []
        started = time.monotonic()
        timeout = timeout_s or self.timeout_s
        client = self.client()
        if source.milvus_collection not in self._loaded:
            # a (re)started server keeps collections released until they are loaded
            client.load_collection(source.milvus_collection, timeout=timeout)
            self._loaded.add(source.milvus_collection)
        hits = self._grouped(source.milvus_collection, vector, ids, timeout)
        found = [int(h["entity"]["doc_id"]) for h in hits[0]] if hits else []
        log.debug("searched %s over %d documents in %.0f ms", source.milvus_collection, len(ids),
                  (time.monotonic() - started) * 1000)
        return list(dict.fromkeys(found))

    def _grouped(self, name: str, vector: list[float], ids: list[int], timeout: float) -> Any:
        return self.client().search(
            name,
            data=[vector],
            limit=min(len(ids), MAX_RANKED),
            filter=f"doc_id in {ids}",  # integers only, checked against the scope by the caller
            group_by_field="doc_id",
            output_fields=["doc_id"],
            # HNSW returns about ef chunks; a grouping search needs several per document it places
            search_params={"metric_type": "COSINE", "params": {"ef": min(max(64, 10 * len(ids)), MAX_EF)}},
            timeout=timeout,
        )


@dataclass
class _Default:
    indexes: dict[int, VectorIndex] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)


_default = _Default()


def index_for(kb: KnowledgeBase) -> VectorIndex:
    """The process's vector index of ``kb`` (one Milvus connection per knowledge base)."""
    with _default.lock:
        if id(kb) not in _default.indexes or _default.indexes[id(kb)].kb is not kb:
            _default.indexes[id(kb)] = VectorIndex(kb)
        return _default.indexes[id(kb)]


def drop_index(kb: KnowledgeBase) -> None:
    with _default.lock:
        index = _default.indexes.pop(id(kb), None)
    if index is not None:
        index.close()
