"""The owner of the documents: "Acme's invoices", "invoices from Acme Ltd", "every Acme invoice",
"Nordwerk or Brightline"."""

from __future__ import annotations

import re
from dataclasses import dataclass

from tools.engines.months import month_of
from tools.engines.offline import grammar as g
from tools.engines.offline.scan import Scan
from tools.engines.offline.tokens import SENTENCE_END, WHICH, Tok

_SPAN_OF_YEARS = re.compile(r"(?:19|20)\d\d[-–/](?:\d\d|(?:19|20)\d\d)")
PARTY_REACH = 3  # lower-case words between a name and the "us" it acts towards: "ordered from us"


_ONES = frozenset({"one", "ones"})  # "the Acme one": the document of that owner
_ALTERNATIVES = frozenset({"and", "or", "und", "oder", "et", "ou"})


@dataclass
class Owners:
    """The owners of the documents a request names."""

    scan: Scan

    def take_owners(self) -> None:
        i = 0
        while i < len(self.scan.tokens):
            tok = self.scan.tokens[i]
            if tok.used or not tok.capital or not tok.is_content or tok.low in WHICH or tok.is_(g.LIST_KEYWORDS) \
                    or self._numbered_document(i) or g.row_compound(tok.low) or self.scan.is_date(i):
                i += 1
                continue
            end = self._name_run(i)
            i = self._named_company_start(i, end)
            run = self.scan.tokens[i:end]
            before = self.scan.at(i - 1)
            if before is not None and before.place is not None and before.place.kind == "year" and i > 1:
                before = self.scan.at(i - 2)  # "all 2025 Sonnwerk invoices": the year, then the owner
            after = self.scan.at(end)
            numbered = (sign := self.scan.at(i + 1)) is not None and sign.low in g.NUMBER_SIGNS  # "…-Rechnung Nr. 30064443"
            if (end == i + 1 or numbered) and (owner := _owner_of_compound(tok.text)) and before is not None and (
                before.is_(g.DETERMINERS) or before.is_(g.ENDS_LIST)
            ):
                # "der Nordwerk-Rechnung": a name joined to the noun of its documents
                self.scan.owners.append((i, owner))
                tok.used = True
                i += 1
                continue
            possessive = run[-1].possessive
            after_owner_word = before is not None and not before.used and (
                before.is_(g.OWNER_PREPOSITIONS) or before.is_(g.LIST_KEYWORDS) and self.scan.names_a_party(i, end)
                or before.is_(g.FOR_EACH)  # "the indicators for Chandel", "die Zahlen für Nordwerk": whose they are
            )
            of_documents = before is not None and before.low == "of" and self._documents_after(end)
            before_document = (
                before is not None
                and (before.is_(g.QUANTIFIERS) or before.is_(g.DETERMINERS) and i > 1 or before.low in ("on", "in", "auf"))
                and after is not None
                and (
                    after.is_word and not after.capital and not after.used and after.low not in g.ENDS_LIST
                    and not after.is_(g.LIST_KEYWORDS)
                    or after.is_word and not after.used and self._names_documents_kind(i, end)
                )  # "every Acme invoice", "the LabTrace SLA" (a folder of the scope named in words)
            )
            sentence_start = i == 0 or (before is not None and (before.text in SENTENCE_END or before.used and before.kind != "place"))
            alternative = (
                before is not None and before.low in ("and", "or", "und", "oder", "et", "ou")
                and self.scan.owners and self.scan.owners[-1][0] + len(self.scan.owners[-1][1].split()) == i - 1
            )
            # a request's first word is a name only where the scope's folders name it ("Halvorsen
            # invoice lines …" over Halvorsen Metals/): elsewhere it may be a verb ("Order lines …")
            opens_named = i == 0 and after is not None and self._names_documents_kind(i, end) and self._folder_word(run)
            if possessive or after_owner_word or of_documents or alternative or opens_named \
                    or (before_document and not (sentence_start and i == 0)):
                name = " ".join(t.bare for t in run)
                if name.casefold() not in {c.casefold() for _, c in self.scan.columns}:
                    self.scan.owners.append((i, name))
                    self.scan.use(i, end)
                    if before is not None and (before.is_(g.OWNER_PREPOSITIONS) or before.is_(g.FOR_EACH)):
                        before.used = True
            i = end

    def _genitive_before(self, i: int, end: int) -> bool:
        """Whether the name run from ``i`` ends before ``end``: its last word, not its first, ends
        in the "s" of a genitive written without an apostrophe, and the capitalised word at
        ``end`` is the last of the run, the noun it owns ("Martina Brandts Spesenabrechnung",
        "Baltic Cold Logistics Invoice" keeps "Logistics" with its owner)."""
        last, nxt = self.scan.tokens[end - 1], self.scan.at(end + 1)
        return end - 1 > i and last.bare.isalpha() and len(last.bare) > 3 and last.bare.endswith("s") \
            and not (nxt is not None and nxt.capital and nxt.is_content and not nxt.used)

    def take_identifiers(self) -> None:
        """"invoice HM-24-0311", "order no. PO-2024-0061": a code of letters and figures after the
        word naming a document says which document; each document read must name it."""
        for i, tok in enumerate(self.scan.tokens):
            before = self.scan.at(i - 1)
            if tok.used or tok.kind != "word" or before is None:
                continue
            after = self.scan.at(i + 1)
            if g.is_code_prefix(tok.bare) and after is not None and after.kind == "word" and not after.used \
                    and g.is_spaced_code(after.bare) and self._names_a_thing(before):
                # "van GD 4K221", "truck WX 12345": a registration written in two parts
                self.scan.owners.append((i, f"{tok.bare} {after.bare}"))
                self.scan.use(i, i + 2)
            elif g.identifies_document(g.noun_before_number([t.bare for t in self.scan.tokens[max(0, i - 2) : i]]), tok.bare) \
                    and self._names_a_thing(before):
                self.scan.owners.append((i, tok.bare))
                tok.used = True

    def _numbered_document(self, i: int) -> bool:
        """Whether the word at ``i`` names a kind of document its number follows ("der Rechnung
        471102"): a German noun's capital makes it no owner's name."""
        nxt = self.scan.at(i + 1)
        if nxt is not None and nxt.low in g.NUMBER_SIGNS:
            nxt = self.scan.at(i + 2)  # "der Rechnung Nr. 471102"
        return self.scan.tokens[i].low in g.DOCUMENT_NOUNS and nxt is not None and g.identifies_document(self.scan.tokens[i].bare, nxt.bare)

    @staticmethod
    def _names_a_thing(before: Tok) -> bool:
        """The word before a code: one naming the thing it numbers ("invoice", "van", "Table") or a number sign."""
        return before.kind == "word" and (before.is_word and not before.has_digit or before.low in g.NUMBER_SIGNS)

    def take_periods(self) -> None:
        """"the Public Health Outlay 2012-13 budget estimates": a financial year written as its
        span ("2012-13", "2014–2015", "2008/09") that no column or condition took says which
        documents; each document read must name it."""
        for i, tok in enumerate(self.scan.tokens):
            if not tok.used and tok.kind == "word" and _SPAN_OF_YEARS.fullmatch(tok.bare):
                self.scan.owners.append((i, tok.bare))
                tok.used = True
            elif not tok.used and self.scan.day_at(i):
                # "the invoices issued on Jan 26, 2025": a date no column or condition took is the
                # documents' (each read must name it, in any of the ways dates are printed)
                self.scan.owners.append((i, tok.text))
                tok.used = True

    def take_parties(self) -> None:
        """"What did Feldmann Bau order from us", "charges Brightwave billed us", "Qu'est-ce que
        Maison Bérard nous a commandé": a name that acts towards the asker ("us", "uns", "nous"
        within a few words after it, only lower-case words between) is the other party of the
        documents, whatever else the message leaves it. A sentence's first word is no such name
        ("Show us …")."""
        i = 0
        while i < len(self.scan.tokens):
            tok = self.scan.tokens[i]
            before = self.scan.at(i - 1)
            if tok.used or not tok.capital or not tok.is_content or tok.term or before is None or before.text in SENTENCE_END:
                i += 1
                continue
            end = self._name_run(i)
            between = 0
            while between < PARTY_REACH and (nxt := self.scan.at(end + between)) is not None and nxt.is_word \
                    and not nxt.capital and not nxt.is_(g.US):
                between += 1
            after = self.scan.at(end + between)
            if after is not None and after.is_(g.US) and not any(t.used or t.term for t in self.scan.tokens[i:end]):
                self.scan.owners.append((i, " ".join(t.bare for t in self.scan.tokens[i:end])))
                self.scan.use(i, end)
            i = end

    def _documents_after(self, end: int) -> bool:
        """After "of Acme": a document noun follows ("of Acme invoices"), or "and"/"or" and another name."""
        after = self.scan.at(end)
        if after is None:
            return False
        if after.low in ("and", "or", "oder", "und", "ou") and (nxt := self.scan.at(end + 1)) is not None and nxt.capital:
            return self._documents_after(self._name_run(end + 1))
        return after.is_content and not after.capital

    def _named_company_start(self, i: int, end: int) -> int:
        """Where a company's name that ends with its legal form starts: back over capitalised words
        a grammar reads otherwise ("the Bei Spiel GmbH one": "Bei" is German for "at")."""
        if end - i < 2 or self.scan.tokens[end - 1].low.rstrip(".") not in g.LEGAL_FORMS:
            return i
        while i > 1 and (word := self.scan.tokens[i - 1]).is_word and word.capital and not word.used \
                and self.scan.tokens[i - 2].text not in SENTENCE_END and not self.scan.tokens[i - 2].capital:
            i -= 1
        return i

    def merge_alternatives(self) -> None:
        """``Nordwerk or Brightline`` (also "and" between two owners): one owner term with alternatives."""
        merged: list[tuple[int, str, int]] = []
        for at, name in sorted(self.scan.owners):
            end = at + len(name.split())
            if merged:
                last_at, last_name, last_end = merged[-1]
                # "the Bei Spiel GmbH one and the Lieferant GmbH one": the nouns of the documents aside
                between = [t.low for t in self.scan.tokens[last_end:at]
                           if not (t.low in _ONES or t.is_(g.DOCUMENT_NOUNS) or t.is_(g.DETERMINERS))]
                joiner = next((k for k in range(last_end, at) if self.scan.tokens[k].low in _ALTERNATIVES), None)
                if between in (["and"], ["or"], ["und"], ["oder"], ["et"], ["ou"]) and joiner is not None:
                    self.scan.tokens[joiner].used = True
                    merged[-1] = (last_at, f"{last_name} or {name}", end)
                    continue
            merged.append((at, name, end))
        self.scan.owners = [(at, name) for at, name, _ in merged]

    def _name_run(self, i: int) -> int:
        """A name: capitalised words, with ``&`` and particles (van, der, de) between them."""
        end = i + 1
        while end < len(self.scan.tokens):
            tok = self.scan.tokens[end]
            if self.scan.tokens[end - 1].possessive or tok.used:
                break
            if tok.capital and tok.is_content:
                if self._names_documents_kind(i, end):
                    break  # "the LabTrace SLA": the name, then the scope's folder of its kind
                if self._genitive_before(i, end):
                    break  # "Martina Brandts Spesenabrechnung": whose it is, then the document
                end += 1
                continue
            nxt = self.scan.at(end + 1)
            if tok.text == "of" and end - i >= 2 and nxt is not None and nxt.capital and nxt.is_content and not nxt.used \
                    and (self.scan.at(end + 2) is None or not self.scan.tokens[end + 2].capital):
                end += 2  # "Partnership Health Plan of CA": a name of several words goes on past "of"
                continue
            if tok.text in ("&", "van", "der", "de", "von", "du", "la", "y", "und") and nxt is not None and nxt.capital and not nxt.used:
                if tok.text in ("der", "de", "du", "von") and not self.scan.tokens[i].text.lower() in ("van", "von"):
                    # "Van der Linde" keeps its particles; "Rechnungen von Acme" does not
                    if not (end - 1 >= i and self.scan.tokens[end - 1].text in ("Van", "van", "De", "de")):
                        break
                end += 2
                continue
            break
        return end

    def _folder_word(self, run: list) -> bool:
        """Whether every word of a name is a word of one of the scope's folder names."""
        words = {w.casefold() for f in self.scan.folders for part in f.strip("/").split("/") for w in part.split()}
        return all(t.bare.casefold() in words for t in run)

    def _names_documents_kind(self, i: int, end: int) -> bool:
        """Whether the word at ``end``, after a name that starts at ``i``, names a folder of the
        scope on its own (the kind of the name's documents) but not together with the name."""
        if not self.scan.folders:
            return False
        names = self.scan.folder_names
        return names.named([self.scan.tokens[end].bare]) is not None and names.named([t.bare for t in self.scan.tokens[i : end + 1]]) is None


def _owner_of_compound(word: str) -> str | None:
    """"Nordwerk-Rechnung" -> "Nordwerk": a capitalised name and a capitalised noun of four
    letters or more joined by a hyphen, as German writes a name's document; None otherwise."""
    name, dash, noun = word.partition("-")
    if not dash or "-" in noun or not (name[:1].isupper() and noun[:1].isupper()):
        return None
    if not (name.isalpha() and noun.isalpha() and len(noun) >= 4 and noun[1:].islower()):
        return None
    if month_of(name) is not None:
        return None  # "January-June": a span of months, no one's document
    return name
