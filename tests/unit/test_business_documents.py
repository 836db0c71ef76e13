"""Business documents of another author (``evals/unseen/business``), read as people ask for them:
orders and invoices in three languages whose columns and labels are not the request's words, a
month for the documents' date, an owner held in a table's column with its legal form, the word
picking the rows held by a column, and a sheet's totals rows under its items."""

from __future__ import annotations

from pathlib import Path

from core.reading import DocumentText, FolderCount, ScopeHint
from tools.engines.offline import extract_records, read_message
from tools.engines.offline.document_names import meets_document_conditions
from tools.parsing import parse_file

DOCUMENTS = Path(__file__).resolve().parents[2] / "evals" / "unseen" / "business" / "documents"
SCOPE = ScopeHint(documents=9)


def document(path: str) -> DocumentText:
    parsed = parse_file(DOCUMENTS / path)
    return DocumentText(id=1, collection="business", path=path, title=parsed.title, media_type=parsed.media_type,
                        pages=parsed.pages, tables=parsed.tables)


def rows(path: str, message: str) -> list[tuple[str, dict[str, str | None]]]:
    return [(r.match, r.values) for r in extract_records(document(path), read_message(message, SCOPE))]


def test_an_order_in_august_from_its_german_confirmation() -> None:
    message = "What did Feldmann Bau order from us in August? Article, description, quantity and unit price."
    reading = read_message(message, SCOPE)
    assert reading.document_conditions == ["Feldmann Bau", "August"] and reading.unused == []
    got = rows("sales/orders/2025/feldmann/Auftragsbestaetigung_SO-2025-0024.txt", message)
    # "Artikel" holds the article, "Bezeichnung" its description; the letterhead's date is 04.08.2025
    assert got[0] == ("yes", {"Article": "KT-S150", "Description": "Drucktransmitter 0–10 bar", "Quantity": "30", "Unit price": "139,00 €"})
    assert len(got) == 6 and {m for m, _ in got} == {"yes"}
    # the same order asked for in July gives nothing: the month is the document's date, not any date in it
    # (it also names the customer's order of 31.07.2025)
    assert rows("sales/orders/2025/feldmann/Auftragsbestaetigung_SO-2025-0024.txt", message.replace("August", "July")) == []


def test_a_french_order_in_july_with_abbreviated_headers() -> None:
    message = "Qu'est-ce que Maison Bérard nous a commandé en juillet ? Référence, désignation, quantité et prix unitaire."
    assert read_message(message, SCOPE).unused == []
    got = rows("sales/orders/2025/maison-berard/Bon_de_commande_MB-2025-0217.pdf", message)
    # "Réf. fournisseur", "Qté" and "P.U. HT" are the reference, the quantity and the unit price
    assert got[0] == ("yes", {"Référence": "KT-S100", "Désignation": "Capteur de température PT100", "Quantité": "80", "Prix unitaire": "51,00 €"})
    assert len(got) == 5


def test_an_owner_in_a_customer_column_with_its_legal_form() -> None:
    message = "What has Lindqvist Retail ordered from us in 2025? Order number, order date, product, quantity and price per unit."
    assert read_message(message, SCOPE).unused == []  # "ordered" says what the owner did: the owner holds it
    got = rows("sales/orders/2025/order_lines_2025-H1.csv", message)
    # the list's customer column says "Lindqvist Retail AB": its rows, and only its rows
    assert got and {m for m, _ in got} == {"yes"}
    assert got[0][1] == {"Order number": "SO-2025-0002", "Order date": "2025-01-10", "Product": "Temperature sensor PT100",
                         "Quantity": "40", "Price per unit": "48.50"}
    # on the order confirmation, "Order no." and the "Date" of an order are the order's number and date
    confirmation = rows("sales/orders/2025/lindqvist/Order_Confirmation_SO-2025-0021.docx", message)
    assert confirmation[0] == ("yes", {"Order number": "SO-2025-0021", "Order date": "8 July 2025", "Product": "Temperature sensor PT100",
                                       "Quantity": "120", "Price per unit": "48.50"})


def test_an_invoices_number_and_gross_total_where_each_layout_prints_them() -> None:
    message = "For each invoice Nordwerk sent us in 2025, give the invoice number, invoice date and the gross total."
    assert read_message(message, SCOPE).unused == []
    # a totals line without a colon under the table ("Gesamtbetrag brutto 7.172,73 EUR")
    assert rows("finance/invoices/2025/nordwerk/RE-2025-0342_Nordwerk.pdf", message) == [
        ("yes", {"Invoice number": "RE-2025-0342", "Invoice date": "03.04.2025", "Gross total": "7.172,73 EUR"})]
    # a two-cell totals table ("Rechnungsnr.", "Rechnungsbetrag")
    assert rows("finance/invoices/2025/nordwerk/RE-2025-0117_Nordwerk.docx", message) == [
        ("yes", {"Invoice number": "RE-2025-0117", "Invoice date": "14.01.2025", "Gross total": "12.057,08 €"})]
    # a sheet: the number after its kind in the title, labels joined by "·", totals in the last columns
    assert rows("finance/invoices/2025/nordwerk/RE-2025-0588_Nordwerk.xlsx", message) == [
        ("yes", {"Invoice number": "RE-2025-0588", "Invoice date": "17.06.2025", "Gross total": "8.849,32"})]


def test_the_word_picking_the_rows_is_a_condition_on_the_column_that_holds_it() -> None:
    message = "List every hardware position on Nordwerk's 2025 invoices with description, quantity and unit price."
    got = rows("finance/invoices/2025/nordwerk/RE-2025-0588_Nordwerk.xlsx", message)
    # its "Kategorie" column says "Hardware" for three items; the totals rows under them are no items
    assert [v["Description"] for _, v in got] == [
        "Industrie-PC IPC-760, Core i7, 32 GB RAM", "SSD 1 TB, Industrial Grade", "Touch-Panel HMI-15, 15 Zoll"]
    assert {m for m, _ in got} == {"yes"}
    # a word no column holds whole stays unjudged: every row unsure
    unjudged = rows("finance/invoices/2025/nordwerk/RE-2025-0588_Nordwerk.xlsx", message.replace("hardware", "urgent"))
    assert unjudged and {m for m, _ in unjudged} == {"unsure"}


def test_a_month_is_met_by_the_documents_first_date_or_its_name() -> None:
    confirmation = document("sales/orders/2025/lindqvist/Order_Confirmation_SO-2025-0021.docx")  # "Date: 8 July 2025"
    assert meets_document_conditions(confirmation, ["July"]) and meets_document_conditions(confirmation, ["juillet"])
    assert not meets_document_conditions(confirmation, ["June"])


def test_items_that_cost_more_than_a_price_on_an_invoice_named_by_its_supplier() -> None:
    message = "Which items on the Bürowelt office-supplies invoice cost more than 20 euros each? Article number, item and price each."
    reading = read_message(message, SCOPE)
    # what the items cost is compared; the words between them name the documents (their supplier)
    assert reading.document_conditions == ["Bürowelt"] and [(c.column, c.op, c.value) for c in reading.conditions] == [("Price", "gt", "20 euros")]
    # the export's path spells the supplier "buerowelt"; "item" is the article's name, never the line's number
    got = rows("finance/invoices/2025/buerowelt/Buerowelt_RG-88412_Export.csv", message)
    assert got[0][1] == {"Article number": "BW-31007", "Item": "Toner HP 59A schwarz", "Price": "89,90"}
    assert len(got) == 5 and all(float(v["Price"].replace(",", ".")) > 20 for _, v in got)  # type: ignore[union-attr]
    # the export does not call itself "office-supplies": a word that may pick the documents, checked
    records = extract_records(document("finance/invoices/2025/buerowelt/Buerowelt_RG-88412_Export.csv"), reading)
    assert {r.match for r in records} == {"unsure"}
    assert all("does not call itself 'office-supplies'" in (r.note or "") for r in records)


def test_a_month_of_a_year_compares_as_its_days() -> None:
    from tools.engines.numbers import compare

    assert compare("lt", "31.03.2026", "April 2026") and not compare("lt", "2026-04-01", "April 2026")
    assert compare("le", "30.04.2026", "April 2026") and not compare("gt", "30.04.2026", "April 2026")
    reading = read_message("Contract number and end date of every contract with an end date before April 2026", SCOPE)
    assert [(c.column, c.op, c.value) for c in reading.conditions] == [("End date", "lt", "April 2026")]
    assert reading.places == []  # the year belongs to the date compared, not to the documents' paths


def test_a_name_joined_to_its_documents_noun_is_their_owner() -> None:
    message = "Zeig mir alle Positionen der Nordwerk-Rechnung vom April 2025 mit Bezeichnung, Menge und Einzelpreis."
    reading = read_message(message, SCOPE.model_copy(update={"years": ["2024", "2025"]}))
    assert reading.document_conditions == ["Nordwerk", "April"] and reading.unused == []
    assert reading.document_kinds == ["Rechnung"]  # checked in each document: these call themselves so
    april = rows("finance/invoices/2025/nordwerk/RE-2025-0342_Nordwerk.pdf", message)  # Rechnungsdatum 03.04.2025
    assert len(april) == 5 and {m for m, _ in april} == {"yes"}
    assert rows("finance/invoices/2025/nordwerk/RE-2025-0117_Nordwerk.docx", message) == []  # dated 14.01.2025


def test_a_folder_named_in_words_that_stands_under_several_years_names_them_all() -> None:
    from core.reading import FolderCount
    from tools.engines.offline.folder_names import FolderNames

    folders = ["Purchasing/Invoices", "Purchasing/Invoices/2024/Praxis Elektronik", "Purchasing/Invoices/2025/Praxis Elektronik"]
    assert FolderNames(folders).named(["Praxis", "Elektronik"]) == "**/Praxis Elektronik/**"
    assert FolderNames(folders[:2]).named(["Praxis", "Elektronik"]) == "Purchasing/Invoices/2024/Praxis Elektronik"
    scope = ScopeHint(documents=9, folders=[FolderCount(folder=f, documents=3) for f in folders])
    reading = read_message("Which Praxis Elektronik invoice lines have a total price over 1.000 €? I need Art.-Nr., Menge and Gesamtpreis.", scope)
    # "invoice" names the kind of the folders found, not every invoice beside them
    assert [(p.kind, p.value) for p in reading.places] == [("glob", "**/Praxis Elektronik/**")]
    assert [(c.column, c.op, c.value) for c in reading.conditions] == [("Gesamtpreis", "gt", "1.000 €")]


def test_the_invoice_named_by_its_number_and_its_supplier_is_the_one_read() -> None:
    from core.reading import FolderCount

    folders = [FolderCount(folder=f, documents=3) for f in ("Purchasing/Invoices", "Purchasing/Invoices/2024/Halvorsen Metals")]
    reading = read_message("Can you list the items on Halvorsen invoice HM-24-0311 with Item #, Description, Qty and Unit cost?",
                           ScopeHint(documents=9, folders=folders))
    # the number says which document; the supplier's name is read, not taken for the folder's kind
    assert reading.document_conditions == ["Halvorsen", "HM-24-0311"] and reading.unused == []
    # a path is no document's number; a name a folder holds is never silently the documents' kind
    assert read_message("Tenant of every lease in leases/2021", SCOPE).document_conditions == []
    unread = read_message("Every line of the Halvorsen Metals folder with its amount", ScopeHint(documents=9, folders=folders))
    assert "Halvorsen" not in unread.unused or unread.places


def test_what_each_row_was_is_its_description() -> None:
    message = "Show me all items over 200 euros in the Q2 2025 expense report: date, employee, what it was and amount."
    folders = ("hr/expenses", "finance/reports", "management/reports")  # "report" names folders elsewhere: a kind of document here
    scope = ScopeHint(documents=9, folders=[FolderCount(folder=f, documents=1) for f in folders])
    reading = read_message(message, scope)
    # "what it was", an item of the list, asks what each expense is: its description, no question of its own
    assert reading.columns == ["Date", "Employee", "Description", "Amount"] and reading.unused == []
    got = [(r.match, r.values) for r in extract_records(document("hr/expenses/2025/Spesenabrechnung_Q2_2025.xlsx"), reading)]
    assert got[0] == ("yes", {"Date": "10.04.2025", "Employee": "Anna Petersen",
                              "Description": "HAM – ARN – HAM, Quartalsgespräch Lindqvist", "Amount": "402,30"})
    # 200,00 exactly is not over 200: six rows, each checked
    assert len(got) == 6 and {m for m, _ in got} == {"yes"}
    # the same words opening a question still ask one
    assert read_message("What was the amount of each item in the Q2 2025 expense report?", SCOPE).columns == ["Amount"]


def test_a_what_question_and_a_second_sentence_each_name_columns() -> None:
    slas = ScopeHint(documents=9, folders=[FolderCount(folder="ops/sla", documents=3)])
    reading = read_message("For each of our SLAs, what is the response time for the most critical priority? Show the supplier too.", slas)
    # the values the question asks for end where what they are of starts; the next sentence adds one
    assert reading.columns == ["Response time", "Supplier"] and reading.unused == []
    # a question whose values run to its end, then the list after it, as before
    assert read_message("What did Feldmann Bau order from us in August? Article, description, quantity and unit price.",
                        SCOPE).columns == ["Article", "Description", "Quantity", "Unit price"]
