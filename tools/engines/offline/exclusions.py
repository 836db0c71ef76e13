"""Rows the request leaves out: "Leave out the SUBTOTAL and BRAZIL lines", "excluding the overall
total", "(not the ministry totals)", "Leave out the overall total and the violent crime / property
crime subtotal lines".

Each thing left out is a condition on the whole row, ``not`` the words that name it: a row whose
cells hold those words is not one the user wants ("Violent crime", "SUBTOTAL", "Total"). The
words are read here, before any other pass can take them for a column or a word that picks rows:
"violent" in such a sentence turns rows down, it never picks them.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.reading import Condition
from tools.engines.columns import is_qualifier
from tools.engines.offline import grammar as g
from tools.engines.offline.scan import Scan
from tools.engines.offline.tokens import SENTENCE_END, WHICH, Tok, text_of

# where what is left out ends: the sentence, a clause of its own, or a bracket closing
_SPAN_ENDS = frozenset({";", ":", ")"})
# the verbs that tell what to leave out, and a sentence's "No …": its items are lines
_TELLS = frozenset({"leave", "omit", "skip", "drop", "exclude", "ignore", "do", "don't"}) | g.NO_WORDS
# what an item splits at: "the SUBTOTAL and BRAZIL lines", "violent crime / property crime"
_ITEM_BREAKS = frozenset({",", "/", "&", "or", "nor"}) | g.CONJUNCTIONS


@dataclass
class Exclusions:
    """The rows a request leaves out, each a condition the row must not meet."""

    scan: Scan

    def take_exclusions(self) -> None:
        tokens = self.scan.tokens
        i = 0
        while i < len(tokens):
            opener = self._opener(i)
            if opener == 0:
                i += 1
                continue
            end = self._span_end(i + opener)
            # "Leave out Total HT, TVA and Total TTC.": a sentence of its own names the lines, be they
            # labels of columns or taxes elsewhere
            opens_sentence = (i == 0 or tokens[i - 1].text in SENTENCE_END) and tokens[i].low in _TELLS
            items = self._items(i + opener, end, lines=opens_sentence)
            opens_clause = i == 0 or tokens[i - 1].kind == "punct" or tokens[i - 1].is_(g.CONJUNCTIONS)
            # mid-clause ("the states without the totals") or after a dash only totals and lines
            # named by their label are left out: "invoices without discount" is a condition on a column
            if not items or not (opens_clause or all(total or label for _, _, total, label in items)):
                i += 1
                continue
            said = text_of(tokens[i : i + opener])
            for value, words, _, _ in items:
                self.scan.conditions.append((i, Condition(column=None, op="not", value=value, text=f"not {words} ({said})")))
            self.scan.use(i, end)
            i = end

    def _opener(self, i: int) -> int:
        """How many tokens of a phrase that leaves rows out start at ``i`` (0 for none)."""
        tokens = self.scan.tokens
        for phrase in g.EXCLUDING:
            window = tokens[i : i + len(phrase)]
            if len(window) == len(phrase) and all(t.kind == "word" and not t.used and t.low == w for t, w in zip(window, phrase)):
                return len(phrase)
        # "No subtotal or notes.": a sentence that opens with "no" names what to leave out
        before = self.scan.at(i - 1)
        if tokens[i].low in g.NO_WORDS and not tokens[i].used and (before is None or before.text in SENTENCE_END):
            return 1
        return 0

    def _span_end(self, start: int) -> int:
        """Where what is left out ends: the sentence's end, a closing bracket, a semicolon, or a
        comma before a clause of its own ("…, give the offense …", "…, which …")."""
        tokens = self.scan.tokens
        k = start
        while k < len(tokens):
            tok = tokens[k]
            if tok.text in SENTENCE_END or tok.text in _SPAN_ENDS or tok.used or tok.kind == "place":
                break
            nxt = self.scan.at(k + 1)
            if tok.text == "," and nxt is not None and (
                nxt.is_(g.ASKING) or nxt.is_(g.LIST_KEYWORDS) or nxt.is_(g.RELATIVE) or nxt.low in WHICH or nxt.is_(g.CONDITION_KEYWORDS)
            ):
                break
            # "ohne die Gesamtzeile": right after the opener "die" is an article, no relative
            relative = tok.is_(g.RELATIVE) and not (k == start and tok.is_(g.DETERMINERS))
            if tok.kind == "word" and (relative or tok.is_(g.CONDITION_KEYWORDS) or self.scan.operator_at(k)):
                return start  # "… without a discount of more than 5 %": a condition, no rows named
            k += 1
        return k

    def _items(self, start: int, end: int, lines: bool = False) -> list[tuple[str, str, bool, bool]]:
        """(the words a row left out holds, the item as written, whether it is a total, whether a
        row noun named it by its label) for each
        item; [] when an item names columns ("leave out the Total column") or nothing, or (unless
        ``lines``) a column's value or a tax ("without discount", "excluding VAT")."""
        items: list[list[Tok]] = [[]]
        for tok in self.scan.tokens[start:end]:
            if tok.kind == "punct" and tok.text != "/" or tok.low in _ITEM_BREAKS:
                items.append([])
            else:
                items[-1].append(tok)
        found = []
        for item in items:
            # "the All row": a quantifier written as a label, before the noun of a row, is the label
            words = [t for k, t in enumerate(item) if not (t.is_(g.DETERMINERS) or t.is_(g.COURTESY) or t.is_(g.QUANTIFIERS) and not (
                t.capital and k + 1 < len(item) and item[k + 1].is_(g.ROW_NOUNS)))]  # "…, please": no row
            if not words:
                continue
            if any(t.is_(g.COLUMN_LABELS) for t in words) or any(t.kind not in ("word", "quoted") for t in words):
                return []
            said = text_of(words)
            named = list(words)
            while named and (named[-1].is_(g.ROW_NOUNS) or named[-1].low in g.DOCUMENT_NOUNS):
                named = named[:-1]  # "the SUBTOTAL and BRAZIL lines", "the Acme orders"
            if not named:
                return []
            label = len(named) == 2 and named[0].is_(g.ROW_NOUNS) and _label(named[1])
            if label:
                named = named[1:]  # "die Zeile „Average“", "la fila Total": the row's label
            head = g.row_compound_head(named[-1].text) if len(named) == 1 else None
            if head is not None and (g.TOTAL_LINE.fullmatch(head) or "-" in named[-1].text):
                named = [Tok(head)]  # "ohne die Gesamtzeile", "Totaalregels niet", "die Average-Zeile"
                label = True
            total = g.TOTAL_LINE.fullmatch(named[-1].text) is not None
            if total and len(named) > 1 and len(named) < len(words):
                named = named[:-1]  # "the property crime subtotal lines": the lines of property crime
                total = False
            elif total:
                named = named[-1:]  # "the overall total": the total line
            elif not lines and (self.scan.names_column(text_of(named)) or any(is_qualifier(t.bare) or t.low in g.TAX_WORDS for t in named)):
                return []  # "without discount", "excluding VAT": a column's value, not rows
            found.append((text_of(named), said, total, label or len(named) == 1 and named[0].kind == "quoted"))
        return found


def _label(tok: Tok) -> bool:
    """Whether a word after a noun of rows is the row's label: quoted, or capitalised words ("the
    row Total", "die Zeile „Average“"), no figure or phrase ("the rows with discount", "positions 3")."""
    return tok.kind == "quoted" or tok.capital and tok.bare.replace("-", "").isalpha()
