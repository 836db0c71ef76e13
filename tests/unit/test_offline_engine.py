"""The offline engine: how it reads requests and what it extracts from documents."""

from __future__ import annotations

import asyncio

import pytest

from tools.engines.columns import map_columns, match_column, normalise
from tools.engines.numbers import compare, parse_number
from tools.engines.offline import OfflineEngine, extract_records, read_message
from core.reading import (
    Condition,
    DocumentText,
    FolderCount,
    Place,
    Reading,
    ScopeHint,
    Table,
)

NORDWERK_HEADER = ["Pos.", "Art.-Nr.", "Beschreibung", "Menge", "Einzelpreis", "Gesamtpreis"]
BRIGHTLINE_HEADER = ["Item", "Description", "Qty", "Unit price", "Amount"]

NORDWERK_POSITIONS = "Every position on Nordwerk's 2025 invoices with description, quantity and unit price"
BRIGHTLINE_BULK = (
    "Every position on Brightline's invoices where quantity is more than 10, "
    "with description, quantity and unit price"
)
CONTRACT_CAPS = "Supplier and liability cap of every contract where liability cap is below 1,000,000"
TICKETS_P1 = "Ticket, customer and subject of every support ticket where priority is P1"

SCOPE = ScopeHint(
    documents=190,
    collections=["kb"],
    folders=[
        FolderCount(folder=name, documents=count)
        for name, count in [
            ("tickets", 140),
            ("tickets/2025", 140),
            ("invoices", 19),
            ("invoices/2025", 11),
            ("invoices/2024", 8),
            ("contracts", 6),
            ("notes", 4),
            ("slas", 3),
            ("agreements-archive", 2),
            ("pricelists", 1),
            ("quotes", 1),
        ]
    ],
    years=["2024", "2025"],
    table_headers=[
        BRIGHTLINE_HEADER,
        NORDWERK_HEADER,
        ["Priority", "Response time", "Resolution time"],
    ],
)


def read(message: str) -> Reading:
    return read_message(message, SCOPE)


def folder(name: str) -> Place:
    return Place(kind="folder", value=name)


def year(value: str) -> Place:
    return Place(kind="year", value=value)


# --------------------------------------------------------------------------------------------
# Reading the corpus's explicit requests


def cond(column: str, op: str, value: str, text: str) -> Condition:
    return Condition(column=column, op=op, value=value, text=text)


# Each explicit message of the corpus and what must be read from it; a field not listed
# must be empty (no condition, no supplier, no calculation, no note).
CORPUS_READINGS = [
    (
        NORDWERK_POSITIONS,
        {
            "columns": ["Description", "Quantity", "Unit price"],
            "document_conditions": ["Nordwerk"],
            "places": [year("2025"), folder("invoices")],
        },
    ),
    (
        "All positions from invoices/2024/brightline-2024-03.pdf with description and amount",
        {
            "columns": ["Description", "Amount"],
            "places": [Place(kind="file", value="invoices/2024/brightline-2024-03.pdf")],
        },
    ),
    (
        "Priority, response time and resolution time from the SLAs",
        {"columns": ["Priority", "Response time", "Resolution time"], "places": [folder("slas")]},
    ),
    (
        "Item code, description and unit price from the price list where product group is Cables",
        {
            "columns": ["Item code", "Description", "Unit price"],
            "conditions": [cond("Product group", "equals", "Cables", "Product group is Cables")],
            "row_condition": "Product group is Cables",
            "places": [folder("pricelists")],
        },
    ),
    (
        CONTRACT_CAPS,
        {
            "columns": ["Supplier", "Liability cap"],
            "conditions": [cond("Liability cap", "lt", "1,000,000", "Liability cap below 1,000,000")],
            "row_condition": "Liability cap below 1,000,000",
            "places": [folder("contracts")],
        },
    ),
    (
        "Description and amount from the 2023 invoices",
        {"columns": ["Description", "Amount"], "places": [year("2023"), folder("invoices")]},
    ),
    (
        "The total amount of all Brightline invoices",
        {
            "columns": ["Amount"],
            "calculations": ["sum of Amount"],
            "document_conditions": ["Brightline"],
            "places": [folder("invoices")],
        },
    ),
    (
        BRIGHTLINE_BULK,
        {
            "columns": ["Description", "Quantity", "Unit price"],
            "conditions": [cond("Quantity", "gt", "10", "Quantity above 10")],
            "row_condition": "Quantity above 10",
            "document_conditions": ["Brightline"],
            "places": [folder("invoices")],
        },
    ),
    (
        TICKETS_P1,
        {
            "columns": ["Ticket", "Customer", "Subject"],
            "conditions": [cond("Priority", "equals", "P1", "Priority is P1")],
            "row_condition": "Priority is P1",
            "places": [folder("tickets")],
        },
    ),
    (
        "All rows of quotes/견적서-2025.hwpx with 품목, 수량 and 단가",
        {
            "columns": ["품목", "수량", "단가"],
            "places": [Place(kind="file", value="quotes/견적서-2025.hwpx")],
        },
    ),
    (
        "Liability caps below one million in the archived agreements",
        {
            "columns": ["Liability caps"],
            "conditions": [cond("Liability caps", "lt", "one million", "Liability caps below one million")],
            "row_condition": "Liability caps below one million",
            "places": [folder("agreements-archive")],
        },
    ),
]


@pytest.mark.parametrize(("message", "expected"), CORPUS_READINGS)
def test_reads_the_corpus_messages(message, expected):
    reading = read(message)
    empty = {
        "conditions": [],
        "row_condition": None,
        "document_conditions": [],
        "places": [],
        "calculations": [],
        "row_terms": [],
        "notes": [],
    }
    assert reading.kind == "table" and reading.columns_from == "request"
    for field, value in {**empty, **expected}.items():
        assert getattr(reading, field) == value, field


def test_a_row_term_needs_judgement_and_says_so():
    reading = read("Every hardware position on Nordwerk's 2025 invoices")
    assert reading.row_terms == ["hardware"]
    assert len(reading.notes) == 1
    assert "cannot judge 'hardware'" in reading.notes[0] and "KEA_MODEL" in reading.notes[0]
    # No column named: the scope's most common table header.
    assert reading.columns == BRIGHTLINE_HEADER and reading.columns_from == "tables"
    assert reading.document_conditions == ["Nordwerk"]
    assert reading.places == [year("2025"), folder("invoices")]


# --------------------------------------------------------------------------------------------
# Reading other requests


@pytest.mark.parametrize(
    "message", ["hello", "Hi there!", "thanks", "Good morning", "Hallo", "thank you so much"]
)
def test_greetings(message):
    reading = read(message)
    assert reading.kind == "greeting" and reading.columns == []


@pytest.mark.parametrize("message", ["What can you do?", "who are you", "help", "Hi, what can you do"])
def test_questions_about_the_agent(message):
    assert read(message).kind == "about"


@pytest.mark.parametrize("message", ["", "   ", "?"])
def test_empty_messages(message):
    assert read(message).kind == "empty"


def test_a_greeting_with_a_request_is_a_request():
    reading = read("Hi, description and amount from the invoices")
    assert reading.kind == "table" and reading.columns == ["Description", "Amount"]


def test_a_sentence_after_the_first_opens_with_courtesy_too():
    reading = read("Which products yielded more than 52 per acre? I need the company, product and yield.")
    assert reading.columns[0] == "Company"


def test_a_capitalised_first_word_is_not_a_supplier():
    reading = read("Hardware positions on Nordwerk's invoices")
    assert reading.document_conditions == ["Nordwerk"]
    assert reading.row_terms == ["hardware"]


def test_a_known_column_name_left_over_is_a_column_not_a_judgement():
    reading = read("List the response times from the SLAs")
    assert reading.columns == ["Response times"]
    assert reading.places == [folder("slas")]
    assert reading.row_terms == [] and reading.notes == []


def test_services_need_judgement_too():
    reading = read("Every service position on Nordwerk's invoices with description")
    assert reading.row_terms == ["service"] and len(reading.notes) == 1


def test_a_supplier_named_before_the_folder_and_a_name_of_two_words():
    assert read("Every Nordwerk invoice with description").document_conditions == ["Nordwerk"]
    assert read("Invoices from Kappa Systems with description").document_conditions == ["Kappa Systems"]


def test_two_suppliers_joined_by_and_are_alternatives():
    reading = read("Description and amount of Nordwerk and Brightline invoices")
    assert reading.document_conditions == ["Nordwerk or Brightline"]


def test_columns_label_quotes_and_a_folder_path():
    reading = read("Columns: Description, 'Unit price', Amount from invoices/2025")
    assert reading.columns == ["Description", "Unit price", "Amount"]
    assert reading.places == [folder("invoices/2025")]


def test_a_glob_is_a_place():
    reading = read("Description and amount from invoices/**/*.pdf")
    assert reading.places == [Place(kind="glob", value="invoices/**/*.pdf")]


def test_line_total_as_a_column_is_not_a_calculation():
    reading = read("Description and line total of Kappa's invoices")
    assert reading.columns == ["Description", "Line total"]
    assert reading.calculations == []


@pytest.mark.parametrize(
    ("message", "calculation", "columns"),
    [
        (
            "Average unit price by product group from the price list",
            "average of Unit price by Product group",
            ["Product group", "Unit price"],  # the grouping column first, as a GROUP BY reads
        ),
        ("The highest liability cap of all contracts", "maximum of Liability cap", ["Liability cap"]),
    ],
)
def test_calculations_are_named_not_columns(message, calculation, columns):
    reading = read(message)
    assert reading.calculations == [calculation]
    assert reading.columns == columns


def test_how_many_is_a_count_and_its_condition_a_filter():
    reading = read("How many tickets have priority P1")
    assert reading.calculations == ["count of rows"]
    assert reading.conditions == [
        Condition(column="Priority", op="equals", value="P1", text="Priority is P1")
    ]
    assert reading.places == [folder("tickets")]
    # No column named: a header of the scope that holds the condition's column.
    assert reading.columns == ["Priority", "Response time", "Resolution time"]


def test_two_conditions_in_german_and_english_notation():
    reading = read(
        "Positions on invoices where amount is above 1.000,00 and quantity is at least 5, with description"
    )
    assert [(c.column, c.op, c.value) for c in reading.conditions] == [
        ("Amount", "gt", "1.000,00"),
        ("Quantity", "ge", "5"),
    ]
    assert reading.row_condition == "Amount above 1.000,00 and Quantity at least 5"
    assert reading.columns == ["Description"]


def test_a_range_keeps_its_scale_on_both_ends():
    reading = read("Supplier of contracts where liability cap is between 1 and 2 million")
    assert [(c.op, c.value) for c in reading.conditions] == [("ge", "1 million"), ("le", "2 million")]
    assert reading.columns == ["Supplier"] and reading.places == [folder("contracts")]


def test_a_condition_it_cannot_read_is_a_note_not_a_filter():
    reading = read("Supplier of contracts where liability cap is roughly comparable to the market")
    assert reading.conditions[0].op == "judgement"
    assert any("cannot read the condition" in note for note in reading.notes)


def test_a_quoted_value_keeps_its_commas():
    reading = read("Tickets where subject is 'Email, delivery delayed', with customer and ticket")
    assert reading.conditions[0].value == "Email, delivery delayed"
    assert reading.columns == ["Customer", "Ticket"]


def test_no_column_and_no_header_gives_a_note():
    reading = read_message("Every hardware position", ScopeHint(documents=3))
    assert reading.columns == [] and reading.columns_from == "none"
    assert any("No column was named" in note for note in reading.notes)


def test_the_engine_wraps_the_same_reading():
    engine = OfflineEngine()
    assert engine.name == "offline"
    message = CONTRACT_CAPS
    assert asyncio.run(engine.read_request(message, SCOPE)) == read(message)


# --------------------------------------------------------------------------------------------
# Extracting invoices


def invoice(doc_id: int, path: str, letterhead: list[str], *tables: Table) -> DocumentText:
    """A document whose pages hold the letterhead and each table's rows as TAB-joined lines."""
    pages: dict[int, list[str]] = {}
    for table in tables:
        pages.setdefault(table.page, []).extend("\t".join(r) for r in [table.header, *table.rows])
    count = max(pages, default=1)
    texts = ["\n".join((letterhead if n == 1 else []) + pages.get(n, [])) for n in range(1, count + 1)]
    return DocumentText(id=doc_id, collection="kb", path=path, pages=texts, tables=list(tables))


NORDWERK_LONG = invoice(
    1,
    "invoices/2025/nordwerk-2025-05.pdf",
    ["Nordwerk GmbH", "Am Sandtorkai 41, 20457 Hamburg, Deutschland", "Rechnungsnummer: RE-2025-0503"],
    Table(
        page=1,
        header=NORDWERK_HEADER,
        rows=[
            ["1", "NW-41233", "Rack-Server NW-R220 (2 HE)", "2", "4.980,00", "9.960,00"],
            ["2", "NW-77812", "Patchkabel Cat6 2 m grau", "25", "5,90", "147,50"],
        ],
    ),
    # The table runs onto page 2 without repeating its header.
    Table(
        page=2,
        header=["3", "NW-30019", "Installation vor Ort (Stunde)", "6", "1.249,00", "7.494,00"],
        rows=[["4", "NW-55120", "Monitor 27 Zoll WQHD", "3", "389,50", "1.168,50"]],
    ),
)
TESSEL_RESELLER = invoice(
    2,
    "invoices/2025/tessel-2025-02.pdf",
    ["Tessel Trading", "Resale of IT equipment and accessories", "Invoice no.: TT/2025/02-04"],
    Table(
        page=1,
        header=BRIGHTLINE_HEADER,
        rows=[
            ["1", "Nordwerk USB-C dock (resold)", "2", "249.00", "498.00"],
            ["2", "Freight", "1", "80.00", "80.00"],
        ],
    ),
)
BRIGHTLINE = invoice(
    3,
    "invoices/2024/brightline-2024-03.pdf",
    ["Brightline Ltd", "Unit 4, Jutland Street, Manchester", "Invoice no.: BL-240304"],
    Table(
        page=1,
        header=BRIGHTLINE_HEADER,
        rows=[
            ["1", "Cat6 patch cable 2 m", "25", "4.50", "112.50"],
            ["2", "USB-C docking station", "10", "189.00", "1,890.00"],
            ["3", "Monitor 27-inch QHD", "12", "310.00", "3,720.00"],
            ["", "Total:", "", "", "5,722.50"],
        ],
    ),
)


def test_german_invoice_columns_map_onto_the_requested_ones():
    reading = read(NORDWERK_POSITIONS)
    records = extract_records(NORDWERK_LONG, reading)
    assert [r.values for r in records] == [
        {"Description": "Rack-Server NW-R220 (2 HE)", "Quantity": "2", "Unit price": "4.980,00"},
        {"Description": "Patchkabel Cat6 2 m grau", "Quantity": "25", "Unit price": "5,90"},
        {"Description": "Installation vor Ort (Stunde)", "Quantity": "6", "Unit price": "1.249,00"},
        {"Description": "Monitor 27 Zoll WQHD", "Quantity": "3", "Unit price": "389,50"},
    ]
    assert all(r.match == "yes" for r in records)
    assert records[0].evidence == "1\tNW-41233\tRack-Server NW-R220 (2 HE)\t2\t4.980,00\t9.960,00"
    assert [r.page for r in records] == [1, 1, 2, 2]


def test_a_reseller_naming_the_supplier_only_in_its_items_gives_no_rows():
    reading = read(NORDWERK_POSITIONS)
    assert extract_records(TESSEL_RESELLER, reading) == []
    # The same reseller's rows are there when no supplier is asked for.
    assert len(extract_records(TESSEL_RESELLER, read("Description and amount from the invoices"))) == 2


def test_a_document_condition_is_met_by_a_tables_title_or_header_never_by_its_rows():
    from tools.engines.offline.document_names import meets_document_conditions

    def document(title: list[str], header: list[str], rows: list[list[str]]) -> DocumentText:
        table = Table(page=1, header=header, rows=rows, title=title)
        return DocumentText(id=1, collection="kb", path="stats/arrests.pdf", pages=[""], tables=[table])

    # "Votes 2009" names what the whole table is about, as "Arrests by Race: 2009" above it does
    assert meets_document_conditions(document([], ["Offense", "Votes 2009"], [["Fraud", "12"]]), ["2009"])
    assert meets_document_conditions(document(["Arrests by Race: 2009"], ["Offense", "Total"], [["Fraud", "12"]]), ["2009"])
    # an item row that mentions the year is no sign of the document's date
    assert not meets_document_conditions(document([], ["Offense", "Total"], [["Fraud 2009", "12"]]), ["2009"])


def test_a_numeric_condition_drops_rows_at_the_boundary():
    reading = read(BRIGHTLINE_BULK)
    records = extract_records(BRIGHTLINE, reading)
    assert [r.values["Description"] for r in records] == ["Cat6 patch cable 2 m", "Monitor 27-inch QHD"]


def test_a_totals_line_in_the_table_is_not_a_position():
    records = extract_records(BRIGHTLINE, read("The total amount of all Brightline invoices"))
    assert [r.values for r in records] == [
        {"Amount": "112.50"},
        {"Amount": "1,890.00"},
        {"Amount": "3,720.00"},
    ]


def test_columns_from_a_header_read_another_suppliers_header():
    records = extract_records(NORDWERK_LONG, read("Every hardware position on Nordwerk's 2025 invoices"))
    # Judgement is not applied offline: every row is kept, with the reading's note. The first
    # supplier's "Item" numbers its lines, but an item is the thing a line is about: this header's
    # "Beschreibung" goes to the Description asked for by name, and "Item" stays empty, unsure.
    assert len(records) == 4 and {r.match for r in records} == {"unsure"}
    assert records[0].values == {
        "Item": None,
        "Description": "Rack-Server NW-R220 (2 HE)",
        "Qty": "2",
        "Unit price": "4.980,00",
        "Amount": "9.960,00",
    }


def test_a_condition_on_a_column_missing_from_the_table_keeps_rows_unsure():
    reading = read("Description and amount from the invoices where product group is Cables")
    records = extract_records(BRIGHTLINE, reading)
    assert len(records) == 3
    assert all(r.match == "unsure" and "Product group" in (r.note or "") for r in records)


def test_price_list_rows_filtered_by_a_column_not_shown():
    price_list = invoice(
        4,
        "pricelists/price-list-2025.xlsx",
        ["Prices"],
        Table(
            page=1,
            header=["Item code", "Product group", "Description", "Unit price"],
            rows=[
                ["00731", "Cables", "Cat6 patch cable 2 m grey", "4.20"],
                ["00844", "Adapters", "USB-C to HDMI adapter v2 black", "18.90"],
                ["01002", "cables", "HDMI cable 1 m black", "6.10"],
            ],
        ),
    )
    reading = read("Item code, description and unit price from the price list where product group is Cables")
    assert [r.values for r in extract_records(price_list, reading)] == [
        {"Item code": "00731", "Description": "Cat6 patch cable 2 m grey", "Unit price": "4.20"},
        {"Item code": "01002", "Description": "HDMI cable 1 m black", "Unit price": "6.10"},
    ]


def test_the_engine_wraps_the_same_extraction():
    reading = read("All positions from invoices/2024/brightline-2024-03.pdf with description and amount")
    records = asyncio.run(OfflineEngine().extract_document(BRIGHTLINE, reading))
    assert records == extract_records(BRIGHTLINE, reading)
    assert [r.values["Amount"] for r in records] == ["112.50", "1,890.00", "3,720.00"]


# --------------------------------------------------------------------------------------------
# Extracting key–value documents


def prose(doc_id: int, path: str, *lines: str) -> DocumentText:
    return DocumentText(id=doc_id, collection="kb", path=path, pages=["\n".join(lines)])


def contract(doc_id: int, supplier: str, cap_key: str, cap: str) -> DocumentText:
    return prose(
        doc_id,
        f"contracts/{supplier.split()[0].lower()}.docx",
        "Hardware Supply Agreement",
        f'This Agreement is made between Marlow Systems GmbH (the "Customer") and {supplier} (the "Supplier").',
        "Each party's liability is limited as set out in the key terms below.",
        "Key terms",
        f"Supplier: {supplier}",
        "Effective date: 1 March 2024",
        f"{cap_key}: {cap}",
        "Governing law: German law",
    )


CONTRACTS = [
    contract(10, "Nordwerk GmbH", "Haftungshöchstbetrag", "250.000 EUR"),
    contract(11, "Brightline Ltd", "Cap on liability", "GBP 750,000"),
    contract(12, "Kappa Systems AB", "Maximum liability", "EUR 1,500,000"),
    contract(13, "Tessel Trading", "Liability cap", "EUR 500,000"),
    contract(14, "Halden Cloud Services Ltd", "Liability cap", "GBP 2,000,000"),
    contract(15, "Ostara Logistik GmbH", "Maximum liability", "EUR 1,000,000"),
]


def test_contract_caps_below_a_million_across_keys_and_notations():
    reading = read(CONTRACT_CAPS)
    rows = [r for doc in CONTRACTS for r in extract_records(doc, reading)]
    assert [r.values for r in rows] == [
        {"Supplier": "Nordwerk GmbH", "Liability cap": "250.000 EUR"},
        {"Supplier": "Brightline Ltd", "Liability cap": "GBP 750,000"},
        {"Supplier": "Tessel Trading", "Liability cap": "EUR 500,000"},
    ]
    assert all(r.match == "yes" and r.page == 1 for r in rows)
    assert rows[0].evidence.splitlines()[0] == "Supplier: Nordwerk GmbH"  # the lines the values came from


def test_a_cap_stated_only_in_prose_gives_no_row():
    archived = prose(
        20,
        "agreements-archive/orvik.docx",
        'This Supply Agreement is entered into between Marlow Systems GmbH and Orvik Components GmbH (the "Supplier").',
        "The aggregate liability of either party shall be limited to EUR 300,000 for all claims.",
    )
    reading = read(CONTRACT_CAPS)
    assert extract_records(archived, reading) == []


def test_a_missing_requested_value_makes_the_record_unsure():
    reading = read("Supplier, governing law and liability cap of every contract")
    without_law = prose(21, "contracts/x.md", "Supplier: Orvik Components GmbH", "Liability cap: EUR 300,000")
    [record] = extract_records(without_law, reading)
    assert record.values == {
        "Supplier": "Orvik Components GmbH",
        "Governing law": None,
        "Liability cap": "EUR 300,000",
    }
    assert record.match == "unsure" and record.note == "no value for 'Governing law'"


def test_a_value_that_is_not_a_number_keeps_the_record_unsure():
    reading = read(CONTRACT_CAPS)
    unclear = prose(22, "contracts/y.md", "Supplier: Lumen Ltd", "Liability cap: twice the annual fees")
    [record] = extract_records(unclear, reading)
    assert record.match == "unsure" and "cannot compare" in (record.note or "")


def ticket(number: int, priority: str) -> DocumentText:
    return prose(
        100 + number,
        f"tickets/2025/ticket-{number:04d}.txt",
        f"Ticket: T-{number:04d}",
        "Customer: Aldmere Foods",
        f"Priority: {priority}",
        "Subject: VPN connection drops every few minutes",
        "",
        "Remote staff lose the VPN connection several times an hour.",
    )


def test_tickets_of_priority_p1_only():
    reading = read(TICKETS_P1)
    tickets = [ticket(1, "P1"), ticket(2, "P2"), ticket(3, "p1"), ticket(4, "P10")]
    rows = [r for doc in tickets for r in extract_records(doc, reading)]
    assert [r.values["Ticket"] for r in rows] == ["T-0001", "T-0003"]
    assert rows[0].values == {
        "Ticket": "T-0001",
        "Customer": "Aldmere Foods",
        "Subject": "VPN connection drops every few minutes",
    }
    assert rows[0].evidence.splitlines()[0] == "Ticket: T-0001"
    # "every support ticket": a ticket that never calls itself a support ticket may be another kind
    assert rows[0].match == "unsure" and "does not call itself 'support'" in rows[0].note
    support = ticket(1, "P1").model_copy(update={"title": "Support ticket T-0001"})
    assert [r.match for r in extract_records(support, reading)] == ["yes"]


def test_a_document_without_the_condition_key_gives_no_row():
    reading = read(TICKETS_P1)
    note = prose(30, "notes/offsite.txt", "Subject: Team offsite", "Venue: the boathouse by the lake")
    assert extract_records(note, reading) == []


# --------------------------------------------------------------------------------------------
# Numbers and columns


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("1.249,00", 1249.0),
        ("1,249.00", 1249.0),
        ("1249", 1249.0),
        ("250.000", 250000.0),
        ("250.000 EUR", 250000.0),
        ("EUR 500,000", 500000.0),
        ("GBP 2,000,000", 2000000.0),
        ("€ 12,50", 12.5),
        ("12.50", 12.5),
        ("0.125", 0.125),
        ("1.000.000", 1000000.0),
        ("1 000 000", 1000000.0),
        ("one million", 1000000.0),
        ("1 million", 1000000.0),
        ("1.5m", 1500000.0),
        ("2 Mio.", 2000000.0),
        ("-12,50", -12.5),
        ("25 pcs", 25.0),
        ("1,200,000원", 1200000.0),
    ],
)
def test_numbers_in_any_notation(text, number):
    assert parse_number(text) == number


@pytest.mark.parametrize(
    "text", ["", "P1", "1 hour", "15 March 2024", "5 m", "twice the fee", "1.2.3", "12,"]
)
def test_things_that_are_not_numbers(text):
    assert parse_number(text) is None


def test_compare():
    assert compare("lt", "250.000 EUR", "1,000,000") is True
    assert compare("lt", "EUR 1,000,000", "1,000,000") is False
    assert compare("le", "EUR 1,000,000", "1 million") is True
    assert compare("gt", "10", "10") is False
    assert compare("gt", "n/a", "10") is None
    assert compare("equals", "p1", "P1") is True
    assert compare("equals", "10,00", "10") is True
    assert compare("equals", "P10", "P1") is False
    assert compare("contains", "Patchkabel Cat6 2 m", "cat6") is True


@pytest.mark.parametrize("cell", ["Prio 1 – kritisch", "P1 (Critical)", "1 - Critical", "Priority 1 – Critical", "1"])
def test_a_cell_holds_a_value_under_any_of_its_readings(cell):
    assert compare("equals", cell, "1") is True
    assert compare("equals", cell, "P1") is True


@pytest.mark.parametrize("cell", ["Prio 2 – hoch", "P10 (Low)", "12 - Minor", "1 x 12", "Priority 11"])
def test_a_cell_fails_only_when_it_fails_under_every_reading(cell):
    assert compare("equals", cell, "1") is False
    assert compare("not", cell, "1") is True


def test_a_value_that_is_only_part_of_a_cell_leaves_not_undecided_and_orders_read_parts():
    assert compare("not", "P1 (Critical)", "1") is None
    assert compare("not", "1", "1") is False
    assert compare("gt", "4 hours (business)", "6 hours") is False
    assert compare("lt", "4 hours (business)", "6 hours") is True
    assert compare("lt", "4 hours / 8 hours", "6 hours") is None  # one part meets it, one does not


def test_a_year_is_a_date_condition_where_the_scope_paths_carry_no_year():
    message = "Invoice number, date and total of all invoices from 2022"
    unknown = read_message(message, ScopeHint(documents=0))
    assert [(p.kind, p.value) for p in unknown.places] == [("year", "2022")]
    with_years = read_message(message, ScopeHint(documents=9, years=["2021", "2022"]))
    assert [(p.kind, p.value) for p in with_years.places] == [("year", "2022")] and with_years.document_conditions == []
    without = read_message(message, ScopeHint(documents=9))
    assert without.places == [] and without.document_conditions == ["2022"]
    assert any("2022 is read as the documents' date" in n for n in without.notes)


def test_column_names_normalise():
    assert normalise("Pos.") == "pos"
    assert normalise("Art.-Nr.") == "art nr"
    assert normalise("  Unit   Price ") == "unit price"


@pytest.mark.parametrize(
    ("requested", "header", "index"),
    [
        ("Description", NORDWERK_HEADER, 2),
        ("Quantity", NORDWERK_HEADER, 3),
        ("Unit price", NORDWERK_HEADER, 4),
        ("Amount", NORDWERK_HEADER, 5),
        ("Item code", NORDWERK_HEADER, 1),
        ("Item", NORDWERK_HEADER, 2),  # the item a line is about, as people ask for it; "Pos." only numbers it
        ("Position", NORDWERK_HEADER, 0),
        ("Amount", ["No.", "Description", "Quantity", "Unit Price", "Line Total"], 4),
        ("Unit price", ["품목", "수량", "단가"], 2),
        ("Liability cap", ["Supplier", "Haftungshöchstbetrag"], 1),
        ("Liability caps", ["Cap on liability"], 0),
        ("Unit price", ["Description", "Unit price (EUR)"], 1),
        ("Amount", ["Description", "Total amount"], 1),
        ("Response time", ["Priority", "Reaktionszeit", "Lösungszeit"], 1),
        ("Supplier", ["Customer", "Date"], None),
    ],
)
def test_match_column(requested, header, index):
    assert match_column(requested, header) == index


def test_an_exact_header_beats_a_synonym():
    assert match_column("Total", ["Amount", "Total"]) == 1
    assert map_columns(["Item code", "Item"], ["Item", "Item code"]) == {"Item code": 1, "Item": 0}


@pytest.mark.parametrize(
    ("message", "condition"),
    [
        ("Description and amount no more than 100", "Amount at most 100"),
        ("Description and amount at least 100", "Amount at least 100"),
        ("Columns: description, amount at least 100", "Amount at least 100"),
    ],
)
def test_every_operator_ends_a_column_list(message: str, condition: str) -> None:
    reading = read_message(message, ScopeHint(documents=1))
    assert reading.columns == ["Description", "Amount"]
    assert [c.text for c in reading.conditions] == [condition]


def test_a_year_a_comparison_ends_is_its_value_not_a_place():
    reading = read_message("Name and team of swimmers born before 1930", ScopeHint(documents=1))
    assert reading.places == []
    assert [(c.op, c.value) for c in reading.conditions] == [("lt", "1930")]


RESULTS_HEADER = ["Rank", "Heat/Lane", "Name", "Fed.", "YB", "Team", "Time", "(R.T.)"]


@pytest.mark.parametrize(
    ("requested", "cell"),
    [("year of birth", "YB"), ("Federation", "Fed."), ("reaction time", "(R.T.)"), ("Team", "Team"), ("Lane", "Heat/Lane")],
)
def test_a_header_cell_abbreviating_the_requested_name_holds_it(requested, cell):
    assert RESULTS_HEADER[match_column(requested, RESULTS_HEADER)] == cell


@pytest.mark.parametrize(
    ("requested", "header"),
    [
        ("quality", ["Pos", "Description", "Qty"]),  # letters dropped inside a word: another word's as easily
        ("year", RESULTS_HEADER),  # one word is no initials
        ("federation", ["Fed.", "FED"]),  # two cells abbreviate it: neither is taken
        ("nationality", RESULTS_HEADER),
    ],
)
def test_a_cell_is_no_abbreviation_of_a_name_it_only_resembles(requested, header):
    assert match_column(requested, header) is None


def test_a_results_list_gives_the_year_of_birth_asked_for_in_words():
    results = invoice(1, "results.pdf", ["Results Summary"], Table(page=1, header=RESULTS_HEADER, rows=[
        ["1", "1/4", "Fritz ILGEN", "GER", "1933", "TSV Lindau", "51.78", "( 0.85)"],
        ["2", "1/5", "Fusao TAKAHASHI", "JPN", "1933", "JUMP", "55.97", "( 0.91)"],
    ]))
    records = extract_records(results, read("Name, federation and year of birth of every swimmer"))
    assert [r.values for r in records] == [
        {"Name": "Fritz ILGEN", "Federation": "GER", "Year of birth": "1933"},
        {"Name": "Fusao TAKAHASHI", "Federation": "JPN", "Year of birth": "1933"},
    ]
    assert all(r.match == "yes" for r in records)


@pytest.mark.parametrize(
    ("message", "columns"),
    [
        ("Who finished first in each age group? Name and time", ["Name", "Time"]),
        ("Who won in each category? Name and team", ["Name", "Team"]),
    ],
)
def test_a_preposition_left_before_the_rows_is_no_column(message, columns):
    assert read(message).columns == columns


def test_a_folder_written_out_wins_over_the_same_folder_named_in_words():
    scope = ScopeHint(documents=9, years=["2023", "2024"], folders=[
        FolderCount(folder="orders", documents=9), FolderCount(folder="orders/2024", documents=5)])
    reading = read_message("Order number, order date and supplier of every purchase order in orders/2024/", scope)
    assert [(p.kind, p.value) for p in reading.places] == [("folder", "orders/2024")]
    assert reading.row_terms == [] and reading.columns == ["Order number", "Order date", "Supplier"]
    alone = read_message("Order number and supplier of every purchase order", scope)
    assert [(p.kind, p.value) for p in alone.places] == [("folder", "orders")]


def test_two_cells_of_one_kind_give_the_column_to_the_one_named_as_the_kind_or_to_neither():
    # an order heads the article's number "Article" or "Artikel" beside its description
    assert map_columns(["Désignation", "Quantité"], ["Line", "Article", "Description", "Qty"]) == {"Désignation": 2, "Quantité": 3}
    assert map_columns(["Beschreibung", "Menge"], ["Pos", "Artikel", "Bezeichnung", "Menge"]) == {"Beschreibung": 2, "Menge": 3}
    assert map_columns(["Article", "Description"], ["Pos", "Artikel", "Bezeichnung", "Menge"]) == {"Article": 1, "Description": 2}
    # two cells of the description's kind, neither named as it: the column stays empty, unsure
    assert map_columns(["Description", "Menge"], ["Pos", "Beschreibung", "Bezeichnung", "Menge"]) == {"Menge": 3}
    # one of them taken by its own name, the other is the one left ("Artikelbezeichnung", "Leistung")
    assert map_columns(["Leistung", "Description"], ["Leistung", "Artikelbezeichnung"]) == {"Leistung": 0, "Description": 1}
    # "Order no." numbers the order; "Rechnungsnr." is the invoice number; "P.U. HT" the unit price
    assert map_columns(["Order number"], ["Pos", "Order no."]) == {"Order number": 1}
    assert map_columns(["Invoice number", "Gross total"], ["Rechnungsnr.", "Summe netto", "Rechnungsbetrag"]) == {
        "Invoice number": 0, "Gross total": 2}
    assert map_columns(["Référence", "Prix unitaire"], ["Réf. fournisseur", "Désignation", "Qté", "P.U. HT"]) == {
        "Référence": 0, "Prix unitaire": 3}
    # an unqualified amount beside a net and a gross one names neither
    assert map_columns(["Amount"], ["Nettobetrag", "Gesamtbetrag brutto"]) == {}
    assert map_columns(["Gross total"], ["Nettobetrag", "Gesamtbetrag brutto"]) == {"Gross total": 1}


def test_owners_are_read_where_people_write_them():
    scope = ScopeHint(documents=9, years=["2025"])
    sla = read_message("Priority, response time and resolution time of the SLA with Nordlicht AG", scope)
    assert sla.columns == ["Priority", "Response time", "Resolution time"] and sla.document_conditions == ["Nordlicht AG"]
    invoices = read_message("Item, quantity and price per unit of all positions on the Nordwerk invoices", scope)
    assert invoices.columns == ["Item", "Quantity", "Price per unit"] and invoices.document_conditions == ["Nordwerk"]
    # a list after "with" stays the values wanted, capitalised or not
    listed = read_message("All lines of the 2025 orders with EAN, Article and Qty", scope)
    assert listed.columns == ["EAN", "Article", "Qty"] and listed.document_conditions == []


def test_an_owner_named_only_in_a_tables_rows_is_a_condition_on_those_rows():
    reading = read_message("Order number, date and total of every order from Stadtwerke Kiel", ScopeHint(documents=3))
    assert reading.document_conditions == ["Stadtwerke Kiel"]
    rows = [["O-1", "2025-01-02", "Stadtwerke Kiel", "10.00"], ["O-2", "2025-01-03", "Hafen Lübeck", "20.00"]]
    header = ["Order number", "Date", "Customer", "Total"]
    listing = DocumentText(id=1, collection="c", path="orders/list.csv", pages=["\n".join("\t".join(r) for r in [header, *rows])],
                           tables=[Table(page=1, header=header, rows=rows)])
    assert [(r.values["Order number"], r.match) for r in extract_records(listing, reading)] == [("O-1", "yes")]
    elsewhere = listing.model_copy(update={"tables": [Table(page=1, header=header, rows=rows[1:])], "pages": ["Hafen Lübeck"]})
    assert extract_records(elsewhere, reading) == []  # named nowhere: the document gives no rows


def test_a_labelled_note_set_as_a_line_of_the_items_table_is_no_item() -> None:
    from core.reading import DocumentText, ScopeHint, Table
    from tools.engines.offline import extract_records, read_message

    header = ["Item #", "Description", "Qty", "Unit cost"]
    rows = [["HM-101", "Steel bracket", "40", "2.10"], ["HM-205", "Hex bolt M8", "500", "0.12"],
            ["Payment terms: 30 days net. IBAN NO93 8601 1117 947", "", "", ""]]
    invoice = DocumentText(id=1, collection="x", path="HM-24-0311.pdf", title="Invoice", pages=[""],
                           tables=[Table(page=1, header=header, rows=rows)])
    reading = read_message("List the items with Item #, Description, Qty and Unit cost",
                           ScopeHint(documents=1, table_headers=[header], vocabulary=header))
    assert [r.values["Item #"] for r in extract_records(invoice, reading)] == ["HM-101", "HM-205"]


def test_a_two_column_table_whose_header_names_the_requested_columns_is_a_table_not_labels() -> None:
    from core.reading import DocumentText, ScopeHint, Table
    from tools.engines.offline import extract_records, read_message

    ducks = Table(page=1, header=["Year", "Freshwater Ducks"], rows=[["2019", "120"], ["2021", "150"], ["2022", "170"]])
    sheet = DocumentText(id=1, collection="x", path="ducks.xlsx", title="Ducks", pages=[""], tables=[ducks])
    scope = ScopeHint(documents=1, table_headers=[ducks.header], vocabulary=ducks.header)
    reading = read_message("List the year and the number of freshwater ducks for every year with at least 150 freshwater ducks.", scope)
    assert [list(r.values.values()) for r in extract_records(sheet, reading)] == [["2021", "150"], ["2022", "170"]]
    # a list of labels set as two columns stays a list of labels
    labels = Table(page=1, header=["Invoice no.", "INV-7"], rows=[["Date", "2025-03-01"], ["Supplier", "Acme"]])
    invoice = DocumentText(id=2, collection="x", path="inv.pdf", title="Invoice", pages=[""], tables=[labels])
    reading = read_message("Invoice no., date and supplier of every invoice", ScopeHint(documents=1))
    assert [list(r.values.values()) for r in extract_records(invoice, reading)] == [["INV-7", "2025-03-01", "Acme"]]


def test_every_kind_of_column_is_named_by_its_own_name_too() -> None:
    from tools.engines.columns import groups_of
    from tools.engines.synonyms import SYNONYMS

    assert [group for group in SYNONYMS if group not in groups_of(group)] == []
    # "Eintrittsdatum" is the start date an English staff list heads "Start date"
    header = ["Employee no.", "Name", "Department", "Role", "Start date", "Location"]
    assert map_columns(["Name", "Rolle", "Eintrittsdatum"], header) == {"Name": 1, "Rolle": 3, "Eintrittsdatum": 4}


def test_a_label_in_two_languages_names_the_column_either_name_does() -> None:
    from tools.engines.columns import match_column

    labels = ["Kund / Customer", "Fakturanr / Invoice no.", "Momsreg.nr / VAT no."]
    assert match_column("Invoice number", labels) == 1
    assert match_column("Customer", labels) == 0
    assert match_column("Due date", labels) is None
