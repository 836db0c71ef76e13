"""The columns, from the list the message gives: after "Columns:", after a colon, after
"with"/"mit"/"give", or opening the request (the thing every row is about: ``subjects``)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property

from tools.engines.columns import folded, groups_of, is_known_column, match_column, normalise
from tools.engines.offline import grammar as g
from tools.engines.offline.scan import Scan
from tools.engines.offline.tokens import MAX_VALUE_PHRASE, SENTENCE_END, WHICH, capitalise

_RATES = frozenset({"unit price", "rate", "charge"})  # figures that "per" makes a rate: "price per seat", "fee per hour"


@dataclass
class Columns:
    """The columns a request names."""

    scan: Scan
    asked: list[tuple[int, int]] = field(default_factory=list)  # the values a "what" question names

    def take_columns(self) -> None:
        lists = self._labelled_lists() or self._colon_lists() or [*self.asked, *self._keyword_lists()]
        if lists == self.asked and not self.scan.columns:
            # "…, what is the response time for …? Show the supplier too.": each sentence's list
            lists = [*lists, *(found for found in self._leading_lists()
                               if not any(start < found[1] and found[0] < end for start, end in self.asked))]
        lists = [self._trailing(start, end) for start, end in lists]
        if len(lists) == 1 and lists[0] not in self.asked:
            lists = self._named_after(*lists[0])
        for start, end in lists:
            self._list(start, *self._values_named(end))

    def _named_after(self, start: int, end: int) -> list[tuple[int, int]]:
        """"… please list the sites located on the Sumas River that have GPS coordinates. Show the
        site number, site description, northing and easting.": a list of one item that a later
        sentence follows with a list of names of its own is the rows asked for; those names are
        the columns."""
        if len(self.scan.items(start, end)) != 1:
            return [(start, end)]
        stop = self.scan.sentence_end(end)
        later = [(a, b) for a, b in self._leading_lists() if a > stop and len(self.scan.items(a, b)) >= 2]
        return later[:1] or [(start, end)]

    def _trailing(self, start: int, end: int) -> tuple[int, int]:
        """"Could you list the guidance FX rates for FY 23/24 from the … spreadsheet, currency and
        rate?": a list of one item that the sentence's last words, after a comma, follow with a
        list of names of their own is the rows asked for; those names are the columns."""
        stop = self.scan.sentence_end(end)
        if len(self.scan.items(start, end)) != 1 or stop - end < 3:
            return start, end
        comma = max((k for k in range(end, stop) if self.scan.tokens[k].text == ","), default=None)
        if comma is None or comma <= end:
            return start, end
        tail = self.scan.tokens[comma + 1 : stop]
        if any(t.used or t.has_digit or not (t.is_word or t.term or t.text == ",") for t in tail) \
                or not any(t.is_(g.CONJUNCTIONS) for t in tail):
            return start, end  # "… outlays in 2011, 2012 and 2013": years go on a list's own values (``_values_named``)
        if len(self.scan.items(comma + 1, stop)) < 2 or not self.scan.is_list(comma + 1, stop):
            return start, end
        return comma + 1, stop

    def take_question(self) -> None:
        """"What hourly rates did we agree …?", "What are the monthly charges in …?": a question
        that opens with "what" asks for the values it names next; its asking words are read (they
        name no column and no condition), and the values' list ends where its auxiliary starts
        the subject ("did we agree", "does the SLA give")."""
        self._persons_verbs()
        # a question opens the message, a sentence, or a clause after a comma ("For each region in
        # the Q2 report, what was the Q2 2025 revenue and the change versus Q2 2024?")
        for start in [0, *(k + 1 for k, t in enumerate(self.scan.tokens) if t.text in SENTENCE_END or t.text == ",")]:
            first, second = self.scan.at(start), self.scan.at(start + 1)
            if first is None or first.used or not first.is_(g.ASKS_VALUES) or second is None or not second.is_word \
                    or self.scan.what_column(start):
                continue  # "…, employee, what it was and amount": an item of a list, not a question
            end = start + 1
            if second.is_(g.BE_WORDS) and not second.used:
                end += 1
            self.scan.use(start, end)
            # "What response and resolution times does the SLA set …": the values run to the auxiliary
            stop = self.scan.list_end(end)
            after = self.scan.at(stop)
            closes = after is None or after.text in SENTENCE_END  # "what was the A and the B?"
            # "what is the response time for the most critical priority?": the values, then what they are of
            of_what = second.is_(g.BE_WORDS) and after is not None and after.is_(g.ENDS_LIST) and not after.used
            if stop > end and (closes or of_what or after.is_(g.AUXILIARIES)) and self.scan.is_list(end, stop):
                self.asked.append((end, stop))

    def take_how_soon(self) -> None:
        """"How fast do they have to respond to and fix an incident of each priority?": a question
        of how fast, how quickly or how long asks for the time to do each thing its verbs say
        ("Time to respond", "Time to fix", names the synonym map knows as the response and the
        resolution time), for each of the things "each" names after them when a header of the
        scope names them ("Priority"), which come first."""
        tokens = self.scan.tokens
        for k, tok in enumerate(tokens):
            soon = self.scan.at(k + 1)
            if tok.used or tok.low != "how" or soon is None or soon.used or not soon.is_(g.HOW_SOON):
                continue
            j = k + 2
            # "do they have to", "does Nordwerk have to": the asker's words, a name among them
            # (the owner, read with the owners)
            while (t := self.scan.at(j)) is not None and (t.is_(g.AUXILIARIES) or t.is_(g.BEFORE_VERB) or t.capital and j > k + 2):
                j += 1
            first = j
            verbs: list[tuple[int, str]] = []
            while (t := self.scan.at(j)) is not None and not t.used and t.is_content and not t.is_(g.DETERMINERS) \
                    and not t.capital:
                verbs.append((j, t.bare))
                j += 1
                if (t := self.scan.at(j)) is not None and t.low == "to":
                    j += 1  # "respond to"
                if (t := self.scan.at(j)) is not None and (t.is_(g.CONJUNCTIONS) or t.low == "or") \
                        and (after := self.scan.at(j + 1)) is not None and not after.is_(g.DETERMINERS):
                    j += 1
                    continue
                break
            if not verbs:
                continue
            self.scan.use(k, k + 2)
            self.scan.use(first, j)
            label = self._each_label(j)
            if label is not None:
                self.scan.columns.append((k, label))  # the rows' label first
            self.scan.columns.extend((at, f"Time to {verb.casefold()}") for at, verb in verbs)

    def _each_label(self, start: int) -> str | None:
        """"… an incident of each priority": after the thing the verbs act on, "of/for each" and a
        header of the scope name the rows' label column; its words are read."""
        stop = self.scan.sentence_end(start)
        for k in range(start, stop - 1):
            if self.scan.tokens[k].used:
                break
            if self.scan.tokens[k].is_(g.EACH):
                head = self.scan.at(k + 1)
                if head is not None and not head.used and self._names_header(head.bare):
                    self.scan.use(k, k + 2)
                    return capitalise(head.bare)
        return None

    def _persons_verbs(self) -> None:
        """"What did we buy from …", "Which sensors did we buy …", "Quelles lentilles avons-nous
        achetées …": an auxiliary, the person who did it and the verb are the question's grammar
        (who bought is the owner read after them), no column and no kind of row; a verb that
        names a header of the scope stays for the columns."""
        tokens = self.scan.tokens
        texts = [t.text for t in tokens]
        for k, tok in enumerate(tokens):
            verb_at = g.asker_verb(texts, k) if tok.is_word and not tok.used else None
            verb = self.scan.at(verb_at) if verb_at is not None else None
            if verb is None or any(t.used for t in tokens[k:verb_at]) or not verb.is_content or self._names_header(verb.bare):
                continue
            self.scan.use(k, verb_at + 1)

    @property
    def header_names(self) -> frozenset[str]:
        return self.scan.header_names

    def _names_header(self, word: str) -> bool:
        return self.scan.names_header(word)

    def _labelled_lists(self) -> list[tuple[int, int]]:
        found = []
        for i, tok in enumerate(self.scan.tokens):
            nxt = self.scan.at(i + 1)
            if tok.is_(g.COLUMN_LABELS) and nxt is not None and nxt.text == ":":
                self.scan.use(i, i + 2)
                found.append((i + 2, self._list_stop(i + 2)))
            elif tok.is_(g.COLUMN_LABELS) and nxt is not None and nxt.is_(g.FOLLOWING) and (colon := self.scan.at(i + 2)) is not None \
                    and colon.text == ":":
                # "les colonnes suivantes : Groupe, …", "the columns below: …"
                self.scan.use(i, i + 3)
                found.append((i + 3, self._list_stop(i + 3)))
            elif self._labels_list(i):
                # "J'ai besoin des colonnes Product Code, Category, …", "the columns Date and Amount"
                self.scan.use(i, i + 1)
                found.append((i + 1, self.scan.list_end(i + 1)))
            elif tok.is_(g.ROW_LABELS) and nxt is not None and nxt.text == ":":
                self.scan.use(i, i + 2)
        return found

    def _labels_list(self, i: int) -> bool:
        """Whether the word at ``i`` says that the names after it are the columns, without a colon:
        a word of columns after an article, or opening the sentence, then a list of names."""
        tok, before, nxt = self.scan.tokens[i], self.scan.at(i - 1), self.scan.at(i + 1)
        if tok.used or not tok.is_(g.COLUMN_LABELS) or nxt is None or not (nxt.is_word or nxt.kind == "quoted") or nxt.used \
                or nxt.is_(g.ENDS_LIST) or nxt.is_(g.CONJUNCTIONS) or nxt.is_(g.DETERMINERS):
            return False
        if before is not None and not (before.is_(g.DETERMINERS) or before.text in SENTENCE_END or before.text in (",", ":")):
            return False
        end = self.scan.list_end(i + 1)
        return end > i + 1 and self.scan.is_list(i + 1, end)

    def _colon_lists(self) -> list[tuple[int, int]]:
        for i, tok in enumerate(self.scan.tokens):
            if tok.used or tok.text != ":" and tok.text not in g.DASHES:
                continue
            # "…: show the production of materials and …": a verb of asking opens the list
            start = i + 1
            if (verb := self.scan.at(start)) is not None and verb.is_(g.ASKING) and not verb.used:
                start += 1
                while self.scan.at(start) is not None and self.scan.tokens[start].is_(g.PRONOUNS):
                    start += 1
            # "…: table of the billed lines with Montant HT first, …": the rows, then the list
            head = start
            while self.scan.at(head) is not None and self.scan.tokens[head].is_(g.DETERMINERS):
                head += 1
            if (noun := self.scan.at(head)) is not None and (noun.is_(g.TABLE_NOUNS) or noun.is_(g.ROW_NOUNS)):
                keyword = next((j for j in range(head + 1, self.scan.sentence_end(head)) if self.scan.tokens[j].is_(g.LIST_KEYWORDS)), None)
                if keyword is not None:
                    start = keyword + 1
            elif noun is not None and noun.is_content and not noun.used and not self.scan.names_column(noun.bare) \
                    and (keyword := self.scan.at(head + 1)) is not None and keyword.is_(g.LIST_KEYWORDS) \
                    and self.scan.is_list(head + 2, self._list_stop(head + 2)):
                # "…: give the correlation with lack of interest of parents first, then …": what
                # the figures are, no column; the columns follow
                start = head + 2
            # the list runs to the sentence's end, or to the condition that follows it ("…
            # coefficients, only for impacts where …")
            ends = [(start, self._list_stop(start))]
            cut = self.scan.list_end(start)
            if (after := self.scan.at(cut)) is not None and not after.is_(g.LIST_KEYWORDS) and len(self.scan.items(start, cut)) > 1:
                ends.append((start, cut))  # not "…: give the A with B, C", nor a title's "Arrests by Race: 2009, which …"
            if start > i + 1:
                ends.append((i + 1, self._list_stop(i + 1)))  # "…: give the A with B": the verb's own
            start, stop = next(((a, b) for a, b in ends if self.scan.is_list(a, b)), (start, None))
            if tok.text in g.DASHES and (self._colon_follows(i) or stop != self._list_stop(start) or self._joins_names(i)
                                         or self._names_a_table(start, stop)):
                continue  # a dash standing alone before the list ("… at least 10 pieces - item number, …")
            if stop is None:
                continue  # a title's colon ("Arrests by Race: 2009, which … had more than …"): no list
            tok.used = True
            if start > i + 1:
                self.scan.use(i + 1, start)
            return [(start, stop)]
        return []

    def _names_a_table(self, start: int, stop: int | None) -> bool:
        """Whether the words from ``start`` name one table, no list of columns ("Article and
        amount – the whole returns table")."""
        if stop is None:
            return False
        last = self.scan.at(stop - 1)
        return last is not None and last.is_(g.TABLE_NOUNS) and len(self.scan.items(start, stop)) == 1

    def _joins_names(self, i: int) -> bool:
        """Whether the dash at ``i`` stands inside a name, between two capitalised words ("the bloc
        Frente para la Victoria - PJ", "Gdańsk – Warszawa")."""
        before, after = self.scan.at(i - 1), self.scan.at(i + 1)
        if before is None or after is None or not (before.is_word and after.is_word and before.capital and after.capital):
            return False
        return len(self.scan.items(i + 1, self.scan.list_end(i + 1))) == 1  # "… Open – ID, date and description" lists

    def _colon_follows(self, i: int) -> bool:
        """Whether a colon stands later in the sentence: it opens the list, and a dash before it
        joins names ("the Gdańsk – Warszawa route: date, …") or a phrase ("… report – show …:")."""
        end = self.scan.sentence_end(i)
        return any(t.text == ":" for t in self.scan.tokens[i + 1 : end + 1])

    def _list_stop(self, start: int) -> int:
        """The end of a labelled list: the sentence's end, or a preposition that names documents."""
        end = self.scan.sentence_end(start)
        for k in range(start + 1, end):
            tok = self.scan.tokens[k]
            if tok.is_(g.ENDS_LIST) and not tok.used and not self.scan.joins_name(k) and self.scan.names_documents(k + 1):
                return k
        return end

    def _keyword_lists(self) -> list[tuple[int, int]]:
        found = []
        for i, tok in enumerate(self.scan.tokens):
            # "Pour la facture F20180027, donne-moi le numéro …": a verb of asking after a leading
            # phrase opens the list, unless a list keyword later in the sentence does ("…, list the
            # flights with the reason, …")
            asked = (tok.is_(g.ASKING) or tok.low.split("-")[0] in g.ASKING and tok.low.split("-")[-1] in g.PRONOUNS) \
                and self._after_comma(i) \
                and not any(t.is_(g.LIST_KEYWORDS) for t in self.scan.tokens[i + 1 : self.scan.sentence_end(i)]) \
                and not ((nxt := self.scan.at(i + 1)) is not None and (nxt.low in WHICH or nxt.is_(g.QUESTION_WORDS)))
            if not (tok.is_(g.LIST_KEYWORDS) or asked) or tok.used or self.scan.amount_including(i):
                continue  # "the total including VAT" is one amount's name
            if (nxt := self.scan.at(i + 1)) is not None and nxt.is_(g.JOINS_NAME):
                continue  # "the Commission listing of active licenses": a noun, no list
            if tok.is_(g.WITH_WORDS) and self._in_opening(i):
                continue  # "In the … table for stainless steel with egg shell inhibitor, which …": the table's description
            start = i + 1
            while self.scan.at(start) is not None and self.scan.tokens[start].is_(g.PRONOUNS):
                start += 1  # "give me the state, …"
            end = self.scan.list_end(start)
            if tok.is_(g.INCLUSIONS) and end > start and self._is_row_phrase(start, end):
                continue  # "…, including the total line": rows the table keeps, no column
            if end > start and self.scan.is_list(start, end) and not self.scan.names_a_party(start, end):
                self.scan.use(i, start)
                found.append((start, end))
        return found

    def _in_opening(self, i: int) -> bool:
        """Whether the word at ``i`` stands in the phrase a sentence opens with a preposition and
        closes with a comma ("In the polarization table for steel with egg shell inhibitor, …"):
        it describes the document read, and lists no columns."""
        first = i
        while first > 0 and self.scan.tokens[first - 1].text not in SENTENCE_END:
            first -= 1
            if self.scan.tokens[first].kind == "punct" and "," in self.scan.tokens[first].text:
                return False
        if not self.scan.tokens[first].is_(g.ENDS_LIST) or first == i:
            return False
        end = self.scan.sentence_end(i)
        return any(t.kind == "punct" and "," in t.text for t in self.scan.tokens[i + 1 : end])

    def _after_comma(self, i: int) -> bool:
        """Whether a comma stands before the word at ``i``, past the asker's courtesy and pronouns
        ("…, ¿me puedes sacar …", "…, pourriez-vous me donner …")."""
        j = i - 1
        while j >= 0 and (self.scan.tokens[j].is_(g.PRONOUNS) or self.scan.tokens[j].is_(g.COURTESY) or self.scan.tokens[j].text in "¿¡"):
            j -= 1
        return j >= 0 and self.scan.tokens[j].text == ","

    def _leading_lists(self) -> list[tuple[int, int]]:
        found = []
        i = 0
        while i < len(self.scan.tokens):
            while i < len(self.scan.tokens) and (self.scan.tokens[i].used or self.scan.tokens[i].kind == "punct"):
                i += 1
            if i >= len(self.scan.tokens):
                break
            i = self._past_opening(i)
            if i >= len(self.scan.tokens):
                break
            first = self.scan.tokens[i]
            end = self.scan.list_end(i)
            opens_rows = first.is_(g.QUANTIFIERS) or first.low in ("which", "welche", "quels", "quelles", "for", "für", "pour")
            stop = self.scan.sentence_end(i)
            # a question asks which rows when a list follows it ("What did … order in August? Article,
            # …"); a request put as one ("Could you give me the A and the B? Leave out …") lists the columns
            if stop + 1 < len(self.scan.tokens) and self.scan.tokens[stop].text == "?" \
                    and not (len(self.scan.items(i, end)) >= 2 and not self._list_after(stop + 1)):
                opens_rows = True  # "What did Feldmann Bau order in August? Article, …": the list follows the question
            if i < self.scan.counted_rows:
                i = self.scan.sentence_end(i) + 1
                continue
            if end > i and not opens_rows and self.scan.is_list(i, end) and not self._is_row_phrase(i, end):
                found.append((i, end))
            i = self.scan.sentence_end(i) + 1
        return found

    def _list_after(self, start: int) -> bool:
        """Whether a sentence from ``start`` on opens with a list of two names or more."""
        while start < len(self.scan.tokens):
            k = start
            while k < len(self.scan.tokens) and (self.scan.tokens[k].used or self.scan.tokens[k].kind == "punct"):
                k += 1
            end = self.scan.list_end(k) if k < len(self.scan.tokens) else k
            if end > k and len(self.scan.items(k, end)) >= 2 and self.scan.is_list(k, end):
                return True
            start = self.scan.sentence_end(k) + 1 if k < len(self.scan.tokens) else k
        return False

    def _past_opening(self, i: int) -> int:
        """Where a sentence's list starts: past a phrase that names the document it is read from
        ("In the Senate expenditures, …", "From Table 325, which …") and past the verb that asks
        for the values ("show their …", "give me …"). The phrase's words stay for the owners and
        places."""
        end = self.scan.sentence_end(i)
        tok = self.scan.tokens[i]
        if tok.is_(g.ENDS_LIST) and not (self.scan.at(i + 1) and self.scan.tokens[i + 1].is_(g.QUANTIFIERS)):
            comma = next((k for k in range(i + 1, min(end, i + 2 * MAX_VALUE_PHRASE)) if self.scan.tokens[k].text == ","), None)
            # "de la lista de contaminantes y sus umbrales necesito todas las sustancias …": no
            # comma, the asker's need closes the phrase
            need = next((k for k in range(i + 1, min(end, i + 2 * MAX_VALUE_PHRASE)) if self.scan.tokens[k].is_(g.NEEDS)), None)
            if comma is None and need is not None:
                comma = need - 1
            if comma is not None:
                i = comma + 1
        # the verb that asks for the values and its persons: "show me", "brauche ich", "quiero"
        while i < end and (self.scan.tokens[i].is_(g.ASKING) or self.scan.tokens[i].is_(g.NEEDS) or self.scan.tokens[i].is_(g.PRONOUNS)
                           or self.scan.tokens[i].is_(g.PERSONS) and i > 0 and self.scan.tokens[i - 1].is_(g.NEEDS)) \
                and not self.scan.tokens[i].used:
            self.scan.tokens[i].used = True
            i += 1
        return i

    def _is_row_phrase(self, start: int, end: int) -> bool:
        """A lone phrase that names rows or documents rather than values: "Timesheet lines", "Manifests"."""
        items = self.scan.items(start, end)
        if len(items) != 1:
            return False
        head = items[0][1].split()[-1].casefold()
        return head in g.ROW_NOUNS and normalise(items[0][1]) not in self.scan.vocabulary

    def _values_named(self, end: int) -> tuple[int, list[tuple[int, str, bool]]]:
        """"… with their outlays in 2011, 2012 and 2013", "how often they occur in NVAF patients and
        in DVT/PE treatment (VTEt)", "its surplus/deficit for rice and for paddy": after a list's
        last item, "in" or "for" and groups (parted by commas and "and", each maybe with its own
        "in") that each hold a name of the scope's headers: a year heading a column, a header's
        code in brackets, a header's closing words. Those are the list's columns; the item before
        them says what their values are, and a closing word is read with it ("surplus/deficit
        rice"). Two groups at least, or years. (the list's new end, each group's start, name and
        whether it closes a header; no groups when the words after the list are none of these)"""
        at = self.scan.at(end)
        if at is None or at.used or at.low not in ("in", "for"):
            return end, []
        groups: list[tuple[int, str, bool]] = []
        k = end + 1
        while True:
            while (tok := self.scan.at(k)) is not None and tok.low in ("in", "for") and not tok.used:
                k += 1
            first = k
            while (tok := self.scan.at(k)) is not None and not tok.used and tok.text not in (",", ";") \
                    and not tok.is_(g.CONJUNCTIONS) and (tok.is_word or tok.term or tok.text in "()"):
                k += 1
                if tok.term and g.YEAR.fullmatch(tok.bare):
                    break  # a year is a group of its own: "2013 (billions of dollars)"
            named = self._group_name(first, k)
            if named is None:
                break
            groups.append((first, *named))
            last = k
            if (tok := self.scan.at(k)) is None or not (tok.text == "," or tok.is_(g.CONJUNCTIONS)):
                break
            k += 1
        if not groups or len(groups) < 2 and not g.YEAR.fullmatch(groups[0][1]):
            return end, []
        self.scan.tokens[end].used = True
        return last, groups

    def _group_name(self, start: int, end: int) -> tuple[str, bool] | None:
        """The name of the scope's headers a group of words after a list holds (``_values_named``):
        a year, a header or its code ("VTEt"), else a header's closing word ("rice"); with whether
        it only closes a header. None when it holds none, or several."""
        words = [t for t in self.scan.tokens[start:end] if t.is_word or t.term]
        if not 1 <= len(words) <= 4:
            return None
        years = [t.bare for t in words if t.term and g.YEAR.fullmatch(t.bare)]
        if years:
            return (years[0], False) if len(words) == 1 else None
        names = [t.bare for t in words if self.scan.names_header(t.bare) and not t.is_(g.DETERMINERS)]
        if len(names) == 1:
            return names[0], False
        tails = [t.bare for t in words if folded(t.bare) in self.scan.header_tails and not self.scan.names_header(t.bare)]
        return (tails[0], True) if len(tails) == 1 and len(words) == 1 else None

    def _list(self, start: int, end: int, groups: list[tuple[int, str, bool]]) -> None:
        """The columns of the list from ``start`` to ``end``; with groups after it
        (``_values_named``) the groups are the columns, the item before them naming what they hold."""
        if groups:
            before = self.scan.items(start, groups[0][0] - 1)
            what = before[-1][1] if before else ""
            self._list_items(before[:-1])
            for offset, name, closing in groups:
                self.scan.columns.append((offset, capitalise(f"{what} {name}" if closing and what else name)))
            self.scan.use(start, end)
            return
        items = self.scan.items(start, end)
        after = self.scan.at(end)
        if len(items) == 1 and after is not None and after.is_(g.LIST_KEYWORDS) and not self._names_header(items[0][1]) \
                and not is_known_column(items[0][1]) and self.scan.is_list(end + 1, self.scan.list_end(end + 1)):
            # "give the correlation with lack of interest of parents, …": what the values are, then
            # the columns they are given in
            self.scan.use(start, end)
            return
        self._list_items(items)
        self.scan.use(start, end)

    def _list_items(self, found: list[tuple[int, str]]) -> None:
        items = self._shared_heads(self._shared_qualifiers(self._rows_named(found)))
        named = [self.named_within(item) for _, item in items]
        for (offset, item), name in zip(items, named):
            if name != item and sum(folded(other) == folded(name) for other in [*named, *(i for _, i in items)]) > 1:
                name = item  # "total plan" and "total non-plan" are two columns, not twice "Total"
            self.scan.columns.append((offset, capitalise(name)))

    def _rows_named(self, items: list[tuple[int, str]]) -> list[tuple[int, str]]:
        """A list's items without the rows they open with: "the lines with quantity, unit price"
        lists the quantity; "just the Food Products lines, with description, …" lists the
        description, and the lines it names by their words ("Food Products") are the rows asked
        for, judged by meaning or picked by a heading."""
        kept = []
        for k, (offset, item) in enumerate(items):
            words = item.split()
            # "the Betrag first, then Art, …": the words that order the items name none
            while len(words) > 1 and words[0].casefold() in g.ORDER_FIRST:
                words, offset = words[1:], offset + 1
                while len(words) > 1 and words[0].casefold() in g.DETERMINERS:
                    words, offset = words[1:], offset + 1  # "then the total costs"
            while len(words) > 1 and words[-1].casefold() in g.ORDER_LAST:
                words = words[:-1]
            then = items[k + 1][1].split()[:1] if k + 1 < len(items) else []
            cut = next((k for k, w in enumerate(words) if k > 0 and w.casefold() in g.LIST_KEYWORDS and (
                words[k - 1].casefold() in g.ROW_NOUNS
                # "the correlation with lack of interest of parents": what the values are, then their column
                or self._names_header(" ".join(words[k + 1 :])) and not self._names_header(" ".join(words[:k]))
            )), None)
            if words and words[0].casefold() in g.LIST_KEYWORDS and len(words) > 1:
                words = words[1:]
            elif cut is not None and cut + 1 < len(words):
                if cut > 1 and words[cut - 1].casefold() in g.ROW_NOUNS:
                    self.scan.row_terms.append(" ".join(words[: cut - 1]))
                words = words[cut + 1 :]
            elif len(words) > 1 and words[-1].casefold() in g.ROW_NOUNS and then and then[0].casefold() in g.LIST_KEYWORDS:
                self.scan.row_terms.append(" ".join(words[:-1]))
                continue
            kept.append((offset, " ".join(words)))
        return self._given_per(kept)

    def _given_per(self, items: list[tuple[int, str]]) -> list[tuple[int, str]]:
        """"revenue per region": the figures, given for each of what follows "per" when a header
        of the scope names it — a column of its own first, unless the list names it already. An
        item the scope's headers name whole ("Price per unit") stays one."""
        out = list(items)
        for k, (offset, item) in enumerate(items):
            words = item.split()
            if self._names_header(item) or is_known_column(item):
                continue
            if k == 0 and (opened := self._per_first(offset, words)) is not None:
                # "Pro Währung H1, H2 und FY": the list opens with what each row is, then its first column
                label, cut = opened
                out[0] = (offset + cut, " ".join(words[cut:]))
                if match_column(label, [other for _, other in items[1:]]) is None:
                    out.insert(0, (-1, label))
                continue
            at = next((j for j, w in enumerate(words) if 0 < j < len(words) - 1 and w.casefold() in g.PER), None)
            if at is None:
                continue
            figures, each = " ".join(words[:at]), " ".join(words[at + 1 :])
            others = [other for j, (_, other) in enumerate(items) if j != k]
            if not self._names_header(each) or groups_of(figures) & _RATES:
                continue  # "yield in bushels per acre", "price per seat": a rate
            out[out.index((offset, item))] = (offset, figures)
            if match_column(each, others) is None:
                out.insert(0, (-1, each))
        return out

    def _per_first(self, offset: int, words: list[str]) -> tuple[str, int] | None:
        """"Pro Währung H1": an item that opens with "per", a name of a column's kind (a header
        of the scope or a name the glossary knows, not "per capita"), then a header of the scope.
        (the label, where the header's words start); None when the item is no such one."""
        if len(words) < 3 or words[0].casefold() not in g.PER:
            return None
        for cut in range(2, len(words)):
            label, rest = " ".join(words[1:cut]), " ".join(words[cut:])
            if (self._names_header(label) or is_known_column(label)) and self._names_header(rest):
                if (per := self.scan.at(offset)) is not None and per.low in g.PER:
                    per.used = True
                return label, cut
        return None

    def _shared_qualifiers(self, items: list[tuple[int, str]]) -> list[tuple[int, str]]:
        """"the private sale handgun and long gun counts": the words that open the item before "and"
        qualify the item after it too, when the scope has a header of both together ("Private Sale
        Handgun", "Private Sale Long Gun")."""
        shared = list(items)
        for k in range(1, len(shared)):
            (_, before), (at, item) = shared[k - 1], shared[k]
            joiner = self.scan.at(at - 1)
            words = before.split()
            if joiner is None or not joiner.is_(g.CONJUNCTIONS) or len(words) < 2:
                continue
            for size in range(len(words) - 1, 0, -1):
                whole = [*words[:size], *item.split()]
                if self._opens_with_header(words, size) and self._opens_with_header(whole, size):
                    shared[k] = (at, " ".join(whole))
                    break
        return shared

    def _shared_heads(self, items: list[tuple[int, str]]) -> list[tuple[int, str]]:
        """"response and resolution times": the words that close the item after "and" close the
        item before it too, when that item names no header and with them names one ("Response
        Time")."""
        shared = list(items)
        for k in range(len(shared) - 1):
            (at, before), (after_at, item) = shared[k], shared[k + 1]
            joiner = self.scan.at(after_at - 1)
            words = item.split()
            if joiner is None or not joiner.is_(g.CONJUNCTIONS) or len(words) < 2 or self._names_header(before):
                continue
            for size in range(1, len(words)):
                whole = f"{before} {' '.join(words[-size:])}"
                if self._names_header(whole):
                    shared[k] = (at, whole)
                    break
            # "tiempos de respuesta y de resolución", "délais de réponse et de résolution": the head
            # before the joining word opens the item after "and" too
            head = before.split()
            if words[0].casefold() in g.JOINS_NAME and words[0].casefold() in (w.casefold() for w in head[1:]) \
                    and not self._names_header(item):
                cut = next(n for n in range(1, len(head)) if head[n].casefold() == words[0].casefold())
                whole = f"{' '.join(head[:cut])} {item}"
                if self._names_header(whole):
                    shared[k + 1] = (after_at, whole)
        return shared

    def _opens_with_header(self, words: list[str], size: int) -> bool:
        """Whether the words open with a header of the scope longer than their first ``size`` words."""
        return any(self._names_header(" ".join(words[:n])) for n in range(size + 1, len(words) + 1))

    def named_within(self, item: str) -> str:
        """The header or label of the scope a list item opens with, when the item as a whole names
        none: "the illiterate share" where the scope's header is "Illiterate" (or ends in it, as a
        grouped header "Literacy Status Illiterate" does), "unit price please",
        "the state's total" (past the possessive that says whose). The longest such run of words
        wins; the words after it are part of no column, and the reading accounts for them as
        unused, so the rows are unsure. The header says at least half of the item ("Total" is not
        what "total internal debt" asks for); a word after it that the scope's names use ("invoice" of
        "Invoice no." in "invoice number") makes the item another column, and it stays whole."""
        words = item.split()
        if len(words) < 2 or not self.header_names or self._names_header(item) or is_known_column(item):
            return item
        if match_column(item, self.scan.scope.vocabulary) is not None:
            return item
        first = 1 if re.search(r"\w['’]s?$", words[0]) else 0
        longest = len(words) - 1 if first == 0 else len(words) - first
        for size in range(longest, (len(words) - first + 1) // 2 - 1, -1):
            run, rest = words[first : first + size], words[first + size :]
            if not any(ch.isalnum() for ch in " ".join(run)):
                continue  # a sign alone ("%" of "% departure") names no column
            named = self._names_header(" ".join(run)) or folded(" ".join(run)) in self.scan.header_tails
            if named and not any(folded(w) in self.header_words for w in rest):
                return " ".join(run)
        # "number of notices": the header after "of" is what is counted; "number" stays unused
        for k, word in enumerate(words[1:-1], start=1):
            rest = words[:k]
            if word.casefold() in g.JOINS_NAME and self._names_header(" ".join(words[k + 1 :])) \
                    and len(words) - k - 1 >= len(rest) and not any(folded(w) in self.header_words for w in rest):
                return " ".join(words[k + 1 :])
        return item

    @cached_property
    def header_words(self) -> frozenset[str]:
        """Every word of the scope's headers and labels, folded."""
        return frozenset(folded(w) for term in self.scan.scope.vocabulary for w in re.split(r"[\s/]+", term) if folded(w))
