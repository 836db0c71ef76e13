"""Requests as people write them without knowing the documents' headers, read against the scope's
vocabulary: the header a phrase holds is the column or the condition's column, the words around it
are left unused (so the rows are unsure), and a comparison's column may follow its value."""

from __future__ import annotations

from core.reading import DocumentText, FolderCount, ScopeHint, Table
from tools.engines.numbers import parse_number
from tools.engines.offline import extract_records, read_message

NICS = ["State / Territory", "Permit", "Handgun", "Long Gun", "Private Sale Handgun", "Private Sale Long Gun", "Totals"]
NICS_SCOPE = ScopeHint(documents=1, vocabulary=NICS, table_headers=[NICS])
LITERACY = ["State", "n", "Illiterate", "Read & Write", "Primary", "College"]


def _conditions(reading):  # type: ignore[no-untyped-def]
    return [(c.column, c.op, c.value) for c in reading.conditions]


def test_a_header_after_the_compared_value_is_the_conditions_column() -> None:
    reading = read_message(
        "Which states had more than 100 private sale handgun checks in November 2015? "
        "Show the private sale handgun and long gun counts and the state's total.", NICS_SCOPE)
    assert _conditions(reading) == [("Private sale handgun", "gt", "100")]
    assert reading.columns[0] == "States"
    assert "checks" in reading.unused  # a word no header says: the rows are unsure


def test_which_rows_after_an_opening_phrase_and_a_total_after_the_value() -> None:
    reading = read_message(
        "From the NICS firearm background checks for November 2015, which states or territories had more than "
        "100,000 checks in total? Show permit, handgun, long gun and the total.", NICS_SCOPE)
    assert _conditions(reading) == [("Total", "gt", "100,000")]
    assert reading.columns == ["States", "Permit", "Handgun", "Long gun", "Total"]
    assert not reading.row_terms


def test_a_comparison_in_a_which_clause_on_the_header_after_its_value() -> None:
    header = ["States/Union Territories", "1991-2001", "2001-2011"]
    table = Table(page=1, header=header, rows=[["Bihar", "28.62", "25.07"], ["Goa", "15.21", "8.23"], ["Kerala", "9.43", "4.91"]],
                  title=["TABLE 4: STATE-WISE DECADAL GROWTH RATE OF POPULATION", "(Per cent)"])
    document = DocumentText(id=1, collection="stats", path="population_growth.pdf", title="", pages=[""], tables=[table])
    scope = ScopeHint(documents=1, vocabulary=header, table_headers=[header])
    reading = read_message(
        "In the state-wise decadal population growth table, which states or union territories grew by less than "
        "10 per cent in 2001-2011? Show their 1991-2001 and 2001-2011 growth rates.", scope)
    assert [(c.op, c.value) for c in reading.conditions] == [("lt", "10 per cent")]
    assert not reading.row_terms
    records = extract_records(document, reading)
    assert [r.values["States"] for r in records] == ["Goa", "Kerala"]
    # "grew" is read as no part of the condition: every row says so
    assert all(r.match == "unsure" and "grew" in (r.note or "") for r in records)


def test_more_than_a_share_of_a_header_keeps_the_rows_meeting_it_unsure() -> None:
    table = Table(page=1, header=LITERACY, rows=[["Bihar", "412", "61.2", "20.1", "9.0", "1.2"], ["Kerala", "380", "8.1", "30.2", "20.0", "9.9"]])
    document = DocumentText(id=1, collection="c", path="twotables_2.pdf", title="", pages=[""], tables=[table])
    scope = ScopeHint(documents=1, vocabulary=LITERACY, table_headers=[LITERACY])
    reading = read_message(
        "In the table on literacy of adult women, which states have more than 50% illiterate? "
        "Show the illiterate share, the read & write share and the college share.", scope)
    assert reading.columns == ["States", "Illiterate", "Read & write", "College"]
    assert _conditions(reading) == [("Illiterate", "gt", "50%")]
    (record,) = extract_records(document, reading)
    assert record.values == {"States": "Bihar", "Illiterate": "61.2", "Read & write": "20.1", "College": "1.2"}
    assert record.match == "unsure" and "share" in (record.note or "")


def test_a_month_and_a_year_no_document_path_holds_is_no_folder() -> None:
    scope = ScopeHint(documents=3, years=["2015", "2016"], vocabulary=["PRODUCTS", "May/2013 (b)", "Jun/2013 (c)"])
    reading = read_message("Show the corn lines of the planted area table with the May/2013 and Jun/2013 estimates.", scope)
    assert reading.places == []
    assert reading.columns[0] == "May/2013"
    # a path with a year the scope's paths hold stays a place
    assert [p.value for p in read_message("Every invoice in invoices/2015 with its amount", scope).places] == ["invoices/2015"]


def test_words_opening_an_item_before_and_qualify_the_item_after_it() -> None:
    reading = read_message(
        "Which states had more than 100 private sale handgun checks in November 2015? "
        "Show the private sale handgun and long gun counts and the state's total.", NICS_SCOPE)
    assert reading.columns == ["States", "Private sale handgun", "Private sale long gun", "Total"]
    # no header joins the words: each item keeps its own name
    reading = read_message("From the NICS checks, show permit, handgun, long gun and the total.", NICS_SCOPE)
    assert reading.columns == ["Permit", "Handgun", "Long gun", "Total"]


def test_a_name_acting_towards_us_is_the_other_party_of_the_documents() -> None:
    scope = ScopeHint(documents=3, vocabulary=["Artikel", "Bezeichnung", "Menge", "Einzelpreis"])
    reading = read_message("What did Feldmann Bau order from us in August? Article, description, quantity and unit price.", scope)
    # the month is the documents' date: a condition on each document, and no word is left unused
    assert reading.document_conditions == ["Feldmann Bau", "August"]
    assert reading.unused == []
    reading = read_message("Pull out all licence charges Brightwave billed us in 2025: invoice number, description and amount.", scope)
    assert reading.document_conditions[0] == "Brightwave"  # (the year follows: this scope's paths hold none)
    # the charges asked for are rows the engine cannot pick: never dropped as a kind of document
    assert {"licence", "charges"} <= set(reading.unused)


def test_the_tables_total_line_is_no_item_unless_asked_for() -> None:
    header = ["State / Territory", "Permit", "Handgun", "Totals"]
    rows = [["Alabama", "10", "20", "30"], ["Alaska", "1", "2", "3"], ["Arizona", "5", "6", "11"], ["Totals", "16", "28", "44"]]
    document = DocumentText(id=1, collection="c", path="nics.pdf", title="", pages=[""], tables=[Table(page=1, header=header, rows=rows)])
    scope = ScopeHint(documents=1, vocabulary=header, table_headers=[header])
    reading = read_message("Which states had more than 5 permit checks? Show the permit, handgun and the total.", scope)
    assert [r.values["States"] for r in extract_records(document, reading)] == ["Alabama"]
    reading = read_message("Every state with its permit and handgun counts, including the totals line.", scope)
    assert [r.values.get("State") for r in extract_records(document, reading)][-1] == "Totals"
    # a "total" row that is not the sum of the rows above is an item like the others
    rows[-1] = ["Total", "99", "28", "44"]
    document = DocumentText(id=1, collection="c", path="nics.pdf", title="", pages=[""], tables=[Table(page=1, header=header, rows=rows)])
    reading = read_message("Every state with its permit and handgun.", scope)
    assert [r.values.get("State") for r in extract_records(document, reading)][-1] == "Total"


def test_the_number_of_what_a_header_counts_is_that_header() -> None:
    header = ["Summary by Month", "Notices", "Employees Affected", "Permanent Closure"]
    scope = ScopeHint(documents=1, vocabulary=header, table_headers=[header])
    reading = read_message("Give me the summary by month: month, number of notices, employees affected and permanent closures.", scope)
    # "Notices" counts the notices: the column keeps the request's name, and no word is left over
    assert reading.columns == ["Month", "Number of notices", "Employees affected", "Permanent closures"]
    assert "number" not in reading.unused
    # a name the scope has whole stays whole
    scope = ScopeHint(documents=1, vocabulary=["Number of containers", "Containers"])
    assert read_message("Carrier and number of containers of every shipment", scope).columns[-1] == "Number of containers"


def test_a_count_named_by_what_it_counts_and_a_total_line_after_a_page_break() -> None:
    """pdfplumber's WARN report: its monthly summary runs over two pages, its "Total" line sums the
    months of both; "number of notices" is the "Notices" column."""
    from pathlib import Path

    from tools.engines.columns import map_columns
    from tools.parsing import parse_file

    assert map_columns(["Number of notices"], ["Summary by Month", "Notices"]) == {"Number of notices": 1}
    assert map_columns(["Number of employees"], ["Company", "No. of Employees"]) == {"Number of employees": 1}
    path = Path(__file__).resolve().parents[2] / "evals/unseen/public-pdfs/documents/pdfplumber/tests/pdfs/WARN-Report-for-7-1-2015-to-03-25-2016.pdf"
    parsed = parse_file(path)
    document = DocumentText(id=1, collection="public", path=path.name, title=parsed.title, pages=parsed.pages, tables=parsed.tables)
    message = "Give me the summary by month at the end of the WARN report: month, number of notices, employees affected and permanent closures."
    records = extract_records(document, read_message(message, ScopeHint(documents=1)))
    months = [r.values["Month"] for r in records]
    assert months[0] == "July 2015" and len(months) == 9 and "Total" not in months
    assert records[0].values == {"Month": "July 2015", "Number of notices": "71", "Employees affected": "8,574", "Permanent closures": "25"}


def test_a_month_over_a_monthly_list_is_a_condition_on_its_month_column() -> None:
    table = Table(page=1, header=["Month", "Region", "Units sold", "Orders"],
                  rows=[["2024-02", "DACH", "30", "12"], ["2024-03", "DACH", "33", "13"], ["2024-03", "UK", "21", "9"]])
    document = DocumentText(id=1, collection="c", path="Sales/Reports/monthly_sales_2024.csv", pages=[""], tables=[table])
    reading = read_message("Region, units sold and number of orders in March", ScopeHint(documents=3))
    assert reading.document_conditions == ["March"]
    records = extract_records(document, reading)
    # the list is no document dated in March: its Month column says which rows are
    assert [(r.match, r.values) for r in records] == [
        ("yes", {"Region": "DACH", "Units sold": "33", "Number of orders": "13"}),
        ("yes", {"Region": "UK", "Units sold": "21", "Number of orders": "9"}),
    ]


def test_a_line_of_a_table_that_fills_few_of_the_requested_cells_is_never_yes() -> None:
    table = Table(page=1, header=["Item #", "Description", "Qty", "Unit cost"],
                  rows=[["HM-R20", "Round bar", "40", "18.75"], ["Delivered in two parts", "", "", ""]])
    document = DocumentText(id=1, collection="c", path="invoices/hm.xlsx", pages=[""], tables=[table])
    reading = read_message("Item #, description, qty and unit cost of every line", ScopeHint(documents=1))
    records = extract_records(document, reading)
    assert [(r.match, r.values["Item #"]) for r in records] == [("yes", "HM-R20"), ("unsure", "Delivered in two parts")]
    assert "most requested cells of this row are empty" in (records[1].note or "")
    # a labelled note across the line ("Payment terms: …") is no line of the table at all
    table.rows[1] = ["Payment terms: 30 days net.", "", "", ""]
    assert [r.values["Item #"] for r in extract_records(document, reading)] == ["HM-R20"]


def test_what_figures_are_given_per_is_the_first_column() -> None:
    scope = ScopeHint(documents=3, vocabulary=["Month", "Region", "Units sold", "Orders"])
    reading = read_message("Sales per region in March 2024 - units sold and number of orders", scope)
    assert reading.columns == ["Region", "Units sold", "Number of orders"] and reading.unused == []
    # a calculation "per" a column stays the calculation's grouping
    assert read_message("Average unit price per region", scope).calculations


SHIPMENTS = ["Zendingnr.", "Datum", "Bestemming", "Colli", "Gewicht (kg)", "Vrachtkosten"]
CYCLES = ["Cycle Name", "KI (1/km)", "Distance (mi)", "Percent Fuel Savings Eliminate Stops"]
POSITIONS = ["Lp.", "Nazwa towaru", "Ilość", "J.m.", "Cena netto (PLN)", "Wartość netto (PLN)"]


def test_a_comparisons_unit_names_the_column_its_header_gives_in_brackets() -> None:
    """"heavier than 100 kg" compares the one header whose unit is kg; the words before it stay
    for the owner and the rows, never a column of their own."""
    scope = ScopeHint(documents=1, vocabulary=SHIPMENTS, table_headers=[SHIPMENTS])
    reading = read_message("Van Rijn shipments heavier than 100 kg: shipment number, destination and freight cost", scope)
    assert _conditions(reading) == [("Gewicht (kg)", "gt", "100 kg")]
    assert reading.columns == ["Shipment number", "Destination", "Freight cost"]
    scope = ScopeHint(documents=1, vocabulary=CYCLES, table_headers=[CYCLES])
    reading = read_message("Show the cycles longer than 50 miles with their KI and distance.", scope)
    assert _conditions(reading) == [("Distance (mi)", "gt", "50 miles")]
    # a header before the comparison is still its column
    reading = read_message("Cycles with a distance (mi) of more than 50 mi: cycle name and KI", scope)
    assert [c for c, *_ in _conditions(reading)] == ["Distance (mi)"]


def test_a_word_after_an_amount_that_opens_a_phrase_is_no_column() -> None:
    # a stock sheet's "In" and "Out" columns beside the report's
    scope = ScopeHint(documents=2, vocabulary=["Date", "Employee", "Amount", "In", "Out"],
                      table_headers=[["Date", "Employee", "Amount"], ["Date", "In", "Out"]])
    reading = read_message("Show me all items over 200 euros in the Q2 2025 expense report: date, employee and amount.", scope)
    assert ("In", "gt", "200 euros") not in _conditions(reading)
    assert [c for c, *_ in _conditions(reading)] == ["Amount"]


def test_what_we_did_names_no_column_and_leaves_no_word_unused() -> None:
    """"What did we buy from …": the auxiliary, its person and the verb say what was done; the
    rows are every column of what was bought from the owner."""
    scope = ScopeHint(documents=1, vocabulary=POSITIONS, table_headers=[POSITIONS])
    reading = read_message("What did we buy from Mleczarnia Kaszubska in December 2024?", scope)
    assert "Did we buy" not in reading.columns and reading.columns == POSITIONS
    assert "Mleczarnia Kaszubska" in reading.document_conditions
    assert reading.unused == [] and "buy" not in reading.document_kinds
    reading = read_message(
        "Quelles lentilles avons-nous achetées chez Optique Delaunay ? Donne-moi la désignation et la quantité.", scope)
    assert "Optique Delaunay" in reading.document_conditions
    assert not {"avons-nous", "achetées"} & set(reading.document_kinds) and not {"avons-nous", "achetées"} & set(reading.unused)
    reading = read_message("Which sensors did we buy from Praxis? Article number and quantity.", scope)
    assert "Praxis" in reading.document_conditions and not reading.row_terms


def test_a_measures_comparison_needs_a_unit_that_names_a_column() -> None:
    """The word before "heavier than" is what is weighed, even when it names a header; a measure
    whose unit names no column ("longer than 24 months") compares nothing and is no column."""
    scope = ScopeHint(documents=1, vocabulary=["Shipment", "Weight (kg)"], table_headers=[["Shipment", "Weight (kg)"]])
    assert _conditions(read_message("Show shipments heavier than 100 kilos", scope)) == [("Weight (kg)", "gt", "100 kilos")]
    assert _conditions(read_message("Envois plus lourdes que 100 kg", scope)) == [("Weight (kg)", "gt", "100 kg")]
    contracts = ScopeHint(documents=1, vocabulary=["Contract", "Start date", "End date"],
                          table_headers=[["Contract", "Start date", "End date"]])
    reading = read_message("Which contracts ran longer than 24 months? Contract and start date.", contracts)
    assert not [c for c in _conditions(reading) if c[0] and c[0].startswith(("Contract", "Ran"))]


def test_the_askers_verb_leaves_a_comparison_after_it_and_a_clause_beyond_the_owner() -> None:
    scope = ScopeHint(documents=1, vocabulary=["Invoice number", "Date", "Supplier"],
                      table_headers=[["Invoice number", "Date", "Supplier"]])
    reading = read_message("Which invoices did we receive before 2024?", scope)
    assert [(op, value) for _, op, value in _conditions(reading)] == [("lt", "2024")]
    reading = read_message("Which invoices from Acme are still open?", scope)
    assert any("still open" in term for term in reading.row_terms)  # only meaning can judge it: never dropped


HEALTH = ["States-A", "Capital Family Welfare", "Total Revenue & Capital", "Others⁽¹⁾", "Others", "Total"]


def test_a_conditions_column_is_the_header_its_words_open_with_and_a_financial_year_names_the_documents() -> None:
    """"whose 'Others' outlay is more than 1,000,000": the quoted header is the column compared;
    "2012-13" after the table's name says which documents; "figures" after the columns asks for
    their values. No word is left unused."""
    scope = ScopeHint(documents=2, vocabulary=[*HEALTH, "State", "n"], table_headers=[HEALTH, ["State", "n"]])
    reading = read_message(
        "From the Public Health Outlay 2012-13 budget estimates table, list the states whose 'Others' outlay is more "
        "than 1,000,000, with their Total Revenue & Capital and Others figures.", scope)
    assert _conditions(reading) == [("Others", "gt", "1,000,000")]
    assert "2012-13" in reading.document_conditions
    assert reading.unused == []
    # a value noun anywhere else is a word like any other
    reading = read_message("List the states with figures: Total Revenue & Capital and Others.", scope)
    assert "figures" in reading.unused


INCIDENTS = ["Number", "Opened", "Priority", "Vendor", "Service", "Short description"]


def test_the_header_nearest_a_comparison_among_its_words_is_its_column() -> None:
    """"all priority-1 incidents opened between April and June 2025": "Opened" is the column the
    dates compare, "priority-1" is priority 1; the words are each read, none taken into a column
    name they are not ("All priority-1 incidents opened")."""
    scope = ScopeHint(documents=2, vocabulary=[*INCIDENTS, "Incidents"], table_headers=[INCIDENTS, ["Month", "Incidents"]])
    reading = read_message("List all priority-1 incidents opened between April and June 2025 with number and vendor.", scope)
    assert _conditions(reading) == [("Priority", "equals", "1"), ("Opened", "ge", "April 2025"), ("Opened", "le", "June 2025")]
    assert reading.unused == []


def test_a_header_opening_with_the_values_unit_and_no_header_far_from_the_comparison() -> None:
    """"more than 60 days overdue" compares "Days overdue"; "customer" three words before the
    comparison is no column of it; a span of years beside a header "2012" is no condition on it."""
    scope = ScopeHint(documents=1, vocabulary=["Customer", "Invoice", "Amount", "Days overdue"],
                      table_headers=[["Customer", "Invoice", "Amount", "Days overdue"]])
    reading = read_message("Which customer invoices were more than 60 days overdue? Customer, invoice and amount.", scope)
    assert _conditions(reading) == [("Days overdue", "gt", "60")]
    reading = read_message("Which customer invoices were more than 60 days late? Customer, invoice and amount.", scope)
    assert "Customer" not in [c for c, *_ in _conditions(reading)]
    years = ScopeHint(documents=1, vocabulary=["State", "2012", "2013"], table_headers=[["State", "2012", "2013"]])
    reading = read_message("From the 2012-13 outlay table, list the states with 2012 and 2013.", years)
    assert not [c for c in _conditions(reading) if c[0] == "2012"]


def test_a_name_said_to_be_what_a_header_names_is_that_columns_value() -> None:
    """"the contracts Lucía Ferrer is responsible for", "Which contracts is Sophie Keller
    responsible for": the name is the Responsible column's value, never a column of its own."""
    header = ["Contract ID", "Counterparty", "End Date", "Status", "Responsible"]
    scope = ScopeHint(documents=1, vocabulary=header, table_headers=[header])
    for message in ("List the contracts Lucía Ferrer is responsible for, with contract ID, counterparty and status.",
                    "Which contracts is Lucía Ferrer responsible for? Contract ID, counterparty and status."):
        reading = read_message(message, scope)
        assert ("Responsible", "equals", "Lucía Ferrer") in _conditions(reading), message
        assert not [c for c in reading.columns if "Ferrer" in c] and reading.unused == [], message


def test_a_spanish_question_opens_at_its_mark_and_shares_the_head_before_de() -> None:
    """"¿qué tiempos de respuesta y de resolución hay …?": "¿" opens the question, "qué" asks for
    the values, and "de resolución" is "tiempos de resolución"."""
    header = ["Prioridad", "Definición", "Tiempo de respuesta", "Tiempo de resolución"]
    scope = ScopeHint(documents=1, vocabulary=header, table_headers=[header])
    reading = read_message(
        "En el acuerdo de servicio con Brightcell, ¿qué tiempos de respuesta y de resolución hay para cada prioridad?", scope)
    assert reading.columns == ["Prioridad", "Tiempos de respuesta", "Tiempos de resolución"]
    assert reading.document_conditions == ["Brightcell"] and reading.unused == []


def test_the_noun_after_words_naming_a_folder_is_its_documents_kind() -> None:
    """"the Q2 2025 expense report" over hr/expenses/ and several reports/ folders is a report in
    hr/expenses/, not every folder named reports; "the management report" over management/ and
    management/reports/ keeps both."""
    folders = ["hr/expenses", "finance/reports", "management", "management/reports", "ops/sla/reports"]
    scope = ScopeHint(documents=9, folders=[FolderCount(folder=f, documents=2) for f in folders],
                      vocabulary=["Date", "Employee", "Amount", "Region", "Revenue"],
                      table_headers=[["Date", "Employee", "Amount"], ["Region", "Revenue"]])
    reading = read_message("Show every item of the Q2 2025 expense report: date, employee and amount.", scope)
    assert [(p.kind, p.value) for p in reading.places] == [("folder", "hr/expenses")]
    assert reading.unused == []
    reading = read_message("From the Q1 2025 management report, give me region and revenue.", scope)
    assert ("folder", "management") in [(p.kind, p.value) for p in reading.places]
    assert len(reading.places) == 2


def test_years_after_what_the_list_asks_for_are_its_columns() -> None:
    """"the mandatory programs with their outlays in 2011, 2012 and 2013" over a table headed by
    years: the years are the columns, the outlays what they hold; "–38" is minus 38."""
    header = ["Category", "2010", "2011", "2012", "2013"]
    table = Table(page=1, header=header, rows=[
        ["Mandatory programs:", "", "", "", ""],
        ["Social Security", "701", "725", "773", "820"],
        ["TARP", "151", "–38", "2", "4"],
    ], title=["Table S-4. Adjusted Baseline by Category (billions of dollars)"])
    scope = ScopeHint(documents=1, vocabulary=header, table_headers=[header])
    reading = read_message("From Table S-4, list the mandatory programs with their outlays in 2011, 2012 and 2013.", scope)
    assert reading.columns == ["2011", "2012", "2013"] and reading.subject == "Mandatory programs"
    document = DocumentText(id=1, collection="c", path="budget/s4.pdf", title="", pages=["Table S-4"], tables=[table])
    records = extract_records(document, reading)
    assert [r.values["Mandatory programs"] for r in records] == ["Social Security", "TARP"]
    assert [(r.values["2011"], r.values["2013"]) for r in records] == [("725", "820"), ("–38", "4")]
    assert parse_number("–38") == -38


def test_an_entry_under_a_header_and_that_figure_asked_for_again() -> None:
    """"which states have an entry under loans from SBI & other banks? Give the total internal debt
    and that loan figure": a dash is no entry, "that loan figure" is the column named before, and
    the line of all states that sums them is no state."""
    header = ["States", "Total Internal Debt", "Market Loans", "Loans from SBI & Other Banks"]
    rows = [["Assam", "12.69", "10.02", "0.01"], ["Bihar", "40.75", "41.54", "-0.36"], ["Goa", "1.4", "1.02", "-"],
            ["Kerala", "29.03", "24.91", ""], ["ALL STATES", "83.87", "77.49", "-0.35"]]
    document = DocumentText(id=1, collection="c", path="liabilities.pdf", title="", pages=[""],
                            tables=[Table(page=1, header=header, rows=rows)])
    scope = ScopeHint(documents=1, vocabulary=header, table_headers=[header])
    reading = read_message("Which states have an entry under loans from SBI & other banks? "
                           "Give the total internal debt and that loan figure.", scope)
    assert reading.columns == ["States", "Total internal debt", "Loans from SBI & other banks"]
    assert _conditions(reading) == [("Loans from SBI & other banks", "not", "")] and reading.unused == []
    records = extract_records(document, reading)
    assert [(r.values["States"], r.values["Loans from SBI & other banks"], r.match) for r in records] == [
        ("Assam", "0.01", "yes"), ("Bihar", "-0.36", "yes")]
    none = read_message("Which states have no entry under loans from SBI & other banks? Give the market loans.", scope)
    assert [r.values["States"] for r in extract_records(document, none)] == ["Goa", "Kerala"]


def test_a_sign_on_a_name_under_its_group_is_on_the_grouped_header() -> None:
    """"a non-zero Family Welfare amount under Capital" over "Revenue Family Welfare" and "Capital
    Family Welfare": the condition is on the Capital one."""
    header = ["States", "Revenue Family Welfare", "Capital Family Welfare", "Total"]
    rows = [["Assam", "2,554,197", "0", "21,999,123"], ["Gujarat", "4,100,000", "42,000", "46,413,160"]]
    document = DocumentText(id=1, collection="c", path="health.pdf", title="", pages=[""],
                            tables=[Table(page=1, header=header, rows=rows)])
    scope = ScopeHint(documents=1, vocabulary=header, table_headers=[header])
    reading = read_message("Which states have a non-zero Family Welfare amount under Capital? Give the state and total.", scope)
    assert _conditions(reading) == [("Capital Family Welfare", "not", "0")]
    assert [r.values["State"] for r in extract_records(document, reading)] == ["Gujarat"]


def test_names_after_what_a_list_asks_for_are_its_columns() -> None:
    """"how often they occur in NVAF patients and in DVT/PE treatment (VTEt)": the codes the long
    headers end with name the columns; "its surplus/deficit for rice and for paddy": the closing
    words of two headers, read with what they hold."""
    adverse = ["System organ class", "Prevention of VTE in adult patients after hip or knee replacement (VTEp)",
               "Prevention of stroke and systemic embolism in adult patients with NVAF, with one or more risk factors (NVAF)",
               "Treatment of DVT and PE, and prevention of recurrent DVT and PE (VTEt)"]
    scope = ScopeHint(documents=1, vocabulary=adverse, table_headers=[adverse])
    reading = read_message("List the reactions with how often they occur in NVAF patients and in DVT/PE treatment (VTEt).", scope)
    assert reading.columns == ["NVAF", "VTEt"]
    table = Table(page=1, header=adverse, rows=[["Nausea", "Common", "Common", "Uncommon"]])
    document = DocumentText(id=1, collection="c", path="smpc.pdf", title="", pages=[""], tables=[table])
    assert [(r.values["NVAF"], r.values["VTEt"]) for r in extract_records(document, reading)] == [("Common", "Uncommon")]
    crops = ["District", "Production (Rice) Total", "Surplus/Deficit (In Lakh tonnes) Rice", "Surplus/Deficit (In Lakh tonnes) Paddy"]
    scope = ScopeHint(documents=1, vocabulary=crops, table_headers=[crops])
    reading = read_message("List the district with its surplus/deficit for rice and for paddy.", scope)
    assert reading.columns[-2:] == ["Surplus/deficit rice", "Surplus/deficit paddy"]
    # one word after "for" is no list of columns: "the total for Kerala" stays as it was read
    assert "Kerala" not in read_message("List the district with its total for Kerala.", scope).columns


def test_a_header_too_long_to_be_a_name_is_named_by_its_code() -> None:
    from tools.knowledge.vocabulary import document_vocabulary
    from tools.parsing.base import ParsedDocument

    long = "Prevention of stroke and systemic embolism in adult patients with NVAF, with one or more risk factors (NVAF)"
    parsed = ParsedDocument(title="", media_type="application/pdf", pages=[""],
                            tables=[Table(page=1, header=["System organ class", long, "Unit price net (EUR)"], rows=[])])
    assert document_vocabulary(parsed) == ["System organ class", "NVAF", "Unit price net (EUR)"]


def test_which_after_an_opening_phrase_under_a_heading_asks_which_rows() -> None:
    header = ["Volume servers in:", "2007", "2008", "2009"]
    scope = ScopeHint(documents=1, vocabulary=header, table_headers=[header])
    reading = read_message("Under the state-of-the-art scenario, which space types have a 2009 UEC above 1,500? "
                           "Give the 2008 and 2009 values.", scope)
    assert _conditions(reading) == [("2009", "gt", "1,500")]
    assert reading.columns == ["2008", "2009"] and reading.subject == "Space types"


def test_a_heading_over_rows_picks_them_and_is_no_kind_of_row() -> None:
    """"Under the state-of-the-art scenario" over a table of scenario blocks: the rows under that
    heading, not the heading's own line taken for a kind of row; "Table A4-12" says which document."""
    header = ["Volume servers in:", "2007", "2008", "2009"]
    rows = [["Server rooms", "1,512", "1,586", "1,646"], ["Best practice scenario", "", "", ""],
            ["Server rooms", "1,465", "1,472", "1,427"], ["Server closets", "1,456", "1,439", "1,386"],
            ["State-of-the-art scenario", "", "", ""], ["Server closets", "1,485", "1,471", "1,424"],
            ["Server rooms", "1,495", "1,573", "1,586"]]
    document = DocumentText(id=1, collection="c", path="servers.pdf", title="", pages=["Table A4-12. Volume server UEC"],
                            tables=[Table(page=1, header=header, rows=rows)])
    scope = ScopeHint(documents=1, vocabulary=header, table_headers=[header])
    reading = read_message("Under the state-of-the-art scenario in Table A4-12, which space types have a 2009 UEC above 1,500? "
                           "Give the 2008 and 2009 values.", scope)
    assert reading.document_conditions == ["Table A4-12"]
    assert [(r.values["2008"], r.values["2009"]) for r in extract_records(document, reading)] == [("1,573", "1,586")]
