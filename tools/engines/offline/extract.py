"""Extracting one document without a model: requested columns mapped onto headers and labels.

A table gives a record per row when enough of the requested columns map onto its header; a
document without such a table gives a record per block of ``Key: value`` lines (a new record
starts where a key repeats). A column takes a value only from a header or label that means the
same thing (``columns.map_columns``); anything the engine could not place or check leaves the
cell empty and the row unsure, with the reason. Evidence is the line each row came from.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass, field, replace

from core.reading import Condition, DocumentText, Reading, Record, Table
from tools.engines.accounting import fold
from tools.engines.checks import check_conditions, checked, judgement_notes
from tools.engines.columns import groups_of, map_columns, match_column, normalise, partly_named, read_in_translation, unit_unsaid
from tools.engines.numbers import has_currency, month_of_cell, parse_number
from tools.engines.offline.document_names import apart_notes, meets_document_conditions
from tools.engines.offline.document_terms import (
    cells_where,
    has_column,
    kind_notes,
    kind_notes_missing,
    kind_tables,
    named_in_rows,
    rows_of_a_kind,
    spelled_title,
    terms_in_columns,
    words_in_cells,
    titled_as_asked,
)
from tools.engines.offline.grammar import ROW_NOUNS, YEAR
from tools.engines.offline.labelled import blocks_of, enough, issuer_notes, labelled_values, records_from_key_values, with_issuer
from tools.engines.offline.request import money_column, on_column
from tools.engines.offline.partial_columns import partly_named_columns
from tools.engines.offline.row_labels import cell_at, labels_column, told_apart, with_subject
from tools.engines.offline.sections import judged_by_section, picked_section, section_note, sectioned
from tools.engines.offline.totals import SUMMARY_LABEL, labels_among_figures, total_lines
from tools.parsing.fields import KeyValue, key_value_lines
from tools.parsing.text import named_as_table


def extract_records(document: DocumentText, reading: Reading) -> list[Record]:
    """The records of one document for a reading; [] when the document does not qualify."""
    if reading.kind != "table" or not reading.columns:
        return []
    kinds = kind_tables(document)
    if not meets_document_conditions(document, reading.document_conditions) or rows_of_a_kind(kinds, reading):
        in_rows = named_in_rows(document, reading, kinds)
        if in_rows is None and not (meets_document_conditions(document, reading.document_conditions, loose=True)
                                    and not rows_of_a_kind(kinds, reading)):
            return []
        reading = in_rows or reading  # else its name's words stand apart in its text: its rows are unsure
    blocks = with_issuer(document, blocks_of(key_value_lines(document.pages, document.tables), reading.columns), reading.columns)
    reading = terms_in_columns(kinds, reading)
    records, table_columns, by_heading = records_from_tables(document, reading, blocks)
    reading, records, table_columns, picked_note = _picked_by_words(document, reading, blocks, records, table_columns, by_heading)
    labelled = max((len(map_columns(reading.columns, [p.key for p in b], translate=False)) for b in blocks), default=0)
    if not records and not table_columns or labelled > table_columns:
        # the document's labels hold more of the request than any table: one record per block
        records = records_from_key_values(blocks, reading, about(document))
        if of_another_kind(document, reading):  # labels of a document of another kind: all of them, or none
            records = [r for r in records if not lacks(reading.columns, {c for c, v in r.values.items() if v is not None})]
    named_apart = apart_notes(document, reading.document_conditions)
    doubts = kind_notes(document, reading) + named_apart + picked_note
    # a row picked by the heading of the kind asked for ("in the state-of-the-art scenario")
    # is of that kind, though the document does not call itself so
    headed = {fold(w) for phrase in by_heading for w in phrase.split()}
    under_heading = kind_notes(document, reading.model_copy(
        update={"document_kinds": [w for w in reading.document_kinds if fold(w) not in headed]})) + named_apart + picked_note
    if reading.columns_from == "tables":
        doubts.append("the request names no column: these are the columns of a table of the documents it names, or of the scope's most common one")
    # rows a table gave their subject are told apart by it; the others by the requested columns
    labelled = [bool(reading.subject and r.values.get(reading.subject)) for r in records]
    apart = [] if told_apart([r for r, known in zip(records, labelled) if not known], reading.columns) else [
        f"no requested column says which row is which ({', '.join(reading.columns)} hold only figures)"]
    return [
        checked(r, _judgement(reading, r, by_heading) + (under_heading if any(judged_by_section(r.note, p) for p in by_heading) else doubts)
                + ([] if known else apart))
        for r, known in zip(records, labelled)
    ]


def _judgement(reading: Reading, record: Record, by_heading: set[str] = frozenset()) -> list[str]:
    """What only meaning can judge of a row: the reading's terms, but one a section heading
    picked the row by (``picked_section``), and the words left unread that the heading's phrase
    holds ("ended", "December" of "the year ended December 31, 2021")."""
    judged = [t for t in reading.row_terms if judged_by_section(record.note, t)]
    headed = {fold(w) for p in by_heading if judged_by_section(record.note, p) for w in re.findall(r"[\w'-]+", p)}
    if not judged and not headed:
        return judgement_notes(reading)
    return judgement_notes(reading.model_copy(update={"row_terms": [t for t in reading.row_terms if t not in judged],
                                                      "unused": [w for w in reading.unused if fold(w) not in headed]}))


def _picked_by_words(
    document: DocumentText, reading: Reading, blocks: list[list[KeyValue]], records: list[Record], table_columns: int,
    by_heading: set[str],
) -> tuple[Reading, list[Record], int, list[str]]:
    """The rows a word left over picks among those of the tables that hold the request
    (``words_in_cells``), the reading that says so, and the note that counts the rows left out:
    said on every row kept, never silently gone. A word never makes another table hold the
    request; one every row holds, or none, picks nothing; a word of a phrase a section's heading
    picked the rows by ("the gastrointestinal disorders" under "Gastrointestinal disorders") has
    picked them already."""
    headed = {fold(w) for phrase in by_heading for w in phrase.split()}
    unpicked = reading.model_copy(update={"unused": [w for w in reading.unused if fold(w) not in headed],
                                          "document_kinds": [w for w in reading.document_kinds if fold(w) not in headed]})
    by_words = words_in_cells(document, unpicked) if records else None
    if by_words is None:
        return reading, records, table_columns, []
    kept, kept_columns, _ = records_from_tables(document, by_words, blocks)
    if not 0 < len(kept) < len(records):
        return reading, records, table_columns, []
    left, one = len(records) - len(kept), len(records) - len(kept) == 1
    picked = by_words.conditions[-1].text
    note = (f"kept because {picked}; {left} other row{'' if one else 's'} of this "
            f"document, which {'does' if one else 'do'} not, {'was' if one else 'were'} left out")
    return by_words, kept, kept_columns, [note]





def column_fit(document: DocumentText, reading: Reading) -> int:
    """How many requested columns the best table header or block of labels of the document holds
    (0 when none holds enough of them to be read from)."""
    pairs = key_value_lines(document.pages, document.tables)
    headers = [(t.header, " ".join(t.title)) for t in document.tables if not _is_key_value_table(t, reading)]
    headers += [([p.key for p in block], "") for block in blocks_of(pairs, reading.columns)]
    best = max((len(map_columns(reading.columns, h, context)) for h, context in headers), default=0)
    if of_another_kind(document, reading) and best < len(reading.columns) - sum(c.casefold() in ROW_NOUNS for c in reading.columns):
        return 0
    return best if enough(best, len(reading.columns)) else 0


def of_another_kind(document: DocumentText, reading: Reading) -> bool:
    """Whether a document calls itself none of the kinds the request asks for ("the May travel
    expense report" over a supplier's invoice): its tables must then hold every requested column
    to be read (``lacks``), some of them is not enough."""
    return bool(reading.document_kinds) and len(kind_notes_missing(document, reading)) == len(reading.document_kinds)


def lacks(columns: list[str], held: Collection[str]) -> bool:
    """Whether a requested column is not among those ``held``; "lines", "items" name the rows
    themselves ("which lines had no discount"), which no table lacks."""
    return any(c not in held and c.casefold() not in ROW_NOUNS for c in columns)


def _condition_columns(reading: Reading) -> list[str]:
    """The columns the conditions name that are not requested columns."""
    named = [c.column for c in reading.conditions if c.column and c.op != "judgement"]
    return list(dict.fromkeys(c for c in named if match_column(c, reading.columns) is None))


def _held(columns: list[str], table: Table) -> int:
    """How many of ``columns`` the table has."""
    return sum(has_column(table, c) for c in columns)


@dataclass
class _TableUse:
    """A table the request is read from: its header and where each requested column is."""

    header: list[str]
    mapping: dict[str, int]
    unnamed: str | None = None  # the requested column read from the unheaded first column
    partly: list[str] = field(default_factory=list)  # requested columns a header names only in part
    translated: list[str] = field(default_factory=list)  # columns (asked or conditions') named in another language


_ORDERS = frozenset({"lt", "le", "gt", "ge"})
_RULED_NAMES = re.compile(r"\w\s*-{3,}.*\w")  # names on several lines, a rule of dashes under each
_FIGURE_KINDS = frozenset({"amount", "quantity", "unit price", "net amount", "gross amount"})


_BRACKETED = re.compile(r"\([^()]*\)")


def _unnamed_labels(columns: list[str], table: Table, mapping: dict[str, int]) -> str | None:
    """"Give each receipts line item with its 2013 and 2017 values" over a table whose first
    column has no header and holds the lines' labels: the first requested column, when no header
    names it and it is no figure, is that column of a table that holds others of the requested
    columns. The rows say so (they are unsure)."""
    first = columns[0] if columns else None
    # a header in brackets over the labels says the unit of the figures ("($ in millions)"), no name
    if first is None or first in mapping or 0 in mapping.values() or not table.header \
            or table.header[0].strip() and not _BRACKETED.fullmatch(table.header[0].strip()):
        return None
    if not mapping:
        return None  # the table is no table of the request's other columns
    if groups_of(first) & _FIGURE_KINDS:
        return None
    cells = [row[0].strip() for row in table.rows if row and row[0].strip()]
    labels = [c for c in cells if parse_number(c) is None or month_of_cell(c) is not None]
    return first if cells and 2 * len(cells) >= len(table.rows) and 2 * len(labels) > len(cells) else None


def _is_key_value_table(table: Table, reading: Reading) -> bool:
    """A two-column table whose first column holds more of the requested names than its header
    does is a list of labels, not rows ("Year | Freshwater Ducks" over its years is a table)."""
    if len(table.header) != 2:
        return False
    labels = [row[0] for row in [table.header, *table.rows] if row]
    labelled = len(map_columns(reading.columns, labels, translate=False))
    return enough(labelled, len(reading.columns)) and labelled > len(map_columns(reading.columns, table.header))


def records_from_tables(
    document: DocumentText, reading: Reading, blocks: list[list[KeyValue]]
) -> tuple[list[Record], int, set[str]]:
    """Records from every table that holds the requested columns; how many columns the best one
    held; and the phrases of the request a section's heading picked rows by.

    A requested column no table has is taken from the document's labels when exactly one block
    of ``Key: value`` lines names it ("Order number: PO-1" above the order's lines).
    """
    records: list[Record] = []
    previous: _TableUse | None = None
    earlier: list[list[str]] = []  # the rows of the table a continued one goes on from
    used_any = 0
    by_heading: set[str] = set()
    document_values = labelled_values(blocks, reading, about(document))
    # the conditions' own columns count with the requested ones: an expense table with a date and
    # a description, asked for incidents "with severity High and status Open", is not the table
    conditioned = _condition_columns(reading)
    named = titled_as_asked(document.tables, reading)
    # "From the Big Cities table": only the table so titled, not one without a title beside it
    by_name = bool(named) and any(named_as_table(reading.request, term) for term in reading.document_conditions)
    foreign = of_another_kind(document, reading)
    # a table naming every requested column makes one naming only some of them no table of the
    # request ("Payroll Period | Add Additional" beside "Payroll Period | One Withholding Allowance")
    whole = any(len(map_columns(reading.columns, t.header, " ".join(t.title))) == len(reading.columns) for t in document.tables)
    for table in document.tables:
        if _is_key_value_table(table, reading) or named and (table.title or by_name) and table not in named:
            continue
        table = sectioned(table)  # "REGION : NORTH WEST INDIA" over its rows: a value of each
        mapping = map_columns(reading.columns, table.header, " ".join(table.title))
        unnamed = _unnamed_labels(reading.columns, table, mapping)
        if unnamed is not None:
            mapping = {**mapping, unnamed: 0}
        held = _held(conditioned, table)
        # the conditions' columns say which table, never make up for the values asked for: an
        # incident log's Priority and Vendor are no SLA's response and fix times
        own = len(mapping) + sum(1 for c in reading.columns if c not in mapping and c in document_values)
        named_whole = enough(len(mapping) + held, len(reading.columns) + len(conditioned)) and enough(own, len(reading.columns))
        partly = partly_named_columns(reading, table, mapping) if named_whole or len(reading.columns) > 1 and held == len(conditioned) else {}
        goes_on = previous is not None and len(table.header) == len(previous.header) and _reads_as_row(table.header, earlier, strict=True)
        if goes_on and not named_whole:
            # a table continued on the next page whose first row a name of it happens to match
            # ("Boeing Company" under a Company column): a row, the header the last table's
            use, rows = previous, [table.header, *table.rows]  # type: ignore[assignment]
        elif whole and len(mapping) < len(reading.columns) and not named:
            continue
        elif named_whole or len(reading.columns) > 1 and len(mapping) + len(partly) == len(reading.columns):
            # a table the request's names hold, or one that names each of several at least in part
            # (and every condition's column whole): the columns named in part are read, unsure
            # "Amount in USD" from "Amount"; "Serial number" from "TYPE ---- SERIAL NUMBER ----", a cell
            # the parser joined from lines of a record printed over two, each under its rule
            unsaid = [c for c, i in mapping.items() if unit_unsaid(c, table.header[i]) or _RULED_NAMES.search(table.header[i])]
            use, rows = _TableUse(table.header, {**mapping, **partly}, unnamed, [*partly, *unsaid]), table.rows
        elif not mapping and previous and len(table.header) == len(previous.header) and _reads_as_row(table.header, earlier):
            # A table continued on the next page without its header: the header is a row (one
            # of names where the rows before hold figures is a table's own).
            use, rows = previous, [table.header, *table.rows]
        else:
            continue
        if foreign and lacks(reading.columns, {*use.mapping, *document_values}):
            continue  # an invoice's date, description and amount are no travel expense report's lines
        continued = use is previous  # a table going on from the last one without a header of its own
        earlier = earlier if continued else []
        previous, used_any = use, max(used_any, len(use.mapping))
        asked, reread = _read_for_table(reading, use.header, rows, " ".join(table.title))
        if named and (spelled := spelled_title(table, reading)) is not None:
            # the table the request names by its title: its rows picked as a heading's are
            by_heading.add(spelled)
            reread = [*reread, f"picked as '{spelled}' by the heading '{' '.join(table.title)}' above it"]
        condition_cells = {
            c.column: match_column(c.column, use.header, " ".join(table.title))
            for c in asked.conditions if c.column and c.op != "judgement"
        }
        # "Porcentaje ponderado" over "Weighted Percent": a name read in another language
        title = " ".join(table.title)
        conditions_read = [c for c, i in condition_cells.items() if i is not None
                           and match_column(c, use.header, title, translate=False) != i]
        use = replace(use, translated=list(dict.fromkeys(
            [*(c for c in read_in_translation(list(use.mapping), use.header, title, use.mapping)
               if c not in use.partly and c != use.unnamed),
             *conditions_read])))
        sums = total_lines(rows, use.mapping.values(), len(use.header), reading, earlier) | labels_among_figures(rows)
        earlier = [*earlier, *rows]
        # "the personal habits indicators": the rows under the heading the request names, unsure
        # a column a header names whole picks no section: "State" over a State column
        unread = [c for c in reading.columns if c not in use.mapping or c in use.partly or c == use.unnamed]
        # "in the state-of-the-art scenario": a kind the document does not call itself may be
        # the heading of the rows asked for
        section = picked_section(rows, [*asked.row_terms, reading.subject or "", *unread]) \
            or picked_section(rows, [" ".join(reading.document_kinds), *_kind_spans(reading)], reading.request)
        if section is not None:
            by_heading.add(section.phrase)
            asked = asked.model_copy(update={"row_terms": [t for t in asked.row_terms if t != section.phrase]})
            reread = [*reread, section_note(section)]
            if section.phrase in reading.columns and section.phrase not in use.mapping:
                # the items of a section are the labels of the column its heading stands in
                use = replace(use, mapping={**use.mapping, section.phrase: 0}, partly=[*use.partly, section.phrase])
        records += with_subject(reading.subject, use.header, use.mapping, [
            (row, checked(r, reread)) for k, row in enumerate(rows)
            if k not in sums and (section is None or k in section.rows)
            and (r := _table_record(row, use, table, asked, condition_cells, document_values)) is not None
        ], reading.columns)
    return records, used_any, by_heading


KIND_GAP = 2  # words between two of a kind's words that still make one phrase ("impacts on participating")


def _kind_spans(reading: Reading) -> list[str]:
    """The phrases of the request that words of the kind asked for or left unread stand in, with
    the small words between them: "the impacts on participating teachers" gives "impacts on
    participating teachers"."""
    words = re.findall(r"[\w/'-]+", reading.request)
    kinds = {fold(k) for k in [*reading.document_kinds, *reading.unused]}
    at = [k for k, w in enumerate(words) if fold(w) in kinds]
    spans: list[list[int]] = []
    for k in at:
        if spans and k - spans[-1][-1] <= KIND_GAP + 1:
            spans[-1].append(k)
        else:
            spans.append([k])
    return [" ".join(words[span[0] : span[-1] + 1]) for span in spans]


def _reads_as_row(header: list[str], rows: list[list[str]], strict: bool = False) -> bool:
    """Whether a header holds a figure in a column where the rows before it mostly do (or the
    rows hold none): a row of a table going on, not the names of a table of its own. ``strict``:
    a figure, and no year, in every such column, and one such column at least."""
    numbers = [
        j for j in range(len(header))
        if (cells := [r[j] for r in rows if j < len(r) and r[j].strip()])
        and _mostly_figures(cells)
    ]
    if strict:
        return bool(numbers) and all(parse_number(header[j]) is not None and not YEAR.fullmatch(header[j].strip()) for j in numbers)
    return not numbers or any(parse_number(header[j]) is not None for j in numbers)


_NAME_WORDS = frozenset({"name", "names", "nom", "nombre", "naam", "nazwa"})  # a row's name: its label


def _read_for_table(reading: Reading, header: list[str], rows: list[list[str]], title: str) -> tuple[Reading, list[str]]:
    """The reading for one table, its conditions on a column no header names read again:
    - one whose name and value, written together, stand as whole cells of one column ("paid with
      the Citibank Senator IBA card" over a payee column of "CITIBANK - SENATOR IBA CARD"; case
      and punctuation folded) is that column equal to the cell;
    - a sum of money compared on a name no header of the scope has either ("which staff salary
      lines at the top are above $25,000") compares the one requested column of money, as "cost"
      does, when the table has it; a count so compared ("more than 50,000 enrolled"), the one
      requested column the table holds figures in.
    With the reading, what its rows say of it: the condition checked is not the one the questions
    showed, so they are unsure."""
    conditions, notes = [], []
    money = money_column(reading.columns)
    for condition in reading.conditions:
        found = None
        if condition.op == "equals" and condition.column and match_column(condition.column, header, title) is None:
            phrases = {normalise(f"{condition.column} {condition.value}"), normalise(f"{condition.value} {condition.column}")}
            cells = cells_where([Table(page=1, header=header, rows=rows)], lambda cell: normalise(cell) in phrases)
            if len(cells) == 1:
                ((column, cell),) = cells
                found = Condition(column=column, op="equals", value=cell, text=f"{column} is {cell}")
        elif condition.op in _ORDERS and condition.column and not condition.scope_column and has_currency(condition.value) \
                and money is not None and match_column(condition.column, header, title) is None \
                and match_column(reading.columns[money], header, title) is not None:
            found = on_column(condition, reading.columns, money)
        elif condition.op in _ORDERS and condition.column and not condition.scope_column and not has_currency(condition.value) \
                and parse_number(condition.value) is not None and match_column(condition.column, header, title) is None \
                and (figures := _figure_columns(reading.columns, header, rows, title)) and len(figures) == 1:
            # "which counties … have more than 50,000 enrolled? Show county, plan name and total": a
            # count compared on words no header of the scope has compares the one requested column of figures
            found = on_column(condition, reading.columns, figures[0])
        if found is None and condition.column and fold(condition.column) in _NAME_WORDS and match_column(condition.column, header, title) is None \
                and (labels := labels_column(rows)) is not None:
            # "every demand whose name mentions …": a row's name is its label
            column = " ".join(header[labels].split())
            conditions.append(condition.model_copy(update={"column": column}))
            notes.append(f"'{condition.text or condition.value}' was checked on the column '{column}', the rows' labels")
            continue
        if found is None and condition.column and condition.op != "judgement" and match_column(condition.column, header, title) is None \
                and (index := partly_named(condition.column, header, set(), reading.request)) is not None:
            # "which districts have no urban figure" beside "person total and person rural": the
            # one cell that names the column in part, the request's other words deciding ("Person Urban")
            column = " ".join(header[index].split())
            found = condition.model_copy(update={"column": column})
            notes.append(f"'{condition.text or condition.value}' was checked on the column '{column}', which names it only in part")
            conditions.append(found)
            continue
        if found is not None:
            notes.append(f"'{condition.text or condition.value}' was checked as '{found.text}'")
        conditions.append(found or condition)
    return (reading.model_copy(update={"conditions": conditions}), notes) if notes else (reading, [])


def _figure_columns(columns: list[str], header: list[str], rows: list[list[str]], title: str) -> list[int]:
    """The requested columns (by index) a header names whose cells are mostly figures."""
    found = []
    for k, column in enumerate(columns):
        index = match_column(column, header, title)
        cells = [row[index].strip() for row in rows if index is not None and index < len(row) and row[index].strip()]
        if cells and _mostly_figures(cells):
            found.append(k)
    return found


def _mostly_figures(cells: list[str]) -> bool:
    """Whether more than half of the cells are figures."""
    return 2 * sum(parse_number(c) is not None for c in cells) > len(cells)


def about(document: DocumentText) -> str:
    """What a document says it is, as the context of its labels: its title and its path's words
    ("Date" on an order confirmation in ``sales/orders/`` is the order date)."""
    return " ".join([document.title, re.sub(r"[/_.-]+", " ", document.path)])


def _table_record(
    row: list[str],
    use: _TableUse,
    table: Table,
    reading: Reading,
    condition_cells: dict[str, int | None],
    document_values: dict[str, KeyValue],
) -> Record | None:
    cells = [c.strip() for c in row]
    if not any(cells) or [c.casefold() for c in cells] == [h.strip().casefold() for h in use.header]:
        return None
    filled = [c for c in cells if c]
    if SUMMARY_LABEL.match(filled[0]) and len(filled) < len(use.header) / 2:
        return None  # a totals line below the items, not an item
    values = {c: cell_at(cells, use.mapping.get(c)) for c in reading.columns}
    if all(v is None for v in values.values()):
        return None

    def cell_of(column: str) -> str | bool | None:
        if not column:
            return " ".join(cells)
        index = use.mapping.get(column, condition_cells.get(column))
        if index is None:
            return False
        return True if index >= len(cells) else cell_at(cells, index)  # a row shorter than its header: not known

    keep, notes = check_conditions(reading.conditions, cell_of)
    if not keep:
        return None
    labelled = [c for c in reading.columns if c not in use.mapping and c in document_values and not _of_a_line(c)]
    for column in labelled:
        values[column] = document_values[column].value
    notes += issuer_notes(labelled, document_values)
    notes += [f"no '{c}' column in this table" for c in reading.columns if c not in use.mapping and c not in labelled]
    if use.unnamed is not None:
        notes.append(f"'{use.unnamed}' is read from the table's first column, which has no header")
    notes += [f"'{c}' is read from the column '{' '.join(use.header[use.mapping[c]].split())}', which names it only in part" for c in use.partly]
    notes += [f"'{c}' is read from the column '{' '.join(use.header[i].split())}', which names it in another language"
              for c in use.translated if (i := use.mapping.get(c, condition_cells.get(c))) is not None]
    mapped = [c for c in reading.columns if c in use.mapping]
    empty = [c for c in mapped if values[c] is None]
    if len(mapped) >= 2 and 2 * len(empty) > len(mapped):
        # a line of the table that is no item ("Payment terms: 30 days net …" in its first column)
        if any(c.column and c.op != "judgement" and cell_of(c.column) is None for c in reading.conditions):
            return None  # … and empty where a condition looks: nothing of it meets what was asked
        if len(filled) == 1 and _LABELLED_NOTE.match(filled[0]):
            return None  # … and one labelled note across the row ("Payment terms: 30 days net …")
        notes.append(f"most requested cells of this row are empty ({', '.join(empty)}): it may be no item of the table")
    evidence = "\n".join(["\t".join(row), *dict.fromkeys(document_values[c].line for c in labelled)])
    return checked(Record(values=values, page=table.page, evidence=evidence), notes)


# a note set as a line of a table: a label of a few words, a colon, then its text
_LABELLED_NOTE = re.compile(r"^[^\W\d_][^:\d]{1,40}:\s+\S")

# kinds of column each line of a table has its own value of: a document's label never fills them
_LINE_KINDS = frozenset({"amount", "quantity", "unit price", "description", "position", "item code", "net amount", "gross amount"})


def _of_a_line(column: str) -> bool:
    """Whether a requested column is of a kind each line has its own value of ("Amount", "Qty")."""
    return bool(groups_of(column) & _LINE_KINDS)
