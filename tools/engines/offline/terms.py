"""The scope's own names, read first: a run of words that equals a header or label of the
scope ("Region and state", "Domestic (%)", "Total Costs All Funds") becomes one word."""

from __future__ import annotations

from dataclasses import dataclass

from tools.engines.columns import folded
from tools.engines.offline import grammar as g
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
        "Total Costs All Funds", or reads its year as a place. Runs of one word are left as they are.
        A list's item that is the first words of one header alone is that header shortened
        ("… and WMA from RBI." for "WMA from RBI & FIs")."""
        if not self.scan.terms:
            return
        merged: list[Tok] = []
        i = 0
        while i < len(self.scan.tokens):
            end = self._term_end(i) or self._shortened_end(i)
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
            # "ppm)" of "Konzentration (ppm)" names no "(ppm)": its bracket opens before the run
            if any(marks <= {ch for ch in term if not ch.isalnum() and not ch.isspace()} and _open(text) == _open(term)
                   for term in self._named(text)):
                return end
        return None

    def _named(self, text: str) -> list[str]:
        """The scope's terms the words name: as written, or with the year that closes or opens
        them on the other side ("N 2006" and "% Pos 2006" for the headers "2006 n" and "2006 %
        Pos", which a year printed over its columns' names gives)."""
        key = folded(text)
        if key in self.scan.terms:
            return self.scan.terms[key]
        words = key.split()
        if len(words) >= 2 and g.YEAR.fullmatch(words[-1]):
            return self.scan.terms.get(" ".join([words[-1], *words[:-1]]), [])
        if len(words) >= 2 and g.YEAR.fullmatch(words[0]):
            return self.scan.terms.get(" ".join([*words[1:], words[0]]), [])
        return []

    def _shortened_end(self, i: int) -> int | None:
        """Where a run of three words or more from token ``i`` ends that is the first words of one
        term of the scope alone and ends where an item of a list does (a separator, "and", the
        message's end): a long header shortened by its tail. A run holding "and" is items of a
        list ("price and quantity" over "Price and quantity note")."""
        tokens = self.scan.tokens
        if tokens[i].kind != "word" or tokens[i].used:
            return None
        for end in range(min(len(tokens), i + MAX_TERM_TOKENS), i + SHORTENED_WORDS - 1, -1):
            span = tokens[i:end]
            after = tokens[end] if end < len(tokens) else None
            if any(t.used or t.kind != "word" or t.low in g.CONJUNCTIONS or t.low == "or" for t in span) or not (
                    after is None or after.text in SEPARATORS or after.low in g.CONJUNCTIONS):
                continue
            words = folded(self.scan.message[span[0].start : span[-1].start + len(span[-1].text)]).split()
            heads = {key for key in self.scan.terms if key.split()[: len(words)] == words and len(key.split()) > len(words)}
            if len(heads) == 1:
                return end
        return None


SHORTENED_WORDS = 3  # words a header shortened by its tail keeps at least ("WMA from RBI")


def _open(text: str) -> int:
    """The brackets a text opens and leaves open (less those it closes without opening)."""
    return text.count("(") - text.count(")")
