"""Months a document's path dates it in, and sentences that end after a bracket or a year."""

from __future__ import annotations

from core.reading import ScopeHint
from tools.engines.offline import read_message
from tools.engines.offline.document_names import path_months
from tools.engines.offline.tokens import tokenize


def test_a_path_dates_its_document_by_a_month_name_or_a_quarter() -> None:
    assert path_months("unstructured-inference/2023-Jan-economic-outlook.pdf") == {1}
    assert path_months("Logistics/Van Rijn/2024/Zendingsoverzicht_Q2-2024.txt") == {4, 5, 6}
    assert path_months("reports/2024_Q3_summary.pdf") == {7, 8, 9}
    assert path_months("Timesheets/2025-05/Timesheet.xlsx") == {5}
    # a month's name inside a word, or a quarter without its year, dates nothing
    assert path_months("Legal/Mayor-2024.pdf") == set() and path_months("marketing/Q2_plan.pdf") == set()


def test_a_sentence_ends_after_a_closed_bracket_or_a_year() -> None:
    words = [t.text for t in tokenize("Sales per category (CHF millions). Exclude the total")]
    assert words[5:9] == ["millions", ")", ".", "Exclude"]
    words = [t.text for t in tokenize("Sales for January-June 2023. Exclude the total. Rechnung vom 3. Mai 2014")]
    assert words[3:6] == ["2023", ".", "Exclude"] and "3." in words  # "3. Mai" stays a date's day
    scope = ScopeHint(documents=3)
    reading = read_message("Sales and operating profit per product category for January-June 2023 (CHF millions). "
                           "Exclude unallocated items and the total.", scope)
    assert [(c.op, c.value) for c in reading.conditions] == [("not", "unallocated"), ("not", "total")]
    # a span of months is no one's document ("Nordwerk-Rechnung" is Nordwerk's)
    assert "January" not in reading.document_conditions
