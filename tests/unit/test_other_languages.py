"""Requests in one language over tables headed in another: the names a column kind has in the
languages Kea reads (``tools/engines/glossary.py``), the total line in each of them, and a span of
two years however it is written."""

from __future__ import annotations

from core.reading import DocumentText, ScopeHint, Table
from tools.engines.columns import map_columns
from tools.engines.offline import extract_records, read_message


def _document(page: str, *tables: Table, path: str = "doc.pdf") -> DocumentText:
    return DocumentText(id=1, collection="c", path=path, title="", media_type="application/pdf", pages=[page], tables=list(tables))


def _scope(*tables: Table) -> ScopeHint:
    return ScopeHint(documents=1, vocabulary=[c for t in tables for c in t.header if c], table_headers=[t.header for t in tables])


SHIPMENTS = Table(page=1, header=["Zendingnr.", "Datum", "Bestemming", "Colli", "Gewicht (kg)", "Vrachtkosten"], rows=[
    ["ZN-101", "02-05-2024", "Antwerpen", "2", "140", "€ 210,00"],
    ["ZN-102", "08-05-2024", "Lyon (FR)", "1", "35", "€ 95,00"],
    ["ZN-103", "15-05-2024", "Leeds (GB)", "4", "320", "€ 412,00"],
    ["Totaal", "", "", "7", "495", "€ 717,00"],
])


def test_an_english_request_reads_a_dutch_table_and_leaves_out_its_total_line() -> None:
    reading = read_message("Shipments heavier than 100 kg: shipment number, destination and freight cost", _scope(SHIPMENTS))
    assert reading.columns == ["Shipment number", "Destination", "Freight cost"]
    records = extract_records(_document("Zendingsoverzicht mei 2024", SHIPMENTS), reading)
    # "Totaal" sums the shipments above it: no shipment, though its weight is above 100 kg
    assert [(r.match, r.values) for r in records] == [
        ("yes", {"Shipment number": "ZN-101", "Destination": "Antwerpen", "Freight cost": "€ 210,00"}),
        ("yes", {"Shipment number": "ZN-103", "Destination": "Leeds (GB)", "Freight cost": "€ 412,00"}),
    ]


def test_the_kinds_of_column_have_their_names_in_each_language() -> None:
    timesheet = ["Data", "Dzień", "Początek", "Koniec", "Przerwa (min)", "Godziny", "Zadanie / projekt", "Uwagi"]
    assert map_columns(["Date", "Hours", "Task"], timesheet) == {"Date": 0, "Hours": 5, "Task": 6}
    sla = ["Prioridad", "Definición", "Tiempo de respuesta", "Tiempo de resolución", "Horario de atención"]
    assert map_columns(["Priority", "Response time", "Resolution time"], sla) == {
        "Priority": 0, "Response time": 2, "Resolution time": 3}
    register = ["Contract No.", "Counterparty", "Subject", "End Date", "Annual Value (EUR)", "Responsible"]
    assert map_columns(["Número de contrato", "Contraparte", "Fecha de fin", "Valor anual"], register) == {
        "Número de contrato": 0, "Contraparte": 1, "Fecha de fin": 3, "Valor anual": 4}
    # a kind's names never stand for another kind: a requested description is no article number
    assert map_columns(["Beschreibung", "Menge"], ["Pos", "Artikel", "Bezeichnung", "Menge"]) == {"Beschreibung": 2, "Menge": 3}


def test_a_polish_invoice_total_line_is_no_item() -> None:
    lines = Table(page=1, header=["Lp.", "Nazwa towaru", "Ilość", "Wartość netto (PLN)"], rows=[
        ["1", "Mleko 1 l", "480", "1 464,00"], ["2", "Masło 200 g", "240", "1 656,00"], ["", "Razem", "", "3 120,00"]])
    reading = read_message("Description, quantity and net amount of every line", _scope(lines))
    records = extract_records(_document("Faktura VAT", lines), reading)
    assert [r.values["Description"] for r in records] == ["Mleko 1 l", "Masło 200 g"]


def test_a_span_of_two_years_names_the_document_however_it_is_written() -> None:
    table = Table(page=1, header=["Ministry", "Plan", "Non-Plan"], rows=[["Agriculture", "28198.00", "2864.94"]])
    budget = _document("Budget 2014-2015 (In crores of Rupees)", table, path="budget.pdf")
    for message in ("Ministry, plan and non-plan of the 2014-15 budget", "Ministry, plan and non-plan of the 2014/2015 budget"):
        reading = read_message(message, _scope(table))
        assert [r.values["Ministry"] for r in extract_records(budget, reading)] == ["Agriculture"], message
    # a span of other years is not met
    other = read_message("Ministry, plan and non-plan of the 2015-16 budget", _scope(table))
    assert extract_records(budget, other) == []


def test_a_unit_after_a_column_is_its_unit_and_the_list_goes_on() -> None:
    shipments = Table(page=1, header=["Customer", "Weight (kg)", "Date"], rows=[["Acme", "140", "02.05.2024"]])
    reading = read_message("Give me customer, weight in kg and date of every shipment", _scope(shipments))
    # before: "Weight", and "kg" and "date" taken for kinds of documents each shipment must call itself
    assert reading.columns == ["Customer", "Weight in kg", "Date"] and reading.document_kinds == []
    assert [r.values for r in extract_records(_document("", shipments), reading)] == [
        {"Customer": "Acme", "Weight in kg": "140", "Date": "02.05.2024"}]
    # a column given in another unit is not the one asked for; a header that is the whole name is
    assert map_columns(["Weight in kg"], ["Customer", "Weight (t)"]) == {}
    assert map_columns(["Amount in EUR"], ["Item", "Amount in USD", "Amount in EUR"]) == {"Amount in EUR": 2}
    assert map_columns(["Time in hours"], ["Task", "Time in hours", "Time"]) == {"Time in hours": 1}
    assert map_columns(["Area in m2"], ["Plot", "Area (m²)"]) == {"Area in m2": 1}
    # a header that says no unit may hold another: read, unsure
    mixed = Table(page=1, header=["Item", "Amount", "Currency"], rows=[["Dock", "100.00", "EUR"]])
    (record,) = extract_records(_document("", mixed), read_message("Amount in USD and item of every line", _scope(mixed)))
    assert record.match == "unsure" and "names it only in part" in (record.note or "")
    # the currency of the documents asked about is no column's unit
    documents = read_message("Invoice number and amount of invoices in USD and their customer", _scope(mixed))
    assert "Amount of invoices in USD" not in documents.columns


def test_a_second_time_after_a_verb_of_ending_compares_the_same_column() -> None:
    projects = Table(page=1, header=["Customer", "Town", "Completion date"], rows=[
        ["Acme", "Onda", "15/01/2025"], ["Birch", "Elche", "10/06/2025"], ["Cedar", "Lorca", "20/11/2024"]])
    reading = read_message("Which installations were finished in 2025 before June? Customer, town and completion date.",
                           _scope(projects))
    assert [(c.column, c.op, c.value) for c in reading.conditions] == [
        ("Completion date", "equals", "2025"), ("Completion date", "lt", "June 2025")]
    assert [r.values["Customer"] for r in extract_records(_document("", projects), reading)] == ["Acme"]


def test_an_empty_cell_fails_a_condition_asking_for_a_value_and_a_header_may_qualify_a_kinds_name() -> None:
    projects = Table(page=1, header=["Cliente", "Municipio", "Fecha fin obra", "Estado"], rows=[
        ["Acme", "Onda", "15/01/2024", "Finalizado"], ["Birch", "Elche", "", "En curso"], ["Cedar", "Lorca", "20/11/2023", "Finalizado"]])
    reading = read_message("Which projects were completed in 2024? Customer, town and completion date.", _scope(projects))
    # "Fecha fin obra" opens with "fecha fin", a name of the end date: the completion date's column
    assert map_columns(["Completion date"], projects.header) == {"Completion date": 2}
    records = extract_records(_document("", projects), reading)
    # Birch has no completion date: no reading of an empty cell is in 2024, and the row is left out
    assert [r.values["Customer"] for r in records] == ["Acme"]


def test_rows_that_have_none_of_a_column_hold_nothing_above_zero_in_it() -> None:
    lines = Table(page=1, header=["Art.nr.", "Omschrijving", "Aantal", "Korting", "Bedrag"], rows=[
        ["CI-300", "Spectrofotometer", "2", "8%", "€ 22.816,00"], ["CI-PH-7P", "pH-meter", "10", "0%", "€ 4.950,00"],
        ["CI-SW", "Softwarelicentie", "2", "", "€ 1.000,00"], ["CI-KB", "Kabel", "5", "-10.00", "€ 40,00"]])
    for message in ("Which lines had no discount? Article number, quantity and amount.",
                    "Which lines were without discount? Article number, quantity and amount."):
        reading = read_message(message, _scope(lines))
        assert [(c.column, c.op, c.value) for c in reading.conditions] == [("Discount", "equals", "0 or 0%")], message
        assert reading.row_terms == []
        records = extract_records(_document("Orderbevestiging", lines), reading)
        # the 8 % line and the one with a discount printed negative are left out, 0 % checked; an
        # empty discount may mean none: kept, unsure, and said
        assert [(r.values["Article number"], r.match) for r in records] == [("CI-PH-7P", "yes"), ("CI-SW", "unsure")]
        assert "no value for 'Discount'" in (records[1].note or "")


def test_a_cell_saying_the_table_has_no_value_fails_above_and_is_unsure_below() -> None:
    indicators = Table(page=1, header=["Indicator", "2012 total", "2007 total"], rows=[
        ["Antenatal care", "69.7", "79.0"], ["Treatment for children with ARI", "NA", "NA"], ["Post-delivery care", "33.3", "–"]])
    above = read_message("Indicator, 2012 total and 2007 total where the 2007 total is above 70", _scope(indicators))
    assert [r.values["Indicator"] for r in extract_records(_document("", indicators), above)] == ["Antenatal care"]
    # "–" may be none, which is below 5: kept, unsure, and said
    below = read_message("Indicator, 2012 total and 2007 total where the 2007 total is below 5", _scope(indicators))
    records = extract_records(_document("", indicators), below)
    assert [(r.values["Indicator"], r.match) for r in records] == [
        ("Treatment for children with ARI", "unsure"), ("Post-delivery care", "unsure")]


def test_an_ampersand_names_a_document_however_its_language_writes_it_out() -> None:
    from tools.engines.offline.document_names import meets_document_conditions

    sla = _document("Acuerdo de Nivel de Servicio – Operación y Mantenimiento", path="Contratos/SLA_OyM_Hotel_Marina.md")
    assert meets_document_conditions(sla, ["O&M"])
    assert meets_document_conditions(_document("Budget for R and D", path="b.pdf"), ["R&D"])
    # a word of the path split at its underscores names the document; an acronym of other letters does not
    assert meets_document_conditions(_document("", path="Rahmenvertrag_Nordwerk_V-2021.docx"), ["Nordwerk"])
    assert not meets_document_conditions(_document("OEM parts list", path="OEM_parts.pdf"), ["O&M"])


def test_a_value_written_na_is_a_value_where_no_figure_is_compared() -> None:
    from tools.engines.checks import check_conditions
    from core.reading import Condition

    region = [Condition(column="Region", op="equals", value="NA", text="Region is NA")]
    assert check_conditions(region, lambda column: "NA") == (True, [])
    # a row shorter than its header is not known to fail: kept, unsure
    projects = Table(page=1, header=["Cliente", "Municipio", "Fecha fin obra"], rows=[
        ["Acme", "Onda", "15/01/2024"], ["Birch", "Elche"], ["Cedar", "Lorca", ""]])
    reading = read_message("Which projects were completed in 2024? Customer, town and completion date.", _scope(projects))
    records = extract_records(_document("", projects), reading)
    assert [r.values["Customer"] for r in records] == ["Acme", "Birch"] and records[1].match == "unsure"


def test_a_header_cell_joined_from_ruled_lines_names_a_column_only_in_part() -> None:
    # a report printing each record over two lines, a rule of dashes under each line's names: the
    # parser joins each column's two names into one header cell
    report = Table(page=1, header=["TYPE ------- SERIAL NUMBER -------", "ITEM ------- REPORT/TAG NUMBER -------", "CALIBRE"],
                   rows=[["PISTOL", "SEMI-AUTOMATIC", "7.65"]])
    reading = read_message("Serial number and calibre of every firearm whose item is SEMI-AUTOMATIC", _scope(report))
    (record,) = extract_records(_document("FIREARM SEARCH", report), reading)
    # "PISTOL" stands under TYPE, not under the serial number: never a yes
    assert record.match == "unsure" and "'Serial number' is read from the column" in (record.note or "")
