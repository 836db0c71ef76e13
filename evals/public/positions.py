"""Invoices whose positions their makers give as data: ZUGFeRD / Factur-X PDFs carry the invoice
as XML inside the PDF (an embedded file), written by the software that printed the page. Each
line item of that XML -- its product name, quantity and line total -- is a position the printed
table must hold; no one here writes that truth, and Kea's output never enters it.

``line_items(pdf)`` reads the positions for ``evals.public.build``; ``positions_found(tables,
positions)`` counts, for ``evals.public.score``, the positions one row of a parsed table holds
whole: every word of the name, a cell reading as the quantity and a cell reading as the total.
"""

from __future__ import annotations

import re
import unicodedata
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path
from typing import Any

XML_NAMES = ("factur-x.xml", "zugferd-invoice.xml", "xrechnung.xml")  # ZUGFeRD 1 and 2, Factur-X


def embedded_files(path: Path) -> dict[str, bytes]:
    """The files embedded in a PDF's name tree (name -> data)."""
    from pdfminer.pdfdocument import PDFDocument
    from pdfminer.pdfparser import PDFParser
    from pdfminer.pdftypes import resolve1

    found: dict[str, bytes] = {}
    with path.open("rb") as stream:
        document = PDFDocument(PDFParser(stream))
        names = resolve1(document.catalog.get("Names")) or {}
        nodes = [resolve1(names.get("EmbeddedFiles"))] if names.get("EmbeddedFiles") else []
        while nodes:
            node = resolve1(nodes.pop())
            pairs = resolve1(node.get("Names", [])) or []
            for i in range(0, len(pairs) - 1, 2):
                name, spec = resolve1(pairs[i]), resolve1(pairs[i + 1])
                data = resolve1(resolve1(spec.get("EF", {})).get("F"))
                if data is not None:
                    found[name.decode("latin-1") if isinstance(name, bytes) else str(name)] = data.get_data()
            nodes.extend(resolve1(node.get("Kids", [])) or [])
    return found


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _first(element: ET.Element, *names: str) -> str:
    for child in element.iter():
        if _local(child.tag) in names and (child.text or "").strip():
            return child.text.strip()  # type: ignore[union-attr]
    return ""


def line_items(path: Path) -> list[dict[str, str]]:
    """The invoice's positions as its embedded XML gives them: line ID, name, quantity, total;
    empty when the PDF carries no invoice XML or it holds no line items."""
    files = {name.lower(): data for name, data in embedded_files(path).items()}
    data = next((files[name] for name in XML_NAMES if name in files), None)
    if data is None:
        return []
    items = []
    for item in ET.fromstring(data).iter():
        if _local(item.tag) != "IncludedSupplyChainTradeLineItem":
            continue
        product = next((e for e in item.iter() if _local(e.tag) == "SpecifiedTradeProduct"), None)
        items.append({
            "line": _first(item, "LineID"),
            "name": _first(product, "Name") if product is not None else "",
            "quantity": _first(item, "BilledQuantity"),
            "total": _first(item, "LineTotalAmount"),
        })
    return [i for i in items if i["name"] and i["quantity"] and i["total"]]


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", unicodedata.normalize("NFKC", text).casefold())


def _reads_as(cell: str, value: str) -> bool:
    from tools.engines.numbers import cell_readings, parse_number

    wanted = float(value)
    return any((n := parse_number(r)) is not None and abs(n - wanted) < 0.005 for r in cell_readings(cell))


def _holds(row: Sequence[str], position: dict[str, str]) -> bool:
    words = set(_words(" ".join(row)))
    if not set(_words(position["name"])) <= words:
        return False
    quantity = [k for k, c in enumerate(row) if _reads_as(c, position["quantity"])]
    total = [k for k, c in enumerate(row) if _reads_as(c, position["total"])]
    return any(q != t for q in quantity for t in total) or (bool(quantity) and quantity == total and len(quantity) > 1)


def positions_found(tables: Sequence[Sequence[Sequence[str]]], positions: Sequence[dict[str, Any]]) -> int:
    """How many ``positions`` one row of ``tables`` holds whole (each row counts for one)."""
    rows = [list(row) for table in tables for row in table]
    used: set[int] = set()
    found = 0
    for position in positions:
        k = next((k for k, row in enumerate(rows) if k not in used and _holds(row, position)), None)
        if k is not None:
            used.add(k)
            found += 1
    return found
