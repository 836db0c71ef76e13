"""The model's reading and rows stand: Kea's own checks may doubt them, never drop or move them.

A scripted OpenAI-compatible endpoint plays a perfect model over the real langchain-openai
client: it reads each request as a careful reader would and answers every document with its
true rows, values as the document prints them. Kea must hand every one of those rows to the
table. Where a deterministic check disagrees with the model, the row stays and is marked
unsure with the reason.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from evals.endpoint import Reply, ScriptedEndpoint, Seen, allowed_endpoint, answer
from evals.endpoint import reading as _reading

from evals.tables import rows_from_csv
from core.profile import Profile
from graph.runs import run_extraction
from tools.storage.rows import table_key

# Four SLAs that print priority 1 in four ways; the model returns each one's priority-1 row.
SLAS = {
    "sla-kranich.md": ["Prio 1 – kritisch", "Prio 2 – hoch", "Prio 3 – normal"],
    "sla-harbour.md": ["P1 (Critical)", "P2 (High)", "P3 (Normal)"],
    "sla-lumen.md": ["1 - Critical", "2 - High", "3 - Normal"],
    "sla-osprey.md": ["Priority 1 – Critical", "Priority 2 – High", "Priority 3 – Normal"],
}
TIMES = [("30 min", "4 h"), ("2 h", "8 h"), ("8 h", "3 days")]
# Receipts whose paths carry no year, beside orders filed by year: "2022" is the receipts' date.
RECEIPTS = {"orders/2024/o-0001.md": ("O-0001", "02.05.2024", "310.00"),
            "receipts-archive/r-0001.md": ("R-0001", "12.03.2022", "118.00"),
            "receipts-archive/r-0002.md": ("R-0002", "30.11.2022", "42.50"),
            "receipts-archive/r-0003.md": ("R-0003", "04.01.2023", "77.10")}
CASES = [("Austria", "2006", "412"), ("Austria", "2007", "398"), ("Belgium", "2006", "530"), ("Belgium", "2007", "561")]
GRADUATES = [("Northfield College", "1,204", "980"), ("Riverside Institute", "850", "912"), ("Lakeshore University", "2,310", "2,118")]


@pytest.fixture(scope="module")
def endpoint() -> Iterator[ScriptedEndpoint]:
    scripted = ScriptedEndpoint()
    with allowed_endpoint(scripted):
        yield scripted


@pytest.fixture(scope="module")
def wild(kea_home: Path, kb) -> None:  # type: ignore[no-untyped-def]
    """Three collections written as other people write them: SLAs, a receipts archive, statistics."""
    from tools.knowledge.ingest import ingest

    root = kea_home / "written-elsewhere"
    slas = root / "slas"
    slas.mkdir(parents=True)
    for name, priorities in SLAS.items():
        lines = [f"# Service Level Agreement {name[4:-3].title()}", "", "| Priority | Response time | Resolution time |",
                 "|---|---|---|"]
        lines += [f"| {p} | {r} | {s} |" for p, (r, s) in zip(priorities, TIMES)]
        (slas / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert len(ingest(kb, [slas], "wild-slas", embed=False).indexed) == len(SLAS)

    for path, (number, date, total) in RECEIPTS.items():
        file = root / "receipts" / path
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(f"Receipt {number}\nDate: {date}\n\n| Receipt | Item | Amount |\n|---|---|---|\n"
                        f"| {number} | Service | {total} |\n", encoding="utf-8")
    assert len(ingest(kb, [root / "receipts"], "wild-receipts", embed=False).indexed) == len(RECEIPTS)
    assert kb.years(Profile(collections=["wild-receipts"]).scope) == ["2024"]

    stats = root / "stats"
    stats.mkdir()
    (stats / "cases-by-country.md").write_text(
        "# Reported cases by country\n\n| Country | Year | Cases |\n|---|---|---|\n"
        + "".join(f"| {c} | {y} | {n} |\n" for c, y, n in CASES), encoding="utf-8")
    (stats / "graduates.md").write_text(
        "# Graduates by institution\n\n| Institution | 2008–09 | 2021–22 |\n|---|---|---|\n"
        + "".join(f"| {i} | {a} | {b} |\n" for i, a, b in GRADUATES), encoding="utf-8")
    assert len(ingest(kb, [stats], "wild-stats", embed=False).indexed) == 2


def _profile(endpoint: ScriptedEndpoint, collection: str) -> Profile:
    return Profile(collections=[collection], engine="llm", model="scripted", base_url=endpoint.base_url)


def _perfect(read: dict[str, Any], truth: dict[str, list[list[str]]], *, conditions: bool = False) -> Any:
    """The reading, then each document's true rows (the line each stands on as its evidence)."""
    columns = read["columns"]

    def script(seen: Seen) -> Reply:
        if seen.reads_request:
            return answer(read)
        name = (seen.document or "").rsplit("/", 1)[-1]
        text = "\n".join(t for _, t in seen.pages())
        records = []
        for values in truth.get(name, []):
            line = next(line for line in text.splitlines() if all(v in line for v in values))
            records.append(dict(zip(columns, values)) | {"record_match": "yes", "page": 1, "evidence": line, "note": None})
        verdict = {"document_condition": "met" if name in truth else "not_met"} if conditions else {}
        return answer({"records": records} | verdict)

    return script


def _rows(svc: Any, values: dict[str, Any]) -> list[dict[str, Any]]:
    with svc.objects.open(table_key(values["extraction_id"])) as handle:
        return rows_from_csv(handle.read())[1]


async def test_priorities_printed_in_other_words_keep_every_row_the_model_gave(svc, endpoint, wild) -> None:  # type: ignore[no-untyped-def]
    truth = {name: [[p[0], *TIMES[0]]] for name, p in SLAS.items()}
    # the model also gives the P2 row of one SLA as a yes: Kea doubts it, and keeps it
    truth["sla-harbour.md"].append(["P2 (High)", *TIMES[1]])
    read = _reading(["Priority", "Response time", "Resolution time"], row_condition="priority 1",
                    conditions=[{"column": "Priority", "op": "equals", "value": "1", "text": "priority 1"}])
    endpoint.reset(_perfect(read, truth))
    values = await run_extraction("Priority, response time and resolution time of every SLA for priority 1",
                                  _profile(endpoint, "wild-slas"), confirm="auto")
    result = values["answer"]
    assert result["status"] == "done", result["message"]
    rows = _rows(svc, values)
    got = {(r["file"].rsplit("/", 1)[-1], r["values"]["Priority"]): r["match"] for r in rows}
    assert got == {("sla-kranich.md", "Prio 1 – kritisch"): "yes", ("sla-harbour.md", "P1 (Critical)"): "yes",
                   ("sla-lumen.md", "1 - Critical"): "yes", ("sla-osprey.md", "Priority 1 – Critical"): "yes",
                   ("sla-harbour.md", "P2 (High)"): "unsure"}
    assert result["summary"]["no_rows_from"] == []
    stored = [r for o in (svc.rows.outcome(values["extraction_id"], i) for i in values["document_ids"]) if o
              for r in o.records if r.values["Priority"] == "P2 (High)"]
    assert [r.note for r in stored] == ["'Priority' is 'P2 (High)', which does not meet 'priority 1' as Kea reads it"]


async def test_a_year_over_paths_without_years_is_the_documents_date_not_a_missing_place(svc, endpoint, wild) -> None:  # type: ignore[no-untyped-def]
    truth = {"r-0001.md": [["R-0001", "118.00"]], "r-0002.md": [["R-0002", "42.50"]]}
    read = _reading(["Receipt", "Amount"], document_conditions=["dated 2022"])
    endpoint.reset(_perfect(read, truth, conditions=True))
    values = await run_extraction("Receipt number and amount of the receipts from 2022", _profile(endpoint, "wild-receipts"),
                                  confirm="auto")
    result = values["answer"]
    assert result["status"] == "done", result["message"]
    assert {(r["values"]["Receipt"], r["match"]) for r in _rows(svc, values)} == {("R-0001", "yes"), ("R-0002", "yes")}
    assert sorted(result["summary"]["no_rows_from"]) == ["orders/2024/o-0001.md", "receipts-archive/r-0003.md"]


async def test_a_year_no_path_holds_is_the_date_of_the_documents_without_one(svc, endpoint, wild) -> None:  # type: ignore[no-untyped-def]
    truth = {"r-0001.md": [["R-0001", "118.00"]], "r-0002.md": [["R-0002", "42.50"]]}
    read = _reading(["Receipt", "Amount"], places=[{"kind": "year", "value": "2022"}])
    endpoint.reset(_perfect(read, truth, conditions=True))
    values = await run_extraction("Receipt number and amount of the receipts from 2022", _profile(endpoint, "wild-receipts"),
                                  confirm="auto")
    result = values["answer"]
    assert result["status"] == "done", result["message"]
    assert len(_rows(svc, values)) == 2
    extraction = endpoint.extraction_requests()
    assert extraction and all("Document conditions: 2022" in s.system for s in extraction)
    assert "2022 is read as the documents' date" in result["message"]


@pytest.mark.parametrize(
    ("message", "read", "truth"),
    [
        (
            "Country and number of cases in 2007",
            _reading(["Country", "Cases"], row_condition="Year is 2007",
                     conditions=[{"column": "Year", "op": "equals", "value": "2007", "text": "in 2007"}]),
            {"cases-by-country.md": [[c, n] for c, y, n in CASES if y == "2007"]},
        ),
        (
            "Which institutions had fewer graduates in 2021–22 than in 2008–09? Institution and both years' figures",
            _reading(["Institution", "2008–09", "2021–22"], row_condition="fewer graduates in 2021–22 than in 2008–09",
                     conditions=[{"column": None, "op": "judgement", "value": "fewer in 2021–22 than in 2008–09",
                                  "text": "fewer graduates in 2021–22 than in 2008–09"}]),
            {"graduates.md": [[i, a, b] for i, a, b in GRADUATES if i != "Riverside Institute"]},
        ),
    ],
    ids=["cases-in-2007", "fewer-graduates"],
)
async def test_a_year_the_model_read_as_a_row_condition_stays_one(svc, endpoint, wild, message, read, truth) -> None:  # type: ignore[no-untyped-def]
    endpoint.reset(_perfect(read, truth))
    values = await run_extraction(message, _profile(endpoint, "wild-stats"), confirm="auto")
    result = values["answer"]
    assert result["status"] == "done", result["message"]
    rows = _rows(svc, values)
    expected = [v for rows_ in truth.values() for v in rows_]
    assert sorted(list(r["values"].values()) for r in rows) == sorted(expected)
    assert all(r["match"] == "yes" for r in rows)


async def test_a_word_the_model_left_unused_is_named_and_its_rows_are_unsure(svc, endpoint, wild) -> None:  # type: ignore[no-untyped-def]
    truth = {name: [[p[0], *TIMES[0]]] for name, p in SLAS.items()}
    read = _reading(["Priority", "Response time", "Resolution time"], unused=["platinum"])
    endpoint.reset(_perfect(read, truth))
    values = await run_extraction("Priority, response time and resolution time of the first row of every platinum SLA",
                                  _profile(endpoint, "wild-slas"), confirm="auto")
    result = values["answer"]
    assert result["status"] == "done", result["message"]
    assert "I did not use: 'platinum'" in result["message"]
    rows = _rows(svc, values)
    assert len(rows) == 4 and all(r["match"] == "unsure" for r in rows)


ROUTES = [("Europe", "42,097", "62.0"), ("China", "97,180", "58.9")]
PLANTED = [("CORN 1ST CROP", "6.879,2", "6.864,7"), ("CORN 2ND CROP", "8.807,0", "8.952,7")]


@pytest.fixture(scope="module")
def reports(kea_home: Path, kb) -> None:  # type: ignore[no-untyped-def]
    """Reports whose columns and periods are written with years and slashes, beside a folder of a year."""
    from tools.knowledge.ingest import ingest

    root = kea_home / "written-elsewhere" / "reports"
    for path, text in {
        "annual/2016/summary.md": "# Annual summary 2016\n\n| Item | Amount |\n|---|---|\n| Staff | 12 |\n",
        "airline/routes.md": "# International passengers, December\n\n| Routes | Pax | L/F(%) |\n|---|---|---|\n"
                             + "".join(f"| {c} | {a} | {b} |\n" for c, a, b in ROUTES),
        "crops/planted-area.md": "# Planted area, estimates\n\n| Product | May/2013 | Jun/2013 |\n|---|---|---|\n"
                                 + "".join(f"| {c} | {a} | {b} |\n" for c, a, b in PLANTED),
    }.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text, encoding="utf-8")
    assert len(ingest(kb, [root], "wild-reports", embed=False).indexed) == 3
    assert kb.years(Profile(collections=["wild-reports"]).scope) == ["2016"]


@pytest.mark.parametrize(
    ("message", "columns", "truth"),
    [
        ("For December 2015 international routes, give the route, passengers and load factor",
         ["Routes", "Pax", "L/F(%)"], {"routes.md": [list(r) for r in ROUTES]}),
        ("Show the corn lines of the planted area table with the May/2013 and Jun/2013 estimates",
         ["Product", "May/2013", "Jun/2013"], {"planted-area.md": [list(r) for r in PLANTED]}),
    ],
    ids=["a-month-of-a-year", "periods-with-slashes"],
)
async def test_a_year_or_folder_the_model_did_not_read_as_a_place_narrows_nothing(  # type: ignore[no-untyped-def]
        svc, endpoint, reports, message, columns, truth) -> None:
    endpoint.reset(_perfect(_reading(columns), truth))
    values = await run_extraction(message, _profile(endpoint, "wild-reports"), confirm="auto")
    result = values["answer"]
    assert result["status"] == "done", result["message"]
    assert len(endpoint.extraction_requests()) == 3  # every document in scope was read
    rows = _rows(svc, values)
    assert sorted(list(r["values"].values()) for r in rows) == sorted(v for vs in truth.values() for v in vs)
    assert all(r["match"] == "yes" for r in rows)
    # a year the model did not read is named; a folder it read as a column is that column
    assert ("The model did not read '2015' as a place" in result["message"]) == ("2015" in message)
