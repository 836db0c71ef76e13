"""``Key: value`` pairs of a document: labelled lines of its text and two-cell table rows.

A letter, an order confirmation or a ticket names its values on lines of their own
("Supplier: Acme GmbH", "Due date – 2025-04-14"). Markdown dresses such lines up
(``**Supplier:** Acme GmbH``, ``- Supplier: Acme GmbH``); the markup is no part of the key,
the value or the line. A table's rows are in the page text as TAB-joined lines, so those lines
are left to the tables, whose two-cell rows are pairs of their own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from core.reading import Table

MAX_KEY_WORDS = 6  # a longer "key" is the start of a sentence that holds a colon

# a key of up to 60 characters, then ':' or a spaced dash, then the value; the colon of a
# time (10:30) or of a link (https://) is no separator
_KEY_VALUE = re.compile(
    r"(?P<key>[^\t:]{1,60}?)\s*(?:(?:(?<!\d):|:(?!\d))(?!//)|\s[–—-]\s)\s*(?P<value>\S.*?)\s*"
)
_BLOCK_MARK = re.compile(r"\s*(?:>\s*)*(?:#{1,6}\s+|[-*+•]\s+(?:\[[ xX]\]\s+)?|\d{1,3}[.)]\s+)?")
_HEADING = re.compile(r"\s*(?:>\s*)*#{1,6}\s")
_STRONG = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1")
_EMPHASIS = re.compile(
    r"(?<![\w*])\*(?=[^\s*])(.+?)(?<=[^\s*])\*(?![\w*])"  # *word*, not 2 * 3
    r"|(?<!\w)_(?=[^\s_])(.+?)(?<=[^\s_])_(?!\w)"  # _word_, not snake_case
)
_STRIKE = re.compile(r"~~(?=\S)(.+?)(?<=\S)~~")
_CODE = re.compile(r"`([^`]+)`")
_LINK = re.compile(r"!?\[([^\]]*)\]\([^)\s]*(?:\s+\"[^\"]*\")?\)")


@dataclass(frozen=True)
class KeyValue:
    """One ``Key: value`` pair, with the line (plain text) and the page it stands on."""

    key: str
    value: str
    line: str
    page: int


def plain(line: str) -> str:
    """The line without Markdown markup: quote, heading and list marks, emphasis, code, links."""
    text = line[_BLOCK_MARK.match(line).end() :]  # type: ignore[union-attr]  # it matches ""
    text = _LINK.sub(r"\1", text)
    text = _CODE.sub(r"\1", text)
    for pattern in (_STRONG, _STRIKE):
        text = pattern.sub(lambda m: m.group(m.lastindex or 0), text)
    text = _EMPHASIS.sub(lambda m: m.group(1) or m.group(2), text)
    return text.rstrip("\\").strip()


def _line_pair(line: str, page: int) -> KeyValue | None:
    if "\t" in line or _HEADING.match(line):  # a table's row (the tables give it); a section's title
        return None
    text = plain(line)
    match = _KEY_VALUE.fullmatch(text)
    if not match:
        return None
    key, value = match.group("key").strip(), match.group("value").strip(" *_")
    # a key has a letter ("10:30 meeting" is a time) and is short ("Please note the following: ...")
    if not value or not any(ch.isalpha() for ch in key) or len(key.split()) > MAX_KEY_WORDS:
        return None
    return KeyValue(key, value, text, page)


# a totals line under a table, with no colon: "Gesamtbetrag brutto 7.172,73 EUR", "Total HT 17 954,00 €"
# an amount with its cents, maybe its currency: "7.172,73 EUR", "€ 1,200.00"
_AMOUNT_TEXT = r"(?:(?:EUR|USD|GBP|CHF|[€$£])\s?)?-?\d{1,3}(?:[ .,'\u202f]\d{3})*[.,]\d{2}(?:\s?(?:EUR|USD|GBP|CHF|[€$£]))?"
_AMOUNT = re.compile(_AMOUNT_TEXT)
_LABELLED_AMOUNT = re.compile(
    rf"(?P<key>[^\W\d_][^\W\d]*\.?(?:\s+(?:/\s+)?[^\W\d_][^\W\d]*\.?){{0,3}})\s+(?P<value>{_AMOUNT_TEXT})"
)


def _amount_line(line: str, page: int) -> KeyValue | None:
    """A line of a few words and one amount with its cents: the label and its value (a label in
    two languages joined by a spaced slash: "Att betala / Total EUR 3,723.80")."""
    if "\t" in line:
        return None
    text = plain(line)
    match = _LABELLED_AMOUNT.fullmatch(text)
    return KeyValue(match.group("key"), match.group("value"), text, page) if match else None


def key_value_lines(pages: list[str], tables: list[Table]) -> list[KeyValue]:
    """``Key: value`` and ``Key – value`` lines of the pages, a few words and an amount on a line of
    their own ("Gesamtbetrag brutto 7.172,73 EUR"), then the tables' two-cell rows."""
    pairs = [
        pair
        for number, page in enumerate(pages, start=1)
        for line in page.splitlines()
        for part in _SEPARATED.split(line)
        for pair in _part_pairs(part, number)
    ]
    for table in tables:
        labelled = _labelled_rows(table)
        if _totals_table(table):
            # "TOTAL HT | TOTAL TVA | TOTAL TTC" over one row of amounts: each header labels the amount under it
            pairs += [KeyValue(plain(key).rstrip(":").strip(), plain(value), "\t".join(table.rows[0]), table.page)
                      for key, value in zip(table.header, table.rows[0])]
            continue
        for row in [table.header, *table.rows]:
            cells = [plain(cell) for cell in row]
            filled = [k for k, cell in enumerate(cells) if cell]
            # a two-cell row, or a totals row under the items: a label and its value side by side
            if len(filled) == 2 and filled[1] == filled[0] + 1 and (len(cells) == 2 or _LABEL.fullmatch(cells[filled[0]])):
                key, value = cells[filled[0]], cells[filled[1]]
                pairs.append(KeyValue(key.rstrip(":").strip(), value, "\t".join(cells), table.page))
                continue
            # a letterhead read as a table, most of its rows holding a label with a colon: such a
            # label names the cell after it ("Cliente: | N.º factura: | FAC-2025-0147")
            for k in range(len(cells) - 1 if labelled else 0):
                key, value = cells[k], cells[k + 1]
                if key.endswith(":") and len(key) > 1 and value and not value.endswith(":"):
                    pairs.append(KeyValue(key.rstrip(":").strip(), value, "\t".join(cells), table.page))
    return pairs


def _totals_table(table: Table) -> bool:
    """Whether a table is labels over one row of amounts ("TOTAL HT | TOTAL TVA | TOTAL TTC" over
    "100,00 | 10,00 | 110,00"): every header cell a label, every cell under it an amount."""
    if len(table.rows) != 1 or len(table.header) < 2 or len(table.rows[0]) != len(table.header):
        return False
    return all(_LABEL.fullmatch(plain(h)) for h in table.header) and all(_AMOUNT.fullmatch(plain(c)) for c in table.rows[0]) \
        and any(_TOTAL_LABEL.search(plain(h)) for h in table.header)  # a line item's price and amount are no totals


# the words of a total or a tax in a label: "TOTAL HT", "Gesamtbetrag", "Montant TVA"
_TOTAL_LABEL = re.compile(r"total|summe|gesamt|somme|ttc|\bht\b|tva|vat|tax|mwst|ust|brutto|netto|\bnet\b|\bgross\b", re.IGNORECASE)



def _labelled_rows(table: Table) -> bool:
    """Whether two rows or more of a table, and half of them at least, hold a cell ending in a
    colon: a block of labelled values set in columns, not a table with a header."""
    rows = [table.header, *table.rows]
    with_label = sum(1 for row in rows if any(len(cell.strip()) > 1 and cell.strip().endswith(":") for cell in row))
    return with_label >= 2 and 2 * with_label >= len(rows)


def _part_pairs(part: str, page: int) -> list[KeyValue]:
    """The pairs of one part of a line: its label and value, and a document's kind with its
    number written after a dash ("Nordwerk GmbH – Rechnung RE-2025-0588")."""
    found = [pair] if (pair := _line_pair(part, page) or _amount_line(part, page)) is not None else []
    if found and (second := _SECOND_AMOUNT.fullmatch(found[0].value)) is not None \
            and _LABELLED_AMOUNT.fullmatch(second.group("rest")) is not None and not _CURRENCY.match(second.group("rest")):
        # "Date d'échéance : 30/01/2019 NET A PAYER 100,00 EUR": a second label and its amount after
        # the first value, set apart on the page by space the text layer does not keep
        first, rest = found[0], second.group("rest")
        found = [KeyValue(first.key, second.group("first"), first.line, page), *filter(None, [_amount_line(rest, page)])]
    if "\t" not in part:
        text = plain(part)
        for piece in _DASHED.split(text):
            if (named := _NUMBERED.fullmatch(piece.strip())) is not None and not any(p.value == named.group("value") for p in found):
                found.append(KeyValue(named.group("key"), named.group("value"), text, page))
    return found


# a date or an identifier, then words and an amount: the value and a labelled amount after it
# ("30/01/2019 NET A PAYER 100,00 EUR"); an amount or a count first ("1.200,00 EUR inkl. …", "30 days net …") is none
_SECOND_AMOUNT = re.compile(r"(?P<first>\d{1,4}[./-]\d{1,2}[./-]\d{1,4}|[A-Z][A-Z0-9-]*\d[A-Z0-9-]*)\s+(?P<rest>[^\W\d_].*)")
_CURRENCY = re.compile(r"(?:EUR|USD|GBP|CHF|PLN)\b")
# a spaced dash between the parts of a line
_DASHED = re.compile(r"\s[–—-]\s")
# a word (or three) and an identifier after it: "Rechnung RE-2025-0588", "Invoice INV-2025-0142",
# "Order no. SO-21", "FAKTURA VAT nr FV/0312/2025"
_NUMBERED = re.compile(
    r"(?P<key>[^\W\d_]{3,}(?:\s+[^\W\d_]{2,}){0,2}?(?:\s+(?:no\.?|nr\.?|n°|#))?)\s+(?P<value>[A-Z]{1,6}[-/]?\d[\w/.-]*\d)"
)
# several labelled values on one line, set apart by a middle dot or a bar: "Datum: 1.2.2025 · Kunde: X"
_SEPARATED = re.compile(r"\s+[·|]\s+")
# a label of a totals row: words, maybe a rate ("USt. 19 %") or a note in brackets ("Total due (PLN)"), no amount
_LABEL = re.compile(r"[^\W\d_][\w.\-/]*(?:\s+[\w.%\-/()]+){0,4}")


def labels(pages: list[str], tables: list[Table]) -> list[str]:
    """The distinct keys (compared without case) in page order, first spelling kept.

    A key without a letter (a year or a number in a two-cell row) labels nothing.
    """
    seen: set[str] = set()
    out: list[str] = []
    for pair in sorted(key_value_lines(pages, tables), key=lambda p: p.page):
        folded = pair.key.casefold()
        if folded and folded not in seen and any(ch.isalpha() for ch in pair.key):
            seen.add(folded)
            out.append(pair.key)
    return out
