"""The words of a request: each word, punctuation mark, quoted phrase or place as one token.

Also the small helpers every pass of the reader writes tokens back to text with, and the
bounds on how far a pass looks for a name and its value.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from core.reading import Place
from tools.engines.months import month_of
from tools.engines.numbers import WRITTEN_DATE
from tools.engines.offline import grammar as g

MAX_TERM_TOKENS = 10  # a header or label of the scope found whole in a message: "Total Costs All Funds"
MAX_VALUE_PHRASE = 12  # words of "for priority 1", "in the Sales department": a name and its value

_TOKEN = re.compile(
    r"""(?<![\w'’])['"‘“„‚](?P<quoted>[^'"‘’“”„‚]+)['"’”“‘](?![\w])"""  # „Memorandum“ as German quotes it
    r"""|[«‹]\s*(?P<angled>[^«»‹›]+?)\s*[»›]"""  # « Extended Inventory Review »
    r"""|(?P<word>[^\s]+)"""
)
_TRAILING = re.compile(r"^(?P<body>.*?)(?P<punct>[,;:?!)]+)$")
_CLOSED = re.compile(r"^(?P<body>[^()]*[^().])(?P<punct>\)+)\.$")  # "millions)." closing a sentence
SENTENCE_END = frozenset(".?!¿¡")  # a sentence ends before "¿" opens a Spanish question
SEPARATORS = frozenset(",;:.?!")
WHICH = frozenset({"which", "welche", "welcher", "quels", "quelles", "quel", "quelle", "które", "który", "która", "których"})


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
        if self.text in g.SPELLED:
            return self.kind == "word" and vocabulary is g.SPELLED[self.text]
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
        quoted = match.group("quoted") if match.group("quoted") is not None else match.group("angled")
        if quoted is not None:
            tokens.append(Tok(quoted.strip(), "quoted"))
            continue
        word = match.group("word")
        lead = ""
        while word[:1] in "([¿¡" and len(word) > 1:  # a bracket, or the mark opening a Spanish question
            lead, word = lead + word[0], word[1:]
        if lead:
            tokens.append(Tok(lead, "punct"))
        tail = ""
        closed = _CLOSED.match(word)
        if closed and (not text[match.end():].strip() or re.match(r"\s+[A-ZÄÖÜ\"'“‘]", text[match.end():])):
            # "… (CHF millions). Exclude …": a bracket closed, then the sentence
            tokens.extend([Tok(closed.group("body")), *(Tok(ch, "punct") for ch in closed.group("punct")), Tok(".", "punct")])
            continue
        trailing = _TRAILING.match(word)
        if trailing and trailing.group("body"):
            word, tail = trailing.group("body"), trailing.group("punct")
        elif trailing:
            tokens.extend(Tok(ch, "punct") for ch in word)  # "),": a bracket closed, then a comma
            continue
        end = match.end()
        rest = text[end:]
        if word == ".":
            tokens.append(Tok(".", "punct"))  # a period set apart ("… coordinates . the site number")
        elif word.endswith(".") and _closes_sentence(word, rest, numbered=bool(tokens) and tokens[-1].text.casefold() in g.NUMBER_SIGNS):
            tokens.append(Tok(word[:-1]))
            tokens.append(Tok(".", "punct"))
        else:
            tokens.append(Tok(word))
        for ch in tail:
            tokens.append(Tok(ch, "punct"))
    tokens = _dates_joined(tokens)
    cursor = 0
    for tok in tokens:
        found = text.find(tok.text, cursor)
        if found >= 0:
            tok.start, cursor = found, found + len(tok.text)
        else:
            tok.start = cursor
    return [t for t in tokens if t.text]


def _dates_joined(tokens: list[Tok]) -> list[Tok]:
    """A date written with its month's name read as one word: "Jan 26, 2025" (a list of such dates
    is no list of months, days and years), "7. Mai 2014", "26 de enero de 2025"."""
    joined: list[Tok] = []
    k = 0
    while k < len(tokens):
        for width in (6, 5, 4, 3):
            window = tokens[k : k + width]
            if len(window) == width and all(t.kind in ("word", "punct") for t in window) \
                    and window[0].kind == "word" and window[-1].kind == "word" \
                    and WRITTEN_DATE.fullmatch(" ".join(t.text for t in window).replace(" ,", ",")):
                joined.append(Tok(" ".join(t.text for t in window).replace(" ,", ",")))
                k += width
                break
        else:
            joined.append(tokens[k])
            k += 1
    return joined




def _closes_sentence(word: str, rest: str, numbered: bool = False) -> bool:
    """Whether a word's final period ends a sentence (not "Stk.", "Pos.", "B.V.", "no."); ``numbered``:
    the word follows a number sign ("invoice no. 2023."), so it is no year."""
    body = word[:-1]
    if body and not body[-1].isalnum() and not any(ch.isalpha() for ch in body):
        # "… and college %. Include …": a sign, or a number with its sign, is no abbreviation
        # ("Stk.", "no.") and no date ("1. Januar", "2.5. Mai")
        return not rest.strip() or bool(re.match(r"\s+[A-ZÄÖÜ\"'“‘]", rest))
    if any(ch.isdigit() for ch in body) and any(ch.isalpha() for ch in body) and re.match(r"\s+[A-ZÄÖÜ]", rest):
        return True  # "… a Max Term of 5Y. I need …": a value with its unit is no abbreviation
    if _FIGURE.fullmatch(body) and (after := re.match(r"\s+([A-ZÄÖÜ]\w*)", rest)) is not None and month_of(after.group(1)) is None:
        return True  # "… higher than 1.5. Leave out …": a figure ends the sentence ("2.5. Mai" is a date, "3. Quartal" an ordinal)
    if body.isdigit() and not numbered and re.match(r"\s+[A-ZÄÖÜ]\w*\s?:", rest):
        return True  # "… über 60. Spalten: …": a number before a label opening a list ends the sentence
    if re.fullmatch(r"(?:19|20)\d\d", body) and not numbered and re.match(r"\s+[A-ZÄÖÜ\"'“‘]", rest):
        return True  # "… for January-June 2023. Exclude …": a year is no ordinal ("3. Quartal")
    # "… exactamente 10 kg/año. Indícame …": a unit per a unit ends it too, as a hyphenated word
    # does ("… ohne die Average-Zeile. Spalten: …")
    words = body.split("/")
    # (a hyphenated word's last part is a word, not a shortening: "Müller-Lüd." abbreviates)
    if "." in body or len(body) <= 3 or not all(w.replace("-", "").isalpha() for w in words) or len(words) > 2 \
            or "-" in body and len(body.rpartition("-")[2]) < 4:
        return not rest.strip() and not ("." in body or len(body) <= 3)
    following = rest.lstrip()[:1]
    return not following or rest[:1].isspace() and (following.isupper() or following in "0123456789\"'“‘")


def text_of(tokens: list[Tok]) -> str:
    """The words as written: a bracket holds its words without spaces ("Surname (Apellido)")."""
    return _BRACKETED.sub(r"(\1)", " ".join(t.text for t in tokens))


_BRACKETED = re.compile(r"\( ([^()]*?) \)")
_FIGURE = re.compile(r"\d[\d.,]*[.,]\d+")  # a figure with a decimal or thousands mark ("1.5", "1,500.00")


def capitalise(words: str) -> str:
    words = words.strip()
    return words[:1].upper() + words[1:]


def strip_determiners(tokens: list[Tok]) -> list[Tok]:
    while tokens and tokens[0].is_(g.DETERMINERS):
        tokens = tokens[1:]
    return tokens
