"""Requests written as questions ("What … does the SLA give for each priority?") and conditions
on when things end ("contracts that expire in 2024", "run out before April 2026"), read over
documents of other authors (``evals/unseen/``)."""

from __future__ import annotations

from pathlib import Path

from core.reading import DocumentText, FolderCount, ScopeHint
from tools.engines.offline import extract_records, read_message
from tools.knowledge.vocabulary import document_vocabulary
from tools.parsing import parse_file

UNSEEN = Path(__file__).resolve().parents[2] / "evals" / "unseen"


def _document(path: Path) -> DocumentText:
    parsed = parse_file(path)
    return DocumentText(id=1, collection="unseen", path=path.name, title=parsed.title, media_type=parsed.media_type,
                        pages=parsed.pages, tables=parsed.tables)


def _scope(path: Path, folders: list[str]) -> ScopeHint:
    parsed = parse_file(path)
    return ScopeHint(documents=1, vocabulary=document_vocabulary(parsed), table_headers=[t.header for t in parsed.tables],
                     folders=[FolderCount(folder=f, documents=1) for f in folders])


def test_a_question_names_its_values_its_documents_and_what_each_row_is_for() -> None:
    sla = UNSEEN / "corvane" / "documents" / "IT" / "SLA" / "SLA_LabTrace_Tessaro.md"
    reading = read_message("What response time and resolution target does the LabTrace SLA give for each priority?",
                           _scope(sla, ["IT", "IT/SLA"]))
    # the priority each row is for comes first; "the LabTrace SLA" is LabTrace's document of the SLA folder
    assert reading.columns == ["Priority", "Response time", "Resolution target"]
    assert reading.document_conditions == ["LabTrace"] and reading.unused == []
    assert [p.value for p in reading.places] == ["IT/SLA"]
    records = extract_records(_document(sla), reading)
    assert [r.values["Priority"] for r in records] == ["P1", "P2", "P3", "P4"]
    assert records[0].values == {"Priority": "P1", "Response time": "30 minutes", "Resolution target": "4 hours"}


def test_what_are_the_values_is_a_list_not_a_condition() -> None:
    reading = read_message("What are the monthly recurring charges in our master services agreement with Brightwave?",
                           ScopeHint(documents=3))
    assert reading.columns == ["Monthly recurring charges"]
    assert reading.conditions == [] and reading.document_conditions == ["Brightwave"]
    # "what … did we agree": the auxiliary ends the values asked for
    reading = read_message("What hourly rates did we agree with Nordwerk in the framework contract?", ScopeHint(documents=3))
    assert reading.columns == ["Hourly rates"] and reading.document_conditions == ["Nordwerk"]


def test_contracts_that_expire_in_a_year_compare_their_end_date() -> None:
    register = UNSEEN / "corvane" / "documents" / "Legal" / "Contracts" / "contract_register.xlsx"
    reading = read_message("Which contracts expire in 2024? Contract ID, counterparty and end date.",
                           _scope(register, ["Legal", "Legal/Contracts", "Purchasing/Invoices/2024"]))
    # the year is the end date's, not a folder of 2024 nor the documents' date; the contract ID says
    # which contracts they are, so "contracts" is no column of its own
    assert reading.columns == ["Contract ID", "Counterparty", "End date"]
    assert [(c.column, c.op, c.value) for c in reading.conditions] == [("End date", "equals", "2024")]
    assert reading.places == [] or all(p.kind != "year" for p in reading.places)
    assert reading.document_conditions == [] and reading.unused == []
    records = extract_records(_document(register), reading)
    assert sorted(r.values["End date"] for r in records) == ["2024-03-31", "2024-08-31", "2024-09-30", "2024-12-31"]
    assert {r.match for r in records} == {"yes"}


def test_contracts_that_run_out_before_a_month_over_a_german_register() -> None:
    register = UNSEEN / "business" / "documents" / "legal" / "contracts" / "Vertragsregister_2025.xlsx"
    reading = read_message(
        "Which contracts in the contract register run out before April 2026? Give contract number, partner and end date.",
        _scope(register, ["legal", "legal/contracts"]))
    assert reading.columns == ["Contract number", "Partner", "End date"]
    assert [(c.column, c.op, c.value) for c in reading.conditions] == [("End date", "lt", "April 2026")]
    assert reading.row_terms == [] and reading.unused == []
    records = extract_records(_document(register), reading)
    # "Vertrags-Nr.", "Vertragspartner" and "Ende"; 31.03.2026 is before April, the sheet's sum row is no contract
    ends = [r.values["End date"] for r in records]
    assert len(records) == 5 and "31.03.2026" in ends and all(e and e.endswith(("2025", "2026")) for e in ends)
    assert records[0].values["Contract number"].startswith("V-")


def test_a_year_compares_dates_and_still_compares_numbers() -> None:
    from tools.engines.numbers import compare

    assert compare("equals", "2024-08-31", "2024") is True and compare("equals", "31.12.2025", "2024") is False
    assert compare("lt", "15.03.2026", "April 2026") is True and compare("gt", "2025-01-01", "2024") is True
    assert compare("lt", "2023", "2024") is True and compare("equals", "2024", "2024") is True  # a year column


def test_a_range_of_two_months_takes_its_year_for_both_and_names_no_document_month() -> None:
    header = ["Number", "Opened", "Priority", "Vendor"]
    scope = ScopeHint(documents=3, vocabulary=header, table_headers=[header])
    reading = read_message("Show number, opened and vendor where opened is between April and June 2025.", scope)
    assert [(c.column, c.op, c.value) for c in reading.conditions] == [("Opened", "ge", "April 2025"), ("Opened", "le", "June 2025")]
    assert reading.document_conditions == []  # not "only documents of June"
    reading = read_message("Show number and vendor where opened is between March 2025 and May 2025.", scope)
    assert [c.value for c in reading.conditions] == ["March 2025", "May 2025"] and reading.document_conditions == []


def test_completed_or_finished_in_a_year_is_a_condition_on_the_end_date() -> None:
    header = ["Customer", "Town", "Province", "Completion date"]
    scope = ScopeHint(documents=3, vocabulary=header, table_headers=[header])
    reading = read_message("Which projects were completed in 2024? Customer, town and completion date please.", scope)
    # the completion date is the projects' end date: the condition is on the column asked for
    assert [(c.column, c.op, c.value) for c in reading.conditions] == [("Completion date", "equals", "2024")]
    assert "completed" in reading.conditions[0].text  # the user's word stays in what the answer says
    spanish = read_message("¿Qué instalaciones se terminaron en 2025? Necesito cliente y municipio.", scope)
    assert [(c.column, c.value) for c in spanish.conditions] == [("End date", "2025")]
