"""The scope's own names, read first: a run of words that equals a header or label of the
scope ("Region and state", "Domestic (%)", "Total Costs All Funds") becomes one word."""

from __future__ import annotations

from dataclasses import dataclass

from tools.engines.columns import folded
from tools.engines.offline.scan import Scan
from tools.engines.offline.tokens import MAX_TERM_TOKENS, SEPARATORS, Tok


@dataclass
class Terms:
    """The scope's headers and labels found whole in the message."""

    scan: Scan

    def take_terms(self) -> None:
        """The scope's own names first: the longest runs of words that equal a header or label of
        the scope (case, spacing, punctuation and plurals folded) become one word each, written as
        the message writes it, so that no rule splits "Region and state", "Prijs incl. BTW" or
        "Total Costs All Funds", or reads its year as a place. Runs of one word are left as they are."""
        if not self.scan.terms:
            return
        merged: list[Tok] = []
        i = 0
        while i < len(self.scan.tokens):
            end = self._term_end(i)
            if end is None:
                merged.append(self.scan.tokens[i])
                i += 1
                continue
            start = self.scan.tokens[i].start
            last = self.scan.tokens[end - 1]
            merged.append(Tok(self.scan.message[start : last.start + len(last.text)], term=True, start=start))
            i = end
        self.scan.tokens = merged

    def _term_end(self, i: int) -> int | None:
        """Where the longest run of two or more words from token ``i`` that names a term ends."""
        first = self.scan.tokens[i]
        if first.kind != "word" or first.used:
            return None
        for end in range(min(len(self.scan.tokens), i + MAX_TERM_TOKENS), i + 1, -1):
            span = self.scan.tokens[i:end]
            last = span[-1]
            if any(t.used or t.kind not in ("word", "punct") for t in span):
                continue
            text = self.scan.message[first.start : last.start + len(last.text)]
            if last.text in SEPARATORS and not (last.text == "." and any(term.endswith(".") for term in self.scan.terms.get(folded(text), ()))):
                continue  # a run ends at a separator only when the name does ("Article no.")
            marks = {ch for ch in text if not ch.isalnum() and not ch.isspace()}
            if any(marks <= {ch for ch in term if not ch.isalnum() and not ch.isspace()} for term in self.scan.terms.get(folded(text), ())):
                return end
        return None
