"""Which object store KEA_STORAGE_URL selects, and the sentences it answers with otherwise."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.storage import StorageConfigError, open_object_store
from tools.storage.objects import FileObjectStore


def test_a_file_url_is_a_folder(tmp_path: Path) -> None:
    store = open_object_store((tmp_path / "tables").as_uri())
    assert isinstance(store, FileObjectStore) and store.root == (tmp_path / "tables").resolve()
    assert store.presigned_url("record-extraction/e/table.csv", 60) is None  # Kea signs those links itself


@pytest.mark.parametrize(
    ("url", "says"), [("s3://ab/x", "names no bucket"), ("ftp://host/x", "neither file:///path nor s3://bucket/prefix")]
)
def test_an_unusable_storage_url_is_refused_in_a_sentence(url: str, says: str) -> None:
    with pytest.raises(StorageConfigError, match=says):
        open_object_store(url)
