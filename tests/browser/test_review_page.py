"""The review page in headless Chromium: a stored page opens with no network, filters to unsure
rows, and a 10,000-row page opens and scrolls. Screenshots go to ``evals/results/browser/``."""

from __future__ import annotations

import asyncio
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from core.profile import Profile
from graph.runs import run_extraction
from core.reading import Record
from tools.storage.review import ReviewSpool, source_context
from tools.storage.rows import output_key

COUNT = re.compile(r"Showing (\d+) of (\d+) rows \((\d+) in the table\)")


@pytest.fixture
def tab(chromium) -> Any:  # type: ignore[no-untyped-def]
    context = chromium.new_context(viewport={"width": 1400, "height": 900}, offline=True)
    page = context.new_page()
    page.errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda error: page.errors.append(str(error)))  # type: ignore[attr-defined]
    yield page
    context.close()


def _count(page: Any) -> tuple[int, int, int]:
    found = COUNT.search(page.locator("#count").inner_text())
    assert found, page.locator("#count").inner_text()
    return int(found[1]), int(found[2]), int(found[3])


@pytest.fixture
def stored_review(corpus, svc, tmp_path) -> tuple[Path, dict[str, Any]]:  # type: ignore[no-untyped-def]
    """The review page a real extraction stored: some invoices have no article number column, so
    their rows are unsure and the others are not.

    The run gets an event loop of its own in a thread: Playwright's sync API owns this one."""
    request = "Every position on the 2025 invoices with description, quantity, unit price and article number"
    run = run_extraction(request, Profile(collections=["corpus"]), confirm="auto")
    with ThreadPoolExecutor(1) as pool:
        values = pool.submit(asyncio.run, run).result()
    stored = tmp_path / "review.html"
    with svc.objects.open(output_key(values["extraction_id"], "review.html")) as handle:
        stored.write_bytes(handle.read())
    return stored, values["answer"]["summary"]


def test_a_stored_review_page_filters_to_unsure_rows(stored_review, tab, screenshots) -> None:  # type: ignore[no-untyped-def]
    stored, summary = stored_review
    assert 0 < summary["unsure_rows"] < summary["rows"]
    tab.goto(stored.as_uri())
    tab.locator("#body tr").first.wait_for()
    assert _count(tab) == (summary["rows"], summary["rows"], summary["rows"])
    tab.get_by_label("Unsure rows only").check()
    shown, matching, total = _count(tab)
    assert matching == summary["unsure_rows"] and total == summary["rows"]
    assert tab.locator("#body td.match-unsure").count() == shown and tab.locator("#body td.match-yes").count() == 0
    assert tab.locator("#body .source .hit").count() >= shown  # every row shows its highlighted source line
    tab.screenshot(path=str(screenshots / "review-unsure-rows.png"))
    first_file = tab.locator("#body td.file").first.inner_text().strip()
    tab.get_by_label("Unsure rows only").uncheck()
    tab.locator("#file").select_option(first_file)
    assert {t.strip() for t in tab.locator("#body td.file").all_inner_texts()} == {first_file}
    assert tab.errors == []  # type: ignore[attr-defined]


def test_ten_thousand_rows_open_and_scroll(tab, screenshots, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    spool = ReviewSpool(tmp_path, ["Item", "Quantity", "Price"])
    pages = ["\n".join(f"Item {i}  {i % 7}  {i}.00" for i in range(j * 50, j * 50 + 50)) for j in range(200)]
    for i in range(10_000):
        evidence = f"Item {i}  {i % 7}  {i}.00"
        record = Record(values={"Item": f"Item {i}", "Quantity": str(i % 7), "Price": f"{i}.00"},
                        match="unsure" if i % 10 == 0 else "yes", page=i // 50 + 1, evidence=evidence,
                        source=source_context(pages, i // 50 + 1, evidence))
        spool.add(f"big/file-{i // 500:02d}.txt", record)
    page_file = spool.save(tmp_path / "review.html", "Review: 10,000 rows", ["10000 rows"])

    tab.goto(page_file.as_uri())
    tab.locator("#body tr").first.wait_for()
    first, matching, _ = _count(tab)
    assert matching == 10_000 and first < 1_000  # rendered a page at a time
    for _ in range(5):
        tab.mouse.wheel(0, 200_000)
        tab.wait_for_timeout(200)
    assert _count(tab)[0] > first  # scrolling renders more
    tab.locator("#search").fill("item 9999")  # in row 9999's values, and in the source lines around 9997 and 9998
    expect(tab.locator("#body tr")).to_have_count(3)
    assert tab.locator("#body tr").last.locator("td").nth(4).inner_text() == "Item 9999"
    tab.get_by_label("Unsure rows only").check()
    tab.locator("#search").fill("")
    expect(tab.locator("#count")).to_contain_text("of 1000 rows")
    tab.screenshot(path=str(screenshots / "review-10000-rows.png"))
    assert tab.errors == []  # type: ignore[attr-defined]
