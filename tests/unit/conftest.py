"""The fast layer: pure functions, parsers, readings and the pieces of nodes, without PostgreSQL,
Milvus or an object store. A test that needs one of them belongs in ``tests/integration``."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def database() -> None:
    pytest.fail("tests/unit runs without PostgreSQL: a test that needs the database belongs in tests/integration")
