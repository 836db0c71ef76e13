"""Fixtures of the integration tests that need more than PostgreSQL.

Tests ingest with ``embed=False`` unless ranking by meaning is what they test (the generated
corpus in ``test_ranking.py`` (``embedded_corpus``), ``test_sample.py``): embedding every chunk
with the local model is most of an ingest's time, and without vectors Kea ranks by keywords, as
it does whenever Milvus cannot be reached.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from s3_server import S3Server, weed_mini


@pytest.fixture(scope="session")
def s3_server(kea_home: Path) -> Iterator[S3Server]:
    """A real ``weed mini`` on 127.0.0.1 for the whole session."""
    with weed_mini(kea_home / "weed") as server:
        yield server


@pytest.fixture
def s3_store(s3_server, monkeypatch):  # type: ignore[no-untyped-def]
    """An S3 object store on the test server (bucket kea-test-files, prefix team-a)."""
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", s3_server.access_key)
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", s3_server.secret_key)
    monkeypatch.setenv("KEA_S3_ENDPOINT", s3_server.endpoint)
    from tools.storage import open_object_store
    from tools.storage.s3 import S3ObjectStore

    store = open_object_store("s3://kea-test-files/team-a")
    assert isinstance(store, S3ObjectStore)
    return store


@pytest.fixture
def reads(svc, monkeypatch):  # type: ignore[no-untyped-def]
    """Every document read from the knowledge base during the test (by id), one by one or in a batch."""
    seen: list[int] = []
    original = svc.kb.read_documents

    def spy(scope, ids, *args, **kwargs):  # type: ignore[no-untyped-def]
        found = original(scope, ids, *args, **kwargs)
        seen.extend(i for i, document in found.items() if document is not None)  # None: a long one, read alone later
        return found

    monkeypatch.setattr(svc.kb, "read_documents", spy)
    return seen
