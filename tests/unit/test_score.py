"""The scorer counts a row as found when the document and every true value agree."""

from __future__ import annotations

from decimal import Decimal

import pytest

from corpora.first import cases
from evals.score import Told, markdown_table, parse_value, score_case, summarise, values_equal

INVOICE = "invoices/2025/nordwerk-2025-01.pdf"
OTHER = "invoices/2025/nordwerk-2025-03.pdf"


def _case(rows, status="done", documents=None, columns=("Description", "Quantity", "Unit price")):
    return {
        "id": "sample",
        "message": "Every position with description, quantity and unit price",
        "tags": ["explicit"],
        "status": status,
        "columns": list(columns),
        "calculations": False,
        "documents_with_rows": sorted(documents if documents is not None else {f for f, _ in rows}),
        "rows": [{"file": f, "values": dict(zip(columns, v))} for f, v in rows],
    }


def _rows(rows, columns=("Description", "Quantity", "Unit price")):
    return [{"file": f, "values": dict(zip(columns, v))} for f, v in rows]


TRUE = [
    (INVOICE, ["SSD 1 TB NVMe", "10", "114,50"]),
    (INVOICE, ["Rackschrank 42 HE", "1", "1.275,00"]),
    (OTHER, ["Monitor 27 Zoll WQHD", "8", "281,00"]),
]


# --------------------------------------------------------------------------------------------
# Values


@pytest.mark.parametrize(
    "truth, predicted",
    [
        ("1.249,00", "1,249.00"),
        ("1.249,00", "1249"),
        ("1.249,00", "1249.0"),
        ("1,249.50", "1249.5"),
        ("1 249,00", "1249"),
        ("12.50", "12.5"),
        ("2", "2.00"),
        ("EUR 500,000", "500.000 EUR"),
        ("EUR 500,000", "€500000"),
        ("250.000 EUR", "EUR 250,000"),
        ("1.249,00", "1.249,00 EUR"),  # a unit the truth does not write is tolerated
        ("6 721,47", "6 721,47 PLN"),
        ("6 721,47 zł", "PLN 6,721.47"),
        ("58,650,000", "58.650.000"),
        ("00731", "00731"),
        ("  Patchkabel  Cat6 1 m ", "patchkabel cat6 1 m"),
        ("P1", "p1"),
        ("", None),
    ],
)
def test_equal_values(truth, predicted):
    assert values_equal(truth, predicted)


@pytest.mark.parametrize(
    "truth, predicted",
    [
        ("1.249,00", "1.239,00"),
        ("EUR 500,000", "GBP 500,000"),
        ("EUR 500,000", "500,000"),  # the currency is part of the cap
        ("00731", "731"),  # leading zeros are part of a code
        ("2", "20"),
        ("4 hours", "4"),
        ("T-0001", "T-0010"),
        ("SSD 1 TB", None),
        ("0.500", "500"),  # a leading zero is never a thousands group
    ],
)
def test_different_values(truth, predicted):
    assert not values_equal(truth, predicted)


def test_parsed_numbers_and_currencies():
    assert parse_value("1.249,00").numbers == {Decimal(1249)}
    assert parse_value("250.000").numbers == {Decimal(250000), Decimal(250)}  # both readings
    assert parse_value("GBP 750,000").currency == "GBP"
    assert parse_value("250.000 EUR").currency == "EUR"
    assert parse_value("00731").numbers is None
    assert parse_value("Cat6 patch cable 2 m").numbers is None


# --------------------------------------------------------------------------------------------
# Cases


def test_perfect_answer():
    result = score_case(_case(TRUE), _rows(TRUE), ["Description", "Quantity", "Unit price"], "done")
    assert result["status_ok"] and result["matched"] == 3
    assert result["recall"] == result["precision"] == result["document_completeness"] == 1.0
    assert result["rows_from_wrong_documents"] == 0
    assert result["missed"] == [] and result["extra"] == [] and result["missing_columns"] == []


def test_other_notation_and_column_spelling_still_match():
    predicted = [
        {
            "file": "./" + INVOICE,
            "values": {"description": "ssd 1 tb nvme", "QUANTITY": "10.0", " unit  price ": "EUR 114.50"},
        },
        {
            "file": "/data/kb/" + INVOICE,
            "values": {"Description": "Rackschrank 42 HE", "Quantity": 1, "Unit price": "1,275.00"},
        },
    ]
    result = score_case(_case(TRUE), predicted, ["description", "QUANTITY", " unit  price "], "done")
    assert result["matched"] == 2
    assert result["recall"] == pytest.approx(2 / 3) and result["precision"] == 1.0
    assert result["document_completeness"] == 0.5
    assert result["missed"] == _rows(TRUE[2:])


def test_a_duplicated_row_counts_once():
    predicted = _rows(TRUE) + _rows(TRUE[:1])
    result = score_case(_case(TRUE), predicted, ["Description", "Quantity", "Unit price"], "done")
    assert result["matched"] == 3 and result["predicted_rows"] == 4
    assert result["precision"] == 0.75 and result["recall"] == 1.0
    assert result["extra"] == _rows(TRUE[:1])


def test_a_row_from_another_document_does_not_match():
    moved = [(OTHER, TRUE[0][1])]
    result = score_case(_case(TRUE), _rows(moved), ["Description", "Quantity", "Unit price"], "done")
    assert result["matched"] == 0 and result["rows_from_wrong_documents"] == 0


def test_rows_from_wrong_documents_are_counted():
    tessel = "invoices/2025/tessel-2025-02.pdf"
    predicted = _rows(TRUE) + _rows([(tessel, ["Nordwerk USB-C dock (resold)", "5", "253.00"])] * 2)
    result = score_case(_case(TRUE), predicted, ["Description", "Quantity", "Unit price"], "done")
    assert result["matched"] == 3 and result["rows_from_wrong_documents"] == 2
    assert result["precision"] == pytest.approx(3 / 5)


def test_one_wrong_value_loses_the_row():
    wrong = [(INVOICE, ["SSD 1 TB NVMe", "10", "114,00"])]
    result = score_case(_case(TRUE[:1]), _rows(wrong), ["Description", "Quantity", "Unit price"], "done")
    assert result["matched"] == 0 and result["recall"] == 0.0 and result["precision"] == 0.0
    assert result["document_completeness"] == 0.0


def test_a_missing_column_loses_every_row():
    predicted = [{"file": f, "values": {"Description": v[0], "Quantity": v[1]}} for f, v in TRUE]
    result = score_case(_case(TRUE), predicted, ["Description", "Quantity"], "done")
    assert result["matched"] == 0 and result["missing_columns"] == ["Unit price"]


def test_matching_is_one_to_one_and_maximal():
    # "1,500" reads as 1500 or 1.5; a greedy pass would give the first predicted row to it
    # and leave "1.5" without a partner.
    columns = ("Amount",)
    true = [(INVOICE, ["1,500"]), (INVOICE, ["1.5"])]
    predicted = _rows([(INVOICE, ["1.5"]), (INVOICE, ["1500"])], columns)
    result = score_case(_case(true, columns=columns), predicted, ["Amount"], "done")
    assert result["matched"] == 2


def test_empty_case_answered_empty_is_perfect():
    case = _case([], status="no_documents", documents=[], columns=("Description", "Amount"))
    result = score_case(case, [], ["Description", "Amount"], "no_documents")
    assert result["status_ok"]
    assert result["recall"] == result["precision"] == result["document_completeness"] == 1.0


def test_empty_case_answered_with_rows_fails():
    case = _case([], status="no_documents", documents=[], columns=("Description", "Amount"))
    predicted = _rows([(INVOICE, ["SSD", "10.00"])], ("Description", "Amount"))
    result = score_case(case, predicted, ["Description", "Amount"], "done")
    assert not result["status_ok"]
    assert result["recall"] == 0.0 and result["precision"] == 0.0
    assert result["rows_from_wrong_documents"] == 1


def test_no_answer_to_a_case_with_rows_fails():
    result = score_case(_case(TRUE), [], ["Description", "Quantity", "Unit price"], "done")
    assert result["recall"] == 0.0 and result["precision"] == 0.0 and len(result["missed"]) == 3


def test_listed_misses_are_capped():
    many = [(INVOICE, [f"Item {i}", "1", "1,00"]) for i in range(30)]
    result = score_case(_case(many), [], ["Description", "Quantity", "Unit price"], "done")
    assert result["true_rows"] == 30 and len(result["missed"]) == 20


# --------------------------------------------------------------------------------------------
# Reports


def test_truth_scored_against_itself_is_perfect():
    results = [score_case(c, c["rows"], c["columns"], c["status"]) for c in cases(7)]
    assert all(r["recall"] == r["precision"] == 1.0 and r["status_ok"] for r in results)
    summary = summarise(results)
    assert summary["perfect"] == summary["cases"] == 12
    assert summary["matched"] == summary["true_rows"] == summary["predicted_rows"]


def test_summary_is_micro_averaged_and_split_by_tag():
    a = score_case(_case(TRUE), _rows(TRUE[:1]), ["Description", "Quantity", "Unit price"], "done")
    b_case = dict(_case(TRUE[:1]), id="other", tags=["semantic"])
    b = score_case(b_case, _rows(TRUE[:1]) * 2, ["Description", "Quantity", "Unit price"], "failed")
    summary = summarise([a, b])
    assert summary["true_rows"] == 4 and summary["predicted_rows"] == 3 and summary["matched"] == 2
    assert summary["recall"] == 0.5 and summary["precision"] == pytest.approx(2 / 3)
    assert summary["status_ok"] == 1 and summary["perfect"] == 0
    assert summary["by_tag"]["semantic"]["predicted_rows"] == 2
    table = markdown_table([a, b])
    lines = table.strip().splitlines()
    assert len(lines) == 5 and lines[0].startswith("| case |")
    assert "| sample | explicit | ok | 3 | 1 | 1 | 0.33 | 1.00 |" in table
    assert "failed (want done)" in table
    assert lines[-1].startswith("| **total** |") and "1/2 ok" in lines[-1]


def test_wrong_rows_marked_yes_are_counted_and_unsure_ones_are_not():
    wrong = _rows([(INVOICE, ["SSD 1 TB NVMe", "10", "114,00"]), (INVOICE, ["SSD 2 TB NVMe", "1", "9,00"])])
    wrong[1]["match"] = "unsure"
    result = score_case(_case(TRUE), _rows(TRUE) + wrong, ["Description", "Quantity", "Unit price"], "done")
    assert result["matched"] == 3 and result["wrong_yes"] == 1
    assert summarise([result])["wrong_yes"] == 1


def test_columns_named_in_the_requests_order_are_compared_by_position() -> None:
    from evals.score import score_case

    case = {"id": "u", "columns": ["States-A", "Others"], "columns_in_request_order": True,
            "documents_with_rows": ["health.pdf"],
            "rows": [{"file": "health.pdf", "values": {"States-A": "Assam", "Others": "4,408,505"}}]}
    rows = [{"file": "health.pdf", "values": {"State": "Assam", "Others": "4,408,505"}, "match": "yes"}]
    assert score_case(case, rows, ["State", "Others"], "done")["matched"] == 1
    # by name only, the first column is missing
    assert score_case({**case, "columns_in_request_order": False}, rows, ["State", "Others"], "done")["matched"] == 0
    # a different number of columns is never matched by position
    assert score_case(case, rows, ["State", "Others", "Total"], "done")["matched"] == 0


# --------------------------------------------------------------------------------------------
# How a case that is not exact missed: said, unsure or silent


def _given(rows, match="yes", note=""):
    return [{**r, "match": match, "note": note} for r in _rows(rows)]


def test_an_exact_case_has_no_miss_kind():
    result = score_case(_case(TRUE), _given(TRUE), ["Description", "Quantity", "Unit price"], "done", Told())
    assert result["miss"] is None


def test_no_rows_with_a_reason_is_said_and_without_one_silent():
    said = Told(frozenset([INVOICE, OTHER]))  # both listed, each with why it gave no rows
    assert score_case(_case(TRUE), [], [], "done", said)["miss"] == "said"
    assert score_case(_case(TRUE), [], [], "done", Told())["miss"] == "silent"


def test_wrong_rows_unsure_with_their_reason_and_missing_rows_announced_is_unsure():
    wrong = _given([(INVOICE, ["Cable", "1", "2,00"])], "unsure", "the column 'Unit price' is read from 'Price'")
    given = _given(TRUE[:2]) + wrong
    columns = ["Description", "Quantity", "Unit price"]
    # the document of the missed row is listed as giving no rows
    assert score_case(_case(TRUE), given, columns, "done", Told(frozenset([OTHER])))["miss"] == "unsure"
    # or the answer says part of the request was not applied
    assert score_case(_case(TRUE), given, columns, "done", Told(incomplete=("unused: hardware",)))["miss"] == "unsure"


def test_a_wrong_row_marked_yes_or_unsure_without_reason_is_silent():
    columns = ["Description", "Quantity", "Unit price"]
    for match, note in (("yes", ""), ("unsure", "")):
        given = _given(TRUE) + _given([(INVOICE, ["Cable", "1", "2,00"])], match, note)
        assert score_case(_case(TRUE), given, columns, "done", Told(incomplete=("unused: x",)))["miss"] == "silent"


def test_true_rows_missing_while_nothing_is_said_is_silent():
    columns = ["Description", "Quantity", "Unit price"]
    result = score_case(_case(TRUE), _given(TRUE[:2]), columns, "done", Told())
    assert result["miss"] == "silent"
    results = [result, score_case(_case(TRUE), [], [], "done", Told(frozenset([INVOICE, OTHER])))]
    totals = summarise(results)
    assert (totals["said"], totals["unsure"], totals["silent"]) == (1, 0, 1)
    assert "1 said, 0 unsure, 1 silent" in markdown_table(results)


def test_a_missed_row_whose_document_gave_rows_unsure_with_their_reason_is_announced():
    columns = ["Description", "Quantity", "Unit price"]
    doubted = _given([(OTHER, ["Monitor 27 Zoll WQHD", "8", ""])], "unsure", "no value for 'Unit price'")
    result = score_case(_case(TRUE), _given(TRUE[:2]) + doubted, columns, "done", Told())
    assert result["miss"] == "unsure"


def test_nothing_read_with_the_reason_is_said():
    assert score_case(_case(TRUE), [], [], "no_documents", Told())["miss"] == "said"


def test_what_an_answer_told_is_read_from_its_summary_not_its_wording():
    answer = {"status": "done", "message": "anything at all", "summary": {
        "engine": "offline", "no_rows": [{"file": OTHER, "reason": "no_table", "detail": "…"}], "unused": ["hardware"],
        "row_terms": ["cheap"], "failed": [{"file": "c.pdf", "error": "unreadable"}], "read_in_part": ["d.pdf: page 3"]}}
    told = Told.of(answer)
    assert told.no_rows_from == {OTHER}
    assert told.incomplete == ("unused: hardware", "not judged: cheap", "failed: c.pdf", "read in part: d.pdf: page 3")
    # a model judges the words that pick rows by meaning: they are no announcement of its rows
    assert Told.of({**answer, "summary": {"engine": "llm", "row_terms": ["cheap"]}}) == Told()
