"""Conditions on whether a row's cell holds a value, and on its sign: "which states have an entry
under Loans from SBI", "lines with no value in Discount", "which lines had no discount", "(negative
amounts)", "a non-zero Family Welfare amount under Capital"."""

from __future__ import annotations

from dataclasses import dataclass

from core.reading import Condition
from tools.engines.columns import folded
from tools.engines.offline import grammar as g
from tools.engines.offline.scan import Scan
from tools.engines.offline.tokens import Tok, capitalise, strip_determiners, text_of


@dataclass
class Presence:
    """The conditions a request sets on a cell's value being there, absent, zero or of a sign."""

    scan: Scan

    def take_signs(self) -> None:
        """"(negative amounts)", "a non-zero Family Welfare amount": a sign before the column it
        compares with zero (a header of the scope right after it, else the one word after it)."""
        tokens = self.scan.tokens
        for k, tok in enumerate(tokens):
            op = g.SIGNS.get(tok.low) if tok.kind == "word" and not tok.used else None
            if op is None:
                continue
            clause = self.scan.clause_end(k + 1)
            header, grouped, first = self.scan.header_within(k + 1, clause), None, k
            if header is not None and header[0] == k + 1:
                end = header[1]
            elif (grouped := self.scan.grouped_header(k + 1, clause)) is not None:
                end = grouped[1]  # "a non-zero Family Welfare amount under Capital"
            elif (nxt := self.scan.at(k + 1)) is not None and nxt.is_content and not nxt.has_digit and k + 2 >= clause:
                end = k + 2  # "(negative amounts)": the one word the clause holds after it
            elif (before := self.scan.header_within(max(0, k - 4), k, last=True)) is not None and before[1] == k:
                # "(latitude négative)", "crecimiento negativo": the header before the sign, as
                # French and Spanish set an adjective after its noun
                first, end = before[0], k + 1
            else:
                continue
            named = tokens[first:k] if first < k else tokens[k + 1 : end]
            column = grouped[0] if grouped is not None else capitalise(text_of(named).strip("()[]{},;:.!? "))
            self.scan.conditions.append((k, Condition(column=column, op=op, value="0", text=f"{column} {tok.text}")))
            self.scan.use(first, end)

    def take_presence(self, start: int, end: int) -> bool:
        """"which states have an entry under Loans from SBI & Other Banks", "lines with no value in
        Discount": a verb of having, a word of one (or of none), a noun of a value and a header of
        the scope after "under/in/for" say the row's cell holds a value (or holds none: empty, or a
        dash the table prints for none). False for any other clause."""
        tokens = self.scan.tokens
        k = start + 1 if tokens[start].is_(g.HAS_WORDS) or tokens[start].is_(g.BE_WORDS) else start
        if self._named_values(start, k, end):
            return True
        none = k < end and tokens[k].low in g.NONE_WORDS
        k += 1 if none or (k < end and tokens[k].is_(g.DETERMINERS)) else 0
        if k + 1 < end and tokens[end - 1].low in g.ENTRY_NOUNS and all(t.is_word for t in tokens[k : end - 1]) \
                and (self.scan.names_column(named := text_of(tokens[k : end - 1])) or folded(named) in self.scan.header_tails):
            # "which districts have no urban figure": the words before the noun of a value name its column
            column, said = capitalise(named), text_of(tokens[start:end])
            self.scan.conditions.append((start, Condition(column=column, op="equals" if none else "not", value="", text=said)))
            self.scan.use(start, end)
            return True
        if k + 2 >= end or tokens[k].low not in g.ENTRY_NOUNS or tokens[k + 1].low not in g.UNDER:
            return False
        header = self.scan.header_within(k + 2, end)
        if header is None or header[0] != k + 2 or header[1] != end:
            return False
        column = capitalise(text_of(tokens[header[0] : header[1]]))
        said = text_of(tokens[start:end])
        self.scan.conditions.append((start, Condition(column=column, op="equals" if none else "not", value="", text=said)))
        self.scan.use(start, end)
        return True

    def _named_values(self, start: int, k: int, end: int) -> bool:
        """"which cost categories have exclusions or unallowables" over a column "Less: Exclusions &
        Unallowables": after a verb of having, words that are a header's closing words (its "&"
        written "or" or "and") say the row's cell holds a value."""
        tokens = self.scan.tokens
        words = tokens[k:end]
        if not tokens[start].is_(g.HAS_WORDS) or not words or not all(t.is_word for t in words) \
                or words[0].is_(g.CONJUNCTIONS) or words[-1].is_(g.CONJUNCTIONS):
            return False
        parts = [" ".join(t.bare for t in part) for part in _parts(words)]
        if len(words) >= 2 and (headed := self.scan.headed_by(text_of(words))):
            # "that have GPS coordinates" over "GPS Coordinates Northing | … Easting": a label over
            # several columns says each of them holds a value
            said = text_of(tokens[start:end])
            self.scan.conditions.extend((start, Condition(column=h, op="not", value="", text=f"{h} given ({said})")) for h in headed)
            self.scan.use(start, end)
            return True
        if len(words) < 2 or folded(" ".join(parts)) not in self.scan.header_tails:
            return False
        column = capitalise(" & ".join(parts))
        self.scan.conditions.append((start, Condition(column=column, op="not", value="", text=text_of(tokens[start:end]))))
        self.scan.use(start, end)
        return True

    def take_none_of(self, start: int, end: int) -> bool:
        """"which lines had no discount", "were without discount", "ohne Rabatt": a verb of having
        or being at most, a word of "none", and words naming a column of the scope (as written or
        by their kind) say the column holds zero, written as a figure or a percentage (a discount
        printed as "-10.00" is one); an empty cell, which may mean none, is left unsure. False for
        any other clause."""
        tokens = self.scan.tokens[start:end]
        k = 1 if tokens and (tokens[0].is_(g.HAS_WORDS) or tokens[0].is_(g.BE_WORDS)) else 0
        if len(tokens) < k + 2 or tokens[k].low not in g.NONE_WORDS:
            return False
        named = strip_determiners(tokens[k + 1 :])
        words = text_of(named)
        if not named or not all(t.is_word for t in named) or not self.scan.names_column(words):
            return False
        column, said = capitalise(words), text_of(tokens)
        self.scan.conditions.append((start, Condition(column=column, op="equals", value="0 or 0%", text=f"{column} is 0 ({said})")))
        self.scan.use(start, end)
        return True


def _parts(words: list[Tok]) -> list[list[Tok]]:
    """Words parted where "and", "or" or "&" joins them."""
    parts: list[list[Tok]] = [[]]
    for t in words:
        if t.is_(g.CONJUNCTIONS) or t.low == "or":
            parts.append([])
        else:
            parts[-1].append(t)
    return [p for p in parts if p]
