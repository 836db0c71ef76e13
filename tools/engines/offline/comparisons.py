"""Comparisons and the columns they compare: "affecting 500 or more employees", "quantities of at
least 100 kg", "amount at least 100", "which drive cycles show more than 5% fuel savings …", "a
quarter-mile time (qsec) under 17 seconds"; and the value a comparison or an equality reads after
its operator, where ``conditions`` found the operator and its column."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from core.reading import Condition
from tools.engines.columns import folded, is_qualifier
from tools.engines.months import month_of
from tools.engines.numbers import has_currency, is_amount, parse_number
from tools.engines.offline import grammar as g
from tools.engines.offline.amounts import Amounts, is_unit, unit_of
from tools.engines.offline.scan import JUDGEMENT_HINT, Scan
from tools.engines.offline.tokens import WHICH, Tok, capitalise, strip_determiners, text_of

_NOUN_WORDS = 4  # words of a header named before "of" and a comparison
_BY = frozenset({"by", "um", "de", "en", "o"})  # "grow by more than 20%", "um mehr als 20 % wachsen"


@dataclass
class Comparisons:
    """The comparisons a request makes, each with the column it compares."""

    scan: Scan

    @cached_property
    def amounts(self) -> Amounts:
        return Amounts(self.scan)

    def take_spans_compared(self) -> None:
        """"grow by more than 20% between 2008–09 and 2021–22" over a column "2008–09 to 2021–22":
        the two periods "between" joins name the column of the change from one to the other, and
        the comparison right before them compares it; no range of values."""
        tokens = self.scan.tokens
        for k in range(len(tokens)):
            op = self.scan.operator_at(k)
            if op is None or op[0] != "between" or tokens[k].used:
                continue
            low, conj, high = self.scan.at(op[1]), self.scan.at(op[1] + 1), self.scan.at(op[1] + 2)
            if low is None or conj is None or high is None or not conj.is_(g.CONJUNCTIONS):
                continue
            name = f"{low.text} to {high.text}"
            if not (self.scan.names_header(name) or folded(name) in self.scan.header_tails):
                continue
            for j in range(k - 1, max(k - 5, -1), -1):
                compared = self.scan.operator_at(j)
                if compared is not None and compared[0] in ("lt", "le", "gt", "ge") and self.amounts.amount_end(compared[1]) == k \
                        and not tokens[j].used:
                    self.scan.add_condition(compared[1], name, compared[0], text_of(tokens[compared[1] : k]))
                    before = self.scan.at(j - 1)
                    self.scan.use(j - 1 if before is not None and before.low in _BY else j, op[1] + 3)
                    break

    def take_postfix_comparisons(self) -> None:
        """"affecting 500 or more employees", "10 Stück oder weniger": a value, then "or more" /
        "or less", then the column compared (a header of the scope among the words after it, else
        the words after it)."""
        tokens = self.scan.tokens
        for k in range(1, len(tokens) - 1):
            joiner, word = tokens[k], tokens[k + 1]
            op = g.POSTFIX_OPERATORS.get(word.low) if joiner.low in ("or", "and", "oder", "und", "ou", "et", "o", "y", "of", "en") else None
            if op is None or joiner.used or word.used or not tokens[k - 1].has_digit or tokens[k - 1].used:
                continue
            after = self.scan.at(k + 2)
            if after is not None and (after.has_digit or after.low in ("than", "als", "que", "as")):
                continue  # "over 100 and under 500", "at least 5 and less than 20": a second comparison
            start = k - 1
            while start > 0 and (tokens[start - 1].has_digit or is_unit(tokens[start - 1].text)) and not tokens[start - 1].used \
                    and tokens[start - 1].kind == "word":
                start -= 1
            value = text_of(tokens[start:k])
            if not is_amount(value):
                continue
            clause = self.scan.clause_end(k + 2)
            header = self.scan.header_within(k + 2, clause)
            if header is not None and header[0] == k + 2:
                column, end = capitalise(text_of(tokens[header[0] : header[1]])), header[1]
            else:
                end = self.scan.name_end(k + 2)
                if end == k + 2:
                    # "mit einer Menge von 10 oder mehr": the column before the value
                    name_end = start - 1 if start > 0 and tokens[start - 1].low in ("of", "von", "de", "d'") else start
                    if name_end > 1 and tokens[name_end - 1].is_(g.BE_WORDS) and not tokens[name_end - 1].used:
                        name_end -= 1  # "where the suicide rate was 11.0 or higher": the column before the verb
                    first = name_end
                    while first > 0 and tokens[first - 1].kind == "word" and not tokens[first - 1].used \
                            and not self.scan.is_boundary(first - 1) and not tokens[first - 1].is_(g.CONJUNCTIONS) \
                            and not _opens_noun(tokens[first - 1]):
                        first -= 1  # "which entries have a maturity rating of 2.0 or higher": the noun after "have a"
                    named = strip_determiners(tokens[first:name_end])
                    if not named:
                        continue
                    column = capitalise(text_of(named))
                    self.scan.add_condition(start, column, op, value)
                    while first > 0 and tokens[first - 1].is_(g.DETERMINERS) and not tokens[first - 1].used:
                        first -= 1  # "where the suicide rate was …": its article too
                    self.scan.use(first, k + 2)
                    continue
                column = capitalise(text_of(strip_determiners(tokens[k + 2 : end])))
            self.scan.add_condition(start, column, op, value)
            self.scan.use(start, end)

    def take_noun_of_comparisons(self) -> None:
        """"which items were delivered in quantities of at least 100 kg": a comparison after "of"
        compares the column the noun before it names (a header of the scope or its kind); the
        words before the noun are left for the rest of the reading."""
        for k in range(len(self.scan.tokens)):
            found = self.amounts.compared(k)
            of, noun = self.scan.at(k - 1), self.scan.at(k - 2)
            if found is None or of is None or of.used or of.low not in g.JOINS_NAME:
                continue
            closing = next((j for j in range(max(0, k - 1 - _NOUN_WORDS), k - 2)
                            if all(t.is_word and not t.used for t in self.scan.tokens[j : k - 1])
                            and folded(text_of(self.scan.tokens[j : k - 1])) in self.scan.header_tails), None)
            if closing is not None:
                # "a Standard electricity standing charge of more than 80p": a header's closing words
                first, name = closing, text_of(self.scan.tokens[closing : k - 1])
            elif noun is None or not noun.is_word or noun.used or noun.has_digit or not self.scan.names_column(noun.bare):
                continue
            else:
                first, name = k - 2, noun.bare
            op = found[0]
            end = self.value(op[0], capitalise(name), op[1], k)
            self.scan.use(first, end)

    def value(self, op: str, column: str, start: int, op_start: int) -> int:
        """Read the value of ``column op`` from ``start``; return the index after it."""
        words = text_of(self.scan.tokens[op_start:start])
        if op == "between":
            return self._between(column, start)
        tok = self.scan.at(start)
        if tok is not None and tok.kind == "quoted":
            if op in ("lt", "le") and not any(ch.isdigit() for ch in tok.text):
                # "the rows under 'Undergraduate major'": the heading printed over them, no bound
                self.scan.row_terms.append(tok.text)
                return start + 1
            self.scan.add_condition(start, column, op, tok.text)
            return start + 1
        if op in ("lt", "le", "gt", "ge"):
            end = self.amounts.amount_end(start)
        else:
            end = start
            while end < len(self.scan.tokens) and not self.scan.is_boundary(end):
                if end > start and self.scan.tokens[end].is_(g.CONJUNCTIONS) and self._condition_follows(end + 1):
                    break
                end += 1
        value = text_of(self.scan.tokens[start:end]).strip("'\"‘’“”")
        # a literal value is a name, a number or a short phrase; a clause of lower-case words is a description
        described = op in ("equals", "not") and len(value.split()) > 3 and value == value.lower() and not any(ch.isdigit() for ch in value)
        if not value or described or (op in ("lt", "le", "gt", "ge") and not is_amount(value)):
            self.note_unreadable(f"{column} {words} {value}".strip())
            self.scan.conditions.append((start, Condition(column=None, op="judgement", value=f"{column} {words} {value}".strip(), text=f"{column} {words} {value}".strip())))
            return max(end, start + (1 if value else 0))
        self.scan.add_condition(start, column, op, value)
        per = self.amounts.priced_per(end) if op in ("lt", "le", "gt", "ge") else end
        if per > end:  # "more than €100 per piece": the condition says what the price is of
            self.scan.say_in_last(text_of(self.scan.tokens[end:per]))
        return per

    def _between(self, column: str, start: int) -> int:
        low_end = self.amounts.amount_end(start)
        conj = self.scan.at(low_end)
        if conj is None or not conj.is_(g.CONJUNCTIONS):
            self.note_unreadable(f"{column} between {text_of(self.scan.tokens[start:low_end])}")
            return low_end
        high_end = self.amounts.amount_end(low_end + 1)
        low, high = text_of(self.scan.tokens[start:low_end]), text_of(self.scan.tokens[low_end + 1 : high_end])
        year = self.scan.at(high_end)
        if year is not None and g.YEAR.fullmatch(year.bare) and month_of(high) is not None and not g.YEAR.search(high):
            high = f"{high} {year.bare}"
        said = g.YEAR.search(high)
        if said and month_of(high.split()[0]) is not None and month_of(low) is not None and not g.YEAR.search(low):
            low = f"{low} {said.group(0)}"  # "between April and June 2025": the second month's year is both months'
        unit = unit_of(high)
        if unit and not unit_of(low) and parse_number(f"{low} {unit}") is not None or unit and not unit_of(low) and is_unit(unit):
            low = f"{low} {unit}"
        self.scan.add_condition(start, column, "ge", low)
        self.scan.add_condition(low_end + 1, column, "le", high)
        return high_end

    def _condition_follows(self, k: int) -> bool:
        while self.scan.at(k) is not None and self.scan.tokens[k].is_(g.DETERMINERS):
            k += 1
        for j in range(k, min(k + 5, len(self.scan.tokens))):
            if self.scan.operator_at(j):
                return j > k
            if self.scan.tokens[j].kind != "word":
                return False
        return False

    def take_comparisons(self) -> None:
        """``… and amount at least 100``: a comparison after a name, wherever it stands; the name stays a column."""
        for k, tok in enumerate(self.scan.tokens):
            op = self.scan.operator_at(k) if not tok.used else None
            if op is None or op[0] in ("equals", "contains"):
                continue
            if (bracketed := self._bracketed_header(k)) is not None:
                # "and a quarter-mile time (qsec) under 17 seconds": the header in brackets is the column
                column, first, opening = bracketed
                read = len(self.scan.conditions)
                end = self.value(op[0], column, op[1], k)
                said = text_of(strip_determiners(self.scan.tokens[first:opening]))
                if len(self.scan.conditions) > read and said:
                    self.scan.say_in_last(f"({said})")
                self.scan.use(first, end)
                continue
            start = k
            while start > 0 and self.scan.tokens[start - 1].kind == "word" and not self.scan.tokens[start - 1].used and not (
                self.scan.tokens[start - 1].is_(g.CONJUNCTIONS) or self.scan.is_boundary(start - 1)
                or self.scan.tokens[start - 1].is_(g.ASKING)  # "…, list every contribution above $2,000"
            ):
                start -= 1
                if self.scan.tokens[start].is_(g.COST_VERBS):
                    break  # "every Active contract worth more than …": what the thing is worth is compared
            if self._take_money(k, op, start):
                continue
            if start == k:
                continue
            # "all priority-1 incidents opened between April and June": a header among the words,
            # right before the comparison, is the column; the words before it are left for the
            # rest of the reading
            whole = text_of(strip_determiners(self.scan.tokens[start:k]))
            run = None if self.scan.names_header(whole) else self.scan.header_within(start, k, last=True)
            if run is not None and run[1] != k:
                run = None  # a header among the words compares only right before the comparison
            if run is None and not self.scan.names_column(whole) and self.take_noun_after(k, op) is not None:
                continue  # "which drive cycles show more than 5% fuel savings …": the noun after the amount
            column = capitalise(text_of(self.scan.tokens[run[0] : run[1]]) if run else whole)
            end = self.value(op[0], column, op[1], k)
            self.scan.use(k, end)
            if run:
                self.scan.use(*run)

    def worth(self, start: int, k: int, op: tuple[str, int]) -> str | None:
        """"all items over 200 euros", "every contribution above $2,000", "everyone who contributed
        more than $10.000,00": whether a sum of money compared at ``k`` after the words from
        ``start`` compares what the rows are worth, those words naming no column of the scope (the
        rows, or what they did after a relative word). The words the condition keeps ("" for
        none); None when it is no such comparison."""
        value_end = self.amounts.amount_end(op[1])
        if op[0] not in ("lt", "le", "gt", "ge") or not has_currency(text_of(self.scan.tokens[op[1] : value_end])):
            return None
        named = [t for t in self.scan.tokens[start:k] if not (t.is_(g.QUANTIFIERS) or t.is_(g.DETERMINERS))]
        relative = max((j for j, t in enumerate(named) if t.is_(g.RELATIVE)), default=-1)
        said = text_of(strip_determiners(named[relative + 1 :]))  # "everyone who contributed": what they did
        if named and not all(t.is_(g.ROW_NOUNS) for t in named):
            after_relative = relative >= 0 or (before := self.scan.at(start - 1)) is not None and before.is_(g.RELATIVE)
            if self.scan.names_column(said) or self.scan.header_within(start, k, last=True) is not None \
                    or not (self.scan.tokens[start].is_(g.QUANTIFIERS) or after_relative):
                return None  # "a net amount above €100", "Orders from Kiel above …": the words may be the column's
        return said.lower()

    def _take_money(self, k: int, op: tuple[str, int], start: int) -> bool:
        """A comparison of what the rows are worth (``worth``) read; whether it was."""
        said = self.worth(start, k, op)
        if said is None:
            return False
        value_end = self.amounts.amount_end(op[1])
        self.scan.add_condition(op[1], g.MONEY_COLUMN, op[0], text_of(self.scan.tokens[op[1] : value_end]))
        if said:
            self.scan.say_in_last(f"({said})")
        self.scan.use(start if start < k else k, value_end)
        return True

    def _bracketed_header(self, k: int) -> tuple[str, int, int] | None:
        """The header a bracket before ``k`` holds, with the words before it that say it in the
        user's words ("a quarter-mile time (qsec)"): (the header, where its words start, where
        the bracket opens); None when the bracket holds no header of the scope."""
        close = self.scan.at(k - 1)
        if close is None or close.text != ")":
            return None
        opening = next((m for m in range(k - 2, max(k - 6, -1), -1) if self.scan.tokens[m].text == "("), None)
        if opening is None or opening == k - 2:
            return None
        inside = self.scan.tokens[opening + 1 : k - 1]
        if not all(t.is_word and not t.used for t in inside) or not self.scan.names_header(text_of(inside)):
            return None
        first = opening
        while first > 0 and self.scan.tokens[first - 1].is_word and not self.scan.tokens[first - 1].used \
                and not self.scan.tokens[first - 1].is_(g.CONJUNCTIONS) and not self.scan.is_boundary(first - 1):
            first -= 1
        return capitalise(text_of(inside)), first, opening

    def take_noun_after(self, k: int, op: tuple[str, int]) -> int | None:
        """"show more than 5% fuel savings from eliminating stops": when the words before an ordering
        comparison name no column, the words after its amount, up to the clause's end, are the
        column compared. Where the condition's words end; None when no words follow the amount."""
        if op[0] not in ("lt", "le", "gt", "ge"):
            return None
        value_end = self.amounts.amount_end(op[1])
        if self.amounts.priced_per(value_end) > value_end:
            return None  # "cost more than €100 per piece": a price, of each piece
        end = self.scan.clause_end(value_end)
        after = self.scan.tokens[value_end:end]
        value = text_of(self.scan.tokens[op[1] : value_end])
        if len(after) > 1 and after[0].is_(g.JOINS_NAME) and value_end - 1 > op[1] and not self.scan.tokens[value_end - 1].has_digit:
            after = after[1:]  # "more than 3.5 seconds of inference time": the amount's unit, then what it measures
        if not after or not is_amount(value) or not after[0].is_content or after[0].has_digit \
                or not all(t.is_word and not t.used for t in after) or is_qualifier(after[0].bare):
            return None
        if len(after) == 1 and not self.scan.names_column(after[0].bare):
            return None  # "20 zł net", "1,500 kWh/year": a word that qualifies the amount names no column
        column = capitalise(text_of(after))
        self.scan.add_condition(op[1], column, op[0], value)
        self.scan.use(k, end)
        return end

    def take_headers_in_brackets(self) -> None:
        """"which countries had more than 100 samples (N) in 2006": an ordering comparison whose
        amount a few words and a header of the scope in brackets follow compares that header (with
        the year after it, when the two name a header together); the words say it in the user's."""
        for k, tok in enumerate(self.scan.tokens):
            op = self.scan.operator_at(k) if not tok.used else None
            if op is None or op[0] not in ("lt", "le", "gt", "ge"):
                continue
            value_end = self.amounts.amount_end(op[1])
            value = text_of(self.scan.tokens[op[1] : value_end])
            end = self.scan.sentence_end(value_end)
            bracketed = self._header_after(value_end, end, self.scan.at(k - 1)) if is_amount(value) else None
            if bracketed is None:
                continue
            column, said, stop, year_before = bracketed
            self.scan.add_condition(op[1], column, op[0], value)
            self.scan.say_in_last(f"({said})")
            self.scan.use(k - 1 if year_before else k, stop)

    def _header_after(self, start: int, end: int, before: Tok | None = None) -> tuple[str, str, int, bool] | None:
        """"… 100 samples (N) in 2006": words, then a header of the scope in brackets, alone or with
        a year next to the comparison that names a header with it ("N 2006" for "2006 n"): after
        the bracket ("in 2006") or ``before`` the comparison ("hatten 2006 mehr als …"). (the
        column, the words before the bracket, where the words read end, whether the year before
        was read); None when no such bracket follows."""
        tokens = self.scan.tokens
        opening = next((m for m in range(start + 1, min(end, start + 5)) if tokens[m].text == "("), None)
        if opening is None or not all(t.is_word and not t.used and t.is_content for t in tokens[start:opening]):
            return None
        stop = self.scan.bracket_end(opening)  # "(N)": a few words of a name, no phrase
        if stop is None or stop > end or any(t.used for t in tokens[opening + 1 : stop - 1]):
            return None
        column, said = text_of(tokens[opening + 1 : stop - 1]), text_of(tokens[start:opening])
        after, year = self.scan.at(stop), self.scan.at(stop + 1)
        for tok, read_to, first in ((year if after is not None and after.is_(g.MONTH_PREPOSITIONS) else None, stop + 2, False),
                                    (before, stop, True)):
            if tok is not None and self._header_year(tok, column):
                # a year read as the documents' date is the header's, no place
                tok.kind, tok.place, tok.used = "word", None, False
                return capitalise(f"{column} {tok.text}"), said, read_to, first
        return (capitalise(column), said, stop, False) if self.scan.names_header(column) else None

    def _header_year(self, tok: Tok, name: str) -> bool:
        """Whether a year (a word, or a year read as the documents' date) names a header of the
        scope with the name, on either side ("N 2006" for "2006 n")."""
        if not g.YEAR.fullmatch(tok.text) or tok.used and tok.kind != "place":
            return False
        return self.scan.names_header(f"{name} {tok.text}") or self.scan.names_header(f"{tok.text} {name}")

    def note_unreadable(self, words: str) -> None:
        self.scan.notes.append(
            f"The offline engine cannot read the condition '{words}'; it keeps every row that meets the other "
            f"conditions and marks none of them as meeting it. {JUDGEMENT_HINT}"
        )


def _opens_noun(tok: Tok) -> bool:
    """Whether a word stands before the noun of a name, never in it: "have", "a", "which", "every"."""
    return tok.is_(g.DETERMINERS) or tok.is_(g.QUANTIFIERS) or tok.is_(g.HAS_WORDS) or tok.is_(g.BE_WORDS) \
        or tok.is_(g.RELATIVE) or tok.low in WHICH
