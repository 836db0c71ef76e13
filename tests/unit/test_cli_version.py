"""``kea --version`` names the installed version and reads nothing."""

from __future__ import annotations

from importlib.metadata import version

from typer.testing import CliRunner

from server.cli import app


def test_kea_version_prints_the_installed_version() -> None:
    done = CliRunner().invoke(app, ["--version"])
    assert done.exit_code == 0 and done.output.strip() == f"kea {version('kea')}"
