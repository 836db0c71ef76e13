"""What selects rows by meaning ("every hardware position on …", a parenthesis): named as what
the offline engine cannot judge, never silently dropped or kept."""

from __future__ import annotations

from dataclasses import dataclass

from tools.engines.offline import grammar as g
from tools.engines.offline.scan import JUDGEMENT_HINT, Scan
from tools.engines.offline.tokens import SENTENCE_END, WHICH, Tok, text_of


@dataclass
class Judgement:
    """The words that select rows by meaning."""

    scan: Scan

    def take_row_terms(self) -> None:
        """``every hardware position on Acme's invoices``: words before the documents select rows."""
        i = 0
        while i < len(self.scan.tokens):
            tok = self.scan.tokens[i]
            opens = i == 0 or self.scan.tokens[i - 1].text in SENTENCE_END
            if tok.used or not (tok.is_(g.QUANTIFIERS) or opens and tok.is_content):
                i += 1
                continue
            k = i + 1 if tok.is_(g.QUANTIFIERS) else i
            noun: list[Tok] = []
            while k < len(self.scan.tokens) and self.scan.tokens[k].kind == "word" and not self.scan.tokens[k].used and not self.scan.tokens[k].is_(g.ENDS_LIST):
                noun.append(self.scan.tokens[k])
                k += 1
            prep = self.scan.at(k)
            names_documents = prep is not None and prep.is_(g.ENDS_LIST) and any(
                t.is_content for t in self.scan.tokens[k + 1 : self.scan.clause_end(k + 1) + 1]
            ) or (prep is not None and prep.is_(g.ENDS_LIST) and self._owned_documents(k + 1, noun))
            if names_documents:
                selecting = [t for t in noun if not t.is_(g.ROW_NOUNS) and not t.is_(g.DETERMINERS) and t.low not in WHICH]
                if selecting:
                    words = [t.bare if t.bare.isupper() or t is not self.scan.tokens[0] else t.bare[:1].lower() + t.bare[1:] for t in selecting]
                    self.scan.row_terms.append(" ".join(words))
                    for t in selecting:
                        t.used = True
            parenthesis = self.scan.at(k)
            if parenthesis is not None and parenthesis.text == "(":
                close = next((m for m in range(k, len(self.scan.tokens)) if self.scan.tokens[m].text == ")"), None)
                if close is not None:
                    self.scan.row_terms.append(text_of(self.scan.tokens[k + 1 : close]))
                    self.scan.use(k, close + 1)
            i = max(k, i + 1)
        if self.scan.row_terms:
            named = " and ".join(f"'{t}'" for t in self.scan.row_terms)
            self.scan.notes.append(
                f"The offline engine cannot judge {named}; it keeps every row that meets the literal conditions "
                f"and marks each one unsure. {JUDGEMENT_HINT}"
            )

    def _owned_documents(self, k: int, noun: list[Tok]) -> bool:
        """After "on": the documents of an owner already read ("Nordwerk's 2025 invoices"), or
        documents a place names when the words before name rows ("software lines on the Tessaro
        invoices"; "every purchase order in orders/" names the documents themselves)."""
        rows = any(t.is_(g.ROW_NOUNS) for t in noun)
        return any(
            t.used and (t.kind == "word" and t.possessive or rows and t.place is not None)
            for t in self.scan.tokens[k : k + 4]
        )
