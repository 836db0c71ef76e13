"""Rows under section lines ("REGION : NORTH WEST INDIA" alone on its line) carry their section as
a value, so a condition on it is checked on every row (camelot's rainfall_distribution.pdf, a
public statistical table)."""

from __future__ import annotations

from held_out import UNSEEN, document, scope

from core.reading import Table
from tools.engines.offline import extract_records, read_message
from tools.engines.offline.sections import sectioned

RAINFALL = UNSEEN / "public-pdfs" / "documents" / "camelot" / "tests" / "files" / "rainfall_distribution.pdf"


def test_each_row_carries_the_section_it_stands_in() -> None:
    table = sectioned(document(RAINFALL).tables[0])
    assert table.header[-1] == "Region"
    regions = {row[1]: row[-1] for row in table.rows}
    # the rows above the first section line stand in the one the title names
    assert regions["ASSAM"] == "EAST AND NORTH EAST INDIA"
    assert regions["PUNJAB"] == "NORTH WEST INDIA" and regions["KERALA"] == "SOUTH PENINSULA"
    assert not any(row[0].startswith("REGION") for row in table.rows)  # the section lines are no rows


def test_a_condition_on_the_section_picks_its_rows() -> None:
    reading = read_message("List the subdivisions in the North West India region with their actual rainfall, normal rainfall "
                           "and % departure for the day 10-07-2016.", scope([RAINFALL]))
    records = extract_records(document(RAINFALL), reading)
    assert [r.values[reading.subject or ""] for r in records] == [
        "UTTAR PRADESH", "UTTARAKHAND", "HARYANA", "CHANDIGARH (UT)", "DELHI (UT)", "PUNJAB", "HIMACHAL PRADESH",
        "JAMMU & KASHMIR", "RAJASTHAN"]
    # the day's figures, each read from a column that names it in part: said, and unsure
    assert records[0].values["% departure"] == "-57%" and all(r.match == "unsure" for r in records)


def test_one_section_line_or_lines_of_several_labels_make_no_sections() -> None:
    one = Table(page=1, header=["Item", "Amount"], rows=[["Note: paid", ""], ["Pens", "4.00"], ["Ink", "9.00"]])
    assert sectioned(one) == one
    mixed = Table(page=1, header=["Item", "Amount"], rows=[["Region: North", ""], ["Pens", "4.00"], ["Note: paid", ""], ["Ink", "9.00"]])
    assert sectioned(mixed) == mixed


BASELINE = UNSEEN / "public-pdfs" / "documents" / "tabula-java" / "src" / "test" / "resources" / "technology" / "tabula" / "rotated_page.pdf"


def test_a_heading_the_request_names_picks_the_rows_under_it() -> None:
    from tools.engines.offline.sections import picked_section

    report = Table(page=1, header=["Indicator", "2012", "2007"], rows=[
        ["Awareness (%)", "", ""], ["Women who heard of HIV", "98.9", "98.3"],
        ["Personal Habits (age 15 and above) (%)", "", ""], ["Men who smoke", "56.0", "NA"], ["Women who smoke", "18.4", "NA"],
        ["Birth Registration (%)", "", ""], ["Children registered", "40.6", "NA"],
    ])
    reading = read_message("Personal habits indicators, 2012 and 2007",
                           scope([]).model_copy(update={"vocabulary": report.header, "table_headers": [report.header]}))
    assert reading.columns == ["Personal habits indicators", "2012", "2007"]
    section = picked_section(report.rows, reading.columns)
    assert section is not None and sorted(section.rows) == [3, 4]
    doc = document(BASELINE).model_copy(update={"tables": [report], "pages": [""], "path": "report.pdf"})
    records = extract_records(doc, reading)
    # the section's items are the labels of the column its heading stands in; said, and unsure
    assert [r.values[reading.columns[0]] for r in records] == ["Men who smoke", "Women who smoke"]
    assert all(r.match == "unsure" and "by the heading 'Personal Habits" in (r.note or "") for r in records)
    # a phrase naming no heading, or a table with one heading, picks nothing
    assert picked_section(report.rows, ["Mortality indicators"]) is None
    assert picked_section(report.rows[:2], ["Awareness indicators"]) is None
    # a column a header names whole picks no section: "State" over a State column keeps every state
    states = Table(page=1, header=["State", "Population"], rows=[
        ["States", ""], ["Kerala", "33.4"], ["Punjab", "27.7"], ["Union Territories", ""], ["Delhi", "16.8"], []])
    reading = read_message("State and population", scope([]).model_copy(update={"vocabulary": states.header}))
    doc = document(BASELINE).model_copy(update={"tables": [states], "pages": [""], "path": "states.pdf"})
    assert {"Kerala", "Punjab", "Delhi"} <= {r.values["State"] for r in extract_records(doc, reading)}
    # thousands of rows of labels alone are read without recursion
    names = [[f"Person {k}", ""] for k in range(3000)]
    assert picked_section([*names, ["Total", "1"]], ["Person"]) is None


def test_a_section_runs_to_the_total_line_that_names_it_over_the_headings_of_its_parts() -> None:
    reading = read_message("In the adjusted baseline table, give each receipts line item (not the total) with its 2013 and 2017 "
                           "values and the 2013–2022 total.", scope([BASELINE]))
    records = extract_records(document(BASELINE), reading)
    items = [r.values[reading.columns[0]] for r in records]
    assert items[0] == "Individual income taxes" and items[-1] == "Other miscellaneous receipts" and len(items) == 11
    # "Social insurance and retirement receipts:" heads two of them: a row of its own, not part of
    # the next label, and no item
    assert "Social Security payroll taxes" in items and not any(i.endswith(":") for i in items)
    assert "Total receipts" not in items and "Net interest" not in items


def test_a_quoted_heading_before_the_things_asked_for_and_the_place_they_are_for() -> None:
    health = UNSEEN / "public-pdfs" / "documents" / "camelot" / "tests" / "files" / "district_health.pdf"
    message = ("Which 'Utilization of Government Health Services' indicators for Chandel had a DLHS-3 (2007-08) total "
               "above 70? Show the DLHS-4 total and the DLHS-3 total.")
    reading = read_message(message, scope([health, RAINFALL]))
    # the quoted name says which indicators, the noun after it what the rows are; the district
    # they are for is what the document must name
    assert reading.subject == "Indicators" and reading.document_conditions == ["Chandel"] and reading.unused == []
    records = extract_records(document(health), reading)
    assert [(r.values["Indicators"], r.values["DLHS-3 total"]) for r in records] == [
        ("Antenatal care", "79.0"), ("Treatment for pregnancy complications", "88.0"), ("Treatment for vaginal discharge", "73.9")]
    # a report about another district gives nothing
    assert extract_records(document(health), read_message(message.replace("Chandel", "Ukhrul"), scope([health]))) == []


CURVES = UNSEEN / "public-pdfs" / "documents" / "pdfplumber" / "tests" / "pdfs" / "table-curves-example.pdf"


def test_the_things_listed_before_how_often_are_the_rows_under_their_heading() -> None:
    """"List the gastrointestinal disorders in the adverse reactions table with how often they
    occur in NVAF patients and in DVT/PE treatment (VTEt)": every row under the heading
    "Gastrointestinal disorders" (not only the one whose label says "gastrointestinal"), each
    with its label, as "Common | Common" says which reaction it is of none."""
    reading = read_message("List the gastrointestinal disorders in the adverse reactions table with how often they occur "
                           "in NVAF patients and in DVT/PE treatment (VTEt).", scope([CURVES]))
    assert reading.subject == "Gastrointestinal disorders" and reading.columns == ["NVAF", "VTEt"]
    records = extract_records(document(CURVES), reading)
    assert [r.values["Gastrointestinal disorders"] for r in records] == [
        "Nausea", "Gastrointestinal haemorrhage", "Haemorrhoidal haemorrhage", "Mouth haemorrhage", "Haematochezia",
        "Rectal haemorrhage, gingival bleeding", "Retroperitoneal haemorrhage"]
    assert (records[0].values["NVAF"], records[0].values["VTEt"]) == ("Common", "Common")
    assert all(r.match == "unsure" for r in records)  # "how often they occur" and "DVT/PE" are no part of a column
