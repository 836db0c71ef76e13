"""Every word of a request accounted for, whichever engine read it."""

from __future__ import annotations

import json
from pathlib import Path

from tools.engines.accounting import NOTE_START, unused_words, with_accounting
from tools.engines.llm.reading import reading_from
from tools.engines.llm.schemas import RequestReading
from tools.engines.offline import extract_records, read_message
from core.reading import DocumentText, FolderCount, ScopeHint, Table

READINGS = [json.loads(line) for line in (Path(__file__).parents[1] / "data" / "readings.jsonl").read_text().splitlines() if line.strip()]
SCOPE = ScopeHint(documents=40, years=["2025"], folders=[FolderCount(folder=f, documents=5) for f in
                                         ("invoices/2025", "deliveries", "catalogue", "timesheets", "slas")])


def test_a_word_that_became_nothing_is_named_and_every_row_is_unsure() -> None:
    read = read_message("Every hardware item on the 2025 invoices with description and quantity", SCOPE)
    assert read.row_terms == ["hardware"] and read.unused == []  # what picks the rows, named as not judged
    # a reading that left the word out (a model's, or a correction) names it, and every row is unsure
    reading = with_accounting(read.model_copy(update={"row_terms": [], "notes": []}), SCOPE)
    assert reading.unused == ["hardware"]
    assert any(n.startswith(f"{NOTE_START}'hardware'") for n in reading.notes)
    invoice = DocumentText(id=1, collection="c", path="invoices/2025/a.md", pages=["Description\tQuantity\nCopy paper\t5"],
                           tables=[Table(page=1, header=["Description", "Quantity"], rows=[["Copy paper", "5"]])])
    (row,) = extract_records(invoice, reading)
    assert row.match == "unsure" and "the request's 'hardware' was not used" in (row.note or "")


def test_names_and_figures_before_the_kind_of_documents_are_not_taken_for_it() -> None:
    nordwerk = read_message("Item, quantity and price per unit of all positions on the Nordwerk invoices", SCOPE)
    assert nordwerk.unused == [] and nordwerk.document_conditions == ["Nordwerk"]  # read as the owner
    q2 = read_message("Date, description and amount of every expense in the Q2 2025 expense report", SCOPE)
    # the quarter and its year say which documents: neither a place nor a word left over
    assert q2.document_conditions == ["Q2 2025"] and "Q2" not in q2.unused and q2.places == []
    # other codes before the kind of documents name them too, and each document must name them
    fy = read_message("Date, description and amount of every expense in the FY24 X7 expense report", SCOPE)
    assert fy.document_conditions == ["FY24 X7"] and fy.unused == []


def test_words_that_say_which_values_of_a_column_are_named_when_unused() -> None:
    # "in favor" and "against" say which votes; read as the one column Votes, they are unused
    scope = SCOPE.model_copy(update={"table_headers": [["Contest", "Choice", "Votes"]], "vocabulary": ["Contest", "Choice", "Votes"]})
    reading = read_message("Retention contests with votes in favor and votes against", scope)
    for word in ("favor", "against"):  # in a column's name, or named as unused: never dropped
        assert word in reading.unused or any(word in c.casefold() for c in reading.columns), (word, reading)
    # "every line of …" names the rows, not the column Line
    lines = read_message("List every line of Falkner's 2023 purchase orders with order number, line and quantity", SCOPE)
    assert lines.unused == []
    # a phrase after the last column that names no column names the documents
    for message in ("Item and price from 2025 purchase orders", "Description and quantity on delivery notes",
                    "Item and price in the 2025 purchase orders", "Invoice number and amount in contracts from Acme"):
        assert read_message(message, SCOPE).unused == [], message


def test_grammar_courtesy_and_the_kind_of_documents_are_accounted_for() -> None:
    flagged = {c["id"]: read_message(c["message"], SCOPE).unused for c in READINGS}
    assert {k: v for k, v in flagged.items() if v} == {}
    demo = read_message("Every position on Nordwerk's 2025 invoices with description, quantity and unit price", SCOPE)
    assert demo.unused == [] and not any(n.startswith(NOTE_START) for n in demo.notes)


def test_a_models_own_account_of_the_words_it_did_not_use_stands() -> None:
    message = "Every hardware item on the 2025 invoices with description and quantity"
    answer = RequestReading(kind="table", columns=["Description", "Quantity"], columns_from="request", row_condition=None,
                            conditions=[], row_terms=[], document_conditions=[], unused=["hardware"],
                            places=[{"kind": "year", "value": "2025"}], calculations=[], notes=[])  # type: ignore[list-item]
    reading = reading_from(answer, message, SCOPE)
    assert reading.unused == ["hardware"] and any(n.startswith(f"{NOTE_START}'hardware'") for n in reading.notes)
    # a model that took every word up (its paraphrase is its own reading) is not second-guessed word by word
    judged = answer.model_copy(update={"row_terms": ["hardware items"], "unused": []})
    assert reading_from(judged, message, SCOPE).unused == []


def test_a_correction_that_uses_the_word_clears_it() -> None:
    read = read_message("Every hardware item on the 2025 invoices with description and quantity", SCOPE)
    reading = with_accounting(read.model_copy(update={"row_terms": [], "notes": []}), SCOPE)
    corrected = with_accounting(reading.model_copy(update={"row_terms": ["hardware"]}), SCOPE)
    assert corrected.unused == [] and not any(n.startswith(NOTE_START) for n in corrected.notes)
    assert unused_words(reading, SCOPE) == ["hardware"]


def test_the_kind_of_an_owners_documents_is_checked_in_each_document() -> None:
    scope = ScopeHint(documents=9, folders=[FolderCount(folder="invoices", documents=4), FolderCount(folder="orders/2023", documents=5)])
    reading = read_message("Pour chaque facture de Roussel Verrerie : désignation, quantité et prix unitaire", scope)
    assert reading.document_kinds == ["facture"] and reading.unused == []
    header, rows = ["Description", "Qty", "Unit price"], [["Fiole jaugée 100 ml", "10", "19.00"]]

    def document(path: str, title: str) -> DocumentText:
        text = f"{title}\nRoussel Verrerie SARL, Lyon\n" + "\n".join("\t".join(r) for r in [header, *rows])
        return DocumentText(id=1, collection="c", path=path, title=title, pages=[text], tables=[Table(page=1, header=header, rows=rows)])

    (invoice_row,) = extract_records(document("invoices/F-2024-031.pdf", "Facture F-2024-031"), reading)
    (order_row,) = extract_records(document("orders/2023/PO-23-0089.docx", "Purchase order PO-23-0089"), reading)
    assert invoice_row.match == "yes"
    assert order_row.match == "unsure" and "the document does not call itself 'facture'" in (order_row.note or "")


def test_a_folder_written_as_a_path_is_a_place_though_the_hint_lists_only_the_largest() -> None:
    # a scope of 50 folders: its hint lists the 12 largest; the user names another, as a path
    scope = ScopeHint(documents=500, folders=[FolderCount(folder=f"conv-{n:02d}", documents=10) for n in range(12)])
    answer = RequestReading(kind="table", columns=["Code", "Item", "Quantity"], columns_from="request", row_condition=None,
                            conditions=[], row_terms=[], document_conditions=[], unused=[], places=[], calculations=[],
                            notes=[])
    written = reading_from(answer, "Code, item and quantity of every order in conv-37/", scope)
    assert [(p.kind, p.value) for p in written.places] == [("folder", "conv-37")]
    # a month and a year joined by a slash is not written as a folder's path: every document is read
    dated = reading_from(answer, "Code, item and quantity of every order of May/2013", scope)
    assert dated.places == [] and any("'May/2013'" in n for n in dated.notes)


def test_a_period_the_model_did_not_read_is_named_as_the_user_wrote_it() -> None:
    scope = ScopeHint(documents=40, years=["2024", "2025"], today="2025-07-31",
                      folders=[FolderCount(folder="invoices/2025", documents=20), FolderCount(folder="invoices/2024", documents=20)])
    answer = RequestReading(kind="table", columns=["Code", "Item"], columns_from="request", row_condition=None,
                            conditions=[], row_terms=[], document_conditions=[], unused=[], places=[], calculations=[],
                            notes=[])
    reading = reading_from(answer, "Code and item of every invoice this year", scope)
    assert reading.places == []  # the model's reading stands: no year is added over it
    assert any("did not read 'this year' as a place" in n for n in reading.notes), reading.notes
