"""The lines of a table that sum up its items rather than being one: a total line whose figures
are the sums of the rows above it, the lines under a total that label their figures as it does,
a sheet's labels set where the items have figures, and the lines a request names as totals."""

from __future__ import annotations

import re
from collections.abc import Collection

from core.reading import Reading
from tools.engines.checks import holds_words
from tools.engines.numbers import parse_number
from tools.engines.offline.grammar import PLAIN_TOTAL_WORDS, ROW_NOUNS, TOTAL_LINE, TOTAL_WORDS, YEAR

# the label of a line under the items that sums them or says what is added to them ("ALL STATES",
# "Total", "VAT")
SUMMARY_LABEL = re.compile(
    rf"^all(?=\s)|(?:^|(?<=\s))(?:{TOTAL_WORDS}|sum|netto|brutto|bruto|neto|net|gross|vat|tax|mwst|ust|btw|iva"
    r"|umsatzsteuer|rechnungsbetrag|amount due|balance due|montant|tva|합계|소계|부가세)s?\b",
    re.IGNORECASE,
)


# "Total", "Gesamt", "Totaal (4 MSs)", "Total: 12": a total of all the items alone at a label's
# start, no "Subtotal", no "Gesamtschule", no "Suma asegurada"
_PLAIN_WORD = re.compile(rf"(?:{PLAIN_TOTAL_WORDS})s?", re.IGNORECASE)
_PLAIN_TOTAL = re.compile(rf"{_PLAIN_WORD.pattern}(?=\s*(?:$|[(:\d]))", re.IGNORECASE)


def total_lines(rows: list[list[str]], columns: Collection[int], width: int, reading: Reading,
                earlier: list[list[str]] | None = None) -> set[int]:
    """The rows of a table that are its total lines, not items (``columns``: where the requested
    columns stand; ``width``: its header's cells): the row's label says a total, and
    every figure it has in the requested columns is the sum of that column over the rows above it
    ("Totals" under the states of a background-check table), those of the pages before included
    when the table goes on from them (``earlier``). A request that asks for the total line
    ("including the total line") keeps it; one that leaves it out ("not the overall total",
    "excluding the subtotals") leaves out every line whose label opens with that total, summed or not."""
    before = earlier or []
    found: set[int] = set()
    request = reading.request
    # the totals the request leaves out ("the overall total", "the SUBTOTAL lines"): a line whose
    # label opens with a total and holds the word ("Grand total" holds "total", "TOTAL BEANS" no "subtotal")
    left_out = [c.value for c in reading.conditions if c.column is None and c.op == "not" and TOTAL_LINE.fullmatch(c.value)]
    # the total of all the items, in whichever language the request and the table say it
    plain = any(_PLAIN_WORD.fullmatch(word) for word in left_out)
    for k, row in enumerate(rows):
        label = next((c.strip() for c in row if c.strip()), "")
        summary = SUMMARY_LABEL.search(label)  # "Total", "H1 total", "Grand total"
        if TOTAL_LINE.match(label) and (any(holds_words(label, word) for word in left_out) or plain and _PLAIN_TOTAL.match(label)):
            found.add(k)  # above the items or below them
            continue
        if summary is None or len(before) + k < 2:
            continue
        if re.search(rf"\b{re.escape(summary.group(0))}\w*\s+(?:{'|'.join(map(re.escape, ROW_NOUNS))})\b", request, re.IGNORECASE):
            continue
        figures = [(i, parse_number(row[i])) for i in columns if i < len(row) and parse_number(row[i]) is not None]
        sums = [_column_sum([*before, *rows[:k]], i, {len(before) + j for j in found}) for i, _ in figures]
        if figures and all(total is not None and abs(total - value) <= max(0.5, abs(value) * 1e-6)  # type: ignore[operator]
                           for (_, value), total in zip(figures, sums)):
            found.add(k)
    labelled = {k for k, row in enumerate(rows) if (filled := [c.strip() for c in row if c.strip()])
                and SUMMARY_LABEL.match(filled[0]) and len(filled) < width / 2}
    return found | _below_total(rows, found | labelled) | heading_sums(rows, columns)


HEADING_GROUPS = 2  # groups of items under lines summing them, for those lines to be no items
HEADING_START = 3  # the first heading stands among the table's first rows
HEADING_REACH = 200  # rows a heading's group may hold


def heading_sums(rows: list[list[str]], columns: Collection[int]) -> set[int]:
    """The lines above groups of items whose every figure in the requested ``columns`` is the sum
    of the items under it down to the next such line ("MINISTRY OF AGRICULTURE" over its three
    numbered demands): headings that sum their groups, no items. Seen on two groups at least, one
    right under the other from the table's first rows, that hold half the table's rows or more
    (the last group may go on over the next page), most of them two items or more (a line equal
    to the one under it sums nothing); a table with fewer is left as it is. Years are no quantity
    a line sums ("1933" over swimmers born that year)."""
    figures = [{i: parse_number(row[i]) for i in columns if i < len(row) and not YEAR.fullmatch(row[i].strip())} for row in rows]
    for start in range(min(HEADING_START, len(rows))):
        found: list[int] = []
        sizes: list[int] = []
        k = start
        while k < len(rows) and (end := _group_end(figures, k)) is not None:
            found.append(k)
            sizes.append(end - k)
            k = end + 1
        summed = sum(1 for size in sizes if size >= 2)
        if len(found) >= HEADING_GROUPS and 2 * summed >= len(found) and 2 * (k - start) >= len(rows):
            return set(found)
        if found:
            return set()
    return set()


def _group_end(figures: list[dict[int, float | None]], k: int) -> int | None:
    """The last row of the group row ``k`` sums (its figures, ``figures[k]``, equal to the sums of
    the rows under it so far, at the first row where all of them are), or None."""
    heading = {i: value for i, value in figures[k].items() if value is not None}
    if not heading or all(value == 0 for value in heading.values()):
        return None
    sums = dict.fromkeys(heading, 0.0)
    for m in range(k + 1, min(len(figures), k + 1 + HEADING_REACH)):
        for i in heading:
            sums[i] += figures[m].get(i) or 0.0
        if all(abs(sums[i] - value) <= max(0.005, abs(value) * 1e-6) for i, value in heading.items()):
            return m
    return None



def _below_total(rows: list[list[str]], totals: set[int]) -> set[int]:
    """The lines under a total line that label their figures in the column its label stands in,
    right of the items' names, and name no item ("Total", "Previously Reported", "Total
    Contribution" under a donor list): the total's summary, no item."""
    found: set[int] = set()
    for total in sorted(totals):
        at = next((j for j, cell in enumerate(rows[total]) if cell.strip()), 0)
        for k in range(total + 1, len(rows) if at else total + 1):
            first = next((j for j, cell in enumerate(rows[k]) if cell.strip()), None)
            if first != at or parse_number(rows[k][at]) is not None:
                break
            found.add(k)
    return found


def labels_among_figures(rows: list[list[str]]) -> set[int]:
    """The rows under the items that put a label where the items have figures ("Bruttobetrag"
    in the unit price column, its amount beside it): a totals line of a sheet, not an item."""
    width = max((len(row) for row in rows), default=0)
    figures = [sum(1 for row in rows if j < len(row) and parse_number(row[j]) is not None) for j in range(width)]
    filled_in = [sum(1 for row in rows if j < len(row) and row[j].strip()) for j in range(width)]
    found = set()
    for k, row in enumerate(rows):
        filled = [j for j, cell in enumerate(row) if cell.strip()]
        if len(filled) < 2 or filled[0] == 0 or len(filled) > len(row) / 2:
            continue
        first = filled[0]
        if parse_number(row[first]) is None and figures[first] > filled_in[first] / 2:
            found.add(k)
    return found


def _column_sum(rows: list[list[str]], index: int, skipped: set[int]) -> float | None:
    """The sum of a column's figures (empty cells and dashes count nothing); None when a cell is no figure."""
    total = 0.0
    for j, row in enumerate(rows):
        cell = row[index].strip() if index < len(row) and j not in skipped else ""
        if cell in ("", "-", "–", "—"):
            continue
        number = parse_number(cell)
        if number is None:
            return None
        total += number
    return total
