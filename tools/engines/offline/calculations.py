"""A calculation the request opens with ("What is the total of …", "How many …", "Average
unit price by product family …"), and the column it is over."""

from __future__ import annotations

from dataclasses import dataclass

from tools.engines.offline import grammar as g
from tools.engines.offline.scan import Scan
from tools.engines.offline.tokens import capitalise, text_of


@dataclass
class Calculations:
    """The calculation a request asks for."""

    scan: Scan

    def take_calculation(self) -> None:
        """A calculation the request opens with, and the column it is over."""
        text = self.scan.message
        if g.HOW_MANY.match(text):
            self.scan.calculations.append("count of rows")
            end = self.scan.sentence_end(0)
            self.scan.counted_rows = end  # the rest of the question names the rows counted, not columns
            # "How many claims does each policy list? Policy number and claim number."
            if end < len(self.scan.tokens):
                self.scan.use(0, end + 1)
            else:
                self.scan.use(0, 2)
            return
        start = 0
        ask = g.ASKS.match(text)
        if ask:
            start = len(ask.group().split())
        i = start
        while self.scan.at(i) is not None and self.scan.tokens[i].is_(g.DETERMINERS):
            i += 1
        tok = self.scan.at(i)
        if tok is None or tok.kind != "word":
            return
        kind = g.CALCULATION_WORDS.get(tok.low)
        if kind is None and tok.low == "plus" and (nxt := self.scan.at(i + 1)) is not None and nxt.low == "élevé":
            kind = "maximum"
        if kind is None:
            return
        j = i + 1
        while self.scan.at(j) is not None and self.scan.tokens[j].low in ("of", "der", "de", "des", "du", "aller") and self._calc_of_continues(j):
            j += 1
        while self.scan.at(j) is not None and self.scan.tokens[j].is_(g.DETERMINERS):
            j += 1
        follows = self.scan.at(j)
        name_end = j if follows is None or follows.is_(g.QUANTIFIERS) or follows.is_(g.ENDS_LIST) else self.scan.name_end(j)
        column = text_of(self.scan.tokens[j:name_end])
        if not column:
            column = capitalise(tok.bare)  # "the total of all invoices": the Total
        group = ""
        end = name_end
        by = self.scan.at(name_end)
        if by is not None and by.is_(g.GROUP_WORDS):
            group_end = self.scan.name_end(name_end + 1)
            group = text_of(self.scan.tokens[name_end + 1 : group_end])
            end = group_end
        self.scan.use(0, end)
        self.scan.calculations.append(kind if not column else f"{kind} of {capitalise(column)}")
        if group:
            self.scan.calculations[-1] += f" by {capitalise(group)}"
            self.scan.columns.append((name_end + 1, capitalise(group)))
            self.scan.group_first = True
        self.scan.columns.append((j, capitalise(column)))

    def _calc_of_continues(self, j: int) -> bool:
        """After "the sum": "of the gross amount" names its column; "of all invoices" names documents."""
        nxt = self.scan.at(j + 1)
        return nxt is not None and (nxt.is_(g.DETERMINERS) or (nxt.is_word and not nxt.is_(g.QUANTIFIERS) and not nxt.capital))
