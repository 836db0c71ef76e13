"""Rows picked by the kind a table's own column names ("the flights", "the fuel and travel
items", "which taxi rides"), by a sign ("refunds (negative amounts)"), and an owner that opens
the request as the scope's folders name it — read over documents of other authors
(``evals/unseen/``)."""

from __future__ import annotations

from pathlib import Path

from held_out import UNSEEN, document, scope

from core.reading import DocumentText, FolderCount, ScopeHint, Table
from tools.engines.columns import map_columns, match_column
from tools.engines.numbers import compare
from tools.engines.offline import extract_records, read_message
from tools.engines.offline.document_terms import kind_tables, terms_in_columns

BOADEN = UNSEEN / "public-pdfs" / "documents" / "tabula-java" / "src" / "test" / "resources" / "technology" / "tabula" / "should_detect_rulings.pdf"


def _document(path: Path) -> DocumentText:
    return document(path)


def _scope(path: Path, folders: list[str] | None = None) -> ScopeHint:
    return scope([path], folders)


def test_a_kind_two_columns_name_alike_picks_its_rows() -> None:
    # "Flights" under Grouping and "FLIGHT" under Sub-Type pick the same three rows
    reading = read_message("From Helen Boaden's expenses publication, list the flights with the reason, the date incurred and the amount.",
                           _scope(BOADEN))
    records = extract_records(_document(BOADEN), reading)
    assert [r.values["Reason"] for r in records] == ["ISLE OF MAN LGW/IOM/LGW", "GLASGOW LHR/GLA/LHR", "MADRID LHR/MAD/LHR"]
    assert [r.values["Amount"] for r in records] == ["-£7.75", "£169.50", "£259.05"]


def test_negative_amounts_compare_the_amount_with_zero() -> None:
    reading = read_message("Which of Helen Boaden's expense lines are refunds (negative amounts)? Give the grouping, reason, "
                           "date incurred and amount.", _scope(BOADEN))
    assert [(c.column, c.op, c.value) for c in reading.conditions] == [("Amount", "lt", "0")]
    assert "negative" not in reading.unused
    records = extract_records(_document(BOADEN), reading)
    assert [r.values["Amount"] for r in records] == ["-£65.00", "-£110.00", "-£64.20", "-£38.00", "-£7.75"]
    # "refunds" is still a judgement the offline engine did not make: no row is a promise
    assert all(r.match == "unsure" for r in records)


def test_two_kinds_of_one_column_are_alternatives() -> None:
    report = UNSEEN / "bursztyn" / "documents" / "HR" / "Expenses" / "2025" / "Expense_Report_T_Kowalski_2025-04.pdf"
    reading = read_message("Tomasz Kowalski's April expense report – show the fuel and travel items: date, description, amount.",
                           _scope(report))
    records = extract_records(_document(report), reading)
    assert [r.values["Amount"] for r in records] == ["361.50", "124.80", "287.90", "64.00", "583.30"]
    # what the offline engine checked: one condition on the Category column, of two alternatives
    checked = terms_in_columns(kind_tables(_document(report)), reading)
    assert [(c.column, c.op, c.value) for c in checked.conditions] == [("Category", "equals", "Fuel or Travel")]
    assert compare("equals", "Travel", "Fuel or Travel") is True
    assert compare("equals", "Parking", "Fuel or Travel") is False
    assert compare("not", "Parking", "Fuel or Travel") is True
    assert compare("equals", "Black or White", "Black or White") is True  # a value that holds "or" itself


def test_a_kind_within_a_phrase_picks_rows_and_leaves_the_rest_unjudged() -> None:
    workbook = UNSEEN / "business" / "documents" / "hr" / "expenses" / "2025" / "Expense_Report_Q1_2025.xlsx"
    reading = read_message("In the Q1 2025 expense report, which taxi rides were claimed? Date, employee and amount.", _scope(workbook))
    records = extract_records(_document(workbook), reading)
    assert [r.values["Amount"] for r in records] == ["41.20", "18.40", "38.70", "56.00", "58.00"]
    # the approval line under the items is no item and holds no category: it is left out
    assert not any("Approved" in (r.values["Date"] or "") for r in records)
    assert all(r.match == "unsure" and "taxi rides were claimed" in (r.note or "") for r in records)


def test_an_owner_may_open_the_request_where_the_scope_names_it() -> None:
    folders = ["Purchasing", "Purchasing/Invoices", "Purchasing/Invoices/2024/Halvorsen Metals", "Sales/Orders"]
    halvorsen = ScopeHint(documents=9, folders=[FolderCount(folder=f, documents=1) for f in folders])
    reading = read_message("Halvorsen invoice lines where we ordered at least 10 pieces - item number, description and quantity", halvorsen)
    assert reading.document_conditions == ["Halvorsen"]
    # a first word no folder names is no owner: "Order" is a verb or the kind of documents
    reading = read_message("Order lines of the Halvorsen invoices with quantity", halvorsen)
    assert "Order" not in reading.document_conditions


def test_a_kind_named_before_the_documents_picks_rows_though_a_legend_names_it_too() -> None:
    register = UNSEEN / "bursztyn" / "documents" / "Contracts" / "Contract_Register_2025.xlsx"
    reading = read_message("From the contract register, give me Contract ID, Counterparty and Annual Value (PLN) for every Active "
                           "contract worth more than 100,000 PLN a year.", _scope(register, ["Contracts"]))
    # what a contract is worth is the one requested column of value
    assert [(c.column, c.op) for c in reading.conditions] == [("Annual Value (PLN)", "gt")]
    records = extract_records(_document(register), reading)
    # "Status values: Active, Expiring, Expired, Terminated." under the table does not make every
    # contract of the register an active one
    assert [r.values["Contract ID"] for r in records] == ["UM/2022/004", "UM/2023/021", "UM/2025/006", "UM/2025/010"]
    assert all(r.match == "yes" for r in records)


def test_a_header_of_the_requested_kind_or_words_holds_the_column() -> None:
    # the one cell that starts with a name of the kind asked for, and names no other kind
    header = ["Line", "SKU", "Product", "Qty ordered", "List price", "Discount", "Net price", "Line value"]
    assert map_columns(["Product", "Quantity", "Discount", "Line value"], header) == {
        "Product": 2, "Quantity": 3, "Discount": 5, "Line value": 7}
    assert match_column("Total TTC", ["Date", "Gross weight", "Packages"]) is None  # a weight is no amount
    # the one cell that holds every word the request names it with
    header = ["Indicator", "DLHS-4 (2012-13) TOTAL", "DLHS-4 (2012-13) RURAL", "DLHS-3 (2007-08) TOTAL"]
    assert map_columns(["DLHS-4 total", "DLHS-3 total"], header) == {"DLHS-4 total": 1, "DLHS-3 total": 3}
    assert match_column("Rental handgun", ["State", "Returned/Disposition Handgun", "Rentals Handgun", "Rentals Long Gun"]) == 2
    assert match_column("Long gun", ["State", "Rentals Long Gun", "Private Sale Long Gun"]) is None  # two cells hold it


def test_a_sum_of_money_with_no_column_compares_the_value_requested() -> None:
    export = UNSEEN / "bursztyn" / "documents" / "Sales" / "Exports" / "zamowienia_2025-05.csv"
    reading = read_message("Orders from Sopot customers in May above 5 000 PLN — order no., date, customer and net value please.",
                           _scope(export))
    assert [(c.column, c.op, c.value) for c in reading.conditions] == [("Net value", "gt", "5 000 PLN")]
    assert reading.unused == []
    records = extract_records(_document(export), reading)
    # Polish headers (Nr zamówienia, Klient, Wartość netto (PLN)); Sopot is a city of the Miasto column
    assert [(r.values["Order no."], r.values["Net value"]) for r in records] == [
        ("ZAM/2025/05/001", "8245,60"), ("ZAM/2025/05/005", "7930,00"), ("ZAM/2025/05/010", "9015,30"),
        ("ZAM/2025/05/014", "8870,45"), ("ZAM/2025/05/017", "5340,10")]
    assert all(r.match == "yes" for r in records)


def test_a_quarter_names_the_documents_and_row_nouns_name_no_column() -> None:
    reading = read_message("Show me all items over 200 euros in the Q2 2025 expense report: date, employee, what it was and amount.",
                           ScopeHint(documents=3))
    # the quarter is the documents' period, not a year of the paths and a word left over
    assert reading.document_conditions == ["Q2 2025"] and reading.places == [] and reading.unused == []
    # "all items over 200 euros" names rows, not a column: the sum compares the amount requested
    assert [(c.column, c.op, c.value) for c in reading.conditions] == [("Amount", "gt", "200 euros")]


def test_a_name_of_several_words_may_stand_in_the_path_word_by_word() -> None:
    price_list = UNSEEN / "bursztyn" / "documents" / "Sales" / "Price_Lists" / "Cennik_HoReCa_2025-Q2.pdf"
    reading = read_message("From the Q2 HoReCa price list, which dairy products (Nabiał) cost more than 20 zł net? "
                           "Show Indeks, Nazwa produktu and Cena netto.", _scope(price_list))
    assert reading.document_conditions == ["Q2 HoReCa"]
    document = _document(price_list).model_copy(update={"path": "Sales/Price_Lists/Cennik_HoReCa_2025-Q2.pdf"})
    records = extract_records(document, reading)
    assert records and all(r.values["Indeks"] for r in records)
    # words the reading did not use ("dairy", "net") leave every row unsure
    assert all(r.match == "unsure" for r in records)
    # the text says "HoReCa" and "II kwartał 2025", never "Q2": without the path's words, no document of Q2 HoReCa
    assert extract_records(document.model_copy(update={"path": "Sales/Price_Lists/Cennik_Detal_2025-Q2.pdf"}), reading) == []


def test_a_kind_turned_down_by_a_negation_leaves_those_rows_out() -> None:
    disclosure = UNSEEN / "public-pdfs" / "documents" / "tabula-java" / "src" / "test" / "resources" / "technology" / "tabula" / "frx_2012_disclosure.pdf"
    reading = read_message("In the Forest Laboratories 2012 disclosure report, list every payment that was not for meals: physician, "
                           "related entity, purpose of payment and amount.", _scope(disclosure))
    checked = terms_in_columns(kind_tables(_document(disclosure)), reading)
    assert [(c.column, c.op) for c in checked.conditions if c.op != "judgement"] == [("Purpose of Payment", "not")]
    records = extract_records(_document(disclosure), reading)
    assert len(records) == 3 and all("meal" not in (r.values["Purpose of payment"] or "").casefold() for r in records)


def test_a_quarter_or_a_half_of_a_year_holds_the_months_and_dates_in_it() -> None:
    from datetime import date

    from tools.engines.numbers import compare, month_of_cell, period_range

    assert period_range("Q1 2025") == (date(2025, 1, 1), date(2025, 3, 31))
    assert period_range("H2 2024") == (date(2024, 7, 1), date(2024, 12, 31))
    assert period_range("H3 2024") is None
    # a month printed short with its year is that month ("Jan 2025", "Mär 2025")
    assert month_of_cell("Jan 2025") == 1 and month_of_cell("Mär 2025") == 3
    assert compare("equals", "Mar 2025", "Q1 2025") and compare("equals", "15.02.2025", "Q1 2025")
    assert compare("equals", "Apr 2025", "Q1 2025") is False and compare("equals", "Jan 2024", "Q1 2025") is False


def test_a_sum_of_money_under_a_word_that_names_no_column_compares_what_the_rows_cost() -> None:
    senate = UNSEEN / "public-pdfs" / "documents" / "pdfplumber" / "tests" / "pdfs" / "senate-expenditures.pdf"
    reading = read_message("From the Senate expenditure report page, which staff salary lines at the top are above $25,000? "
                           "Give payee name, description and amount.", _scope(senate))
    # "the top" is no column of the request nor of the scope: the questions show it as read
    assert [(c.column, c.op, c.value, c.scope_column) for c in reading.conditions] == [("Top", "gt", "$25,000", False)]
    records = extract_records(_document(senate), reading)
    # a table without such a column compares what a line costs, and every row says so
    amounts = [r.values["Amount"] for r in records]
    assert len(amounts) == 4 and all(float(a.replace(",", "")) > 25_000 for a in amounts)
    assert all("was checked as 'Amount above $25,000 (top)'" in (r.note or "") and r.match == "unsure" for r in records)
    # a word that names a header keeps its column
    named = read_message("Which lines have a description above $25,000? Payee name and amount.", _scope(senate))
    assert [(c.column, c.scope_column) for c in named.conditions] == [("Description", True)]


def test_a_sum_of_money_on_a_column_the_document_has_stays_on_it_though_the_scope_shows_none() -> None:
    leases = DocumentText(id=1, collection="c", path="leases.csv", pages=[""], tables=[Table(
        page=1, header=["Tenant", "Amount", "Security deposit (USD)"],
        rows=[["Acme", "100", "$1,000"], ["Bolt", "200", "$9,000"], ["Crux", "300", "$2,000"]])])
    hint = ScopeHint(documents=1, vocabulary=["Tenant", "Amount", "Invoice number"])
    reading = read_message("Which leases have a deposit above $5,000? Give tenant and amount.", hint)
    records = extract_records(leases, reading)
    # the deposit is compared where the document holds it, never moved to the amount
    assert [(r.values["Tenant"], r.values["Amount"]) for r in records] == [("Bolt", "200")]


def test_the_amount_of_a_documents_one_record_is_its_total_when_no_label_names_the_amount() -> None:
    invoices = UNSEEN / "corvane" / "documents" / "Purchasing" / "Invoices"
    tessaro = invoices / "Tessaro Software" / "TS-INV-5604.pdf"
    praxis = invoices / "2024" / "Praxis Elektronik" / "RE-2024-1187.docx"
    reading = read_message("Give me invoice number, date and total amount for every supplier invoice we received in 2024.",
                           _scope(tessaro))
    got = {}
    for path in (tessaro, praxis):
        (record,) = extract_records(_document(path), reading)
        got[path.name] = (record.values["Invoice number"], record.values["Total amount"])
        # the engine chose the label: the row says which (and stays unsure)
        assert record.match == "unsure" and "the document's total" in (record.note or "")
    # "Total due £6,860.00" under the lines; "Rechnungsbetrag: 2.937,00 €" beside "Nettobetrag"
    assert got == {"TS-INV-5604.pdf": ("TS-INV-5604", "£6,860.00"), "RE-2024-1187.docx": ("RE-2024-1187", "2.937,00 €")}


def test_a_value_compared_on_no_column_of_the_document_picks_the_rows_whose_cells_hold_it() -> None:
    awards = (UNSEEN / "public-pdfs" / "documents" / "tabula-java" / "src" / "test" / "resources" / "technology" / "tabula"
              / "Publication_of_award_of_Bids_for_Transport_Sector__August_2016.pdf")
    reading = read_message("From the publication of contract awards under the Ghana Transport Sector Project, which contracts "
                           "are still ongoing? Give serial no., contractor, contract amount and currency.", _scope(awards))
    assert ("Contracts", "equals") in [(c.column, c.op) for c in reading.conditions]  # no table has a Contracts column
    records = extract_records(_document(awards), reading)
    # the Remarks column says "Project ongoing", "Assignment is ongoing" or "Completed": the word picks the rows
    serials = [r.values["Serial no."] for r in records]
    assert len(serials) == 9 and "1" not in serials
    assert all(r.match == "unsure" for r in records)
    # a row whose remark is empty holds no "ongoing": it is no ongoing contract
    assert "35" not in serials
