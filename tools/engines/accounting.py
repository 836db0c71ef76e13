"""Every word of a request accounted for: what a reading used, and the words that became nothing.

Whichever engine read the request, each of its words is a column, a condition, a place, an
owner, a calculation or a row term of the reading (its words stand in one of them), a word of
grammar or courtesy ("every", "of", "please"), or the kind of documents the request is about
("… on the 2025 invoices", "… in the Q2 2025 expense report": the phrase a preposition or a
quantifier opens, up to its end). A word that is none of these became nothing: the reading
names it, and every row is unsure until the user says how to read it — "every hardware item"
read without "hardware" would otherwise give copy paper and installation hours as `yes`.
"""

from __future__ import annotations

import re

from core.reading import Reading, ScopeHint
from tools.engines.offline import grammar as g
from tools.engines.offline.tokens import WHICH
from tools.engines.relative import dated, said_as
from tools.parsing.text import CAPTION

# Words of grammar and courtesy that carry no part of a table request, beside the grammar's own
# lists (quantifiers, prepositions, determiners, conjunctions, list keywords).
_PLAIN = frozenset(
    """
    a an the this that these those my our your me us i we you it its is are be was were been please
    could would can will shall should may might do does did kindly thanks thank need want like get into turn convert
    give show list find extract prepare make table tables csv spreadsheet read pull collect return
    what which who how much many there here also only just both either or each per as to
    bitte mir uns alle ich wir sie es ist sind gib zeige liste tabelle erstelle welche was wie oder
    s'il vous plaît merci moi nous donne donnez liste tableau quels quelles ou qu'est-ce que quoi zeig
    donne-moi donnez-moi montre-moi montrez-moi dis-moi j'ai besoin faut voudrais aimerais
    brauche hätte gerne möchte quisiera gustaría denen deren dessen liegt liegen beträgt betragen
    qué que cuál cuáles quién cómo cuánto cuántos necesito quiero dame dime muestra muéstrame lista tabla
    gracias nos es son hay está están se o out worth
    kto co jaki jaka jakie jakich ile czy
    """.split()
)
_TOKEN = re.compile(r"[^\W_][\w'’.&/-]*[\w]|[^\W_]|[,:;?!()]", re.UNICODE)
_PUNCT = frozenset(",:;?!()")


def fold(word: str) -> str:
    """A word compared without case, possessive, final dot or simple plural."""
    word = re.sub(r"['’]s?$", "", word.casefold()).strip(".")
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(text or "")


def _read_words(reading: Reading) -> set[str]:
    """The folded words every part of the reading holds (paths split at their separators)."""
    parts = [
        *reading.columns, reading.row_condition or "", *reading.row_terms, *reading.document_conditions,
        *reading.calculations, *(f"{c.column or ''} {c.value} {c.text}" for c in reading.conditions),
        *(p.value for p in reading.places), *(re.sub(r"[/_*?.-]+", " ", p.value) for p in reading.places),
    ]
    read = {fold(w) for part in parts for w in _tokens(part) if w not in _PUNCT}
    # "2005-2009", read from "2005 through 2009": each year of a span the documents must name
    spans = [m.groups() for term in reading.document_conditions if (m := re.fullmatch(r"(\d{4})-(\d{4})", term))]
    return read | {fold(year) for span in spans for year in span}


def _scope_words(scope: ScopeHint) -> set[str]:
    """The words of the scope's folder and collection names: they name kinds of documents."""
    names = [f.folder for f in scope.folders] + list(scope.collections)
    return {fold(w) for name in names for w in re.split(r"[/_\s.-]+", name) if w and not w.isdigit()}


# the words of comparisons ("more than", "at least", "between … and …", "dated after")
_OPERATOR_WORDS = frozenset(w for _, phrase in g.OPERATOR_PHRASES for w in phrase) | {"between", "dated"} | frozenset(g.SIGNS)


def is_grammar(word: str) -> bool:
    low = re.sub(r"['’]s$", "", word.casefold().strip("."))  # "who's"
    if low in _OPERATOR_WORDS:
        return True
    lists = (g.QUANTIFIERS, g.DETERMINERS, g.ENDS_LIST, g.JOINS_NAME, g.CONJUNCTIONS, g.LIST_KEYWORDS,
             g.CONDITION_KEYWORDS, g.RELATIVE, g.HAS_WORDS, g.COLUMN_LABELS, g.ROW_LABELS, g.FOLDER_WORDS,
             g.YEAR_WORDS, g.ROW_NOUNS, g.GROUP_WORDS, g.ABOUT_WORDS, g.MONTH_PREPOSITIONS, g.ASKING, g.PRONOUNS, g.INCLUSIONS,
             g.NEEDS, g.COURTESY, g.WHO, g.SPAN_WORDS, g.ORDER_FIRST, g.ORDER_LAST, g.POSSESSIVES, g.EACH_WORDS, g.FOLLOWING)
    return low in _PLAIN or any(low in group for group in lists) or g.row_compound(low)


def _boundary(token: str) -> bool:
    """Where a phrase ends: punctuation, a preposition, a list or condition keyword, a verb of having."""
    low = token.casefold()
    if low in g.DETERMINERS:
        return False  # German "die" is an article before it is a relative pronoun
    groups = (g.ENDS_LIST, g.LIST_KEYWORDS, g.CONDITION_KEYWORDS, g.RELATIVE, g.HAS_WORDS)
    return token in _PUNCT or low == "dated" or any(low in group for group in groups)


def unused_words(reading: Reading, scope: ScopeHint) -> list[str]:
    """The words of the request that no part of the reading holds and that name neither grammar
    nor the kind of documents asked about, in the order the request writes them."""
    return account(reading, scope)[0]


def account(reading: Reading, scope: ScopeHint) -> tuple[list[str], list[str]]:
    """(the words that became nothing, the words naming the kind of documents that no folder or
    collection of the scope holds: "facture" in "Pour chaque facture de Roussel"). A kind the
    scope does not hold is checked in each document (``document_kinds``)."""
    if reading.kind != "table":
        return [], []
    text = dated(reading.request, scope.today)[0]  # "last quarter" as the period it was read as: "in Q2 2025"
    tokens = _tokens(text)
    read = _read_words(reading)
    kinds = _scope_words(scope)
    columns = {fold(words[-1]) for column in reading.columns if (words := _tokens(column))}  # the words ending a column
    owners = [i for i, t in enumerate(tokens) for name in reading.document_conditions if fold(t) == fold(name.split()[0])]
    relations = _relation_words(tokens, reading.document_conditions)
    # "what did we buy from …": the verb of the asker and its auxiliary says what was done, not which
    asked = {j for k in range(len(tokens)) if (verb := g.asker_verb(tokens, k)) is not None for j in range(k, verb + 1)}
    # "Table 6": the table its caption numbers, which the engines pick by it
    asked |= {j for k in range(len(tokens) - 1) if CAPTION.fullmatch(f"{tokens[k]} {tokens[k + 1]}") for j in (k, k + 1)}
    globs = {p.value for p in reading.places if p.kind == "glob"}
    asked |= _openers(text)
    if any(column.casefold().startswith("time to ") for column in reading.columns):
        # "how fast do they have to respond": the question of the times to do what its verbs say
        asked |= {k + 1 for k in range(len(tokens) - 1) if tokens[k].casefold() == "how" and tokens[k + 1].casefold() in g.HOW_SOON}
    left: list[str] = []
    unplaced: list[str] = []
    for i, word in enumerate(tokens):
        if i > 0 and (tokens[i - 1].casefold(), word.casefold()) in g.COURTESY_PAIRS:
            continue  # "…, por favor"
        if word in _PUNCT or not any(ch.isalnum() for ch in word):
            continue  # punctuation and signs; a figure is a word ("above 5 000 kg" left unread is said)
        if (fold(word) in read or is_grammar(word)) and not _asking_noun(tokens, i, read | kinds):
            continue
        if "-" in word and all(fold(part) in read for part in word.split("-") if part):
            continue  # "priority-1": a column and its value, each read
        if i in relations or i in asked:
            continue
        if g.FILE_KINDS.get(word.casefold()) in globs or word.casefold() in g.FILE_NOUNS and i > 0 \
                and g.FILE_KINDS.get(tokens[i - 1].casefold()) in globs:
            continue  # "the Word document": the documents of that format
        if word.casefold() in g.DOCUMENT_NUMBER_NOUNS and i + 1 < len(tokens) and fold(tokens[i + 1]) in read:
            continue  # "factuurnummer 992288600": the label of the document's number, which is read
        if g.TOTAL_LINE.fullmatch(word) and i + 1 < len(tokens) and tokens[i + 1].casefold() in g.ROW_NOUNS:
            continue  # "including the total line": which rows, kept or left out as the total lines are
        if _numbers_read(tokens, i, read):
            continue  # "Rechnung Nr. 471102": the kind and the sign of a document's number, which is read
        if (word.casefold() in g.VALUE_NOUNS or word.casefold() in g.ENTRY_NOUNS) and i > 0 and fold(tokens[i - 1]) in read:
            continue  # "with its 2013 and 2017 values", "that loan figure": the values of the columns just named
        # a folder's word names the kind of documents ("invoices"), a name written as one
        # ("Halvorsen" of "Halvorsen Metals/") says which: that one is read or named
        named = word[:1].isupper() and i > 0 and tokens[i - 1] not in {".", "?", "!", ":"}
        if fold(word) in kinds and not (named or any(ch.isdigit() for ch in word)):
            continue
        head, dash, kind = word.partition("-")
        if dash and fold(head) in read and kind.isalpha():
            unplaced.append(kind)  # "der Nordwerk-Rechnung": the owner's documents, of the kind the noun says
            continue
        if _names_documents(tokens, i, columns):
            # a word naming the kind of documents that no folder of the scope holds is checked in
            # each document (one that does not call itself so gives rows marked unsure): the kind
            # of an owner's documents ("chaque facture de Roussel"), and every word qualifying the
            # kind ("the active supply agreements": a word that may pick the rows is never
            # silently kept). The kind alone without an owner ("of every swimmer") names the rows.
            # an identifier ("invoice HM-24-0311") says which document: it is checked in each
            # A bare preposition before it ("antes de junio", "fecha de finalización") opens no
            # name of documents: its word is checked too.
            # The head of a phrase an article or possessive opens after a preposition ("in our 2025
            # price list") names a kind of documents no folder holds: it is checked too; only after
            # a quantifier ("of every swimmer") does it name the rows.
            if not _is_head(tokens, i, read - kinds) or any(abs(p - i) <= OWNER_REACH for p in owners) \
                    or g.identifies_document(tokens[i - 1] if i else "", word) \
                    or fold(word) not in kinds and not _names_rows(tokens, i):
                unplaced.append(word)
            elif named and fold(word) not in kinds and tokens[i - 1].casefold() in g.AUXILIARIES:
                left.append(word)  # "How long does Nordwerk have to …": a question's subject no part of the reading holds
            continue
        if _asked_which(tokens, i):
            continue
        left.append(word)
    # a period written out for one said from today is said as the user wrote it ("last year's", not "2024")
    said = said_as(reading.request, scope.today)
    written = {w.casefold() for w in _tokens(reading.request)}  # a year the user wrote stays theirs
    left = [word if word.casefold() in written else said.get(word.casefold(), word) for word in left]
    return list(dict.fromkeys(left)), list(dict.fromkeys(unplaced))


def _openers(request: str) -> set[int]:
    """The indices (in ``_tokens(request)``) of the words a sentence opens with that greet, ask
    or thank ("Quick one:", "Hola,", "Many thanks!", "I'm preparing a note on …."): they carry no
    part of the table."""
    spans = []
    for start in [0, *(m.end() for m in re.finditer(r"[.?!]\s+", request)), *(m.end() for m in g.ASKED_AFTER_DASH.finditer(request))]:
        opener = g.OPENERS.match(request[start:])
        if opener is not None:
            spans.append((start, start + opener.end()))
    return {k for k, m in enumerate(_TOKEN.finditer(request or "")) if any(a <= m.start() < b for a, b in spans)}


def _numbers_read(tokens: list[str], i: int, read: set[str]) -> bool:
    """Whether ``tokens[i]`` is the sign of a number that is read ("Nr." of "Nr. 471102"), or the
    noun of a kind of documents right before it ("Rechnung" of "Rechnung Nr. 471102")."""
    word = tokens[i].casefold()
    after = tokens[i + 1 : i + 3]
    if word in g.NUMBER_SIGNS:
        return bool(after) and fold(after[0]) in read
    return word in g.DOCUMENT_NOUNS and len(after) == 2 and after[0].casefold() in g.NUMBER_SIGNS and fold(after[1]) in read


_WHICH_REACH = 3  # words of the noun a question's "which" opens: "which offense categories had …"


def _asked_which(tokens: list[str], i: int) -> bool:
    """Whether ``tokens[i]`` stands in the noun a clause's "which" opens ("In the donor list,
    which contributors have …"): it names the rows the question asks about, whose columns and
    conditions follow."""
    for k in range(i - 1, max(i - 1 - _WHICH_REACH, -1), -1):
        if tokens[k].casefold() in WHICH:
            return k == 0 or tokens[k - 1] in _PUNCT
        if tokens[k] in _PUNCT or is_grammar(tokens[k]):
            return False
    return False


OWNER_REACH = 3  # tokens between an owner's name and the noun that names its documents


def _phrase(tokens: list[str], i: int) -> tuple[int, int]:
    """The first and last index of the phrase ``tokens[i]`` stands in (``_boundary`` ends it)."""
    start, end = i, i
    while start > 0 and not _boundary(tokens[start - 1]):
        start -= 1
    while end + 1 < len(tokens) and not _boundary(tokens[end + 1]):
        end += 1
    return start, end


def _names_rows(tokens: list[str], i: int) -> bool:
    """Whether the head noun ``tokens[i]`` names the rows asked about rather than a kind of
    documents each document must call itself: the request opens with its phrase, a quantifier
    opens it ("of every swimmer"), or an article, possessive or figure opens it where no
    preposition stands before ("Which of the contracts …"). After a preposition and an article
    ("in our 2025 price list") and after a bare preposition ("antes de junio") it is checked."""
    start, _ = _phrase(tokens, i)
    opening = [t.casefold() for t in tokens[start:i]]
    if start == 0 or any(t in g.QUANTIFIERS for t in opening):
        return True
    determined = any(t in g.DETERMINERS or re.search(r"\w['’]s?$", t) or any(ch.isdigit() for ch in t) for t in opening)
    return determined and tokens[start - 1].casefold() not in g.ENDS_LIST


def _asking_noun(tokens: list[str], i: int, read: set[str]) -> bool:
    """Whether a word that asks ("list", "show") stands as a noun: after a noun ("our 2025 price
    list"), unless the two words are one name the reading holds ("price list" read as the folder
    pricelists/)."""
    if tokens[i].casefold() not in g.ASKING or i == 0 or tokens[i].casefold().endswith("en"):
        return False  # "… alle Rechnungspositionen auflisten": a German verb closes its clause
    before = tokens[i - 1]
    return before not in _PUNCT and not is_grammar(before) and fold(before + tokens[i]) not in read


def _is_head(tokens: list[str], i: int, read: set[str]) -> bool:
    """Whether ``tokens[i]`` is the last word of its phrase that is no grammar and that the
    reading did not use elsewhere (its head noun: "invoice" in "the Bürowelt office-supplies
    invoice cost more than 20 euros", where the reading compares what they cost). ``read`` holds
    no word of the scope's folder names: "contracts" in "Which active contracts have …" is the
    head though the reading took it for the folder, and "active" qualifies it."""
    _, end = _phrase(tokens, i)
    return all(
        is_grammar(t) or fold(t) in read or not any(ch.isalpha() for ch in t) for t in tokens[i + 1 : end + 1]
    )


_PARTY_LINKS = g.US | g.HAS_WORDS | {"a"}  # "nous a commandé"


def _relation_words(tokens: list[str], owners: list[str]) -> set[int]:
    """The verb that says what an owner did to the asker, right after the owner's name: "what
    Lindqvist Retail ordered from us", "each invoice Nordwerk sent us", "ce que Maison Bérard
    nous a commandé". It makes the owner's documents the ones meant: the owner holds it."""
    found: set[int] = set()
    folded_tokens = [fold(t) for t in tokens]
    for name in owners:
        words = [fold(w) for w in _tokens(name)]
        for start in range(len(tokens) - len(words) + 1):
            if folded_tokens[start : start + len(words)] != words:
                continue
            end = start + len(words)
            between = end
            while between < len(tokens) and tokens[between].casefold() in _PARTY_LINKS:
                between += 1
            if between >= len(tokens) or not tokens[between].isalpha():
                continue
            after = [t.casefold() for t in tokens[between + 1 : between + 3]]
            to_us = any(t.casefold() in g.US for t in tokens[end:between]) or after[:1] and after[0] in g.US or (
                len(after) == 2 and after[0] in g.ENDS_LIST and after[1] in g.US
            )
            if to_us:
                found.add(between)
    return found


def _names_documents(tokens: list[str], i: int, columns: set[str] = frozenset()) -> bool:  # type: ignore[assignment]
    """Whether ``tokens[i]`` belongs to a phrase naming the documents: the phrase a preposition
    opens ("on the 2025 invoices"), or the request's opening phrase ("Purchase orders in …"),
    where no row noun follows the word ("every hardware item on …": "hardware" picks the rows)
    and the word is no name of its own ("the Nordwerk invoices": Nordwerk is an owner).

    A phrase a preposition opens right after a column's name that goes on to another column
    ("votes in favor and votes against") is inside the list of columns: it says which values a
    column holds and names no documents, so a word of it the reading did not use is unused. A
    phrase that names no column after it ("price from 2025 purchase orders") still names the
    documents, and "every line of …" names the rows, not the column Line."""
    start, end = _phrase(tokens, i)
    before = tokens[start - 1].casefold() if start else ""
    if (
        start >= 2 and before in g.ENDS_LIST and fold(tokens[start - 2]) in columns
        and (start < 3 or tokens[start - 3].casefold() not in g.QUANTIFIERS)
        and any(fold(t) in columns for t in tokens[start : end + 1])
        and not any(t.casefold() in g.QUANTIFIERS for t in tokens[start : end + 1])
    ):
        return False
    if any(t.casefold() in g.US for t in tokens[start : end + 3]):
        return False  # "all licence charges Brightwave billed us": what a party did to the asker picks rows
    opened = start == 0 or before in g.ENDS_LIST or (start == 1 and before in g.RELATIVE)  # "Which leases have …"
    if not opened or any(t.casefold() in g.ROW_NOUNS for t in tokens[i + 1 : end + 1]):
        return False
    # the phrase's last word names the kind ("invoices", "SLA", "Rechnungen"); a word before it
    # that is a name ("Nordwerk") or holds a figure ("Q2") says which documents, and is no kind
    head = i == max(k for k in range(start, end + 1) if not is_grammar(tokens[k]))
    word = tokens[i]
    opens_sentence = i == 0 or tokens[i - 1] in {".", "?", "!", ":"}
    named = word[:1].isupper() and not opens_sentence
    alone = sum(1 for k in range(start, end + 1) if not is_grammar(tokens[k])) == 1
    if head and named and alone and start > 0 and before in g.ENDS_LIST and before not in g.DETERMINERS:
        # "in August", "in Paris": a name alone after a preposition says which rows, not a kind
        # (German capitalises its nouns: "der Rechnungen" names documents)
        return False
    return head or not (named or any(ch.isdigit() for ch in word))


NOTE_START = "I did not use: "


def accounting_note(unused: list[str]) -> str:
    """What the questions and the answer say of the words that became nothing."""
    quoted = ", ".join(f"'{w}'" for w in unused)
    return (
        f"{NOTE_START}{quoted}. Every row is marked unsure until you say how to read "
        f"{'it' if len(unused) == 1 else 'them'} (as a column, a condition or a place)."
    )


def with_accounting(reading: Reading, scope: ScopeHint) -> Reading:
    """The reading with the words it left unused, worked out afresh (a correction may have used
    them since) and named in its notes."""
    unused, kinds = account(reading, scope)
    notes = [n for n in reading.notes if not n.startswith(NOTE_START)]
    if unused:
        notes.append(accounting_note(unused))
    if (unused, kinds, notes) == (reading.unused, reading.document_kinds, reading.notes):
        return reading
    return reading.model_copy(update={"notes": notes, "unused": unused, "document_kinds": kinds})
