"""Fixtures of the integration tests that need more than PostgreSQL."""

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
