"""Rows a request leaves out, and values it turns down in a named column, on public documents
(camelot's test files) with requests written from the documents alone: "Leave out the overall
total and the violent crime / property crime subtotal lines", "something other than 'Hj' in the
Hgfdhgjsdhjdsf column"."""

from __future__ import annotations

from pathlib import Path

from held_out import document, scope

from core.reading import DocumentText, ScopeHint, Table
from tools.engines.offline import extract_records, read_message

CAMELOT = Path(__file__).resolve().parents[2] / "evals" / "public" / "camelot" / "documents"
ARRESTS = CAMELOT / "12s0324.pdf"
ASIAN_ARRESTS = ("Looking at the 2009 arrests by race table, which individual offenses had more than 5,000 arrests of "
                 "Asian/Pacific Islander people? Leave out the overall total and the violent crime / property crime "
                 "subtotal lines. Give the offense, total arrests, White arrests and Asian Pacific Islander arrests.")


def test_a_sentence_that_leaves_rows_out_turns_its_words_down() -> None:
    reading = read_message(ASIAN_ARRESTS, scope([ARRESTS]))
    # the list after "Give" is the columns, though the sentence before it ends the request's question
    assert reading.columns == ["Offense", "Total arrests", "White arrests", "Asian Pacific Islander arrests"]
    left_out = [c.value for c in reading.conditions if c.column is None and c.op == "not"]
    assert left_out == ["total", "violent crime", "property crime"]
    assert reading.unused == []  # "Leave out", "overall", "subtotal lines": each word is read
    records = extract_records(document(ARRESTS), reading)
    assert [r.values["Offense"] for r in records] == [
        "Larceny-theft", "Other assaults", "Drug abuse violations", "Driving under the influence", "Liquor laws",
        "All other offenses (except traffic)"]
    assert records[0].values["Asian Pacific Islander arrests"] == "15,219"


def _crops() -> DocumentText:
    return DocumentText(id=1, collection="c", path="crops.pdf", pages=[""], tables=[Table(
        page=1, header=["PRODUCTS", "11/12", "12/13"],
        rows=[["COTTON", "1.393,4", "894,9"], ["TOTAL BEANS", "3.262,1", "3.026,9"], ["SUBTOTAL", "9.000,0", "8.000,0"],
              ["BRAZIL", "50.885,0", "52.919,6"], ["RYE", "2,0", "2,0"]])])


def test_the_total_named_is_left_out_and_other_totals_stay() -> None:
    hint = ScopeHint(documents=1, vocabulary=["PRODUCTS", "11/12", "12/13"])
    reading = read_message("Give the products with their 11/12 and 12/13 area. Leave out the SUBTOTAL and BRAZIL lines.", hint)
    assert [r.values["Products"] for r in extract_records(_crops(), reading)] == ["COTTON", "TOTAL BEANS", "RYE"]


def test_what_leaves_no_rows_out_is_read_as_before() -> None:
    hint = ScopeHint(documents=1, vocabulary=["PRODUCTS", "11/12", "12/13", "Discount"])
    # a column left out, and a condition on a column's value, are no rows
    for message in ("Give the products and their 11/12 area, leaving out the 12/13 column.",
                    "Which products were sold without discount? Give the products and their 11/12 area."):
        reading = read_message(message, hint)
        assert not [c for c in reading.conditions if c.column is None and c.op == "not"], message
    # "not" inside a clause turns down no rows
    reading = read_message("Which products did not grow? Give the products and their 11/12 area.", hint)
    assert not [c for c in reading.conditions if c.column is None and c.op == "not"]


def test_a_value_turned_down_in_a_named_column() -> None:
    tables = CAMELOT / "multiple_tables.pdf"
    hint, doc = scope([tables]), document(tables)
    message = ('In the first (four-column) table of this document, which rows have something other than "Hj" in the '
               "Hgfdhgjsdhjdsf column? Give the Ghfhbdhj and Hgfdhgjsdhjdsf values for those rows.")
    reading = read_message(message, hint)
    assert [(c.column, c.op, c.value) for c in reading.conditions] == [("Hgfdhgjsdhjdsf", "not", "Hj")]
    records = extract_records(doc, reading)
    assert records and all(r.values["Hgfdhgjsdhjdsf"] != "Hj" for r in records)
    equal = read_message('Which rows have "Hj" in the Hgfdhgjsdhjdsf column? Give the Ghfhbdhj and Hgfdhgjsdhjdsf values.', hint)
    assert [(c.column, c.op, c.value) for c in equal.conditions] == [("Hgfdhgjsdhjdsf", "equals", "Hj")]
    kept = extract_records(doc, equal)
    assert kept and all(r.values["Hgfdhgjsdhjdsf"] == "Hj" for r in kept)
    # the same turned down after the column's name
    other = read_message('Which rows have a Hgfdhgjsdhjdsf other than "Hj"? Give the Ghfhbdhj and Hgfdhgjsdhjdsf values.', hint)
    assert [(c.column, c.op, c.value) for c in other.conditions] == [("Hgfdhgjsdhjdsf", "not", "Hj")]


def test_a_comparison_after_its_noun_and_a_rate_as_a_unit() -> None:
    bird = CAMELOT / "birdisland.pdf"
    reading = read_message("In the Bird Island 2012 soybean harvest report, which entries have a maturity rating of 2.0 "
                           "or higher? Give the company/brand, the product, the yield in bushels per acre and the gross income.",
                           scope([bird]))
    # the noun after "have a" is compared, not the question before it
    assert [(c.column, c.op, c.value) for c in reading.conditions] == [("Maturity rating", "ge", "2.0")]
    # "in bushels per acre" is the yield's unit: the list goes on to the gross income
    assert reading.columns == ["Company/brand", "Product", "Yield in bushels per acre", "Gross income"]
    records = extract_records(document(bird), reading)
    first = records[0].values
    assert (first["Yield in bushels per acre"], first["Gross income"]) == ("53.6", "$804")
    # the maturity rating is checked on "Mat.", the one cell that names it in part, and each row says so
    assert [r.values["Product"] for r in records] == ["C2050R2", "20M1", "K2-2002", "H20R3", "20RR43", "PB-2099NRR2"]
    assert all(r.match == "unsure" and "checked on the column 'Mat.'" in (r.note or "") for r in records)


def test_a_value_that_is_missing_in_a_column_named_in_part() -> None:
    assam = Path(__file__).resolve().parents[2] / "evals" / "unseen" / "public-pdfs" / "documents" / "camelot" / "tests" / "files" / "assam.pdf"
    reading = read_message("In the Assam schooling status table (children aged 6-17 attending school), which districts have no "
                           "urban figure (shown as a dash)? Give the district with the person total and person rural percentages.",
                           scope([assam]))
    # "the … table" names a table, never a column "Table"; "no urban figure" asks for an empty cell
    assert [(c.column, c.op, c.value) for c in reading.conditions] == [("Urban", "equals", "")]
    records = extract_records(document(assam), reading)
    # three headers end in "Urban"; the request's "person" says which one
    assert [r.values["Districts"] for r in records] == ["Darrang", "Hailakandi", "Karimganj", "Kokrajhar", "Lakhimpur", "Nalbari"]
    assert all("Person Urban', which names it only in part" in (r.note or "") for r in records)


def test_a_comparison_names_its_column_after_the_amount() -> None:
    # a header under a group, by its closing word: "55% illiterate" over "Literacy Status Illiterate"
    women = CAMELOT / "twotables_2.pdf"
    reading = read_message("Looking only at the literacy table for adult women (Table 7), which states have more than 55% "
                           "illiterate? Show the state, the illiterate percentage and the college percentage.", scope([women]))
    assert [(c.column, c.op, c.value) for c in reading.conditions] == [("Illiterate", "gt", "55%")]
    # a verb before the comparison names no column: the words after the amount do
    foo = CAMELOT / "foo.pdf"
    reading = read_message("Which drive cycles show more than 5% fuel savings from eliminating stops? Give the cycle name, "
                           "its KI, the distance in miles and the eliminate-stops saving.", scope([foo]))
    assert [(c.column, c.op, c.value) for c in reading.conditions] == [("Fuel savings from eliminating stops", "gt", "5%")]
    records = extract_records(document(foo), reading)
    assert [r.values["Cycle name"] for r in records] == ["2012_2", "2145_1", "4234_1"]
    assert all("Eliminate Stops', which names it only in part" in (r.note or "") for r in records)


def test_a_header_in_brackets_and_a_figure_joined_to_an_abbreviated_header() -> None:
    """tabula-py's data.pdf (the mtcars table): "cyl", "hp", "qsec" as headers."""
    cars = Path(__file__).resolve().parents[2] / "evals" / "public" / "tabula-py" / "documents" / "data.pdf"
    reading = read_message("From the car data table, which 8-cylinder cars have more than 200 hp and a quarter-mile time (qsec) "
                           "under 17 seconds? Give the car, hp, qsec and mpg.", scope([cars]))
    # "8-cylinder": the figure joined to a word "cyl" abbreviates; "(qsec)": the header the words before it mean
    assert [(c.column, c.op, c.value) for c in reading.conditions] == [
        ("Cylinder", "equals", "8"), ("Hp", "gt", "200 hp"), ("Qsec", "lt", "17 seconds")]
    assert reading.unused == []
    records = extract_records(document(cars), reading)
    assert [r.values["Car"] for r in records] == ["Duster 360", "Camaro Z28", "Ford Pantera L", "Maserati Bora"]


def test_a_figure_before_a_name_is_no_value_in_a_column() -> None:
    hint = ScopeHint(documents=1, vocabulary=["Product", "Amounts", "Status"])
    reading = read_message("Which products have amounts above 500 for Product A? Give the product.", hint)
    assert ("Product", "equals", "500") not in [(c.column, c.op, c.value) for c in reading.conditions]
    assert ("Amounts", "gt", "500") in [(c.column, c.op, c.value) for c in reading.conditions]


def test_a_year_no_document_names_is_the_year_of_its_one_date_column() -> None:
    """docling's csv-comma.csv, a customer list that names no year outside its rows."""
    customers = Path(__file__).resolve().parents[2] / "evals" / "public" / "docling" / "documents" / "csv-comma.csv"
    reading = read_message("Which of our customers signed up during 2021? List their first and last name, company, country "
                           "and the subscription date.", scope([customers]))
    assert reading.document_conditions == ["2021"]
    records = extract_records(document(customers), reading)
    assert [(r.values["Last name"], r.values["Subscription date"]) for r in records] == [
        ("Lozano, Dr", "2021-04-23"), ("Bender", "2021-04-17")]
