"""What the passes of the offline reader share: the message's tokens, what each pass has read
so far, the scope's names, and the ways every pass looks at the tokens.

Each pass (``terms``, ``places``, ``calculations``, ``conditions``, ``columns``, ``owners``,
``judgement``) takes a ``Scan``, marks the tokens it reads as used, and adds what it read to
the scan's lists; ``request`` runs the passes in order and assembles the ``Reading``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property

from core.reading import Condition, Place, ScopeHint
from tools.engines.columns import abbreviates, folded, groups_of, is_known_column, names_of, normalise
from tools.engines.offline import grammar as g
from tools.engines.numbers import parse_date
from tools.engines.offline.folder_names import FolderNames, stem
from tools.engines.units import MEASURE_UNIT, RATE_WORDS, UNIT_PREPOSITIONS, without_unit
from tools.engines.offline.tokens import SENTENCE_END, Tok, strip_determiners, text_of

JUDGEMENT_HINT = "Configure a language model (KEA_MODEL) to filter by meaning."
DESCRIPTION = "Description"  # the column a "what it was" item of a list asks for
_BRACKET_WORDS = 4  # the words a bracket naming a printed header holds at most
_UNIT_SIGNS = frozenset("%‰€$£¥°")  # a unit a bracket may hold alone: "Weight relative to controls (%)"


@dataclass
class Scan:
    """One message being read: its tokens, and the columns, conditions, owners, calculations,
    row terms and notes read from them so far (each with the token index it was read at)."""

    message: str
    scope: ScopeHint
    tokens: list[Tok] = field(default_factory=list)
    columns: list[tuple[int, str]] = field(default_factory=list)
    places: list[Place] = field(default_factory=list)  # places a word names besides its own token's
    conditions: list[tuple[int, Condition]] = field(default_factory=list)
    owners: list[tuple[int, str]] = field(default_factory=list)
    calculations: list[str] = field(default_factory=list)
    row_terms: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    group_first: bool = False  # a calculation "by" a column: the grouping column comes first
    subject: str | None = None  # what each row is, when no requested column says it
    counted_rows: int = -1  # "How many …": the tokens before this name the rows counted, not columns
    # the scope's names, worked out once from the scope
    vocabulary: set[str] = field(init=False, repr=False)
    terms: dict[str, list[str]] = field(init=False, repr=False)
    folders: list[str] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.vocabulary = {normalise(term) for term in self.scope.vocabulary}
        self.terms = {}
        for term in self.scope.vocabulary:
            for key in dict.fromkeys([folded(term), folded(without_unit(term))]):  # "Q2 2025 (EUR)" names "Q2 2025"
                if key:
                    self.terms.setdefault(key, []).append(term)
        self.folders = [f.folder for f in self.scope.folders]

    def add_condition(self, at: int, column: str | None, op: str, value: str) -> None:
        """A condition read at token ``at``, in words the answer shows ("Total above 500")."""
        text = f"{column} {g.OP_WORDS[op]} {value}" if column else f"any value {g.OP_WORDS[op]} {value}"
        self.conditions.append((at, Condition(column=column, op=op, value=value, text=text)))  # type: ignore[arg-type]

    def say_in_last(self, words: str) -> None:
        """The last condition read, its text going on with the user's words ("Price above €100
        per piece", "Amount above $2,000 (contribution)")."""
        at, condition = self.conditions[-1]
        self.conditions[-1] = (at, condition.model_copy(update={"text": f"{condition.text} {words}"}))

    def free(self, i: int) -> bool:
        return 0 <= i < len(self.tokens) and not self.tokens[i].used

    def at(self, i: int) -> Tok | None:
        return self.tokens[i] if 0 <= i < len(self.tokens) else None

    def is_date(self, i: int) -> bool:
        """Whether the token at ``i`` is a date written with its month's name ("Jan 26, 2025", one
        word since ``tokenize``): no one's name."""
        tok = self.at(i)
        return tok is not None and tok.kind == "word" and " " in tok.text and parse_date(tok.text) is not None

    def day_at(self, i: int) -> bool:
        """Whether the token at ``i`` is such a date that dates something on its own: no bound of
        a span of days."""
        return self.is_date(i) and not self.in_span_of_days(i)

    def in_span_of_days(self, i: int) -> bool:
        """Whether the date at ``i`` is a bound of a span of days ("from Jan 26, 2025 to Feb 2,
        2025", "vom 1. März 2024 bis 5. März 2024"): it dates no document on its own."""
        for step in (1, -1):
            joiner, other = self.at(i + step), self.at(i + 2 * step)
            if joiner is not None and other is not None and (joiner.low in g.SPAN_WORDS or joiner.text in g.DASHES) \
                    and self.is_date(i + 2 * step):
                return True
        return False

    def use(self, start: int, end: int) -> None:
        for tok in self.tokens[start:end]:
            tok.used = True

    def operator_at(self, i: int) -> tuple[str, int] | None:
        """The operator whose phrase starts at token ``i``: (op, index after it)."""
        tok = self.at(i)
        if tok is None or tok.kind != "word" or tok.low not in g.OPERATOR_FIRST_WORDS:
            return None
        for op, phrase in g.OPERATOR_PHRASES:
            window = self.tokens[i : i + len(phrase)]
            if len(window) == len(phrase) and all(t.kind == "word" and t.low == w for t, w in zip(window, phrase)):
                return op, i + len(phrase)
        return None

    @cached_property
    def header_names(self) -> frozenset[str]:
        """The scope's headers and labels, folded, with each name a header joins with a slash."""
        return frozenset(name for term in self.scope.vocabulary for name in names_of(term))

    def names_header(self, words: str) -> bool:
        """Whether words are a header or label of the scope, or one of the names a header joins
        with a slash ("state" in "States/Union Territories")."""
        return folded(words) in self.header_names

    def abbreviated_header(self, word: str) -> bool:
        """Whether a header of the scope abbreviates the word ("cyl" for "cylinder")."""
        return any(abbreviates(normalise(term), normalise(word)) for term in self.scope.vocabulary)

    @cached_property
    def header_kinds(self) -> frozenset[str]:
        """The kinds of column (``groups_of``) the scope's headers and labels are."""
        return frozenset(kind for term in self.scope.vocabulary for kind in groups_of(term))

    def names_column(self, word: str) -> bool:
        """Whether a word names a column of the scope's tables, as written or by its kind
        ("province" over a header "Provincia")."""
        return self.names_header(word) or bool(groups_of(word) & self.header_kinds)

    def header_within(self, start: int, end: int, last: bool = False) -> tuple[int, int] | None:
        """The longest run of tokens between ``start`` and ``end`` that names a header of the
        scope (the first of equals, or the last): "100 private sale handgun checks" holds "Private
        Sale Handgun"."""
        for size in range(end - start, 0, -1):
            starts = range(start, end - size + 1)
            for k in reversed(starts) if last else starts:
                run = self.tokens[k : k + size]
                if all(t.is_word and not t.used for t in run) and self.names_header(text_of(run)):
                    return k, k + size
        return None

    def grouped_header(self, start: int, end: int) -> tuple[str, int] | None:
        """"Family Welfare amount under Capital": a column's own name, a noun of its value, then
        "under" (or "in") and the group its header prints it under name the grouped header
        "Capital Family Welfare" of the scope. (the header as the scope writes it, where the words end)"""
        for u in range(start + 1, min(end, len(self.tokens)) - 1):
            if self.tokens[u].low not in g.UNDER:
                continue
            name = [t for t in self.tokens[start:u] if t.low not in g.ENTRY_NOUNS]
            if not name or not all(t.is_word and not t.used for t in self.tokens[start:u]):
                return None
            for stop in range(end, u + 1, -1):
                group = self.tokens[u + 1 : stop]
                if not all(t.is_word and not t.used for t in group):
                    continue
                for words in (f"{text_of(group)} {text_of(name)}", f"{text_of(name)} {text_of(group)}"):
                    header = next((term for term in self.scope.vocabulary if folded(term) == folded(words)), None)
                    if header is not None:
                        return header, stop
            return None
        return None

    @cached_property
    def folder_names(self) -> FolderNames:
        return FolderNames(self.folders)

    def is_boundary(self, i: int) -> bool:
        """Where a value or a name ends: punctuation, a place, a keyword, or a preposition that names documents."""
        tok = self.at(i)
        if tok is None or tok.used or tok.kind in ("punct", "place"):
            return True
        if tok.is_(g.LIST_KEYWORDS) and self.amount_including(i):
            return False  # "the total including VAT": one amount's name
        if tok.is_(g.CONDITION_KEYWORDS) or tok.is_(g.LIST_KEYWORDS) or tok.low == "dated":
            return True
        if tok.is_(g.ENDS_LIST) and not self.joins_name(i) and not self.unit_phrase(i):
            return True
        return False

    def amount_including(self, i: int) -> bool:
        """Whether "including" at ``i`` joins a tax to the amount before it: "the total including
        VAT": a total or a word of money before, one word after."""
        tok, before, after = self.at(i), self.at(i - 1), self.at(i + 1)
        if tok is None or before is None or after is None or tok.low not in ("including", "incl", "incl.", "inklusive", "incluant"):
            return False
        amount = g.TOTAL_LINE.fullmatch(before.bare) is not None or before.low in g.MONEY_NOUNS
        following = self.at(i + 2)
        return amount and after.is_word and not after.used and (following is None or following.kind == "punct" or following.is_(g.CONJUNCTIONS))

    def unit_phrase(self, i: int) -> bool:
        """Whether a preposition and the word after it are the unit the values of the name
        before them are given in ("potencia en kWp y fecha …", "weight in kg, date"): a currency
        or a measure ending an item of a list. The list goes on after it."""
        tok, unit, after = self.at(i), self.at(i + 1), self.at(i + 2)
        if tok is None or tok.low not in UNIT_PREPOSITIONS or i == 0 or not self.tokens[i - 1].is_word:
            return False
        before = self.at(i - 2)
        if before is not None and (before.is_(g.JOINS_NAME) or before.is_(g.ENDS_LIST)):
            return False  # "amount of invoices in USD": the documents' currency, no column's unit
        if unit is None or unit.kind != "word" or unit.used:
            return False
        rate = self.at(i + 3)
        if after is not None and after.low in RATE_WORDS and rate is not None and rate.is_word and not rate.used \
                and unit.text.isalpha() and unit.text.islower():
            # "the yield in bushels per acre and …": a rate is a unit whatever its words
            after = self.at(i + 4)
            return after is None or after.kind == "punct" or after.is_(g.CONJUNCTIONS)
        if not (after is None or after.kind == "punct" or after.is_(g.CONJUNCTIONS)):
            return False
        return MEASURE_UNIT.fullmatch(unit.bare) is not None

    def joins_name(self, i: int) -> bool:
        """``of``/``de`` inside a name: "number of containers", "date de fin" (a bare lower-case noun follows)."""
        tok, nxt = self.at(i), self.at(i + 1)
        if tok is None or not tok.is_(g.JOINS_NAME) or nxt is None or not nxt.is_word or nxt.used:
            return False
        if self.folders and self.folder_names.named([nxt.bare]) and stem(nxt.bare) != nxt.bare.casefold():
            # "supplier of contracts": the scope's contracts folder, not a name "… of contracts";
            # a noun without its plural names no documents ("número de contrato")
            return False
        return not (nxt.capital or nxt.has_digit or nxt.is_(g.DETERMINERS) or nxt.is_(g.QUANTIFIERS))

    def sentence_end(self, i: int) -> int:
        while i < len(self.tokens) and self.tokens[i].text not in SENTENCE_END:
            i += 1
        return i

    def name_end(self, j: int) -> int:
        """Where a name (a column, a value's column) that starts at ``j`` ends."""
        k = j
        while k < len(self.tokens) and not self.is_boundary(k):
            tok = self.tokens[k]
            if k > j and (tok.is_(g.CONJUNCTIONS) or self.operator_at(k) or tok.is_(g.RELATIVE) or tok.is_(g.AUXILIARIES)):
                break
            if k > j and tok.kind == "word" and tok.low.endswith("ed") and self.at(k + 1) is not None and self.tokens[k + 1].is_(g.ENDS_LIST):
                break  # "number of parcels delivered by …"
            k += 1
        return k

    def list_end(self, start: int) -> int:
        k = start
        while k < len(self.tokens):
            tok = self.tokens[k]
            if tok.text in SENTENCE_END or tok.text == ":":
                break
            if tok.text == "," and (nxt := self.at(k + 1)) is not None and nxt.is_(g.QUESTION_WORDS) and not self.what_column(k + 1):
                break  # "… with Brightwave, how fast do they …": a question of its own starts
            if k > start and (closing := self.bracket_end(k)) is not None:
                k = closing  # "the surname (Apellido), …": the name the documents print, in brackets
                continue
            if tok.kind == "punct" and tok.text not in (",", ";") or tok.text in g.DASHES:
                break  # a dash standing alone ends the list as a colon does
            if tok.used or tok.kind == "place" or k > start and (tok.is_(g.QUANTIFIERS) or tok.is_(g.AUXILIARIES)):
                break
            if k > start and self.whose_column(k) is not None:
                k += 2  # "…, the end date and who's responsible": the person a column names
                continue
            if k > start and (referred := self.referred(k)) is not None:
                k += referred[1]  # "… and that loan figure": a column named before
                continue
            if k > start and (self.is_boundary(k) or self.operator_at(k) or tok.is_(g.RELATIVE) or tok.is_(g.ABOUT_WORDS)):
                if tok.text not in (",", ";"):
                    break
            if k > start and tok.kind == "word" and tok.low.endswith("ed") and self.at(k + 1) is not None and self.tokens[k + 1].is_(g.ENDS_LIST):
                break
            k += 1
        while k > start and self.tokens[k - 1].text in (",", ";"):
            k -= 1
        return k

    def bracket_end(self, k: int) -> int | None:
        """Where a bracket opening at ``k`` after a word closes, when it holds only a few words of
        a name or a unit ("surname (Apellido)", "net amount (Prix HT)", "weight day 14 (%)"), no
        phrase ("(en milliards de FF)");
        None otherwise."""
        if self.tokens[k].text != "(" or not self.tokens[k - 1].is_word:
            return None
        for j in range(k + 1, min(k + 2 + _BRACKET_WORDS, len(self.tokens))):
            tok = self.tokens[j]
            if tok.text == ")":
                return j + 1 if j > k + 1 else None
            if not (tok.is_word or tok.text in _UNIT_SIGNS) or tok.used or tok.is_(g.ENDS_LIST) or tok.is_(g.DETERMINERS) \
                    or tok.is_(g.CONJUNCTIONS):
                return None
        return None

    def referred(self, k: int) -> tuple[str, int] | None:
        """"Give the total internal debt and that loan figure": "that" (or "this") after "and", a
        comma or a verb of asking points back at the column a condition read already ("which
        states have an entry under Loans from SBI & Other Banks"): the words after it, but a noun
        of a value, are words of that one column's name. (the column, the words it spans)"""
        tok, before = self.at(k), self.at(k - 1)
        if tok is None or before is None or tok.low not in g.DEMONSTRATIVES:
            return None
        if not (before.is_(g.CONJUNCTIONS) or before.is_(g.LIST_KEYWORDS) or before.text == ","):
            return None
        end = k + 1
        while end < len(self.tokens) and end - k <= 3 and self.tokens[end].is_word and not self.tokens[end].used \
                and not self.tokens[end].is_(g.CONJUNCTIONS):
            end += 1
        named = [t.text for t in self.tokens[k + 1 : end] if t.low not in g.ENTRY_NOUNS]
        if not named or end - k > 3:
            return None
        words = set(folded(" ".join(named)).split())
        columns = {c.column for _, c in self.conditions if c.column and words <= set(folded(c.column).split())}
        return (columns.pop(), end - k) if len(columns) == 1 else None

    def whose_column(self, k: int) -> str | None:
        """The header a "who …" item of a list names: "who's responsible" the Responsible column,
        "who checked" a "Checked by" one; the item stands after a comma or a conjunction."""
        tok, before, word = self.at(k), self.at(k - 1), self.at(k + 1)
        if tok is None or tok.low not in g.WHO or before is None or not (before.text == "," or before.is_(g.CONJUNCTIONS)):
            return None
        if word is None or not word.is_word or word.used:
            return None
        return next((name for name in (word.text, f"{word.text} by") if self.names_header(name)), None)

    def beside(self, k: int) -> int:
        """The words at ``k`` that set a list's item beside the next ("… figures next to their
        targets", "alongside"); 0 when none stands there."""
        tok, nxt = self.at(k), self.at(k + 1)
        if tok is None or tok.used:
            return 0
        if tok.low == "next" and nxt is not None and nxt.low == "to" and not nxt.used:
            return 2
        return 1 if tok.is_(g.BESIDE) else 0

    def what_column(self, k: int) -> int:
        """The words of a "what it was" item of a list ("date, employee, what it was and amount"):
        what each row is, the column describing it; 0 when the item is none."""
        tok, before = self.at(k), self.at(k - 1)
        if tok is None or not tok.is_(g.WHAT_THING) or before is None or not (before.text == "," or before.is_(g.CONJUNCTIONS)):
            return 0
        pronoun, verb = self.at(k + 1), self.at(k + 2)
        if pronoun is None or verb is None or pronoun.used or verb.used or not pronoun.is_(g.THING_PRONOUNS) or not verb.is_(g.BE_WORDS):
            return 0
        return 3

    def items(self, start: int, end: int) -> list[tuple[int, str]]:
        items: list[tuple[int, str]] = []
        current: list[Tok] = []
        first = start
        skip = start
        for k in range(start, end):
            tok = self.tokens[k]
            if k < skip:
                continue  # the word a "who …" item named its column with
            if tok.is_(g.CONJUNCTIONS) and current and self._joins_header(current, k, end):
                current.append(tok)  # "read & write", "imię i nazwisko": one header of the scope
                continue
            beside = self.beside(k) if current else 0  # "the KPI figures next to their targets"
            if tok.text in (",", ";") or tok.is_(g.CONJUNCTIONS) or tok.used or beside:
                if current:
                    items.append((first, text_of(current)))
                current = []
                first = skip = k + max(1, beside)
                continue
            if not current and (size := self.what_column(k)):
                items.append((k, DESCRIPTION))
                first = skip = k + size
                continue
            if not current and (referred := self.referred(k)) is not None:
                items.append((k, referred[0]))
                first = skip = k + referred[1]
                continue
            if not current and (tok.is_(g.DETERMINERS) or tok.is_(g.QUANTIFIERS) or tok.is_(g.POSSESSIVES) or tok.is_(g.EACH_WORDS)):
                # "the state", "each crime", "leur latitude", "jeweils Name"
                first = k + 1
                continue
            if not current and (named := self.whose_column(k)) is not None:
                items.append((k, named))
                first = skip = k + 2
                continue
            if current and tok.is_(g.WITH_WORDS) and (owner := self.at(k + 1)) is not None and owner.is_(g.POSSESSIVES) \
                    and k + 2 < end and all(t.is_word and t.is_content for t in current):
                # "every loan category with its other concessions, …": the thing the values are of,
                # then the first of them
                items.append((first, text_of(current)))
                current = []
                first = skip = k + 2
                continue
            current.append(tok)
        while current and current[-1].is_(g.COURTESY):
            current.pop()  # "… and net value please"
        if len(current) >= 2 and (current[-2].low, current[-1].low) in g.COURTESY_PAIRS:
            current = current[:-2]  # "…, por favor", "… y la fecha por favor": courtesy, no column
        if current:
            items.append((first, text_of(current)))
        return [(i, re.sub(r"\s+(?:columns?|fields?)$", "", t, flags=re.IGNORECASE)) for i, t in items if t]

    def _joins_header(self, before: list[Tok], k: int, end: int) -> bool:
        """Whether the conjunction at ``k`` stands inside a header of the scope: the words before it
        (from the item's start or any later word) and after it (up to the next separator) name one,
        or close one, and are not two headers of their own."""
        after: list[Tok] = []
        for tok in self.tokens[k + 1 : end]:
            if tok.text in (",", ";") or tok.is_(g.CONJUNCTIONS) or tok.used or not tok.is_word:
                break
            after.append(tok)
        if not after or self.names_header(text_of(before)) and self.names_header(text_of(after)):
            return False  # "price and quantity": two headers of their own
        return any(
            folded(text_of([*before[i:], self.tokens[k], *after[:n]])) in self.header_tails
            # "principal and interest": a group label opening headers of the scope ("Principal and
            # Interest rates p.a. Annual percentage rate", "… Comparison rate")
            or self.headed_by(text_of([*before[i:], self.tokens[k], *after[:n]]))
            for i in range(len(before))
            for n in range(1, len(after) + 1)
        )

    def headed_by(self, words: str) -> list[str]:
        """The scope's headers that a group label opens ("GPS Coordinates" of "GPS Coordinates
        Northing (metres)" and "GPS Coordinates Easting (metres)"), as printed: [] unless two or
        more open with the words and go on past them."""
        want = folded(words).split()
        if not want:
            return []
        found = [term for term, words_of in self._folded_vocabulary if len(words_of) > len(want) and words_of[: len(want)] == want]
        return found if len(found) >= 2 else []

    @cached_property
    def _folded_vocabulary(self) -> list[tuple[str, list[str]]]:
        """The scope's headers and labels, each with its folded words, folded once per message."""
        return [(term, folded(term).split()) for term in dict.fromkeys(self.scope.vocabulary)]

    @cached_property
    def header_tails(self) -> frozenset[str]:
        """The scope's names and the closing words of each: a grouped header's own name stands
        last ("Literacy Status Read & Write")."""
        tails = set(self.header_names)
        for term in self.scope.vocabulary:
            for name in [term, *names_of(term)]:  # with its unit and without ("Standing Charge p/day")
                words = name.split()
                tails.update(folded(" ".join(words[i:])) for i in range(1, len(words)))
        return frozenset(tails)

    def is_list(self, start: int, end: int) -> bool:
        """Whether the words name values: not a condition (an operator, "priority P1")."""
        if any(self.operator_at(k) for k in range(start, end)):
            return False
        items = self.items(start, end)
        if not items or any(all(w in g.ENDS_LIST for w in text.casefold().split()) for _, text in items):
            return False  # "in" left of "each age group" names no value
        if any(text.casefold().split()[-1] in g.ENDS_LIST and not self.names_header(text) for _, text in items):
            return False  # "list the items charged at 19% VAT": a clause cut before its value
        if len(items) == 1:
            return not self.trailing_value(start, end)
        return all(len(text.split()) <= 6 for _, text in items)

    def trailing_value(self, start: int, end: int) -> bool:
        """Whether the last word of a lone phrase is a value: "rank 1", "priority P1", "project code PRJ-207"."""
        toks = strip_determiners(self.tokens[start:end])
        if len(toks) < 2:
            return False
        last = toks[-1]
        if last.kind == "quoted" or last.has_digit:
            return True
        return last.capital and any(not t.capital for t in toks[:-1])

    def clause_end(self, start: int) -> int:
        k = start
        while k < len(self.tokens):
            tok = self.tokens[k]
            if tok.kind in ("punct", "place") or tok.used or tok.is_(g.LIST_KEYWORDS) and k > start and self.is_list(k + 1, self.list_end(k + 1)):
                break
            if tok.is_(g.ENDS_LIST) and k > start and self.names_documents(k + 1):
                break
            k += 1
        return k

    def names_documents(self, k: int) -> bool:
        tok = self.at(k)
        return tok is not None and (tok.kind == "place" or tok.capital or tok.possessive or tok.is_(g.DETERMINERS) or tok.is_(g.QUANTIFIERS))

    def names_a_party(self, start: int, end: int) -> bool:
        """"… of the SLA with Nordlicht AG": after "with", one name written as a name (every word
        capitalised) that is no column the scope or the synonym map knows names the other party
        of the documents, not the values wanted (those stand in the list the request opened with);
        a lower-case word after two or more such words is the verb of the clause they stand in."""
        items = self.items(start, end)
        if len(items) != 1 or start == 1:
            return False
        name = items[0][1]
        toks = [t for t in self.tokens[start:end] if t.is_word]
        if len(toks) > 2 and not toks[-1].capital:
            toks = toks[:-1]  # "… does the SLA with Hotel Marina Dénia set for …": the clause's verb
        return bool(toks) and all(t.capital for t in toks) and not is_known_column(name) and normalise(name) not in self.vocabulary
