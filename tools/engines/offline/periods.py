"""When a thing ends or starts, compared with a time: "contracts that expire in 2024", "run out
before April 2026", "agreements starting after 01.01.2025".

A verb of ending or starting, then a comparison or a preposition of time, then a year, a month
(with its year) or a date: a condition on the column of end dates or start dates (``end date``,
``start date`` of the synonym map), which the reading names with the requested column of that
kind ("Ende", "End date"). The year or month is then a value, never a folder or the documents'
date.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.reading import Condition
from tools.engines.months import month_of
from tools.engines.numbers import parse_date
from tools.engines.offline import grammar as g
from tools.engines.offline.scan import Scan
from tools.engines.offline.tokens import text_of

# "in 2024", "during May", "im März", "en 2024": the time the thing ends in
_WITHIN = g.words("in during within im en")


@dataclass
class Periods:
    """Conditions on when the rows' things end or start."""

    scan: Scan

    def take_periods(self) -> None:
        i = 0
        while i < len(self.scan.tokens):
            found = self._verb_at(i)
            if found is None:
                i += 1
                continue
            column, after = found
            op, start = self._comparison_at(after)
            end = self._time_end(start) if op else start
            if end == start:
                i += 1
                continue
            verb = text_of(self.scan.tokens[i:after])
            year = self._compared(column, op, start, end, verb)
            # "terminaron en 2025 antes de junio", "ended after March and before June": a second
            # time right after compares the same column; a month without its year takes the first's
            while True:
                k = end + 1 if (tok := self.scan.at(end)) is not None and tok.is_(g.CONJUNCTIONS) else end
                more, begins = self._comparison_at(k)
                ends = self._time_end(begins) if more else begins
                if ends == begins or op == more == "equals":
                    break  # "ended in 2023 and in 2024" asks for either year: not two times of one row
                self._compared(column, more, begins, ends, verb, year)
                end = ends
            self.scan.use(i, end)
            i = end

    def _compared(self, column: str, op: str, start: int, end: int, verb: str, year: str | None = None) -> str | None:
        """The condition the time from ``start`` to ``end`` sets on ``column``, added; the year it
        names, if it is one. A month alone is of ``year`` when one was named before."""
        value = text_of(self.scan.tokens[start:end])
        for tok in self.scan.tokens[start:end]:
            tok.kind, tok.place = "word", None  # a year read as a place before: the value it is
        if year is not None and end == start + 1 and month_of(value) is not None:
            value = f"{value} {year}"
        said = "in" if op == "equals" else g.OP_WORDS[op]
        self.scan.conditions.append((start, Condition(column=column, op=op, value=value, text=f"{column} {said} {value} ({verb})")))
        return value if g.YEAR.fullmatch(value) else None

    def _verb_at(self, i: int) -> tuple[str, int] | None:
        """(the column the verb at ``i`` compares, the index after the verb) or None."""
        for phrase, column in g.PERIOD_VERBS:
            window = self.scan.tokens[i : i + len(phrase)]
            if len(window) == len(phrase) and all(t.kind == "word" and not t.used and t.low == w for t, w in zip(window, phrase)):
                return column, i + len(phrase)
        return None

    def _comparison_at(self, k: int) -> tuple[str | None, int]:
        """The comparison after the verb ("before", "after", "in") and where its value starts."""
        found = self.scan.operator_at(k)
        if found is not None and found[0] in ("lt", "le", "gt", "ge"):
            return found
        tok = self.scan.at(k)
        if tok is not None and tok.kind == "word" and tok.low in _WITHIN and not tok.used:
            return "equals", k + 1
        return None, k

    def _time_end(self, start: int) -> int:
        """Where a year, a month with or without its year, or a date that starts at ``start`` ends;
        ``start`` when none starts there."""
        tok = self.scan.at(start)
        if tok is None or tok.used and tok.kind != "place":
            return start
        if tok.kind == "place" and (tok.place is None or tok.place.kind != "year"):
            return start
        if g.YEAR.fullmatch(tok.bare) or parse_date(tok.bare) is not None:
            return start + 1
        if month_of(tok.text) is not None:
            year = self.scan.at(start + 1)
            return start + 2 if year is not None and g.YEAR.fullmatch(year.bare) else start + 1
        return start
