"""Whether a document names a term, read without a model: in its text outside its tables'
rows, a table's title or header, its title or its path; in the spellings a name takes ("Bürowelt",
"Buerowelt"; "2014-15", "2014/15"; "R&D", "R and D"; "tableau 37", "Table 37"), declined, or
as a month it is dated in."""

from __future__ import annotations

import os
import re
import unicodedata

from core.reading import DocumentText
from tools.engines.months import MONTH_PATTERN, MONTHS, dated_month, month_names, month_of
from tools.engines.numbers import parse_date
from tools.engines.offline import grammar as g
from tools.parsing.text import CAPTION, TABLE_WORDS, clean, table_lines


def name_words(text: str) -> list[str]:
    """The words of a text, a header or a path, parted at underscores too (``Price_List_2025.xlsx``)."""
    return re.findall(r"[^\W_]+", text)



def text_outside_tables(document: DocumentText) -> str:
    """The document's text without the lines its tables put into the pages."""
    in_tables = {clean(line) for table in document.tables for line in table_lines(table, title=False)}
    return "\n".join(line for page in document.pages for line in page.splitlines() if clean(line) not in in_tables)


def meets_document_conditions(document: DocumentText, terms: list[str], apart: bool = True, loose: bool = False) -> bool:
    """Whether every term occurs outside the tables' rows (a letterhead, not an item row): in
    the text, in a table's title or header (what the whole table is about: "Votes 2009"), in
    the document's title or in its path ("the Senate expenditures": ``senate-expenditures.pdf``).

    A term ``A or B`` is met by either name; a term of several words also by a path that holds
    each of them as a word of its own ("the Q2 HoReCa price list": ``Cennik_HoReCa_2025-Q2.pdf``),
    a one-word spelling by a word of the path ("O&M", spelled "OyM": ``SLA_OyM_Hotel_….md``), and
    with ``apart`` by one line of the text holding each of its words ("Manhattan South CompStat"
    over a masthead "CompStat    Manhattan South"; ``apart_notes`` says so in the rows), with
    ``loose`` by the whole text, rows too ("the California WARN report": "WARN Report" over a row
    of "Southern California Edison").
    """
    if not terms:
        return True
    own = text_outside_tables(document)
    headed = [cell for table in document.tables for cell in [*table.title, *table.header]]
    # a letterhead's labelled fields set as a table ("Name: | Lieferant GmbH") are the document's, no item rows
    headed += [cell for table in document.tables for row in table.rows if row and row[0].strip().endswith(":") for cell in row[1:]]
    text = _plain_marks("\n".join([document.path, document.title, own, *headed]).casefold())
    path_words = set(name_words(document.path.casefold()))
    lines = [set(name_words(line)) for line in text.splitlines()] if apart else []
    if loose:  # every word of the name somewhere in the document's text, its rows too (not its path)
        lines.append(set(name_words(_plain_marks("\n".join(document.pages).casefold()))))
    return all(
        _dated_in(own, text, month, document.path) if (month := month_of(term)) else
        any(_contains_word(text, spelling) or len(alternative.split()) > 1 and set(spelling.split()) <= path_words
            or " " not in spelling and spelling in path_words or _declined_in(text, spelling)
            or len(alternative.split()) > 1 and any(set(name_words(spelling)) <= words for words in lines)
            for alternative in re.split(r"\s+or\s+", term) for spelling in _spellings(alternative))
        for term in terms
    )


def apart_notes(document: DocumentText, terms: list[str]) -> list[str]:
    """Why a document's rows are unsure when it names a term only word by word (on a line, or
    anywhere in its text)."""
    return [f"the document names {term!r} only word by word" for term in terms
            if not meets_document_conditions(document, [term], apart=False)
            and meets_document_conditions(document, [term], loose=True)]


def _declined_in(text: str, name: str) -> bool:
    """Whether a name of several words stands in the text in another case: "od Mleczarni
    Kaszubskiej" (from) names "Mleczarnia Kaszubska". Each word keeps a stem of five letters or
    more and differs only in an ending of at most three letters."""
    wanted = name.split()
    if len(wanted) < 2 or not all(w.isalpha() for w in wanted):
        return False
    words = re.findall(r"[^\W\d_]+", text)
    return any(
        all(_declined(a, b) for a, b in zip(wanted, words[k : k + len(wanted)]))
        for k in range(len(words) - len(wanted) + 1)
        if words[k][:5] == wanted[0][:5]
    )


def _declined(a: str, b: str) -> bool:
    stem = len(os.path.commonprefix([a, b]))
    return a == b or stem >= 5 and len(a) - stem <= 3 and len(b) - stem <= 3


_TRANSLITERATION = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss", "æ": "ae", "ø": "oe", "å": "aa"})
_DASHES = str.maketrans({dash: "-" for dash in "‐‑‒–—−"})
_MARKS = re.compile(r"[¹²³⁴⁵⁶⁷⁸⁹⁰*†‡]+")


def _plain_marks(text: str) -> str:
    """Text with every dash a hyphen and no footnote marks: "Table S–4", "Category¹"."""
    return _MARKS.sub(" ", text.translate(_DASHES))


def _spellings(term: str) -> set[str]:
    """A name as it may stand in a path or a plain-ASCII text: "Bürowelt", "Burowelt", "Buerowelt";
    a span of two years in each way it is written: "2014-15", "2014-2015", "2014/15"."""
    low = _plain_marks(term.casefold()).strip()
    bare = "".join(ch for ch in unicodedata.normalize("NFKD", low) if not unicodedata.combining(ch))
    return {low, bare, low.translate(_TRANSLITERATION), *_year_spans(low), *_ampersands(low), *_captions(low),
            *_date_spellings(low)}


def _date_spellings(term: str) -> set[str]:
    """A date as documents and paths print it: "feb 24, 2017" is also "2017-02-24", "24.02.2017",
    "february 24, 2017" and "24 february 2017". Nothing for a term that is no date."""
    day = parse_date(term)
    if day is None:
        return set()
    names = {day.strftime("%B").casefold(), day.strftime("%b").casefold()}
    # (not "03/04/2024": a slashed date reads as either day first, so it names no day for sure)
    return {day.isoformat(), f"{day:%d.%m.%Y}", f"{day.day}.{day.month}.{day.year}",
            day.isoformat().replace("-", "_"), *(f"{name} {day.day}, {day.year}" for name in names),
            *(f"{day.day} {name} {day.year}" for name in names)}


def _captions(term: str) -> set[str]:
    """"tableau 37" as any language names a table's number: "table 37", "tabelle 37", …"""
    found = CAPTION.fullmatch(term)
    return {f"{word} {found.group(1)}" for word in TABLE_WORDS.split()} if found else set()


_AND = ("and", "und", "et", "en", "y", "e", "i")  # "&" written out in English, German, French, Dutch, Spanish, Italian, Polish


def _ampersands(term: str) -> set[str]:
    """A name with "&" as each language writes it out: "R&D" is "R and D", "O&M" "O y M"; an
    acronym of two letters also as Spanish joins them ("OyM", "IyD"). Nothing for a name
    without one."""
    if "&" not in term:
        return set()
    spelled = {" ".join(re.sub(r"\s*&\s*", f" {c} ", term).split()) for c in _AND}
    return spelled | ({term.replace("&", "y")} if re.fullmatch(r"\w&\w", term) else set())


YEAR_SPAN = re.compile(r"((?:19|20)\d\d)\s*[-/]\s*((?:19|20)?\d\d)")


def _year_spans(term: str) -> set[str]:
    """The ways of writing a span of years: two following years ("2014-15") short and long, with a
    hyphen or a slash; any span also in words ("1967-2013" is printed "1967 to 2013"). Nothing
    for any other term."""
    match = YEAR_SPAN.fullmatch(term)
    if match is None:
        return set()
    first, second = int(match.group(1)), match.group(2)
    last = int(second) if len(second) == 4 else first // 100 * 100 + int(second)
    if last <= first:
        return set()
    spelled = {f"{first} {word} {last}" for word in g.SPAN_WORDS} | {f"{first} - {last}"}
    if last != first + 1:
        return spelled
    return spelled | {f"{first}{sign}{end}" for sign in "-/" for end in (f"{last % 100:02d}", str(last))}



def _dated_in(own: str, text: str, month: int, path: str) -> bool:
    """Whether a document is dated in ``month`` ("in August"): its own text's first date is
    ("Datum: 04.08.2025"), or its title, headings or text name the month with a year ("November
    2015", "15 juillet 2025"), never the word alone ("returned within 14 days, may …"). A first
    line that names a month of a year says the document's own month, whatever dates follow; else
    a year and month its path holds ("Timesheets/2025-05/…") do."""
    headline = next((line for line in own.splitlines() if line.strip()), "")
    named = [m for m in range(1, 13) if _names_month_of_year(headline, m)]
    if named:
        return month in named  # "Travel Expense Report - April 2025", submitted on 02/05/2025: April's
    in_path = path_months(path)
    if in_path:
        return month in in_path
    own_month = dated_month(own)
    if own_month == month:
        return True
    if own_month is None and month in path_months(path, quarters=True):
        return True  # "…_Q2-2024.txt" with no date of its own: a month of its quarter
    return _names_month_of_year(text, month)


_PATH_MONTH = re.compile(r"(?<!\d)(?:19|20)\d\d[-_.](0[1-9]|1[0-2])(?!\d)")  # "2025-05", "2025_05_31"
# "2023-Jan-economic-outlook", "Report_March_2024": a month's name beside a year
_PATH_MONTH_NAME = re.compile(
    rf"(?<![^\W\d_])(?:(?:19|20)\d\d[-_. ]({MONTH_PATTERN})(?![^\W\d_])|({MONTH_PATTERN})[-_. ]?(?:19|20)\d\d(?![^\W_]))", re.IGNORECASE)
# "Zendingsoverzicht_Q2-2024", "2024_Q3": a quarter of a year, its three months
_PATH_QUARTER = re.compile(r"(?<![^\W\d_])(?:[Qq]([1-4])[-_. ]?(?:19|20)\d\d|(?:19|20)\d\d[-_. ]?[Qq]([1-4]))(?![^\W_])")


def path_months(path: str, quarters: bool = False) -> set[int]:
    """The months a document's path dates it in: a year and month in figures ("2025-05") or a
    month's name beside a year ("2023-Jan-…"); with ``quarters``, the months of a quarter of a
    year ("Q2-2024": April to June), which only narrow a date the document does not print."""
    found = {int(m) for m in _PATH_MONTH.findall(path)}
    found |= {MONTHS[(a or b).casefold()] for a, b in _PATH_MONTH_NAME.findall(path)}
    for a, b in _PATH_QUARTER.findall(path) if quarters else []:
        first = 3 * (int(a or b) - 1) + 1
        found |= {first, first + 1, first + 2}
    return found


def _names_month_of_year(text: str, month: int) -> bool:
    """Whether a text names ``month`` with a year ("November 2015", "15 juillet 2025")."""
    names = "|".join(re.escape(name) for name in month_names(month))
    return re.search(rf"(?<!\w)(?:{names})\.?,?\s*[-–/]?\s*(?:\d{{1,2}},?\s+)?(?:19|20)\d\d(?!\d)", text, re.IGNORECASE) is not None


def failed_condition(term: str) -> str:
    """What a document that fails the document condition ``term`` does not do, in words."""
    return f"it is not dated in {term}" if month_of(term) else f"it does not name {term}"


def _contains_word(text: str, term: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(term)}(?!\w)", text) is not None

