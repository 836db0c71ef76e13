"""Amounts compared in a request: where a value with its currency or unit ends, and the column a
comparison names by the header that follows its value ("more than 100,000 EUR revenue", "more
than 60 days overdue") or by its unit ("heavier than 100 kg" over "Gewicht (kg)", "more than 8
hours" over Hours)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from tools.engines.columns import abbreviates, folded, is_known_column, is_qualifier, normalise
from tools.engines.units import MEASURE_UNIT
from tools.engines.numbers import has_currency, is_amount, parse_number
from tools.engines.offline import grammar as g
from tools.engines.offline.scan import Scan
from tools.engines.offline.tokens import capitalise, text_of


@dataclass
class Amounts:
    """The amounts a request compares, and the columns their comparisons name."""

    scan: Scan

    def take_column_after_amount(self) -> None:
        """"did a region bring in more than 100,000 EUR revenue": a comparison whose amount a header
        of the scope follows compares that column, and so does one whose amount counts things "of"
        a header ("more than 10,000 arrests of American Indian/Alaskan Native people"); the words
        before the comparison are left for the rest of the reading (a clause only meaning can
        judge)."""
        for k in range(len(self.scan.tokens)):
            found = self.compared(k)
            if found is None:
                continue
            op, value_end, value = found
            clause = self.scan.clause_end(value_end)
            after = self.scan.at(value_end)
            if self.priced_per(value_end) > value_end:
                continue  # "more than €100 per piece": a price, of each piece
            named = self._header_run(value_end, value_end, clause) if after is not None and after.is_content else None
            first = value_end
            unit = self.scan.tokens[value_end - 1]
            if named is None and value_end - 1 > op[1] and unit.is_word and not unit.has_digit:
                # "more than 60 days overdue": a header that opens with the value's unit ("Days overdue")
                first = value_end - 1
                named = self._header_run(first, value_end, clause)
                value = text_of(self.scan.tokens[op[1] : first])
            if named is None and (of := self.counted_of(value_end)) is not None:
                first, named = of
            if named is None and after is not None and after.low in _IN and not after.used:
                # "exported more than 500 in beef", "above 50,000 in 2010": the header after "in"
                first = value_end + 1
                named = self._header_run(first, first, len(self.scan.tokens))
                value = text_of(self.scan.tokens[op[1] : value_end])
            if named is None or named == value_end == first + 1 and self._named_before(k):
                continue  # "a corrosion rate below 1 mm/year": the column stands before, and the unit after is its unit
            column = capitalise(text_of(self.scan.tokens[first:named]))
            self.scan.add_condition(op[1], column, op[0], value)
            self.scan.use(k, named)
            if first == value_end + 1 and k >= 2 and self.scan.tokens[k - 1].low == "by" and self.scan.tokens[k - 2].is_word:
                self.scan.use(k - 2, k)  # "grew by less than 10 per cent in 2001-2011": the change the column holds

    def take_rate_before_column(self) -> None:
        """"the items charged at 19% VAT", "lines with a 10 % discount": a percentage right before
        the name of a column the scope's headers give or the synonym map knows is that column's
        value (the two may stand as one name of the scope: "19 % VAT")."""
        for k, tok in enumerate(self.scan.tokens):
            found = None if tok.used else self._rate_before_name(k)
            if found is not None:
                value, name, end = found
                self.scan.add_condition(k, capitalise(name), "equals", value)
                self.scan.use(k, end)

    def _rate_before_name(self, k: int) -> tuple[str, str, int] | None:
        """(the percentage, the column's name, the index after them) from token ``k``; None when
        no percentage stands there right before a column's name."""
        tokens = self.scan.tokens
        joined = _RATE_OF.fullmatch(tokens[k].text)
        if joined is not None and tokens[k].term and g.YEAR.fullmatch(joined.group(1).rstrip("% ")):
            return None  # "2007 % Pos": a header of the year's share, no rate of 2007 %
        if joined is not None:
            value, name, end = joined.group(1), joined.group(2), k + 1
        else:
            sign = self.scan.at(k + 1)
            split = sign is not None and sign.text == "%" and not sign.used
            value_end = k + 2 if split else k + 1
            noun = self.scan.at(value_end)
            if not (split or tokens[k].text.endswith("%")) or noun is None or noun.used or not noun.is_word or noun.has_digit:
                return None
            value, name, end = text_of(tokens[k:value_end]), noun.bare, value_end + 1
        if parse_number(value.rstrip("% ")) is None or not (self.scan.names_header(name) or is_known_column(name)):
            return None
        return value.replace(" ", ""), name, end  # "19 %" as "19%"

    def counted_of(self, value_end: int) -> tuple[int, int] | None:
        """"10,000 arrests of American Indian/Alaskan Native people": the header naming whose
        things an amount counts, as (start, end) of its words (the caller reads the thing counted
        and "of" with them); None when the words after the amount are no thing counted "of" a
        header."""
        counted, joiner = self.scan.at(value_end), self.scan.at(value_end + 1)
        if counted is None or joiner is None or not counted.is_content or counted.used \
                or not joiner.is_(g.JOINS_NAME) or joiner.used:
            return None
        # the clause ends at "of" when the words after it name documents: the header may stand there
        end = self._header_run(value_end + 2, value_end + 2, len(self.scan.tokens))
        return None if end is None else (value_end + 2, end)

    def _header_run(self, first: int, start: int, stop: int) -> int | None:
        """Where the longest run of unread words from ``start`` ends (three at most, before
        ``stop``) whose words from ``first`` head a column of the scope; None when none does."""
        return next((end for end in range(min(stop, start + 3), start, -1)
                     if all(t.is_word and not t.used for t in self.scan.tokens[start:end])
                     and self._heads_column(text_of(self.scan.tokens[first:end]))), None)

    def _named_before(self, k: int) -> bool:
        """Whether the words right before a comparison at ``k`` name a header of the scope."""
        named = self.scan.header_within(max(0, k - _NAME_WORDS), k, last=True)
        return named is not None and named[1] == k

    def compared(self, k: int) -> tuple[tuple[str, int], int, str] | None:
        """The ordering comparison of an amount that starts at ``k`` ("more than 100,000 EUR"), none
        of its words read yet: (the operator and where its value starts, where the value ends, the
        value); None otherwise."""
        op = self.scan.operator_at(k) if not self.scan.tokens[k].used else None
        if op is None or op[0] not in ("lt", "le", "gt", "ge"):
            return None
        value_end = self.amount_end(op[1])
        value = text_of(self.scan.tokens[op[1] : value_end])
        if value_end == op[1] or not is_amount(value) or any(t.used for t in self.scan.tokens[k:value_end]):
            return None
        return op, value_end, value

    def take_unit_comparisons(self) -> None:
        """"did Anna Nowak work more than 8 hours", "Van Rijn shipments heavier than 100 kg": a
        comparison whose unit names a column (``_unit_column``) compares that column, when the
        word before it names none or the comparison is a measure's ("heavier than", where the
        word before is what is weighed); a measure's comparison of a sum of money compares what
        the rows are worth ("items cheaper than 20 EUR"). The words before are left for the rest
        of the reading (the owner, the rows)."""
        for k in range(len(self.scan.tokens)):
            measure = self._measure_compared(k)
            found = measure or self.compared(k)
            if found is None:
                continue
            op, value_end, value = found
            column = self._unit_column(unit_of(value))
            before = self.scan.at(k - 1)
            if column is None and measure is not None and has_currency(value):
                column = g.MONEY_COLUMN
            elif column is None and measure is not None and before is not None and before.is_word \
                    and not before.used and self.scan.names_column(before.bare):
                column = capitalise(before.bare)  # "readings warmer than -18 °C": what is measured names its column
            if column is None or measure is None and self._named_before(k):
                continue  # "a corrosion rate below 1 mm/year": the words before name the column
            self.scan.add_condition(op[1], column, op[0], value)
            self.scan.use(k, value_end)

    def _measure_compared(self, k: int) -> tuple[tuple[str, int], int, str] | None:
        """A measure's comparison of an amount that starts at ``k`` ("heavier than 100 kg"), none
        of its words read yet: as ``compared`` gives it; None otherwise."""
        words = [t.low for t in self.scan.tokens[k : k + 4]]
        for op, phrase in g.MEASURE_COMPARATIVES:
            if words[: len(phrase)] == phrase:
                start = k + len(phrase)
                value_end = self.amount_end(start)
                value = text_of(self.scan.tokens[start:value_end])
                if value_end == start or not is_amount(value) or any(t.used for t in self.scan.tokens[k:value_end]):
                    return None
                return (op, start), value_end, value
        return None

    def _heads_column(self, words: str) -> bool:
        """Whether words name a header of the scope as written, by its closing words, with a unit in brackets
        ("revenue": "Revenue (EUR)") or by their initials ("home runs": "HR"); a word that only qualifies an amount ("20 zł net") or an
        article ("100,000 PLN a year") names none."""
        first = words.split()[0]
        if first.casefold() in g.DETERMINERS or is_qualifier(first):
            return False
        # … or a header that writes the words' initials ("25 home runs" over "HR")
        # … or the closing words of a header under a group ("55% illiterate" over "Literacy Status Illiterate")
        return self.scan.names_header(words) or folded(words) in self.scan.header_tails or any(
            folded(re.sub(r"\([^)]*\)", " ", term)) == folded(words)
            or len(words.split()) > 1 and abbreviates(normalise(term), normalise(words))
            for term in self.scan.scope.vocabulary
        )

    def amount_end(self, start: int) -> int:
        """A number with its currency or unit: "EUR 2.500", "2,50 EUR", "100 kg", "30.06.2024"."""
        end = start
        tok = self.scan.at(end)
        if tok is not None and tok.kind == "word" and not tok.has_digit and self.scan.at(end + 1) is not None and self.scan.tokens[end + 1].has_digit:
            end += 1  # a currency before the number
        while self.scan.at(end) is not None and self.scan.tokens[end].kind == "word" and (self.scan.tokens[end].has_digit or self.scan.tokens[end].low in ("million", "millionen", "mio", "thousand", "k")):
            end += 1
        if end == start:  # "one million"
            while self.scan.at(end) is not None and self.scan.tokens[end].kind == "word" and not self.scan.is_boundary(end) and end - start < 3:
                if parse_number(text_of(self.scan.tokens[start : end + 1])) is None and end > start:
                    break
                end += 1
            return end
        unit = self.scan.at(end)
        cent = self.scan.at(end + 1)
        if unit is not None and unit.low in ("per", "pour") and cent is not None and cent.low == "cent":
            return end + 2  # "60 per cent"
        if unit is not None and unit.kind == "word" and not unit.used and is_unit(unit.text) and self.priced_per(end) == end:
            end += 1  # not the "per" of "€100 per piece"
        return end

    def priced_per(self, end: int) -> int:
        """Where "per piece" after a sum of money ending at ``end`` ends: the price is each thing's
        ("more than €100 per piece"); ``end`` when no such words follow."""
        per, thing = self.scan.at(end), self.scan.at(end + 1)
        if per is not None and per.is_(g.PER) and not per.used and thing is not None and thing.is_word \
                and not thing.has_digit and not thing.used and has_currency(text_of(self.scan.tokens[max(0, end - 2) : end])):
            return end + 2
        if per is not None and (per.is_(g.PER) or per.low in ("a", "an")) and not per.used and thing is not None \
                and thing.low in g.TIME_UNITS and not thing.used:
            return end + 2  # "more than 80p a day": a rate, the amount's unit
        return end

    def _unit_column(self, unit: str) -> str | None:
        """The column a comparison's unit names: a header of the scope that is the unit's noun
        ("8 hours": Hours), else the one header whose unit in brackets it is ("100 kg":
        "Gewicht (kg)"); None for a currency (what the rows are worth) or no such header."""
        if not unit or has_currency(f"1 {unit}"):
            return None
        if self.scan.names_column(unit) and not is_qualifier(unit):
            return capitalise(unit)
        forms = {folded(unit), folded(g.UNIT_SYMBOLS.get(unit.casefold(), unit))}
        found = {term for term in self.scan.scope.vocabulary
                 if (bracket := re.search(r"\(([^)]*)\)\s*$", term)) and folded(bracket.group(1)) in forms}
        return next(iter(found)) if len(found) == 1 else None


# a value's unit: a measure or currency (``MEASURE_UNIT``), a piece count, a temperature, or any
# short symbol written after a figure ("100 ha")
_UNIT = re.compile(
    rf"^(?:{MEASURE_UNIT.pattern}|[a-zA-Z]{{1,3}}\.?|stk\.?|pcs|°\s?[cf]?|℃|℉|[a-zA-Z]{{1,3}}/[^\W\d_]{{1,6}}[²³]?)$", re.IGNORECASE
)  # "mm/year", "km/h": a unit per another


def is_unit(word: str) -> bool:
    """Whether a word is the unit or currency a value is written with ("kg", "EUR", "days")."""
    return bool(_UNIT.match(word)) and word.casefold() not in _NO_UNITS


_RATE_OF = re.compile(r"(\d+(?:[.,]\d+)?\s*%)\s+([^\W\d]+)")  # "19 % VAT"
_IN = g.words("in im en w")  # "more than 500 in beef": the column the amount is of
_NAME_WORDS = 3  # the words before a comparison that may name its column ("a corrosion rate below …")

# short words that are the sentence's grammar, never a unit ("the rate was 11.0 or higher")
_NO_UNITS = g.CONJUNCTIONS | g.ENDS_LIST | g.DETERMINERS | g.BE_WORDS | g.AUXILIARIES | g.HAS_WORDS | {"or"}


def unit_of(value: str) -> str:
    """The unit a value ends with ("100 kg": "kg"); empty when none."""
    words = value.split()
    return words[-1] if len(words) > 1 and not any(ch.isdigit() for ch in words[-1]) else ""
