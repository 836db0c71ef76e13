"""The scope's own names read first: headers and labels found whole in a request, and the
columns they head found under the names a user gives them."""

from __future__ import annotations

from tools.engines.columns import map_columns, match_column
from tools.engines.offline import extract_records, grammar, read_message
from tools.engines.offline.tokens import Tok
from core.reading import DocumentText, FolderCount, ScopeHint, Table

# Header cells of public statistical tables and of invoices in four languages
VOCABULARY = [
    "States/Union Territories", "1991-2001", "2001-2011", "Total Costs All Funds", "Indirect Costs",
    "Domestic (%)", "Total (n)", "Region and state", "Prijs incl. BTW", "Omschrijving", "Paid by",
    "Receipt no.", "Merchant", "Total", "Purchase order", "Roussel Verrerie SARL", "Sales 2023",
]
SCOPE = ScopeHint(documents=20, vocabulary=VOCABULARY, folders=[FolderCount(folder="orders", documents=9)])


def growth_table(*rows: list[str]) -> tuple[DocumentText, ScopeHint]:
    """A state-wise growth table as a statistical report prints it, and the scope it makes."""
    table = Table(
        page=1,
        header=["States/Union Territories", "1991-2001", "2001-2011"],
        rows=[list(r) for r in rows],
        title=["TABLE 4: STATE-WISE DECADAL GROWTH RATE OF POPULATION", "(Per cent)"],
    )
    document = DocumentText(id=1, collection="stats", path="population_growth.pdf", title="Population", pages=[""], tables=[table])
    return document, ScopeHint(documents=1, vocabulary=[*table.header], table_headers=[table.header])


def read(message: str):  # type: ignore[no-untyped-def]
    return read_message(message, SCOPE)


def test_a_header_with_punctuation_or_an_inner_and_stays_one_column() -> None:
    reading = read("List region and state, domestic (%), total (n) and Total Costs All Funds for every row")
    assert reading.columns == ["Region and state", "Domestic (%)", "Total (n)", "Total Costs All Funds"]
    assert reading.unused == []


def test_a_header_with_an_abbreviation_point_stays_whole() -> None:
    assert read("Omschrijving and prijs incl. BTW of every line").columns == ["Omschrijving", "Prijs incl. BTW"]


def test_a_header_holding_a_year_is_a_column_not_a_place() -> None:
    reading = read("Give me the region and state and sales 2023 for each row")
    assert reading.columns == ["Region and state", "Sales 2023"]
    assert reading.places == []


def test_without_the_scope_the_same_words_are_read_by_the_grammar() -> None:
    reading = read_message("List region and state for every row", ScopeHint(documents=1))
    assert reading.columns == ["Region", "State"]


def test_a_condition_on_a_header_of_several_words_names_it_whole() -> None:
    reading = read("Region and state and domestic (%) for each row where Total Costs All Funds is above 5")
    assert [(c.column, c.op, c.value) for c in reading.conditions] == [("Total Costs All Funds", "gt", "5")]


def test_a_label_followed_by_a_name_is_a_condition_on_that_label() -> None:
    reading = read("Receipt no., merchant and total of the receipts paid by Ilse Vermeer")
    assert [(c.column, c.op, c.value) for c in reading.conditions] == [("Paid by", "equals", "Ilse Vermeer")]
    assert reading.unused == []


def test_a_party_known_to_the_scope_is_still_the_owner() -> None:
    reading = read("Numéro de facture, date et total TTC de chaque facture de Roussel Verrerie SARL")
    assert reading.document_conditions == ["Roussel Verrerie SARL"]


def test_a_label_naming_the_documents_still_finds_their_folder() -> None:
    reading = read("Every purchase order line with a quantity of more than 50: order number and quantity")
    assert [(p.kind, p.value) for p in reading.places] == [("folder", "orders")]


def test_the_thing_each_row_is_about_is_the_first_column_when_a_header_names_it() -> None:
    reading = read("Show each state with its 1991-2001 growth rate and its 2001-2011 growth rate")
    assert reading.columns == ["State", "1991-2001 growth rate", "2001-2011 growth rate"]
    # "every item with description" names rows, not a column: no possessive makes them its values
    assert read("Every merchant with receipt no. and total").columns == ["Receipt no.", "Total"]
    # a column named in a list with a quantifier before it is named without it: "Crime", never "Each crime"
    # "list the states whose …": the things asked about are the first column, as after "which"
    header = ["States", "Total Internal Debt", "Market Loans"]
    for message in ("List the states whose total internal debt is above 25, with market loans.",
                    "List states whose total internal debt is above 25, with market loans."):
        states = read_message(message, ScopeHint(documents=1, table_headers=[header], vocabulary=header))
        assert states.columns == ["States", "Market loans"], states.columns
    message = "From the Historical Perspective table, give each crime with its 1990 and 2016 counts, including the total line."
    crimes = read_message(message, ScopeHint(documents=1, table_headers=[["Crime", "1990", "2016"]]))
    assert crimes.columns[0] == "Crime"


def test_a_header_joining_names_with_a_slash_heads_each_of_them() -> None:
    header = ["States/Union Territories", "1991-2001", "2001-2011"]
    assert match_column("State", header) == 0
    assert match_column("Union territory", header) == 0
    assert match_column("Territory", header) is None


def test_a_cell_named_with_the_table_title_saying_the_rest() -> None:
    header = ["States/Union Territories", "1951-1961", "1991-2001", "2001-2011"]
    title = "TABLE 4: STATE-WISE DECADAL GROWTH RATE OF POPULATION (Per cent)"
    requested = ["State", "1991-2001 growth rate", "2001-2011 growth rate"]
    assert map_columns(requested, header, title) == {"State": 0, "1991-2001 growth rate": 2, "2001-2011 growth rate": 3}
    # without the title, "growth rate" is said nowhere: the columns are not guessed
    assert map_columns(requested, header) == {"State": 0}
    # words the title does not say leave the cell unnamed
    assert match_column("1991-2001 birth rate", header, title) is None


def test_rows_of_a_titled_statistical_table_for_a_request_in_the_users_words() -> None:
    document, scope = growth_table(["Bihar", "28.62", "25.07"], ["Goa", "15.21", "8.23"], ["Meghalaya", "30.65", "27.82"])
    reading = read_message("Each state with its 2001-2011 growth rate where the 2001-2011 growth rate is above 25", scope)
    records = extract_records(document, reading)
    assert [(r.values, r.match) for r in records] == [
        ({"State": "Bihar", "2001-2011 growth rate": "25.07"}, "yes"),
        ({"State": "Meghalaya", "2001-2011 growth rate": "27.82"}, "yes"),
    ]


def test_two_words_joined_by_a_slash_are_words_and_a_path_is_a_place() -> None:
    reading = read("List the district with its surplus/deficit for rice")
    assert reading.places == []
    assert "Surplus/deficit" in " ".join(reading.columns) or "surplus/deficit" in " ".join(reading.columns).casefold()
    assert [(p.kind, p.value) for p in read("Order number and quantity of every line in orders/2024").places] == [
        ("folder", "orders/2024")
    ]
    # a slash word that starts at a folder of the scope is a path
    assert [(p.kind, p.value) for p in read("Order number of every line in orders/archive").places] == [
        ("folder", "orders/archive")
    ]


def test_a_phrase_naming_the_document_and_the_asking_verb_open_no_column() -> None:
    reading = read_message(
        "In the Senate expenditures, list the charges paid with the Citibank card: document no., amount.",
        ScopeHint(documents=3),
    )
    assert reading.columns == ["Document no.", "Amount"]
    reading = read_message(
        "Which states have a Family Welfare amount above 0? Give me the state, the capital and the overall total.",
        ScopeHint(documents=3),
    )
    assert reading.columns == ["State", "Capital", "Overall total"]


def test_an_owner_named_by_the_documents_path_is_found() -> None:
    table = Table(page=1, header=["Document no.", "Date posted", "Amount"], rows=[["DHAW20190005", "05/28/2019", "798.90"]])
    document = DocumentText(id=1, collection="c", path="reports/senate-expenditures.pdf", title="", pages=[""], tables=[table])
    reading = read_message("Document no. and amount from the Senate expenditures", ScopeHint(documents=1))
    assert reading.document_conditions == ["Senate"]
    assert [r.values for r in extract_records(document, reading)] == [{"Document no.": "DHAW20190005", "Amount": "798.90"}]


def test_columns_the_request_did_not_name_never_give_yes() -> None:
    table = Table(page=1, header=["SKU", "Product", "Price"], rows=[["KT-S100", "Temperature sensor PT100", "48.50"]])
    document = DocumentText(id=1, collection="c", path="price_list.xlsx", title="", pages=[""], tables=[table])
    scope = ScopeHint(documents=1, table_headers=[table.header], vocabulary=table.header)
    reading = read_message("How much does each of our sensors cost?", scope)
    assert reading.columns_from == "tables"
    (record,) = extract_records(document, reading)
    assert record.match == "unsure"
    assert "names no column" in (record.note or "")


def test_a_unit_in_brackets_a_value_word_and_a_qualified_cell_still_name_the_column() -> None:
    header = ["Cycle Name", "KI (1/km)", "Distance (mi)", "Percent Fuel Savings"]
    assert map_columns(["Cycle name", "KI", "Distance"], header) == {"Cycle name": 0, "KI": 1, "Distance": 2}
    # "the illiterate share" names no cell by itself: the request's reading decides (the header it
    # opens with, the rest unused), not a list of words
    assert match_column("Illiterate share", ["State", "Illiterate", "Read & Write", "College"]) is None
    # "Target" heads "Target Q2 2025" when one cell starts with it; two such cells name neither
    assert match_column("Target", ["KPI", "Target Q2 2025", "Actual Q2 2025"]) == 1
    assert match_column("Target", ["KPI", "Target Q1 2025", "Target Q2 2025"]) is None


def test_a_condition_in_the_titles_words_on_a_per_cent_column() -> None:
    from tools.engines.numbers import compare

    header = ["States/Union Territories", "1991-2001", "2001-2011"]
    title = "TABLE 4: STATE-WISE DECADAL GROWTH RATE OF POPULATION (Per cent)"
    assert match_column("growth in 2001-2011", header, title) == 2
    assert compare("gt", "55.50", "60 per cent") is False
    assert compare("gt", "65.50", "60 percent") is True


def test_the_things_a_question_asks_about_are_the_first_column() -> None:
    scope = ScopeHint(documents=2, vocabulary=["States/Union Territories", "1991-2001", "2001-2011", "KPI", "Target Q2 2025"])
    reading = read_message(
        "Which states or union territories grew by less than 10 per cent in 2001-2011? Show their 1991-2001 "
        "and 2001-2011 growth rates.", scope)
    assert reading.columns[0] == "States"
    # asked for already: not twice
    assert read_message("Which KPIs missed their target? KPI, target and actual.", scope).columns == ["KPI", "Target", "Actual"]
    # a noun no header names is no column ("figure" is left unused: no header says it)
    assert read_message("Which invoices are overdue? Show the 2001-2011 figure.", scope).columns == ["2001-2011"]


def test_every_state_whose_growth_in_a_period_was_above_a_share() -> None:
    document, scope = growth_table(["Bihar", "28.62", "25.07"], ["Daman and Diu", "55.73", "53.54"], ["Goa", "15.21", "8.23"])
    reading = read_message("List every state whose growth in 2001-2011 was above 50 per cent, with the 2001-2011 figure.", scope)
    # the header "2001-2011" is the column; "figure" says its value, as "values" would
    assert reading.columns == ["State", "2001-2011"]
    assert reading.unused == []
    assert [(c.column, c.op, c.value) for c in reading.conditions] == [("Growth in 2001-2011", "gt", "50 per cent")]
    assert [(r.values, r.match) for r in extract_records(document, reading)] == [
        ({"State": "Daman and Diu", "2001-2011": "53.54"}, "yes")  # every value its cell's, every word read
    ]


# --------------------------------------------------------------------------------------------
# A list item longer than the header it opens with: the header is the column, the rest is unused


LITERACY = ScopeHint(
    documents=1,
    vocabulary=["State", "n", "Illiterate", "Read & Write", "Primary", "Middle", "Secondary", "College"],
    table_headers=[["State", "n", "Illiterate", "Read & Write", "Primary", "Middle", "Secondary", "College"]],
)


def test_a_header_then_a_word_no_header_has_is_the_header_and_the_word_is_unused() -> None:
    reading = read_message(
        "In the table on literacy of adult women, which states have more than 50% illiterate? "
        "Show the illiterate share, the read & write share and the college share.", LITERACY)
    # "read & write" is one header of the scope: the "&" does not split it
    assert reading.columns == ["States", "Illiterate", "Read & write", "College"]
    assert "share" in reading.unused


def test_the_item_stays_whole_when_the_words_after_the_header_are_the_scopes_own() -> None:
    scope = ScopeHint(documents=2, vocabulary=["Invoice no.", "Number", "Opened", "Description"])
    # "invoice" is a word of the scope's "Invoice no.": "invoice number" is not the incident "Number"
    assert read_message("Invoice number and description of every invoice", scope).columns == ["Invoice number", "Description"]
    # two items that would both shrink to one header stay two columns
    budget = ScopeHint(documents=1, vocabulary=["Total", "Capital", "Revenue"])
    assert read_message("Ministry, total plan and total non-plan of every line", budget).columns == [
        "Ministry", "Total plan", "Total non-plan"]
    # a header that says less than half of the item is not what it asks for
    assert read_message("Ministry and total internal debt of every line", budget).columns == ["Ministry", "Total internal debt"]


def test_a_courtesy_or_a_possessive_around_a_header_is_no_part_of_the_column() -> None:
    scope = ScopeHint(documents=1, vocabulary=["Invoice no.", "Description", "Unit price", "Totals", "State / Territory"])
    reading = read_message("Invoice number, line description and unit price please.", scope)
    assert reading.columns[-1] == "Unit price"
    assert read_message("Show the permit and the state's totals for every state", scope).columns[-1] == "Totals"


def test_a_percent_sign_ends_a_sentence_before_a_capital() -> None:
    reading = read_message(
        "Give me every row of Table 6: state, sample size n, illiterate % and college %. Include the pooled row.", LITERACY)
    assert reading.columns[-1] == "College %"


def test_a_header_of_years_is_in_the_vocabulary_and_a_year_it_names_is_a_column() -> None:
    from tools.knowledge.vocabulary import document_vocabulary
    from tools.parsing.base import ParsedDocument

    table = Table(page=1, header=["Volume servers in:", "2008", "2009", "2001-2011", "12.5"], rows=[["Server rooms", "1,573", "1,586", "3", "4"]])
    parsed = ParsedDocument(title="UEC", media_type="application/pdf", pages=[""], tables=[table])
    # years and spans of years head columns; a figure in a header names nothing
    assert document_vocabulary(parsed) == ["Volume servers in:", "2008", "2009", "2001-2011"]
    scope = ScopeHint(documents=2, vocabulary=document_vocabulary(parsed))
    reading = read_message("Which space types are there? Give the 2008 and 2009 values.", scope)
    assert reading.columns[-2:] == ["2008", "2009"] and reading.places == [] and reading.document_conditions == []
    # where the documents' paths hold the year, it is a place as before
    dated = read_message("Give the 2008 and 2009 values.", scope.model_copy(update={"years": ["2008", "2009"]}))
    assert [p.value for p in dated.places] == ["2008", "2009"]


def test_a_list_in_polish_parts_at_i_unless_a_header_holds_it() -> None:
    header = ["Lp.", "Imię i nazwisko", "Stanowisko", "Rodzaj szkolenia", "Data szkolenia", "Wynik"]
    scope = ScopeHint(documents=1, table_headers=[header], vocabulary=header)
    reading = read_message("Kto nie zaliczył szkolenia? Podaj imię i nazwisko, rodzaj szkolenia i datę szkolenia.", scope)
    assert reading.columns == ["Imię i nazwisko", "Rodzaj szkolenia", "Datę szkolenia"]
    assert "Podaj" not in reading.unused
    # the request's case of a header ("datę" for "Data") is that header
    assert map_columns(reading.columns, header) == {"Imię i nazwisko": 1, "Rodzaj szkolenia": 3, "Datę szkolenia": 4}
    orders = ["Numer zamówienia", "Klient", "Wartość netto", "Status"]
    reading = read_message("Pokaż anulowane zamówienia: numer zamówienia, klient i wartość netto.",
                           ScopeHint(documents=1, table_headers=[orders], vocabulary=orders))
    assert reading.columns == ["Numer zamówienia", "Klient", "Wartość netto"]
    # the English pronoun is no conjunction
    assert Tok("i").is_(grammar.CONJUNCTIONS) and not Tok("I").is_(grammar.CONJUNCTIONS) and Tok("I").is_(grammar.PERSONS)


def test_a_grouped_headers_own_name_is_named_by_its_last_words() -> None:
    header = ["State", "n", "Literacy Status Illiterate", "Literacy Status Read & Write", "Literacy Status College"]
    scope = ScopeHint(documents=1, table_headers=[header], vocabulary=header)
    reading = read_message("Which states have more than 50% illiterate? Show the illiterate share, the read & write share "
                           "and the college share.", scope)
    assert reading.columns == ["States", "Illiterate", "Read & write", "College"]
    assert reading.unused == ["share"]  # said, and the rows unsure for it
    assert map_columns(reading.columns, header) == {"States": 0, "Illiterate": 2, "Read & write": 3, "College": 4}
    # two headers of their own stay two columns
    two = ["Price", "Quantity", "Price and quantity note"]
    assert read_message("Show price and quantity", ScopeHint(documents=1, table_headers=[two], vocabulary=two)).columns == ["Price", "Quantity"]


def test_the_table_whose_title_says_what_was_asked_among_tables_of_one_page() -> None:
    header = ["State", "n", "Illiterate"]
    men = Table(page=1, header=header, rows=[["Kerala", "2400", "8.8"]], title=["Table 6: LITERACY STATUS OF", "MALE HEAD OF THE HOUSEHOLD"])
    women = Table(page=1, header=header, rows=[["Kerala", "2400", "20.1"]], title=["Table 7: LITERACY STATUS OF", "ADULT WOMEN"])
    document = DocumentText(id=1, collection="stats", path="literacy.pdf", title="Table 6", pages=["ADULT WOMEN"], tables=[men, women])
    scope = ScopeHint(documents=1, table_headers=[header], vocabulary=header)
    reading = read_message("In the table on literacy of adult women, give each state with its illiterate share", scope)
    assert [r.values["Illiterate"] for r in extract_records(document, reading)] == ["20.1"]
    # a request that names neither table reads both
    reading = read_message("Give each state with its illiterate share", scope)
    assert [r.values["Illiterate"] for r in extract_records(document, reading)] == ["8.8", "20.1"]


def test_a_header_shortened_or_in_another_case_heads_the_requested_column() -> None:
    header = ["Month", "Region", "Net Sales (PLN)", "Orders", "Avg Order Value (PLN)"]
    assert match_column("Average order value", header) == 4
    assert match_column("Cenę netto", ["Lp.", "Nazwa towaru", "Cena netto (PLN)", "Wartość netto (PLN)"]) == 2
    # one word alike is not enough, nor two names each only alike
    assert match_column("Average", ["Avg"]) is None
    assert match_column("Quality value", ["Qty price"]) is None


def test_a_name_in_another_case_is_named_by_the_document() -> None:
    from tools.engines.offline.document_names import meets_document_conditions

    invoice = DocumentText(id=1, collection="x", path="FV_0312_2025.docx", title="Faktura VAT",
                           pages=["Sprzedawca: Mleczarnia Kaszubska Sp. z o.o.\nNabywca: Bursztyn Sp. z o.o."], tables=[])
    assert meets_document_conditions(invoice, ["Mleczarni Kaszubskiej"])  # "od Mleczarni Kaszubskiej": from
    assert not meets_document_conditions(invoice, ["Mleczarni Pomorskiej"])
    assert not meets_document_conditions(invoice, ["Mleko Kaszubskie"])  # a stem of five letters at least


def test_the_rows_subject_is_the_first_column_when_no_header_names_it() -> None:
    header = ["", "2011", "2012", "2013", "Total 2013-2022"]
    rows = [["Individual income taxes", "1,091", "1,165", "1,294", "18,303"], ["Corporate income taxes", "181", "237", "293", "4,034"]]
    table = Table(page=1, header=header, rows=rows, title=["Table S-4. Adjusted Baseline"])
    document = DocumentText(id=1, collection="x", path="baseline.pdf", title="Baseline", pages=[""], tables=[table])
    scope = ScopeHint(documents=1, table_headers=[header], vocabulary=header[1:])
    reading = read_message("Give me the receipts line item and 2013 of every line", scope)
    records = extract_records(document, reading)
    assert [list(r.values.values()) for r in records] == [["Individual income taxes", "1,294"], ["Corporate income taxes", "293"]]
    assert all(r.match == "unsure" and "first column, which has no header" in r.note for r in records)
    # nor from a table that holds none of the other requested columns
    alone = read_message("Give me the receipts line item and the remarks of every line", scope)
    assert alone.columns == ["Receipts line item", "Remarks"] and extract_records(document, alone) == []
    # a column of figures asked first is not taken for the labels
    reading = read_message("Give me the amount and 2013 of every line", scope)
    assert all(r.values.get("Amount") not in ("Individual income taxes", "Corporate income taxes") for r in extract_records(document, reading))


def test_a_question_names_its_values_before_its_auxiliary_and_their_shared_last_word() -> None:
    header = ["Priority", "Definition", "Response Time", "Resolution Time"]
    scope = ScopeHint(documents=1, table_headers=[header], vocabulary=header)
    reading = read_message("What response and resolution times does the service agreement with Hotel Marina Dénia set "
                           "for each priority level?", scope)
    assert reading.columns == ["Priority", "Response times", "Resolution times"]
    assert "Hotel Marina Dénia" in reading.document_conditions
    assert map_columns(reading.columns, header) == {"Priority": 0, "Response times": 2, "Resolution times": 3}
    # an item that names a header keeps its own words
    assert read_message("Show priority and resolution times", scope).columns == ["Priority", "Resolution times"]


def test_who_did_a_thing_is_the_column_that_names_the_person() -> None:
    header = ["Contract ID", "Counterparty", "End Date", "Status", "Responsible"]
    scope = ScopeHint(documents=1, table_headers=[header], vocabulary=header)
    reading = read_message("Which contracts end in 2025? I need the counterparty, the end date and who's responsible.", scope)
    assert reading.columns == ["Counterparty", "End date", "Responsible"] and reading.unused == []
    log = ["date", "zone", "reading_c", "checked_by"]
    scope = ScopeHint(documents=1, table_headers=[log], vocabulary=log)
    reading = read_message("Freezer readings in May: date, zone and who checked.", scope)
    assert reading.columns == ["Date", "Zone", "Checked by"]
    assert map_columns(reading.columns, log) == {"Date": 0, "Zone": 1, "Checked by": 3}
    # "who" before a word that names no column stays a clause the rows are judged by
    reading = read_message("Which contracts end in 2025? Counterparty, end date and who signed.",
                           ScopeHint(documents=1, table_headers=[header], vocabulary=header))
    assert reading.columns == ["Counterparty", "End date"] and reading.row_terms == ["signed"]


def test_a_titles_colon_before_a_question_opens_no_list() -> None:
    header = ["Offense charged", "Total", "White", "Black", "Indian/Alaskan Native"]
    scope = ScopeHint(documents=1, table_headers=[header], vocabulary=header)
    reading = read_message("From Table 325, Arrests by Race: 2009, which offense categories had more than 10,000 arrests? "
                           "Show the total and the white arrests.", scope)
    assert "2009" not in reading.columns and reading.columns[-2:] == ["Total", "White"]


def test_a_header_after_the_amount_is_the_column_compared() -> None:
    header = ["Month", "Region", "Units sold", "Revenue (EUR)", "Orders", "Net"]
    scope = ScopeHint(documents=1, table_headers=[header], vocabulary=header)
    reading = read_message("In which months did a region bring in more than 100,000 EUR revenue? Show month, region and revenue.", scope)
    assert [(c.column, c.op, c.value) for c in reading.conditions] == [("Revenue", "gt", "100,000 EUR")]
    assert reading.row_terms == ["months did a region bring in"]  # the rest is still said, and judged by meaning
    # an article or a word that qualifies the amount names no column
    for message in ("Contracts worth more than 100,000 EUR a year: region", "Items that cost more than 20 EUR net: region"):
        assert all(c.column not in ("A", "Net") for c in read_message(message, scope).conditions)


def test_a_french_request_names_its_supplier_after_chez_and_asks_with_donne_moi() -> None:
    header = ["Référence", "Désignation", "Quantité", "Prix unitaire HT"]
    scope = ScopeHint(documents=3, table_headers=[header], vocabulary=header)
    reading = read_message("Quelles lentilles avons-nous achetées chez Optique Delaunay ? Donne-moi la référence, la désignation, "
                           "la quantité et le prix unitaire.", scope)
    assert reading.document_conditions == ["Optique Delaunay"] and "Donne-moi" not in reading.unused


def test_a_comparison_after_of_compares_the_column_the_noun_before_it_names() -> None:
    header = ["Kod", "Towar", "Ilość", "J.m.", "Wartość netto"]
    scope = ScopeHint(documents=1, table_headers=[header], vocabulary=header)
    reading = read_message("Which items were delivered in quantities of at least 100 kg? Kod, Towar, Ilość and Wartość netto.", scope)
    assert [(c.column, c.op, c.value) for c in reading.conditions] == [("Ilość", "ge", "100 kg")]
    assert any("delivered" in term for term in reading.row_terms)  # the rest is left to meaning
    # a noun that names no column of the scope leaves the clause to meaning
    assert not read_message("Which items were sold in batches of at least 100? Kod and Towar.", scope).conditions


def test_a_long_header_shortened_by_its_tail_at_a_lists_end_is_that_header() -> None:
    """"… with market loans and WMA from RBI." over a header "WMA from RBI & FIs": the item is the
    header's first words, not a column "WMA" and documents of RBI."""
    scope = ScopeHint(documents=3, vocabulary=["States", "Market Loans", "WMA from RBI & FIs", "Loans from Banks & FIs"])
    reading = read_message("Give me the states, market loans and WMA from RBI.", scope)
    assert reading.columns == ["States", "Market loans", "WMA from RBI"]
    assert reading.document_conditions == []
    # the first words of two headers name neither of them
    two = ScopeHint(documents=3, vocabulary=["States", "Loans from Banks & FIs", "Loans from Banks (other)"])
    assert read_message("Give me the states and loans from banks.", two).columns == ["States", "Loans"]


RAINFALL = ["S NO", "MET. SUBDIVISION/UT/STATE/DISTRICT", "Day:10-07-2016 ACTUAL (mm)", "Day:10-07-2016 NORMAL (mm)",
            "Day:10-07-2016 %DEP.", "Period:01-06-2016 To 10-07-2016 ACTUAL (mm)", "Period:01-06-2016 To 10-07-2016 % DEP."]


def test_a_header_naming_a_column_in_part_is_found_only_when_one_fits() -> None:
    from tools.engines.columns import partly_named

    header = ["State", "n", "Literacy Status Illiterate", "Literacy Status College"]
    assert partly_named("Sample size n", header, set()) == 1  # its last word is the whole header
    assert partly_named("Sample size n", header, {1}) is None  # a cell another column took
    # a shortened word names the request's ("DEP." departure); the request's other words pick
    # the day's column or the period's
    assert partly_named("Period % departure", RAINFALL, set()) == 6
    assert partly_named("Actual rainfall", RAINFALL, set(), "rainfall for the day 10-07-2016") == 2
    assert partly_named("Actual rainfall", RAINFALL, set(), "rainfall over the whole period") == 5
    assert partly_named("Actual rainfall", RAINFALL, set()) is None  # nothing tells them apart
    savings = ["Cycle Name", "Percent Fuel Savings Improved Speed", "Percent Fuel Savings Eliminate Stops"]
    assert partly_named("Fuel saving", savings, set()) is None
    # the words of the other columns asked for pick no cell: "the overall Total" beside "capital
    # Family Welfare" is the Total, not the "Total Revenue & Capital"
    outlay = ["States-A", "Capital Family Welfare", "Total Revenue & Capital", "Others", "Total"]
    request = "Give me the state, capital Family Welfare and the overall Total."
    assert partly_named("Overall Total", outlay, {0, 1}, request, ["State", "Capital Family Welfare"]) == 4


def test_rows_read_through_a_header_naming_a_column_in_part_are_unsure() -> None:
    table = Table(page=1, header=["State", "n", "Literacy Status Illiterate"], rows=[["Kerala", "2400", "7.2"]])
    document = DocumentText(id=1, collection="stats", path="literacy.pdf", pages=[""], tables=[table])
    scope = ScopeHint(documents=1, vocabulary=table.header, table_headers=[table.header])
    reading = read_message("Give me the state, sample size n and illiterate for every row", scope)
    (record,) = extract_records(document, reading)
    assert list(record.values.values()) == ["Kerala", "2400", "7.2"]
    assert record.match == "unsure" and "read from the column 'n', which names it only in part" in (record.note or "")


def test_for_every_document_of_a_kind_named_with_a_header_the_header_is_no_column() -> None:
    """"for every supplier invoice": the invoices are the documents, "supplier" a word of theirs;
    "for each supplier" alone is the thing each row is about."""
    scope = ScopeHint(documents=6, vocabulary=["Supplier", "Invoice no.", "Date", "Amount"],
                      folders=[FolderCount(folder="Purchasing/Invoices", documents=6)])
    reading = read_message("Give me invoice number, date and total amount for every supplier invoice we received in 2024.", scope)
    assert reading.columns == ["Invoice number", "Date", "Total amount"]
    assert read_message("Give me invoice number and date for each supplier.", scope).columns == ["Supplier", "Invoice number", "Date"]


def test_an_amount_counting_things_of_a_header_compares_that_header() -> None:
    """"had more than 10,000 arrests of American Indian/Alaskan Native people": the arrests of
    those people are counted in their column, not in a column "Arrests" or "Had"."""
    header = ["Offense charged", "Total", "White", "Black", "American Indian/Alaskan Native", "Asian Pacific Islander"]
    scope = ScopeHint(documents=3, vocabulary=header, table_headers=[header])
    for message in ["Which offense categories had more than 10,000 arrests of American Indian/Alaskan Native people? Show the total.",
                    "Total of the offense categories with more than 10,000 arrests of American Indian/Alaskan Native people"]:
        reading = read_message(message, scope)
        assert [(c.column, c.op, c.value) for c in reading.conditions] == [("American Indian/Alaskan Native", "gt", "10,000")]
        assert reading.document_conditions == []


def test_a_noun_without_its_plural_after_of_is_part_of_the_name_though_a_folder_is_named_so() -> None:
    """"número de contrato" over a folder Legal/Contratos: the contract's number, one column; "the
    supplier of contracts" still names the contracts folder."""
    scope = ScopeHint(documents=9, folders=[FolderCount(folder="Legal/Contratos", documents=3),
                                            FolderCount(folder="contracts", documents=4)])
    reading = read_message("Lista los acuerdos con número de contrato, contraparte, fecha de fin y estado.", scope)
    assert reading.columns == ["Número de contrato", "Contraparte", "Fecha de fin", "Estado"] and reading.places == []
    plural = read_message("Give me the date and supplier of contracts", scope)
    assert plural.columns == ["Date", "Supplier"] and [p.value for p in plural.places] == ["contracts"]
