"""``kea --version`` names the installed version and reads nothing."""

from __future__ import annotations

from importlib.metadata import version

from typer.testing import CliRunner

from server.cli import app


def test_kea_version_prints_the_installed_version() -> None:
    done = CliRunner().invoke(app, ["--version"])
    assert done.exit_code == 0 and done.output.strip() == f"kea {version('kea')}"


def test_a_run_that_stops_with_an_error_names_its_thread_and_logs_the_traceback_to_a_file(tmp_path, monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    import json
    import logging

    import pytest
    import typer

    from server import cli, cli_runs

    monkeypatch.setenv("KEA_HOME", str(tmp_path))
    root = logging.getLogger()
    kept = list(root.handlers)
    try:
        cli._log_to_file()

        async def database_gone(view):  # type: ignore[no-untyped-def]
            raise RuntimeError("the database stopped answering")

        with pytest.raises(typer.Exit):
            cli_runs.converse(database_gone, None, "cli-1234", None, True)
    finally:
        for handler in root.handlers:
            if handler not in kept:
                handler.close()
                root.removeHandler(handler)
    out, err = capsys.readouterr()
    answer = json.loads(out)
    assert answer["thread"] == "cli-1234" and answer["status"] == "failed"
    assert "Traceback" not in err
    log = (tmp_path / "logs" / "kea.log").read_text(encoding="utf-8")
    assert "Thread cli-1234 stopped" in log and "Traceback" in log and "RuntimeError" in log
