"""Rules that read more of a request must never turn a wrong value into `yes`: a month is a date,
never a word; an owner is a whole name; a document's label never fills a line's own value; a
second table's total is no item; a range is two comparisons; a glyph without text spoils the
value it stands in; a word picking rows is checked only against a column of kinds."""

from __future__ import annotations

from core.reading import DocumentText, ScopeHint, Table
from tools.engines.columns import map_columns, names_of
from tools.engines.numbers import compare
from tools.engines.offline import extract_records, read_message
from tools.engines.offline.document_names import meets_document_conditions

SCOPE = ScopeHint(documents=3)


def _document(page: str, *tables: Table, path: str = "doc.pdf") -> DocumentText:
    return DocumentText(id=1, collection="c", path=path, pages=[page], tables=list(tables))


def test_a_month_is_the_documents_date_never_the_word_alone() -> None:
    letter = _document("Datum: 04.08.2025\nItems may be returned within 14 days; payment due in March.")
    assert meets_document_conditions(letter, ["August"])
    assert not meets_document_conditions(letter, ["May"]) and not meets_document_conditions(letter, ["March"])
    assert meets_document_conditions(_document("NICS checks: November 2015"), ["November"])
    assert meets_document_conditions(_document("NICS Firearm Background Checks\nNovember - 2015"), ["November"])


def test_a_month_with_its_year_over_a_list_of_dates_keeps_that_year_only() -> None:
    assert compare("equals", "2024-03", "March 2024") and not compare("equals", "15.03.2023", "March 2024")
    book = Table(page=1, header=["Order", "Date", "Amount"],
                 rows=[["SO-1", "15.03.2023", "10.00"], ["SO-2", "12.03.2024", "20.00"], ["SO-3", "02.04.2024", "30.00"]])
    reading = read_message("Order, date and amount of every order in March 2024", SCOPE)
    assert [r.values["Order"] for r in extract_records(_document("", book, path="orders/book.xlsx"), reading)] == ["SO-2"]


def test_an_owner_in_a_column_is_that_whole_name_only() -> None:
    orders = Table(page=1, header=["Order", "Customer", "Amount"], rows=[
        ["SO-1", "Nordwerk GmbH", "10.00"], ["SO-2", "Nordwerkstatt AG", "20.00"], ["SO-3", "Nordwerk Logistik GmbH", "30.00"]])
    reading = read_message("Order and amount of every order from Nordwerk", SCOPE)
    assert [r.values["Order"] for r in extract_records(_document("", orders, path="orders.csv"), reading)] == ["SO-1"]


def test_a_documents_label_never_fills_a_lines_own_value() -> None:
    page = "Rechnung RE-2025-0588\nDatum: 03.04.2025\nGesamtbetrag 198,00 EUR"
    lines = Table(page=1, header=["Pos", "Artikel", "Bezeichnung", "Menge"], rows=[["1", "D-1", "Dock", "1"], ["2", "M-2", "Maus", "2"]])
    records = extract_records(_document(page, lines), read_message("Description and amount of every line", SCOPE))
    assert [(r.match, r.values) for r in records] == [
        ("unsure", {"Description": "Dock", "Amount": None}), ("unsure", {"Description": "Maus", "Amount": None})]
    numbered = extract_records(_document(page, lines), read_message("Invoice number, description and quantity of every line", SCOPE))
    assert [r.values["Invoice number"] for r in numbered] == ["RE-2025-0588", "RE-2025-0588"]


def test_the_total_of_a_second_table_with_the_same_header_is_no_item() -> None:
    header = ["Item", "Qty", "Amount"]
    hardware = Table(page=1, header=header, rows=[["Dock", "1", "100.00"], ["Screen", "1", "200.00"], ["Total", "", "300.00"]])
    software = Table(page=1, header=header, rows=[["Licence", "1", "150.00"], ["Support", "1", "200.00"], ["Total", "", "350.00"]])
    records = extract_records(_document("", hardware, software), read_message("Item and amount of every line", SCOPE))
    assert [r.values["Item"] for r in records] == ["Dock", "Screen", "Licence", "Support"]


def test_a_range_is_two_comparisons_on_one_column() -> None:
    reading = read_message("Lines with an amount over 100 and under 500: description and amount", SCOPE)
    assert [(c.column, c.op, c.value) for c in reading.conditions] == [("Amount", "gt", "100"), ("Amount", "lt", "500")]
    reading = read_message("Lines with a quantity of at least 5 and less than 20: description and quantity", SCOPE)
    assert [(c.column, c.op, c.value) for c in reading.conditions] == [("Quantity", "ge", "5"), ("Quantity", "lt", "20")]


def test_a_word_picking_rows_is_checked_only_against_a_column_of_kinds() -> None:
    lines = Table(page=1, header=["Description", "Group", "Amount"], rows=[
        ["Service", "Labour", "90.00"], ["Service visit Saturday", "Labour", "120.00"], ["Dock", "Hardware", "100.00"]])
    records = extract_records(_document("", lines), read_message("Description and amount of every service line", SCOPE))
    # "Description" names each line, no kind: the rows that name the word are kept, unsure with the
    # word not judged, and the row left out is said on them
    assert [r.values["Description"] for r in records] == ["Service", "Service visit Saturday"]
    assert {r.match for r in records} == {"unsure"}
    assert all("not judged: 'service'" in r.note and "1 other row of this document, which does not, was left out" in r.note
               for r in records)
    # a word no description holds picks nothing: every row stays, unsure
    unread = extract_records(_document("", lines), read_message("Description and amount of every licence line", SCOPE))
    assert len(unread) == 3 and {r.match for r in unread} == {"unsure"}
    kinds = extract_records(_document("", lines), read_message("Description and amount of every labour line", SCOPE))
    assert [(r.match, r.values["Description"]) for r in kinds] == [("yes", "Service"), ("yes", "Service visit Saturday")]


def test_cost_names_no_column_by_itself() -> None:
    assert map_columns(["Unit price"], ["Position", "Menge", "Einzelpreis", "Kosten"]) == {"Unit price": 2}
    assert map_columns(["Cost"], ["Item", "Qty", "Unit cost", "Total cost"]) == {}
    reading = read_message("Which articles cost more than 100 EUR? Article number and list price.", SCOPE)
    assert [(c.column, c.op) for c in reading.conditions] == [("List price", "gt")]  # what they cost: the price asked for


def test_whose_name_is_asked_names_the_column_of_names() -> None:
    header = ["Physician", "Related Entity (if applicable)", "City / State", "Purpose of Payment", "Amount ($USD)"]
    assert map_columns(["Physician's name", "Amount"], header) == {"Physician's name": 0, "Amount": 4}
    assert map_columns(["Name of the supplier"], ["Supplier", "Total"]) == {"Name of the supplier": 0}


def test_words_a_description_holds_pick_rows_and_the_rest_is_said() -> None:
    lines = Table(page=1, header=["Art.-Nr.", "Description", "Quantity"], rows=[
        ["PE-DSP-0290", 'OLED-Display 2,9", SPI', "50"], ["PE-SEN-7730", "Drucksensor 0–10 bar, I²C", "40"],
        ["PE-MCU-4471", "Mikrocontroller STM32F4", "200"], ["PE-CON-1208", "Steckverbinder M12, 8-polig", "120"]])
    invoice = _document("Rechnung RE-2024-1342\nPraxis Elektronik GmbH", lines, path="invoices/RE-2024-1342.docx")
    reading = read_message("Which sensors and displays did we buy? Art.-Nr., description and quantity.", SCOPE)
    records = extract_records(invoice, reading)
    # a hyphenated word and the end of a compound name the kind; the rows are kept unsure: the
    # word is found, whether each row is one stays unjudged, and the two left out are said
    assert [r.values["Art.-Nr."] for r in records] == ["PE-DSP-0290", "PE-SEN-7730"]
    assert {r.match for r in records} == {"unsure"}
    assert all("2 other rows of this document, which do not, were left out" in r.note for r in records)
    # a phrase the reading kept whole is never cut down to one of its words
    whole = read_message("Which staff salary lines are above 100? Art.-Nr., description and quantity.", SCOPE)
    assert len(extract_records(invoice, whole)) == len(extract_records(invoice, whole.model_copy(update={"row_terms": []})))


def test_a_name_with_a_qualifier_in_brackets_is_a_condition_on_its_column() -> None:
    sheet = Table(page=1, header=["Fecha", "Obra", "Tarea", "Horas"], rows=[
        ["02/06/2025", "Soler Roig (Torrent)", "Montaje", "8:00"],
        ["04/06/2025", "Supermercados Horta Sud (Alicante)", "Replanteo", "7:30"]])
    reading = read_message("Fecha, tarea y horas de los días en la obra de Supermercados Horta Sud", SCOPE)
    records = extract_records(_document("Parte de horas", sheet, path="partes/junio.xlsx"), reading)
    assert [r.values["Fecha"] for r in records] == ["04/06/2025"]


def test_a_measured_comparison_compares_the_column_that_names_what_is_measured() -> None:
    log = Table(page=1, header=["date", "zone", "setpoint_c", "reading_c"], rows=[
        ["2025-05-02", "Freezer F1", "-20.0", "-20.4"], ["2025-05-16", "Freezer F2", "-20.0", "-16.4"],
        ["2025-05-16", "Chiller C1", "2.0", "2.4"]])
    scope = ScopeHint(documents=1, vocabulary=["date", "zone", "setpoint_c", "reading_c"])
    reading = read_message("Freezer readings warmer than -18 °C: date, zone and reading", scope)
    assert [(c.column, c.op, c.value) for c in reading.conditions] == [("Reading", "gt", "-18 °C")]
    records = extract_records(_document("", log, path="checks/temperatures.csv"), reading)
    assert [r.values["Zone"] for r in records] == ["Freezer F2"]  # the chiller is no freezer, -20.4 is not warmer
    assert compare("gt", "-16.4", "-18 °C") and compare("gt", "-20.4", "-18 °C") is False
    assert names_of("reading_c") == ["reading c", "reading"] and names_of("Gewicht (kg)") == ["gewicht kg", "gewicht"]


def test_a_question_after_a_comma_asks_for_headers_written_with_versus() -> None:
    header = ["Region", "Q2 2024 (EUR)", "Q2 2025 (EUR)", "Change vs Q2 2024"]
    scope = ScopeHint(documents=1, table_headers=[header], vocabulary=header)
    reading = read_message("For each region in the Q2 report, what was the Q2 2025 figure and the change versus Q2 2024?", scope)
    assert "Change versus Q2 2024" in reading.columns and "Q2 2024" not in reading.document_conditions
    assert map_columns(["Change versus Q2 2024", "Summary"], [*header, "Short description"]) == {
        "Change versus Q2 2024": 3, "Summary": 4}


def test_words_in_cells_never_make_another_table_hold_the_request() -> None:
    log = Table(page=1, header=["Ticket", "Description", "Status"], rows=[
        ["INC-1", "Licence server down", "Open"], ["INC-2", "WAN outage", "Closed"], ["INC-3", "Licence expired", "Open"]])
    # one of three requested columns: the log does not hold the request, and "licence" in its
    # descriptions (a column the word would check) does not make it
    reading = read_message("Ticket, quantity and amount of all licence lines", SCOPE)
    assert extract_records(_document("", log, path="ops/incidents.csv"), reading) == []


def test_a_german_genitive_names_the_owner_and_fur_a_month_dates_the_document() -> None:
    claims = Table(page=1, header=["Datum", "Kategorie", "Beschreibung", "Betrag (EUR)", "Zahlungsart"], rows=[
        ["06.03.2024", "Bewirtung", "Geschäftsessen", "246,80", "Privat"],
        ["08.03.2024", "Reise", "Bahnticket", "89,00", "Firmenkarte"]])
    message = "Welche Ausgaben aus Martina Brandts Spesenabrechnung für März hat sie privat bezahlt? Datum, Beschreibung und Betrag."
    reading = read_message(message, SCOPE)
    assert reading.document_conditions == ["Martina Brandts", "März"]
    march = _document("Spesenabrechnung März 2024\nMitarbeiterin: Martina Brandt", claims, path="expenses/Spesenabrechnung_2024-03_Brandt.csv")
    april = _document("Spesenabrechnung April 2024\nMitarbeiterin: Martina Brandt", claims.model_copy(update={"rows": [
        ["04.04.2024", "Bewirtung", "Mittagessen", "31,20", "Privat"]]}), path="expenses/Spesenabrechnung_2024-04_Brandt.csv")
    # her claim of March, the line she paid privately; April's claim is not read
    assert [r.values["Beschreibung"] for r in extract_records(march, reading)] == ["Geschäftsessen"]
    assert extract_records(april, reading) == []


def test_a_month_that_dates_a_kind_of_document_picks_no_rows_of_another_kind() -> None:
    log = Table(page=1, header=["Date", "Site", "Description", "Cost"], rows=[
        ["06/05/2025", "Onda", "30-day check after commissioning", "120.00"], ["12/04/2025", "Elda", "Inverter reset", "80.00"]])
    maintenance = _document("Maintenance log H1 2025", log, path="maintenance/Maintenance_Log_H1_2025.xlsx")
    reading = read_message("Date, description and amount from the May 2025 travel expense report", SCOPE)
    assert extract_records(maintenance, reading) == []
    # a month beside no kind of document still picks the rows of that month
    orders = read_message("Date, description and cost of every entry from May", SCOPE)
    assert [r.values["Date"] for r in extract_records(maintenance, orders)] == ["06/05/2025"]


def test_a_question_after_a_comma_ends_the_list_before_it() -> None:
    reading = read_message("Under our SLA with Brightwave, how fast do they have to respond to an incident of each priority?", SCOPE)
    # "with Brightwave" names the other party of the SLA, not a column; "how fast …" is a question of its own
    assert "Brightwave" in reading.document_conditions and "Brightwave" not in reading.columns


def test_a_word_after_include_adds_a_row_and_picks_none() -> None:
    literacy = Table(page=1, header=["State", "n", "Illiterate", "College"], rows=[
        ["Kerala", "2400", "7.2", "5.5"], ["Bihar", "2400", "52.1", "3.0"], ["Pooled", "43200", "30.9", "6.4"]])
    reading = read_message("Give me every row of the table: state, n, illiterate and college. Include the pooled row.", SCOPE)
    assert "Include" not in reading.unused
    records = extract_records(_document("Literacy of the heads of household", literacy, path="nfhs/table6.pdf"), reading)
    assert [r.values["State"] for r in records] == ["Kerala", "Bihar", "Pooled"]


def test_a_column_of_names_a_header_heads_and_a_count_named_by_its_initials() -> None:
    batting = Table(page=1, header=["Team", "First", "Last", "AB", "H", "HR"], rows=[
        ["HOU", "Glenn", "Davis", "574", "152", "31"], ["PHI", "Luis", "Aguayo", "133", "28", "4"]])
    scope = ScopeHint(documents=1, vocabulary=batting.header, table_headers=[batting.header])
    assert map_columns(["Team", "First name", "Last name", "Home runs"], batting.header) == {
        "Team": 0, "First name": 1, "Last name": 2, "Home runs": 5}
    reading = read_message("Team, first name, last name and home runs of every player who hit more than 25 home runs", scope)
    assert [(c.column, c.op, c.value) for c in reading.conditions] == [("Home runs", "gt", "25")]
    records = extract_records(_document("", batting, path="stats/batting.pdf"), reading)
    assert [r.values["Last name"] for r in records] == ["Davis"]


def test_a_column_that_numbers_the_items_tells_rows_of_figures_apart() -> None:
    lines = Table(page=1, header=["Item No", "Barcode", "Qty", "Unit Price", "Amount"], rows=[
        ["304100", "5449000165336", "5.00", "54.00", "270.00"], ["300742", "5449000105394", "5.00", "27.00", "135.00"]])
    reading = read_message("Item number, barcode, quantity, unit price and amount of every line", SCOPE)
    records = extract_records(_document("Purchase order PO-1", lines, path="po/PO-1.pdf"), reading)
    assert [r.match for r in records] == ["yes", "yes"]
    # figures alone, with no column that numbers the rows, still say nothing of which row is which
    figures = extract_records(_document("", lines, path="po/PO-1.pdf"), read_message("Quantity and amount of every line", SCOPE))
    assert {r.match for r in figures} == {"unsure"}


def test_a_name_heading_the_document_is_its_subject_and_a_word_before_lines_picks_rows() -> None:
    crops = Table(page=1, header=["PRODUCTS", "May/2013", "Jun/2013"], rows=[
        ["COTTON", "886,7", "894,9"], ["TOTAL CORN", "15.686,2", "15.817,4"], ["CORN 1ST CROP", "6.879,2", "6.864,7"],
        ["SUBTOTAL", "50.715,4", "50.943,6"], ["WHEAT", "1.895,4", "1.895,4"], ["SUBTOTAL", "2.261,0", "2.261,0"],
        ["BRAZIL", "52.976,4", "53.204,6"]])
    report = _document("PLANTED AREA ESTIMATE\nBRAZIL\nThe area of soybeans and corn grows.", crops, path="conab/area.pdf")
    scope = ScopeHint(documents=1, vocabulary=crops.header, table_headers=[crops.header])
    reading = read_message("Show the corn lines of the Brazil planted area table with May/2013 and Jun/2013.", scope)
    records = extract_records(report, reading)
    # "BRAZIL" heads the report (the table's last row is Brazil's too): it is the report's subject,
    # not a row; "corn" before "lines" picks the corn rows though the report's text speaks of corn
    assert [r.values["May/2013"] for r in records] == ["15.686,2", "6.879,2"]
    assert {r.match for r in records} == {"unsure"}


def test_a_name_and_its_kind_written_together_as_whole_cells_are_a_condition_on_that_column() -> None:
    spending = Table(page=1, header=["DOCUMENT NO.", "PAYEE NAME", "AMOUNT ($)"], rows=[
        ["", "BAIN, J MATTHEW", "37,499.96"], ["DHAW20190001", "CITIBANK - TRAVEL CBA CARD", "920.68"],
        ["DHAW20190031", "CITIBANK - SENATOR IBA CARD", "618.00"], ["DHAW20190045", "CITIBANK - SENATOR IBA CARD", "1,112.00"]])
    scope = ScopeHint(documents=1, vocabulary=spending.header, table_headers=[spending.header])
    reading = read_message("List the charges paid with the Citibank Senator IBA card: document no. and amount.", scope)
    # the reading takes the name for a column it cannot find; the table's payee cells hold the
    # name and its kind whole, punctuation aside: the rows of that payee, and only they
    records = extract_records(_document("", spending, path="senate-expenditures.pdf"), reading)
    assert [r.values["Document no."] for r in records] == ["DHAW20190031", "DHAW20190045"]
    # the condition checked is not the one the questions showed: the rows say so, unsure
    assert all(r.match == "unsure" and "was checked as 'PAYEE NAME is CITIBANK - SENATOR IBA CARD'" in (r.note or "")
               for r in records)
