"""Reading a request without a model: the message's structure decides, the scope grounds it.

A request is read in the order a person reads it:

0. the scope's own names first: a run of words that equals a header or label of the scope
   ("Region and state", "Domestic (%)", "Total Costs All Funds") is one word from then on;
1. places written out — paths, globs, file names (quoted ones may hold spaces), "the X folder",
   years — become places, wherever they stand;
2. a calculation asked for ("What is the total of …", "Sum of the gross amount of …", "How
   many …", "Average unit price by product family …") is named, with the column it is over;
3. the columns come from the list the message gives: after "Columns:", after a colon, after
   "with"/"mit"/"give", or opening the request before "of every"/"from"/"in". Each list item
   stays whole ("invoice number", "number of containers", "date de fin"); "total" in a list is
   a column;
4. conditions: "where/whose <column> <op> <value>", "with a <column> of more than <value>",
   "with more than 8 hours", "between X and Y", "dated after …", "that mentions X", and an
   implicit equality — a name followed by a value ("for priority 1", "of product family
   Sensors", "with rank 1"). Values keep their currency and unit;
5. the owner of the documents: "Acme's invoices", "invoices from Acme Ltd", "every Acme invoice";
6. whatever else selects rows by meaning ("every hardware position on …", "which leases allow
   subletting") is named as what the engine cannot judge — never silently dropped or kept.

The scope (its folders and its vocabulary of table headers and ``Key:`` labels) decides what
the structure leaves open: folder names in words, and whether "the Sales department" is a
condition on a column the documents have.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property

from core.reading import Condition, Place, Reading, ScopeHint
from tools.engines.accounting import with_accounting
from tools.engines.columns import folded, is_known_column, match_column, names_of, normalise
from tools.engines.conversation import kind_of
from tools.engines.dates import years_as_dates
from tools.engines.numbers import is_amount, parse_number
from tools.engines.offline import grammar as g

MAX_TERM_TOKENS = 10  # a header or label of the scope found whole in a message: "Total Costs All Funds"
MAX_VALUE_PHRASE = 12  # words of "for priority 1", "in the Sales department": a name and its value
JUDGEMENT_HINT = "Configure a language model (KEA_MODEL) to filter by meaning."

_TOKEN = re.compile(r"""(?<![\w'’])['"‘“](?P<quoted>[^'"‘’“”]+)['"’”](?![\w])|(?P<word>[^\s]+)""")
_TRAILING = re.compile(r"^(?P<body>.*?)(?P<punct>[,;:?!)]+)$")
_SENTENCE_END = frozenset(".?!")
_SEPARATORS = frozenset(",;:.?!")
_WHICH = frozenset({"which", "welche", "welcher", "quels", "quelles", "quel", "quelle"})


@dataclass
class Tok:
    """One word, punctuation mark, quoted phrase or place of the message."""

    text: str
    kind: str = "word"  # word | punct | quoted | place
    place: Place | None = None
    used: bool = False
    term: bool = False  # a header or label of the scope, found whole in the message
    start: int = 0  # where the token stands in the message
    _bare: str | None = field(default=None, repr=False, compare=False)

    @property
    def low(self) -> str:
        return self.bare.casefold()

    @property
    def bare(self) -> str:
        """The word without a possessive: ``Nordwerk's`` -> ``Nordwerk``."""
        if self.kind != "word":
            return self.text
        # a token's text never changes once read, and this is asked at every step of every
        # scan: worked out once, a long message stays fast to read
        if self._bare is None:
            self._bare = re.sub(r"['’]s?$", "", self.text)
        return self._bare

    @property
    def possessive(self) -> bool:
        return self.kind == "word" and bool(re.search(r"\w['’]s?$", self.text)) and not self.text.endswith("'s'")

    @property
    def is_word(self) -> bool:
        return self.kind == "word" and any(ch.isalnum() for ch in self.text)

    @property
    def capital(self) -> bool:
        return self.kind == "word" and self.text[:1].isupper()

    @property
    def has_digit(self) -> bool:
        return any(ch.isdigit() for ch in self.text)

    def is_(self, vocabulary: frozenset[str]) -> bool:
        return self.kind == "word" and self.low in vocabulary

    @property
    def is_content(self) -> bool:
        """A word that names something: not a determiner, quantifier, preposition or conjunction."""
        return self.is_word and not self.used and not (
            self.is_(g.DETERMINERS) or self.is_(g.QUANTIFIERS) or self.is_(g.ENDS_LIST) or self.is_(g.CONJUNCTIONS)
        )


def tokenize(text: str) -> list[Tok]:
    """Words, quoted phrases and punctuation; a sentence's closing period is its own token."""
    tokens: list[Tok] = []
    for match in _TOKEN.finditer(text):
        if match.group("quoted") is not None:
            tokens.append(Tok(match.group("quoted").strip(), "quoted"))
            continue
        word = match.group("word")
        lead = ""
        while word[:1] in "([" and len(word) > 1:
            lead, word = lead + word[0], word[1:]
        if lead:
            tokens.append(Tok(lead, "punct"))
        tail = ""
        trailing = _TRAILING.match(word)
        if trailing and trailing.group("body"):
            word, tail = trailing.group("body"), trailing.group("punct")
        elif trailing:
            tokens.append(Tok(word, "punct"))
            continue
        end = match.end()
        rest = text[end:]
        if word.endswith(".") and _closes_sentence(word, rest):
            tokens.append(Tok(word[:-1]))
            tokens.append(Tok(".", "punct"))
        else:
            tokens.append(Tok(word))
        for ch in tail:
            tokens.append(Tok(ch, "punct"))
    cursor = 0
    for tok in tokens:
        found = text.find(tok.text, cursor)
        if found >= 0:
            tok.start, cursor = found, found + len(tok.text)
        else:
            tok.start = cursor
    return [t for t in tokens if t.text]


def _closes_sentence(word: str, rest: str) -> bool:
    """Whether a word's final period ends a sentence (not "Stk.", "Pos.", "B.V.", "no.")."""
    body = word[:-1]
    if "." in body or len(body) <= 3 or not body.isalpha():
        return not rest.strip() and not ("." in body or len(body) <= 3)
    return not rest.strip() or bool(re.match(r"\s+[A-ZÄÖÜ0-9\"'“‘]", rest))


def _text(tokens: list[Tok]) -> str:
    return " ".join(t.text for t in tokens)


def _capitalise(words: str) -> str:
    words = words.strip()
    return words[:1].upper() + words[1:]


def _strip_determiners(tokens: list[Tok]) -> list[Tok]:
    while tokens and tokens[0].is_(g.DETERMINERS):
        tokens = tokens[1:]
    return tokens


@dataclass
class _Reader:
    message: str
    scope: ScopeHint
    tokens: list[Tok] = field(default_factory=list)
    columns: list[tuple[int, str]] = field(default_factory=list)
    conditions: list[tuple[int, Condition]] = field(default_factory=list)
    owners: list[tuple[int, str]] = field(default_factory=list)
    calculations: list[str] = field(default_factory=list)
    row_terms: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    group_first: bool = False
    counted_rows: int = -1

    def __post_init__(self) -> None:
        self.vocabulary = {normalise(term) for term in self.scope.vocabulary}
        self.terms: dict[str, list[str]] = {}
        for term in self.scope.vocabulary:
            if key := folded(term):
                self.terms.setdefault(key, []).append(term)
        self.folders = [f.folder for f in self.scope.folders]

    # -- helpers ----------------------------------------------------------------------------

    def free(self, i: int) -> bool:
        return 0 <= i < len(self.tokens) and not self.tokens[i].used

    def at(self, i: int) -> Tok | None:
        return self.tokens[i] if 0 <= i < len(self.tokens) else None

    def use(self, start: int, end: int) -> None:
        for tok in self.tokens[start:end]:
            tok.used = True

    def operator_at(self, i: int) -> tuple[str, int] | None:
        """The operator whose phrase starts at token ``i``: (op, index after it)."""
        tok = self.at(i)
        if tok is None or tok.kind != "word" or tok.low not in g.OPERATOR_FIRST_WORDS:
            return None
        for op, phrase in g.OPERATOR_PHRASES:
            window = self.tokens[i : i + len(phrase)]
            if len(window) == len(phrase) and all(t.kind == "word" and t.low == w for t, w in zip(window, phrase)):
                return op, i + len(phrase)
        return None

    @cached_property
    def folder_names(self) -> _FolderNames:
        return _FolderNames(self.folders)

    def is_boundary(self, i: int) -> bool:
        """Where a value or a name ends: punctuation, a place, a keyword, or a preposition that names documents."""
        tok = self.at(i)
        if tok is None or tok.used or tok.kind in ("punct", "place"):
            return True
        if tok.is_(g.CONDITION_KEYWORDS) or tok.is_(g.LIST_KEYWORDS) or tok.low == "dated":
            return True
        if tok.is_(g.ENDS_LIST) and not self._joins_name(i):
            return True
        return False

    def _joins_name(self, i: int) -> bool:
        """``of``/``de`` inside a name: "number of containers", "date de fin" (a bare lower-case noun follows)."""
        tok, nxt = self.at(i), self.at(i + 1)
        if tok is None or not tok.is_(g.JOINS_NAME) or nxt is None or not nxt.is_word or nxt.used:
            return False
        if self.folders and self.folder_names.named([nxt.bare]):
            return False  # "supplier of contracts": the scope's contracts folder, not a name "… of contracts"
        return not (nxt.capital or nxt.has_digit or nxt.is_(g.DETERMINERS) or nxt.is_(g.QUANTIFIERS))

    def sentence_end(self, i: int) -> int:
        while i < len(self.tokens) and self.tokens[i].text not in _SENTENCE_END:
            i += 1
        return i

    # -- 1. places ----------------------------------------------------------------------------

    def take_places(self) -> None:
        for i, tok in enumerate(self.tokens):
            place = self._place_of(tok)
            if place:
                tok.kind, tok.place, tok.used = "place", place, True
        self.take_terms()
        for i, tok in enumerate(self.tokens):
            if tok.is_(g.FOLDER_WORDS):
                self._folder_word(i)
            elif tok.kind == "word" and g.YEAR.fullmatch(tok.bare) and not tok.used and not self._compared(i):
                tok.kind, tok.place, tok.used = "place", Place(kind="year", value=tok.bare), True
                before = self.at(i - 1)
                if before is not None and before.is_(g.YEAR_WORDS):
                    before.used = True

    def take_terms(self) -> None:
        """The scope's own names first: the longest runs of words that equal a header or label of
        the scope (case, spacing, punctuation and plurals folded) become one word each, written as
        the message writes it, so that no rule splits "Region and state", "Prijs incl. BTW" or
        "Total Costs All Funds", or reads its year as a place. Runs of one word are left as they are."""
        if not self.terms:
            return
        merged: list[Tok] = []
        i = 0
        while i < len(self.tokens):
            end = self._term_end(i)
            if end is None:
                merged.append(self.tokens[i])
                i += 1
                continue
            start = self.tokens[i].start
            last = self.tokens[end - 1]
            merged.append(Tok(self.message[start : last.start + len(last.text)], term=True, start=start))
            i = end
        self.tokens = merged

    def _term_end(self, i: int) -> int | None:
        """Where the longest run of two or more words from token ``i`` that names a term ends."""
        first = self.tokens[i]
        if first.kind != "word" or first.used:
            return None
        for end in range(min(len(self.tokens), i + MAX_TERM_TOKENS), i + 1, -1):
            span = self.tokens[i:end]
            last = span[-1]
            if any(t.used or t.kind not in ("word", "punct") for t in span) or last.text in _SEPARATORS:
                continue
            text = self.message[first.start : last.start + len(last.text)]
            marks = {ch for ch in text if not ch.isalnum() and not ch.isspace()}
            if any(marks <= {ch for ch in term if not ch.isalnum() and not ch.isspace()} for term in self.terms.get(folded(text), ())):
                return end
        return None

    def _compared(self, i: int) -> bool:
        """A year that a comparison ends ("born before 1930", "after 2020") is a value, not a place."""
        return any(self.operator_at(k) and self.operator_at(k)[1] == i for k in range(max(0, i - 3), i))  # type: ignore[index]

    def _place_of(self, tok: Tok) -> Place | None:
        text = tok.text
        if tok.kind == "quoted":
            return Place(kind="file", value=text) if g.FILE_NAME.fullmatch(text) else None
        if tok.kind != "word" or text.startswith("http"):
            return None
        if "*" in text or ("?" in text and "/" in text):
            return Place(kind="glob", value=text)
        if g.FILE_NAME.fullmatch(text) and not re.fullmatch(r"[\d.,]+", text):
            return Place(kind="file", value=text)
        if "/" in text and re.search(r"\w", text) and not re.fullmatch(r"[\d./-]+", text) and not self._alternatives(text):
            return Place(kind="folder", value=self._stored_folder(text.strip("/")))
        return None

    def _alternatives(self, text: str) -> bool:
        """"surplus/deficit", "layoff/closure", "kWh/year": two words joined by a slash, neither of
        them a folder of the scope, name one thing two ways; a path starts or ends with a slash,
        has more parts, or starts at a folder the scope has."""
        parts = text.split("/")
        if len(parts) != 2 or not all(p.isalpha() for p in parts):
            return False
        segments = {seg.casefold() for f in self.folders for seg in f.strip("/").split("/")}
        return not any(p.casefold() in segments for p in parts)

    def _stored_folder(self, written: str) -> str:
        """The scope's folder as stored, when the written path names one (case aside)."""
        return next((f for f in self.folders if f.strip("/").casefold() == written.casefold()), written)

    def _folder_word(self, i: int) -> None:
        """``the leases folder``, ``folder leases``, ``the receipts/ folder``, ``dossier contracts/``."""
        tok = self.tokens[i]
        before, after = self.at(i - 1), self.at(i + 1)
        if before is not None and before.kind == "place":
            tok.used = True
        elif after is not None and after.kind == "place":
            tok.used = True
        elif before is not None and before.is_word and not before.used and not before.is_(g.DETERMINERS):
            before.kind, before.place, before.used = "place", Place(kind="folder", value=self._stored_folder(before.bare)), True
            tok.used = True
        elif after is not None and after.is_word and not after.used:
            after.kind, after.place, after.used = "place", Place(kind="folder", value=self._stored_folder(after.bare)), True
            tok.used = True

    def take_folder_names(self) -> None:
        """Folder names written in words, as the scope's folders spell them: ``the SLAs``, ``price list``."""
        if not self.folders:
            return
        named = self.folder_names
        i = 0
        while i < len(self.tokens):
            for n in (3, 2, 1):
                run = self.tokens[i : i + n]
                if len(run) < n or not all(t.is_word and not t.used for t in run) or any(t.possessive for t in run[:-1]):
                    continue
                folder = named.named([w for t in run for w in t.bare.split()])
                if folder is None and n == 1 and run[0].term:
                    folder = named.named(run[0].bare.split()[-1:])  # "purchase order" names the orders
                if folder and self._within_written(folder):
                    # "purchase order in orders/2024/": the written path is the place, the words name the kind
                    self.use(i, i + n)
                    i += n - 1
                    break
                if folder:
                    run[0].kind, run[0].place = "place", Place(kind="folder", value=folder)
                    self.use(i, i + n)
                    i += n - 1
                    break
            i += 1

    def _within_written(self, folder: str) -> bool:
        """Whether a folder named in words holds a folder or file the message writes out as a path."""
        inner = folder.strip("/").casefold() + "/"
        return any(
            t.place is not None and t.place.kind in ("folder", "file", "glob")
            and t.place.value.strip("/").casefold().startswith(inner)
            for t in self.tokens
        )

    # -- 2. calculations ------------------------------------------------------------------------

    def take_calculation(self) -> None:
        """A calculation the request opens with, and the column it is over."""
        text = self.message
        if g.HOW_MANY.match(text):
            self.calculations.append("count of rows")
            end = self.sentence_end(0)
            self.counted_rows = end  # the rest of the question names the rows counted, not columns
            # "How many claims does each policy list? Policy number and claim number."
            if end < len(self.tokens):
                self.use(0, end + 1)
            else:
                self.use(0, 2)
            return
        start = 0
        ask = g.ASKS.match(text)
        if ask:
            start = len(ask.group().split())
        i = start
        while self.at(i) is not None and self.tokens[i].is_(g.DETERMINERS):
            i += 1
        tok = self.at(i)
        if tok is None or tok.kind != "word":
            return
        kind = g.CALCULATION_WORDS.get(tok.low)
        if kind is None and tok.low == "plus" and (nxt := self.at(i + 1)) is not None and nxt.low == "élevé":
            kind = "maximum"
        if kind is None:
            return
        j = i + 1
        while self.at(j) is not None and self.tokens[j].low in ("of", "der", "de", "des", "du", "aller") and self._calc_of_continues(j):
            j += 1
        while self.at(j) is not None and self.tokens[j].is_(g.DETERMINERS):
            j += 1
        follows = self.at(j)
        name_end = j if follows is None or follows.is_(g.QUANTIFIERS) or follows.is_(g.ENDS_LIST) else self._name_end(j)
        column = _text(self.tokens[j:name_end])
        if not column:
            column = _capitalise(tok.bare)  # "the total of all invoices": the Total
        group = ""
        end = name_end
        by = self.at(name_end)
        if by is not None and by.is_(g.GROUP_WORDS):
            group_end = self._name_end(name_end + 1)
            group = _text(self.tokens[name_end + 1 : group_end])
            end = group_end
        self.use(0, end)
        self.calculations.append(kind if not column else f"{kind} of {_capitalise(column)}")
        if group:
            self.calculations[-1] += f" by {_capitalise(group)}"
            self.columns.append((name_end + 1, _capitalise(group)))
            self.group_first = True
        self.columns.append((j, _capitalise(column)))

    def _calc_of_continues(self, j: int) -> bool:
        """After "the sum": "of the gross amount" names its column; "of all invoices" names documents."""
        nxt = self.at(j + 1)
        return nxt is not None and (nxt.is_(g.DETERMINERS) or (nxt.is_word and not nxt.is_(g.QUANTIFIERS) and not nxt.capital))

    def _name_end(self, j: int) -> int:
        """Where a name (a column, a value's column) that starts at ``j`` ends."""
        k = j
        while k < len(self.tokens) and not self.is_boundary(k):
            tok = self.tokens[k]
            if k > j and (tok.is_(g.CONJUNCTIONS) or self.operator_at(k) or tok.is_(g.RELATIVE)):
                break
            if k > j and tok.kind == "word" and tok.low.endswith("ed") and self.at(k + 1) is not None and self.tokens[k + 1].is_(g.ENDS_LIST):
                break  # "number of parcels delivered by …"
            k += 1
        return k

    # -- 3. columns -------------------------------------------------------------------------

    def take_columns(self) -> None:
        lists = self._labelled_lists() or self._colon_lists() or self._keyword_lists()
        if not lists and not self.columns:
            lists = self._leading_lists()
        for start, end in lists:
            self._list(start, end)

    def take_row_key(self) -> None:
        """"each state with its growth rates", "Which states have …? Show their …": the thing every
        row is about, when a header of the scope names it and the values wanted are its own ("its",
        "their") or the request asks which ones, is the first column."""
        for i, tok in enumerate(self.tokens[:-3]):
            noun, joiner, owner = self.tokens[i + 1 : i + 4]
            if not tok.is_(g.QUANTIFIERS) or not noun.is_word or noun.used or not owner.is_(g.POSSESSIVES):
                continue
            if (joiner.is_(g.LIST_KEYWORDS) or joiner.is_(g.CONJUNCTIONS)) and self._names_header(noun.bare):
                self.columns.append((i + 1, _capitalise(noun.bare)))
                noun.used = True
        # "Which states have …? Show …", "every state whose …": the things asked about are the
        # rows' first column
        for i, tok in enumerate(self.tokens[:-1]):
            noun, after = self.tokens[i + 1], self.at(i + 2)
            picked = tok.is_(g.QUANTIFIERS) and after is not None and (after.is_(g.RELATIVE) or after.low == "whose")
            if not (tok.low in _WHICH or picked) or not noun.is_word or not self._names_header(noun.bare):
                continue
            named = [c for _, c in self.columns]
            if named and match_column(noun.bare, named) is None:
                self.columns.append((-1, _capitalise(noun.bare)))

    @cached_property
    def header_names(self) -> frozenset[str]:
        """The scope's headers and labels, folded, with each name a header joins with a slash."""
        return frozenset(name for term in self.scope.vocabulary for name in names_of(term))

    def _names_header(self, word: str) -> bool:
        """Whether a word is a header or label of the scope, or one of the names a header joins
        with a slash ("state" in "States/Union Territories")."""
        return folded(word) in self.header_names

    def _labelled_lists(self) -> list[tuple[int, int]]:
        found = []
        for i, tok in enumerate(self.tokens):
            nxt = self.at(i + 1)
            if tok.is_(g.COLUMN_LABELS) and nxt is not None and nxt.text == ":":
                self.use(i, i + 2)
                found.append((i + 2, self._list_stop(i + 2)))
            elif tok.is_(g.ROW_LABELS) and nxt is not None and nxt.text == ":":
                self.use(i, i + 2)
        return found

    def _colon_lists(self) -> list[tuple[int, int]]:
        for i, tok in enumerate(self.tokens):
            if tok.text == ":" and not tok.used:
                tok.used = True
                return [(i + 1, self._list_stop(i + 1))]
        return []

    def _list_stop(self, start: int) -> int:
        """The end of a labelled list: the sentence's end, or a preposition that names documents."""
        end = self.sentence_end(start)
        for k in range(start + 1, end):
            tok = self.tokens[k]
            if tok.is_(g.ENDS_LIST) and not tok.used and not self._joins_name(k) and self._names_documents(k + 1):
                return k
        return end

    def _keyword_lists(self) -> list[tuple[int, int]]:
        found = []
        for i, tok in enumerate(self.tokens):
            if not tok.is_(g.LIST_KEYWORDS) or tok.used:
                continue
            start = i + 1
            while self.at(start) is not None and self.tokens[start].is_(g.PRONOUNS):
                start += 1  # "give me the state, …"
            end = self._list_end(start)
            if end > start and self._is_list(start, end) and not self._names_a_party(start, end):
                self.use(i, start)
                found.append((start, end))
        return found

    def _names_a_party(self, start: int, end: int) -> bool:
        """"… of the SLA with Nordlicht AG": after "with", one name written as a name (every word
        capitalised) that is no column the scope or the synonym map knows names the other party
        of the documents, not the values wanted (those stand in the list the request opened with)."""
        items = self._items(start, end)
        if len(items) != 1 or start == 1:
            return False
        name = items[0][1]
        toks = [t for t in self.tokens[start:end] if t.is_word]
        return bool(toks) and all(t.capital for t in toks) and not is_known_column(name) and normalise(name) not in self.vocabulary

    def _leading_lists(self) -> list[tuple[int, int]]:
        found = []
        i = 0
        while i < len(self.tokens):
            while i < len(self.tokens) and (self.tokens[i].used or self.tokens[i].kind == "punct"):
                i += 1
            if i >= len(self.tokens):
                break
            i = self._past_opening(i)
            if i >= len(self.tokens):
                break
            first = self.tokens[i]
            end = self._list_end(i)
            opens_rows = first.is_(g.QUANTIFIERS) or first.low in ("which", "welche", "quels", "quelles", "for", "für", "pour")
            stop = self.sentence_end(i)
            if stop + 1 < len(self.tokens) and self.tokens[stop].text == "?":
                opens_rows = True  # "What did Feldmann Bau order in August? Article, …": the list follows the question
            if i < self.counted_rows:
                i = self.sentence_end(i) + 1
                continue
            if end > i and not opens_rows and self._is_list(i, end) and not self._is_row_phrase(i, end):
                found.append((i, end))
            i = self.sentence_end(i) + 1
        return found

    def _past_opening(self, i: int) -> int:
        """Where a sentence's list starts: past a phrase that names the document it is read from
        ("In the Senate expenditures, …", "From Table 325, which …") and past the verb that asks
        for the values ("show their …", "give me …"). The phrase's words stay for the owners and
        places."""
        end = self.sentence_end(i)
        tok = self.tokens[i]
        if tok.is_(g.ENDS_LIST) and not (self.at(i + 1) and self.tokens[i + 1].is_(g.QUANTIFIERS)):
            comma = next((k for k in range(i + 1, min(end, i + 2 * MAX_VALUE_PHRASE)) if self.tokens[k].text == ","), None)
            if comma is not None:
                i = comma + 1
        while i < end and (self.tokens[i].is_(g.ASKING) or self.tokens[i].is_(g.PRONOUNS)) and not self.tokens[i].used:
            self.tokens[i].used = True
            i += 1
        return i

    def _is_row_phrase(self, start: int, end: int) -> bool:
        """A lone phrase that names rows or documents rather than values: "Timesheet lines", "Manifests"."""
        items = self._items(start, end)
        if len(items) != 1:
            return False
        head = items[0][1].split()[-1].casefold()
        return head in g.ROW_NOUNS and normalise(items[0][1]) not in self.vocabulary

    def _list_end(self, start: int) -> int:
        k = start
        while k < len(self.tokens):
            tok = self.tokens[k]
            if tok.text in _SENTENCE_END or tok.text == ":":
                break
            if tok.kind == "punct" and tok.text not in (",", ";"):
                break
            if tok.used or tok.kind == "place" or k > start and tok.is_(g.QUANTIFIERS):
                break
            if k > start and (self.is_boundary(k) or self.operator_at(k) or tok.is_(g.RELATIVE) or tok.is_(g.ABOUT_WORDS)):
                if tok.text not in (",", ";"):
                    break
            if k > start and tok.kind == "word" and tok.low.endswith("ed") and self.at(k + 1) is not None and self.tokens[k + 1].is_(g.ENDS_LIST):
                break
            k += 1
        while k > start and self.tokens[k - 1].text in (",", ";"):
            k -= 1
        return k

    def _items(self, start: int, end: int) -> list[tuple[int, str]]:
        items: list[tuple[int, str]] = []
        current: list[Tok] = []
        first = start
        for k in range(start, end):
            tok = self.tokens[k]
            if tok.text in (",", ";") or tok.is_(g.CONJUNCTIONS) or tok.used:
                if current:
                    items.append((first, _text(current)))
                current = []
                first = k + 1
                continue
            if not current and tok.is_(g.DETERMINERS):
                first = k + 1
                continue
            current.append(tok)
        if current:
            items.append((first, _text(current)))
        return [(i, re.sub(r"\s+(?:columns?|fields?)$", "", t, flags=re.IGNORECASE)) for i, t in items if t]

    def _is_list(self, start: int, end: int) -> bool:
        """Whether the words name values: not a condition (an operator, "priority P1")."""
        if any(self.operator_at(k) for k in range(start, end)):
            return False
        items = self._items(start, end)
        if not items or any(all(w in g.ENDS_LIST for w in text.casefold().split()) for _, text in items):
            return False  # "in" left of "each age group" names no value
        if len(items) == 1:
            return not self._trailing_value(start, end)
        return all(len(text.split()) <= 6 for _, text in items)

    def _trailing_value(self, start: int, end: int) -> bool:
        """Whether the last word of a lone phrase is a value: "rank 1", "priority P1", "project code PRJ-207"."""
        toks = _strip_determiners(self.tokens[start:end])
        if len(toks) < 2:
            return False
        last = toks[-1]
        if last.kind == "quoted" or last.has_digit:
            return True
        return last.capital and any(not t.capital for t in toks[:-1])

    def _list(self, start: int, end: int) -> None:
        for offset, item in self._items(start, end):
            self.columns.append((offset, _capitalise(item)))
        self.use(start, end)

    # -- 4. conditions -----------------------------------------------------------------------

    def take_conditions(self) -> None:
        for i, tok in enumerate(self.tokens):
            if tok.used or tok.kind != "word":
                continue
            if tok.is_(g.CONDITION_KEYWORDS) or tok.is_(g.HAS_WORDS) and self._after_which(i):
                end = self._chain(i + 1)
                if end is not None:
                    self.use(i, end)
                elif tok.is_(g.HAS_WORDS):
                    self._with_condition(i)
                elif tok.is_(g.CONDITION_KEYWORDS):
                    self._unreadable(i + 1, self._clause_end(i + 1))
                    self.use(i, self._clause_end(i + 1))
            elif tok.low == "dated" and (op := self.operator_at(i + 1)):
                end = self._value(op[0], "Date", op[1], i + 1)
                self.use(i, end)
            elif tok.is_(g.RELATIVE) or tok.low in ("mentioning", "containing"):
                self._relative(i)
            elif tok.is_(g.LIST_KEYWORDS):
                self._with_condition(i)
            elif tok.is_(g.ABOUT_WORDS) and i > 0:
                end = self._clause_end(i + 1)
                if end > i + 1:
                    self.row_terms.append(_text(self.tokens[i + 1 : end]))
                    self.use(i, end)
        self._term_values()
        self._implicit_equalities()
        self._leading_condition()
        self._comparisons()

    def _term_values(self) -> None:
        """A label of the scope, then a value written as a name or a figure: "paid by Ilse Vermeer",
        "Facture n° F-2024-118": the label's value equals it."""
        for i, tok in enumerate(self.tokens):
            if not tok.term or tok.used:
                continue
            end = self._value_phrase_end(i + 1)
            value = [t for t in self.tokens[i + 1 : end] if not t.is_(g.DETERMINERS)]
            if not value or any(t.used or t.kind not in ("word", "quoted") for t in value):
                continue
            if all(t.kind == "quoted" or t.has_digit or t.capital and t.is_content for t in value):
                self._add(i, _capitalise(tok.text), "equals", _text(value).strip("'\"‘’“”"))
                self.use(i, end)

    def _after_which(self, i: int) -> bool:
        return any(t.low in _WHICH or t.low == "many" for t in self.tokens[max(0, i - 6) : i])

    def _chain(self, start: int) -> int | None:
        """``a is x and b > 3`` from ``start``; the index after what was read, or None."""
        end = None
        k = start
        while True:
            while self.at(k) is not None and self.tokens[k].is_(g.DETERMINERS):
                k += 1
            column_end = k
            while column_end < len(self.tokens) and column_end - k < 5 and not self.operator_at(column_end):
                tok = self.tokens[column_end]
                if tok.used or tok.kind != "word" or tok.is_(g.HAS_WORDS) or tok.is_(g.RELATIVE) or tok.is_(g.QUANTIFIERS):
                    break
                after = self.at(column_end + 1)
                in_period = tok.low in ("in", "for", "im") and after is not None and after.has_digit  # "growth in 2001-2011"
                if tok.is_(g.CONJUNCTIONS) or tok.is_(g.ENDS_LIST) and not self._joins_name(column_end) and not in_period:
                    break
                if tok.low == "of" and self.operator_at(column_end + 1):
                    break
                column_end += 1
            op = self.operator_at(column_end)
            if op is None and self.at(column_end) is not None and self.tokens[column_end].low == "of":
                op = self.operator_at(column_end + 1)
                op_start = column_end + 1
            else:
                op_start = column_end
            if op is None or column_end == k:
                return end if end is not None else None
            column = _capitalise(_text(self.tokens[k:column_end]))
            end = self._value(op[0], column, op[1], op_start)
            joiner = self.at(end)
            if joiner is not None and joiner.is_(g.CONJUNCTIONS) and not joiner.used:
                k = end + 1
                continue
            return end

    def _value(self, op: str, column: str, start: int, op_start: int) -> int:
        """Read the value of ``column op`` from ``start``; return the index after it."""
        words = _text(self.tokens[op_start:start])
        if op == "between":
            return self._between(column, start)
        tok = self.at(start)
        if tok is not None and tok.kind == "quoted":
            self._add(start, column, op, tok.text)
            return start + 1
        if op in ("lt", "le", "gt", "ge"):
            end = self._amount_end(start)
        else:
            end = start
            while end < len(self.tokens) and not self.is_boundary(end):
                if end > start and self.tokens[end].is_(g.CONJUNCTIONS) and self._condition_follows(end + 1):
                    break
                end += 1
        value = _text(self.tokens[start:end]).strip("'\"‘’“”")
        # a literal value is a name, a number or a short phrase; a clause of lower-case words is a description
        described = op in ("equals", "not") and len(value.split()) > 3 and value == value.lower() and not any(ch.isdigit() for ch in value)
        if not value or described or (op in ("lt", "le", "gt", "ge") and not is_amount(value)):
            self._note_unreadable(f"{column} {words} {value}".strip())
            self.conditions.append((start, Condition(column=None, op="judgement", value=f"{column} {words} {value}".strip(), text=f"{column} {words} {value}".strip())))
            return max(end, start + (1 if value else 0))
        self._add(start, column, op, value)
        return end

    def _amount_end(self, start: int) -> int:
        """A number with its currency or unit: "EUR 2.500", "2,50 EUR", "100 kg", "30.06.2024"."""
        end = start
        tok = self.at(end)
        if tok is not None and tok.kind == "word" and not tok.has_digit and self.at(end + 1) is not None and self.tokens[end + 1].has_digit:
            end += 1  # a currency before the number
        while self.at(end) is not None and self.tokens[end].kind == "word" and (self.tokens[end].has_digit or self.tokens[end].low in ("million", "millionen", "mio", "thousand", "k")):
            end += 1
        if end == start:  # "one million"
            while self.at(end) is not None and self.tokens[end].kind == "word" and not self.is_boundary(end) and end - start < 3:
                if parse_number(_text(self.tokens[start : end + 1])) is None and end > start:
                    break
                end += 1
            return end
        unit = self.at(end)
        cent = self.at(end + 1)
        if unit is not None and unit.low in ("per", "pour") and cent is not None and cent.low == "cent":
            return end + 2  # "60 per cent"
        if unit is not None and unit.kind == "word" and not unit.used and _is_unit(unit.text):
            end += 1
        return end

    def _between(self, column: str, start: int) -> int:
        low_end = self._amount_end(start)
        conj = self.at(low_end)
        if conj is None or not conj.is_(g.CONJUNCTIONS):
            self._note_unreadable(f"{column} between {_text(self.tokens[start:low_end])}")
            return low_end
        high_end = self._amount_end(low_end + 1)
        low, high = _text(self.tokens[start:low_end]), _text(self.tokens[low_end + 1 : high_end])
        unit = _unit_of(high)
        if unit and not _unit_of(low) and parse_number(f"{low} {unit}") is not None or unit and not _unit_of(low) and _is_unit(unit):
            low = f"{low} {unit}"
        self._add(start, column, "ge", low)
        self._add(low_end + 1, column, "le", high)
        return high_end

    def _condition_follows(self, k: int) -> bool:
        while self.at(k) is not None and self.tokens[k].is_(g.DETERMINERS):
            k += 1
        for j in range(k, min(k + 5, len(self.tokens))):
            if self.operator_at(j):
                return j > k
            if self.tokens[j].kind != "word":
                return False
        return False

    def _add(self, at: int, column: str | None, op: str, value: str) -> None:
        text = f"{column} {g.OP_WORDS[op]} {value}" if column else f"any value {g.OP_WORDS[op]} {value}"
        self.conditions.append((at, Condition(column=column, op=op, value=value, text=text)))  # type: ignore[arg-type]

    def _relative(self, i: int) -> None:
        """``that mentions Falkner`` (anywhere in the row), or a clause only meaning can judge."""
        tok = self.tokens[i]
        start = i if tok.low in ("mentioning", "containing") else i + 1
        op = self.operator_at(start)
        if op and op[0] == "contains":
            end = self._value("contains", "", op[1], start)
            for k, (at, condition) in enumerate(self.conditions):
                if at == op[1] and condition.column == "":
                    self.conditions[k] = (at, condition.model_copy(update={"column": None, "text": f"the row mentions {condition.value}"}))
            self.use(i, end)
            return
        if tok.low in ("mentioning", "containing"):
            return
        if tok.low in _WHICH and (i == 0 or self.tokens[i - 1].text in _SENTENCE_END):
            start = self._asked_rows_end(i + 1)  # "Which leases …": the rows asked about, then what they must do
            nxt = self.at(start)
            if nxt is None or nxt.is_(g.HAS_WORDS) or nxt.kind == "punct":
                return
        if self.operator_at(start) or self._chain(start) is not None:
            return
        end = self._clause_end(start)
        if end > start:
            self.row_terms.append(_text(self.tokens[start:end]))
            self.use(i, end)

    def _asked_rows_end(self, k: int) -> int:
        """After "which": the noun of the rows asked about ("insurance policies"), up to its plural."""
        start = k
        while k < len(self.tokens) and k - start < 3 and self.tokens[k].is_content and not self.tokens[k].is_(g.HAS_WORDS):
            k += 1
            if self.tokens[k - 1].low.endswith("s"):
                break
        while k < len(self.tokens) and (self.tokens[k].used or self.tokens[k].is_(g.ENDS_LIST) and self.at(k + 1) is not None and self.tokens[k + 1].used):
            k += 1
        return k

    def _with_condition(self, i: int) -> None:
        """``with a quantity of more than 100``, ``with more than 8 hours``, ``with priority P1``."""
        start = i + 1
        op = self.operator_at(start)
        if op and op[0] in ("lt", "le", "gt", "ge"):
            value_end = self._amount_end(op[1])
            name_end = self._name_end(value_end)
            last = self.tokens[value_end - 1]
            if name_end == value_end and value_end - op[1] >= 2 and not last.has_digit:
                value_end -= 1  # "with more than 8 hours": the unit names the column
            if name_end > value_end:
                column = _capitalise(_text(self.tokens[value_end:name_end]))
                self._add(op[1], column, op[0], _text(self.tokens[op[1] : value_end]))
                self.use(i, name_end)
                return
        end = self._chain(start)
        if end is not None:
            self.use(i, end)
            return
        end = self._list_end(start)
        before_colon = self.at(end) is not None and self.tokens[end].text == ":" and end - start >= 2
        # "mit dem Spediteur PostNL Cargo": a column named with its article, then a name
        with_article = end - start >= 3 and self.tokens[start].is_(g.DETERMINERS) and self.tokens[end - 1].capital
        if end > start and len(self._items(start, end)) == 1 and (self._trailing_value(start, end) or before_colon or with_article):
            self._equality(start, end)
            self.use(i, end)

    def _equality(self, start: int, end: int) -> None:
        """A name then its value: "priority P1", "product family Sensors", "Warengruppe Kabel"."""
        toks = _strip_determiners(self.tokens[start:end])
        split = self._known_prefix(toks)
        if split is None:
            lower = [k for k, t in enumerate(toks) if not t.capital and not t.has_digit and t.kind == "word"]
            split = (lower[-1] + 1) if lower else 1
            if split >= len(toks):
                split = len(toks) - 1
        column, value = _text(toks[:split]), _text(toks[split:])
        self._add(start, _capitalise(column), "equals", value.strip("'\"‘’“”"))

    def _known_prefix(self, toks: list[Tok]) -> int | None:
        for split in range(len(toks) - 1, 0, -1):
            if normalise(_text(toks[:split])) in self.vocabulary:
                return split
        return None

    def _implicit_equalities(self) -> None:
        """``for priority 1``, ``of product family Sensors``, ``der Abteilung Quality``, and — where
        the scope's documents have such a column — ``in the Sales department``."""
        for i, tok in enumerate(self.tokens):
            if tok.used or tok.kind != "word":
                continue
            if tok.low in ("for", "für", "pour", "of", "der", "des", "du"):
                nxt = self.at(i + 1)
                if nxt is None or nxt.is_(g.QUANTIFIERS) or nxt.used:
                    continue
                end = self._value_phrase_end(i + 1)
                if end - (i + 1) > MAX_VALUE_PHRASE:
                    continue  # running text, not a name and its value
                # "der Abteilung Quality" closing the request: German capitalises the column too
                closing = tok.low in ("der", "des") and end - (i + 1) == 2 and (end >= len(self.tokens) or self.tokens[end].text in _SENTENCE_END)
                compared = any(self.operator_at(k) for k in range(i + 1, end))  # "of swimmers born before 1930"
                if end - (i + 1) >= 2 and not compared and (self._trailing_value(i + 1, end) or closing) and not any(
                    t.possessive for t in self.tokens[i + 1 : end]
                ):
                    if tok.low == "of" and not any(not t.capital for t in self.tokens[i + 1 : end - 1]):
                        continue  # "of Acme Ltd": a name, not a column and its value
                    self._equality(i + 1, end)
                    self.use(i, end)
            elif tok.low in ("in", "im") and self.vocabulary:
                self._named_in(i)

    def _named_in(self, i: int) -> None:
        """``in the Sales department``: a value, then a column the scope's documents have."""
        k = i + 1
        while self.at(k) is not None and self.tokens[k].is_(g.DETERMINERS):
            k += 1
        end = self._value_phrase_end(k)
        toks = self.tokens[k:end]
        if 2 <= len(toks) <= MAX_VALUE_PHRASE and normalise(toks[-1].bare) in self.vocabulary and toks[0].capital:
            self._add(k, _capitalise(toks[-1].bare), "equals", _text(toks[:-1]))
            self.use(i, end)

    def _value_phrase_end(self, start: int) -> int:
        """Where the phrase from ``start`` ends; the scan stops one past ``MAX_VALUE_PHRASE``
        tokens (a longer phrase is no name and value), so reading stays linear in the message."""
        k = start
        stop = min(len(self.tokens), start + MAX_VALUE_PHRASE + 1)
        while k < stop and not self.is_boundary(k) and not self.tokens[k].is_(g.CONJUNCTIONS):
            if self.tokens[k].kind == "quoted":
                return k + 1
            k += 1
        return k

    def _leading_condition(self) -> None:
        """``Liability caps below one million in …``: a condition opening the request names its column."""
        first = next((k for k, t in enumerate(self.tokens) if not t.used and t.kind == "word"), None)
        if first is None or first != 0 and not all(t.used for t in self.tokens[:first]):
            return
        if self.tokens[first].low in _WHICH or self.tokens[first].is_(g.QUANTIFIERS):
            return
        end = self._chain(first)
        if end is not None:
            self.use(first, end)
            if not self.columns:
                column = next((c.column for _, c in self.conditions if c.column), None)
                if column:
                    self.columns.append((first, column))

    def _comparisons(self) -> None:
        """``… and amount at least 100``: a comparison after a name, wherever it stands; the name stays a column."""
        for k, tok in enumerate(self.tokens):
            op = self.operator_at(k) if not tok.used else None
            if op is None or op[0] in ("equals", "contains"):
                continue
            start = k
            while start > 0 and self.tokens[start - 1].kind == "word" and not self.tokens[start - 1].used and not (
                self.tokens[start - 1].is_(g.CONJUNCTIONS) or self.is_boundary(start - 1)
            ):
                start -= 1
            if start == k:
                continue
            column = _capitalise(_text(_strip_determiners(self.tokens[start:k])))
            end = self._value(op[0], column, op[1], k)
            self.use(k, end)

    def _clause_end(self, start: int) -> int:
        k = start
        while k < len(self.tokens):
            tok = self.tokens[k]
            if tok.kind in ("punct", "place") or tok.used or tok.is_(g.LIST_KEYWORDS) and k > start and self._is_list(k + 1, self._list_end(k + 1)):
                break
            if tok.is_(g.ENDS_LIST) and k > start and self._names_documents(k + 1):
                break
            k += 1
        return k

    def _names_documents(self, k: int) -> bool:
        tok = self.at(k)
        return tok is not None and (tok.kind == "place" or tok.capital or tok.possessive or tok.is_(g.DETERMINERS) or tok.is_(g.QUANTIFIERS))

    def _unreadable(self, start: int, end: int) -> None:
        words = _text(self.tokens[start:end])
        if words:
            self._note_unreadable(words)
            self.conditions.append((start, Condition(column=None, op="judgement", value=words, text=words)))

    def _note_unreadable(self, words: str) -> None:
        self.notes.append(
            f"The offline engine cannot read the condition '{words}'; it keeps every row that meets the other "
            f"conditions and marks none of them as meeting it. {JUDGEMENT_HINT}"
        )

    # -- 5. owners ---------------------------------------------------------------------------

    def take_owners(self) -> None:
        i = 0
        while i < len(self.tokens):
            tok = self.tokens[i]
            if tok.used or not tok.capital or not tok.is_content or tok.low in _WHICH or tok.is_(g.LIST_KEYWORDS):
                i += 1
                continue
            end = self._name_run(i)
            run = self.tokens[i:end]
            before = self.at(i - 1)
            after = self.at(end)
            possessive = run[-1].possessive
            after_owner_word = before is not None and not before.used and (
                before.is_(g.OWNER_PREPOSITIONS) or before.is_(g.LIST_KEYWORDS) and self._names_a_party(i, end)
            )
            of_documents = before is not None and before.low == "of" and self._documents_after(end)
            before_document = (
                before is not None
                and (before.is_(g.QUANTIFIERS) or before.is_(g.DETERMINERS) and i > 1)
                and after is not None
                and after.is_word
                and not after.capital
                and not after.used
                and after.low not in g.ENDS_LIST
                and not after.is_(g.LIST_KEYWORDS)
            )
            sentence_start = i == 0 or (before is not None and (before.text in _SENTENCE_END or before.used and before.kind != "place"))
            alternative = (
                before is not None and before.low in ("and", "or", "und", "oder", "et", "ou")
                and self.owners and self.owners[-1][0] + len(self.owners[-1][1].split()) == i - 1
            )
            if possessive or after_owner_word or of_documents or alternative or (before_document and not (sentence_start and i == 0)):
                name = " ".join(t.bare for t in run)
                if name.casefold() not in {c.casefold() for _, c in self.columns}:
                    self.owners.append((i, name))
                    self.use(i, end)
                    if before is not None and before.is_(g.OWNER_PREPOSITIONS):
                        before.used = True
            i = end

    def _documents_after(self, end: int) -> bool:
        """After "of Acme": a document noun follows ("of Acme invoices"), or "and"/"or" and another name."""
        after = self.at(end)
        if after is None:
            return False
        if after.low in ("and", "or", "oder", "und", "ou") and (nxt := self.at(end + 1)) is not None and nxt.capital:
            return self._documents_after(self._name_run(end + 1))
        return after.is_content and not after.capital

    def _merge_alternatives(self) -> None:
        """``Nordwerk or Brightline`` (also "and" between two owners): one owner term with alternatives."""
        merged: list[tuple[int, str, int]] = []
        for at, name in sorted(self.owners):
            end = at + len(name.split())
            if merged:
                last_at, last_name, last_end = merged[-1]
                between = [t.low for t in self.tokens[last_end:at]]
                if between in (["and"], ["or"], ["und"], ["oder"], ["et"], ["ou"]):
                    self.tokens[last_end].used = True
                    merged[-1] = (last_at, f"{last_name} or {name}", end)
                    continue
            merged.append((at, name, end))
        self.owners = [(at, name) for at, name, _ in merged]

    def _name_run(self, i: int) -> int:
        """A name: capitalised words, with ``&`` and particles (van, der, de) between them."""
        end = i + 1
        while end < len(self.tokens):
            tok = self.tokens[end]
            if self.tokens[end - 1].possessive or tok.used:
                break
            if tok.capital and tok.is_content:
                end += 1
                continue
            nxt = self.at(end + 1)
            if tok.text in ("&", "van", "der", "de", "von", "du", "la", "y", "und") and nxt is not None and nxt.capital and not nxt.used:
                if tok.text in ("der", "de", "du", "von") and not self.tokens[i].text.lower() in ("van", "von"):
                    # "Van der Linde" keeps its particles; "Rechnungen von Acme" does not
                    if not (end - 1 >= i and self.tokens[end - 1].text in ("Van", "van", "De", "de")):
                        break
                end += 2
                continue
            break
        return end

    # -- 6. what only meaning can judge ------------------------------------------------------

    def take_row_terms(self) -> None:
        """``every hardware position on Acme's invoices``: words before the documents select rows."""
        i = 0
        while i < len(self.tokens):
            tok = self.tokens[i]
            opens = i == 0 or self.tokens[i - 1].text in _SENTENCE_END
            if tok.used or not (tok.is_(g.QUANTIFIERS) or opens and tok.is_content):
                i += 1
                continue
            k = i + 1 if tok.is_(g.QUANTIFIERS) else i
            noun: list[Tok] = []
            while k < len(self.tokens) and self.tokens[k].kind == "word" and not self.tokens[k].used and not self.tokens[k].is_(g.ENDS_LIST):
                noun.append(self.tokens[k])
                k += 1
            prep = self.at(k)
            names_documents = prep is not None and prep.is_(g.ENDS_LIST) and any(
                t.is_content for t in self.tokens[k + 1 : self._clause_end(k + 1) + 1]
            ) or (prep is not None and prep.is_(g.ENDS_LIST) and self._owned_documents(k + 1))
            if names_documents:
                selecting = [t for t in noun if not t.is_(g.ROW_NOUNS)]
                if selecting:
                    words = [t.bare if t.bare.isupper() or t is not self.tokens[0] else t.bare[:1].lower() + t.bare[1:] for t in selecting]
                    self.row_terms.append(" ".join(words))
                    for t in selecting:
                        t.used = True
            parenthesis = self.at(k)
            if parenthesis is not None and parenthesis.text == "(":
                close = next((m for m in range(k, len(self.tokens)) if self.tokens[m].text == ")"), None)
                if close is not None:
                    self.row_terms.append(_text(self.tokens[k + 1 : close]))
                    self.use(k, close + 1)
            i = max(k, i + 1)
        if self.row_terms:
            named = " and ".join(f"'{t}'" for t in self.row_terms)
            self.notes.append(
                f"The offline engine cannot judge {named}; it keeps every row that meets the literal conditions "
                f"and marks each one unsure. {JUDGEMENT_HINT}"
            )

    def _owned_documents(self, k: int) -> bool:
        """After "on": the documents of an owner already read ("Nordwerk's 2025 invoices")."""
        return any(t.used and t.kind == "word" and t.possessive for t in self.tokens[k : k + 4])

    # -- the reading -------------------------------------------------------------------------

    def reading(self) -> Reading:
        columns = _unique([c for _, c in (self.columns if self.group_first else sorted(self.columns))])
        conditions = [c for _, c in sorted(self.conditions, key=lambda pair: pair[0])]
        columns_from = "request"
        if not columns:
            columns = _columns_from_tables(self.scope.table_headers, conditions)
            columns_from = "tables" if columns else "none"
            if not columns:
                self.notes.append(
                    "No column was named and the scope shows no table header to use; name the values you want, "
                    "e.g. 'with description and amount'."
                )
        conditions = [_with_requested_name(c, columns) for c in conditions]
        places = [t.place for t in self.tokens if t.place is not None]
        return Reading(
            request=self.message,
            kind="table",
            columns=columns,
            columns_from=columns_from,  # type: ignore[arg-type]
            row_condition=" and ".join(c.text for c in conditions) or None,
            conditions=conditions,
            row_terms=self.row_terms,
            document_conditions=_unique([o for _, o in sorted(self.owners)]),
            places=list({(p.kind, p.value): p for p in places}.values()),
            calculations=self.calculations,
            notes=self.notes,
        )


class _FolderNames:
    """The scope's folders, found by the words a user writes for them ("price list" -> pricelists)."""

    def __init__(self, folders: list[str]) -> None:
        self.by_name: list[tuple[str, list[str], str]] = []
        for folder in folders:
            parts = [p for p in folder.strip("/").split("/") if p and not p.isdigit()]
            if parts:
                words = [w for w in re.split(r"[-_\s.]+", parts[-1].lower()) if w]
                self.by_name.append((_stem("".join(words)), sorted(_stem(w) for w in words), folder))

    def named(self, words: list[str]) -> str | None:
        joined = _stem("".join(w.lower() for w in words))
        stems = sorted(_stem(w) for w in words)
        found = [f for name, parts, f in self.by_name if name == joined or (len(words) > 1 and parts == stems)]
        return min(found, key=lambda f: (f.count("/"), len(f))) if found else None


def _stem(word: str) -> str:
    """A crude stem for folder names: plurals, ``-ed`` and a final ``e`` dropped."""
    word = word.lower()
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        word = word[:-1]
    if word.endswith("ed") and len(word) > 4:
        word = word[:-2]
    elif word.endswith("e") and len(word) > 4:
        word = word[:-1]
    return word


_UNIT = re.compile(r"^(?:[a-zA-Z]{1,3}\.?|[€$£¥₩%]|eur|usd|gbp|chf|kg|km|hours?|hrs?|days?|stk\.?|pcs)$", re.IGNORECASE)


def _is_unit(word: str) -> bool:
    return bool(_UNIT.match(word)) and word.casefold() not in g.CONJUNCTIONS | g.ENDS_LIST | g.DETERMINERS | {"or"}


def _unit_of(value: str) -> str:
    words = value.split()
    return words[-1] if len(words) > 1 and not any(ch.isdigit() for ch in words[-1]) else ""


def _is_date(value: str) -> bool:
    return bool(re.fullmatch(r"\d{1,2}[./-]\d{1,2}[./-]\d{2,4}|\d{4}-\d{2}-\d{2}", value.strip()))


def _unique(values: list[str]) -> list[str]:
    kept: dict[str, str] = {}
    for value in values:
        kept.setdefault(value.casefold(), value)
    return list(kept.values())


def _columns_from_tables(headers: list[list[str]], conditions: list[Condition]) -> list[str]:
    """The most common table header in scope that holds every condition's column."""
    usable = [[c.strip() for c in h if c.strip()] for h in headers]
    usable = [h for h in usable if len(h) >= 2 and not all(parse_number(c) is not None for c in h)]
    columns = [c.column for c in conditions if c.column]
    for header in usable:
        if all(match_column(column, header) is not None for column in columns):
            return header
    return []


def _with_requested_name(condition: Condition, columns: list[str]) -> Condition:
    """A condition on a requested column uses the column's name as requested ("Date" -> "Order date")."""
    if not condition.column:
        return condition
    index = match_column(condition.column, columns)
    if index is None or columns[index] == condition.column:
        return condition
    name = columns[index]
    return condition.model_copy(update={"column": name, "text": f"{name} {g.OP_WORDS[condition.op]} {condition.value}"})


def written_places(message: str, scope: ScopeHint) -> list[Place]:
    """The places a message writes out — paths, files, globs, "the X folder", years — read without a model."""
    reader = _Reader(message=" ".join(message.split()).rstrip(" .?!"), scope=scope)
    reader.tokens = tokenize(reader.message)
    reader.take_places()
    return list({(t.place.kind, t.place.value): t.place for t in reader.tokens if t.place is not None}.values())


def read_message(message: str, scope: ScopeHint) -> Reading:
    """How the offline engine understands one message (see the module docstring)."""
    text = " ".join(message.split())
    kind = kind_of(text)
    if kind != "table":
        return Reading(request=message, kind=kind, columns_from="none")
    opener = g.OPENERS.match(text)
    body = text[opener.end() :] if opener and not g.ASKS.match(text) else text
    reader = _Reader(message=body.rstrip(" .?!"), scope=scope)
    reader.tokens = tokenize(reader.message)
    reader.take_places()
    reader.take_calculation()
    reader.take_conditions()
    reader.take_columns()
    reader.take_row_key()
    reader.take_owners()
    reader._merge_alternatives()
    reader.take_folder_names()
    reader.take_row_terms()
    reading = reader.reading()
    return with_accounting(years_as_dates(reading.model_copy(update={"request": message}), scope), scope)
