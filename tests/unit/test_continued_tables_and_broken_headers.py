"""Headers printed the way statistical appendices print them: names set flush right and
wrapped over four lines, a table continued on the next page under a header of its own, names
broken after a range's dash ("$10,000–" over "14,999") and set close together."""

from __future__ import annotations

from pathlib import Path

from held_out import document, scope

from tools.engines.offline import extract_records, read_message
from tools.parsing import parse_file

ELEVEN = Path(__file__).resolve().parents[2] / "evals" / "unseen" / "public-eleven" / "documents"
PIRLS = ELEVEN / "tabula-java" / "us-020.pdf"
BORROWING = ELEVEN / "camelot" / "us-002.pdf"


def _on(path: Path, page: int):
    return [t for t in parse_file(path).tables if t.page == page]


def test_names_wrapped_flush_right_name_their_own_column_on_a_page_and_its_continuation() -> None:
    names = ["Schools in original sample", "Eligible schools in original sample",
             "Schools in original sample that participated", "Substitute schools",
             "Total schools that participated", "Sampled students in participating schools", "Students assessed"]
    (first,) = _on(PIRLS, 4)
    assert first.header == ["Education system", *names]
    # the label and the first figure were one cell ("Australia 290") under the layout of the
    # table before it, which has a column fewer
    assert first.rows[0] == ["Australia", "290", "284", "275", "5", "280", "6,709", "6,126"]
    # the continued page prints its own header: it heads the rows, not the first row
    (continued,) = _on(PIRLS, 5)
    assert continued.header == ["Benchmarking education systems", *names]
    assert continued.rows[0][:2] == ["Alberta-CAN", "150"]


def test_a_request_naming_two_columns_joined_by_and_reads_both_over_a_table_and_its_continuation() -> None:
    message = ("In Table A-2 of the PIRLS 2011 appendix, which education systems had more than 6,000 students "
               "assessed? Include the benchmarking systems from the continued part too. Give me Education system, "
               "Total schools that participated and Students assessed.")
    reading = read_message(message, scope([PIRLS]))
    label, *figures = reading.columns
    assert label.startswith("Education system") and figures == ["Total schools that participated", "Students assessed"]
    records = extract_records(document(PIRLS), reading)
    got = {tuple(r.values[c] for c in reading.columns) for r in records}
    assert ("Australia", "280", "6,126") in got and ("Canada", "1,111", "23,206") in got
    assert ("Ontario-CAN", "189", "4,561") not in got and ("Austria", "158", "4,670") not in got
    assert all(int(r.values["Students assessed"].replace(",", "")) > 6000 for r in records)


def test_a_name_broken_after_a_ranges_dash_goes_on_in_the_line_below() -> None:
    (table, *_) = _on(BORROWING, 1)
    assert table.header[:3] == ["Student and institutional characteristics", "Percent who borrowed", "Average amount"]
    assert [h.split()[-2:] for h in table.header[3:]] == [
        ["than", "$10,000"], ["$10,000–", "14,999"], ["$15,000–", "29,999"], ["$30,000–", "54,999"], ["or", "more"]]
    assert table.rows[0][:3] == ["Total", "44.8", "$33,200"]


def test_the_rows_under_a_quoted_heading_are_that_sections_rows() -> None:
    message = ("From table 4 in the student borrowing report, list the rows under 'Undergraduate major' with the "
               "percent who borrowed and the average amount. Leave out the 'Other' row.")
    reading = read_message(message, scope([BORROWING]))
    # a heading, not a bound: "under" compares nothing here
    assert not any(c.op in ("lt", "le") for c in reading.conditions)
    assert "Undergraduate major" in reading.row_terms
    records = extract_records(document(BORROWING), reading)
    assert [[v for v in r.values.values()] for r in records] == [
        ["Business and management", "34.3", "28,700"], ["Education", "34.3", "23,000"],
        ["Engineering, mathematics, or science", "47.1", "47,400"], ["Humanities or social sciences", "52.8", "32,800"]]
    assert all("by the heading 'Undergraduate major'" in (r.note or "") for r in records)


def test_and_inside_a_label_over_groups_of_columns_joins_one_name(tmp_path: Path) -> None:
    rates = tmp_path / "rates.csv"
    rates.write_text(
        "Loan Type,Principal and Interest rates p.a. Annual rate,Principal and Interest rates p.a. Comparison rate,"
        "Interest Only rates p.a. Annual rate,Interest Only rates p.a. Comparison rate\n"
        "Standard Variable,5.37%,5.51%,5.92%,5.73%\n1 Year Fixed,4.04%,5.38%,4.69%,5.45%\n", encoding="utf-8")
    reading = read_message("List each loan type with its principal and interest annual rate and its interest only "
                           "annual rate.", scope([rates]))
    assert reading.columns[-2:] == ["Principal and interest annual rate", "Interest only annual rate"]


OFFENSES = Path(__file__).resolve().parents[2] / "evals" / "unseen" / "public-five" / "documents" / "tabula-java" / "offense.pdf"


def test_a_header_printed_over_a_ruled_grid_of_rows_heads_them() -> None:
    (table, *_) = parse_file(OFFENSES).tables
    assert table.header == ["COMAR#", "Offense Literal", "CJIS Code", "Source", "Felony or Misd.", "Max Term",
                            "Min Term", "Offense Type", "Serious. Categ.", "Fine"]
    # the first offence is a row, not the header
    assert table.rows[0][:3] == ["1", "Abuse and Other Offensive Conduct Child Abuse—physical, with death", "1-1639"]
    # the header's words are no line of text of their own beside the table
    assert not any("Offense Literal" in t.header for t in parse_file(OFFENSES).tables[1:])


def test_a_value_with_its_unit_before_a_capital_ends_its_sentence() -> None:
    message = ("In the Guidelines Offense Table, list the misdemeanours (Misd.) with a Max Term of 5Y. "
               "I need COMAR#, Source, Serious. Categ. and Fine.")
    reading = read_message(message, scope([OFFENSES]))
    assert reading.columns == ["COMAR#", "Source", "Serious. Categ.", "Fine"]
    assert not any(c.column == "5Y." for c in reading.conditions)
