"""What a request asks of a whole document, read without a model: the terms it must name (an
owner, a month it is dated in, a code), the kind it must call itself, and the terms that a
document holds as cells of one column instead, which become conditions on that column
("every order from Stadtwerke Kiel" over an order list whose Customer column holds it)."""

from __future__ import annotations

import re
from collections.abc import Callable

from core.reading import Condition, DocumentText, Reading, Table
from tools.engines.accounting import fold, is_grammar
from tools.engines.columns import match_column
from tools.engines.document_kinds import kind_of
from tools.engines.months import month_of
from tools.engines.numbers import month_of_cell, parse_number, period_range
from tools.engines.offline import grammar as g
from tools.engines.offline.grammar import YEAR
from tools.engines.offline.document_names import YEAR_SPAN, meets_document_conditions, name_words, text_outside_tables
from tools.parsing.text import CAPTION, named_as_table


def kind_notes(document: DocumentText, reading: Reading) -> list[str]:
    """Why a document's rows are unsure when it does not call itself what the request asked for
    ("facture" over a purchase order): a word of the kind asked for stands nowhere in its path, its
    title or its text outside its tables."""
    missing = kind_notes_missing(document, reading)
    return [f"the document does not call itself {' '.join(repr(k) for k in missing)}"] if missing else []


def kind_notes_missing(document: DocumentText, reading: Reading) -> list[str]:
    """The words of the kind asked for that the document's path, title and text outside its
    tables do not hold."""
    if not reading.document_kinds:
        return []
    outside = text_outside_tables(document)
    own = " ".join([document.path, document.title, outside])
    sheet = document.path.casefold().endswith(g.SHEET_SUFFIXES)  # a workbook is one by its format
    # a name of the kind in another language counts where the document names itself, in its path,
    # its title or a line that gives its number (a "FACTURA" is an invoice, so is "Rechnung
    # R0005532486"), not anywhere in its text (an order asks for "invoices")
    itself = " ".join([document.path, document.title, *_numbered_kinds(outside)])
    named = kinds_not_in(itself, reading.document_kinds, translated=True)
    return [k for k in kinds_not_in(own, reading.document_kinds) if k in named and not (sheet and k.casefold() in g.SHEET_NOUNS)]


def _numbered_kinds(text: str) -> list[str]:
    """The kind the first line opening with a kind's name names, when the line holds nothing but
    that name and one document's number ("Rechnung R0005532486", "FACTURE N° F20180027"): the
    document naming itself. A line saying more ("Rechnung R0005532486 vom 19.01.2016 ist offen",
    a reminder's) or after another kind's ("Gutschrift G-2016-11" over "Rechnung Nr. …") names
    another document."""
    for line in text.splitlines():
        words = line.split()
        if not words or kind_of(fold(words[0])) is None:
            continue  # the first line that opens with a kind's name is the one that may name the document
        if len(words) in (2, 3) and (len(words) == 2 or words[1].casefold() in g.NUMBER_SIGNS) \
                and g.identifies_document(words[0], words[-1]):
            return [words[0]]
        return []
    return []


def kinds_not_in(text: str, kinds: list[str], *, translated: bool = False) -> list[str]:
    """The words of the kind asked for that a text (a document's own words, a table's title) does
    not hold, compared folded; ``translated``: a name of the same kind in another language holds
    it too ("Factura" holds "invoice")."""
    words = {fold(w) for w in name_words(text)}
    named = {kind_of(w) for w in words} - {None} if translated else set()
    return [kind for kind in kinds if fold(kind) not in words and kind_of(kind) not in named]


def titled_as_asked(tables: list[Table], reading: Reading) -> list[Table]:
    """The tables whose title holds every word of the kind the request asks for, when some but
    not all titled tables do: "the table on literacy of adult women" is Table 7 ("… LITERACY
    STATUS OF ADULT WOMEN"), not Table 6 of the male heads on the same page. [] when no table's
    title or every one tells them apart."""
    titled = [t for t in tables if t.title]
    # "Table 5 of the Comenius survey": the table whose caption gives it that number
    numbers = {m.group(1).casefold() for m in CAPTION.finditer(reading.request)}
    captioned = [t for t in titled if numbers & {m.group(1).casefold() for line in t.title if (m := CAPTION.match(line.strip()))}]
    if captioned:
        return captioned
    # "the Show Details table": the tables whose title holds the name the request gives a table
    names = [_folded_words(n) for n in reading.document_conditions if named_as_table(reading.request, n)]
    entitled = [t for t in titled if any(n and n in _folded_words(" ".join(t.title)) for n in names)]
    # "which monthly expenses are more than $100?": of those, the tables titled by the things
    # asked which of ("MONTHLY EXPENSES", not "MONTHLY INCOME" above it)
    subject = _folded_words(reading.subject or "")
    about = [t for t in entitled or titled if subject.strip() and subject in _folded_words(" ".join(t.title))]
    if 0 < len(about) < len(entitled or titled):
        return about
    if entitled:
        return entitled
    spelled = [(len(words.split()), t) for t in titled if (words := spelled_title(t, reading))]
    most = max((n for n, _ in spelled), default=0)  # "heavy metals" is the "Heavy metals" table, not the "Metals" one
    spelled_most = [t for n, t in spelled if n == most]
    if 0 < len(spelled_most) < len(titled):
        return spelled_most
    if not reading.document_kinds:
        return []
    named = [t for t in titled if not kinds_not_in(" ".join(t.title), reading.document_kinds)]
    return named if 0 < len(named) < len(titled) else []


def kind_tables(document: DocumentText) -> list[Table]:
    """The document's tables with only their columns of kinds named (``_category_columns``): what
    ``rows_of_a_kind``, ``named_in_rows`` and ``terms_in_columns`` look for kinds in."""
    return [_kinds_only(table) for table in document.tables]


def rows_of_a_kind(kinds: list[Table], reading: Reading) -> bool:
    """Whether a term the documents must name is a kind some rows of this document are of
    ("every Active contract" over a Status column), which picks rows though a legend outside the
    table names it too ("Status values: Active, Expired, …")."""
    return any(_some_rows_of(kinds, term) for term in reading.document_conditions)


def named_in_rows(document: DocumentText, reading: Reading, kinds: list[Table]) -> Reading | None:
    """"Every order from Stadtwerke Kiel" over an order list whose Customer column holds it: a
    name the document holds only as whole cells of one column of its tables, maybe with its
    legal form after it ("Lindqvist Retail AB"), is a condition on that column; None otherwise
    (a reseller's item "Nordwerk USB-C dock" names no owner). A month is such a condition only
    on a document that calls itself a kind the request asks for, or where it asks for none: "the
    May 2025 travel expense report" is no maintenance log with May dates, "every order from May"
    is the order list's May orders. A name the document's text sets on a line of its own (a
    heading: "BRAZIL" over a crop table whose last row is Brazil's) is what the document is about,
    met there."""
    own_lines = {fold(line) for line in text_outside_tables(document).splitlines() if line.strip()}
    outside = [t for t in reading.document_conditions if meets_document_conditions(document, [t])
               and (not _some_rows_of(kinds, t) or fold(t) in own_lines)]
    named: list[Condition] = []
    folded_years: set[str] = set()
    pending = [t for t in reading.document_conditions if t not in outside]
    if pending and all(month_of(t) is not None for t in pending) and reading.document_kinds \
            and len(kind_notes_missing(document, reading)) == len(reading.document_kinds):
        return None
    for term in sorted(pending, key=lambda t: month_of(t) is None):  # a month first: it takes its year along
        if term in folded_years:
            continue
        placed = column_of(document, term)
        if placed is None and _in_columns(document, term) > 1:
            # "the localities of Aguascalientes" over a state and a municipality both named so:
            # the rows that name it, in whichever column
            named.append(Condition(column=None, op="contains", value=term, text=f"the row names {term}"))
            continue
        if placed is None and (opening := _opening_every_cell(document, term)) is not None:
            # "the LILYS chocolate listing": the name every item of one column opens with
            named.append(Condition(column=opening, op="starts", value=term, text=f"{opening} starts with {term}"))
            continue
        if placed is None:
            return None  # in no column, or written two ways: no condition Kea can check alike
        column, name = placed
        if month_of(term) is not None:
            years = {p.value for p in reading.places if p.kind == "year"} | {t for t in reading.document_conditions if YEAR.fullmatch(t)}
            value = f"{term} {next(iter(years))}" if len(years) == 1 else term  # "March 2024", never March of any year
            folded_years |= years if len(years) == 1 else set()
            named.append(Condition(column=column, op="equals", value=value, text=f"{column} is in {value}"))
        elif column in year_columns(document.tables):
            # "for 2005 through 2009" over a Year column: the years from the first to the last
            first, _, last = term.partition("-")
            if last:
                named += [Condition(column=column, op="ge", value=first, text=f"{column} from {first} to {last}"),
                          Condition(column=column, op="le", value=last, text=f"{column} from {first} to {last}")]
            else:
                named.append(Condition(column=column, op="equals", value=first, text=f"{column} is {first}"))
        elif period_range(term) is not None:  # "in Q1 2025", "during 2021"
            named.append(Condition(column=column, op="equals", value=term, text=f"{column} is in {term}"))
        else:
            named.append(Condition(column=column, op="equals", value=name, text=f"{column} is {name}"))
    # "the Gdynia region": a kind word naming the column the name stands in says that column
    columns = {fold(w) for c in named for w in name_words(c.column or "")}
    kinds = [k for k in reading.document_kinds if fold(k) not in columns]
    return reading.model_copy(update={"document_conditions": outside, "conditions": [*reading.conditions, *named], "document_kinds": kinds})


def column_of(document: DocumentText, term: str) -> tuple[str, str] | None:
    """The column of the document's tables a term the document must name stands in, and the
    term as written there: a month or a period ("March", "Q1 2025", "2021": "which customers
    signed up during 2021" over a list whose one date column says when) the one column of dates
    or months; a name the one column holding it as whole cells ("Lindqvist Retail AB"); None when
    no column, or more than one, holds it."""
    years = YEAR_SPAN.fullmatch(term) is not None or YEAR.fullmatch(term) is not None
    if month_of(term) is not None or period_range(term) is not None or years:
        dated = {column for column, _ in cells_where(document.tables, lambda cell: month_of_cell(cell) is not None)}
        if not dated and years:
            dated = year_columns(document.tables)  # "2005-2009" over a table with a column of years
        return (next(iter(dated)), term) if len(dated) == 1 else None
    cells = cells_where(document.tables, lambda cell: _names(cell, term))
    return next(iter(cells)) if len(cells) == 1 else None


def _opening_every_cell(document: DocumentText, term: str) -> str | None:
    """The one named column of the document's tables whose every filled cell, two at least, opens
    with a name ("LILYS 40% SLTD ALMND CHOC", "LILYS DRK CHC CRMLZD SLTD", …): a listing of that
    name's items. None when no column, or more than one, does; a name some items hold ("Nordwerk
    USB-C dock" among others) is no such listing."""
    name = _folded_words(term)
    found = set()
    for table in document.tables:
        for j, header in enumerate(table.header):
            cells = [_folded_words(row[j]) for row in table.rows if j < len(row) and row[j].strip()]
            if header.strip() and len(cells) >= 2 and name.strip() and all(c.startswith(name) for c in cells):
                found.add(header)
    return next(iter(found)) if len(found) == 1 else None


def _in_columns(document: DocumentText, term: str) -> int:
    """In how many columns of the document's tables a name (no date, no period) stands as whole cells."""
    if month_of(term) is not None or period_range(term) is not None or YEAR.fullmatch(term) or YEAR_SPAN.fullmatch(term):
        return 0
    return len(cells_where(document.tables, lambda cell: _names(cell, term)))


YEARS_SHARE = 0.9  # of a column's filled cells that are years, for it to be a column of years


def year_columns(tables: list[Table]) -> set[str]:
    """The named columns whose cells are years ("Year": 1967, 1968, …), two at least."""
    found = set()
    for table in tables:
        for j, name in enumerate(table.header):
            cells = [row[j].strip() for row in table.rows if j < len(row) and row[j].strip()]
            if name.strip() and len(cells) >= 2 and sum(bool(YEAR.fullmatch(c)) for c in cells) >= YEARS_SHARE * len(cells):
                found.add(name)
    return found


def spelled_title(table: Table, reading: Reading) -> str | None:
    """"give me the whole heavy metals table" over a table titled "Heavy metals": the title's
    words ("Heavy metals") when the request's words before its word for a table, left
    unread or taken for a kind of documents, say every one of them; None otherwise."""
    before = _before_table_noun(reading.request) & {fold(w) for w in [*reading.unused, *reading.document_kinds]}
    words = [w for w in name_words(" ".join(table.title)) if not is_grammar(w)]
    return " ".join(words) if words and {fold(w) for w in words} <= before else None


def _before_table_noun(request: str) -> set[str]:
    """The words (folded) a request sets right before its word for a table, back to the last mark
    before them ("heavy", "metals" and "whole" of "– give me the whole heavy metals table:")."""
    found: set[str] = set()
    for match in _BEFORE_TABLE.finditer(request):
        found |= {fold(w) for w in name_words(match.group(1))}
    return found


def _folded_words(text: str) -> str:
    """A text's words folded, one space apart, with spaces at both ends: a phrase in it is found
    whole ("show details" in "(runtime: 116 min); premium experience show details")."""
    return " " + " ".join(fold(w) for w in name_words(text)) + " "


def terms_in_columns(kinds: list[Table], reading: Reading) -> Reading:
    """"Every hardware position" over invoices whose Warengruppe column says "Hardware": a word
    that picks the rows and that one column of the document's tables holds as whole cells of a
    few kinds is a condition on that column, checked like any other; so is each such word within
    a longer phrase ("which taxi rides were claimed" over a Category column of "Taxi"; the rest of
    the phrase stays unjudged), and several words on one column are alternatives ("the fuel and
    travel items"). A word no column holds stays unjudged; a kind a negation stands shortly
    before is turned down ("every payment that was not for meals")."""
    terms, unused, document_kinds = [], list(reading.unused), list(reading.document_kinds)
    values: dict[tuple[str, bool], list[str]] = {}  # (column, negated): the kinds named
    for term in [*reading.row_terms, *reading.unused, *reading.document_kinds]:
        whole = _kind_of(kinds, term)
        picked = [whole] if whole else []
        if whole is None and len(term.split()) > 1:
            picked = [found for word in re.findall(r"[^\W\d_][\w'’-]*", term)
                      if not is_grammar(word) and fold(word) not in _ROW_NOUNS and (found := _kind_of(kinds, word))]
        for column, value, _ in picked:
            key = (column, _negated(reading.request, value))
            if fold(value) not in {fold(v) for v in values.get(key, [])}:
                values.setdefault(key, []).append(value)
        if whole is not None and term in unused:
            unused.remove(term)  # "every labour line": the word the reading left is this column's kind
        elif whole is not None and term in document_kinds:
            document_kinds.remove(term)  # "the active supply agreements": kinds of rows, not of documents
        elif term in reading.row_terms and whole is None:
            terms.append(term)  # the phrase's other words stay unjudged
    for column, value, words in _kinds_written(kinds, reading, [*terms, *unused, *document_kinds]):
        # "the active supply agreements" over a Type column of "Supply agreement": a kind of
        # several words the request writes out, its words left by the reading
        key = (column, _negated(reading.request, value))
        if fold(value) not in {fold(v) for v in values.get(key, [])}:
            values.setdefault(key, []).append(value)
        unused = [w for w in unused if fold(w) not in words]
        document_kinds = [w for w in document_kinds if fold(w) not in words]
    conditions = [
        Condition(column=column, op="not" if negated else "equals", value=" or ".join(found),
                  text=f"{column} is {'not ' if negated else ''}{' or '.join(found)}")
        for (column, negated), found in values.items()
    ]
    if not conditions:
        return reading
    return reading.model_copy(update={"row_terms": terms, "unused": unused, "document_kinds": document_kinds,
                                      "conditions": [*reading.conditions, *conditions]})


def words_in_cells(document: DocumentText, reading: Reading) -> Reading | None:
    """The reading with a condition that a single word it left (unused, or a kind the document
    does not call itself) picks rows by (``_named_in_cells``): "which sensors and displays did we
    buy" over "Drucksensor …" and "OLED-Display …". The word becomes a row term: the rows are
    picked by a word their cells hold, whether each is what was meant stays unjudged. A phrase
    the reading kept whole stays whole. The value of an equality on a name no header of the scope
    or table of the document has ("which contracts are still ongoing" over a Remarks column of
    "Project ongoing") is such a word too: its condition gives way to the one its word picks. None when no word
    picks rows."""
    unplaced = [c for c in reading.conditions
                if c.op == "equals" and c.column and not c.scope_column and not _has_column(document, c.column)]
    if (whole := _held_whole(document, unplaced)) is not None:
        condition, column = whole
        said = f"{column} is {condition.value} ({condition.column.lower()})"
        return reading.model_copy(update={"conditions": [
            *(c for c in reading.conditions if c is not condition),
            Condition(column=column, op="equals", value=condition.value, text=said)]})
    named = _named_in_cells(document, [*reading.unused, *reading.document_kinds, *(c.value for c in unplaced)], reading.request)
    if named is None:
        return None
    column, found = named
    words = {fold(w) for w in found.values()}
    values = " or ".join(dict.fromkeys(found.values()))
    placed = [c for c in unplaced if any(fold(w) in words for w in _WORD.findall(c.value))]
    return reading.model_copy(update={
        "row_terms": [*reading.row_terms, *(t for t in found if t not in reading.row_terms)],
        "unused": [w for w in reading.unused if fold(w) not in words],
        "document_kinds": [w for w in reading.document_kinds if fold(w) not in words],
        "conditions": [*(c for c in reading.conditions if c not in placed),
                       Condition(column=column, op="contains", value=values, text=f"{column} names {values}")],
    })


def _held_whole(document: DocumentText, unplaced: list[Condition]) -> tuple[Condition, str] | None:
    """"Service history for van GD 4K221" over a log whose "REG. NO." column holds "GD 4K221":
    an equality on a name no table has, whose whole value the cells of one column of the
    document's tables hold on some of its rows and not all. (the condition, that column); None
    when no column, or several, hold it."""
    for condition in unplaced:
        if parse_number(condition.value) is not None:
            continue  # "priority 5": a figure is in many columns by chance, no name of a thing
        wanted = " ".join(condition.value.split()).casefold()
        holders: set[str] = set()
        for table in document.tables:
            for j, name in enumerate(table.header):
                cells = [" ".join(row[j].split()).casefold() for row in table.rows if j < len(row) and row[j].strip()]
                if name.strip() and 0 < sum(cell == wanted for cell in cells) < len(cells):
                    holders.add(name)
        if len(holders) == 1:
            return condition, holders.pop()
    return None


def has_column(table: Table, column: str) -> bool:
    """Whether the table has the column: its header names it (its title may say the unit)."""
    return match_column(column, table.header, " ".join(table.title)) is not None


def _has_column(document: DocumentText, column: str) -> bool:
    return any(has_column(t, column) for t in document.tables)


MIN_HEAD = 5  # letters a word needs to be found as the end of a compound ("Drucksensor" holds "sensor")


def _named_in_cells(document: DocumentText, left: list[str], request: str = "") -> tuple[str, dict[str, str]] | None:
    """"Which sensors and displays did we buy": single words the reading left (no column, no
    owner, or a kind the document does not call itself) that one text column of
    the document's tables holds within its cells ("OLED-Display 2,9\"", "Drucksensor 0–10 bar"),
    on some of its rows and not all, pick those rows. (column, {request word: the word as the
    condition compares it}); None when no word, or words in different columns, are found. A kind
    the document calls itself ("invoice" on an invoice) is not a word that picks rows, unless the
    request sets it before a word for rows ("the corn lines" of a crop report that speaks of corn)."""
    own = " ".join([document.path, document.title, text_outside_tables(document)])
    candidates = [w for term in left for w in _WORD.findall(term)
                  if len(w) >= 4 and not is_grammar(w) and fold(w) not in _ROW_NOUNS and not w[0].isdigit()]
    self_named = {fold(w) for w in name_words(own)}
    found: dict[str, str] = {}
    columns: set[str] = set()
    for word in candidates:
        wanted = fold(word)
        if wanted in self_named and not _before_row_noun(request, word) or _after_words(request, word, g.INCLUSIONS):
            continue  # "Include the pooled row" adds a row, it picks none
        holders = _columns_naming(document.tables, wanted)
        if len(holders) == 1:
            columns |= holders
            found[word] = wanted
    return (next(iter(columns)), found) if found and len(columns) == 1 else None


def _columns_naming(tables: list[Table], wanted: str) -> set[str]:
    """The named text columns whose cells hold ``wanted`` as a word or as the end of a compound,
    on some rows of a table and not on all of them."""
    holders: set[str] = set()
    for table in tables:
        for j, name in enumerate(table.header):
            cells = [" ".join(row[j].split()) for row in table.rows if j < len(row) and row[j].strip()]
            if not name.strip() or len(cells) < 2 or all(parse_number(c) is not None for c in cells):
                continue
            hits = sum(1 for c in cells if _holds_word(c, wanted))
            if 0 < hits < len(cells):
                holders.add(name)
    return holders


def _holds_word(cell: str, wanted: str) -> bool:
    return any(fold(w) == wanted or len(wanted) >= MIN_HEAD and fold(w).endswith(wanted)
               for w in re.findall(r"[^\W\d_]+", cell))


_ROW_NOUNS = frozenset(fold(w) for w in g.ROW_NOUNS)
MAX_TITLE_WORDS = 5  # words before "table" that may name its title ("the whole heavy metals table")
_BEFORE_TABLE = re.compile(
    rf"((?:[^\W\d_][\w'’-]*\s+){{1,{MAX_TITLE_WORDS}}})(?:{'|'.join(map(re.escape, sorted(g.TABLE_NOUNS)))})\b", re.IGNORECASE)
_WORD = re.compile(r"[^\W_][\w'’-]*")
NEGATION_REACH = 3  # words between a negation and the kind it turns down ("not for the meals")


def _negated(request: str, value: str) -> bool:
    """Whether the request writes the kind ``value`` with a negation shortly before it."""
    return _after_words(request, value, g.NEGATIONS)


def _before_row_noun(request: str, word: str) -> bool:
    """Whether the request sets ``word`` right before a word for rows ("the corn lines")."""
    words = [fold(w) for w in _WORD.findall(request)]
    return any(a == fold(word) and b in _ROW_NOUNS for a, b in zip(words, words[1:]))


def _after_words(request: str, value: str, before: frozenset[str]) -> bool:
    """Whether the request writes ``value`` with one of the words ``before`` at most
    ``NEGATION_REACH`` words before it ("not for the meals", "Include the pooled row")."""
    words = [w.casefold() for w in _WORD.findall(request)]
    wanted = [fold(w) for w in _WORD.findall(value)]
    return any(
        [fold(w) for w in words[k : k + len(wanted)]] == wanted and any(w in before for w in words[max(0, k - NEGATION_REACH) : k])
        for k in range(len(words))
    )


def _kinds_written(tables: list[Table], reading: Reading, left: list[str]) -> list[tuple[str, str, set[str]]]:
    """(column, cell, its folded words) of each kind of several words that the request writes out
    word by word, a word of it among those the reading ``left`` ("Supply agreement" in "the active
    supply agreements", "agreements" read as the kind of documents); one column's cells only."""
    request = [fold(w) for w in _WORD.findall(reading.request)]
    free = {fold(w) for term in left for w in _WORD.findall(term)}
    found: dict[str, tuple[str, str, set[str]]] = {}
    for table in tables:
        for row in table.rows:
            for j, cell in enumerate(row):
                words = [fold(w) for w in _WORD.findall(cell)]
                if j >= len(table.header) or not table.header[j].strip() or len(words) < 2 or not set(words) & free:
                    continue
                if any(request[k : k + len(words)] == words for k in range(len(request))):
                    found.setdefault(fold(cell), (table.header[j], " ".join(cell.split()), set(words)))
    columns = {column for column, _, _ in found.values()}
    return list(found.values()) if len(columns) == 1 else []


def _some_rows_of(tables: list[Table], term: str) -> bool:
    """Whether ``term`` is a kind (``_kind_of``) that some rows of a table are of, not all."""
    found = _kind_of(tables, term)
    if found is None:
        return False
    _, _, rows = found
    return any(0 < sum(1 for t, _ in rows if t == k) < len(table.rows) for k, table in enumerate(tables))


def _kind_of(tables: list[Table], word: str) -> tuple[str, str, set[tuple[int, int]]] | None:
    """(the column, the cell as written, the (table, row) it stands on) of the kind ``word``
    names in the tables' kind columns: one column holds it, or several that pick the same rows
    ("Flights" under Grouping and "FLIGHT" under Sub-Type); None otherwise."""
    wanted = fold(word)
    rows: dict[str, set[tuple[int, int]]] = {}
    written: dict[str, str] = {}
    for t, table in enumerate(tables):
        for r, row in enumerate(table.rows):
            for j, cell in enumerate(row):
                text = " ".join(cell.split())
                if j < len(table.header) and table.header[j].strip() and text and fold(text) == wanted:
                    rows.setdefault(table.header[j], set()).add((t, r))
                    written.setdefault(table.header[j], text)
    if not rows or len({frozenset(found) for found in rows.values()}) != 1:
        return None
    column = next(iter(rows))
    return column, written[column], rows[column]


def cells_where(tables: list[Table], holds: Callable[[str], bool]) -> set[tuple[str, str]]:
    """(header, cell) of every cell under a named header of the tables that ``holds``; the
    cell's spaces folded."""
    return {
        (table.header[j], " ".join(cell.split()))
        for table in tables for row in table.rows for j, cell in enumerate(row)
        if j < len(table.header) and table.header[j].strip() and holds(" ".join(cell.split()))
    }


def _kinds_only(table: Table) -> Table:
    """The table with only its columns of kinds named (``_category_columns``), without its rows of
    a label alone: a heading over rows ("State-of-the-art scenario" over the servers' figures) is
    no kind of a row (``sections`` reads headings)."""
    kept = set(_category_columns(table))
    rows = [row for row in table.rows if len(table.header) < 3 or any(c.strip() for c in row[1:])]
    return table.model_copy(update={"header": [h if j in kept else "" for j, h in enumerate(table.header)], "rows": rows})


def _category_columns(table: Table) -> list[int]:
    """The columns of a table that sort its rows into a few kinds ("Warengruppe": Hardware,
    Software, Dienstleistung): short names, each on several rows or fewer kinds than rows."""
    found = []
    for j, name in enumerate(table.header):
        cells = [" ".join(row[j].split()) for row in table.rows if j < len(row) and row[j].strip()]
        kinds = {fold(c) for c in cells}
        if name.strip() and len(cells) >= 2 and all(len(c.split()) <= 4 and parse_number(c) is None for c in cells) \
                and len(kinds) < len(cells):
            found.append(j)
    return found


# what may follow a name in a cell that holds the name: its legal form ("AB", "GmbH", "S.A.", "& Co. KG")
_LEGAL_FORM = re.compile(rf"(?:\s+(?:&\s+)?(?:{'|'.join(g.LEGAL_FORMS)})\.?)+", re.IGNORECASE)


def _names(cell: str, term: str) -> bool:
    """Whether a cell is the name ``term``, alone, with a legal form after it or with a
    qualifier in brackets ("Supermercados Horta Sud (Alicante)")."""
    cell, wanted = " ".join(cell.split()), " ".join(term.split())
    if cell.casefold() == wanted.casefold():
        return True
    tail = cell[len(wanted):].replace(".", "")
    return cell.casefold().startswith(wanted.casefold() + " ") and (
        _LEGAL_FORM.fullmatch(tail) is not None or _BRACKETED.fullmatch(tail) is not None)


_BRACKETED = re.compile(r"\s*\([^()]+\)")
