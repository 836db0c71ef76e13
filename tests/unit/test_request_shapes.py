"""Shapes of requests and tables that public documents and their readers showed: a numbered column
printed too close to its neighbour, a compound header, a table named by its caption, a span of
years over a column of years, a list after a colon opened by a verb, the lines a list names, a
header given in brackets, figures given per a column of the scope."""

from __future__ import annotations

from pathlib import Path

from held_out import document

from core.reading import DocumentText, ScopeHint, Table
from tools.engines.columns import map_columns
from tools.engines.offline import extract_records, read_message
from tools.engines.offline.amounts import is_unit
from tools.parsing.pdf.rows import numbered

UNSEEN = Path(__file__).resolve().parents[2] / "evals" / "unseen"
KRAXI = UNSEEN / "public-docs" / "documents" / "mustangproject" / "zugferd_invoice.pdf"


def _hint(*headers: list[str]) -> ScopeHint:
    return ScopeHint(documents=1, table_headers=list(headers), vocabulary=[c for h in headers for c in h if c])


def test_a_column_of_running_numbers_under_two_names_is_two_columns() -> None:
    table = next(t for t in document(KRAXI).tables if "Menge" in t.header)
    assert table.header[:2] == ["Pos.", "Artikelbeschreibung"]
    assert table.rows[1][:3] == ["2", "Turbo Flyer", "5"]
    # numbers that do not count up, or a header of one name, leave the column whole
    kept = Table(page=1, header=["Pos. Artikel", "Menge"], rows=[["1 Drachen", "2"], ["5 Adler", "1"]])
    assert numbered(kept) == kept
    alone = Table(page=1, header=["Address", "Menge"], rows=[["1 Main Street", "2"], ["2 Main Street", "1"]])
    assert numbered(alone) == alone


def test_a_compound_header_joins_the_two_words_the_request_writes() -> None:
    header = ["Pos.", "Artikelbeschreibung", "Menge", "Preis", "Betrag"]
    assert map_columns(["Article description", "Quantity"], header) == {"Article description": 1, "Quantity": 2}
    # a compound whose last part is of another kind names nothing
    assert "Article description" not in map_columns(["Article description"], ["Artikelnummer", "Menge"])


def test_a_table_named_by_its_caption_is_the_one_read() -> None:
    header = ["", "Lack of interest of parents", "Lack of interest of pupils"]
    first = Table(page=1, header=header, rows=[["Foreign language competence", "-0,1337", "-0,1804"]],
                  title=["Table 5", "Correlations between the difficulties and impacts on pupils"])
    second = Table(page=1, header=header, rows=[["Foreign language competence", "-0,0519", "-0,0997"]],
                   title=["Table 6", "Correlations between the difficulties and impacts on teachers"])
    survey = DocumentText(id=1, collection="c", path="survey.pdf", pages=["Table 5\nTable 6"], tables=[first, second])
    reading = read_message("From Table 6 of the survey, give the lack of interest of parents for every impact.", _hint(header))
    assert "Table 6" in reading.document_conditions and "Table" not in reading.unused
    assert [r.values["Lack of interest of parents"] for r in extract_records(survey, reading)] == ["-0,0519"]


def test_a_span_of_years_picks_the_rows_of_a_column_of_years() -> None:
    header = ["Sl. No.", "Year", "Population", "Rate"]
    rows = [[f"{k}.", str(year), str(9000 + k), f"2{k}.0"] for k, year in enumerate(range(2003, 2012), 1)]
    table = Table(page=1, header=header, rows=rows, title=["Rate of deaths during 1967 to 2013"])
    stats = DocumentText(id=1, collection="c", path="stats.pdf", pages=["Rate of deaths during 1967 to 2013"], tables=[table])
    reading = read_message("Population and rate from 2005 through 2007, please.", _hint(header))
    assert reading.document_conditions == ["2005-2007"] and reading.unused == []
    records = extract_records(stats, reading)
    # the years say which row is which: they come first
    assert [list(r.values.values()) for r in records] == [["2005", "9003", "23.0"], ["2006", "9004", "24.0"], ["2007", "9005", "25.0"]]
    # a document printing the span in words names it ("1967 to 2013")
    named = read_message("Population and rate from the 1967-2013 table", _hint(header))
    assert len(extract_records(stats, named)) == len(rows)


def test_the_column_of_a_comparison_stands_before_its_verb() -> None:
    assert not is_unit("was") and is_unit("kg")
    header = ["Year", "Suicides Incidence", "Suicides Rate"]
    reading = read_message("List the years where the suicide rate was 11.0 or higher, with the suicides incidence.", _hint(header))
    assert [(c.column, c.op, c.value) for c in reading.conditions] == [("Suicide rate", "ge", "11.0")]
    assert reading.columns == ["Years", "Suicides incidence"]


def test_a_verb_after_a_colon_opens_the_list_that_a_condition_follows() -> None:
    header = ["", "Preparation", "Production of materials", "Presentation and evaluation"]
    reading = read_message("Table 5 of the survey: show the production of materials and presentation and evaluation "
                           "coefficients, only for impacts where presentation and evaluation is above 0,39.", _hint(header))
    assert reading.columns == ["Production of materials", "Presentation and evaluation"]
    assert reading.subject == "Impacts"
    assert [(c.column, c.op, c.value) for c in reading.conditions] == [("Presentation and evaluation", "gt", "0,39")]


def test_the_lines_a_list_names_are_rows_not_columns() -> None:
    header = ["Description", "Quantity", "Unit Price", "Amount"]
    plain = read_message("Invoice INV-7: give me the lines with quantity, unit price and amount.", _hint(header))
    assert plain.columns == ["Quantity", "Unit price", "Amount"]
    named = read_message("Invoice INV-7: just the Food Products lines, with description, quantity and amount. No subtotal.",
                         _hint(header))
    assert named.columns == ["Description", "Quantity", "Amount"]
    assert named.row_terms == ["Food Products"]
    assert [(c.op, c.value) for c in named.conditions] == [("not", "subtotal")]
    # "line item" is a column's name, not the rows
    item = read_message("Give me the receipts line item and 2013 of every line", _hint(["", "2013"]))
    assert item.columns[0] == "Receipts line item"


def test_a_header_given_in_brackets_and_one_that_shortens_the_kind() -> None:
    header = ["Description", "Quantité", "Prix unitaire", "Rem.", "Prix HT"]
    wanted = ["Quantity", "Unit price", "Discount", "Net amount (Prix HT)"]
    assert map_columns(wanted, header) == {"Quantity": 1, "Unit price": 2, "Discount": 3, "Net amount (Prix HT)": 4}
    # a shortening of a long name of the kind is no name of it ("Pos." is no description)
    assert map_columns(["Item"], ["Pos.", "Art.-Nr.", "Menge"]) == {}


def test_figures_given_per_a_column_of_the_scope() -> None:
    header = ["Region", "Q1 2025", "Change"]
    assert read_message("Give me revenue per region and the change.", _hint(header)).columns == ["Region", "Revenue", "Change"]
    # a rate stays one column
    rate = read_message("Give me the licence, seats and price per seat.", _hint(["Licence", "Seats", "Price"]))
    assert rate.columns == ["Licence", "Seats", "Price per seat"]


def test_a_label_merged_down_the_rows_stands_in_each_of_them() -> None:
    """camelot's row_span_1.pdf: "COHS" and "Partnership Health Plan of CA" are ruled cells
    reaching down over several counties' rows."""
    table = document(UNSEEN / "public-new" / "documents" / "camelot" / "row_span_1.pdf").tables[0]
    rows = {row[1]: row for row in table.rows}
    assert rows["Solano"] == ["COHS", "Solano", "Partnership Health Plan of CA", "113,220"]
    assert table.rows[1][:3] == ["GMC", "Sacramento", "Health Net"]


def test_a_name_of_several_words_goes_on_past_of_and_holds_a_column() -> None:
    header = ["Plan Type", "County", "Plan Name", "Totals"]
    plans = DocumentText(id=1, collection="c", path="enrolment.pdf", pages=["Enrolment by plan"], tables=[Table(
        page=1, header=header, rows=[["COHS", "Marin", "Partnership Health Plan of CA", "36,006"],
                                     ["GMC", "Sacramento", "Health Net", "126,547"]])])
    reading = read_message("Which counties are served by Partnership Health Plan of CA? Show county, plan name and total.",
                           _hint(header))
    assert reading.document_conditions == ["Partnership Health Plan of CA"]
    assert reading.columns == ["County", "Plan name", "Total"]  # "counties" is the County asked for
    assert [r.values["County"] for r in extract_records(plans, reading)] == ["Marin"]


def test_a_percentage_before_a_column_kind_is_its_value() -> None:
    header = ["Menge", "Produkt", "USt.", "Preis", "Gesamtbetrag"]
    invoice = DocumentText(id=1, collection="c", path="rechnung.pdf", pages=["Rechnung"], tables=[Table(
        page=1, header=header, rows=[["1,00", "Gestaltung", "7%", "160,00 €", "160,00 €"],
                                     ["400,00", "Luftballon", "19%", "0,79 €", "316,00 €"]])])
    reading = read_message("List the items charged at 19% VAT with product, quantity and line total.", _hint(header))
    assert [(c.column, c.op, c.value) for c in reading.conditions] == [("VAT", "equals", "19%")]
    assert reading.columns == ["Product", "Quantity", "Line total"]  # "the items charged at" is no column
    assert [r.values["Product"] for r in extract_records(invoice, reading)] == ["Luftballon"]


def test_the_column_of_an_amount_after_in_and_a_price_per_piece() -> None:
    exports = read_message("Which states exported more than 500 in beef? List the state, beef and total exports.",
                           _hint(["state", "beef", "pork", "total exports"]))
    assert [(c.column, c.op, c.value) for c in exports.conditions] == [("Beef", "gt", "500")]
    header = ["Artikel", "Aantal", "Prijs incl. BTW"]
    priced = read_message("From invoice factuurnummer 992288600, which articles cost more than €100 per piece? "
                          "Give me Artikel, Aantal and Prijs incl. BTW.", _hint(header))
    # what the articles cost is the one price asked for, never the quantity "per piece" suggests
    assert [(c.column, c.op, c.value) for c in priced.conditions] == [("Prijs incl. BTW", "gt", "€100")]
    assert "992288600" in priced.document_conditions and "factuurnummer" not in priced.unused


def test_words_that_order_a_list_and_lines_a_sentence_leaves_out() -> None:
    header = ["Désignation", "Nombre", "Montant HT"]
    reading = read_message("Invoice 2022089083: table of the billed lines with Montant HT first, then Désignation and "
                           "Nombre. Leave out Total HT, TVA and Total TTC.", _hint(header))
    assert reading.columns == ["Montant HT", "Désignation", "Nombre"]
    assert [c.value for c in reading.conditions if c.op == "not"] == ["Total HT", "TVA", "Total TTC"]
    put = read_message("Put the Betrag first, then Art, Basisbetrag and Steuer.", _hint(["Art", "Basisbetrag", "Betrag", "Steuer"]))
    assert put.columns == ["Betrag", "Art", "Basisbetrag", "Steuer"] and put.unused == []
    # a tax named after a phrase that opens the sentence is no line left out
    tax = read_message("Excluding VAT, give the description and amount of every line.", _hint(["Description", "Amount"]))
    assert not [c for c in tax.conditions if c.op == "not"]


def test_a_rate_a_cell_opens_with_and_a_document_number_with_slashes() -> None:
    header = ["Pos", "Beschreibung", "Menge", "Steuer", "Entgelt"]
    invoice = DocumentText(id=1, collection="c", path="rechnung.pdf", pages=["Rechnung RE-20170509/505"], tables=[Table(
        page=1, header=header, rows=[["1", "Zitronensäure", "100 Stk", "19 % VAT (S)", "100,00"],
                                     ["2", "Gelierzucker", "50 Stk", "7 % VAT (S)", "72,50"]])])
    hint = ScopeHint(documents=1, table_headers=[header], vocabulary=[*header, "19 % VAT"], folders=[])
    reading = read_message("Rechnung RE-20170509/505: which line items carry 19 % VAT? I need Pos and Beschreibung.", hint)
    # the number after a word for a document is that document's, no folder to look in
    assert reading.places == [] and "RE-20170509/505" in reading.document_conditions
    assert [(c.column, c.value) for c in reading.conditions] == [("VAT", "19%")]
    assert [r.values["Beschreibung"] for r in extract_records(invoice, reading)] == ["Zitronensäure"]


def test_a_heading_set_off_from_the_row_above_heads_the_rows_below() -> None:
    """camelot's eu-002.pdf: "Impacts on participating teachers" stands further from "Self
    competence" above it than from the rows below; it was read as the end of that label."""
    survey = document(UNSEEN / "public-new" / "documents" / "camelot" / "eu-002.pdf")
    table = next(t for t in survey.tables if "Lack of interest of parents" in t.header)
    labels = [row[0] for row in table.rows]
    assert "Self competence" in labels and labels[labels.index("Self competence") + 1] == "Impacts on participating teachers"
    header = table.header
    reading = read_message("From Table 6, I only need the impacts on participating teachers: give the correlation with "
                           "lack of interest of parents.", _hint(header))
    assert reading.columns == ["Lack of interest of parents"]  # "the correlation" is what the values are
    records = extract_records(survey, reading)
    assert [r.values["Lack of interest of parents"] for r in records] == ["-0,1349", "-0,0519", "-0,1302", "-0,1003"]


def test_things_asked_which_of_that_a_listed_column_names_already() -> None:
    header = ["Cost Category", "Less: Exclusions & Unallowables", "Total Costs All Funds"]
    reading = read_message("Which cost categories have exclusions? Show the category, the exclusion amount, then the total costs.",
                           _hint(header))
    assert reading.columns == ["Category", "Exclusion amount", "Total costs"]


def test_a_label_between_dashes_heads_the_rows_below() -> None:
    """invoice2data's AzureInterior.pdf: "--- Food Products ---" between two items, each line as
    far from the next, was read as the end of the item above, and "Subtotal $ 112.00" as the end
    of its amount."""
    invoice = document(UNSEEN / "public-new" / "documents" / "invoice2data" / "AzureInterior.pdf")
    table = next(t for t in invoice.tables if "Quantity" in t.header)
    labels = [row[0] for row in table.rows]
    assert "[FURN_7777] Office Chair" in labels and "--- Food Products ---" in labels
    # the subtotal under the chair's amount is a line of its own, kept in the page's text
    assert table.rows[labels.index("[FURN_7777] Office Chair")][-1] == "$ 70.00"
    assert "Subtotal $ 112.00" in invoice.pages[0]


def test_a_condition_on_how_a_value_starts_picks_those_rows() -> None:
    header = ["Apellido", "Nombre", "Cuit", "Matricula", "Importe"]
    rows = [["OREIRO", "RODOLFO", "23-13655728-9", "13.655.728", "$ 10.000,00"],
            ["MENA", "JUAN", "20-22642061-4", "22.642.061", "$ 5.000,00"],
            ["CASTRO", "MARIA", "23-22642061-4", "22.642.061", "$ 5.000,00"]]
    donors = DocumentText(id=1, collection="c", path="donors.pdf", pages=["Donor list"], tables=[Table(page=1, header=header, rows=rows)])
    reading = read_message("In the donor list, which contributors have a CUIT starting with 23-? "
                           "Give me the CUIT first, then surname, given names and the Matricula number.", _hint(header))
    assert [(c.column, c.op, c.value) for c in reading.conditions] == [("CUIT", "starts", "23-")]
    # the noun a question's "which" opens names the rows asked about: no word is left unread
    assert reading.unused == []
    records = extract_records(donors, reading)
    assert [list(r.values.values()) for r in records] == [["23-13655728-9", "OREIRO", "RODOLFO", "13.655.728"],
                                                          ["23-22642061-4", "CASTRO", "MARIA", "22.642.061"]]
    assert all(r.match == "yes" for r in records)


def test_names_in_brackets_stay_in_their_list_and_a_second_sentence_asks_of_the_rows_picked() -> None:
    header = ["Apellido", "Nombre", "Cuit", "Importe"]
    rows = [["AMBURI", "HUGO", "20-1", "$ 20.000,00"], ["MENA", "JUAN", "20-2", "$ 10.000,00"]]
    donors = DocumentText(id=1, collection="c", path="donors.pdf", pages=["Donantes"], tables=[Table(page=1, header=header, rows=rows)])
    reading = read_message("Could you pull out everyone who contributed more than $10.000,00? For each of them I need "
                           "the surname (Apellido), the given names (Nombre) and the amount (Importe).", _hint(header))
    assert reading.columns == ["Surname (Apellido)", "Given names (Nombre)", "Amount (Importe)"]
    assert reading.unused == []
    records = extract_records(donors, reading)
    assert [list(r.values.values()) for r in records] == [["AMBURI", "HUGO", "$ 20.000,00"]]
    # "contributed" names no column: what they did is worth the sum, the one amount requested
    assert [c.text for c in reading.conditions] == ["Amount (Importe) above $10.000,00 (contributed)"]
    assert records[0].match == "yes"


def test_a_format_names_the_documents_of_that_format_and_a_quoted_title_names_a_table() -> None:
    header = ["Industry", "AI Use Case", "Impact"]
    reading = read_message("Please turn the 'AI Use Cases in Different Industries' table in the Word document into a table.",
                           _hint(header))
    assert [(p.kind, p.value) for p in reading.places] == [("glob", "**/*.doc*")]
    assert reading.document_conditions == ["AI Use Cases in Different Industries"]
    assert reading.columns_from == "tables" and reading.unused == [] and reading.document_kinds == []
    first = Table(page=1, header=header, rows=[["Retail", "Forecasting", "Less waste"]], title=["Pilot projects"])
    second = Table(page=1, header=header, rows=[["Healthcare", "Predictive diagnostics", "Better outcomes"]],
                   title=["Table: AI Use Cases in Different Industries"])
    word = DocumentText(id=1, collection="c", path="uses.docx", pages=["AI Use Cases in Different Industries"],
                        tables=[first, second])
    records = extract_records(word, reading.model_copy(update={"columns": header}))
    assert [r.values["Industry"] for r in records] == ["Healthcare"]


def test_a_list_the_word_columns_opens_and_a_french_comparison() -> None:
    header = ["Product Code", "Category", "Unit Cost", "Notes"]
    reading = read_message("Bonjour, pourriez-vous me lister les articles dont le coût unitaire dépasse 100 $ ? "
                           "J'ai besoin des colonnes Product Code, Category, Unit Cost et Notes. Merci !", _hint(header))
    assert reading.columns == header
    assert [(c.column, c.op, c.value) for c in reading.conditions] == [("Unit Cost", "gt", "100 $")]
    assert reading.unused == []


def test_a_header_with_its_unit_compared_by_name_and_a_description_of_the_table_lists_nothing() -> None:
    header = ["Inhibitor concentration (g)", "bc (V/dec)", "Polarization resistance (Ω)", "Corrosion rate (mm/year)"]
    rows = [["0", "0.0335", "24.0910", "2.8163"], ["4", "0.0163", "42.121", "0.9476"], ["6", "0.3233", "373.180", "0.4318"]]
    paper = DocumentText(id=1, collection="c", path="paper.pdf", pages=["Table 1"],
                         tables=[Table(page=1, header=header, rows=rows, title=["Table 1", "Potentiodynamic polarization data"])])
    reading = read_message("In the potentiodynamic polarization table for stainless steel with egg shell inhibitor (Table 1), "
                           "which inhibitor concentrations give a corrosion rate below 1 mm/year? Show the inhibitor "
                           "concentration, the polarization resistance and the corrosion rate.", _hint(header))
    # "with egg shell inhibitor" describes the table; the list after "Show" is the columns
    assert reading.columns == ["Inhibitor concentration", "Polarization resistance", "Corrosion rate"]
    # the header is named before the comparison; "mm/year" is its unit, not the column
    assert [(c.column, c.op, c.value) for c in reading.conditions] == [("Corrosion rate", "lt", "1 mm/year")]
    assert reading.row_terms == []
    assert [list(r.values.values()) for r in extract_records(paper, reading)] == [["4", "42.121", "0.9476"], ["6", "373.180", "0.4318"]]


MEXICAN_TOWNS = UNSEEN / "public-five" / "documents" / "camelot" / "mexican_towns.pdf"


def test_a_header_centred_over_narrow_columns_heads_them_and_a_name_in_two_columns_picks_rows() -> None:
    """camelot's mexican_towns.pdf: "Clave / Nombre Entidad / Entidad" on three lines, each name
    wider than the codes under it; the header was read as a table of its own and the first row
    of localities as the header."""
    towns = document(MEXICAN_TOWNS, "camelot/mexican_towns.pdf")
    (table,) = [t for t in towns.tables if "Nombre Localidad" in t.header]
    assert table.header == ["Clave Entidad", "Nombre Entidad", "Clave Municipio", "Nombre Municipio",
                            "Clave Localidad", "Nombre Localidad"]
    assert table.rows[0] == ["01", "Aguascalientes", "001", "Aguascalientes", "0094", "Granja Adelita"]
    reading = read_message("Hola, del listado de localidades de Aguascalientes, ¿me puedes sacar la Clave Localidad y el "
                           "Nombre Localidad de todas las localidades cuyo nombre empieza por «Los»? Gracias.",
                           _hint(table.header))
    assert reading.columns == ["Clave Localidad", "Nombre Localidad"] and reading.unused == []
    # "Aguascalientes" is both the state and the municipality: the rows that name it
    records = extract_records(towns, reading)
    assert [r.values["Nombre Localidad"] for r in records][:2] == ["Los Arbolitos [Rancho]", "Los Caños"]
    assert len(records) == 5


def test_lists_labelled_after_a_colon_or_in_quotes_and_a_table_number_in_another_language() -> None:
    header = ["Indicators", "TOTAL", "RURAL"]
    reading = read_message("From the key indicators sheet, give me the indicators: columns Indicators, TOTAL and RURAL.", _hint(header))
    assert reading.columns == header
    quoted = read_message("Dans le tableau 37, pourriez-vous me donner les pays, avec les colonnes « Country » et « Total » ?",
                          _hint(["Country", "Total"]))
    assert quoted.columns == ["Country", "Total"] and quoted.document_conditions == ["tableau 37"]
    survey = DocumentText(id=1, collection="c", path="survey.pdf", pages=["Table 37: replies per country"],
                          tables=[Table(page=1, header=["Country", "Total"], rows=[["France", "435"]])])
    assert [r.values["Total"] for r in extract_records(survey, quoted)] == ["435"]
    # a header with a period inside ends no sentence
    dotted = read_message("I need COMAR#, Source, Serious. Categ. and Fine.",
                          _hint(["COMAR#", "Source", "Serious. Categ.", "Fine"]))
    assert dotted.columns == ["COMAR#", "Source", "Serious. Categ.", "Fine"]


def test_a_name_a_masthead_prints_word_by_word_is_met_and_said() -> None:
    """A CompStat report prints "CompStat    Manhattan South" on its masthead line; "the Manhattan
    South CompStat report" names it, word by word, and its rows say so."""
    header = ["Crime", "1990", "2016"]
    report = DocumentText(id=1, collection="c", path="cs.pdf", pages=["Volume 24   CompStat   Manhattan South\nMurder\t12\t3"],
                          tables=[Table(page=1, header=header, rows=[["Murder", "12", "3"]])])
    reading = read_message("From the Manhattan South CompStat report, give each crime with its 1990 and 2016 counts.", _hint(header))
    assert reading.document_conditions == ["Manhattan South CompStat"]
    (record,) = extract_records(report, reading)
    assert record.match == "unsure" and "names 'Manhattan South CompStat' only word by word" in (record.note or "")
    # words on different lines, or in a row ("WARN Report" over "Southern California Edison" for the
    # California WARN report), name it too, said the same way; a word the text lacks names nothing
    apart = report.model_copy(update={"pages": ["CompStat\nManhattan South\nMurder\t12\t3"]})
    (record,) = extract_records(apart, reading)
    assert record.match == "unsure" and "names 'Manhattan South CompStat' only word by word" in (record.note or "")
    lacking = report.model_copy(update={"pages": ["CompStat\nManhattan\nMurder\t12\t3"]})
    assert extract_records(lacking, reading) == []


def test_a_unit_in_brackets_ends_a_headers_name_and_a_year_or_a_word_does_not() -> None:
    from tools.engines.columns import names_of
    assert "corrosion rate" in names_of("Corrosion rate (mm/year)")
    assert "polarization resistance" in names_of("Polarization resistance (Ω)")
    assert "northing" in names_of("Northing (metres)") and "total" in names_of("Total (n)")
    # a period or a word that sets two headers apart stays in the name
    assert "population" not in names_of("Population (2011)")
    assert "loan from bank" not in names_of("Loans from Banks (other)")


def test_a_list_after_the_last_comma_names_the_columns_of_the_rows_asked_for() -> None:
    header = ["Currency", "Rate", "FY"]
    reading = read_message("Could you list the guidance rates from the group's spreadsheet, currency and rate?", _hint(header))
    assert reading.columns == ["Currency", "Rate"]
    # years after a list's item are its own values, not a list of their own
    years = ["Category", "2011", "2012", "2013"]
    outlays = read_message("List the mandatory programs with their outlays in 2011, 2012 and 2013.", _hint(years))
    assert outlays.columns == ["2011", "2012", "2013"]


def test_a_table_named_by_its_title_leaves_out_the_untitled_ones_and_a_listing_of_is_no_list() -> None:
    header = ["City", "Latitude", "Population"]
    big = Table(page=1, header=header, rows=[["Shanghai, China", "31.23°", "24,256,800"]], title=["Big Cities"])
    small = Table(page=1, header=header, rows=[["Auckland, New Zealand", "-36.84°", "1,454,000"]], title=["Small Cities"])
    pivot = Table(page=2, header=header, rows=[["Shanghai, China", "31.23", "24256800"]])
    cities = DocumentText(id=1, collection="c", path="cities.xlsx", pages=["Big Cities\nSmall Cities"], tables=[big, small, pivot])
    reading = read_message("From the Big Cities table, give me the cities with a population above 20 million, with City, "
                           "Latitude and Population.", _hint(header))
    assert [r.values["Latitude"] for r in extract_records(cities, reading)] == ["31.23°"]
    listing = read_message("From the Commission listing of active licenses (February 2014), which premises have licenses? "
                           "Give license number, type and expiry date.", _hint(["License Number", "Type", "Expires"]))
    assert listing.columns == ["License number", "Type", "Expiry date"]


def test_the_things_a_condition_picks_are_the_first_column_and_a_workbook_is_one_by_its_format() -> None:
    header = ["City", "Latitude", "Population"]
    big = Table(page=1, header=header, rows=[["Shanghai, China", "31.23°", "24,256,800"], ["Delhi, India", "28.67°", "16,788,000"]],
                title=["Big Cities"])
    cities = DocumentText(id=1, collection="c", path="DataTableCities.xlsx", pages=["Big Cities"], tables=[big])
    reading = read_message("From the Big Cities table in the cities workbook, give me the cities with a population above "
                           "20 million, with Latitude and Population.", _hint(header))
    assert reading.columns == ["Cities", "Latitude", "Population"]
    (record,) = extract_records(cities, reading)
    # the workbook need not call itself one: it is a workbook by its format
    assert record.values["Cities"] == "Shanghai, China" and record.match == "yes"
    # "with" opening a list names no rows
    assert read_message("Every merchant with receipt no. and total", _hint(["Merchant", "Receipt no.", "Total"])).columns \
        == ["Receipt no.", "Total"]


def test_a_company_named_with_its_legal_form_and_two_documents_each_called_one() -> None:
    header = ["Product description", "VAT rate", "Line net amount"]
    reading = read_message("I have two e-invoices in the folder, the Bei Spiel GmbH one and the Lieferant GmbH one. For both, "
                           "list every line item at 19% VAT with the product description, the VAT rate and the line net amount.",
                           _hint(header))
    # "Bei" opens the name its legal form ends; each document names one of the two
    assert reading.document_conditions == ["Bei Spiel GmbH or Lieferant GmbH"]


def test_a_document_number_after_its_sign_and_a_supplier_named_in_a_table_of_fields() -> None:
    header = ["Pos", "Beschreibung", "Menge", "Einheit", "Steuersatz", "Nettobetrag"]
    fields = Table(page=1, header=["Verkäufer", ""], rows=[["Name:", "Lieferant GmbH"], ["Anschrift:", "Lieferantenstraße 20"]])
    items = Table(page=2, header=header, rows=[["1", "Kunstrasen", "3", "m²", "19%", "10,00"], ["3", "Mineralwasser", "20", "Stk", "7%", "109,80"]])
    invoice = DocumentText(id=1, collection="c", path="rechnung.pdf", pages=["Rechnung 471102"], tables=[fields, items])
    reading = read_message("Bitte aus der Rechnung Nr. 471102 der Lieferant GmbH alle Positionen mit 7 % Steuersatz auflisten – "
                           "mit Pos, Beschreibung, Menge, Einheit und Nettobetrag. Danke!", _hint(header))
    # "Nr." stands between the kind of document and its number; "alle" ends the supplier's name
    assert reading.document_conditions == ["471102", "Lieferant GmbH"]
    assert [(c.column, c.value) for c in reading.conditions] == [("Steuersatz", "7%")]
    # the supplier stands only in a table of labelled fields, which are the document's own
    assert [r.values["Beschreibung"] for r in extract_records(invoice, reading)] == ["Mineralwasser"]


def test_openers_that_greet_or_ask_of_the_rows_picked() -> None:
    header = ["SKU", "Quantity", "Unit price"]
    each = read_message("Turn the line items into a table, please. For each item I need the SKU, the quantity and the unit price.",
                        _hint(header))
    assert each.columns == ["SKU", "Quantity", "Unit price"] and each.unused == []
    greeted = read_message("Hallo! Bitte die Spalten SKU und Quantity.", _hint(header))
    assert greeted.columns == ["SKU", "Quantity"]


def test_the_askers_need_inside_a_sentence_ends_the_phrase_it_is_read_from_and_courtesy_is_no_column() -> None:
    hint = _hint(["Pollutant", "to air kg/year", "to water kg/year", "to land kg/year"])
    message = ("Hola, de la lista de contaminantes E-PRTR y sus umbrales necesito todas las sustancias cuyo umbral de "
               "emisión al agua sea exactamente 10 kg/año. Indícame la sustancia, el grupo al que pertenece, el umbral "
               "al aire y el umbral al suelo, por favor.")
    reading = read_message(message, hint)
    # neither the phrase of the list the rows come from nor "por favor" is a column
    assert reading.columns == ["Sustancia", "Grupo al que pertenece", "Umbral al aire", "Umbral al suelo"]
    assert "necesito" not in reading.unused and "favor" not in reading.unused
    german = read_message("Aus der Liste der Schadstoffe brauche ich alle Stoffe: Pollutant und to air kg/year, bitte.", hint)
    assert german.columns == ["Pollutant", "To air kg/year"]



def test_an_item_next_to_another_is_one_of_a_list() -> None:
    hint = _hint(["KPI", "Target", "Jan", "Feb", "Mar", "Apr", "May", "Jun"])
    assert read_message("Show the KPI figures next to their targets.", hint).columns == ["KPI", "Targets"]
    assert read_message("Show the KPI alongside the target.", hint).columns == ["KPI", "Target"]


def test_a_name_with_its_year_after_names_the_header_the_year_stands_over() -> None:
    hint = _hint(["Country", "Sample size", "2007 n", "2007 % Pos", "2006 n", "2006 % Pos"])
    reading = read_message("Please give Country, N 2006 and % Pos 2006.", hint)
    # the year is the header's, no date of the documents
    assert reading.columns == ["Country", "N 2006", "% Pos 2006"]
    assert not reading.document_conditions and not reading.unused
    assert map_columns(reading.columns, hint.table_headers[0]) == {"Country": 0, "N 2006": 4, "% Pos 2006": 5}


def test_the_total_line_left_out_in_another_language_than_the_tables() -> None:
    from tools.engines.offline.totals import total_lines

    hint = _hint(["Country", "2006 n", "2006 % Pos"])
    rows = [["Hungary", "202", "2.5"], ["Italy", "241", "0.4"], ["Total (4 MSs)", "820", "0.5"]]  # the lines of the other states left out here
    for message in ("Bitte Land und N 2006 – ohne die Gesamtzeile.", "Bitte Land und N 2006, ohne die Summenzeilen.",
                    "Geef land en N 2006, zonder totaalregels."):
        reading = read_message(message, hint)
        assert [(c.op, c.column) for c in reading.conditions] == [("not", None)], message
        assert total_lines(rows, [1], 3, reading) == {2}, message
    # a subtotal left out is no total of all the items
    assert total_lines(rows, [1], 3, read_message("Bitte Land und N 2006 ohne die Zwischensummen.", hint)) == set()


def test_a_count_compared_under_a_header_in_brackets_after_its_words() -> None:
    hint = _hint(["Country", "Sample size", "2006 n", "2006 % Pos"])
    english = read_message("In the Campylobacter table on fresh beef (Table CA8): which countries had more than 100 "
                           "samples (N) in 2006? Please give Country and N 2006.", hint)
    assert [(c.column, c.op, c.value) for c in english.conditions] == [("N 2006", "gt", "100")]
    assert not english.row_terms and not english.unused
    german = read_message("In der Campylobacter-Tabelle zu frischem Rindfleisch (Tabelle CA8): Welche Länder hatten 2006 "
                          "mehr als 100 untersuchte Proben (N)? Bitte Land, N 2006 und % Pos 2006 – ohne die Gesamtzeile.", hint)
    # the year before the comparison names the header with the bracket's name; "zu" names the table, no condition
    assert [(c.column, c.op, c.value) for c in german.conditions] == [("N 2006", "gt", "100"), (None, "not", "Gesamt")]
    assert german.columns == ["Land", "N 2006", "% Pos 2006"] and not german.row_terms
    assert map_columns(german.columns, hint.table_headers[0]) == {"Land": 0, "N 2006": 2, "% Pos 2006": 3}


def test_a_list_opening_with_per_and_the_rows_label_gives_the_label_first() -> None:
    hint = _hint(["", "", "H1", "H2", "FY"])
    reading = read_message("Pro Währung H1, H2 und FY.", hint)
    assert reading.columns == ["Währung", "H1", "H2", "FY"]
    assert "Pro" not in reading.unused
    # a header that opens with "per" stays whole; "per capita" names no column's kind
    assert read_message("Per unit price and item.", _hint(["Item", "Price", "Per unit price"])).columns == ["Per unit price", "Item"]
    assert read_message("Per capita income and population.", _hint(["Country", "Income", "Population"])).columns == [
        "Per capita income", "Population"]


def test_a_document_naming_itself_with_its_number_in_another_language_is_of_the_kind_asked() -> None:
    from tools.engines.offline.document_terms import kind_notes_missing

    hint = _hint(["Pos", "Beschreibung", "Preis", "Netto"])
    reading = read_message("Could you pull the lines from the Hetzner invoice? I need position, unit price and net amount.", hint)
    assert reading.document_kinds == ["invoice"]
    table = Table(page=1, header=["Pos", "Beschreibung", "Preis", "Netto"], rows=[["1", "EQ4", "41,1765 €", "41,18 €"]])
    text = "Hetzner Online GmbH\nRechnungsdatum: 19.01.2016\nRechnung R0005532486\n"
    numbered = DocumentText(id=1, collection="c", path="corpus/RE-E-974.pdf", pages=[text], tables=[table])
    assert kind_notes_missing(numbered, reading) == []
    (record,) = extract_records(numbered, reading)
    assert list(record.values.values()) == ["1", "41,1765 €", "41,18 €"]
    # an order that only mentions an invoice in its text is no invoice
    mention = DocumentText(id=2, collection="c", path="corpus/order.pdf", pages=["Bestellung 4711\nDie Rechnung folgt."],
                           tables=[table])
    assert kind_notes_missing(mention, reading) == ["invoice"]
    # a reminder whose line says more than the invoice's number, a credit note naming an invoice after itself
    for text in ("Zahlungserinnerung\nRechnung R0005532486 vom 19.01.2016 ist offen.",
                 "Gutschrift G-2016-11\nRechnung Nr. R0005532486"):
        other = DocumentText(id=3, collection="c", path="corpus/other.pdf", pages=[text], tables=[table])
        assert kind_notes_missing(other, reading) == ["invoice"], text


def test_a_list_after_words_saying_it_follows_and_a_spaced_colon_is_the_columns() -> None:
    hint = _hint(["Group", "Characteristic", "Inadequate"])
    message = "Dans le tableau 2, je voudrais les colonnes suivantes : Groupe, Caractéristique, Logements insalubres."
    reading = read_message(message, hint)
    assert reading.columns == ["Groupe", "Caractéristique", "Logements insalubres"]
    assert reading.conditions == [] and reading.unused == []
    german = read_message("Bitte die Spalten folgenden: Gruppe, Merkmal.", hint)
    assert german.columns == ["Gruppe", "Merkmal"] and german.conditions == []


def test_a_name_with_a_unit_in_brackets_after_a_number_stays_one_column() -> None:
    hint = _hint(["Concentration (ppm)", "Day 14", "Day 20"])
    message = "Eine Tabelle mit den Spalten Geschlecht, Relatives Gewicht Tag 14 (%), Relatives Gewicht Tag 20 (%)."
    reading = read_message(message, hint)
    assert reading.columns == ["Geschlecht", "Relatives Gewicht Tag 14 (%)", "Relatives Gewicht Tag 20 (%)"]
    assert reading.unused == []


def test_hyphenated_words_joined_by_a_slash_are_no_folder() -> None:
    from tools.engines.offline.request import written_places

    hint = _hint(["Characteristic", "Unadjusted OR"]).model_copy(update={"folders": []})
    message = "Every characteristic of Table 1. Leave out the sex-by-race/ethnicity breakdown."
    assert [p for p in written_places(message, hint) if p.kind == "folder"] == []
    # a path with more parts, or one ending in a slash, is still a folder
    assert {p.value for p in written_places("Every characteristic in reports/2009/", hint)} == {"reports/2009"}


def test_a_unit_in_brackets_the_scope_prints_alone_stays_with_the_name_before_it() -> None:
    hint = _hint(["Concentration (ppm)", "No.", "Body Weight (g)"]).model_copy(
        update={"vocabulary": ["Concentration (ppm)", "(ppm)", "No.", "Body Weight (g)"]})
    reading = read_message("Eine Tabelle mit den Spalten Geschlecht, Konzentration (ppm), Anzahl Tiere Tag 1.", hint)
    assert reading.columns == ["Geschlecht", "Konzentration (ppm)", "Anzahl Tiere Tag 1"] and reading.unused == []


def test_the_asker_after_a_dash_and_a_table_named_by_its_title_in_plain_words() -> None:
    prtr = document(UNSEEN / "public-eight" / "documents" / "camelot" / "eu-001.pdf")
    hint = ScopeHint(documents=1, table_headers=[t.header for t in prtr.tables],
                     vocabulary=[c for t in prtr.tables for c in t.header if c])
    message = ("E-PRTR pollutants and their thresholds – give me the whole heavy metals table: pollutant, "
               "threshold to air, to water, to land (kg/year).")
    reading = read_message(message, hint)
    assert reading.conditions == [] and "give" not in reading.document_kinds  # no "Me the whole heavy metals is table"
    records = extract_records(prtr, reading)
    assert [r.values["Pollutant"] for r in records][:2] == ["Arsenic and compounds (as As)", "Cadmium and compounds (as Cd)"]
    assert len(records) == 8 and all("picked as 'Heavy metals' by the heading 'Heavy metals'" in r.note for r in records)
    assert all("'heavy'" not in r.note for r in records)  # the words that named the table are not said unused
    # a dash inside a name asks nothing: "Nord - Süd" stays whole
    assert read_message("Umsatz der Region Nord - Süd: Monat und Betrag.", _hint(["Monat", "Betrag"])).columns == ["Monat", "Betrag"]


def test_the_name_of_a_listed_thing_is_its_designation_read_unsure() -> None:
    prices = Table(page=1, header=["Artikelnr", "Bezeichnung", "Warengruppe", "Listenpreis EUR"],
                   rows=[["KT-S150", "Drucktransmitter 0–10 bar", "Sensorik", "134,00"]])
    hint = _hint(prices.header)
    reading = read_message("Which articles cost more than 100 EUR? Article number, name and list price.", hint)
    sheet = DocumentText(id=1, collection="c", path="Preisliste_2024.csv", pages=["x"], tables=[prices])
    (record,) = extract_records(sheet, reading)
    assert list(record.values.values()) == ["KT-S150", "Drucktransmitter 0–10 bar", "134,00"]
    assert record.match == "unsure" and "'Name' is read from the column 'Bezeichnung'" in record.note
    # a table naming a party: a name there is a person's or a company's, no designation
    billed = Table(page=1, header=["Artikelnr", "Kunde", "Bezeichnung", "Listenpreis EUR"],
                   rows=[["KT-S150", "Feldmann Bau", "Drucktransmitter", "134,00"]])
    (other,) = extract_records(DocumentText(id=2, collection="c", path="b.csv", pages=["x"], tables=[billed]), reading)
    assert other.values["Name"] in (None, "") and other.match == "unsure"
    staff = Table(page=1, header=["Employee ID", "Employee", "Description", "Department"],
                  rows=[["E-7", "Lena Vogt", "Warehouse", "Logistics"]])
    read = read_message("Employee ID, name and department.", _hint(staff.header))
    (person,) = extract_records(DocumentText(id=3, collection="c", path="s.csv", pages=["x"], tables=[staff]), read)
    assert person.values["Name"] != "Warehouse"  # a staff table's description is no one's name


def test_what_a_dash_sets_apart_a_footnoted_header_and_a_title_said_in_part() -> None:
    hint = _hint(["Month", "Amount", "Region"])
    for message in ["Monthly sales – please give month and amount.", "Sales - give me month and amount for region Nord."]:
        assert read_message(message, hint).columns == ["Month", "Amount"], message
    # a header with its footnote's bracket ("Einwohner 1)") is still one name
    footnoted = _hint(["Land", "Einwohner 1)", "Fläche"])
    assert read_message("Land, Einwohner 1) und Fläche.", footnoted).columns == ["Land", "Einwohner 1)", "Fläche"]
    # of tables titled "Heavy metals" and "Metals", the whole heavy metals table is the first alone
    from tools.engines.offline.document_terms import titled_as_asked

    heavy = Table(page=1, title=["Heavy metals"], header=["", "to air"], rows=[["Lead", "200"]])
    metals = Table(page=1, title=["Metals"], header=["", "to air"], rows=[["Iron", "50"]])
    gases = Table(page=1, title=["Gases"], header=["", "to air"], rows=[["CO2", "100"]])
    reading = read_message("Give me the whole heavy metals table: pollutant and to air.", _hint(["", "to air"]))
    assert titled_as_asked([heavy, metals, gases], reading) == [heavy]


def test_a_figure_ending_a_sentence_leaves_its_period_to_the_sentence() -> None:
    hint = _hint(["Characteristic", "Unadjusted OR"])
    reading = read_message("Every characteristic whose unadjusted OR is higher than 1.5. Leave out the total row.", hint)
    assert [(c.column, c.op, c.value) for c in reading.conditions][:1] == [("Unadjusted OR", "gt", "1.5")]
    # a date's day and month, and an ordinal before its noun, keep their period
    from tools.engines.offline.tokens import tokenize

    assert [t.text for t in tokenize("bis 2.5. Mai im 3. Quartal")] == ["bis", "2.5.", "Mai", "im", "3.", "Quartal"]
