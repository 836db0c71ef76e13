"""Reading a request without a model: the message's structure decides, the scope grounds it.

A request is read in the order a person reads it, once each period said from today ("this
year", "last quarter") is written as the period it names (``tools.engines.relative``):

0. the scope's own names first: a run of words that equals a header or label of the scope
   ("Region and state", "Domestic (%)", "Total Costs All Funds") is one word from then on;
1. places written out — paths, globs, file names (quoted ones may hold spaces), "the X folder",
   years — become places, wherever they stand;
   a verb of ending or starting compared with a time ("contracts that expire in 2024", "run out
   before April 2026") is a condition on the end or start date, and its year is no place;
2. a calculation asked for ("What is the total of …", "Sum of the gross amount of …", "How
   many …", "Average unit price by product family …") is named, with the column it is over;
3. the columns come from the list the message gives: after "Columns:", after a colon, after
   "with"/"mit"/"give", or opening the request before "of every"/"from"/"in", or after the
   "what" of a question up to its auxiliary ("What hourly rates did we agree …"). Each list item
   stays whole ("invoice number", "number of containers", "date de fin"); "total" in a list is
   a column; the things a question asks which of ("which offense categories …", "the active
   supply agreements with their …") are the reading's subject, shown first by a table whose
   requested columns hold only figures;
4. conditions: "where/whose <column> <op> <value>", "with a <column> of more than <value>",
   "with more than 8 hours", "between X and Y", "dated after …", "that mentions X", and an
   implicit equality — a name followed by a value ("for priority 1", "of product family
   Sensors", "with rank 1"). Values keep their currency and unit;
5. the owner of the documents: "Acme's invoices", "invoices from Acme Ltd", "every Acme invoice";
6. whatever else selects rows by meaning ("every hardware position on …", "which leases allow
   subletting") is named as what the engine cannot judge — never silently dropped or kept.

The scope (its folders and its vocabulary of table headers and ``Key:`` labels) decides what
the structure leaves open: folder names in words, and whether "the Sales department" is a
condition on a column the documents have.

Each step is a pass in its own module, over one shared ``Scan`` (``scan``): ``terms`` (0),
``places`` and ``periods`` (1), ``exclusions`` (the rows the request leaves out, read before
anything can take their words for columns), ``calculations`` (2), ``columns`` and ``subjects`` (3), ``conditions``, ``comparisons``, ``presence`` and ``equalities`` (4), ``owners`` (5) and
``judgement`` (6). This module runs them in order and assembles the ``Reading``.
"""

from __future__ import annotations

import re

from core.reading import Condition, Place, Reading, ScopeHint
from tools.engines.accounting import with_accounting
from tools.engines.columns import groups_of, header_holding, match_column
from tools.engines.translation import same_name
from tools.engines.conversation import kind_of
from tools.engines.dates import years_as_dates
from tools.engines.offline import grammar as g
from tools.engines.offline.calculations import Calculations
from tools.engines.offline.columns import Columns
from tools.engines.offline.conditions import Conditions
from tools.engines.offline.exclusions import Exclusions
from tools.engines.offline.judgement import Judgement
from tools.engines.offline.owners import Owners
from tools.engines.offline.periods import Periods
from tools.engines.offline.places import Places
from tools.engines.relative import dated
from tools.engines.offline.scan import Scan
from tools.engines.offline.subjects import Subjects
from tools.engines.offline.terms import Terms
from tools.engines.offline.tokens import tokenize


def _reading(scan: Scan) -> Reading:
    """The Reading of what the passes read: columns in request order, conditions in message order."""
    columns = _unique([c for _, c in (scan.columns if scan.group_first else sorted(scan.columns))])
    conditions = [c for _, c in sorted(scan.conditions, key=lambda pair: pair[0])]
    columns_from = "request"
    if not columns:
        columns = header_holding(scan.scope.table_headers, conditions)
        columns_from = "tables" if columns else "none"
        if not columns:
            scan.notes.append(
                "No column was named and the scope shows no table header to use; name the values you want, "
                "e.g. 'with description and amount'."
            )
    conditions = [_with_requested_name(c, columns) for c in conditions]
    conditions = [c if _scope_column(c, columns, scan) else c.model_copy(update={"scope_column": False}) for c in conditions]
    places = [*(t.place for t in scan.tokens if t.place is not None), *scan.places]
    return Reading(
        request=scan.message,
        kind="table",
        columns=columns,
        columns_from=columns_from,  # type: ignore[arg-type]
        row_condition=" and ".join(c.text for c in conditions) or None,
        conditions=conditions,
        row_terms=scan.row_terms,
        subject=scan.subject if columns_from == "request" and match_column(scan.subject or "", columns) is None else None,
        document_conditions=_unique([o for _, o in sorted(scan.owners)]),
        places=list({(p.kind, p.value): p for p in places}.values()),
        calculations=scan.calculations,
        notes=scan.notes,
    )


def _unique(values: list[str]) -> list[str]:
    kept: dict[str, str] = {}
    for value in values:
        kept.setdefault(value.casefold(), value)
    return list(kept.values())




def _with_requested_name(condition: Condition, columns: list[str]) -> Condition:
    """A condition on a requested column uses the column's name as requested ("Date" -> "Order date")."""
    if not condition.column:
        return condition
    index = match_column(condition.column, columns, translate=False)
    if index is None:
        # the same name inflected otherwise ("der anderen Schätzungen", "anderer Schätzungen"); no
        # looser likeness across languages: another requested column's name is never it
        alike = [i for i, column in enumerate(columns) if same_name(condition.column, column)]
        index = alike[0] if len(alike) == 1 else None
    if index is None and (condition.column.casefold() in g.COST_VERBS or condition.column == g.MONEY_COLUMN):
        index = money_column(columns)  # "items that cost more than 20 euros": what they cost is the one price requested
    return on_column(condition, columns, index)


def money_column(columns: list[str]) -> int | None:
    """The one requested column of what a thing costs or is worth: a price or an amount, else the
    one whose name says value ("Annual Value (PLN)"); None when there is none, or several."""
    prices = [k for k, c in enumerate(columns) if groups_of(c) & _PRICES]
    if not prices:  # "contracts worth more than 100,000 PLN a year" beside "Annual Value (PLN)"
        prices = [k for k, c in enumerate(columns) if any(w in g.MONEY_NOUNS for w in re.findall(r"\w+", c.casefold()))]
    return prices[0] if len(prices) == 1 else None


def on_column(condition: Condition, columns: list[str], index: int | None) -> Condition:
    """The condition on requested column ``index``, in its requested name (unchanged for None)."""
    if index is None or columns[index] == condition.column:
        return condition
    name = columns[index]
    # the user's word stays in the condition's text: "Price above 20 (cost)", "Completion date in
    # 2025 (finished)"
    said = "" if condition.column.casefold() in name.casefold() or condition.column == g.MONEY_COLUMN else f" ({condition.column.lower()})"
    if (verb := re.search(r"\(([^()]+)\)$", condition.text or "")) is not None:
        said = f" ({verb.group(1)})"
    return condition.model_copy(update={"column": name, "text": f"{name} {g.OP_WORDS[condition.op]} {condition.value}{said}"})


def _scope_column(condition: Condition, columns: list[str], scan: Scan) -> bool:
    """Whether the condition's column is a requested one or one the scope's headers and labels
    name (a scope that shows none cannot tell: it is taken as named)."""
    scope = scan.scope
    return (not condition.column or condition.column in columns or not scope.vocabulary or scan.names_header(condition.column)
            or any(match_column(condition.column, header) is not None for header in scope.table_headers))


_PRICES = frozenset({"unit price", "amount", "gross amount", "net amount"})


def _take_places(scan: Scan) -> None:
    """Places written out, with the scope's own names read whole before folder words and years."""
    places = Places(scan)
    places.take_written()
    places.take_table_numbers()
    places.take_table_names()
    places.take_file_kinds()
    Terms(scan).take_terms()
    Periods(scan).take_periods()
    places.take_year_spans()
    places.take_folders_and_years()


def written_places(message: str, scope: ScopeHint) -> list[Place]:
    """The places a message writes out — paths, files, globs, "the X folder", years — read without a model."""
    message, _ = dated(" ".join(message.split()).rstrip(" .?!"), scope.today)
    scan = Scan(message=message, scope=scope, tokens=tokenize(message))
    _take_places(scan)
    places = [*(t.place for t in scan.tokens if t.place is not None), *scan.places]
    return list({(p.kind, p.value): p for p in places}.values())


# where a sentence of the message ends: ".", "?" or "!" before a capital ("… per acre? I need …")
_SENTENCE_END = re.compile(r"(?<=[.?!])\s+(?=[A-ZÄÖÜÉÈÀ])")


def _sentences(text: str, scope: ScopeHint) -> list[str]:
    """The message's sentences; a header of the scope with a period inside ("Serious. Categ.")
    ends none."""
    folded = text.casefold()
    kept = [(m.start(), m.end()) for term in scope.vocabulary if ". " in term
            for m in re.finditer(re.escape(" ".join(term.split()).casefold()), folded)]
    cuts = [m for m in _SENTENCE_END.finditer(text) if not any(a < m.start() < b for a, b in kept)]
    bounds = [0, *(m.start() for m in cuts), len(text)]
    return [text[a:b].strip() for a, b in zip(bounds, bounds[1:]) if text[a:b].strip()]


def _without_asker_after_dash(text: str) -> str:
    """"E-PRTR pollutants and their thresholds – give me the whole heavy metals table: …": the
    asker's words after a dash ask, as they do opening a sentence; the dash stays, setting what
    the message is about apart from the list."""
    kept, last = [], 0
    for match in g.ASKED_AFTER_DASH.finditer(text):
        opener = g.OPENERS.match(text[match.end() :])
        if opener is not None and match.end() >= last:
            kept.append(text[last : match.end()])
            last = match.end() + opener.end()
    return "".join(kept) + text[last:]


def _without_opener(sentence: str) -> str:
    """A sentence without the greeting, courtesy or asking words it opens with ("I need the
    company, …" asks for "the company, …"); a question of a calculation keeps its words."""
    opener = g.OPENERS.match(sentence)
    return sentence[opener.end() :] if opener and not g.ASKS.match(sentence) else sentence


def read_message(message: str, scope: ScopeHint) -> Reading:
    """How the offline engine understands one message (see the module docstring)."""
    text, dated_notes = dated(" ".join(message.split()), scope.today)
    kind = kind_of(text)
    if kind != "table":
        return Reading(request=message, kind=kind, columns_from="none")
    sentences = _sentences(_without_asker_after_dash(text), scope)
    bare = [_without_opener(sentence) for sentence in sentences]
    # a sentence's closing period stands apart where the next one opens in lower case once its
    # asking words are gone ("… subtotal lines. Give the offense, …")
    body = " ".join(re.sub(r"(?<=\w)\.$", " .", s) if nxt[:1].islower() else s
                    for s, nxt in zip(bare, [*bare[1:], ""])).rstrip(" .?!")
    scan = Scan(message=body, scope=scope, tokens=tokenize(body))
    scan.notes.extend(dated_notes)
    _take_places(scan)
    Exclusions(scan).take_exclusions()
    Calculations(scan).take_calculation()
    columns = Columns(scan)
    columns.take_question()
    columns.take_how_soon()
    Conditions(scan).take_conditions()
    columns.take_columns()
    subjects = Subjects(scan)
    subjects.take_row_key()
    subjects.take_subject()
    owners = Owners(scan)
    owners.take_owners()
    owners.take_parties()
    owners.take_identifiers()
    owners.take_periods()
    owners.merge_alternatives()
    Places(scan).take_folder_names()
    Judgement(scan).take_row_terms()
    reading = _reading(scan)
    return with_accounting(years_as_dates(reading.model_copy(update={"request": message}), scope), scope)
