"""The second generated corpus holds what its truth says, and sets every trap it claims to."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pdfplumber
import pytest

from corpora import second as g
from evals.score import normalise_text, parse_value

README = Path(__file__).resolve().parents[2] / "corpora" / "second.md"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> tuple[Path, dict]:
    out = tmp_path_factory.mktemp("corpus2")
    return out / "documents", g.generate(out, seed=7)


@pytest.fixture(scope="module")
def texts(corpus) -> dict[str, str]:
    """Every document's parsed text, whitespace-collapsed and case-folded."""
    import tools.engines  # noqa: F401 — the parsers' table type lives there
    from tools.parsing import parse_file

    root, truth = corpus
    return {d: normalise_text("\n".join(parse_file(root / d).pages)) for d in truth["documents"]}


def _case(truth: dict, case_id: str) -> dict:
    return next(c for c in truth["cases"] if c["id"] == case_id)


def _hashes(root: Path) -> dict[str, str]:
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


# --------------------------------------------------------------------------------------------
# Layout and truth


def test_documents_on_disk_are_the_listed_ones(corpus):
    root, truth = corpus
    assert sorted(_hashes(root)) == truth["documents"]
    assert 60 <= len(truth["documents"]) <= 150
    assert json.loads((root.parent / "truth.json").read_text(encoding="utf-8")) == truth
    folders: dict[str, int] = {}
    for d in truth["documents"]:
        folders[d.rsplit("/", 1)[0]] = folders.get(d.rsplit("/", 1)[0], 0) + 1
    assert folders["deliveries"] == 44
    assert folders["receipts-archive"] == 12
    suffixes = {Path(d).suffix for d in truth["documents"]}
    assert suffixes == {".pdf", ".docx", ".xlsx", ".txt", ".md", ".csv"}


def test_every_case_is_well_formed(corpus):
    root, truth = corpus
    ids = [c["id"] for c in truth["cases"]]
    assert len(ids) == len(set(ids)) and all(i.startswith("c2-") for i in ids)
    for case in truth["cases"]:
        assert case["status"] in {"done", "no_documents"}
        assert case["tags"] in (["explicit"], ["semantic"])
        assert set(case["documents_with_rows"]) <= set(truth["documents"])
        for doc in case["documents_with_rows"]:
            assert (root / doc).is_file()
        for row in case["rows"]:
            assert row["file"] in case["documents_with_rows"]
            assert list(row["values"]) == case["columns"]
            assert all(str(v).strip() for v in row["values"].values())
        assert (case["status"] == "no_documents") == (not case["rows"])


def test_at_least_thirty_explicit_cases(corpus):
    _, truth = corpus
    tags = [c["tags"][0] for c in truth["cases"]]
    assert tags.count("explicit") >= 30
    assert tags.count("semantic") >= 2


def test_truth_cases_are_the_readme_cases(corpus):
    _, truth = corpus
    text = README.read_text(encoding="utf-8")
    listed = re.findall(r"^\| `(c2-[a-z0-9-]+)` \| (explicit|semantic) \| (.+?) \|$", text, re.MULTILINE)
    assert [(c["id"], c["tags"][0], c["message"]) for c in truth["cases"]] == listed
    counts = dict(re.findall(r"`(c2-[a-z0-9-]+)` (\d+)", text.split("Rows for seed 7:")[1]))
    assert {c["id"]: str(len(c["rows"])) for c in truth["cases"]} == counts


def test_every_true_value_is_in_its_documents_text(corpus, texts):
    _, truth = corpus
    for case in truth["cases"]:
        for row in case["rows"]:
            for column, value in row["values"].items():
                assert normalise_text(value) in texts[row["file"]], (case["id"], row["file"], column, value)


def test_rows_of_a_table_stand_on_one_line_of_the_parsed_text(corpus):
    """Values of one true row of a table are printed together, on one line of the parsed text."""
    import tools.engines  # noqa: F401
    from tools.parsing import parse_file

    root, truth = corpus
    table_cases = ["c2-vdl-gross", "c2-orders-2023-lines", "c2-delivery-file", "c2-lab-plate", "c2-coa",
                   "c2-catalogue-units", "c2-leases-all", "c2-staff-sales", "c2-timesheets-long"]  # fmt: skip
    for case_id in table_cases:
        case = _case(truth, case_id)
        lines: dict[str, list[str]] = {}
        for row in case["rows"]:
            if row["file"] not in lines:
                doc = parse_file(root / row["file"])
                lines[row["file"]] = [normalise_text(x) for page in doc.pages for x in page.splitlines()]
            values = [normalise_text(v) for v in row["values"].values()]
            assert any(all(v in line for v in values) for line in lines[row["file"]]), (case_id, row)


# --------------------------------------------------------------------------------------------
# Determinism


def test_same_seed_writes_the_same_bytes(corpus, tmp_path):
    root, truth = corpus
    again = g.generate(tmp_path, seed=7)
    assert again == truth
    assert _hashes(tmp_path / "documents") == _hashes(root)
    assert (tmp_path / "truth.json").read_bytes() == (root.parent / "truth.json").read_bytes()


def test_rerun_over_an_existing_folder_changes_nothing(corpus):
    root, truth = corpus
    before = _hashes(root)
    assert g.generate(root.parent, seed=7) == truth
    assert _hashes(root) == before


def test_cases_without_writing_equal_the_written_truth(corpus):
    _, truth = corpus
    assert g.cases(7) == truth["cases"]


def test_another_seed_changes_values_not_layout(corpus, tmp_path):
    _, truth = corpus
    assert g.generate(tmp_path, seed=11)["documents"] == truth["documents"]
    other = g.cases(11)
    assert [(c["id"], c["message"], c["columns"]) for c in other] == [
        (c["id"], c["message"], c["columns"]) for c in truth["cases"]
    ]
    assert [c["rows"] for c in other] != [c["rows"] for c in truth["cases"]]


def test_command_line(tmp_path, capsys):
    assert g.main([str(tmp_path / "out"), "--seed", "7"]) == 0
    printed = capsys.readouterr().out
    assert "deliveries/" in printed and "c2-vdl-gross" in printed
    assert (tmp_path / "out" / "truth.json").is_file()


# --------------------------------------------------------------------------------------------
# Traps: each is present in the documents and asked about by at least one case


def test_every_trap_is_asked_by_a_case(corpus):
    _, truth = corpus
    asked = {t for c in truth["cases"] if "explicit" in c["tags"] for t in c["traps"]}
    assert asked == set(g.TRAPS)


def test_net_and_gross_amounts_differ_and_are_both_printed(corpus, texts):
    _, truth = corpus
    gross = _case(truth, "c2-vdl-gross")
    for doc in gross["documents_with_rows"]:
        text = texts[doc]
        assert "net amount" in text and "gross amount" in text
        assert "net total:" in text and "gross total:" in text
    corpus_ = g.build(7)
    for inv in (i for i in corpus_.invoices if i.company is g.VDL):
        for line in inv.lines:
            assert parse_value(g.nl(line.net_cents)).numbers != parse_value(g.nl(line.gross_cents)).numbers
    totals = _case(truth, "c2-vdl-totals")
    for row in totals["rows"]:
        assert row["values"]["Net total"] != row["values"]["Gross total"]
    for row in _case(truth, "c2-fr-roussel-totals")["rows"]:
        assert f"total ttc : {normalise_text(row['values']['Total TTC'])}" in texts[row["file"]]
        assert "total ht :" in texts[row["file"]]


def test_contracts_open_with_a_key_value_table(corpus):
    import docx

    root, truth = corpus
    for doc in _case(truth, "c2-contracts-dates")["documents_with_rows"]:
        table = docx.Document(str(root / doc)).tables[0]
        cells = [[c.text for c in row.cells] for row in table.rows]
        assert len(cells[0]) == 2 and cells[0][0] == "Party" and not cells[0][1].startswith("Party")
        assert ["End date", next(k.end for k in g.build(7).contracts if k.path == doc)] in cells
    below = _case(truth, "c2-contracts-below")
    assert "contracts/meyrin-facility-services.docx" not in below["documents_with_rows"]  # exactly 1,000,000


def test_employee_list_has_a_department_column_and_lookalike_department(corpus):
    import openpyxl

    root, truth = corpus
    ws = openpyxl.load_workbook(root / g.STAFF, read_only=True).worksheets[0]
    rows = [list(r) for r in ws.iter_rows(values_only=True)]
    assert rows[0][:5] == ["Employee no.", "Name", "Department", "Role", "Start date"]
    departments = [r[2] for r in rows[1:]]
    assert departments.count("Sales") == len(_case(truth, "c2-staff-sales")["rows"]) == 7
    assert "Sales Operations" in departments
    names = {r["values"]["Name"] for r in _case(truth, "c2-staff-sales")["rows"]}
    assert not names & {r[1] for r in rows[1:] if r[2] == "Sales Operations"}


def test_text_delivery_note_is_aligned_with_spaces_only(corpus):
    root, truth = corpus
    case = _case(truth, "c2-delivery-file")
    text = (root / g.DELIVERY_FILE).read_text(encoding="utf-8")
    assert "\t" not in text and "|" not in text
    header = next(line for line in text.splitlines() if line.startswith("Item code"))
    assert re.fullmatch(r"Item code {2,}Description {2,}Quantity {2,}Unit", header)
    assert len(case["rows"]) >= 5


def test_key_value_records_give_one_row_each(corpus):
    root, truth = corpus
    for case_id, path in (("c2-helpdesk-file", g.HELPDESK_MAY), ("c2-visits", g.VISITS)):
        text = (root / path).read_text(encoding="utf-8")
        key = "Ticket:" if "helpdesk" in path else "Visit:"
        count = sum(1 for line in text.splitlines() if line.startswith(key))
        assert count >= 3 and len(_case(truth, case_id)["rows"]) == count


def test_headers_contain_other_asked_names(corpus, texts):
    _, truth = corpus
    assert (
        "item code item unit qty unit price net amount vat gross amount"
        in texts[_case(truth, "c2-vdl-file-units")["documents_with_rows"][0]]
    )
    units = _case(truth, "c2-catalogue-units")
    assert {"Unit", "Unit price"} <= set(units["columns"])
    for row in units["rows"]:
        assert parse_value(row["values"]["Unit"]).numbers is None
    for row in _case(truth, "c2-vdl-file-units")["rows"]:
        assert row["values"]["Item code"].startswith("VDL-") and not row["values"]["Item"].startswith("VDL-")


def test_markdown_documents_use_bold_keys(corpus):
    root, truth = corpus
    for doc in _case(truth, "c2-receipts-payer")["documents_with_rows"]:
        text = (root / doc).read_text(encoding="utf-8")
        assert "**Merchant:**" in text and "**Paid by:** Ilse Vermeer" in text
    assert "**Provider:** Tavira Software Lda" in (root / "slas/tavira-lims-sla.md").read_text(
        encoding="utf-8"
    )


def test_certificates_of_analysis_have_no_ruling_lines(corpus):
    root, truth = corpus
    docs = _case(truth, "c2-coa")["documents_with_rows"]
    assert len(docs) == 3
    for doc in docs:
        with pdfplumber.open(root / doc) as pdf:
            page = pdf.pages[0]
            assert not page.lines and not page.rects and not page.curves
            assert "Parameter Specification Result Unit" in page.extract_text()


def test_years_in_paths_and_years_by_date(corpus):
    root, truth = corpus
    docs = truth["documents"]
    assert any(d.startswith("orders/2023/") for d in docs) and any(d.startswith("orders/2024/") for d in docs)
    assert not any("2025" in d for d in docs)
    assert _case(truth, "c2-orders-2025")["status"] == "no_documents"
    assert all(d.startswith("orders/2024/") for d in _case(truth, "c2-orders-2024")["documents_with_rows"])
    receipts = [d for d in docs if d.startswith("receipts-archive/")]
    assert not any(re.search(r"20\d\d", d) for d in receipts)
    dated_2022 = sorted(
        d for d in receipts if re.search(r"\*\*Date:\*\* \d+ \w+ 2022", (root / d).read_text())
    )
    assert _case(truth, "c2-receipts-2022")["documents_with_rows"] == dated_2022
    assert 0 < len(dated_2022) < len(receipts)


def test_file_named_with_spaces_and_dots(corpus):
    root, truth = corpus
    case = _case(truth, "c2-lab-plate")
    name = g.LAB_PLATE.rsplit("/", 1)[1]
    assert " " in name and name.count(".") >= 2 and f"'{name}'" in case["message"]
    assert case["documents_with_rows"] == [g.LAB_PLATE]
    assert (root / g.LAB_PLATE_LOOKALIKE).is_file()


def test_missing_folder_has_no_documents(corpus):
    _, truth = corpus
    case = _case(truth, "c2-receipts-missing-folder")
    assert "receipts/" in case["message"] and case["status"] == "no_documents" and not case["rows"]
    assert not any(d.startswith("receipts/") for d in truth["documents"])
    assert any(d.startswith("receipts-archive/") for d in truth["documents"])


def test_boundaries_are_excluded(corpus):
    c = g.build(7)
    _, truth = corpus
    assert any(d.weight == "100.0 kg" for d in c.deliveries)
    assert "100.0 kg" not in {
        r["values"]["Gross weight"] for r in _case(truth, "c2-deliveries-heavy")["rows"]
    }
    assert any(r[6] == 500000 for r in c.leases)
    assert "5,000.00" not in {r["values"]["Monthly rent"] for r in _case(truth, "c2-leases-below")["rows"]}
    assert any(line.quantity == 50 for o in c.orders for line in o.lines)
    assert all(int(r["values"]["Quantity"]) > 50 for r in _case(truth, "c2-orders-bulk")["rows"])
    assert any(r[4] == "8,0" for rows in c.timesheets.values() for r in rows)
    assert "8,0" not in {r["values"]["Hours"] for r in _case(truth, "c2-timesheets-long")["rows"]}


# --------------------------------------------------------------------------------------------
# The evaluation runs the second corpus as its own collection and reports it apart


def test_the_evaluation_reports_the_second_corpus_apart():
    from evals.report import CORPUS2_COLLECTION, corpus_of, corpus_totals, group_totals, report_markdown
    from evals.run import Case, select
    from evals.score import score_case

    first = {"id": "one", "tags": ["explicit"], "status": "done", "columns": ["A"], "documents_with_rows": ["a.txt"],
             "rows": [{"file": "a.txt", "values": {"A": "x"}}]}  # fmt: skip
    second = g.cases(7)[0]
    results = []
    for truth, collection in ((first, "corpus"), (second, CORPUS2_COLLECTION)):
        result = score_case(truth, truth["rows"], truth["columns"], "done")
        results.append({**result, "collection": collection, "seconds": 1.0, "crashed": False})
    assert [corpus_of(r) for r in results] == ["corpus", "corpus2"]
    assert corpus_of({"collection": "real-swimming"}) == "real"
    corpora = corpus_totals(results)
    assert list(corpora) == ["corpus", "corpus2"] and corpora["corpus2"]["explicit"]["cases"] == 1
    report = {"engine": "offline", "seed": 7, "cases": results, "groups": group_totals(results[:1]),
              "corpora": corpora}  # fmt: skip
    text = report_markdown(report)
    head, _, tail = text.partition("### Second corpus")
    assert "| one |" in head and second["id"] not in head
    assert f"| {second['id']} |" in tail and "| corpus2 | explicit | 1 |" in tail
    cases = [Case(first, "corpus"), *(Case(c, CORPUS2_COLLECTION) for c in g.cases(7))]
    assert [c.collection for c in select(cases, "c2-coa,one")] == [CORPUS2_COLLECTION, "corpus"]
