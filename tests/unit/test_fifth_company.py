"""Words no reading may drop in silence, found on a fifth company's documents
(``evals/unseen/solvega/``): a word qualifying the kind of documents ("Which active contracts"),
a month's name that is also a verb ("the May 2025 report"), and a report's own month against the
date it was submitted."""

from __future__ import annotations

from held_out import UNSEEN, document, folders_of, scope

from core.reading import DocumentText, ScopeHint
from tools.engines.offline import extract_records, read_message
from tools.engines.offline.document_names import meets_document_conditions
from tools.engines.reasons import explain_no_rows

DOCUMENTS = UNSEEN / "solvega" / "documents"
REGISTER = "Legal/Contracts/Contract_Register_2025.xlsx"
APRIL = "RRHH/Gastos de viaje/2025/Travel_Expenses_2025-04.pdf"
MAY = "RRHH/Gastos de viaje/2025/Travel_Expenses_2025-05.pdf"


def _document(path: str) -> DocumentText:
    return document(DOCUMENTS / path, path)


def _scope(*paths: str) -> ScopeHint:
    return scope([DOCUMENTS / p for p in paths], folders_of(list(paths)))


def test_a_word_before_the_folders_word_is_checked_not_dropped() -> None:
    message = ("Which active contracts have an annual value of at least 30,000 EUR? Show contract number, counterparty, "
               "annual value and end date.")
    reading = read_message(message, _scope(REGISTER))
    # "contracts" is the folder Legal/Contracts; "active" says which of them, and is kept
    assert reading.document_kinds == ["active"] and "of the kind active" in reading.describe()
    records = extract_records(_document(REGISTER), reading)
    # the register's Status column holds "Active": the expired and the pending contracts worth more are left out
    assert [r.values["Contract number"] for r in records] == ["CT-2022-007", "CT-2023-002", "CT-2023-015", "CT-2024-004"]
    assert all(r.match == "yes" for r in records)


def test_a_month_before_its_year_is_the_month_not_the_verb() -> None:
    message = "I need the fuel expenses from the May 2025 travel expense report - date, employee, description and amount."
    reading = read_message(message, _scope(APRIL, MAY))
    assert "May" in reading.document_conditions and "fuel" in reading.document_kinds
    # the April report was submitted on 02/05/2025, but its headline says April 2025
    assert not meets_document_conditions(_document(APRIL), ["May"])
    assert meets_document_conditions(_document(MAY), ["May"])
    assert extract_records(_document(APRIL), reading) == []
    # a document whose headline names no month is dated by the year and month its path holds
    undated = _document(MAY).model_copy(update={"path": "HR/Timesheets/2025-05/Karta_czasu_pracy_2025-05.xlsx", "title": "Karta czasu pracy", "pages": ["Karta czasu pracy"], "tables": []})
    assert meets_document_conditions(undated, ["May"]) and not meets_document_conditions(undated, ["June"])
    assert not meets_document_conditions(undated.model_copy(update={"path": "HR/Timesheets/2024-2025/karta.xlsx"}), ["May"])
    records = extract_records(_document(MAY), reading)
    # the lines of the report's Fuel category, and only those
    assert [r.values["Amount"] for r in records] == ["82.35", "54.10", "76.90"]
    assert all(r.match == "yes" for r in records)


def test_rows_of_figures_alone_do_not_say_which_row_is_which() -> None:
    reading = read_message("List the annual value and end date of all contracts", _scope(REGISTER))
    records = extract_records(_document(REGISTER), reading)
    assert len(records) >= 2
    # end dates tell the rows apart; annual values alone would not
    assert all("which row is which" not in (r.note or "") for r in records)
    figures = read_message("List the annual value of all contracts", _scope(REGISTER))
    assert all(r.match == "unsure" and "which row is which" in (r.note or "") for r in extract_records(_document(REGISTER), figures))


def test_a_spanish_request_reads_its_list_and_its_documents() -> None:
    invoice = "Compras/Facturas/2025/Levante Fotovoltaica/FAC-2025-0147.pdf"
    reading = read_message("Lista todas las líneas de la factura FAC-2025-0147 de Levante: referencia, descripción, cantidad, "
                           "precio unitario e importe.", _scope(invoice))
    # "e" joins the last column as "y" does; "todas las líneas" names the rows, nothing to judge
    assert reading.columns == ["Referencia", "Descripción", "Cantidad", "Precio unitario", "Importe"]
    assert reading.row_terms == [] and reading.unused == []
    assert set(reading.document_conditions) == {"FAC-2025-0147", "Levante"}
    records = extract_records(_document(invoice), reading)
    assert len(records) == 5 and all(r.values["Referencia"] and r.values["Importe"] for r in records)


def test_a_word_after_a_bare_preposition_is_checked_not_taken_for_the_documents() -> None:
    projects = "Proyectos/Instalaciones/Proyectos_instalacion_2024-2025.csv"
    reading = read_message("¿Qué instalaciones se terminaron en 2025 antes de junio? Necesito cliente, municipio, potencia en kWp "
                           "y fecha de finalización.", _scope(projects))
    # neither "junio" nor "fecha de finalización" is a kind of documents: "antes de junio" compares
    # the end date the verb names, in the year named before it; "en kWp" is the unit of the power
    # asked for, and the list goes on after it
    assert reading.columns == ["Cliente", "Municipio", "Potencia en kWp", "Fecha de finalización"]
    assert [(c.column, c.op, c.value) for c in reading.conditions] == [
        ("Fecha de finalización", "equals", "2025"), ("Fecha de finalización", "lt", "junio 2025")]
    assert reading.unused == []
    courtesy = read_message("Fecha, descripción e importe de todas las facturas de Acme, por favor", _scope(projects))
    assert courtesy.unused == [] and "favor" not in courtesy.document_kinds


def test_a_full_name_after_a_column_s_word_is_that_column_s_value() -> None:
    log = "Mantenimiento/Maintenance_Log_H1_2025.xlsx"
    reading = read_message("Show me every job technician Sergio Navarro did in the maintenance log: date, ticket, site and hours.",
                           _scope(log))
    assert [(c.column, c.op, c.value) for c in reading.conditions] == [("Technician", "equals", "Sergio Navarro")]
    records = extract_records(_document(log), reading)
    assert len(records) == 5 and all(r.values["Ticket"] for r in records)
    # a name that acts towards the asker is the other party, not a column's value
    billed = read_message("Pull out all licence charges Brightwave billed us in 2025: invoice number, description and amount.",
                          ScopeHint(documents=3))
    assert "Brightwave" in billed.document_conditions and "out" not in billed.unused
    assert {"licence", "charges"} <= set(billed.unused)  # said, never dropped


def test_the_kind_of_documents_after_a_preposition_is_checked_in_each() -> None:
    prices = "Ventas/Tarifas/Tarifa_Solvega_2025.pdf"
    invoice = "Compras/Facturas/2025/Levante Fotovoltaica/FAC-2025-0147.pdf"
    reading = read_message("Which items in our 2025 price list cost under 100 euros? I need the code, product name and price.",
                           _scope(prices, invoice))
    # "product name" is the product's description ("Descripción del artículo"); "list" after
    # "price" is a noun: the kind of documents asked for, which no folder holds
    assert "list" in reading.document_kinds
    rows = extract_records(_document(invoice), reading)
    assert rows and all(r.values["Product name"] for r in rows)
    # an invoice's items under 100 euros are no promise: it does not call itself a price list
    assert all(r.match == "unsure" and "does not call itself" in (r.note or "") for r in rows)


def test_in_the_column_of_a_name_is_that_column_s_value() -> None:
    projects = "Proyectos/Instalaciones/Proyectos_instalacion_2024-2025.csv"
    reading = read_message("List the installation projects in the province of Alicante with customer, town, kWp and status.",
                           _scope(projects))
    # "province" names the Spanish list's "Provincia" by its kind, "town" its "Municipio"
    assert [(c.column, c.op, c.value) for c in reading.conditions] == [("Province", "equals", "Alicante")]
    records = extract_records(_document(projects), reading)
    assert len(records) == 6 and all(r.values["Town"] and r.values["Status"] for r in records)


def test_a_quarter_and_a_named_region_over_a_half_years_monthly_rows_pick_the_rows() -> None:
    """"For the Gdynia region in Q1 2025" over a sales report of H1 2025, one row per month and
    region ("Jan 2025 | Gdynia | …"): the name is a condition on the Region column it stands in,
    the quarter one on the Month column; the report neither names Gdynia outside its table nor
    calls itself Q1 2025."""
    from core.reading import Table

    header = ["Month", "Region", "Net Sales (PLN)", "Orders", "Gross Margin %"]
    rows = [[month, region, "100", str(orders), "25.0%"] for month in ("Jan 2025", "Feb 2025", "Mar 2025", "Apr 2025")
            for region, orders in (("Gdańsk", 400), ("Gdynia", 250))]
    table = Table(page=1, header=header, rows=rows, title=["Sales KPI Report — H1 2025"])
    report = DocumentText(id=1, collection="x", path="Sales/Reports/Sales_KPI_2025_H1.xlsx", title="Sales KPI Report",
                          media_type="application/vnd.ms-excel", pages=["Sales KPI Report — H1 2025"], tables=[table])
    reading = read_message("For the Gdynia region in Q1 2025, give me month, orders and gross margin.",
                           ScopeHint(documents=1, table_headers=[header], vocabulary=header))
    records = extract_records(report, reading)
    assert [r.values["Month"] for r in records] == ["Jan 2025", "Feb 2025", "Mar 2025"]
    assert all(r.values["Orders"] == "250" for r in records)
    assert all(r.match == "yes" for r in records), [r.note for r in records]
    # a quarter the report holds no row of: no rows, and the reason names the columns, not a document condition

    later = read_message("For the Gdynia region in Q3 2025, give me month, orders and gross margin.",
                         ScopeHint(documents=1, table_headers=[header], vocabulary=header))
    assert extract_records(report, later) == []
    why = explain_no_rows(report, later)
    assert why.reason == "row_condition" and "Region is Gdynia" in why.detail and "Month is Q3 2025" in why.detail, why


def test_a_document_of_another_kind_gives_rows_only_with_every_requested_column() -> None:
    invoice = "Compras/Facturas/2025/Sonnwerk GmbH/RE-25-0587.docx"
    message = "I need the fuel expenses from the May 2025 travel expense report - date, employee, description and amount."
    reading = read_message(message, _scope(MAY, APRIL, invoice))
    # the May report gives its lines; a supplier's invoice of 22 May with dates, descriptions and
    # amounts but no employee calls itself none of "travel expense report": it gives none, and says so
    assert len(extract_records(_document(MAY), reading)) > 0
    assert extract_records(_document(invoice), reading) == []
    assert explain_no_rows(_document(invoice), reading).reason == "no_matching_columns"
    # asked for what the invoice holds, it gives its lines, unsure of the kind
    lines = extract_records(_document(invoice), read_message("Date, description and amount of the May 2025 travel expense report",
                                                             _scope(MAY, APRIL, invoice)))
    assert lines and all(r.match == "unsure" and "does not call itself" in (r.note or "") for r in lines)
