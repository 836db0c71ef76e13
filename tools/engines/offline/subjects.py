"""The thing every row is about: the first column when a header of the scope names it ("each
state with its growth rates", "Which states have …? Show …", "revenue per region"), else the
reading's subject, shown from a table's row labels when the requested columns hold only figures
("Which offense categories had …? Show the total arrests")."""

from __future__ import annotations

from dataclasses import dataclass

from tools.engines.columns import folded, identifier_of, match_column
from tools.engines.offline import grammar as g
from tools.engines.offline.scan import Scan
from tools.engines.offline.tokens import SENTENCE_END, WHICH, Tok, capitalise

# the words that end the name of a kind of thing: the sentence's grammar, and comparisons
_PHRASE_ENDS = (g.AUXILIARIES, g.BE_WORDS, g.HAS_WORDS, g.RELATIVE, g.ENDS_LIST, g.CONJUNCTIONS, g.DETERMINERS, g.QUANTIFIERS,
                g.ASKING, g.POSSESSIVES, g.LIST_KEYWORDS, g.OPERATOR_FIRST_WORDS)
_COMPARATIVE_FIRST_WORDS = frozenset(words[0] for _, words in g.MEASURE_COMPARATIVES)  # "longer" of "longer than"
# words after "which" that name no things: "…, which I need by Friday", "Which ones …", "which of them"
_NO_THINGS = frozenset("i we you they he she it one ones of them this these those".split())
_SUBJECT_WORDS = 3  # the words a subject ("offense categories", "active supply agreements") is named by at most


@dataclass
class Subjects:
    """The thing every row of a request is about."""

    scan: Scan

    def take_row_key(self) -> None:
        """"each state with its growth rates", "Which states have …? Show their …": the thing every
        row is about, when a header of the scope names it and the values wanted are its own ("its",
        "their") or the request asks which ones, is the first column."""
        for i, tok in enumerate(self.scan.tokens[:-3]):
            noun, joiner, owner = self.scan.tokens[i + 1 : i + 4]
            if not tok.is_(g.QUANTIFIERS) or not noun.is_word or noun.used or not owner.is_(g.POSSESSIVES):
                continue
            if (joiner.is_(g.LIST_KEYWORDS) or joiner.is_(g.CONJUNCTIONS)) and self.scan.names_header(noun.bare):
                self.scan.columns.append((i + 1, capitalise(noun.bare)))
                noun.used = True
        # "Sales per region: units sold and orders": what the figures are given per is the first
        # column; so is what they are given for each of ("… for each priority", "für jede Region")
        for i, tok in enumerate(self.scan.tokens[:-1]):
            each = self.scan.tokens[i + 1] if tok.low in g.FOR_EACH and self.scan.tokens[i + 1].is_(g.QUANTIFIERS) else None
            noun = self.scan.at(i + 2) if each is not None else self.scan.tokens[i + 1]
            if (tok.is_(g.PER) or each is not None) and not tok.used and noun is not None and noun.is_word \
                    and not noun.used and (each is None or not each.used) and self.scan.names_header(noun.bare) \
                    and not self.scan.calculations and not _names_documents(self.scan, i + 3 if each is not None else i + 2):
                named = [c for _, c in self.scan.columns]
                if match_column(noun.bare, named) is None:
                    self.scan.columns.append((-1, capitalise(noun.bare)))
                tok.used = noun.used = True
                if each is not None:
                    each.used = True
        # "Which states have …? Show …", "every state whose …", "list the states whose …": the
        # things asked about are the rows' first column
        for k, noun in enumerate(self.scan.tokens):
            tok, after = self.scan.at(k - 1), self.scan.at(k + 1)
            # the asking verb of "List states whose …" is gone with the sentence's opener
            opens = tok is None or tok.is_(g.QUANTIFIERS) or tok.is_(g.DETERMINERS) or tok.is_(g.ASKING)
            # "give me the cities with a population above 20 million, with …": a "with" read as a condition picks them too
            picked = opens and after is not None and (after.is_(g.RELATIVE) or after.is_(g.CONDITION_KEYWORDS)
                                                      or after.is_(g.WITH_WORDS) and self._conditioned(k + 1))
            if not (tok is not None and tok.low in WHICH or picked) or not noun.is_word or not self.scan.names_header(noun.bare):
                continue
            named = [c for _, c in self.scan.columns]
            if named and match_column(noun.bare, named) is None and not _identified_by(noun.bare, named) \
                    and folded(noun.bare).split()[-1] not in {folded(c) for c in named}:
                # "which counties …? Show county, …", "Which cost categories …? Show the category, …"
                self.scan.columns.append((-1, capitalise(noun.bare)))

    def _conditioned(self, k: int) -> bool:
        """Whether the phrase from token ``k`` to the next comma holds a condition read ("with a
        population above 20 million"), not a list ("with receipt no. and total")."""
        end = next((j for j in range(k + 1, len(self.scan.tokens)) if self.scan.tokens[j].text in (",", *SENTENCE_END)),
                   len(self.scan.tokens))
        return any(k < at < end for at, _ in self.scan.conditions)

    def take_subject(self) -> None:
        """"Which offense categories had …? Show the total arrests …", "the active supply
        agreements with their annual value …": the things the request asks which of, when the
        values it names are not theirs to say which is which. The reading keeps them as its
        subject (no column: a table whose requested columns hold only figures gives them from
        its row labels); a named identifier ("Contract ID") already says which one each row is."""
        named = [c for _, c in self.scan.columns]
        if not named or any(identifier_of(c) for c in named):
            return
        tokens = self.scan.tokens
        for k, tok in enumerate(tokens):
            before = self.scan.at(k - 1)
            if tok.low in WHICH and (before is None or before.kind == "punct"):
                # "Which 'Utilization of Government Health Services' indicators …": the quoted name
                # says which of them, the noun after it what they are
                first = next((j for j in range(k + 1, len(tokens)) if tokens[j].kind != "quoted"), len(tokens))
                phrase = _thing_phrase(self.scan, range(first, min(first + _SUBJECT_WORDS, len(tokens)))) if first <= k + 2 else []
                after = self.scan.at(first + len(phrase))
                if len(phrase) > 1 and (phrase[-1].low.endswith("ed") or phrase[-1].is_(g.COST_VERBS) or after is not None
                                        and after.is_(g.ENDS_LIST) and not phrase[-1].low.endswith("s")):
                    phrase = phrase[:-1]  # "which subdivisions fell in …", "which KPIs missed …", "which articles cost": the verb
            elif tok.is_(g.LIST_KEYWORDS) and (after := self.scan.at(k + 1)) is not None \
                    and (after.is_(g.POSSESSIVES) or after.is_(g.QUESTION_WORDS)) or tok.low == "whose":
                # what the sentence asks for first ("the subdivisions in the … region with their …",
                # "the gastrointestinal disorders in the … table with how often they occur …"), else
                # the words just before ("…, list the mandatory programs with their …")
                phrase = self._asked_for(k) or _thing_phrase(self.scan, range(k - 1, max(k - 1 - _SUBJECT_WORDS, -1), -1))[::-1]
            elif tok.is_(g.FOR_EACH) and (found := self._things_where(k + 1)) \
                    and not found[-1].is_(g.ROW_NOUNS) and not _names_documents(self.scan, k + len(found)):
                # "…, only for impacts where presentation and evaluation is above 0,39": the things asked for
                phrase = found
            elif tok.is_(g.ASKING) and (first := self._past_articles(k + 1)) > k + 1 and (found := self._things_where(first)) \
                    and not found[-1].is_(g.ROW_NOUNS) and not _names_documents(self.scan, first + len(found)):
                # "…, list the member states where retail sales per outlet are above …": the things
                # a condition then picks
                phrase = found
            elif tok.is_(g.ASKING) and (nxt := self.scan.at(k + 1)) is not None and nxt.is_(g.QUANTIFIERS) \
                    and (found := _thing_phrase(self.scan, range(k + 2, min(k + 2 + _SUBJECT_WORDS, len(tokens))))) \
                    and not found[-1].is_(g.ROW_NOUNS) and not _names_documents(self.scan, k + 2 + len(found)):
                # "could you list each service from the Detail section together with its charges?"
                phrase = found
            elif tok.is_(g.LIST_KEYWORDS) and after is not None and after.is_(g.DETERMINERS):
                # "Show the corn lines of the … table with the May/2013 … estimates": rows asked for by name
                phrase = [*asked] if (asked := self._asked_for(k)) and asked[-1].is_(g.ROW_NOUNS) else []
            else:
                continue
            if phrase and phrase[0].low not in _NO_THINGS and not _identified_by(phrase[-1].bare, named):
                self.scan.subject = capitalise(" ".join(t.bare for t in phrase))
                return

    def _past_articles(self, k: int) -> int:
        """The first token from ``k`` that is no determiner ("the", "les")."""
        while self.scan.at(k) is not None and self.scan.tokens[k].is_(g.DETERMINERS):
            k += 1
        return k

    def _things_where(self, k: int) -> list[Tok]:
        """The words from token ``k`` naming things a condition then picks ("impacts where …",
        "items whose …"); [] when no condition follows them."""
        for end in range(k + 1, min(k + 1 + _SUBJECT_WORDS, len(self.scan.tokens))):
            after = self.scan.tokens[end]
            if after.is_(g.RELATIVE) or after.is_(g.CONDITION_KEYWORDS):
                found = _thing_phrase(self.scan, range(k, end))
                return found if len(found) == end - k else []
        return []

    def _asked_for(self, k: int) -> list[Tok]:
        """The words naming what a sentence asks for, before token ``k``: past the sentence's
        asking verb ("…, list the …") or its start, and past the pronouns and determiners after it."""
        start = next((j + 1 for j in range(k - 1, -1, -1)
                      if self.scan.tokens[j].text in SENTENCE_END or self.scan.tokens[j].is_(g.ASKING)), 0)
        while start < k and any(self.scan.tokens[start].is_(words) for words in (g.DETERMINERS, g.QUANTIFIERS, g.PRONOUNS)):
            start += 1  # "give me the …"
        return _thing_phrase(self.scan, range(start, min(start + _SUBJECT_WORDS, k)))


def _thing_phrase(scan: Scan, at: range) -> list[Tok]:
    """The words that name a kind of thing, read from ``at`` on: up to a mark, a number, or a
    word of the sentence's grammar (an auxiliary, a preposition, a determiner, "and", "than")."""
    words = []
    for k in at:
        tok = scan.tokens[k]
        if tok.kind != "word" or tok.place is not None or any(c.isdigit() for c in tok.text) \
                or any(tok.is_(s) for s in _PHRASE_ENDS) or tok.low in _COMPARATIVE_FIRST_WORDS:
            break
        words.append(tok)
    return words


def _names_documents(scan: Scan, k: int) -> bool:
    """Whether token ``k`` names the scope's documents (a folder read as a place, or a word
    naming one): "for every supplier invoice" is about invoices, the supplier a word of theirs."""
    tok = scan.at(k)
    return tok is not None and (tok.kind == "place" or tok.is_word and bool(scan.folders)
                                and scan.folder_names.named([tok.bare]) is not None)


def _identified_by(noun: str, named: list[str]) -> bool:
    """"Which contracts …? Contract ID, …": a named column of the things' own identifier
    ("Contract ID", "contract number") already says which ones they are."""
    return any((thing := identifier_of(column)) and folded(thing) == folded(noun) for column in named)
