"""Column names as users and documents write them, and which header cell a request means.

A user asks for "unit price"; a German invoice heads the column ``Einzelpreis``, a Korean
quote ``단가``. Names are compared in a normal form (lower case, no punctuation, no accents
on Latin letters, single spaces), then through a small map of synonyms, and last as
abbreviations: a results list heads the year of birth ``YB`` and the federation ``Fed.``.
"""

from __future__ import annotations

import re
import unicodedata
from difflib import SequenceMatcher
from functools import lru_cache

from core.reading import Condition
from tools.engines.numbers import parse_number
from tools.engines.synonyms import SYNONYMS
from tools.engines.translation import translated_cells
from tools.engines.units import MEASURE_UNIT, said_unit, unit_agrees, unit_phrase_of, without_unit

# Decorations of a header cell that do not change what the column holds: "Unit price (EUR)".
_DECORATIONS = frozenset({"eur", "usd", "gbp", "chf", "sek", "nok", "dkk", "pln", "czk", "zl", "krw", "in"})
# Words that make two columns of one kind different things: a request for the gross amount is
# never answered from the net amount, whatever else the names share.
_QUALIFIERS = {"net": "net", "netto": "net", "nett": "net", "ht": "net", "gross": "gross", "brutto": "gross", "ttc": "gross"}


def normalise(name: str) -> str:
    """``Art.-Nr.`` -> ``art nr``; ``Haftungshöchstbetrag`` -> ``haftungshochstbetrag``."""
    decomposed = unicodedata.normalize("NFKD", re.sub(r"\b([nN])\.?\s?°", r"\1º", name).casefold())
    without_accents = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    text = unicodedata.normalize("NFC", without_accents)
    # "n.º", "nº", "n°": the abbreviation of número, written "no" as "No." is
    return re.sub(r"\bn o\b", "no", " ".join(re.sub(r"[^\w\s]|_", " ", text).split()))


def _singular(norm: str) -> str:
    """The normal form with a simple plural dropped from its last word: ``liability caps``."""
    head, _, last = norm.rpartition(" ")
    if len(last) > 3 and last.endswith("s") and not last.endswith("ss"):
        last = last[:-1]
    return f"{head} {last}".strip()


def folded(name: str) -> str:
    """The normal form with a simple plural dropped from every word: two names that fold alike
    are written alike ("Total schools that participated", "total school that participated";
    "Change versus Q2 2024", "Change vs Q2 2024")."""
    return " ".join(_SHORT_FORMS.get(word) or (word[:-3] + "y" if len(word) > 4 and word.endswith("ies") else _singular(word))
                    for word in normalise(name).split())


_SHORT_FORMS = {"versus": "vs", "overall": "all"}  # a word a header writes shorter by convention ("TEDs all")


def names_of(cell: str) -> list[str]:
    """The names a header cell gives its column, folded: itself, each name it joins with a
    slash ("States/Union Territories" heads the states and the union territories), and the name
    without the unit it ends with ("reading_c", "Weight (kg)": "reading", "weight")."""
    bare = without_unit(cell)
    parts = bare.split("/") if "/" in bare else []  # "(mm/year)" is a unit, not two names
    return [name for name in dict.fromkeys(folded(name) for name in [cell, *parts, bare, code_of(cell)]) if name]


def code_of(cell: str) -> str:
    """The short name a long header gives itself in brackets at its end: "(VTEt)" of "Treatment of
    DVT and PE, and prevention of recurrent DVT and PE (VTEt)"; "" for a unit ("(EUR)", "(kg)")
    or a header of a few words."""
    found = _CODE_TAIL.search(cell)
    if found is None or len(cell[: found.start()].split()) < CODED_WORDS or MEASURE_UNIT.fullmatch(found.group(1)):
        return ""
    return found.group(1)


CODED_WORDS = 4  # a header names itself by a code in brackets only after this many words
_CODE_TAIL = re.compile(r"\(([A-Za-z][A-Za-z0-9/-]{1,9})\)\s*$")


def _undecorated(norm: str) -> str:
    return " ".join(w for w in norm.split() if w not in _DECORATIONS)


def _build_groups() -> dict[str, frozenset[str]]:
    groups: dict[str, set[str]] = {}
    for group, names in SYNONYMS.items():
        for name in names:
            groups.setdefault(_singular(normalise(name)), set()).add(group)
    return {name: frozenset(found) for name, found in groups.items()}


_GROUPS = _build_groups()
_GROUP_NAMES = frozenset(_singular(normalise(group)) for group in SYNONYMS)


@lru_cache(maxsize=8192)  # asked for every requested column and header cell of every table read
def groups_of(name: str) -> frozenset[str]:
    """The synonym groups a column name belongs to (empty when it is in none); a compound that
    numbers a thing is read in full ("Rechnungsnr." is the Rechnungsnummer); a name written in
    two languages with a spaced slash ("Kund / Customer") is in the groups of either."""
    if " / " in name:
        return frozenset(group for part in name.split(" / ") if part.strip() for group in groups_of(part))
    norm = normalise(name)
    for form in (norm, _undecorated(norm), _COMPOUND_NUMBER.sub("nummer", norm), _LINE_OF.sub("", norm), _NAME_SUFFIX.sub("", norm)):
        if found := _GROUPS.get(_singular(form)) or _GROUPS.get(folded(form)):  # "quantities"
            return found
    return frozenset()


# a change named with the period it is set against, the one before ("Change versus last year",
# "growth on the previous quarter"): a table prints it as the change beside the earlier period
_AGAINST_LAST = re.compile(
    r"(.+?)\s+(?:versus|vs\.?|against|compared (?:with|to)|on|over|from)\s+(?:the\s+)?"
    r"(?:last|previous|prior|preceding)\s+(?:year|quarter|month|week|period)",
    re.IGNORECASE,
)
_ALIAS = re.compile(r"(.+?)\s*\(\s*([^()]+?)\s*\)")  # "Net amount (Prix HT)"
_LINE_OF = re.compile(r"^(?:line|item|position|row|ligne|zeile) (?=\w)")  # "line description": the line's description
_NAME_SUFFIX = re.compile(r"(?<=\w) name$")  # "product name", "customer name": the product, the customer
_COMPOUND_NUMBER = re.compile(r"(?<=\w{4})nr$")  # "rechnungsnr", "kundennr": the number of a thing


def is_known_column(name: str) -> bool:
    """Whether a phrase is one of the column names the synonym map knows."""
    return bool(groups_of(name))


def _match_tiers(requested: str, header: list[str], context: str = "", translate: bool = True) -> list[list[int]]:
    """Candidate cells for a requested column, best tier first; ``context`` is the table's title.
    A column asked for in a unit ("Weight in kg", "Potencia en kWp") is its name's, among the
    cells that give no other unit in brackets. Last, when nothing else names it (and
    ``translate``), the cells that name it in another language ("Weighted Percent" for
    "Porcentaje ponderado")."""
    if (split := unit_phrase_of(requested)) is not None and not any(_singular(normalise(c)) == _singular(normalise(requested)) for c in header):
        name, unit = split
        return [[i for i in tier if unit_agrees(header[i], unit)] for tier in _match_tiers(name, header, context, translate)]
    against = _AGAINST_LAST.fullmatch(requested.strip())
    if against is not None and not any(_singular(normalise(c)) == _singular(normalise(requested)) for c in header):
        # "the change versus last year": a change beside the period before is the table's Change
        return _match_tiers(against.group(1), header, context, translate)
    aliased = _ALIAS.fullmatch(requested)
    if aliased is not None and (printed := [i for i, c in enumerate(header) if normalise(c) == normalise(aliased.group(2))]):
        return [printed]  # "the net amount (Prix HT)": the header the request gives in brackets
    want = normalise(requested)
    cells = [normalise(c) for c in header]
    want_groups = groups_of(requested)
    exact = [i for i, c in enumerate(cells) if c and c == want]
    singular = [i for i, c in enumerate(cells) if c and _singular(c) == _singular(want)]
    undecorated = [
        i for i, c in enumerate(cells) if c and _singular(_undecorated(c)) == _singular(_undecorated(want))
    ]
    synonym = of_kind = synonym_cells(requested, header)
    if len(synonym) > 1:
        # two cells of the same kind ("Artikel" and "Bezeichnung"): the one named as the kind
        # itself holds it, else the one spelled as the request writes it ("Article": Artikel);
        # otherwise neither does with confidence (``map_columns`` may still give the one left)
        named_as_kind = [i for i in synonym if _singular(cells[i]) in {_singular(normalise(g)) for g in want_groups}]
        spelled = [i for i in synonym if _spelled_alike(cells[i], want)]
        synonym = named_as_kind if len(named_as_kind) == 1 else spelled if len(spelled) == 1 else []
    # "Order no." numbers the order as "Order number" does: one thing's identifier either way
    identifier = [i for i, c in enumerate(cells) if _identifier_stem(want) and _identifier_stem(c) == _identifier_stem(want)]
    # "Total amount" holds the amount: a header cell ending in the requested words.
    tail = [
        i
        for i, c in enumerate(cells)
        if c and want and f" {_singular(_undecorated(c))}".endswith(f" {_singular(want)}")
    ]
    wanted = _qualifier(want)
    # "Prix unitaire" is the "Prix unitaire HT" of an invoice that shows no other prix unitaire
    unqualified = [i for i, c in enumerate(cells) if c and wanted is None and _unqualified(c) == want]
    # "Delivery note number" is what a "Delivery note:" label numbers; "Order number" a "Purchase order:"
    stem = _identifier_stem(want)
    named = [i for i, c in enumerate(cells) if stem and (c == stem or c.endswith(" " + stem))]
    # "YB" heads the year of birth, "Fed." the federation: a cell abbreviating the requested name;
    # "Rem." the discount, shortening the remise the request's kind is also called
    short = [i for i, c in enumerate(cells) if c and abbreviates(c, want)] or [
        i for i, c in enumerate(cells)
        if c and header[i].strip().endswith(".") and any(
            abbreviates(c, name) and 2 * len(c) >= len(name) for g in want_groups for name in map(normalise, SYNONYMS[g]))
    ]
    # "States/Union Territories" heads the states and the union territories: each name it joins
    alternative = [i for i, c in enumerate(header) if "/" in c and folded(want) in names_of(c)[1:]]
    # "1991-2001 growth rate" under a table titled "Decadal growth rate of population": a cell
    # named by the requested words that the title does not already say
    titled = _titled(want, cells, context)
    # "Distance (mi)", "KI (1/km)", "Jahreswert (EUR)": what a cell says in brackets is its unit
    unbracketed = [
        i for i, c in enumerate(header)
        if "(" in c and want and _singular(normalise(re.sub(r"\([^)]*\)", " ", c))) == _singular(want)
    ]
    # "Physician" heads the physician's name: a column of names headed by whom it names
    whose = _NAME_OF.sub("", want) if _NAME_OF.search(want) else ""
    named_by = [i for i, c in enumerate(cells) if whose and c and _singular(c) == _singular(whose)]
    # "Notices" heads the number of notices: a column of counts named by what it counts
    counted = _COUNT_OF.sub("", want) if _COUNT_OF.match(want) else ""
    count = [
        i for i, c in enumerate(cells)
        if counted and c and _singular(_COUNT_OF.sub("", c)) == _singular(counted)
    ]
    # "Target" heads "Target Q2 2025": the one cell that starts with the requested words, or with
    # a dotted abbreviation of the one requested word ("Réf. fournisseur" for the reference)
    head = [
        i for i, c in enumerate(cells)
        if c and want and (c.startswith(want + " ") or _dotted_head(header[i], want))
    ]
    # "Qty ordered" holds the quantity: the one cell whose first word is of the requested kind
    kind_head = [
        i for i, c in enumerate(cells)
        if want_groups and len(c.split()) > 1 and groups_of(c.split()[0]) & want_groups and groups_of(c) <= want_groups
    ]
    # "Fecha fin obra" holds the end date: the one cell whose first words (two or more) are a
    # name of the requested kind, a word of its own after them
    named_head = [
        i for i, c in enumerate(cells)
        if want_groups and len(c.split()) > 2
        and any(groups_of(" ".join(c.split()[:n])) & want_groups for n in range(len(c.split()) - 1, 1, -1))
    ]
    # "DLHS-4 total" is the "DLHS-4 (2012-13) TOTAL": the one cell that holds every word the
    # request names it with (two words at least, plurals folded)
    wanted_words = {w for w in folded(want).split() if w not in _JOINING}
    covering = [
        i for i, c in enumerate(header)
        if len(wanted_words) >= 2 and wanted_words <= set(folded(c).split())
    ]
    # "Artikelbeschreibung" is the article description: one word joining what the request
    # writes as two, its last part of the requested kind
    joined = [i for i, c in enumerate(cells) if _joins(c, want)]
    # "datę szkolenia" (the request's case) is the "Data szkolenia" of the header; "average order
    # value" the "Avg Order Value (PLN)": words alike but for an ending or shortened, one the same
    plain = [normalise(re.sub(r"\([^)]*\)", " ", c)) for c in header]
    inflected = [i for i, c in enumerate(plain) if c and _inflected_alike(c, want)]
    tiers = [
        exact, singular, alternative, undecorated, identifier, unbracketed, unqualified, synonym,
        tail if len(tail) == 1 else [], named if len(named) == 1 else [], short if len(short) == 1 else [],
        head if len(head) == 1 else [], count if len(count) == 1 else [], named_by if len(named_by) == 1 else [], titled,
        kind_head if len(kind_head) == 1 else [], named_head if len(named_head) == 1 else [],
        covering if len(covering) == 1 else [],
        inflected if len(inflected) == 1 else [], joined if len(joined) == 1 else [],
        _bilingual(requested, header, context, translate),
        # "VTEt" names the "Treatment of DVT and PE, … (VTEt)" column
        [i for i, c in enumerate(header) if want and folded(code_of(c)) == folded(want)],
    ]
    if translate and not any(tiers) and not of_kind:
        # (cells of the requested kind the synonyms found too many of name none with confidence
        # in any language)
        tiers.append(translated_cells(requested, header))
    tiers = [[i for i in tier if _qualifier(cells[i]) in (wanted, None) or wanted is None] for tier in tiers]
    if wanted is None:
        # an unqualified "amount" beside both a net and a gross amount names neither with confidence
        tiers = [[] if len({_qualifier(cells[i]) for i in tier} - {None}) > 1 else tier for tier in tiers]
        tiers = [[i for i in tier if not _opposed(i, cells)] for tier in tiers]
    elif wanted:
        tiers[SYNONYM_TIER:] = [[i for i in tier if _qualifier(cells[i]) == wanted] for tier in tiers[SYNONYM_TIER:]]
    return tiers


def unit_unsaid(column: str, cell: str) -> bool:
    """Whether a column asked for in a unit ("Amount in USD") is read from a header cell that says
    no unit ("Amount"): its values may be in another one (the caller says so, unsure)."""
    if unit_phrase_of(column) is None or _singular(normalise(cell)) == _singular(normalise(column)):
        return False
    return said_unit(cell) is None


def _kinds(norm: str) -> set[str]:
    """The kinds of column a normal-form cell is, net or gross aside ("nettobetrag": amount)."""
    groups = groups_of(norm) | groups_of(_unqualified(norm))
    return {_unqualified(normalise(group)) for group in groups}


def _opposed(i: int, cells: list[str]) -> bool:
    """Whether cell ``i`` says net or gross and another cell of its kind says the other
    ("Nettobetrag" beside "Gesamtbetrag brutto"): an unqualified request names neither."""
    own = _qualifier(cells[i])
    if own is None:
        return False
    kinds = _kinds(cells[i])
    return any(
        j != i and _qualifier(c) not in (None, own) and _kinds(c) & kinds for j, c in enumerate(cells)
    )


_JOINING = frozenset({"the", "of", "and", "for", "in", "a", "an", "de", "der", "die", "das", "und", "et", "la", "le", "les"})
_NAME_OF = re.compile(r"^name of (?:the )?(?=\w)| s name$|(?<=\w) name$")  # "the physician's name", "name of the supplier", "first name"
_COUNT_OF = re.compile(r"^(?:number of|no of|count of|anzahl (?:der )?|nombre de|aantal) (?=\w)")
SYNONYM_TIER = 7  # the tiers from the synonyms on say the kind of a column, not its name


def synonym_cells(requested: str, header: list[str]) -> list[int]:
    """The cells of the requested column's kind in the synonym map, a cell read also without the
    word saying net or gross ("P.U. HT" is a unit price)."""
    want = normalise(requested)
    want_groups = groups_of(requested)
    # "Gross total" is a total said to be gross: "Gesamtbetrag brutto" one too
    plain_groups = groups_of(_unqualified(want)) if _qualifier(want) else frozenset()
    if not want_groups and not plain_groups:
        return []
    found = []
    for i, cell in enumerate(header):
        norm = normalise(cell)
        groups = groups_of(cell) | (groups_of(_unqualified(norm)) if _unqualified(norm) != norm else frozenset())
        if groups & want_groups or plain_groups and _qualifier(norm) == _qualifier(want) and groups & plain_groups:
            found.append(i)
    return found


def _inflected_alike(cell: str, want: str) -> bool:
    """Two names of several words written alike but for a case ending or a shortened word, and one
    word the same: a word of four letters at least the same but for its last letter ("datę
    szkolenia", "data szkolenia"), or a header's word of three letters at least that keeps the
    requested word's first letter and others in order ("avg order value", "average order value")."""
    cells, wanted = cell.split(), want.split()
    if len(cells) < 2 or len(cells) != len(wanted) or cells == wanted:
        return False
    alike = all(a == b or _one_ending(a, b) or _shortened(a, b) for a, b in zip(cells, wanted))
    return alike and any(a == b for a, b in zip(cells, wanted))


def _one_ending(a: str, b: str) -> bool:
    return len(a) == len(b) >= 4 and a[:-1] == b[:-1] and a.isalpha() and b.isalpha()


def _shortened(short: str, word: str) -> bool:
    """Whether ``short`` is ``word`` with letters left out ("avg" of "average", "qty" of "quantity")."""
    if not (3 <= len(short) < len(word) and short.isalpha() and short[0] == word[0]):
        return False
    rest = iter(word[1:])
    return all(ch in rest for ch in short[1:])


def _joins(cell: str, want: str) -> bool:
    """Whether a one-word header cell is a compound of the two requested words, in their
    language or another: its first part spelled alike the first word or of its kind, its last
    part (five letters or more) the second word's kind ("Artikelbeschreibung" for "article
    description", "Stückpreis" is not: "stück" is not "unit")."""
    words = want.split()
    if " " in cell or len(words) != 2 or not groups_of(words[1]):
        return False
    first, last = words
    for k in range(3, len(cell) - 4):
        head, tail = cell[:k], cell[k:]
        if groups_of(tail) & groups_of(last) and (
            _spelled_alike(head, first) or _spelled_alike(head.removesuffix("s"), first) or groups_of(head) & groups_of(first)
        ):
            return True
    return False


def _spelled_alike(cell: str, want: str) -> bool:
    """Two one-word names written alike across languages ("article" and "artikel")."""
    return " " not in cell and " " not in want and SequenceMatcher(None, cell, want).ratio() >= 0.7


def _dotted_head(cell: str, want: str) -> bool:
    """Whether a header cell opens with a dotted abbreviation of the one requested word:
    "Réf. fournisseur" for "reference", "Beschr. (kurz)" for "beschreibung"."""
    first = cell.split()[0] if cell.split() else ""
    letters = normalise(first)
    return (
        " " not in want and first.endswith(".") and len(cell.split()) > 1 and letters.isalpha()
        and len(letters) >= 3 and len(want) > len(letters) + 1 and want.startswith(letters)
    )


def _titled(want: str, cells: list[str], context: str) -> list[int]:
    """The one cell whose words are part of the requested name when the title holds the rest."""
    if not context:
        return []
    said = set(folded(context).split())
    wanted = folded(want).split()
    found = []
    for i, cell in enumerate(cells):
        words = folded(cell).split()
        if words and len(words) < len(wanted) and _within(words, wanted):
            rest = list(wanted)
            for word in words:
                rest.remove(word)
            if all(word in said or word in _LINKING_WORDS or word in ("in", "for") for word in rest):
                found.append(i)
    return found if len(found) == 1 else []


def _within(words: list[str], wanted: list[str]) -> bool:
    """Whether ``words`` stand in ``wanted`` as one run, in order."""
    return any(wanted[k : k + len(words)] == words for k in range(len(wanted) - len(words) + 1))


_IDENTIFIER_WORDS = {"number", "no", "nr", "nummer", "numero", "id", "ref", "reference"}
# Words an abbreviation of several words may leave out ("YB": year of birth).
_LINKING_WORDS = frozenset({"of", "the", "a", "an", "and", "per", "de", "der", "des", "du", "la", "le", "von"})
ABBREVIATION_LETTERS = range(2, 6)


def abbreviates(cell: str, name: str) -> bool:
    """Whether a normal-form header cell of 2–5 letters abbreviates a normal-form name: the
    initials of its words ("yb", "r t", "dob": year of birth, reaction time, date of birth), or
    for one word its first three letters or more ("fed", "desc": federation, description).
    Abbreviations that drop letters inside a word ("qty") are the synonym map's: they are too
    easily another word's ("quality")."""
    tokens = cell.split()
    letters = "".join(tokens) if len(tokens) > 1 and all(len(t) == 1 for t in tokens) else cell
    if not (letters.isalpha() and len(letters) in ABBREVIATION_LETTERS) or not name or letters == name:
        return False
    words = name.split()
    if len(words) > 1:
        content = [w for w in words if w not in _LINKING_WORDS]
        return letters in {"".join(w[0] for w in words), "".join(w[0] for w in content)}
    return len(letters) >= 3 and len(words[0]) > len(letters) + 1 and words[0].startswith(letters)


def identifier_of(name: str) -> str:
    """The thing a column identifies: "Contract ID" -> "contract"; empty when it identifies none."""
    return _identifier_stem(normalise(name))


def _identifier_stem(norm: str) -> str:
    """``delivery note number`` -> ``delivery note``; empty when the name is no identifier of a thing."""
    words = norm.split()
    return " ".join(words[:-1]) if len(words) > 1 and words[-1] in _IDENTIFIER_WORDS else ""


def _unqualified(norm: str) -> str:
    return " ".join(w for w in norm.split() if w not in _QUALIFIERS)


def is_qualifier(word: str) -> bool:
    """Whether a word says which of two amounts of one kind is meant: "net", "brutto", "HT"."""
    return normalise(word) in _QUALIFIERS


def _qualifier(norm: str) -> str | None:
    """``net`` or ``gross`` when a normal-form name says which (``bruttobetrag``, ``total ttc``)."""
    found = {_QUALIFIERS[w] for w in norm.split() if w in _QUALIFIERS}
    found |= {kind for prefix, kind in (("brutto", "gross"), ("netto", "net")) if norm.startswith(prefix)}
    return found.pop() if len(found) == 1 else None


def _bilingual(requested: str, header: list[str], context: str, translate: bool) -> list[int]:
    """"Fakturanr / Invoice no." names the invoice number in two languages: the one cell that
    writes a name with a spaced slash, one of whose names holds the requested column."""
    found = [i for i, cell in enumerate(header) if " / " in cell
             and any(any(_match_tiers(requested, [part.strip()], context, translate)) for part in cell.split(" / ") if part.strip())]
    return found if len(found) == 1 else []


def match_column(requested: str, header: list[str], context: str = "", translate: bool = True) -> int | None:
    """The index of the header cell that holds a requested column, or None.

    An exact match of the normal forms wins over a plural, a decorated cell ("Unit price
    (EUR)"), a synonym, a cell ending in the requested words, and last a cell abbreviating the
    requested name ("YB" for the year of birth), if only one does, and a cell that names the
    requested column with the table's title (``context``) saying the rest.
    """
    for tier in _match_tiers(requested, header, context, translate):
        if tier:
            return tier[0]
    return None


def read_in_translation(
    requested: list[str], header: list[str], context: str = "", mapping: dict[str, int] | None = None
) -> list[str]:
    """The requested columns ``map_columns`` places (or ``mapping``, its result the caller holds)
    only by reading a name in another language (not where it places them without): what is read
    through them is unsure (the caller says so)."""
    plain = map_columns(requested, header, context, translate=False)
    placed = map_columns(requested, header, context) if mapping is None else mapping
    return [c for c, i in placed.items() if plain.get(c) != i]


def map_columns(requested: list[str], header: list[str], context: str = "", translate: bool = True) -> dict[str, int]:
    """Requested columns mapped to distinct header cells; a column with no cell is left out.

    Better matches are assigned first, so "Item" takes ``Item`` before "Item code" could
    take it through a looser rule.
    """
    tiers = {column: _match_tiers(column, header, context, translate) for column in requested}
    mapping: dict[str, int] = {}
    used: set[int] = set()
    # a column named as its kind ("Description") takes the cell of that kind before a column that
    # is only one of the kind's names ("Item")
    order = sorted(requested, key=lambda column: _singular(normalise(column)) not in _GROUP_NAMES)
    for level in range(max((len(t) for t in tiers.values()), default=0)):
        for column in order:
            if column in mapping or level >= len(tiers[column]):
                continue  # a column named with the header it gives in brackets has that one tier
            free = [i for i in tiers[column][level] if i not in used]
            if free:
                mapping[column] = free[0]
                used.add(free[0])
    for column in requested:
        # "Article" took Artikel: "Description" is the one cell of its kind left (Bezeichnung)
        left = [i for i in synonym_cells(column, header) if i not in used
                and ((split := unit_phrase_of(column)) is None or unit_agrees(header[i], split[1]))]
        if column not in mapping and len(left) == 1 and _qualifier(normalise(header[left[0]])) in (_qualifier(normalise(column)), None):
            mapping[column] = left[0]
            used.add(left[0])
    return {column: mapping[column] for column in requested if column in mapping}


def partly_named(
    requested: str, header: list[str], taken: set[int], request: str = "", others: list[str] | None = None
) -> int | None:
    """The header cell that names a requested column only in part, for a column no better rule
    placed: the cell sharing the most of its words (a word or a shortening of one: "% DEP." for
    "% departure", "% Chg" for "% change"), half of them at least or its last words whole ("n"
    for "sample size n"); of cells alike, the one whose other words the request says ("for the
    day 10-07-2016": "Day:10-07-2016 ACTUAL (mm)") outside the ``others`` columns it asks for,
    then the one with no other words ("Overall Total" is "Total", not "Total Revenue & Capital"
    beside a requested "Capital Family Welfare"). None when no cell or more than one fit.
    What is read through it is unsure (the caller says so)."""
    wanted = [w for w in folded(without_unit(requested)).split() if w not in _JOINING]
    if not wanted:
        return None
    said = set(folded(request).split()) - {w for other in others or [] for w in folded(other).split()}
    scored: list[tuple[int, int, bool, bool, int]] = []
    for i, cell in enumerate(header):
        words = [w for w in folded(without_unit(cell)).split() if w not in _JOINING]
        if i in taken or not words:
            continue
        shared = sum(1 for w in wanted if any(_same_or_short(h, w) for h in words))
        ending = words == wanted[-len(words):] and len(words) < len(wanted)
        if _cut_off(cell, requested):
            shared = max(shared, (len(wanted) + 1) // 2)
        if shared and (2 * shared >= len(wanted) or ending):
            extra = [h for h in words if not any(_same_or_short(h, w) for w in wanted)]
            # of cells alike, the one whose words the request writes in their order ("Total Plan &
            # Non-Plan" for "total plan & non-plan amount", not "Non-Plan Total")
            in_order = f" {' '.join(words)} " in f" {' '.join(wanted)} "
            scored.append((shared, len(set(extra) & said), not extra, in_order, i))
    if not scored:
        return None
    scored.sort(reverse=True)
    best = scored[0]
    return best[4] if len(scored) == 1 or scored[1][:4] != best[:4] else None


def _cut_off(cell: str, requested: str) -> bool:
    """Whether a header cell is the start of the requested name, cut off after a joining word
    the page has no room to follow ("No. Of" over the number of employees): its words open the
    requested name, an identifier's shortening standing for "number"."""
    words = normalise(cell).split()
    if len(words) < 2 or words[-1] not in _JOINING:
        return False
    name = normalise(requested).split()
    return len(name) > len(words) and all(
        a == b or a in _IDENTIFIER_WORDS and b in _IDENTIFIER_WORDS for a, b in zip(words, name))


def _same_or_short(cell_word: str, word: str) -> bool:
    """A header's word that is the request's word, or shortens it: its first letters ("dep",
    "departure") or letters of it in order ("chg", "change"), a year's last two digits ("'16" of
    "%Chg '16 vs '90" for 2016)."""
    return cell_word == word or (len(cell_word) >= 3 and cell_word.isalpha()
                                 and (word.startswith(cell_word) or _shortened(cell_word, word))) \
        or len(cell_word) == 2 and cell_word.isdigit() and re.fullmatch(r"(?:19|20)\d\d", word) is not None and word.endswith(cell_word)


def header_holding(headers: list[list[str]], conditions: list[Condition]) -> list[str]:
    """The first (most common) of ``headers`` that holds every condition's column: the columns
    of a request that names none. A header of figures alone, or of one cell, is none."""
    usable = [[c.strip() for c in h if c.strip()] for h in headers]
    usable = [h for h in usable if len({c.casefold() for c in h}) >= 2 and not all(parse_number(c) is not None for c in h)]
    columns = [c.column for c in conditions if c.column]
    for header in usable:
        if all(match_column(column, header) is not None for column in columns):
            return header
    return []
