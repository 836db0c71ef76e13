"""Invoices of other authors (the mustangproject's test invoices) asked for as a new user would:
"List the line items on invoice RE1001: …", "Pour la facture F20180027, donne-moi …". The
requests and their expected values were written from the documents alone."""

from __future__ import annotations

from pathlib import Path

from held_out import document, folders_of, scope

from tools.engines.offline import extract_records, read_message

INVOICES = Path(__file__).resolve().parents[2] / "evals" / "public" / "mustangproject" / "documents"
NAMES = ["MustangBeispiel20221026.pdf", "Facture_F20180027.pdf", "EN16931_Einfach.pdf", "zugferd_invoice.pdf"]


def _scope():
    return scope([INVOICES / n for n in NAMES], folders_of(NAMES))


def test_a_number_after_a_word_for_a_document_says_which_document() -> None:
    hint = _scope()
    reading = read_message("List the line items on invoice RE1001: article number, description, quantity, unit price and line total.", hint)
    assert reading.document_conditions == ["RE1001"]
    assert reading.columns == ["Article number", "Description", "Quantity", "Unit price", "Line total"]
    rows = {n: extract_records(document(INVOICES / n, n), reading) for n in NAMES}
    assert [r.values["Article number"] for r in rows["MustangBeispiel20221026.pdf"]] == ["AWE12M", "BWP12J"]
    assert not any(rows[n] for n in NAMES if n != "MustangBeispiel20221026.pdf")  # the other invoices give none
    # a number of five figures or more after "Rechnung" too, but a year never
    assert read_message("Alle Positionen der Rechnung 471102: Beschreibung und Menge.", hint).document_conditions == ["471102"]
    year = read_message("Every invoice 2024: number and date.", hint)
    assert any("2024 is read as the documents' date" in note for note in year.notes)


def test_an_invoices_fields_from_its_labels_and_its_totals_table() -> None:
    name = "Facture_F20180027.pdf"
    reading = read_message("Pour la facture F20180027, donne-moi le numéro de facture, la date, la date d'échéance, le total HT, "
                           "le total TVA, le total TTC et le net à payer.", _scope())
    # the verb of asking after the leading phrase opens the list
    assert reading.columns == ["Numéro de facture", "Date", "Date d'échéance", "Total HT", "Total TVA", "Total TTC", "Net à payer"]
    assert reading.document_conditions == ["F20180027"]
    (record,) = extract_records(document(INVOICES / name, name), reading)
    # "TOTAL HT | TOTAL TVA | TOTAL TTC" over one row of amounts labels each amount; "Date d'échéance :
    # 30/01/2019 NET A PAYER 100,00 EUR" is two labelled values on one line
    assert record.values == {"Numéro de facture": "F20180027", "Date": "31/12/2018", "Date d'échéance": "30/01/2019",
                             "Total HT": "100,00", "Total TVA": "10,00", "Total TTC": "110,00", "Net à payer": "100,00 EUR"}
    assert record.match == "yes"


def test_a_total_including_a_tax_is_one_column() -> None:
    reading = read_message("For the Kraxi invoice, give me the invoice number, the date and the total including VAT.", _scope())
    assert reading.columns == ["Invoice number", "Date", "Total including VAT"]


def test_labelled_values_split_only_where_a_second_label_follows_a_date() -> None:
    from core.reading import Table
    from tools.parsing.fields import key_value_lines
    pairs = key_value_lines(["Total: 1.200,00 EUR inkl. MwSt 228,00 EUR", "Payment terms: 30 days net 1,000.00"], [])
    assert [(p.key, p.value) for p in pairs] == [("Total", "1.200,00 EUR inkl. MwSt 228,00 EUR"),
                                                 ("Payment terms", "30 days net 1,000.00")]
    # one line item's price and amount are no labelled totals; a totals table's are
    item = Table(page=1, header=["Quantity", "Unit price", "Amount"], rows=[["2,00", "10,00", "20,00"]])
    totals = Table(page=1, header=["TOTAL HT", "TOTAL TVA", "TOTAL TTC"], rows=[["100,00", "10,00", "110,00"]])
    assert key_value_lines([""], [item]) == []
    assert [(p.key, p.value) for p in key_value_lines([""], [totals])] == [
        ("TOTAL HT", "100,00"), ("TOTAL TVA", "10,00"), ("TOTAL TTC", "110,00")]


def test_what_a_leading_phrase_or_a_tax_does_not_open() -> None:
    hint = _scope()
    # "excluding VAT" names an amount, it leaves no rows out
    assert not [c for c in read_message("Excluding VAT, give the description and amount of every line.", hint).conditions
                if c.column is None and c.op == "not"]
    # a verb of asking before a question opens no list
    assert "Which" not in read_message("For 2024, show which lines have a quantity above 2.", hint).columns
