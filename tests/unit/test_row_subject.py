"""What each row is, when the values asked for are only figures: "which offense categories had
…? Show the total arrests" gives the categories first, read from the table's column of row
labels (other authors' documents: a public statistical table and a held-out contract register)."""

from __future__ import annotations

from held_out import UNSEEN, document, scope

from core.reading import DocumentText, ScopeHint
from tools.engines.offline import extract_records, read_message

ARRESTS = UNSEEN / "public-pdfs" / "documents" / "tabula-java" / "src" / "test" / "resources" / "technology" / "tabula" / "12s0324.pdf"
REGISTER = UNSEEN / "corvane" / "documents" / "Legal" / "Contracts" / "contract_register.xlsx"
CATEGORIES = ("From Table 325, Arrests by Race: 2009, which offense categories{} had more than 10,000 arrests of "
              "American Indian/Alaskan Native people? Show the total arrests and the American Indian/Alaskan Native count.")


def _arrests() -> tuple[DocumentText, ScopeHint]:
    return document(ARRESTS), scope([ARRESTS])


def test_the_things_asked_which_of_are_read_from_the_tables_row_labels() -> None:
    arrests, hint = _arrests()
    reading = read_message(CATEGORIES.format(""), hint)
    assert reading.subject == "Offense categories"
    assert reading.columns == ["Total arrests", "American Indian/Alaskan Native"]  # the subject is no requested column
    records = extract_records(arrests, reading)
    labels = [r.values["Offense categories"] for r in records]
    assert "Property crime" in labels and "Larceny-theft" in labels
    assert all(list(r.values)[0] == "Offense categories" for r in records)  # it comes first
    # the column was chosen by the engine, not named by the user: every row says which it was
    assert all(r.match == "unsure" and "read from the column 'Offense charged'" in (r.note or "") for r in records)
    assert all("which row is which" not in (r.note or "") for r in records)


def test_a_total_line_the_request_leaves_out_is_left_out_above_the_items_too() -> None:
    arrests, hint = _arrests()
    kept = extract_records(arrests, read_message(CATEGORIES.format(""), hint))
    left_out = extract_records(arrests, read_message(CATEGORIES.format(" (not the overall total)"), hint))
    assert "Total" in [r.values["Offense categories"] for r in kept]  # first in the table, no sum of the rows above
    assert [r.values["Offense categories"] for r in left_out] == [r.values["Offense categories"] for r in kept if r.values["Offense categories"] != "Total"]


def test_the_subject_is_a_name_not_a_code() -> None:
    register = document(REGISTER, "Legal/Contracts/contract_register.xlsx")
    reading = read_message("List the active supply agreements with their annual value and notice period.", scope([REGISTER]))
    assert reading.subject == "Active supply agreements"
    records = extract_records(register, reading)
    # the Contract ID column holds codes; the counterparties are what the agreements are called by
    assert [(r.values["Active supply agreements"], r.values["Annual value"]) for r in records] == [
        ("Halvorsen Metals AS", "38,000"), ("Optique Delaunay SARL", "12,000")]


def test_columns_that_say_which_row_is_which_need_no_subject() -> None:
    register = document(REGISTER, "Legal/Contracts/contract_register.xlsx")
    hint = scope([REGISTER])
    # an identifier named: the reading has no subject
    assert read_message("Which agreements end in 2025? Contract ID and annual value.", hint).subject is None
    # a name among the columns: the subject is read but never filled, the counterparty says which
    named = read_message("Which agreements are active? Counterparty and annual value.", hint)
    records = extract_records(register, named)
    assert records and all(set(r.values) == {"Counterparty", "Annual value"} for r in records)


def test_a_header_that_names_the_things_holds_them_codes_and_all() -> None:
    """camelot's foo.pdf: "show the cycles longer than 50 miles with their KI, distance and …"
    over "Cycle Name | KI (1/km) | Distance (mi) | …", whose names are codes ("4234_1")."""
    foo = UNSEEN / "public-pdfs" / "documents" / "camelot" / "tests" / "files" / "foo.pdf"
    reading = read_message("From the simulated fuel savings table (Table 2-1), show the cycles longer than 50 miles with their "
                           "KI, distance and the fuel saving from eliminating stops.", scope([foo]))
    assert reading.subject == "Cycles"  # what the sentence asks for, not the "50 miles" before "with their"
    records = extract_records(document(foo), reading)
    assert [r.values["Cycles"] for r in records] == ["4234_1", "2032_2", "4171_1"]
    assert all("read from the column 'Cycle Name'" in (r.note or "") for r in records)


def _sales(rows: list[list[str]]) -> DocumentText:
    from core.reading import Table
    return DocumentText(id=1, collection="c", path="sales.pdf", pages=[""],
                        tables=[Table(page=1, header=["Area", "Q1 sales", "Q2 sales"], rows=rows)])


def test_total_lines_left_out_are_total_lines_only() -> None:
    rows = [["Grand total", "30", "40"], ["North", "10", "12"], ["Net sales", "15", "20"], ["Tax expense", "5", "8"],
            ["Overall total", "30", "40"]]
    hint = ScopeHint(documents=1, vocabulary=["Area", "Q1 sales", "Q2 sales"])
    left_out = read_message("Which teams are listed (not the overall total)? Show the Q1 sales and Q2 sales.", hint)
    assert [r.values["Teams"] for r in extract_records(_sales(rows), left_out)] == ["North", "Net sales", "Tax expense"]
    # "other totals" asks for them: they are not left out
    other = read_message("Which teams are listed, and other totals too? Show the Q1 sales and Q2 sales.", hint)
    assert {"Grand total", "Overall total"} <= {r.values["Teams"] for r in extract_records(_sales(rows), other)}


def test_rows_shorter_than_the_header_give_an_empty_subject_not_an_error() -> None:
    rows = [["North", "10", "12"], ["South", "8", "9"], ["West", "7", "6"], ["A4", "5"]]
    hint = ScopeHint(documents=1, vocabulary=["Area", "Q1 sales", "Q2 sales"])
    reading = read_message("Which teams are listed? Show the Q1 sales and Q2 sales.", hint)
    records = extract_records(_sales(rows), reading)
    assert [r.values["Teams"] for r in records] == ["North", "South", "West", "A4"]


def test_a_correction_that_names_the_columns_reads_the_subject_with_them() -> None:
    from nodes.questions import merge_correction
    hint = ScopeHint(documents=1, vocabulary=["Area", "Q1 sales", "Q2 sales"])
    first = read_message("Which teams are listed? Show the Q1 sales and Q2 sales.", hint)
    corrected = merge_correction(first, read_message("Columns: Area, Q1 sales", hint))
    assert corrected.columns == ["Area", "Q1 sales"] and corrected.subject is None
    assert read_message("Q1 sales and Q2 sales, which I need by Friday.", hint).subject is None


def test_names_with_ordinals_are_labels_and_codes_are_not() -> None:
    from core.reading import Table
    crops = DocumentText(id=1, collection="c", path="crops.pdf", pages=[""], tables=[Table(
        page=1, header=["Code", "Crop", "Q1 sales", "Q2 sales"],
        rows=[["C-2021-004", "CORN 1ST CROP", "10", "12"], ["C-2021-005", "CORN 2ND CROP", "8", "9"], ["C-2021-006", "TOTAL CORN", "18", "21"]])])
    hint = ScopeHint(documents=1, vocabulary=["Code", "Crop", "Q1 sales", "Q2 sales"])
    reading = read_message("Which teams are listed? Show the Q1 sales and Q2 sales.", hint)
    assert [r.values["Teams"] for r in extract_records(crops, reading)] == ["CORN 1ST CROP", "CORN 2ND CROP", "TOTAL CORN"]
