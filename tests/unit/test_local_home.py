"""Where Kea keeps its data, and how durably, when nothing is configured."""

from __future__ import annotations

from pathlib import Path

from checkpoints.cluster import kea_home, server_options


def test_the_home_is_the_users_data_folder_wherever_kea_runs(monkeypatch, tmp_path) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.delenv("KEA_HOME", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)
    first = kea_home()
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    assert kea_home() == first == tmp_path / "data" / "kea"
    monkeypatch.delenv("XDG_DATA_HOME")
    assert kea_home() == Path.home() / ".local" / "share" / "kea"
    monkeypatch.setenv("KEA_HOME", str(tmp_path / "chosen"))
    assert kea_home() == tmp_path / "chosen"


def test_the_local_cluster_is_durable_unless_a_test_says_otherwise(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.delenv("KEA_UNSAFE_FAST_CLUSTER", raising=False)
    assert "fsync" not in server_options(5432) and "synchronous_commit" not in server_options(5432)
    monkeypatch.setenv("KEA_UNSAFE_FAST_CLUSTER", "1")
    assert "-c fsync=off" in server_options(5432)
    assert "listen_addresses=127.0.0.1" in server_options(5432)
