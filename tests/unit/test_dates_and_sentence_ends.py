"""Months a document's path dates it in, and sentences that end after a bracket or a year."""

from __future__ import annotations

from core.reading import ScopeHint
from tools.engines.offline import read_message
from tools.engines.offline.document_names import path_months
from tools.engines.offline.tokens import tokenize


def test_a_path_dates_its_document_by_a_month_name_or_a_quarter() -> None:
    assert path_months("unstructured-inference/2023-Jan-economic-outlook.pdf") == {1}
    # a quarter only narrows a date the document does not print itself
    assert path_months("Logistics/Van Rijn/2024/Zendingsoverzicht_Q2-2024.txt", quarters=True) == {4, 5, 6}
    assert path_months("reports/2024_Q3_summary.pdf", quarters=True) == {7, 8, 9}
    assert path_months("reports/2024_Q3_summary.pdf") == set()
    assert path_months("Timesheets/2025-05/Timesheet.xlsx") == {5}
    # a month's name inside a word, or a quarter without its year, dates nothing
    assert path_months("Legal/Mayor-2024.pdf") == set() and path_months("marketing/Q2_plan.pdf", quarters=True) == set()
    assert path_months("archive/Jan-2025001.pdf") == set()


def test_a_sentence_ends_after_a_closed_bracket_or_a_year() -> None:
    words = [t.text for t in tokenize("Sales per category (CHF millions). Exclude the total")]
    assert words[5:9] == ["millions", ")", ".", "Exclude"]
    words = [t.text for t in tokenize("Sales for January-June 2023. Exclude the total. Rechnung vom 3. Mai 2014")]
    assert words[3:6] == ["2023", ".", "Exclude"] and words[-1] == "3. Mai 2014"  # a date written with its month, one word
    scope = ScopeHint(documents=3)
    reading = read_message("Sales and operating profit per product category for January-June 2023 (CHF millions). "
                           "Exclude unallocated items and the total.", scope)
    assert [(c.op, c.value) for c in reading.conditions] == [("not", "unallocated"), ("not", "total")]
    # a span of months is no one's document ("Nordwerk-Rechnung" is Nordwerk's)
    assert "January" not in reading.document_conditions


def test_a_date_written_with_its_month_is_one_value() -> None:
    from tools.engines.numbers import parse_date
    from tools.engines.offline.document_names import _spellings

    assert parse_date("Jan 26, 2025") == parse_date("26 January 2025") == parse_date("26 de enero de 2025") \
        == parse_date("26.01.2025")
    assert parse_date("26th January 2025") == parse_date("Jan 26th, 2025") == parse_date("26 January 2025")
    assert parse_date("Feb 30, 2024") is None and parse_date("Jan 2025") is None and parse_date("3. Quartal 2024") is None
    scope = ScopeHint(documents=3)
    # a list of such dates is a list of columns, no months, days and years of documents
    listed = read_message("Give me every line of the expense table with the columns Line item, Jan 26, 2025, "
                          "Jan 28, 2024 and Jan 29, 2023.", scope)
    assert listed.columns == ["Line item", "Jan 26, 2025", "Jan 28, 2024", "Jan 29, 2023"] and not listed.document_conditions
    compared = read_message("Invoices dated after March 3, 2024: number and amount", scope)
    assert [(c.column, c.op, c.value) for c in compared.conditions] == [("Date", "gt", "March 3, 2024")]
    dated = read_message("Kannst du mir aus der QualityHosting-Rechnung Nr. 30064443 vom 7. Mai 2014 alle "
                         "Rechnungspositionen auflisten? Ich brauche Pos., Produkt und Betrag.", scope)
    assert "7. Mai 2014" in dated.document_conditions and not dated.unused
    # the document may print the day in figures, or its path hold it
    assert {"2014-05-07", "07.05.2014", "may 7, 2014"} <= _spellings("7. Mai 2014")


def test_a_list_before_a_dash_and_the_table_named_after_it() -> None:
    scope = ScopeHint(documents=3)
    for message in ("Article and amount – give me the whole returns table.", "Article and amount - give me the returns table"):
        assert read_message(message, scope).columns == ["Article", "Amount"], message
    # a list after the dash is the columns still
    assert read_message("All open orders - order number, customer and amount", scope).columns == [
        "Order number", "Customer", "Amount"]


def test_what_a_second_reader_found_stays_mended() -> None:
    from tools.engines.columns import map_columns
    from tools.engines.offline.document_names import _spellings

    scope = ScopeHint(documents=3)
    # after a dash only totals and lines named by their label are left out; the rest stays unread
    for message in ("All items with quantity over 5 - without the rows with discount.",
                    "Alle Positionen mit Menge über 5 – ohne die Acme-Rechnungen."):
        reading = read_message(message, scope)
        assert not [c for c in reading.conditions if c.op == "not"] and (reading.unused or reading.row_terms), message
    # a slashed date names no day for sure; a number after "no." is no year
    assert not {"03/04/2024", "04/03/2024"} & _spellings("Mar 4, 2024")
    assert "2023" not in read_message("List the items of invoice no. 2023. Columns: Item, Amount.", scope).document_conditions
    # the two bounds of a span of days are no days of the documents
    assert read_message("List the invoices from Jan 26, 2025 to Feb 2, 2025.", scope).document_conditions == []
    # a name in two languages across a slash is matched as written, not translated
    assert map_columns(["Model", "Precision"], ["Model", "Genauigkeit / Accuracy", "Recall"]) == {"Model": 0}
