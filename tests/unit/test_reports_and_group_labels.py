"""Shapes of reports and requests that documents nobody on the project wrote showed: a Markdown
report whose total line is set in bold and whose tables are titled by the heading of their
section, a measure named by a table's title over columns of periods, a change asked for
"versus last year", a label printed over a group of columns, and a request that names the rows
in one sentence and their columns in the next."""

from __future__ import annotations

from pathlib import Path

from held_out import document, scope

from tools.engines.columns import match_column
from tools.engines.offline.document_terms import kinds_not_in
from tools.engines.offline import extract_records, read_message
from tools.parsing import parse_file

UNSEEN = Path(__file__).resolve().parents[2] / "evals" / "unseen"
QUARTERLY = UNSEEN / "business" / "documents" / "management" / "reports" / "2025" / "Quarterly_Report_Q1_2025.md"
SUMAS = UNSEEN / "public-three" / "documents" / "camelot" / "20.pdf"


def test_markdown_emphasis_around_a_whole_cell_is_no_part_of_its_text(tmp_path: Path) -> None:
    report = tmp_path / "report.md"
    report.write_text(
        "# Report\n\n## Costs by site\n\nAll figures in EUR.\n\n"
        "| Site | Cost | Note |\n|---|--:|---|\n| Kiel | 1,200 | _none_ |\n| Bonn | 2*3 | a **bold** word |\n"
        "| **Total** | **1,200** | |\n",
        encoding="utf-8",
    )
    (table,) = parse_file(report).tables
    assert table.rows == [["Kiel", "1,200", "none"], ["Bonn", "2*3", "a **bold** word"], ["Total", "1,200", ""]]
    # the heading of the table's section titles it, above the line right over it
    assert table.title == ["Costs by site", "All figures in EUR."]


def test_a_measure_named_by_a_tables_title_is_read_from_the_period_the_request_names() -> None:
    (regions, *_) = parse_file(QUARTERLY).tables
    assert regions.title == ["2. Revenue by region", "All figures in EUR thousand."]
    assert regions.rows[-1][0] == "Total"  # "**Total**" in the file
    # a change asked for beside the period before is the table's Change
    assert match_column("Change versus last year", regions.header) == 3
    assert match_column("Revenue growth compared with the previous quarter", ["Region", "Revenue growth"]) == 1
    message = "From the Q1 2025 management report, give me revenue per region and the change versus last year."
    reading = read_message(message, scope([QUARTERLY]))
    assert reading.columns == ["Region", "Revenue", "Change versus last year"]
    records = extract_records(document(QUARTERLY), reading)
    # the Q1 2025 column, not Q1 2024's; the bold total line is no region
    assert [(r.values["Region"], r.values["Revenue"], r.values["Change versus last year"]) for r in records] == [
        ("DACH", "1,842", "+11.3 %"), ("Nordics", "612", "+22.9 %"), ("France & Benelux", "538", "−4.1 %"),
        ("UK & Ireland", "214", "+12.6 %"), ("North America", "305", "+23.5 %")]
    # the title and the period say which cell holds the revenue; no header names it: unsure, with why
    assert all(r.match == "unsure" and "'Revenue' is read from the column 'Q1 2025'" in (r.note or "") for r in records)


def test_a_sentence_of_names_after_the_rows_asked_for_gives_the_columns_and_a_group_label_a_condition() -> None:
    (table,) = parse_file(SUMAS).tables
    # "GPS Coordinates" over Northing and Easting names both; the site numbers are rows, not the header
    assert table.header == ["Site No.", "Site Description", "GPS Coordinates Northing (metres)",
                            "GPS Coordinates Easting (metres)"]
    assert table.rows[0] == ["7", "Sumas River @ Vye Road", "5429644", "556907"]
    message = ("Using the surface water sampling table for the Sumas River watershed, please list the sites located on "
               "the Sumas River itself (not the creeks, sloughs or the drainage canal) that have GPS coordinates. "
               "Show the site number, site description, northing and easting.")
    reading = read_message(message, scope([SUMAS]))
    assert reading.columns == ["Site number", "Site description", "Northing", "Easting"]
    # "that have GPS coordinates": each column under the label holds a value; no judgement left, and
    # the sentence's period ends the clause
    assert reading.row_terms == []
    assert {c.column for c in reading.conditions if c.op == "not" and c.value == ""} == {
        "GPS Coordinates Northing (metres)", "GPS Coordinates Easting (metres)"}
    records = extract_records(document(SUMAS), reading)
    # 7B has no coordinates ("-"), the creeks, sloughs and the canal are left out
    assert [r.values["Site number"] for r in records] == ["7", "11", "12", "15"]


ABRASIVES = UNSEEN / "public-more" / "documents" / "camelot" / "us-026.pdf"
DEATHS = UNSEEN / "public-new" / "documents" / "camelot" / "column_span_1.pdf"


def test_a_line_of_years_right_of_the_labels_heads_the_table_under_labels_centred_over_them() -> None:
    table = next(t for t in parse_file(ABRASIVES).tables if "Argentina" in [r[0] for r in t.rows])
    # "Fused aluminum oxide" is centred over "2009  2010", not over the wider figures under them
    assert table.header == ["", "Fused aluminum oxide 2009", "Fused aluminum oxide 2010", "Silicon carbide 2009",
                            "Silicon carbide 2010"]
    assert table.rows[0] == ["United States and Canada", "60,400", "60,400", "42,600", "42,600"]


def test_a_column_the_request_shortens_is_the_one_its_condition_names_in_full() -> None:
    message = ("From the accidental deaths & suicides 1967-2013 table, list the years where the suicide rate was 11.0 "
               "or higher, with the number of suicides and the rate.")
    reading = read_message(message, scope([DEATHS]))
    assert reading.columns == ["Years", "Number of suicides", "Rate"]
    records = extract_records(document(DEATHS), reading)
    # "the rate" is the suicide rate the condition names, not the accidental deaths' rate; the
    # number of suicides is then the one suicides column left
    assert [(r.values["Years"], r.values["Number of suicides"], r.values["Rate"]) for r in records] == [
        ("1999", "110587", "11.2"), ("2010", "134599", "11.4"), ("2011", "135585", "11.2"), ("2012", "135445", "11.2"),
        ("2013", "134799", "11.0")]
    assert all(r.match == "unsure" for r in records)


BRIGHTWAVE_SLA = UNSEEN / "business" / "documents" / "ops" / "sla" / "Brightwave_SLA_Managed_Network_v3.docx"
INCIDENTS = UNSEEN / "business" / "documents" / "ops" / "incidents" / "incident_log_2025-H1.csv"


def test_how_fast_asks_for_the_time_to_do_what_its_verbs_say_for_each_of_the_rows_named() -> None:
    message = "Under our SLA with Brightwave, how fast do they have to respond to and fix an incident of each priority?"
    reading = read_message(message, scope([BRIGHTWAVE_SLA]))
    # the times to respond and to fix, for each priority; the question's words are read ("an
    # incident", what the verbs act on, is said as unused where no folder holds incidents)
    assert reading.columns == ["Priority", "Time to respond", "Time to fix"]
    assert not {"how", "fast", "respond", "fix", "each", "priority"} & {w.casefold() for w in reading.unused}
    assert reading.document_conditions == ["Brightwave"]
    records = extract_records(document(BRIGHTWAVE_SLA), reading)
    assert [list(r.values.values()) for r in records] == [
        ["P1 (Critical)", "15 minutes", "4 hours"], ["P2 (High)", "30 minutes", "8 hours"],
        ["P3 (Medium)", "4 business hours", "3 business days"], ["P4 (Low)", "1 business day", "10 business days"]]
    # a name between the question and its verb stops nothing; where no part of the reading holds
    # it, it is said, never dropped
    other = read_message("How long does Nordwerk have to respond to an incident of each priority?", scope([BRIGHTWAVE_SLA]))
    assert other.columns == ["Priority", "Time to respond"] and "Nordwerk" in other.unused
    # an incident log names the priority and, in its Vendor column, Brightwave: no table of the
    # times asked for, so no rows of empty times
    both = read_message(message, scope([BRIGHTWAVE_SLA, INCIDENTS], ["ops/sla", "ops/incidents"]))
    assert both.columns == reading.columns and extract_records(document(INCIDENTS, "ops/incidents/log.csv"), both) == []
    # no verb after the asker's words: nothing is taken for a time
    assert "Time to" not in " ".join(read_message("How quickly?", scope([BRIGHTWAVE_SLA])).columns)


REGISTER = UNSEEN / "solvega" / "documents" / "Legal" / "Contracts" / "Contract_Register_2025.xlsx"


def test_a_folder_named_in_one_language_brings_the_folder_beside_it_named_in_another() -> None:
    folders = ["Legal/Contratos", "Legal/Contratos/Clientes", "Legal/Contracts", "Legal/Contracts/Suppliers", "Compras/Facturas"]
    message = ("Lista los contratos de los que es responsable Lucía Ferrer, con número de contrato, contraparte, "
               "fecha de fin y estado.")
    reading = read_message(message, scope([REGISTER], folders))
    # "contratos": the Spanish folder and the English one beside it, not the invoices
    assert {(p.kind, p.value) for p in reading.places} == {("folder", "Legal/Contratos"), ("folder", "Legal/Contracts")}
    records = extract_records(document(REGISTER, "Legal/Contracts/Contract_Register_2025.xlsx"), reading)
    assert [r.values["Número de contrato"] for r in records] == [
        "CT-2021-003", "CT-2023-002", "CT-2023-015", "CT-2024-016", "CT-2025-005"]
    # a document calling itself a "Factura" is an invoice in a request written in English
    assert kinds_not_in("FACTURA FAC-2025-0311 Levante Fotovoltaica", ["invoice"], translated=True) == []
    assert kinds_not_in("FACTURA FAC-2025-0311 Levante Fotovoltaica", ["invoice"]) == ["invoice"]
    assert kinds_not_in("FACTURA FAC-2025-0311", ["contract"], translated=True) == ["contract"]


TEN = UNSEEN / "public-ten" / "documents"
LILYS = TEN / "pdfplumber" / "issue-140-example.pdf"
COOLBLUE = TEN / "invoice2data" / "coolblue1.pdf"


def test_a_name_every_item_of_a_column_opens_with_is_what_the_listing_lists() -> None:
    message = ("Can you pull every line item from the LILYS chocolate listing for CENTRAL KMA? I need the UPC code, "
               "item description, item quantity, bill amount and accrued amount.")
    reading = read_message(message, scope([LILYS]))
    # "listing for CENTRAL KMA": a noun and whose rows, no column named "For"
    assert all(c.column != "For" for c in reading.conditions)
    assert set(reading.document_conditions) == {"LILYS", "CENTRAL KMA"}
    records = extract_records(document(LILYS), reading)
    assert [r.values["UPC code"] for r in records] == ["0085648100305", "0085648100380", "0085648100303", "0085648100300"]
    assert records[0].values["Accrued amount"] == "$ 388.57"


def test_a_price_per_piece_is_the_unit_price_a_dutch_invoice_prints_per_stuk() -> None:
    message = ("Hello, on Coolblue invoice 993548900, which articles cost more than € 50 per piece? I'd like the "
               "article, the quantity and the price per piece.")
    reading = read_message(message, scope([COOLBLUE]))
    records = extract_records(document(COOLBLUE), reading)
    assert [(r.values["Article"], r.values["Price per piece"]) for r in records] == [
        ("Apple iPad Air Wifi 16 GB Zilver", "€ 399,00"), ("Decoded Leather Slim Cover Apple iPad Air 2 Zwart", "€ 69,99"),
        ("Nintendo 3DS XL Wit + Blauw", "€ 189,00")]


def test_a_quantifier_written_as_a_rows_label_names_the_row_left_out() -> None:
    nhanes = TEN / "camelot" / "us-033.pdf"
    reading = read_message("Give me the age group and the total population, and leave out the All row.", scope([nhanes]))
    # "the All row" is the row labelled All, not every row; no column "Leave out the"
    assert [(c.op, c.value) for c in reading.conditions] == [("not", "All")]
    assert all("leave" not in c.casefold() for c in reading.columns)


CAMPYLOBACTER = TEN / "camelot" / "eu-018.pdf"


def test_years_centred_over_pairs_of_columns_name_their_pair_and_a_table_is_picked_by_its_caption() -> None:
    pig, bovine = parse_file(CAMPYLOBACTER).tables[:2]
    # "Country" set beside "Sample unit | Sample size" under the years is the labels' name; each
    # year names its "n | % Pos", not the neighbours'
    assert pig.header == ["Country", "Sample unit", "Sample size", "2007 n", "2007 % Pos", "2006 n", "2006 % Pos",
                          "2005 n", "2005 % Pos", "2004 n", "2004 % Pos", "2003 n", "2003 % Pos"]
    assert bovine.header == pig.header
    message = ("Could you give me the country, the 2007 N and the 2007 % Pos from Table CA8 on Campylobacter in fresh "
               "bovine meat? Leave out the total row, please.")
    reading = read_message(message, scope([CAMPYLOBACTER]))
    # a request put as a question lists its columns; "2007 % Pos" is a header, no rate of 2007 %;
    # "please" is no row left out
    assert reading.columns == ["Country", "2007 N", "2007 % Pos"]
    assert [(c.op, c.value) for c in reading.conditions] == [("not", "total")]
    records = extract_records(document(CAMPYLOBACTER), reading)
    # Table CA8 (bovine meat) alone, found by the caption "Table CA8."
    assert [r.values["Country"] for r in records] == [
        "Estonia", "Germany", "hungary", "italy", "Luxembourg", "netherlands", "Romania"]
    assert records[3].values["2007 N"] == "334" and records[3].values["2007 % Pos"] == "2.4"


def test_a_column_given_with_its_printed_header_in_brackets_maps_beside_others_in_any_order() -> None:
    from tools.engines.columns import map_columns

    header = ["Désignation", "Prix HT", "TVA"]
    # the bracketed header's column has one tier of candidates, the others more: none is lost
    # and nothing fails whichever column comes first
    assert map_columns(["Description", "Net amount (Prix HT)"], header) == {"Description": 0, "Net amount (Prix HT)": 1}
    assert map_columns(["Net amount (Prix HT)", "Description"], header) == {"Net amount (Prix HT)": 1, "Description": 0}
    # its one cell taken by a column before it: it stays unmapped, where reading the document failed
    assert map_columns(["Prix HT", "Net amount (Prix HT)"], header) == {"Prix HT": 1}


BUDGET_2014 = UNSEEN / "public-pdfs" / "documents" / "camelot" / "tests" / "files" / "budget.pdf"


def test_headings_that_sum_the_numbered_items_under_them_are_no_items() -> None:
    from tools.engines.offline.totals import heading_sums

    message = ("In the Budget 2014-2015 statement, which individual demands (the numbered lines, not the ministry "
               "totals) have plan capital of more than 1000 crore? Show the demand, plan capital, plan total and the page no.")
    reading = read_message(message, scope([BUDGET_2014]))
    records = extract_records(document(BUDGET_2014), reading)
    # the ministries' lines sum the demands under them: no demands; the demands' numbers stand apart
    assert [(r.values["Demand"], r.values["Plan capital"], r.values["Page no"]) for r in records] == [
        ("Atomic Energy", "3427.00", "20-25"), ("Ministry of Civil Aviation", "6540.10", "37-39"),
        ("Department of Telecommunications", "3702.00", "55-58")]
    # two groups at least: one line equal to the sum of the rows under it is no heading
    rows = [["All", "10"], ["a", "4"], ["b", "6"], ["c", "3"]]
    assert heading_sums(rows, [1]) == set()
    assert heading_sums([["A", "5"], ["a", "2"], ["b", "3"], ["B", "4"], ["c", "1"], ["d", "3"]], [1]) == {0, 3}
    # lines each equal to the one under them sum nothing ("1933" over a swimmer born that year)
    assert heading_sums([["x", "1933"], ["y", "1933"], ["z", "1950"], ["w", "1950"]], [1]) == set()
    assert heading_sums([["x", "7"], ["y", "7"], ["z", "5"], ["w", "5"]], [1]) == set()


DEMANDS = UNSEEN / "public-eight" / "documents" / "camelot" / "budget_2014-15.pdf"


def test_a_rows_name_is_its_label_its_number_the_no_column_and_a_header_read_in_the_requests_order() -> None:
    message = ("From the Budget 2014-2015 statement of budget provisions, could you please list every demand whose name "
               "mentions \"Defence Services\"? For each one I'd like the demand number, the demand name, the non-plan "
               "revenue, the non-plan capital and the total plan & non-plan amount.")
    reading = read_message(message, scope([DEMANDS]))
    records = extract_records(document(DEMANDS), reading)
    values = [list(r.values.values()) for r in records]
    # "whose name mentions" checks the labels; "the demand number" is the No. before them; "total
    # plan & non-plan amount" is "Total Plan & Non-Plan", written in that order, not "Non-Plan Total"
    assert [v[0] for v in values] == ["22", "23", "24", "26", "27"]
    assert values[0][1:] == ["Defence Services-Army", "92669.32", "...", "92669.32"]
    assert all(r.match == "unsure" for r in records)
