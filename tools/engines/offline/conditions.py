"""Conditions on the rows: "where/whose <column> <op> <value>", "with a <column> of more than
<value>", "between X and Y", "dated after …", "that mentions X"; the equalities written as a
name and its value ("for priority 1", "in the Sales department") are read by ``equalities``.
Values keep their currency and unit; a condition that cannot be read is named as one only
meaning can judge. Where an amount's comparison names its column by the header after its value
or by its unit is read by ``amounts``; a comparison's column and value by ``comparisons``."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from core.reading import Condition
from tools.engines.offline import grammar as g
from tools.engines.offline.amounts import Amounts
from tools.engines.offline.columns import Columns
from tools.engines.offline.comparisons import Comparisons
from tools.engines.offline.equalities import Equalities
from tools.engines.offline.presence import Presence
from tools.engines.offline.scan import Scan
from tools.engines.offline.tokens import SENTENCE_END, WHICH, capitalise, text_of

# "of" between a column and its comparison: "an accrued amount of more than $ 350", "einen Betrag
# von mehr als 350", "un montant de plus de 350"
_OF = frozenset({"of", "von", "de", "van", "di"})


@dataclass
class Conditions:
    """The conditions a request sets on rows."""

    scan: Scan

    @cached_property
    def amounts(self) -> Amounts:
        return self.comparisons.amounts

    @cached_property
    def comparisons(self) -> Comparisons:
        return Comparisons(self.scan)

    @cached_property
    def presence(self) -> Presence:
        return Presence(self.scan)

    def take_conditions(self) -> None:
        self.comparisons.take_spans_compared()
        self.comparisons.take_postfix_comparisons()
        Equalities(self.scan).take_values_in_columns()
        self.amounts.take_column_after_amount()
        self.amounts.take_rate_before_column()
        self.comparisons.take_noun_of_comparisons()
        self.comparisons.take_headers_in_brackets()
        self.amounts.take_unit_comparisons()
        self._name_before_header()
        self.presence.take_signs()
        for i, tok in enumerate(self.scan.tokens):
            if tok.used or tok.kind != "word":
                continue
            if tok.is_(g.HAS_WORDS) and self.presence.take_presence(i, self.scan.clause_end(i + 1)):
                continue
            if tok.is_(g.CONDITION_KEYWORDS) or tok.is_(g.HAS_WORDS) and self._after_which(i):
                end = self._chain(i + 1)
                if end is not None:
                    self.scan.use(i, end)
                elif tok.is_(g.HAS_WORDS):
                    self._with_condition(i)
                    if not tok.used:  # "which states had any rental checks": only meaning can judge it
                        end = self.scan.clause_end(i + 1)
                        if not self.presence.take_none_of(i, end) and any(t.is_content for t in self.scan.tokens[i + 1 : end]):
                            self.scan.row_terms.append(text_of(self.scan.tokens[i:end]))
                        if end > i + 1:  # "have an" before a comparison read already is its grammar
                            self.scan.use(i, end)
                elif tok.is_(g.CONDITION_KEYWORDS):
                    self._unreadable(i + 1, self.scan.clause_end(i + 1))
                    self.scan.use(i, self.scan.clause_end(i + 1))
            elif tok.low == "dated" and (op := self.scan.operator_at(i + 1)):
                end = self.comparisons.value(op[0], "Date", op[1], i + 1)
                self.scan.use(i, end)
            elif (tok.is_(g.RELATIVE) or tok.low in ("mentioning", "containing")) and self.scan.whose_column(i) is None \
                    and not (tok.is_(g.DETERMINERS) and (i == 0 or self.scan.tokens[i - 1].text in SENTENCE_END)):
                self._relative(i)  # "die" opening a sentence is an article ("Bitte die Spalten …"), no relative
            elif tok.is_(g.LIST_KEYWORDS) and not ((nxt := self.scan.at(i + 1)) is not None and nxt.is_(g.ENDS_LIST)):
                self._with_condition(i)  # "the chocolate listing for CENTRAL KMA": a noun, then whose rows
            elif tok.is_(g.ABOUT_WORDS) and i > 0 and not self._compares_figure(i):
                end = self.scan.clause_end(i + 1)
                if end > i + 1:
                    self.scan.row_terms.append(text_of(self.scan.tokens[i + 1 : end]))
                    self.scan.use(i, end)
        equalities = Equalities(self.scan)
        equalities.take_term_values()
        equalities.take_named_values()
        equalities.take_joined_values()
        equalities.take_implicit_equalities()
        self._leading_condition()
        self.comparisons.take_comparisons()

    def _compares_figure(self, i: int) -> bool:
        """Whether a word that may also say what rows are about compares with a figure after it
        ("über 60": more than 60, not about 60)."""
        op = self.scan.operator_at(i)
        after = self.scan.at(op[1]) if op else None
        return after is not None and after.has_digit and not g.YEAR.fullmatch(after.bare)  # "Berichte über 2024": about it

    def _after_which(self, i: int) -> bool:
        return any(t.low in WHICH or t.low == "many" for t in self.scan.tokens[max(0, i - 6) : i])

    def _chain(self, start: int) -> int | None:
        """``a is x and b > 3`` from ``start``; the index after what was read, or None."""
        end = None
        last_column = did = ""
        k = start
        while True:
            while self.scan.at(k) is not None and self.scan.tokens[k].is_(g.DETERMINERS):
                k += 1
            column_end = k
            while column_end < len(self.scan.tokens) and column_end - k < 5 and not self.scan.operator_at(column_end):
                tok = self.scan.tokens[column_end]
                if tok.used or tok.kind not in ("word", "quoted") or tok.is_(g.HAS_WORDS) or tok.is_(g.RELATIVE) or tok.is_(g.QUANTIFIERS):
                    break
                after = self.scan.at(column_end + 1)
                in_period = tok.low in ("in", "for", "im") and after is not None and after.has_digit  # "growth in 2001-2011"
                if tok.is_(g.CONJUNCTIONS) or tok.is_(g.ENDS_LIST) and not self.scan.joins_name(column_end) and not in_period:
                    break
                if tok.low in _OF and self.scan.operator_at(column_end + 1):
                    break
                column_end += 1
            op = self.scan.operator_at(column_end) if not self.scan.at(column_end) or not self.scan.tokens[column_end].used else None
            if op is None and self.scan.at(column_end) is not None and self.scan.tokens[column_end].low in _OF:
                op = self.scan.operator_at(column_end + 1)
                op_start = column_end + 1
            else:
                op_start = column_end
            if op is not None and column_end == k and last_column:
                column = last_column  # "an amount over 100 and under 500": the same column again
            elif op is None or column_end == k:
                return end if end is not None else None
            elif not self.scan.names_column(text_of(self.scan.tokens[k:column_end])) \
                    and (after := self.comparisons.take_noun_after(column_end, op)) is not None:
                return after  # "which drive cycles show more than 5% fuel savings": the noun after the amount
            elif self.scan.tokens[column_end - 1].is_(g.COST_VERBS):
                # "which articles cost more than …": what they cost; "have a one withholding
                # allowance worth more than …": the header before the verb
                run = self.scan.header_within(k, column_end - 1, last=True)
                column = capitalise(text_of(self.scan.tokens[run[0] : run[1]]) if run and run[1] == column_end - 1
                                    else self.scan.tokens[column_end - 1].bare)
            elif self.scan.at(k - 1) is not None and self.scan.tokens[k - 1].is_(g.RELATIVE) \
                    and (worth := self.comparisons.worth(k, column_end, op)) is not None:
                # "everyone who contributed more than $10.000,00": what they did is worth the sum
                column, did = g.MONEY_COLUMN, worth
            elif (run := self.scan.header_within(k, column_end, last=True)) is not None and run[1] == column_end and run[0] > k \
                    and self.scan.tokens[run[0] - 1].is_(g.DETERMINERS):
                # "which inhibitor concentrations give a corrosion rate below 1": the header right before
                column = capitalise(text_of(self.scan.tokens[run[0] : run[1]]))
            else:
                # "whose 'Others' outlay is more than …": the header the words open with (``named_within``)
                column = capitalise(Columns(self.scan).named_within(text_of(self.scan.tokens[k:column_end])))
            last_column = column
            value_end = self.amounts.amount_end(op[1])
            unit = self.scan.at(value_end)
            named = self._name_is_header(k, column_end, op) if op[0] == "equals" else None
            if named is not None:
                # "the contracts Lucía Ferrer is responsible for": the name is the value of the
                # column the word after "is" names
                header, name = named
                self.scan.add_condition(op[1], header, "equals", name)
                end = op[1] + 1
            elif self.scan.tokens[k].is_(g.PERSONS) and unit is not None and unit.is_word and not unit.used \
                    and not unit.has_digit and value_end > op[1]:
                # "where we ordered at least 10 pieces": who did what names no column; the unit
                # after the value does
                self.scan.add_condition(op[1], capitalise(unit.text), op[0], text_of(self.scan.tokens[op[1] : value_end]))
                end = value_end + 1
            else:
                read = len(self.scan.conditions)
                end = self.comparisons.value(op[0], column, op[1], op_start)
                if column == g.MONEY_COLUMN and did and len(self.scan.conditions) > read:
                    self.scan.say_in_last(f"({did})")
            joiner = self.scan.at(end)
            if joiner is not None and joiner.is_(g.CONJUNCTIONS) and not joiner.used:
                k = end + 1
                continue
            return end

    def _name_before_header(self) -> None:
        """"Which contracts is Sophie Keller responsible for": "is", a name of two capitalised words
        or more and a word naming a header of the scope: the name is that column's value."""
        tokens = self.scan.tokens
        for k, tok in enumerate(tokens):
            if tok.used or tok.low not in g.BE_WORDS:
                continue
            end = k + 1
            while end < len(tokens) and tokens[end].capital and tokens[end].is_word and not tokens[end].used \
                    and not tokens[end].has_digit:
                end += 1
            header = self.scan.at(end)
            if end - k < 3 or header is None or not header.is_word or header.used or not self.scan.names_header(header.bare):
                continue
            self.scan.add_condition(k + 1, capitalise(header.bare), "equals", text_of(tokens[k + 1 : end]))
            self.scan.use(k, end + 1)

    def _name_is_header(self, start: int, end: int, op: tuple[str, int]) -> tuple[str, str] | None:
        """(the header, the name) when the words ``start:end`` before "is" end with a name of two
        capitalised words or more and the one word after it names a header of the scope
        ("Lucía Ferrer is responsible"); None otherwise."""
        value = self.scan.at(op[1])
        after = self.scan.at(op[1] + 1)
        if value is None or not value.is_word or value.used or not self.scan.names_header(value.bare):
            return None
        if after is not None and after.is_word and not after.is_(g.ENDS_LIST):
            return None  # "… is responsible manager": more than the header's word
        first = end
        while first > start and self.scan.tokens[first - 1].capital and not self.scan.tokens[first - 1].has_digit:
            first -= 1
        if end - first < 2 or first == start and start == 0:
            return None
        return capitalise(value.bare), text_of(self.scan.tokens[first:end])

    def _relative(self, i: int) -> None:
        """``that mentions Falkner`` (anywhere in the row), or a clause only meaning can judge."""
        tok = self.scan.tokens[i]
        start = i if tok.low in ("mentioning", "containing") else i + 1
        op = self.scan.operator_at(start)
        if op and op[0] == "contains":
            end = self.comparisons.value("contains", "", op[1], start)
            for k, (at, condition) in enumerate(self.scan.conditions):
                if at == op[1] and condition.column == "":
                    self.scan.conditions[k] = (at, condition.model_copy(update={"column": None, "text": f"the row mentions {condition.value}"}))
            self.scan.use(i, end)
            return
        if tok.low in ("mentioning", "containing"):
            return
        if self.scan.referred(i) is not None:
            return  # "and that loan figure": a column named before, asked for (``Scan.referred``)
        # "Which leases …", "In der Aufstellung: welche Positionen …": a question asking which rows
        opening = tok.low in WHICH and (i == 0 or self.scan.tokens[i - 1].text in (*SENTENCE_END, ":"))
        if opening or tok.low in WHICH and self._after_opening(i):
            asked = self._asked_rows_end(i + 1)  # "Which leases …": the rows asked about, then what they must do
            nxt = self.scan.at(asked)
            if nxt is None or nxt.is_(g.HAS_WORDS) or nxt.kind == "punct":
                return
            if self._read_after(asked):
                # "…, which inhibitor concentrations give a corrosion rate below 1 mm/year?": what
                # they must do was read as a condition; the noun names the rows asked about
                self.scan.use(i, asked)
                return
            if opening:
                start = asked
        if self.scan.operator_at(start):
            return
        chained = self._chain(start)
        if chained is not None:
            self.scan.use(start, chained)
            return
        end = self.scan.clause_end(start)
        if end > start and self.scan.tokens[end - 1].is_(g.HAS_WORDS) and (after := self.scan.at(end)) is not None \
                and after.used and after.kind in ("word", "place"):
            # "…: which countries had more than 100 samples (N)": the rows, the verb of a comparison
            # read; words that name more than the rows ("premium customers") pick them by meaning
            rows = self.scan.tokens[start : end - 1]
            if rows and not self.scan.names_column(text_of(rows)) and not all(t.is_(g.ROW_NOUNS) for t in rows):
                self.scan.row_terms.append(text_of(rows))
            self.scan.use(start if rows else i, end)
            return
        if opening and any(t.is_(g.HAS_WORDS) for t in self.scan.tokens[start:end]):
            return  # "Which … lines have a total price over …": the clause after "have" says it
        if opening and self._verb_compared(start, self._phrase_end(start)):
            return
        if opening and self.scan.tokens[start].is_(g.ENDS_LIST) and self.scan.at(end) is not None and self.scan.tokens[end].used:
            return  # "Which contracts in the contract register run out before …": the documents, then what was read
        if opening and self.scan.tokens[start].is_(g.OWNER_PREPOSITIONS) and end > start + 1 \
                and all(t.is_word and t.capital for t in self.scan.tokens[start + 1 : end]):
            return  # "Which sensors did we buy from Praxis": the clause is who they came from, the owner
        if self._compared_header(start, end):
            self.scan.use(i, end)
            return
        if end > start and all(t.is_(g.BE_WORDS) or t.is_(g.AUXILIARIES) for t in self.scan.tokens[start:end]):
            self.scan.use(i, end)  # "Which installations were finished in 2025": the verb's time was read
        elif self.presence.take_none_of(start, end) or self.scan.tokens[start].is_(g.HAS_WORDS) and self.presence.take_presence(start, end):
            self.scan.use(i, end)  # "that have GPS coordinates": the cells hold a value
        elif end > start:
            self.scan.row_terms.append(text_of(self.scan.tokens[start:end]))
            self.scan.use(i, end)

    def _phrase_end(self, start: int) -> int:
        """Where the words from ``start`` reach the next punctuation mark (places and names read
        already may stand among them: "on our 2024 price list cost at least 500 EUR")."""
        k = start
        while k < len(self.scan.tokens) and self.scan.tokens[k].kind != "punct":
            k += 1
        return k

    def _verb_compared(self, start: int, end: int) -> bool:
        """"Which items on the Bürowelt invoice cost more than 20 euros": the one word before the
        clause's comparison is what is compared ("cost"); the words before it name the documents
        and are left to the owners. False when no comparison follows a word there."""
        if not self.scan.tokens[start].is_(g.ENDS_LIST):
            return False  # the words after the rows asked about name documents: "on the … invoice"
        for k in range(start + 1, end):
            tok = self.scan.tokens[k]
            if tok.is_(g.HAS_WORDS) or tok.is_(g.RELATIVE) or tok.is_(g.LIST_KEYWORDS) or tok.is_(g.CONDITION_KEYWORDS):
                return False  # "lines have a total price over …": the clause names its column itself
            op = self.scan.operator_at(k)
            if op is None:
                continue
            verb = self.scan.tokens[k - 1]
            if op[0] not in ("lt", "le", "gt", "ge") or verb.used or not verb.is_content or verb.capital:
                return False
            chained = self._chain(k - 1)
            if chained is None:
                return False
            self.scan.use(k - 1, chained)
            return True
        return False

    def _compared_header(self, start: int, end: int) -> bool:
        """"grew by less than 10 per cent in 2001-2011": a comparison in the clause whose value a
        header of the scope follows is a condition on that header; the clause's other words stay
        unused (the rows are unsure). False when the clause holds no such comparison."""
        for k in range(start, end):
            op = self.scan.operator_at(k)
            if op is None or op[0] not in ("lt", "le", "gt", "ge"):
                continue
            value_end = self.amounts.amount_end(op[1])
            rate_end = self.amounts.priced_per(value_end)  # "more than 80p a day": its unit, no header
            header = self.scan.header_within(rate_end, end) if value_end > op[1] else None
            if header is None:
                return False
            self.scan.add_condition(op[1], capitalise(text_of(self.scan.tokens[header[0] : header[1]])), op[0], text_of(self.scan.tokens[op[1] : value_end]))
            return True
        return False

    def _after_opening(self, i: int) -> bool:
        """"From the NICS checks for November 2015, which states …": "which" after the comma that
        closes the sentence's opening phrase (one a preposition opens) asks which rows."""
        if i == 0 or self.scan.tokens[i - 1].text != ",":
            return False
        k = i - 1
        while k > 0 and self.scan.tokens[k - 1].text not in SENTENCE_END:
            k -= 1
            if self.scan.tokens[k].text == ",":
                return False
        return self.scan.tokens[k].is_(g.ENDS_LIST) or self.scan.tokens[k].low in g.UNDER  # "Under the … scenario, which …"

    def _read_after(self, k: int) -> bool:
        """Whether the words of the clause from ``k`` were all read already but its verb."""
        end = self.scan.clause_end(k)
        words = [t for t in self.scan.tokens[k:max(end, k + 1)] if t.is_word]
        return any(t.used for t in words) and all(t.used for t in words[1:])

    def _asked_rows_end(self, k: int) -> int:
        """After "which": the noun of the rows asked about ("insurance policies"), up to its plural."""
        start = k
        while k < len(self.scan.tokens) and k - start < 3 and self.scan.tokens[k].is_content and not self.scan.tokens[k].is_(g.HAS_WORDS):
            k += 1
            if self.scan.tokens[k - 1].low.endswith("s"):
                # "states or union territories": a second noun joined by "or"/"and" names rows too
                joiner = self.scan.at(k)
                if joiner is not None and joiner.low in ("or", "and", "oder", "und", "ou", "et") and self.scan.at(k + 1) is not None \
                        and self.scan.tokens[k + 1].is_content and not self.scan.operator_at(k + 1):
                    k, start = k + 1, k + 1
                    continue
                break
        while k < len(self.scan.tokens) and (self.scan.tokens[k].used or self.scan.tokens[k].is_(g.ENDS_LIST) and self.scan.at(k + 1) is not None and self.scan.tokens[k + 1].used):
            k += 1
        return k

    def _with_condition(self, i: int) -> None:
        """``with a quantity of more than 100``, ``with more than 8 hours``, ``with priority P1``."""
        start = i + 1
        if (own := self.scan.at(start)) is not None and own.is_(g.POSSESSIVES):
            end = self.scan.list_end(start + 1)
            after = self.scan.at(end)
            if end > start + 2 and self.scan.tokens[end - 1].low in g.VALUE_NOUNS and after is not None and after.text == ":":
                # "with their DLHS-4 (2012-13) figures: columns …": which of their values the columns
                # the colon lists hold, said for them to be picked by; no condition
                self.scan.use(i, end)
                return
        op = self.scan.operator_at(start)
        if op and op[0] in ("lt", "le", "gt", "ge"):
            value_end = self.amounts.amount_end(op[1])
            name_end = self.scan.name_end(value_end)
            last = self.scan.tokens[value_end - 1]
            if name_end == value_end and value_end - op[1] >= 2 and not last.has_digit:
                value_end -= 1  # "with more than 8 hours": the unit names the column
            # "had more than 100 private sale handgun checks", "… 100,000 checks in total": a header
            # of the scope among the words after the value is the column; the other words stay unused
            clause = self.scan.clause_end(value_end)
            header = self.scan.header_within(value_end, clause) if value_end > op[1] else None
            if header is None and value_end > op[1]:
                header = self.amounts.counted_of(value_end)  # "had more than 10,000 arrests of <header> people"
            if header is not None:
                column = capitalise(text_of(self.scan.tokens[header[0] : header[1]]))
                self.scan.add_condition(op[1], column, op[0], text_of(self.scan.tokens[op[1] : value_end]))
                self.scan.use(i, header[1])
                return
            if name_end > value_end:
                column = capitalise(text_of(self.scan.tokens[value_end:name_end]))
                self.scan.add_condition(op[1], column, op[0], text_of(self.scan.tokens[op[1] : value_end]))
                self.scan.use(i, name_end)
                return
        end = self._chain(start)
        if end is not None:
            self.scan.use(i, end)
            return
        end = self.scan.list_end(start)
        before_colon = self.scan.at(end) is not None and self.scan.tokens[end].text == ":" and end - start >= 2
        # "mit dem Spediteur PostNL Cargo": a column named with its article, then a name
        with_article = end - start >= 3 and self.scan.tokens[start].is_(g.DETERMINERS) and self.scan.tokens[end - 1].capital
        if end > start and len(self.scan.items(start, end)) == 1 and (self.scan.trailing_value(start, end) or before_colon or with_article):
            Equalities(self.scan).equality(start, end)
            self.scan.use(i, end)
            return
        # "with severity High and status Open": each item a name and its value
        equalities = Equalities(self.scan)
        spans = equalities.spans(start, end)
        if len(spans) > 1 and all(self.scan.trailing_value(a, b) for a, b in spans):
            for a, b in spans:
                equalities.equality(a, b)
            self.scan.use(i, end)

    def _leading_condition(self) -> None:
        """``Liability caps below one million in …``: a condition opening the request names its column."""
        first = next((k for k, t in enumerate(self.scan.tokens) if not t.used and t.kind == "word"), None)
        if first is None or first != 0 and not all(t.used for t in self.scan.tokens[:first]):
            return
        if self.scan.tokens[first].low in WHICH or self.scan.tokens[first].is_(g.QUANTIFIERS):
            return
        end = self._chain(first)
        if end is not None:
            self.scan.use(first, end)
            if not self.scan.columns:
                column = next((c.column for _, c in self.scan.conditions if c.column), None)
                if column:
                    self.scan.columns.append((first, column))

    def _unreadable(self, start: int, end: int) -> None:
        words = text_of(self.scan.tokens[start:end])
        if words:
            self.comparisons.note_unreadable(words)
            self.scan.conditions.append((start, Condition(column=None, op="judgement", value=words, text=words)))
