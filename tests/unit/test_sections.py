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
