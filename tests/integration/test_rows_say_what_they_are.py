"""A table of figures says what each row is: "Which teams …? Show the Q1 and Q2 sales" gives the
table's row labels (its regions) in the CSV's first column, named as asked; a request whose
columns say which row is which gives no such column."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from core.profile import Profile
from evals.tables import rows_from_csv
from graph.runs import run_extraction
from tools.knowledge.ingest import ingest
from tools.storage.rows import table_key

COLLECTION = "subject"
SALES = "Region,Q1 sales,Q2 sales,Manager\nNorth,120,135,Ines Berg\nSouth,80,70,Tom Wolf\nWest,95,101,Ana Ruiz\n"


@pytest.fixture(scope="module")
def sales(kea_home: Path, kb) -> None:  # type: ignore[no-untyped-def]
    folder = kea_home / "subject"
    folder.mkdir()
    (folder / "regional-sales.csv").write_text(SALES, encoding="utf-8")
    report = ingest(kb, [folder], COLLECTION, embed=False)
    assert report.indexed == ["regional-sales.csv"], report.skipped


def _table(svc: Any, values: dict[str, Any]) -> tuple[list[str], list[dict[str, Any]]]:
    with svc.objects.open(table_key(values["extraction_id"])) as handle:
        return rows_from_csv(handle.read())


async def test_rows_of_figures_name_what_they_are_first(svc, sales) -> None:  # type: ignore[no-untyped-def]
    profile = Profile(collections=[COLLECTION], engine="offline")
    values = await run_extraction("Which teams are listed in regional-sales.csv? Show the Q1 sales and Q2 sales.", profile, confirm="auto")
    answer = values["answer"]
    assert answer["status"] == "done", answer["message"]
    header, rows = _table(svc, values)
    assert header == ["Teams", "Q1 sales", "Q2 sales"] == values["summary"]["columns"]
    assert [(r["values"]["Teams"], r["values"]["Q2 sales"]) for r in rows] == [("North", "135"), ("South", "70"), ("West", "101")]
    assert all(r["match"] == "unsure" for r in rows)  # the engine chose the column: the rows say which

    named = await run_extraction("Which teams are listed in regional-sales.csv? Manager and Q2 sales.", profile, confirm="auto")
    header, rows = _table(svc, named)
    assert header == ["Manager", "Q2 sales"] == named["summary"]["columns"]
    assert [r["values"]["Manager"] for r in rows] == ["Ines Berg", "Tom Wolf", "Ana Ruiz"]
