"""The fast layer: pure functions, parsers, readings and the pieces of nodes, without PostgreSQL,
Milvus or an object store. A test that needs one of them belongs in ``tests/integration``."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def database() -> None:
    pytest.fail("tests/unit runs without PostgreSQL: a test that needs the database belongs in tests/integration")


@pytest.fixture(autouse=True)
def no_process_services(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing here may start the process's own services (PostgreSQL, Milvus): a node that looked
    them up instead of using the ones its graph was built with fails its test."""

    def refused(*args: object, **kwargs: object) -> None:
        raise AssertionError("the fast layer started the process's services; pass services to the graph instead")

    monkeypatch.setattr("tools.services.create_services", refused)
