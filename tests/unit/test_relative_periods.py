"""A period said from today ("this year", "last year's price list", "last quarter") is the period it
names, counted from the reading's day, and the reading says how it was counted."""

from __future__ import annotations

import pytest

from core.reading import FolderCount, ScopeHint
from tools.engines.relative import dated
from tools.engines.offline.request import read_message


@pytest.mark.parametrize(
    ("message", "today", "written"),
    [
        ("On Atelier's invoices this year, which lines", "2025-07-31", "On Atelier's invoices in 2025, which lines"),
        ("Service history for van GD 4K221 this year: date and cost", "2025-07-01", "Service history for van GD 4K221 in 2025: date and cost"),
        ("Which articles cost more than 100 EUR in last year's price list?", "2025-07-31",
         "Which articles cost more than 100 EUR in 2024 price list?"),
        ("Which KPIs missed their target last quarter?", "2025-07-31", "Which KPIs missed their target in Q2 2025?"),
        ("Which KPIs missed their target last quarter?", "2025-02-10", "Which KPIs missed their target in Q4 2024?"),
        ("the orders of last month", "2025-01-15", "the orders of December 2024"),
        ("alle Rechnungen aus dem letzten Jahr", "2025-07-31", "alle Rechnungen aus dem 2024"),
        ("les factures de l'année dernière", "2026-03-01", "les factures de 2025"),
        ("las facturas de este año", "2026-03-01", "las facturas de 2026"),
        ("las facturas del año pasado de Levante", "2026-03-01", "las facturas del 2025 de Levante"),
    ],
)
def test_a_period_said_from_today_is_the_period_it_names(message: str, today: str, written: str) -> None:
    text, notes = dated(message, today)
    assert text == written
    assert len(notes) == 1 and "counted from" in notes[0]


def test_a_period_set_against_another_names_a_column_and_stays() -> None:
    for message in ["revenue per region and the change versus last year", "sales compared with last year",
                    "Umsatz gegenüber dem letzten Jahr", "revenue last year versus this year", "revenue this year vs last year"]:
        assert dated(message, "2025-07-31") == (message, []), message
    # a comparison's word inside another word compares nothing
    assert dated("Revenue from Jonathan last year", "2025-07-31")[0] == "Revenue from Jonathan in 2024"


def test_the_final_period_of_something_or_the_last_twelve_months_is_no_calendar_period() -> None:
    for message in ["the last year of the contract", "revenue over the last year", "in the last month of the quarter",
                    "el último trimestre del contrato"]:
        assert dated(message, "2025-07-31") == (message, []), message
    assert dated("last month’s orders", "2025-07-31")[0] == "June 2025 orders"


def test_without_a_day_to_count_from_the_message_stays_as_written() -> None:
    assert dated("invoices this year", None) == ("invoices this year", [])


def _scope() -> ScopeHint:
    return ScopeHint(
        documents=3, years=["2024", "2025"],
        folders=[FolderCount(folder="sales/pricelists", documents=2), FolderCount(folder="sales/pricelists/archive", documents=1)],
        table_headers=[["Artikelnr", "Bezeichnung", "Listenpreis EUR"]],
        vocabulary=["Artikelnr", "Bezeichnung", "Listenpreis EUR"],
    )


def test_the_reading_takes_the_year_a_relative_period_names_and_says_so() -> None:
    message = "Which articles cost more than 100 EUR in last year's price list? Article number, name and list price."
    scope = _scope().model_copy(update={"today": "2025-07-31"})
    reading = read_message(message, scope)
    assert {p.value for p in reading.places if p.kind == "year"} == {"2024"}
    assert "'last year's' read as 2024, counted from 31 July 2025." in reading.notes
    assert reading.request == message  # the user's words as written stay the request
    assert "2024" not in " ".join(reading.unused)
    # a year later the same words name the year after
    later = read_message(message, scope.model_copy(update={"today": "2026-07-31"}))
    assert {p.value for p in later.places if p.kind == "year"} == {"2025"}


def test_the_words_of_a_period_read_as_one_are_neither_unused_nor_a_kind_of_document() -> None:
    scope = ScopeHint(documents=2, folders=[FolderCount(folder="management/reports/2025", documents=2)],
                      table_headers=[["KPI", "Target", "Actual"]], vocabulary=["KPI", "Target", "Actual"], today="2025-07-31")
    reading = read_message("Which KPIs were below target last quarter? KPI, target and actual.", scope)
    assert "Q2 2025" in reading.document_conditions
    assert not {"last", "quarter"} & {w.casefold() for w in [*reading.unused, *reading.document_kinds]}


def test_a_period_no_longer_read_is_said_unused_in_the_words_the_user_wrote() -> None:
    from tools.engines.accounting import with_accounting

    scope = _scope().model_copy(update={"today": "2025-07-31"})
    reading = read_message("Article number and list price of every article in last year's price list.", scope)
    assert reading.unused == []
    widened = with_accounting(reading.model_copy(update={"places": []}), scope)  # the user widened the location
    assert widened.unused == ["last year's"]


def test_a_year_the_user_wrote_beside_a_period_stays_theirs_when_unused() -> None:
    from tools.engines.accounting import with_accounting

    scope = _scope().model_copy(update={"today": "2025-07-31"})
    reading = read_message("Article number and list price in the 2024 price list and last year's price list.", scope)
    widened = with_accounting(reading.model_copy(update={"places": []}), scope)
    assert "2024" in widened.unused
