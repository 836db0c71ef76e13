"""``Key: value`` pairs and labels of a document's pages and tables."""

from __future__ import annotations

from pathlib import Path

from core.reading import Table
from tools.parsing import parse_file
from tools.parsing.fields import KeyValue, key_value_lines, labels, plain


def test_plain_and_markdown_key_value_lines() -> None:
    pages = [
        "Ticket: T-1042\n"
        "  Customer:   Acme GmbH  \n"
        "Due date – 2025-04-14\n"
        "**Supplier:** Nordwerk GmbH\n"
        "- **Liability cap**: EUR 500,000\n"
        "* _Owner_: Jane Roe\n"
        "> Contact: [Jane Roe](mailto:jane@example.com)\n"
        "1. `Region`: north",
        "Priority: P1\nPos\tItem\tAmount\n1\tCable\t4,50",
    ]
    assert key_value_lines(pages, []) == [
        KeyValue("Ticket", "T-1042", "Ticket: T-1042", 1),
        KeyValue("Customer", "Acme GmbH", "Customer:   Acme GmbH", 1),
        KeyValue("Due date", "2025-04-14", "Due date – 2025-04-14", 1),
        KeyValue("Supplier", "Nordwerk GmbH", "Supplier: Nordwerk GmbH", 1),
        KeyValue("Liability cap", "EUR 500,000", "Liability cap: EUR 500,000", 1),
        KeyValue("Owner", "Jane Roe", "Owner: Jane Roe", 1),
        KeyValue("Contact", "Jane Roe", "Contact: Jane Roe", 1),
        KeyValue("Region", "north", "Region: north", 1),
        KeyValue("Priority", "P1", "Priority: P1", 2),
    ]


def test_lines_that_are_no_pairs() -> None:
    pages = [
        "# Service Level Agreement – storage systems\n"
        "The meeting starts at 10:30 sharp.\n"
        "10:30 stand-up\n"
        "See https://example.com/terms for details\n"
        "Please note that all of the following prices are net: EUR\n"
        "Total:\n"
        "Plain sentence without any colon"
    ]
    assert key_value_lines(pages, []) == []


def test_two_cell_table_rows_are_pairs() -> None:
    tables = [
        Table(page=2, header=["Field", "Value"], rows=[["**Supplier:**", "Acme GmbH"], ["", "orphan"], ["2024", "1.000"]]),
        Table(page=1, header=["Pos", "Item", "Amount"], rows=[["1", "Cable", "4,50"]]),
    ]
    assert key_value_lines([], tables) == [
        KeyValue("Field", "Value", "Field\tValue", 2),
        KeyValue("Supplier", "Acme GmbH", "Supplier:\tAcme GmbH", 2),
        KeyValue("2024", "1.000", "2024\t1.000", 2),
    ]


def test_labels_are_distinct_in_page_order() -> None:
    pages = ["Supplier: Acme\nDate: 2025-01-02", "supplier: Zeta\nIBAN: DE00 1234"]
    tables = [Table(page=1, header=["Contact", "Jane Roe"], rows=[["2024", "1.000"]])]
    assert labels(pages, tables) == ["Supplier", "Date", "Contact", "IBAN"]


def test_markdown_file_pairs_from_lines_and_pipe_table(tmp_path: Path) -> None:
    path = tmp_path / "contract.md"
    path.write_text(
        "# Frame contract\n\n**Supplier:** Acme GmbH\n\n| Term | Value |\n|---|---|\n| **Notice period** | 3 months |\n",
        encoding="utf-8",
    )
    doc = parse_file(path)
    pairs = key_value_lines(doc.pages, doc.tables)
    assert [(p.key, p.value, p.line) for p in pairs] == [
        ("Supplier", "Acme GmbH", "Supplier: Acme GmbH"),
        ("Term", "Value", "Term\tValue"),
        ("Notice period", "3 months", "Notice period\t3 months"),
    ]
    assert labels(doc.pages, doc.tables) == ["Supplier", "Term", "Notice period"]


def test_plain_removes_markup_only() -> None:
    assert plain("## Heading") == "Heading"
    assert plain("- [x] **done** and *this* and ~~that~~") == "done and this and that"
    assert plain("snake_case_name: 2 * 3 = 6") == "snake_case_name: 2 * 3 = 6"


def test_a_letterheads_colon_labels_and_a_totals_label_in_brackets_are_pairs() -> None:
    letterhead = Table(page=1, header=["Cliente:", "N.º factura:", "FAC-2025-0147"],
                       rows=[["Solvega Instalaciones S.L.", "Fecha factura:", "14/03/2025"]])
    items = Table(page=1, header=["Date", "Service", "Unit price (PLN)", "Amount (PLN)"],
                  rows=[["2025-04-03", "Reefer FTL", "3,450.00", "3,450.00"], ["", "", "Total due (PLN)", "19,876.80"]])
    pairs = [(p.key, p.value) for p in key_value_lines([], [letterhead, items])]
    assert ("N.º factura", "FAC-2025-0147") in pairs and ("Fecha factura", "14/03/2025") in pairs
    assert ("Cliente", "N.º factura:") not in pairs  # a label is no value
    assert ("Total due (PLN)", "19,876.80") in pairs


def test_an_invoice_whose_letterhead_repeats_a_label_the_request_does_not_ask_for_is_one_record() -> None:
    from core.reading import DocumentText, ScopeHint
    from tools.engines.offline import extract_records, read_message

    page = ("LEVANTE S.L. · CIF B46813275\nFACTURA\nFactura n.º: FAC-2025-0311\nFecha: 27/06/2025\n"
            "Cliente: Solvega S.L. – CIF B98765432\nTotal factura (EUR): 22.776,19")
    invoice = DocumentText(id=1, collection="x", path="FAC-2025-0311.docx", title="FACTURA", pages=[page], tables=[])
    scope = ScopeHint(documents=1, vocabulary=["Factura n.º", "Fecha", "Cliente", "Total factura (EUR)"])
    reading = read_message("Give me all invoices with invoice number, date and total.", scope)
    records = extract_records(invoice, reading)
    assert [list(r.values.values()) for r in records] == [["FAC-2025-0311", "27/06/2025", "22.776,19"]]


def test_a_title_of_several_words_numbering_the_document_and_a_label_in_two_languages() -> None:
    pages = ["FAKTURA VAT nr FV/0312/2025\nNetto / Net 3,723.80\nAtt betala / Total EUR 3,723.80"]
    assert [(p.key, p.value) for p in key_value_lines(pages, [])] == [
        ("FAKTURA VAT nr", "FV/0312/2025"), ("Netto / Net", "3,723.80"), ("Att betala / Total EUR", "3,723.80")]
