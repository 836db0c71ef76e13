"""The extraction graph end to end on in-memory services (``memory_services.py``): LangGraph's
InMemorySaver, the offline engine, a few small files parsed by Kea's parser and tables stored in
a folder under tmp_path. No database, no Milvus: ranking orders by keywords."""

from __future__ import annotations

import uuid
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command
from memory_services import ingest_folder, memory_services, write_shop

from core.profile import Profile
from core.result import build_result
from evals.tables import rows_from_csv
from graph.extraction import build_extraction_graph
from graph.runs import run_to_stop
from tools.services import Services
from tools.storage.rows import extraction_prefix, table_key

REQUEST = "Item and price of every row where the item contains cable"
SHOP = Profile(collections=["shop"], engine="offline")
CABLES = {"orders/2024/north.csv": "copper cable 5 m", "orders/2025/south.csv": "copper cable 2 m",
          "orders/2025/east.docx": "copper cable 9 m"}


@pytest.fixture
def shop(tmp_path: Path) -> Services:
    svc = memory_services(tmp_path)
    write_shop(tmp_path / "shop")
    report = ingest_folder(svc, tmp_path / "shop", "shop")
    assert len(report.indexed) == 4, report.skipped
    return svc


@pytest.fixture
def reads(shop: Services, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every document the run read from the knowledge base, by id."""
    return _spy(shop, monkeypatch)


def _spy(svc: Services, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    seen: list[int] = []
    original = svc.kb.read_documents

    def spy(scope, ids, *args, **kwargs):  # type: ignore[no-untyped-def]
        found = original(scope, ids, *args, **kwargs)
        seen.extend(i for i, document in found.items() if document is not None)
        return found

    monkeypatch.setattr(svc.kb, "read_documents", spy)
    return seen


class Thread:
    """One conversation with the graph on in-memory services."""

    def __init__(self, svc: Services, profile: Profile = SHOP) -> None:
        self.svc, self.profile = svc, profile
        self.graph = build_extraction_graph(InMemorySaver(), services=svc)
        self.config = {"configurable": {"thread_id": uuid.uuid4().hex}}

    async def send(self, message: str, confirm: str = "ask") -> tuple[dict[str, Any], list[Any]]:
        return await run_to_stop(self.graph, {"message": message, "confirm": confirm}, self.config, self.profile)

    async def reply(self, answer: Any) -> tuple[dict[str, Any], list[Any]]:
        return await run_to_stop(self.graph, Command(resume=answer), self.config, self.profile)

    def table(self, values: dict[str, Any]) -> tuple[list[str], list[dict[str, Any]]]:
        with self.svc.objects.open(table_key(values["extraction_id"])) as handle:
            return rows_from_csv(handle.read())


async def test_questions_come_first_and_a_yes_reads_every_document(shop: Services, reads: list[int]) -> None:
    thread = Thread(shop)
    paused, (form,) = await thread.send(REQUEST)
    assert form.value["kind"] == "questions"
    assert [q["header"] for q in form.value["questions"]] == ["Location", "Filter Condition", "Values to extract"]
    assert "That is 4 documents" in form.value["text"] and "Item contains cable" in form.value["text"]
    assert "orders (3)" in form.value["text"]  # the largest folders as a hint
    assert reads == [] and not list(shop.objects.keys(extraction_prefix(paused["extraction_id"])))

    done, asked = await thread.reply("yes")
    assert not asked
    answer = done["answer"]
    assert answer["status"] == "done", answer["message"]
    assert "Read 4 of 4 documents in scope" in answer["message"] and "3 rows" in answer["message"]
    assert "notes/memo.txt" in answer["message"]  # named among the documents without rows
    columns, rows = thread.table(done)
    assert columns == ["Item", "Price"]
    assert {r["file"]: r["values"]["Item"] for r in rows} == CABLES and len(rows) == 3  # one row per order
    assert sorted(Counter(reads).values()) == [1, 1, 1, 1]


async def test_confirm_auto_runs_straight_through(shop: Services) -> None:
    thread = Thread(shop)
    done, asked = await thread.send(REQUEST, confirm="auto")
    assert not asked and done["answer"]["status"] == "done"
    _, rows = thread.table(done)
    assert {r["file"]: r["values"]["Price"] for r in rows} == {
        "orders/2024/north.csv": "7.50", "orders/2025/south.csv": "3.00", "orders/2025/east.docx": "12.00"}


@pytest.mark.parametrize("reply", ["no", {"status": "cancelled", "answers": {}}])
async def test_a_decline_reads_nothing(shop: Services, reads: list[int], reply: Any) -> None:
    thread = Thread(shop)
    await thread.send(REQUEST)
    declined, _ = await thread.reply(reply)
    assert declined["answer"]["status"] == "declined" and "no document was read" in declined["answer"]["message"]
    assert reads == [] and not list(shop.objects.keys(extraction_prefix(declined["extraction_id"])))


async def test_the_profile_glob_and_a_year_narrow_what_is_read(shop: Services, reads: list[int]) -> None:
    thread = Thread(shop, Profile(collections=["shop"], path_glob="orders/**", engine="offline"))
    done, _ = await thread.send("Item and price from the 2025 orders where the item contains cable", confirm="auto")
    assert done["answer"]["status"] == "done", done["answer"]["message"]
    _, rows = thread.table(done)
    assert {r["file"] for r in rows} == {"orders/2025/south.csv", "orders/2025/east.docx"}
    assert len(reads) == 2


async def test_a_place_without_documents_names_the_folders(shop: Services, reads: list[int]) -> None:
    thread = Thread(shop)
    done, _ = await thread.send("Item and price from the 2023 orders", confirm="auto")
    answer = done["answer"]
    assert answer["status"] == "no_documents" and "2023" in answer["message"] and "orders (3)" in answer["message"]
    assert reads == []


async def test_more_than_the_profile_reads_offers_narrowing_and_reads_nothing(shop: Services, reads: list[int]) -> None:
    thread = Thread(shop, Profile(collections=["shop"], max_documents_total=3, engine="offline"))
    done, _ = await thread.send(REQUEST, confirm="auto")
    answer = done["answer"]
    assert answer["status"] == "needs_narrowing" and "4 documents match" in answer["message"]
    assert "by folder: orders (3), orders/2025 (2), notes (1)" in answer["message"]
    assert "by year: 2025 (2), 2024 (1); by collection: shop (4)" in answer["message"]
    assert reads == []


def _order(i: int) -> str:
    return f"parts/{2024 if i < 70 else 2025}/{'south' if i % 2 else 'north'}/order-{i:03d}.csv"


PART_CABLES = [7, 23, 39, 55, 71, 87, 103, 119]


async def test_more_than_100_documents_give_a_sample_and_a_yes_reads_the_rest_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    svc = memory_services(tmp_path)
    for i in range(130):
        file = tmp_path / "parts130" / _order(i)
        file.parent.mkdir(parents=True, exist_ok=True)
        cable = f"copper cable {i} m,1,{i}.50\n" if i in PART_CABLES else ""
        file.write_text(f"Item,Quantity,Price\nsteel bolt M{i % 12 + 3},{i % 7 + 1},{i % 9 + 1}.25\n{cable}")
    assert len(ingest_folder(svc, tmp_path / "parts130", "parts").indexed) == 130
    reads = _spy(svc, monkeypatch)
    cables = {_order(i) for i in PART_CABLES}
    thread = Thread(svc, Profile(collections=["parts"], engine="offline"))

    _, (form,) = await thread.send(REQUEST)
    assert "I read a sample of 5 first" in form.value["text"]
    shown, _ = await thread.reply("yes")
    sample = build_result(shown)
    assert sample.status == "sample", sample.message
    assert len(set(sample.documents.sample)) == 5 and set(sample.documents.sample) <= cables  # by keywords
    assert sample.documents.in_scope == 130 and sample.documents.extracted == 5 and len(reads) == 5
    assert 'Reply "yes"' in sample.message and "the other 125 documents are not read yet" in sample.message

    done, asked = await thread.send("Yes.")
    result = build_result(done)
    assert not asked and result.status == "done", result.message
    assert "Read 130 of 130 documents" in result.message and result.rows == 8
    assert result.documents.sample == sample.documents.sample
    _, rows = thread.table(done)
    assert {r["file"] for r in rows} == cables and len(rows) == 8
    assert len(reads) == 130 and set(Counter(reads).values()) == {1}  # the sample's documents were not read again

    again, _ = await thread.send("yes")
    assert again["answer"]["status"] == "answered" and "confirmed already" in again["answer"]["message"]
    assert len(reads) == 130


async def test_documents_beside_a_year_whose_paths_hold_none_are_read_with_the_year_as_their_date(shop: Services, reads: list[int]) -> None:
    extra = Path(shop.objects.root).parent / "more" / "orders"  # type: ignore[attr-defined]
    extra.mkdir(parents=True)
    (extra / "west.md").write_text("# Order West, 12 March 2025\n\n| Item | Quantity | Price |\n|---|---|---|\n"
                                   "| copper cable 7 m | 1 | 9.00 |\n")
    (extra / "old.md").write_text("# Order Old, 4 May 2023\n\n| Item | Quantity | Price |\n|---|---|---|\n"
                                  "| copper cable 3 m | 1 | 4.00 |\n")
    ingest_folder(shop, extra.parent, "shop")
    thread = Thread(shop)
    _, (form,) = await thread.send("Item and price from the 2025 orders where the item contains cable")
    assert "That is 4 documents" in form.value["text"]  # the two of 2025 and the two whose paths hold no year
    done, _ = await thread.reply("yes")
    answer = done["answer"]
    assert answer["status"] == "done", answer["message"]
    _, rows = thread.table(done)
    # the year is a place for the dated paths and the date of the orders whose paths hold none:
    # the one of 2025 gives its row, the one of 2023 none, and the answer names them
    assert {r["file"] for r in rows} == {"orders/2025/south.csv", "orders/2025/east.docx", "orders/west.md"}
    assert {r["match"] for r in rows if r["file"] == "orders/west.md"} == {"yes"}
    said = " ".join([answer["message"], *answer["summary"].get("notes", [])])
    assert "2 documents in these folders have no year in their path" in said and "orders/west.md" in said
    assert "orders/2024/north.csv" not in {r["file"] for r in rows}
    # the year is said once, as a place: the note above says how the undated orders are dated
    understood = next(line for line in answer["message"].splitlines() if line.startswith("Understood"))
    assert understood.count("2025") == 1 and "year 2025" in understood, understood


async def test_a_year_alone_reads_the_documents_whose_paths_hold_none_too(shop: Services, reads: list[int]) -> None:
    extra = Path(shop.objects.root).parent / "more" / "orders"  # type: ignore[attr-defined]
    extra.mkdir(parents=True)
    (extra / "west.md").write_text("# Order West, 12 March 2025\n\n| Item | Quantity | Price |\n|---|---|---|\n"
                                   "| copper cable 7 m | 1 | 9.00 |\n")
    ingest_folder(shop, extra.parent, "shop")
    thread = Thread(shop)
    _, (form,) = await thread.send("Item and price of every line from 2025 where the item contains cable")
    done, _ = await thread.reply("yes")
    answer = done["answer"]
    assert answer["status"] == "done", answer["message"]
    _, rows = thread.table(done)
    # the year names the dated paths of 2025 and dates the order whose path holds no year
    assert "orders/west.md" in {r["file"] for r in rows}
    assert "orders/2024/north.csv" not in {r["file"] for r in rows}
    said = " ".join([answer["message"], *answer["summary"].get("notes", [])])
    assert "documents in scope have no year in their path" in said and "orders/west.md" in said


async def test_a_request_naming_no_column_asks_for_the_columns_of_the_document_it_names(shop: Services) -> None:
    extra = Path(shop.objects.root).parent / "more" / "invoices" / "Brightcell Storage"  # type: ignore[attr-defined]
    extra.mkdir(parents=True)
    (extra / "INV-BC-20931.csv").write_text("Item Code,Description,Line Total\nBC-CBL-HV,HV interconnect cable set,38.50\n"
                                            "BC-BAT-5,Battery module 5 kWh,1900.00\n")
    ingest_folder(shop, extra.parent.parent, "shop")
    thread = Thread(shop)
    paused, (form,) = await thread.send("Can you list all the lines of the Brightcell invoice INV-BC-20931?")
    # the scope's most common table is the orders' (Item, Quantity, Price); the invoice named is another
    assert "Item Code, Description, Line Total" in form.value["text"]
    done, _ = await thread.reply("yes")
    columns, rows = thread.table(done)
    assert columns == ["Item Code", "Description", "Line Total"]
    assert [r["values"]["Item Code"] for r in rows] == ["BC-CBL-HV", "BC-BAT-5"]
    assert {r["file"] for r in rows} == {"invoices/Brightcell Storage/INV-BC-20931.csv"}


async def test_a_table_named_by_its_title_gives_its_columns_and_rows(shop: Services) -> None:
    extra = Path(shop.objects.root).parent / "more" / "bookings"  # type: ignore[attr-defined]
    extra.mkdir(parents=True)
    (extra / "starlight-order.md").write_text(
        "# Starlight Cinemas booking order\n\nBooking Summary\n\n| Start Date | End Date | Shows |\n|---|---|---|\n"
        "| 12/20/24 | 12/31/24 | 48 |\n\nShow Details\n\n| Show | Screen | Title | Rate |\n|---|---|---|---|\n"
        "| 1 | SCR-1 | Holiday Spectacular | $250 |\n| 2 | SCR-2 | Winter Wonderland | $150 |\n")
    ingest_folder(shop, extra.parent, "shop")
    thread = Thread(shop)
    paused, (form,) = await thread.send("Extract the Show Details table from the Starlight Cinemas booking order, all columns.")
    # the order holds two tables; the one its title names gives the columns, not the first
    assert "Show, Screen, Title, Rate" in form.value["text"]
    done, _ = await thread.reply("yes")
    columns, rows = thread.table(done)
    assert columns == ["Show", "Screen", "Title", "Rate"]
    assert [r["values"]["Title"] for r in rows] == ["Holiday Spectacular", "Winter Wonderland"]
