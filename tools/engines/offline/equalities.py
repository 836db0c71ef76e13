"""Equalities written without an operator: a label of the scope and its value ("Facture n°
F-2024-118"), a name and its value ("for priority 1", "with severity High and status Open"),
and a value before its column ("in the Sales department", "on the Gdańsk – Warszawa route")."""

from __future__ import annotations

from dataclasses import dataclass

from core.reading import Condition
from tools.engines.columns import normalise
from tools.engines.offline import grammar as g
from tools.engines.offline.scan import Scan
from tools.engines.offline.tokens import MAX_VALUE_PHRASE, SENTENCE_END, Tok, capitalise, strip_determiners, text_of


_IN_COLUMN = frozenset({"in", "under", "unter", "dans", "sous", "en", "w", "pod"})  # "'Hj' in the X column"
# "something other than 'Hj'": the word standing for the value turned down
_SOME = frozenset({"something", "anything", "a", "any", "some"})


@dataclass
class Equalities:
    """The equalities a request writes as a name and its value."""

    scan: Scan

    def take_term_values(self) -> None:
        """A label of the scope, then a value written as a name or a figure: "paid by Ilse Vermeer",
        "Facture n° F-2024-118": the label's value equals it."""
        for i, tok in enumerate(self.scan.tokens):
            if not tok.term or tok.used:
                continue
            end = self._value_phrase_end(i + 1)
            value = [t for t in self.scan.tokens[i + 1 : end] if not t.is_(g.DETERMINERS)]
            if not value or any(t.used or t.kind not in ("word", "quoted") for t in value):
                continue
            if all(t.kind == "quoted" or t.has_digit or t.capital and t.is_content for t in value):
                self.scan.add_condition(i, capitalise(tok.text), "equals", text_of(value).strip("'\"‘’“”"))
                self.scan.use(i, end)

    def take_named_values(self) -> None:
        """"every job technician Sergio Navarro did": a word naming a column of the scope's tables
        (no folder's name), then a full name of two capitalised words or more: the column's
        value is that name. A name that acts towards the asker ("supplier Acme Ltd billed us") is
        left to the owners."""
        for i, tok in enumerate(self.scan.tokens):
            if tok.used or not tok.is_content or tok.capital or tok.has_digit or not self.scan.names_header(tok.bare):
                continue
            if self.scan.folders and self.scan.folder_names.named([tok.bare]) is not None:
                continue
            end = i + 1
            while (nxt := self.scan.at(end)) is not None and nxt.kind == "word" and nxt.capital and nxt.is_content and not nxt.used \
                    and not nxt.has_digit:
                end += 1
            after = self.scan.at(end)
            if end - i < 3 or after is not None and after.is_(g.US):
                continue
            self.scan.add_condition(i, capitalise(tok.bare), "equals", text_of(self.scan.tokens[i + 1 : end]))
            self.scan.use(i, end)

    def take_joined_values(self) -> None:
        """"all priority-1 incidents", "which 8-cylinder cars": a column of the scope (or a word a
        header abbreviates: "cyl") joined by a hyphen to a figure is the column's value, as
        "priority 1" is."""
        for i, tok in enumerate(self.scan.tokens):
            name, dash, value = tok.bare.rpartition("-")
            if value.isalpha() and name.isdigit():
                name, value = value, name  # "8-cylinder"
            if tok.used or tok.kind != "word" or not dash or not value.isdigit() or not name.isalpha() \
                    or not (self.scan.names_header(name) or self.scan.abbreviated_header(name)):
                continue
            self.scan.add_condition(i, capitalise(name), "equals", value)
            tok.used = True

    def take_values_in_columns(self) -> None:
        """"rows with "Hj" in the Hgfdhgjsdhjdsf column", "lines that have something other than
        'Hj' under Status": a quoted value, then "in" or "under" and a header of the scope: that
        column's value equals it; a figure only when "column" follows the header ("a 0 in the
        Discount column"). "other than" (or "anything but") before the value turns it down."""
        tokens = self.scan.tokens
        for k, tok in enumerate(tokens):
            if tok.used or not (tok.kind == "quoted" or tok.kind == "word" and tok.has_digit):
                continue
            prep = self.scan.at(k + 1)
            if prep is None or prep.used or prep.low not in _IN_COLUMN:
                continue
            first = k + 2
            while self.scan.at(first) is not None and tokens[first].is_(g.DETERMINERS):
                first += 1
            clause = self.scan.clause_end(first)
            header = self.scan.header_within(first, clause)
            if header is None or header[0] != first:
                continue
            named = (label := self.scan.at(header[1])) is not None and label.is_(g.COLUMN_LABELS)
            if tok.kind != "quoted" and not named:
                continue  # "amounts above 500 for Product A": a figure before a name is no value of it
            end = header[1] + (1 if named else 0)
            start, op = k, "equals"
            if k >= 2 and [t.low for t in tokens[k - 2 : k]] in (["other", "than"], ["anything", "but"]) and not tokens[k - 2].used:
                start, op = k - 2, "not"
                if start > 0 and tokens[start - 1].low in _SOME and not tokens[start - 1].used:
                    start -= 1  # "something other than"
            column, value = capitalise(text_of(tokens[header[0] : header[1]])), tok.text.strip("'\"‘’“”")
            said = f"{column} {g.OP_WORDS[op]} {value} ({text_of(tokens[start:k])} {value})" if op == "not" else ""
            self.scan.conditions.append((start, Condition(column=column, op=op, value=value, text=said or f"{column} is {value}")))
            self.scan.use(start, end)

    def spans(self, start: int, end: int) -> list[tuple[int, int]]:
        """The items between ``start`` and ``end`` as token spans, split at commas and "and"."""
        spans, first = [], start
        for k in range(start, end + 1):
            if k == end or self.scan.tokens[k].text in (",", ";") or self.scan.tokens[k].is_(g.CONJUNCTIONS):
                if k > first:
                    spans.append((first, k))
                first = k + 1
        return spans

    def equality(self, start: int, end: int) -> None:
        """A name then its value: "priority P1", "product family Sensors", "Warengruppe Kabel"."""
        toks = strip_determiners(self.scan.tokens[start:end])
        split = self._known_prefix(toks)
        if split is None:
            lower = [k for k, t in enumerate(toks) if not t.capital and not t.has_digit and t.kind == "word"]
            split = (lower[-1] + 1) if lower else 1
            if split >= len(toks):
                split = len(toks) - 1
        column, value = text_of(toks[:split]), text_of(toks[split:])
        self.scan.add_condition(start, capitalise(column), "equals", value.strip("'\"‘’“”"))

    def _known_prefix(self, toks: list[Tok]) -> int | None:
        for split in range(len(toks) - 1, 0, -1):
            if normalise(text_of(toks[:split])) in self.scan.vocabulary:
                return split
        return None

    def take_implicit_equalities(self) -> None:
        """``for priority 1``, ``of product family Sensors``, ``der Abteilung Quality``, and — where
        the scope's documents have such a column — ``in the Sales department``."""
        for i, tok in enumerate(self.scan.tokens):
            if tok.used or tok.kind != "word":
                continue
            if tok.low in ("for", "für", "pour", "of", "der", "des", "du"):
                nxt = self.scan.at(i + 1)
                if nxt is None or nxt.is_(g.QUANTIFIERS) or nxt.used:
                    continue
                end = self._value_phrase_end(i + 1)
                if end - (i + 1) > MAX_VALUE_PHRASE:
                    continue  # running text, not a name and its value
                # "der Abteilung Quality" closing the request: German capitalises the column too
                closing = tok.low in ("der", "des") and end - (i + 1) == 2 and (end >= len(self.scan.tokens) or self.scan.tokens[end].text in SENTENCE_END)
                compared = any(self.scan.operator_at(k) for k in range(i + 1, end))  # "of swimmers born before 1930"
                if end - (i + 1) >= 2 and not compared and (self.scan.trailing_value(i + 1, end) or closing) and not any(
                    t.possessive for t in self.scan.tokens[i + 1 : end]
                ):
                    if tok.low == "of" and not any(not t.capital for t in self.scan.tokens[i + 1 : end - 1]):
                        continue  # "of Acme Ltd": a name, not a column and its value
                    last = self.scan.tokens[end - 1]
                    noun = g.noun_before_number([t.text for t in self.scan.tokens[i + 1 : end - 1]])  # past "Nr."
                    if g.identifies_document(noun, last.bare) and noun.isalpha() \
                            and (not noun[:1].isupper() or noun.casefold() in g.DOCUMENT_NOUNS):
                        continue  # "of the Brightcell invoice INV-BC-20931": the code says which document
                    self.equality(i + 1, end)
                    self.scan.use(i, end)
            elif tok.low in ("in", "im", "on", "auf", "sur") and self.scan.vocabulary:
                self._named_in(i)

    def _named_in(self, i: int) -> None:
        """``in the Sales department``, ``on the Gdańsk – Warszawa route``: a value, then a column
        the scope's documents have (not a kind of documents or rows)."""
        k = i + 1
        while self.scan.at(k) is not None and self.scan.tokens[k].is_(g.DETERMINERS):
            k += 1
        of, value = self.scan.at(k + 1), self.scan.at(k + 2)
        if of is not None and of.low in ("of", "de", "von", "du") and value is not None and value.capital and not value.used \
                and self.scan.at(k) is not None and self.scan.names_column(self.scan.tokens[k].bare) and not self.scan.tokens[k].used:
            # "in the province of Alicante": a column of the scope's tables, then its value
            end = k + 3
            while (nxt := self.scan.at(end)) is not None and nxt.capital and nxt.is_content and not nxt.used:
                end += 1
            self.scan.add_condition(k, capitalise(self.scan.tokens[k].bare), "equals", text_of(self.scan.tokens[k + 2 : end]))
            self.scan.use(i, end)
            return
        end = self._value_phrase_end(k)
        toks = self.scan.tokens[k:end]
        # "on the Gdańsk – Warszawa route" names a route; "on the Nordwerk invoices" names documents,
        # "in the Assam schooling status table" a table
        documents = bool(toks) and (toks[-1].is_(g.ROW_NOUNS) or toks[-1].is_(g.TABLE_NOUNS)
                                    or self.scan.folders and self.scan.folder_names.named([toks[-1].bare]) is not None)
        if 2 <= len(toks) <= MAX_VALUE_PHRASE and normalise(toks[-1].bare) in self.scan.vocabulary and toks[0].capital and not documents:
            self.scan.add_condition(k, capitalise(toks[-1].bare), "equals", text_of(toks[:-1]))
            self.scan.use(i, end)

    def _value_phrase_end(self, start: int) -> int:
        """Where the phrase from ``start`` ends; the scan stops one past ``MAX_VALUE_PHRASE``
        tokens (a longer phrase is no name and value), so reading stays linear in the message."""
        k = start
        stop = min(len(self.scan.tokens), start + MAX_VALUE_PHRASE + 1)
        while k < stop and not self.scan.is_boundary(k) and not self.scan.tokens[k].is_(g.CONJUNCTIONS) \
                and not (k > start and self.scan.tokens[k].is_(g.QUANTIFIERS)):  # "der Lieferant GmbH alle Positionen"
            if self.scan.tokens[k].kind == "quoted":
                return k + 1
            k += 1
        return k
