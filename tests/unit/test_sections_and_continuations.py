"""Shapes of documents and requests that a further set of public documents showed: a sheet of
stacked sections each with its header, a table going on over pages whose first row looks like a
header, a header of years with words beside them, a header cut off after "of", a name whose
words stand apart in the text, and the words that greet, thank or explain rather than ask."""

from __future__ import annotations

from pathlib import Path

from held_out import document, scope

from tools.engines.columns import partly_named
from tools.engines.offline import extract_records, read_message
from tools.parsing import parse_file

UNSEEN = Path(__file__).resolve().parents[2] / "evals" / "unseen"
BUDGET = UNSEEN / "public-eight" / "documents" / "poi" / "simple-monthly-budget.xlsx"
TABULA = UNSEEN / "public-pdfs" / "documents" / "tabula-java" / "src" / "test" / "resources" / "technology" / "tabula"
COMPSTAT = TABULA / "cs-en-us-pbms.pdf"
WARN = UNSEEN / "public-pdfs" / "documents" / "pdfplumber" / "tests" / "pdfs" / "WARN-Report-for-7-1-2015-to-03-25-2016.pdf"


def test_a_sheet_of_stacked_sections_gives_a_table_each_and_the_things_asked_pick_one() -> None:
    tables = parse_file(BUDGET).tables
    titled = {" / ".join(t.title): [r[1] for r in t.rows] for t in tables if "Item" in t.header}
    assert titled == {
        "SIMPLE MONTHLY BUDGET / MONTHLY INCOME": ["Income 1", "Income 2", "Other"],
        "SIMPLE MONTHLY BUDGET / MONTHLY EXPENSES": [
            "Rent/mortgage", "Electric", "Gas", "Cell phone", "Groceries", "Car payment", "Auto expenses",
            "Student loans", "Credit cards", "Auto Insurance", "Personal care", "Entertainment", "Miscellaneous"],
    }
    message = "Quick one: in the Simple Monthly Budget spreadsheet, which monthly expenses are more than $100? Just the item and the amount."
    reading = read_message(message, scope([BUDGET]))
    assert reading.columns == ["Item", "Amount"] and reading.unused == [] and reading.document_kinds == []
    records = extract_records(document(BUDGET), reading)
    # the income above the expenses is no expense; $100.00 is not more than $100
    assert [r.values["Item"] for r in records] == ["Rent/mortgage", "Electric", "Groceries", "Car payment", "Auto expenses"]


def test_a_header_printed_again_lower_down_without_titles_parts_the_tables_and_repeats_nothing() -> None:
    lookup = UNSEEN / "public-five" / "documents" / "poi" / "xlookup.xlsx"
    first, second = [t for t in parse_file(lookup).tables if t.page == 1]
    assert first.title == second.title == [] and [r[1] for r in first.rows] == ["Dianne Pugh"]
    assert [r[1] for r in second.rows][::9] == ["Ned Lanning", "Marguerite Cervantes"] and len(second.rows) == 10


def test_a_line_of_years_with_words_beside_them_heads_the_table_and_the_total_line_is_kept() -> None:
    table = next(t for t in parse_file(COMPSTAT).tables if "Historical Perspective" in t.title)
    assert table.header[1:6] == ["1990", "1993", "1998", "2001", "2016"] and table.header[9] == "%Chg '16 vs '90"
    # "'16 vs '90" shortens the years the request writes out, not "'16 vs '01"
    assert partly_named("% change 2016 vs 1990", table.header, {1, 5}) == 9
    message = ("From the Historical Perspective table of the Manhattan South CompStat report, give each crime with its "
               "1990 and 2016 counts and the % change 2016 vs 1990, including the total line.")
    reading = read_message(message, scope([COMPSTAT]))
    assert reading.columns == ["1990", "2016", "% change 2016 vs 1990"]  # "the total line" names rows, no column
    assert "total" not in reading.unused and "counts" not in reading.unused
    records = extract_records(document(COMPSTAT), reading)
    assert [r.values["Crime"] for r in records][-2:] == ["G.L.A.", "TOTAL"]
    assert records[-1].values["% change 2016 vs 1990"] == "-83.0" and all(r.match == "unsure" for r in records)


def test_a_header_cut_off_after_of_names_the_column_it_opens() -> None:
    header = ["Notice Date", "Company", "City", "No. Of", "Layoff/Closure"]
    assert partly_named("Number of employees", header, {1, 2}) == 3
    assert partly_named("Notice number", header[1:], {0, 1}) is None  # a cell opening another name names nothing


def test_a_table_going_on_whose_first_row_matches_a_name_and_a_name_whose_words_stand_apart() -> None:
    message = ("From the California WARN report (07/01/2015 - 03/25/2016), list every notice affecting 500 or more "
               "employees: company, city, number of employees and layoff/closure type.")
    reading = read_message(message, scope([WARN]))
    assert reading.document_conditions == ["California WARN"]
    records = extract_records(document(WARN), reading)
    # page 2 opens with "Boeing Company", which the Company column's name matches: still a row
    assert [(r.values["Company"], r.values["Number of employees"]) for r in records][:2] == [
        ("Toyota Motor North America", "3000"), ("Associate Management Resources, Inc.", "533")]
    assert len(records) == 10
    # "California" stands only in a row ("Southern California Edison"): every row says so
    assert all(r.match == "unsure" and "names 'California WARN' only word by word" in (r.note or "") for r in records)


def test_words_that_greet_thank_or_explain_are_no_part_of_the_table() -> None:
    hint = scope([BUDGET])
    reading = read_message("Hello! I'm preparing a short note on my budget. Quick one: in the Simple Monthly Budget spreadsheet, "
                           "which monthly expenses are more than $100? Just the item and the amount. Many thanks!", hint)
    assert reading.columns == ["Item", "Amount"] and reading.unused == [] and reading.document_kinds == []
    reading = read_message("Are there any monthly expenses above $1,000 in the Simple Monthly Budget spreadsheet? "
                           "If so, item and amount.", hint)
    assert reading.columns == ["Item", "Amount"] and "so" not in {c.value for c in reading.conditions} | set(reading.unused)
    # a unit per a unit closes its sentence ("kg/año."), though the next opens with an accented capital
    reading = read_message("Necesito las sustancias con un umbral de 10 kg/año. Indícame el item y el amount, por favor.", hint)
    assert reading.places == [] and not any("Indícame" in c for c in reading.columns)
    reading = read_message("Del Simple Monthly Budget, los gastos de 100 o más: item y amount.", hint)
    assert [(c.op, c.value) for c in reading.conditions] == [("ge", "100")]


def test_a_french_request_sets_its_sign_after_the_column_and_its_possessives_before_each() -> None:
    cities = UNSEEN / "public-six" / "documents" / "poi" / "DataTableCities.xlsx"
    message = ("Bonjour, dans le classeur des villes, pourriez-vous me sortir les villes du tableau « Small Cities » situées "
               "dans l'hémisphère sud (latitude négative), avec leur latitude, leur longitude et leur population ?")
    reading = read_message(message, scope([cities]))
    assert reading.columns == ["Latitude", "Longitude", "Population"]
    assert [(c.column, c.op, c.value) for c in reading.conditions] == [("Latitude", "lt", "0")]
    assert "leur" not in reading.unused and "sortir" not in reading.unused
    records = extract_records(document(cities), reading)
    assert [r.values["Latitude"] for r in records] == ["-34.60°", "-36.84°", "-26.20°"]


def test_the_lines_summing_up_under_a_total_line_are_no_items() -> None:
    from core.reading import DocumentText, ScopeHint, Table
    header = ["Last Name", "City", "Date", "Amount"]
    rows = [["Ecolab", "Saint Paul", "9/20/2012", "5,000.00"], ["SPFT", "", "9/28/2012", "15,000.00"],
            ["", "Total", "", "20,000.00"], ["", "Previously Reported", "", "17,605.00"],
            ["", "Total Contribution", "", "37,605.00"]]
    report = DocumentText(id=1, collection="c", path="donors.pdf", pages=["Major contributions"],
                          tables=[Table(page=1, header=header, rows=rows)])
    reading = read_message("List every contribution above $2,000 with the Last Name, the Date and the Amount.",
                           ScopeHint(documents=1, table_headers=[header], vocabulary=header))
    assert [r.values["Last Name"] for r in extract_records(report, reading)] == ["Ecolab", "SPFT"]


def test_a_currency_sign_set_apart_over_right_aligned_amounts_is_one_column_with_them() -> None:
    irs = UNSEEN / "public-six" / "documents" / "camelot" / "us-007.pdf"
    allowance, added = parse_file(irs).tables[:2]
    assert allowance.header == ["Payroll Period", "One Withholding Allowance"]
    assert [r[1] for r in allowance.rows][:2] == ["$ 71.15", "142.31"] and allowance.rows[5] == ["Semiannually", "1,850.00"]
    assert added.header == ["Payroll Period", "Add Additional"] and added.rows[0] == ["Weekly", "$ 40.40"]
    # "a one withholding allowance worth more than $500": the header before "worth" is compared,
    # and a table naming only some of the columns beside one naming all gives no rows
    message = ("In the IRS notice with the 2011 percentage method withholding tables, which payroll periods have a one "
               "withholding allowance worth more than $500? Payroll Period and One Withholding Allowance, please.")
    reading = read_message(message, scope([irs]))
    assert [(c.column, c.op) for c in reading.conditions] == [("One Withholding Allowance", "gt")] and "worth" not in reading.unused
    assert [(r.values["Payroll Period"], r.values["One Withholding Allowance"]) for r in extract_records(document(irs), reading)] == [
        ("Quarterly", "925.00"), ("Semiannually", "1,850.00"), ("Annually", "3,700.00")]


def test_having_what_a_header_closes_with_means_its_cell_holds_a_value() -> None:
    proposal = UNSEEN / "public-more" / "documents" / "camelot" / "us-009.pdf"
    message = ("Which cost categories in the non-profit indirect cost rate proposal have exclusions or unallowables? Show the "
               "category, the exclusion amount, then the total costs for all funds. Skip the total line.")
    reading = read_message(message, scope([proposal]))
    assert ("Exclusions & unallowables", "not", "") in [(c.column, c.op, c.value) for c in reading.conditions]
    records = extract_records(document(proposal), reading)
    assert [r.values["Category"] for r in records] == [
        "Bad Debts", "Subcontracts", "Purchase, Equipment Lease", "Entertainment", "Allowances", "Emergency Assistance",
        "Participant Support Costs"]


def test_with_their_named_figures_says_which_values_the_columns_hold_and_sets_no_condition() -> None:
    bhandara = UNSEEN / "public-five" / "documents" / "camelot" / "missing_values.pdf"
    message = ("From the Bhandara key indicators sheet, give me the hypertension indicators (age 18 years and above) with "
               "their DLHS-4 (2012-13) figures: columns Indicators, TOTAL and RURAL.")
    reading = read_message(message, scope([bhandara]))
    assert reading.columns == ["Indicators", "TOTAL", "RURAL"] and reading.conditions == []
    records = extract_records(document(bhandara), reading)
    assert [(r.values["TOTAL"], r.values["RURAL"]) for r in records] == [("23.8", "22.8"), ("8.2", "7.1"), ("3.7", "3.1")]


def test_two_periods_between_a_comparison_name_the_column_of_the_change_from_one_to_the_other() -> None:
    projections = UNSEEN / "public-eight" / "documents" / "camelot" / "us-018.pdf"
    message = ("Projections of Education Statistics to 2021: which states are projected to grow their number of public high "
               "school graduates by more than 20% between 2008–09 and 2021–22? I need the state, the actual percentage "
               "change 2003–04 to 2008–09 and the projected change 2008–09 to 2021–22.")
    reading = read_message(message, scope([projections]))
    assert [(c.op, c.value) for c in reading.conditions if c.op != "judgement"] == [("gt", "20%")]
    records = extract_records(document(projections), reading)
    assert [r.values["State"] for r in records] == ["Texas", "Colorado", "Nevada", "Utah"]


def test_a_label_between_two_group_labels_names_every_column_between_their_groups() -> None:
    tariff = UNSEEN / "public-new" / "documents" / "camelot" / "good_energy.pdf"
    rates = next(t for t in parse_file(tariff).tables if "Region no." in t.header)
    assert rates.header[2:] == [
        "Standard Unit Rate p/kWh", "Standard Standing Charge p/day", "Economy 7 Unit Rate Day p/kWh",
        "Economy 7 Unit Rate Night p/kWh", "Economy 7 Standing Charge p/day", "Gas Unit Rate p/kWh", "Gas Standing Charge p/day"]


def test_a_header_closing_words_before_of_and_a_rate_after_the_amount() -> None:
    tariff = UNSEEN / "public-new" / "documents" / "camelot" / "good_energy.pdf"
    message = ("Good Energy tariff, paying on receipt of bill: which regions have a Standard electricity standing charge of "
               "more than 80p a day? Give me region, region no. and the standing charge.")
    reading = read_message(message, scope([tariff]))
    # "a day" is the amount's unit, not the column "Unit Rate Day"; "standing charge" closes a header's name
    assert [(c.column, c.op, c.value) for c in reading.conditions] == [("Standing charge", "gt", "80p")]
    records = extract_records(document(tariff), reading)
    standard = [r.values["Region"] for r in records if r.note and "'Standard Standing Charge p/day'" in r.note]
    assert standard == ["North Wales & Merseyside", "North East England", "North Scotland", "Yorkshire"]


def test_a_german_request_names_its_invoice_by_a_compound_and_its_rows_by_another() -> None:
    hint = scope([BUDGET])
    reading = read_message("Kannst du mir aus der QualityHosting-Rechnung Nr. 30064443 vom 7. Mai 2014 alle Rechnungspositionen "
                           "auflisten? Ich brauche Pos., Produkt, den zugehörigen Dienst und den Zeilenbetrag ohne MwSt.", hint)
    assert reading.columns[:2] == ["Pos.", "Produkt"]
    assert reading.document_conditions[:2] == ["QualityHosting", "30064443"]
    assert "Rechnungspositionen" not in reading.document_kinds and "auflisten" not in reading.document_kinds
    assert not any(t.startswith("kannst") for t in reading.row_terms)
    reading = read_message("Welche Ausgaben haben mehr als 100 $? Bitte jeweils Item und Amount.", hint)
    assert reading.columns == ["Item", "Amount"]


def test_a_bracketed_phrase_under_the_last_label_is_part_of_it() -> None:
    irs = UNSEEN / "public-six" / "documents" / "camelot" / "us-007.pdf"
    for table in parse_file(irs).tables[:2]:
        assert table.rows[-1][0] == "Daily or Miscellaneous (each day of the payroll period)"


def test_overall_is_written_all_in_a_header() -> None:
    header = ["# enc-layers", "# dec-layers", "Language", "TEDs simple", "TEDs complex", "TEDs all", "mAP (0.75)"]
    assert partly_named("Overall TEDs score", header, set()) == 5
