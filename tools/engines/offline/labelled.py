"""A document's labelled values as records: its ``Key: value`` lines in blocks (a new record where
a requested key repeats), a block's one total where no label names an amount, and the supplier of
an invoice no label names read from its letterhead. Each value stands on a labelled line; what was
read in a looser way says so on the row, which is unsure."""

from __future__ import annotations

import math
import re

from core.reading import DocumentText, Reading, Record
from tools.engines.checks import check_conditions, checked
from tools.engines.columns import groups_of, map_columns, match_column, normalise
from tools.engines.offline.grammar import TOTAL_WORDS
from tools.parsing.fields import KeyValue


def enough(found: int, requested: int) -> bool:
    """A table or a key–value block is used when at least half the requested columns are in it."""
    return found >= 1 and found >= math.ceil(requested / 2)


# the label Kea gives the name of a document's issuer read from its letterhead (``with_issuer``)
ISSUER = "Supplier (letterhead)"
# letters no accent mark makes: a folder's name writes "Zulawskie" for "Żuławskie"
_PLAIN_LETTERS = str.maketrans({"ł": "l", "ø": "o", "đ": "d", "ß": "ss", "æ": "ae", "œ": "oe", "ı": "i"})
# where a letterhead's name ends: a spaced dash, a middle dot, a comma, a tab
_NAME_END = re.compile(r"\s+[—–·|-]\s+|,\s|\t")


def with_issuer(document: DocumentText, blocks: list[list[KeyValue]], columns: list[str]) -> list[list[KeyValue]]:
    """The blocks, a supplier no label names read from the letterhead: "Baltic Cold Logistics Sp.
    z o.o." opening an invoice filed under ``…/Baltic_Cold_Logistics/`` is who issued it. The
    name must stand on one of the document's first lines and open with the words of a folder the
    document is filed in; the rows say where it was read (they are unsure). Only a document of one
    block of labels: several records in one file have no one issuer."""
    wanted = [c for c in columns if "supplier" in groups_of(c)]
    if len(blocks) > 1 or not wanted or not document.pages or any(map_columns(wanted, [p.key for p in b], translate=False) for b in blocks):
        return blocks
    folders = [_plain(re.sub(r"[_.-]+", " ", part)).split() for part in document.path.split("/")[:-1]]
    folders = [words for words in folders if len(words) >= 2]
    for line in [line for line in document.pages[0].splitlines() if line.strip()][:ISSUER_LINES]:
        name = _NAME_END.split(line.strip())[0].strip()
        words = _plain(name).split()
        if any(words[: len(folder)] == folder for folder in folders):
            return [[*(blocks[0] if blocks else []), KeyValue(ISSUER, name, line.strip(), 1)]]
    return blocks


ISSUER_LINES = 3  # the letterhead's name stands on one of the document's first lines


def _plain(text: str) -> str:
    return normalise(text.casefold().translate(_PLAIN_LETTERS))


def issuer_notes(columns: list[str], pairs: dict[str, KeyValue]) -> list[str]:
    return [f"'{c}' is read from the letterhead, named as the folder the document is filed in" for c in columns
            if c in pairs and pairs[c].key == ISSUER]


def labelled_values(blocks: list[list[KeyValue]], reading: Reading, context: str = "") -> dict[str, KeyValue]:
    """Requested columns the document's labels name once and only once (its number, date, supplier)."""
    if len(blocks) != 1:
        return {}
    block = blocks[0]
    return {column: block[i] for column, i in map_columns(reading.columns, [p.key for p in block], context, translate=False).items()}



def blocks_of(pairs: list[KeyValue], columns: list[str]) -> list[list[KeyValue]]:
    """Runs of pairs, a new one wherever a key that names a requested column repeats (several
    tickets in one text file); a label the request does not ask for may stand twice in one
    record (the supplier's and the customer's "CIF" on one invoice)."""
    asked = {pair.key.casefold() for pair in pairs if match_column(pair.key, columns, translate=False) is not None}
    blocks: list[list[KeyValue]] = []
    seen: set[str] = set()
    for pair in pairs:
        key = pair.key.casefold()
        if not blocks or key in seen and key in asked:
            blocks.append([])
            seen = set()
        blocks[-1].append(pair)
        seen.add(key)
    return blocks


def _document_total(block: list[KeyValue], columns: list[str], found: dict[str, KeyValue]) -> dict[str, KeyValue]:
    """"Invoice number, date and total amount for every invoice": the amount of a record read from
    a block of the document's labels, when no label names it, is the block's total if it holds one,
    and one only ("Total due £6,860.00", "Rechnungsbetrag: 2.937,00 €"); a gross amount no label
    names is the one total of a block that states a net amount apart. The row says so (it is
    unsure)."""
    wanted = [c for c in columns if c not in found and groups_of(c) == {"amount"}]
    totals = {p.value: p for p in block if "gross amount" in groups_of(p.key)}
    if len(wanted) == 1 and len(totals) == 1:
        return {wanted[0]: next(iter(totals.values()))}
    # "Netto / Net 3,723.80" over "Att betala / Total EUR 3,723.80": the total under a net amount is the gross
    gross = [c for c in columns if c not in found and groups_of(c) == {"gross amount"}]
    net = any("net amount" in groups_of(p.key) for p in block)
    totals = {p.value: p for p in block if groups_of(p.key) == {"amount"} and _TOTAL_WORD.search(p.key)}
    return {gross[0]: next(iter(totals.values()))} if len(gross) == 1 and net and len(totals) == 1 else {}


_TOTAL_WORD = re.compile(rf"(?<!\w)(?:{TOTAL_WORDS})(?!\w)", re.IGNORECASE)


def records_from_key_values(blocks: list[list[KeyValue]], reading: Reading, context: str = "") -> list[Record]:
    """A record from each block of ``Key: value`` pairs (``_blocks``) that holds the requested columns.

    Every literal condition's column must be among the block's keys (else the block is about
    something else); at least half the requested columns must be found. A requested column
    not found stays empty and makes the record unsure.
    """
    records = []
    for block in blocks:
        record = _block_record(block, reading, context)
        if record is not None:
            records.append(record)
    return records


def _block_record(block: list[KeyValue], reading: Reading, context: str = "") -> Record | None:
    keys = [p.key for p in block]
    found = {column: block[i] for column, i in map_columns(reading.columns, keys, context, translate=False).items()}
    total = _document_total(block, reading.columns, found)
    found.update(total)
    if not enough(len(found), len(reading.columns)):
        return None
    condition_pairs: dict[str, KeyValue | None] = {}
    for condition in reading.conditions:
        if condition.op == "judgement" or not condition.column:
            continue
        pair = found.get(condition.column)
        if pair is None:
            index = match_column(condition.column, keys, translate=False)
            if index is None:
                return None
            pair = block[index]
        condition_pairs[condition.column] = pair

    def cell_of(column: str) -> str | bool | None:
        if not column:
            return " ".join(p.line for p in block)
        pair = condition_pairs.get(column)
        return (pair.value or None) if pair else True  # no label for it: not known

    keep, notes = check_conditions(reading.conditions, cell_of)
    if not keep:
        return None
    notes += [f"no value for '{c}'" for c in reading.columns if c not in found]
    notes += [f"'{c}' is read from '{pair.key}', the document's total" for c, pair in total.items()]
    notes += issuer_notes(reading.columns, found)
    used = [found[c] for c in reading.columns if c in found]
    lines = list(dict.fromkeys(p.line for p in used))
    return checked(
        Record(
            values={c: found[c].value if c in found else None for c in reading.columns},
            page=used[0].page,
            evidence="\n".join(lines),
        ),
        notes,
    )
