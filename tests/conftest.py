"""Shared fixtures: a throwaway KEA_HOME, PostgreSQL cluster and Milvus Lite server per test session."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

# Before any Kea module reads the environment: everything of this session lives in a temp folder.
_HOME = Path(tempfile.mkdtemp(prefix="kea-test-home-"))
os.environ["KEA_HOME"] = str(_HOME)
os.environ["KEA_UNSAFE_FAST_CLUSTER"] = "1"  # a throwaway cluster: no fsync (never for a user's data)
os.environ.pop("KEA_DATABASE_URL", None)
for _name in ("KEA_ENGINE", "KEA_MODEL", "KEA_BASE_URL", "KEA_MILVUS_URI", "KEA_EMBEDDINGS_URL", "KEA_EMBEDDINGS_MODEL"):
    os.environ.pop(_name, None)


@pytest.fixture(scope="session")
def kea_home() -> Iterator[Path]:
    yield _HOME


@pytest.fixture(scope="session")
def database(kea_home: Path) -> Iterator[str]:
    """A running local cluster (started by the same manager users get) and its URL."""
    from checkpoints.cluster import LocalCluster, database_url

    url = database_url()
    yield url
    from tools.services import reset_services

    from checkpoints.milvus import LocalMilvus

    reset_services()
    LocalMilvus.default().stop()
    LocalCluster.default().stop()
    shutil.rmtree(kea_home, ignore_errors=True)


@pytest.fixture(scope="session")
def svc(database: str):  # type: ignore[no-untyped-def]
    from tools.services import services

    return services()


@pytest.fixture(scope="session")
def kb(svc):  # type: ignore[no-untyped-def]
    return svc.kb


@pytest.fixture(scope="session")
def corpus(kea_home: Path, kb) -> dict:  # type: ignore[no-untyped-def]
    """The generated corpus, ingested as collection 'corpus' without vectors (the tests that rank
    by meaning ask for ``embedded_corpus``); returns its truth."""
    from corpora.first import generate
    from tools.knowledge.ingest import ingest

    folder = kea_home / "corpus"
    truth = generate(folder)
    report = ingest(kb, [folder / "documents"], "corpus", embed=False)
    assert report.indexed, report.skipped
    truth["folder"] = str(folder / "documents")
    return truth


@pytest.fixture(scope="session")
def embedded_corpus(corpus: dict, kb) -> dict:  # type: ignore[no-untyped-def]
    """The generated corpus with its chunk vectors: the next ingest embeds what has none."""
    from tools.knowledge.ingest import ingest

    report = ingest(kb, [Path(corpus["folder"])], "corpus")
    assert report.embedded or not report.embedding_error, report.embedding_error
    return corpus
