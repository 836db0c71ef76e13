"""The offline engine: reads explicit requests and extracts tables without a language model.

Deterministic and local. It understands what a request states literally and says so in a
note when a request needs judgement it cannot make ("hardware positions"), instead of
guessing:

- columns: ``with a, b and c``, ``Columns: a, b``, a list opening the request (``Supplier
  and liability cap of every contract``), quoted names; else the scope's most common table
  header that holds the condition columns;
- conditions: ``where/whose/with/having <column> is|contains|below|above|at least|at most
  <value>`` joined by "and", ``with priority P1``, ``<column> below <value>`` opening it;
- document conditions: capitalised names owning the documents (``Nordwerk's invoices``);
- places: years, file paths, globs, and folder names in words (``the price list``);
- calculations: sums, averages, counts, extremes and comparisons, named and never done.

Extraction maps the requested columns onto table headers (with synonyms across languages)
or, in prose, onto ``Key: value`` lines; conditions are checked literally.
"""

from __future__ import annotations

import asyncio
import math
import re
from collections.abc import Callable
from dataclasses import dataclass

from tools.engines.base import Estimate
from tools.engines.columns import is_known_column, map_columns, match_column
from tools.engines.numbers import compare, parse_number
from tools.engines.reading import Condition, DocumentText, Place, Reading, Record, ScopeHint, Table
from tools.parsing.text import clean, table_lines

JUDGEMENT_HINT = "Configure a language model (KEA_MODEL) to filter by meaning."


class OfflineEngine:
    """The embedded default engine: explicit requests only, no network, no model."""

    name = "offline"

    async def read_request(self, message: str, scope: ScopeHint) -> Reading:
        return read_message(message, scope)

    async def extract_document(self, document: DocumentText, reading: Reading) -> list[Record]:
        # plain CPU work: off the event loop, so progress and other documents keep moving
        return await asyncio.to_thread(extract_records, document, reading)

    def estimate(self, page_counts: list[int], parallel: int) -> Estimate:
        return Estimate(documents=len(page_counts), pages=sum(page_counts), model_calls=0, minutes=0.0)


# ============================================================================================
# Reading a request
#
# The message is read in passes; each pass masks what it understood, so later passes see
# only the rest: paths, conditions, column lists, quoted names, calculations, years,
# folders, owner names. Whatever content word is left describes rows by meaning.

_MASK = "\x00"


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_GREETING_CORE = _words(
    """
    hello hi hey hallo moin servus hiya howdy greetings thanks thank thx cheers morning
    afternoon evening danke bye goodbye tag 안녕하세요 안녕 감사합니다 고맙습니다
    """
)
_GREETING_FILL = _words(
    """
    you good guten morgen abend there kea again so much a lot very all dear team and schön
    vielen many
    """
)
_ABOUT = re.compile(
    r"(?:(?:hi|hello|hey|hallo)\s+)?(?:kea\s+)?"
    r"(?:what can you do|what do you do|who are you|what are you|what is kea|whats kea|what s kea"
    r"|how do(?:es)? (?:you|this|it|kea) work|how can you help(?: me)?|what can i ask(?: you)?"
    r"|help|help me|can you help(?: me)?|what are you able to do|what can kea do"
    r"|how do i use (?:you|this|kea)|wer bist du|was kannst du|hilfe)(?:\s+kea)?"
)

# Words that open a request without saying what it asks for.
_LEAD = re.compile(
    r"\s*(?:(?:(?:a |an )?(?:table|csv|list|overview) (?:of|with)|hi|hello|hey|hallo|good morning|please"
    r"|kindly|can you|could you"
    r"|would you|i need|i want|i'd like|i would like"
    r"|give me|show me|get me|find me|make me|tell me|list|show|give|get|find|extract|export|pull"
    r"|collect|return|fetch|display|create|make|build|prepare|what is|what's|what are)[\s,]+)+",
    re.IGNORECASE,
)

_EXTENSIONS = (
    "pdf|docx?|xlsx?|xlsm|csv|tsv|txt|md|markdown|pptx?|hwpx?|odt|ods|odp|rtf|html?|eml|msg|json|xml"
)
_PATH_TOKEN = re.compile(r"(?<!\S)[(\"'‘“]*(?P<path>\S+?)[)\"'’”.,;:!?]*(?!\S)")
_FILE_NAME = re.compile(rf".+\.(?:{_EXTENSIONS})", re.IGNORECASE)

_DETERMINERS = _words(
    """
    the all every each any my our their these those this that its his her both a an
    """
)
_QUANTIFIERS = frozenset({"every", "all", "each", "any"})
_PREPOSITIONS = frozenset({"from", "of", "in", "on", "for", "at", "within", "across", "by", "inside"})
_ROW_NOUNS = frozenset({"positions", "rows", "lines", "items", "entries", "records", "documents", "files"})
_DOCUMENT_NOUNS = _words(
    """
    invoice invoices contract contracts agreement agreements ticket tickets quote quotes order
    orders receipt receipts report reports document documents file files position positions row
    rows line lines entry entries record records
    """
)
_CLAUSE_WORDS = frozenset({"where", "whose", "if", "having", "that", "which", "with", "including", "showing"})
_CONDITION_WORDS = ("where", "whose", "if", "having", "have", "has", "with")

# Comparison words by operator; "is not more than" (le) is tried before "is not", both
# before "is".
_LESS = "below|under|less than|lower than|smaller than|beneath"
_MORE = "above|over|more than|greater than|higher than|larger than|bigger than|exceeds|exceeding"
_OPERATORS: list[tuple[str, str]] = [
    ("between", r"(?:is )?between"),
    ("le", r"(?:is )?(?:at most|no more than|not more than|up to)|<=|≤"),
    ("ge", r"(?:is )?(?:at least|no less than|not less than)|>=|≥"),
    ("lt", rf"(?:is )?(?:{_LESS})|<"),
    ("gt", rf"(?:is )?(?:{_MORE})|>"),
    ("not", r"is not|isn't|!=|≠|<>"),
    ("contains", r"contains|includes|mentions|is like|containing"),
    ("equals", r"is equal to|equals|is|are|==|="),
]
_OPERATOR = re.compile(
    r"\s*(?P<op>" + "|".join(f"(?P<{name}>{pattern})" for name, pattern in _OPERATORS) + r")(?=\s|\d|$)",
    re.IGNORECASE,
)
# the first word of every operator phrase: where a list of column names ends
_OP_WORDS = frozenset(
    alternative.removeprefix("is ").split()[0].lower()
    for _, pattern in _OPERATORS
    for alternative in re.sub(r"\(\?:is \)\?|\(\?:|\)", "", pattern).split("|")
    if alternative.strip()
) | {"is"}
_OP_PHRASES = {
    "equals": "is",
    "contains": "contains",
    "lt": "below",
    "le": "at most",
    "gt": "above",
    "ge": "at least",
}
_COLUMN_WORD = r"(?!(?:and|or|is|are)\b)[^\W\d_][\w.'’-]*+"
_CONDITION_COLUMN = re.compile(
    rf"\s*(?:(?:the|its|their|a|an)\s+)?(?P<col>{_COLUMN_WORD}(?:\s+{_COLUMN_WORD}){{0,3}}?)(?={_OPERATOR.pattern})",
    re.IGNORECASE,
)

_CALC_KINDS = {
    "sum": "total sum",
    "average": "average mean avg",
    "median": "median",
    "maximum": "maximum max highest largest biggest",
    "minimum": "minimum min lowest smallest",
    "count": "count number",
}
_CALC_WORDS = {word: kind for kind, words in _CALC_KINDS.items() for word in words.split()}
_COMPARISON = re.compile(r"\s*(?:compare|(?:a\s+)?comparison\s+of)\s+(?:the\s+)?", re.IGNORECASE)
_CALC_PHRASE = re.compile(
    r"^(?:the\s+)?(?P<kind>" + "|".join(_CALC_WORDS) + r")(?:\s+of)?(?:\s+(?:the|all))?\s+(?P<rest>.+)$",
    re.IGNORECASE,
)

# Nouns that name rows or documents in general, and words that only say what kind of
# document they are ("support ticket"); they select nothing by meaning.
_GENERIC = _DOCUMENT_NOUNS | _words(
    """
    item items page pages table tables quotation quotations offer offers statement statements
    note notes sla slas value values data detail details column columns field fields csv list
    overview support supplier customer purchase sales price prices pricelist pricelists one
    ones everything
    """
)
# Words that carry no content of their own.
_STOP = _words(
    """
    a an the all every each any of from in on for at to by with within across and or but as well
    plus per me my our us we i you your their its his her these those this that which what who
    whose where when how is are was were be been have has had do does did can could would should
    will please kindly need want like show list give get find extract export pull collect return
    fetch display create make build prepare tell also only just both there here them it into out
    about including showing together along than inside under between some so up over not no yes
    thanks thank hello hi hey hallo kea pdf docx xlsx csv txt md pptx hwpx many much own
    """
)
_MONTHS = _words(
    """
    january february march april may june july august september october november december
    """
)


@dataclass
class _Token:
    text: str
    start: int
    end: int

    @property
    def is_mask(self) -> bool:
        return self.text.startswith(_MASK)

    @property
    def is_word(self) -> bool:
        return not self.is_mask and any(ch.isalnum() for ch in self.text)

    @property
    def bare(self) -> str:
        """The word without a possessive or trailing punctuation: ``Nordwerk's`` -> ``Nordwerk``."""
        word = re.sub(r"['’]s?$", "", self.text.strip(".:'\"‘’“”"))
        return word.strip(".:'\"‘’“”")

    @property
    def lower(self) -> str:
        return self.bare.lower()

    @property
    def possessive(self) -> bool:
        return bool(re.search(r"\w['’]s?$", self.text.rstrip(".:")))


_AND = re.compile(r"\s*,?\s*and\s+")
_QUOTED = re.compile(r"\s*['\"‘“](?P<value>[^'\"‘’“”\x00]+)['\"’”](?!\w)")
_TOKEN = re.compile(r"\x00+|\d[\d.,']*\d|[^\s,;!?()\x00]+|[,;!?()]")


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


class _Folders:
    """The scope's folders, found by the words a user writes for them."""

    def __init__(self, folders: list[str]):
        self.folders = folders
        self.by_name: list[tuple[str, list[str], str]] = []
        for folder in folders:
            parts = [p for p in folder.strip("/").split("/") if p and not p.isdigit()]
            if parts:
                words = [w for w in re.split(r"[-_\s.]+", parts[-1].lower()) if w]
                self.by_name.append((_stem("".join(words)), sorted(_stem(w) for w in words), folder))

    def exact(self, path: str) -> str | None:
        """The stored folder a written folder path names (case and slashes aside)."""
        wanted = path.strip("/").lower()
        return next((f for f in self.folders if f.strip("/").lower() == wanted), None)

    def named(self, words: list[str]) -> str | None:
        """The shortest folder whose name these words spell: ``price list`` -> ``pricelists``."""
        joined = _stem("".join(w.lower() for w in words))
        stems = sorted(_stem(w) for w in words)
        found = [
            f for name, parts, f in self.by_name if name == joined or (len(words) > 1 and parts == stems)
        ]
        return min(found, key=lambda f: (f.count("/"), len(f))) if found else None

    def owns_path(self, path: str) -> bool:
        """Whether a written path starts with one of the scope's folders."""
        lowered = path.lower()
        return any(lowered.startswith(f.strip("/").lower() + "/") for f in self.folders)


class _Request:
    """One message being read: its text with the understood parts masked out."""

    def __init__(self, text: str, scope: ScopeHint):
        self.text = text
        self.masked = text
        self.scope = scope
        self.folders = _Folders([f.folder for f in scope.folders])
        self.columns: list[tuple[int, str]] = []
        self.calculations: list[tuple[int, str]] = []
        self.conditions: list[tuple[int, Condition]] = []
        self.places: list[tuple[int, Place]] = []
        self.owners: list[tuple[int, str]] = []
        self.row_terms: list[str] = []
        self.notes: list[str] = []
        self.lead_end = 0

    # --- text and tokens -------------------------------------------------------------------

    def consume(self, start: int, end: int) -> None:
        self.masked = self.masked[:start] + _MASK * (end - start) + self.masked[end:]

    def tokens(self) -> list[_Token]:
        return [_Token(m.group(), m.start(), m.end()) for m in _TOKEN.finditer(self.masked)]

    def _starts_place(self, tokens: list[_Token], i: int) -> bool:
        """Whether the words from token ``i`` on name a place or an owner, not a column."""
        if i >= len(tokens):
            return False
        tok = tokens[i]
        if tok.is_mask or tok.lower in _DETERMINERS or re.fullmatch(r"(?:19|20)\d\d", tok.bare):
            return True
        if tok.is_word and tok.bare[:1].isupper():
            return True
        words = [t.bare for t in tokens[i : i + 3] if t.is_word]
        return any(self.folders.named(words[:n]) for n in range(1, len(words) + 1))

    def _list_end(self, tokens: list[_Token], i: int) -> tuple[int, str]:
        """Where a list of column names that starts at token ``i`` ends, and what ends it."""
        for j in range(i, len(tokens)):
            tok = tokens[j]
            if tok.is_mask or tok.text in (";", "!", "?", "(", ")"):
                return j, "stop"
            if tok.text == ",":
                nxt = tokens[j + 1] if j + 1 < len(tokens) else None
                if nxt is None or nxt.is_mask or nxt.lower in _CLAUSE_WORDS or nxt.lower in _PREPOSITIONS:
                    return j, "stop"
                continue
            if j == i:
                continue
            if tok.lower in _CLAUSE_WORDS:
                return j, "clause"
            if (
                tok.lower in _PREPOSITIONS
                and not _opens_calculation(tokens, i, j)
                and self._starts_place(tokens, j + 1)
            ):
                return j, "place"
            if tok.lower in _OP_WORDS and _OPERATOR.match(self.masked, tok.start):
                return j, "operator"
        return len(tokens), "end"

    # --- passes ----------------------------------------------------------------------------

    def take_paths(self) -> None:
        """File paths and globs written out; a written folder path is a folder."""
        for match in _PATH_TOKEN.finditer(self.masked):
            path = match.group("path")
            folder = self.folders.exact(path) if "/" in path else None
            if "*" in path:
                place = Place(kind="glob", value=path)
            elif folder:
                place = Place(kind="folder", value=folder)
            elif _FILE_NAME.fullmatch(path) or ("/" in path and self.folders.owns_path(path)):
                place = Place(kind="file", value=path)
            else:
                continue
            self.places.append((match.start("path"), place))
            self.consume(match.start("path"), match.end("path"))

    def take_lead(self) -> None:
        """Opening words ("Show me", "Hi,", "What is"), and "compare" as a calculation."""
        start = len(self.masked) - len(self.masked.lstrip(_MASK + " "))
        match = _LEAD.match(self.masked, start)
        self.lead_end = match.end() if match else start
        if match and match.end() > start:
            self.consume(start, match.end())
        comparison = _COMPARISON.match(self.masked, self.lead_end)
        if comparison:
            self.calculations.append((comparison.start(), "comparison"))
            self.consume(comparison.start(), comparison.end())
            self.lead_end = comparison.end()

    def take_conditions(self) -> None:
        """``where <column> <op> <value>`` clauses (also whose/if/having, and with + an op)."""
        keyword = re.compile(r"\b(?:" + "|".join(_CONDITION_WORDS) + r")\b", re.IGNORECASE)
        position = 0
        while match := keyword.search(self.masked, position):
            position = match.end()
            end = self._condition_chain(match.end())
            if end is None and match.group().lower() in ("with", "having", "have", "has"):
                continue
            if end is None:
                end = self._clause_end(match.end())
                self._unreadable_condition(match.end(), end)
            self.consume(match.start(), end)

    def _condition_chain(self, start: int) -> int | None:
        """Read ``a is x and b > 3`` from ``start``; the end of what was read, or None."""
        end = None
        if not _CONDITION_COLUMN.match(self.masked, start):
            return self._implicit_equality(start)
        while column := _CONDITION_COLUMN.match(self.masked, start):
            end = self._condition(column.group("col"), column.end())
            joiner = _AND.match(self.masked, end)
            if not joiner or not _CONDITION_COLUMN.match(self.masked, joiner.end()):
                break
            start = joiner.end()
        return end

    def _implicit_equality(self, start: int) -> int | None:
        """``with priority P1``, ``with subject 'VPN down'``: a known column, then one value."""
        tokens = [t for t in self.tokens() if t.start >= start][:6]
        for n in (3, 2, 1):
            named = tokens[:n]
            if len(named) < n or not all(t.is_word for t in named):
                continue
            column_words = self.masked[named[0].start : named[-1].end]
            value, end = self._single_value(tokens, n) if is_known_column(column_words) else (None, 0)
            if value is not None:
                column = _capitalise(column_words)
                condition = Condition(column=column, op="equals", value=value, text=f"{column} is {value}")
                self.conditions.append((named[0].start, condition))
                return end
        return None

    def _single_value(self, tokens: list[_Token], i: int) -> tuple[str | None, int]:
        """A quoted value, a word or a capitalised name at token ``i``, with nothing to continue it."""
        quoted = _QUOTED.match(self.masked, tokens[i - 1].end)
        if quoted:
            return quoted.group("value"), quoted.end()
        run = []
        for tok in tokens[i:]:
            if not tok.is_word or tok.lower in _STOP or tok.lower in _CLAUSE_WORDS:
                break
            if run and not tok.bare[:1].isupper():
                return None, 0  # more words follow: a phrase, not a value
            run.append(tok)
            if not tok.bare[:1].isupper():
                break
        following = tokens[i + len(run)] if i + len(run) < len(tokens) else None
        if not run or (following is not None and following.is_word and following.lower not in _STOP):
            return None, 0
        return self.text[run[0].start : run[-1].end], run[-1].end

    def _condition(self, column_words: str, op_position: int) -> int:
        """One condition on ``column_words`` whose operator starts at ``op_position``."""
        op_match = _OPERATOR.match(self.masked, op_position)
        assert op_match is not None
        op = next(name for name, _ in _OPERATORS if op_match.group(name))
        value_start = op_match.end()
        end = self._value_end(value_start)
        value = self.text[value_start:end].strip().strip("'\"‘’“”").strip()
        column = _capitalise(_strip_articles(column_words))
        words = self.text[op_position:end].strip()
        numeric = op in ("lt", "le", "gt", "ge")
        if op in ("between", "not") or not value or (numeric and parse_number(value) is None):
            self._note_unreadable(f"{column} {words}")
            condition = Condition(
                column=None, op="judgement", value=f"{column} {words}", text=f"{column} {words}"
            )
        else:
            text = f"{column} {_OP_PHRASES[op]} {value}"
            condition = Condition(column=column, op=op, value=value, text=text)  # type: ignore[arg-type]
        self.conditions.append((op_position, condition))
        return end

    def _value_end(self, start: int) -> int:
        """Where a condition's value ends: a comma, a new clause, a place, or the next condition."""
        quoted = _QUOTED.match(self.masked, start)
        if quoted:
            return quoted.end()
        tokens = [t for t in self.tokens() if t.start >= start]
        for j, tok in enumerate(tokens):
            if tok.is_mask or tok.text in (";", "!", "?", "(", ")", ","):
                return tok.start
            if j == 0:
                continue
            if tok.lower in ("where", "whose", "with", "having", "if"):
                return tok.start
            if tok.lower == "and" and _CONDITION_COLUMN.match(self.masked, tok.end):
                return tok.start
            if tok.lower in _PREPOSITIONS and self._starts_place(tokens, j + 1):
                return tok.start
        return len(self.masked.rstrip(" .")) if tokens else start

    def _clause_end(self, start: int) -> int:
        tokens = [t for t in self.tokens() if t.start >= start]
        j, _ = self._list_end(tokens, 0)
        comma = next((k for k, t in enumerate(tokens[:j]) if t.text == ","), j)
        return tokens[comma].start if comma < len(tokens) else len(self.masked.rstrip(" ."))

    def _unreadable_condition(self, start: int, end: int) -> None:
        words = self.text[start:end].strip()
        if words:
            self._note_unreadable(words)
            self.conditions.append((start, Condition(column=None, op="judgement", value=words, text=words)))

    def _note_unreadable(self, words: str) -> None:
        self.notes.append(
            f"The offline engine cannot read the condition '{words}'; it keeps every row that meets "
            f"the other conditions. {JUDGEMENT_HINT}"
        )

    def take_column_lists(self) -> None:
        """``Columns: a, b``, ``with a, b and c``, and a list of names opening the request."""
        for keyword in (r"\b(?:columns?|fields?)\s*:?\s+", r"\b(?:with|including|showing)\s+"):
            for match in list(re.finditer(keyword, self.masked, re.IGNORECASE)):
                if self.masked[match.start()] != _MASK:
                    self._column_list(match.end(), match.start(), leading=False)
        first = next((t for t in self.tokens() if not t.is_mask), None)
        if first is not None and not self.text[self.lead_end : first.start].strip():
            self._column_list(first.start, first.start, leading=True)

    def _column_list(self, start: int, consume_from: int, *, leading: bool) -> None:
        tokens = [t for t in self.tokens() if t.start >= start]
        if not tokens or tokens[0].is_mask:
            return
        j, ending = self._list_end(tokens, 0)
        end = tokens[j].start if j < len(tokens) else len(self.masked)
        phrase = self.masked[start:end].strip(" ,.")
        items = [
            _strip_articles(i)
            for i in re.split(r"\s*,\s*(?:and\s+|&\s+)?|\s+(?:and|&|und|sowie|plus)\s+", phrase)
        ]
        items = [i.strip(" '\"‘’“”") for i in items if i.strip(" '\"‘’“”")]
        if not items or (leading and not self._is_leading_list(phrase, items, ending)):
            return
        if leading and re.fullmatch(r"the\s+(?:total|sum)", phrase, re.IGNORECASE):
            # "The total of all Brightline invoices": the sum of their amounts.
            self.calculations.append((start, "sum of Amount"))
            self.columns.append((start, "Amount"))
        else:
            for offset, item in zip(_offsets(self.masked, start, items), items):
                self._column_or_calculation(offset, item)
        self.consume(consume_from, end)
        if ending == "operator":
            last_column = self.columns[-1][1] if self.columns else _capitalise(items[-1])
            self.consume(end, self._condition(last_column, tokens[j].start))

    def _is_leading_list(self, phrase: str, items: list[str], ending: str) -> bool:
        """Whether the words opening a request name columns rather than rows or documents."""
        words = phrase.split()
        if not words or words[0].lower() in _QUANTIFIERS or len(items) > 8:
            return False
        for item in items:
            item_words = item.split()
            head = item_words[-1].lower().strip(".")
            if len(item_words) > 5 or re.fullmatch(r"\d[\d.,]*", head) or "'" in item or "’" in item:
                return False
            if head in _ROW_NOUNS or (head in _GENERIC and head.endswith("s") and not is_known_column(item)):
                return False
            if head.endswith("s") and self.folders.named([head]):
                return False
        return ending != "end" or len(items) > 1 or is_known_column(items[0])

    def _column_or_calculation(self, offset: int, item: str) -> None:
        """A column name, or a calculation named in a list ("total amount": sum of Amount)."""
        match = _CALC_PHRASE.match(item)
        if not match or is_known_column(item):
            self.columns.append((offset, _capitalise(item)))
            return
        self._add_calculation(offset, _CALC_WORDS[match.group("kind").lower()], match.group("rest"))

    def _add_calculation(self, offset: int, kind: str, noun: str) -> None:
        """``average`` of ``unit price by product group``: both columns are needed for it."""
        noun, _, group = _split_group(noun)
        if kind == "count" and self._names_rows(noun):
            self.calculations.append((offset, "count of rows"))
            return
        column = _capitalise(noun)
        self.columns.append((offset, column))
        if group:
            self.columns.append((offset + len(noun) + 1, _capitalise(group)))
            self.calculations.append((offset, f"{kind} of {column} by {_capitalise(group)}"))
        else:
            self.calculations.append((offset, f"{kind} of {column}"))

    def _names_rows(self, words: str) -> bool:
        """Whether words name rows or documents ("positions", "tickets") rather than a column."""
        if not words.split() or is_known_column(words):
            return not words.split()
        head = words.split()[-1].lower()
        return head in _DOCUMENT_NOUNS or bool(self.folders.named([head]))

    def take_quoted(self) -> None:
        """Names in quotes are column names: ``'Unit price'``."""
        for match in re.finditer(r"(?<!\w)['\"‘“]([^'\"‘’“”\x00]+)['\"’”](?!\w)", self.masked):
            self.columns.append((match.start(), _capitalise(match.group(1).strip())))
            self.consume(match.start(), match.end())

    def take_calculations(self) -> None:
        """Sums, averages, counts, extremes and comparisons named anywhere else."""
        for match in list(
            re.finditer(r"\bhow\s+many\b|\b(?:count|number)\s+of\b", self.masked, re.IGNORECASE)
        ):
            self.calculations.append((match.start(), "count of rows"))
            self.consume(match.start(), match.end())
        words = "|".join(k for k in _CALC_WORDS if _CALC_WORDS[k] not in ("count",))
        pattern = re.compile(rf"\b(?:the\s+)?(?P<kind>{words})\b(?:\s+of)?(?:\s+the)?\s*", re.IGNORECASE)
        for match in list(pattern.finditer(self.masked)):
            self._calculation_at(match)
        for match in list(
            re.finditer(r"\b(?:compare|comparison|versus|vs\.?)(?=\s|$)", self.masked, re.IGNORECASE)
        ):
            self.calculations.append((match.start(), "comparison"))
            self.consume(match.start(), match.end())

    def _calculation_at(self, match: re.Match[str]) -> None:
        """A calculation word, with the column it is about when the next words name one."""
        kind = _CALC_WORDS[match.group("kind").lower()]
        tokens = [t for t in self.tokens() if t.start >= match.end()]
        noun, end = "", match.end()
        if tokens and tokens[0].lower not in _DETERMINERS:
            j, _ = self._list_end(tokens, 0)
            list_end = tokens[j].start if j < len(tokens) else len(self.masked)
            words = self.masked[match.end() : list_end].strip(" ,.")
            if words and _MASK not in words and not self._names_rows(_split_group(words)[0]):
                noun, end = words, list_end
        if noun:
            self._add_calculation(match.start(), kind, noun)
        else:
            self.calculations.append((match.start(), kind))
        self.consume(match.start(), end)

    def take_years(self) -> None:
        """Four-digit years (1900–2099) that are not part of a larger number."""
        for match in re.finditer(r"(?<![\w.,])(?:19|20)\d\d(?![\w.,]\d)", self.masked):
            self.places.append((match.start(), Place(kind="year", value=match.group())))
            self.consume(match.start(), match.end())

    def take_folders(self) -> None:
        """Folder names written in words: ``SLAs``, ``price list``, ``archived agreements``."""
        tokens = self.tokens()
        i = 0
        while i < len(tokens):
            for n in (3, 2, 1):
                run = tokens[i : i + n]
                if len(run) < n or not all(t.is_word for t in run) or any(t.possessive for t in run[:-1]):
                    continue
                folder = self.folders.named([t.bare for t in run])
                if folder:
                    self.places.append((run[0].start, Place(kind="folder", value=folder)))
                    self.consume(run[0].start, run[-1].end)
                    i += n - 1
                    break
            i += 1

    def take_owners(self) -> None:
        """Names written with a capital that own the documents: ``Nordwerk's``, ``Brightline``."""
        tokens = self.tokens()
        groups: list[list[_Token]] = []
        for i, tok in enumerate(tokens):
            if not self._is_name(tokens, i):
                continue
            previous = tokens[i - 1] if i else None
            if groups and previous is groups[-1][-1] and not previous.possessive:
                groups[-1].append(tok)
            else:
                groups.append([tok])
        for group in self._alternatives(groups):
            self.owners.append((group[0].start, " ".join(t.bare for t in group)))
            for tok in group:
                self.consume(tok.start, tok.end)

    def _is_name(self, tokens: list[_Token], i: int) -> bool:
        """A capitalised word that is not a stop word, a month or a document noun."""
        tok = tokens[i]
        word = tok.bare
        letters = sum(ch.isalpha() for ch in word)
        if not tok.is_word or not word[:1].isupper() or letters < 2 or any(ch.isdigit() for ch in word):
            return False
        if word.lower() in _STOP or word.lower() in _MONTHS or word.lower() in _GENERIC:
            return False
        if self.text[: tok.start].strip():
            return True
        # The first word is capitalised anyway: a name only when written as one.
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        return (
            tok.possessive
            or word.isupper()
            or (nxt is not None and (nxt.is_mask or (nxt.is_word and nxt.bare[:1].isupper())))
        )

    def _alternatives(self, groups: list[list[_Token]]) -> list[list[_Token]]:
        """``Nordwerk or Brightline``: one owner term with alternatives, not two required terms."""
        merged: list[list[_Token]] = []
        for group in groups:
            if merged:
                last = merged[-1]
                between = self.masked[last[-1].end : group[0].start].strip().lower()
                before = self.masked[: last[0].start].split()
                if between in ("or", "and") and not (before and before[-1].lower() == "between"):
                    or_token = _Token("or", last[-1].end, group[0].start)
                    merged[-1] = [*last, or_token, *group]
                    continue
            merged.append(group)
        return merged

    def take_row_terms(self) -> None:
        """Content words left over describe rows by meaning; the offline engine cannot judge them.

        A left-over phrase that is a known column name ("the SLA response times") is a column.
        """
        terms: list[list[_Token]] = []
        previous: _Token | None = None
        for tok in self.tokens():
            keep = tok.is_word and tok.lower not in _STOP and tok.lower not in _GENERIC
            keep = keep and not re.fullmatch(r"[\d.,'%]+", tok.bare) and len(tok.bare) > 1
            if keep:
                if terms and previous is terms[-1][-1]:
                    terms[-1].append(tok)
                else:
                    terms.append([tok])
            previous = tok
        for group in terms:
            phrase = " ".join(_lower_first(t.bare) if t.start == 0 else t.bare for t in group)
            if is_known_column(phrase):
                self.columns.append((group[0].start, _capitalise(phrase)))
            else:
                self.row_terms.append(phrase)
        if self.row_terms:
            named = " and ".join(f"'{t}'" for t in self.row_terms)
            self.notes.append(
                f"The offline engine cannot judge {named}; it keeps every row that meets the literal "
                f"conditions. {JUDGEMENT_HINT}"
            )

    # --- the reading -----------------------------------------------------------------------

    def reading(self, message: str) -> Reading:
        columns = _unique([c for _, c in sorted(self.columns)])
        columns_from = "request"
        conditions = [c for _, c in sorted(self.conditions, key=lambda pair: pair[0])]
        if not columns:
            columns = _columns_from_tables(self.scope.table_headers, conditions)
            columns_from = "tables" if columns else "none"
        if not columns:
            # No header holds the condition's columns: the condition names what to show.
            columns = _unique([c.column for c in conditions if c.column])
            columns_from = "request" if columns else "none"
            if not columns:
                self.notes.append(
                    "No column was named and the scope shows no table header to use; name the values "
                    "you want, e.g. 'with description and amount'."
                )
        conditions = [_with_requested_name(c, columns) for c in conditions]
        calculations = _unique([c for _, c in sorted(self.calculations)])
        if "comparison" in calculations and columns_from == "request":
            calculations[calculations.index("comparison")] = "comparison of " + " and ".join(columns)
        return Reading(
            request=message,
            kind="table",
            columns=columns,
            columns_from=columns_from,  # type: ignore[arg-type]
            row_condition=" and ".join(c.text for c in conditions) or None,
            conditions=conditions,
            row_terms=self.row_terms,
            document_conditions=_unique([o for _, o in sorted(self.owners)]),
            places=_unique_places([p for _, p in sorted(self.places, key=lambda pair: pair[0])]),
            calculations=calculations,
            notes=self.notes,
        )


def read_message(message: str, scope: ScopeHint) -> Reading:
    """How the offline engine understands one message (see the module docstring)."""
    text = " ".join(message.split()).rstrip(" .?!")
    kind = _kind_of(text)
    if kind != "table":
        return Reading(request=message, kind=kind, columns_from="none")
    request = _Request(text, scope)
    request.take_paths()
    request.take_lead()
    request.take_conditions()
    request.take_column_lists()
    request.take_quoted()
    request.take_calculations()
    request.take_years()
    request.take_folders()
    request.take_owners()
    request.take_row_terms()
    return request.reading(message)


def _opens_calculation(tokens: list[_Token], first: int, j: int) -> bool:
    """Whether ``of`` at token ``j`` follows a calculation word opening an item: "sum of the amounts"."""
    if tokens[j].lower != "of" or tokens[j - 1].lower not in _CALC_WORDS:
        return False
    return j - 1 == first or tokens[j - 2].text == "," or tokens[j - 2].lower in ("and", "the", "&")


def _kind_of(text: str) -> str:
    """greeting, about (a question about the agent), empty, or table."""
    words = re.findall(r"\w+", text.lower())
    if not words:
        return "empty"
    if all(w in _GREETING_CORE or w in _GREETING_FILL for w in words) and any(
        w in _GREETING_CORE for w in words
    ):
        return "greeting"
    if _ABOUT.fullmatch(" ".join(words)):
        return "about"
    return "table"


def _split_group(noun: str) -> tuple[str, str, str]:
    """``unit price by product group`` -> (``unit price``, ``by``, ``product group``)."""
    parts = re.split(r"\s+(by|per)\s+", noun, maxsplit=1)
    return (parts[0], parts[1], parts[2]) if len(parts) == 3 else (noun, "", "")


def _strip_articles(item: str) -> str:
    item = re.sub(r"^(?:(?:the|its|their|each|a|an|his|her)\s+)+", "", item.strip(), flags=re.IGNORECASE)
    return re.sub(r"\s+(?:columns?|fields?)$", "", item, flags=re.IGNORECASE).strip()


def _capitalise(words: str) -> str:
    words = words.strip()
    return words[:1].upper() + words[1:]


def _lower_first(word: str) -> str:
    return word if word.isupper() else word[:1].lower() + word[1:]


def _offsets(text: str, start: int, items: list[str]) -> list[int]:
    """Where each item of a list starts in the text, so columns keep the message's order."""
    offsets, position = [], start
    for item in items:
        found = text.find(item, position)
        position = found if found >= 0 else position
        offsets.append(position)
    return offsets


def _unique(values: list[str]) -> list[str]:
    """The values in order, each once (case aside)."""
    kept: dict[str, str] = {}
    for value in values:
        kept.setdefault(value.lower(), value)
    return list(kept.values())


def _unique_places(places: list[Place]) -> list[Place]:
    return list({(p.kind, p.value): p for p in places}.values())


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
    """A condition on a requested column uses the column's name as the table shows it."""
    if not condition.column:
        return condition
    index = match_column(condition.column, columns)
    if index is None or columns[index] == condition.column:
        return condition
    name = columns[index]
    text = f"{name} {_OP_PHRASES[condition.op]} {condition.value}"
    return condition.model_copy(update={"column": name, "text": text})


# ============================================================================================
# Extracting one document


def extract_records(document: DocumentText, reading: Reading) -> list[Record]:
    """The records of one document for a reading; [] when the document does not qualify."""
    if reading.kind != "table" or not reading.columns:
        return []
    if not meets_document_conditions(document, reading.document_conditions):
        return []
    records, used_a_table = records_from_tables(document, reading)
    if used_a_table:
        return records
    return records_from_key_values(document, reading)


def text_outside_tables(document: DocumentText) -> str:
    """The document's text without the lines its tables put into the pages."""
    in_tables = {clean(line) for table in document.tables for line in table_lines(table)}
    return "\n".join(line for page in document.pages for line in page.splitlines() if clean(line) not in in_tables)


def meets_document_conditions(document: DocumentText, terms: list[str]) -> bool:
    """Whether every term occurs outside the tables (a letterhead, not an item row).

    A term ``A or B`` is met by either name.
    """
    if not terms:
        return True
    text = text_outside_tables(document).casefold()
    return all(
        any(_contains_word(text, alternative.casefold()) for alternative in re.split(r"\s+or\s+", term))
        for term in terms
    )


def _contains_word(text: str, term: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(term)}(?!\w)", text) is not None


def _enough(found: int, requested: int) -> bool:
    """A table or a key–value block is used when at least half the requested columns are in it."""
    return found >= 1 and found >= math.ceil(requested / 2)


@dataclass
class _TableUse:
    """A table the request is read from: its header and where each requested column is."""

    header: list[str]
    mapping: dict[str, int]


def records_from_tables(document: DocumentText, reading: Reading) -> tuple[list[Record], bool]:
    """Records from every table that holds the requested columns; and whether any did."""
    records: list[Record] = []
    previous: _TableUse | None = None
    used_any = False
    for table in document.tables:
        mapping = map_columns(reading.columns, table.header)
        if _enough(len(mapping), len(reading.columns)):
            use, rows = _TableUse(table.header, mapping), table.rows
        elif not mapping and previous and len(table.header) == len(previous.header):
            # A table continued on the next page without its header: the header is a row.
            use, rows = previous, [table.header, *table.rows]
        else:
            continue
        previous, used_any = use, True
        records += [r for row in rows if (r := _table_record(row, use, table, reading)) is not None]
    return records, used_any


_SUMMARY_LABEL = re.compile(
    r"^(?:sub-?total|total|sum|summe|zwischensumme|gesamt\w*|netto|brutto|net|gross|vat|tax|mwst|ust"
    r"|umsatzsteuer|rechnungsbetrag|amount due|balance due|합계|소계|부가세)\b",
    re.IGNORECASE,
)


def _table_record(row: list[str], use: _TableUse, table: Table, reading: Reading) -> Record | None:
    cells = [c.strip() for c in row]
    if not any(cells) or [c.casefold() for c in cells] == [h.strip().casefold() for h in use.header]:
        return None
    filled = [c for c in cells if c]
    if _SUMMARY_LABEL.match(filled[0]) and len(filled) < len(use.header) / 2:
        return None  # a totals line below the items, not an item
    values = {c: _cell(cells, use.mapping.get(c)) for c in reading.columns}
    if all(v is None for v in values.values()):
        return None

    def cell_of(column: str) -> str | bool | None:
        index = use.mapping.get(column)
        if index is None:
            index = match_column(column, use.header)
        return False if index is None else _cell(cells, index)

    keep, notes = _check_conditions(reading.conditions, cell_of)
    if not keep:
        return None
    notes += [f"no '{c}' column in this table" for c in reading.columns if c not in use.mapping]
    return Record(
        values=values,
        match="unsure" if notes else "yes",
        page=table.page,
        evidence="\t".join(row),
        note="; ".join(notes) or None,
    )


def _cell(cells: list[str], index: int | None) -> str | None:
    if index is None or index >= len(cells):
        return None
    return cells[index] or None


def _check_conditions(
    conditions: list[Condition], cell_of: Callable[[str], str | bool | None]
) -> tuple[bool, list[str]]:
    """Whether a row may meet the literal conditions, and why it is unsure when it is.

    ``cell_of(column)`` gives the row's cell, None for an empty one, False when the row has
    no such column. A clearly false condition drops the row; one that cannot be checked
    keeps it, unsure.
    """
    notes: list[str] = []
    for condition in conditions:
        if condition.op == "judgement" or not condition.column:
            continue
        cell = cell_of(condition.column)
        if cell is False:
            notes.append(f"no '{condition.column}' to check '{condition.text}'")
            continue
        if cell is None:
            notes.append(f"no value for '{condition.column}'")
            continue
        result = compare(condition.op, cell, condition.value)
        if result is False:
            return False, []
        if result is None:
            notes.append(f"cannot compare '{cell}' with {condition.value}")
    return True, notes


@dataclass
class _KeyValue:
    """One ``Key: value`` pair, with the line and page it stands on."""

    key: str
    value: str
    line: str
    page: int


_KEY_VALUE = re.compile(
    r"^\s*(?:[-*•]\s+)?[*_]*(?P<key>[^\t:*_]{1,60}?)[*_]*\s*(?::|\s[–—-]\s)[*_]*\s*(?P<value>\S.*?)\s*$"
)


def key_value_lines(document: DocumentText) -> list[_KeyValue]:
    """``Key: value`` and ``Key – value`` lines of the pages, and two-cell table rows."""
    pairs: list[_KeyValue] = []
    for number, page in enumerate(document.pages, start=1):
        for line in page.splitlines():
            match = _KEY_VALUE.match(line)
            if not match or "\t" in line or len(match.group("key").split()) > 6:
                continue
            key, value = match.group("key").strip(), match.group("value").strip(" *_")
            pairs.append(_KeyValue(key, value, line.strip(), number))
    for table in document.tables:
        for row in [table.header, *table.rows]:
            if len(row) == 2 and row[0].strip() and row[1].strip():
                key, value = row[0].strip().rstrip(":"), row[1].strip()
                pairs.append(_KeyValue(key, value, "\t".join(row), table.page))
    return pairs


def records_from_key_values(document: DocumentText, reading: Reading) -> list[Record]:
    """One record from the document's key–value lines, when they hold the requested columns.

    Every literal condition's column must be among the keys (else the document is about
    something else); at least half the requested columns must be found. A requested column
    not found stays empty and makes the record unsure.
    """
    pairs = key_value_lines(document)
    keys = [p.key for p in pairs]
    found = {column: pairs[i] for column, i in map_columns(reading.columns, keys).items()}
    if not _enough(len(found), len(reading.columns)):
        return []
    condition_pairs: dict[str, _KeyValue] = {}
    for condition in reading.conditions:
        if condition.op == "judgement" or not condition.column:
            continue
        pair = found.get(condition.column)
        if pair is None:
            index = match_column(condition.column, keys)
            if index is None:
                return []
            pair = pairs[index]
        condition_pairs[condition.column] = pair
    keep, notes = _check_conditions(reading.conditions, lambda column: condition_pairs[column].value or None)
    if not keep:
        return []
    notes += [f"no value for '{c}'" for c in reading.columns if c not in found]
    first = next(found[c] for c in reading.columns if c in found)
    return [
        Record(
            values={c: found[c].value if c in found else None for c in reading.columns},
            match="unsure" if notes else "yes",
            page=first.page,
            evidence=first.line,
            note="; ".join(notes) or None,
        )
    ]
