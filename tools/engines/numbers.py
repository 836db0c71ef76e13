"""Numbers as documents write them, and literal comparisons between a cell and a value.

Documents mix notations: German ``1.249,00``, English ``1,249.00``, a plain ``1249``, a
currency before or after (``EUR 500,000``, ``250.000 EUR``, ``€ 12,50``), and requests
say ``1 million`` or ``one million``. ``parse_number`` reads all of them into one float;
anything else (a date, a sentence around a number) is not a number and gives ``None``.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import date, timedelta

from tools.engines.months import MONTH_PATTERN, MONTHS

_CURRENCY = re.compile(
    r"\b(?:eur|euros?|usd|gbp|chf|sek|nok|dkk|pln|czk|jpy|krw|cny|dollars?|pounds?)\b|zł|[€$£¥₩원]",
    re.IGNORECASE,
)
# Counted things: "12 pcs", "5 Stk." — the unit does not change the number.
_UNIT = re.compile(r"\s*\b(?:pcs|pc|pieces?|stk|stück|units?|ea|x)\.?$", re.IGNORECASE)

_SCALE_WORDS = {
    1e3: "k thousand thousands tsd tausend",
    1e6: "m mn mio million millions millionen",
    1e9: "b bn billion billions mrd milliarde milliarden",
}
_SCALES = {word: scale for scale, words in _SCALE_WORDS.items() for word in words.split()}
_UNITS = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
_TEENS = [
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
_TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
_WORD_VALUES = {
    "a": 1,
    "an": 1,
    **{word: n for n, word in enumerate(_UNITS, start=1)},
    **{word: n for n, word in enumerate(_TEENS, start=10)},
    **{word: 10 * n for n, word in enumerate(_TENS, start=2)},
}

_DIGITS = re.compile(r"\d[\d.,]*")
_SPACED_THOUSANDS = re.compile(r"\d{1,3}(?: \d{3})+(?:[.,]\d+)?")
_NUMBER_THEN_SCALE = re.compile(r"(?P<num>\d[\d.,' ]*?)(?P<space>\s*)(?P<scale>[a-zäü]+)?")
# "1.5m" and "500k" are amounts; "5 m" is more likely a length than five million.
_LETTER_SCALES = {"k", "m", "b"}


def parse_number(text: str | None) -> float | None:
    """The number a cell or a request writes, in any common notation; None if it is not one."""
    if text is None:
        return None
    s = unicodedata.normalize("NFKC", text).replace("\u2212", "-").replace("\u00a0", " ")
    s = _CURRENCY.sub(" ", s).strip().lower()
    s = re.sub(r"^\u2013(?=\d)", "-", s)  # "–38": typeset tables print a minus as an en dash before the figure
    s = re.sub(r"[.,]-$", "", s)  # "500,-": whole currency units
    s = _UNIT.sub("", s).strip().rstrip(".").strip()
    sign, s = _split_sign(s)
    if not s:
        return None
    value = _parse_digits_and_scale(s)
    if value is None:
        value = _parse_words(s)
    return None if value is None else sign * value


def _split_sign(s: str) -> tuple[int, str]:
    """A leading or trailing minus, or accounting parentheses, as a sign."""
    if s.startswith("(") and s.endswith(")"):
        return -1, s[1:-1].strip()
    if s.startswith("-"):
        return -1, s[1:].strip()
    if s.endswith("-"):
        return -1, s[:-1].strip()
    if s.startswith("+"):
        return 1, s[1:].strip()
    return 1, s


def _parse_digits_and_scale(s: str) -> float | None:
    """``1.249,00``, ``1,249.00``, ``250.000``, ``1 000 000``, ``1.5m``, ``2 Mio``."""
    match = _NUMBER_THEN_SCALE.fullmatch(s)
    if not match:
        return None
    value = _parse_digits(match.group("num").strip())
    scale = match.group("scale")
    if value is None or (scale and scale not in _SCALES):
        return None
    if scale in _LETTER_SCALES and match.group("space"):
        return None
    return value * _SCALES[scale] if scale else value


def _parse_digits(s: str) -> float | None:
    s = s.replace("'", "")
    if " " in s:
        if not _SPACED_THOUSANDS.fullmatch(s):
            return None
        s = s.replace(" ", "")
    if not _DIGITS.fullmatch(s) or s[-1] in ".,":
        return None
    dots, commas = s.count("."), s.count(",")
    if dots and commas:
        decimal = "." if s.rfind(".") > s.rfind(",") else ","
        thousands = "," if decimal == "." else "."
        if s.count(decimal) > 1:
            return None
        whole, fraction = s.split(decimal)
        if not re.fullmatch(r"\d{1,3}(?:" + re.escape(thousands) + r"\d{3})*", whole):
            return None
        return float(whole.replace(thousands, "") + "." + fraction)
    separator = "." if dots else "," if commas else None
    if separator is None:
        return float(s)
    parts = s.split(separator)
    if len(parts) > 2:
        if len(parts[0]) > 3 or any(len(p) != 3 for p in parts[1:]):
            return None
        return float("".join(parts))
    whole, fraction = parts
    # A separator followed by exactly three digits groups thousands ("250.000", "1,249"),
    # unless the whole part is zero ("0.125").
    if len(fraction) == 3 and not whole.startswith("0"):
        return float(whole + fraction)
    return float(whole + "." + fraction)


def _parse_words(s: str) -> float | None:
    """``one million``, ``twenty five thousand``, ``a million``; None for anything else."""
    words = [w for w in re.split(r"[\s-]+", s) if w and w != "and"]
    if not words:
        return None
    total, current, seen = 0.0, 0.0, False
    for word in words:
        if word in _WORD_VALUES:
            current += _WORD_VALUES[word]
            seen = True
        elif word == "hundred" and seen:
            current = (current or 1) * 100
        elif word in _SCALES and len(word) > 2 and seen:
            total += (current or 1) * _SCALES[word]
            current = 0.0
        else:
            return None
    return total + current if seen else None


def _plain(text: str) -> str:
    """Text compared for equality: case-folded, spaces collapsed, outer quotes and dots dropped."""
    return " ".join(text.casefold().split()).strip("'\"‘’“”").rstrip(".").strip()


def compare(op: str, cell_text: str, value_text: str) -> bool | None:
    """Whether a cell meets ``op value``; None when it cannot be decided (not a number, not a date).

    Amounts compare by number whatever their notation ("EUR 2.500" and "2,500.00"), with a unit
    ("100 kg") only against the same unit; dates ("30.06.2024", "2024-06-30") compare as dates.
    A cell is read whole and in its parts (``cell_readings``): it is False only when it is false
    under every reading. "P1 (Critical)" and "Prio 1 – kritisch" equal priority 1; a cell that
    holds the value only as one of its parts leaves "not" undecided, and a part that meets a
    comparison while another does not leaves it undecided too.
    A value of alternatives ("Fuel or Travel") is met by a cell that equals one of them.
    """
    if op == "contains":  # "sensor or display": the cell holds one of them
        return any(_plain(v) in _plain(cell_text) for v in value_text.split(" or ") if v.strip())
    if op == "starts":  # "a CUIT starting with 23-": the cell opens with one of them
        return any(_plain(cell_text).startswith(_plain(v)) for v in value_text.split(" or ") if v.strip())
    alternatives = [v for v in value_text.split(" or ") if v.strip()] if op in ("equals", "not") else []
    if len(alternatives) > 1 and not _equal(cell_text, value_text):
        # "Fuel or Travel": the cell is one of them
        met = [compare("equals", cell_text, v) for v in alternatives]
        one = True if True in met else None if None in met else False
        return one if op == "equals" or one is None else not one
    if op in ("equals", "not") and (month := MONTHS.get(value_text.strip().casefold())) is not None:
        # "in March": a date or a month of a year ("2024-03", "12.03.2024") in that month
        found = month_of_cell(cell_text)
        if found is not None:
            return (found == month) == (op == "equals")
    if op in ("equals", "not") and (span := period_range(value_text)) is not None:
        # "in March 2024", "in 2024": a date or a month of a year within it
        day = parse_date(cell_text) or _first_of_month(cell_text)
        if day is not None:
            return (span[0] <= day <= span[1]) == (op == "equals")
    if op in ("equals", "not"):
        if _equal(cell_text, value_text):
            whole: bool | None = True
        elif any(_equal(c, v) for c in cell_readings(cell_text) for v in _value_readings(value_text)):
            whole = None  # equal under a reading of its parts
        else:
            whole = False
        if op == "equals":
            return whole is not False
        return None if whole is None else not whole
    if op in ("lt", "le", "gt", "ge"):
        whole = _order(op, cell_text, value_text)
        if whole is not None:
            return whole
        parts = {_order(op, part, value_text) for part in cell_readings(cell_text)[1:]} - {None}
        return parts.pop() if len(parts) == 1 else None
    return None


def _value_readings(text: str) -> list[str]:
    """A request's value read whole, and by the one number that names it ("priority 1" is 1); a
    value of several parts ("Gdańsk – Warszawa") is only read whole: one of its parts is another value."""
    readings = cell_readings(text)
    if len([p for p in _PART_BREAK.split(text) if p and p.strip()]) > 1:
        return [text]
    return readings


def _equal(cell_text: str, value_text: str) -> bool:
    if _plain(cell_text) == _plain(value_text) or _PERCENT_SPACE.sub("%", _plain(cell_text)) == _PERCENT_SPACE.sub("%", _plain(value_text)):
        return True  # "19 %" is "19%"
    cell, value = parse_number(cell_text), parse_number(value_text)
    return cell is not None and value is not None and cell == value


def _order(op: str, cell_text: str, value_text: str) -> bool | None:
    span = period_range(value_text)
    day = parse_date(cell_text) if span is not None else None
    if day is not None and span is not None:
        # "before April 2026", "before 2024": before its first day; "after April 2026": after its last
        first, last = span
        return {"lt": day < first, "le": day <= last, "gt": day > last, "ge": day >= first}[op]
    if month_range(value_text) is not None:
        return None  # a month compared with what is no date
    cell, value = _comparable(cell_text), _comparable(value_text)
    if cell is None or value is None or type(cell) is not type(value):
        return None
    if isinstance(cell, tuple) and isinstance(value, tuple) and cell[1] != value[1] and cell[1] and value[1]:
        return None  # 100 kg against 100 t
    a, b = (cell[0], value[0]) if isinstance(cell, tuple) else (cell, value)  # type: ignore[index]
    return {"lt": a < b, "le": a <= b, "gt": a > b, "ge": a >= b}[op]  # type: ignore[operator]


# Where a cell's parts divide: brackets, a dash or slash between spaces, an en or em dash, a
# comma, semicolon or colon before a space.
_PART_BREAK = re.compile(r"\s*[()\[\]]\s*|\s+[-/|]\s+|\s*[–—]\s*|[,;:]\s+")
_NUMBER_IN = re.compile(r"\d+(?:[.,]\d+)*")


_PERCENT_SPACE = re.compile(r"(?<=\d)\s+%")
_LEADING_RATE = re.compile(r"(-?\d+(?:[.,]\d+)?\s*%)\s+[^\W\d_]")  # "19 % VAT", "7% MwSt."


def cell_readings(text: str) -> list[str]:
    """The ways a cell can be read, the whole cell first: each part between brackets, dashes and
    commas ("P1 (Critical)": "P1", "Critical"), the rate a part opens with ("19 % VAT": "19 %"),
    and the one number of a part that names it among words ("P1", "Prio 1", "Priority 1": "1").
    A part with two numbers ("1 x 12") gives none."""
    readings = [text]
    parts = [p.strip() for p in _PART_BREAK.split(text) if p and p.strip()]
    for part in parts if len(parts) > 1 else [text]:
        if part != text:
            readings.append(part)
        numbers = _NUMBER_IN.findall(part)
        if (rate := _LEADING_RATE.match(part)) is not None:
            readings.append(rate.group(1))  # "19 % VAT (S)": the rate it names
        if len(numbers) == 1 and numbers[0] != part and re.fullmatch(r"[^\W\d_]*\.?\s*" + re.escape(numbers[0]) + r"|"
                                                                      + re.escape(numbers[0]) + r"\s*[^\W\d_]*\.?", part):
            readings.append(numbers[0])
    return list(dict.fromkeys(readings))


# a time of day after the date (a spreadsheet's date-and-time cell, "2025-02-01 0:00:00") is no
# part of the day
_DATE = re.compile(
    r"(?:(?P<d>\d{1,2})[./](?P<m>\d{1,2})[./](?P<y>\d{4})|(?P<Y>\d{4})-(?P<M>\d{1,2})-(?P<D>\d{1,2}))"
    r"(?:[ T]\d{1,2}:\d{2}(?::\d{2})?)?"
)
# "Jan 26, 2025", "January 26 2025"; "26 January 2025", "7. Mai 2014", "26 de enero de 2025"
WRITTEN_DATE = re.compile(
    rf"(?P<name>{MONTH_PATTERN})\.?\s+(?P<day>\d{{1,2}})(?:st|nd|rd|th)?,?\s+(?P<year>(?:19|20)\d\d)"
    rf"|(?P<day2>\d{{1,2}})(?:st|nd|rd|th|\.)?\s+(?:of\s+|de\s+)?(?P<name2>{MONTH_PATTERN})\.?,?\s+(?:de\s+)?(?P<year2>(?:19|20)\d\d)",
    re.IGNORECASE,
)


def _written_date(text: str) -> date | None:
    found = WRITTEN_DATE.fullmatch(text.strip())
    if found is None:
        return None
    name, day, year = (found.group("name"), found.group("day"), found.group("year")) if found.group("name") else (
        found.group("name2"), found.group("day2"), found.group("year2"))
    try:
        return date(int(year), MONTHS[name.casefold()], int(day))
    except ValueError:
        return None


_TRAILING_UNIT = re.compile(
    r"^(?P<number>.*?\d)\s*(?P<unit>°\s?[CF]?|[℃℉]|[^\W\d_]{1,10}\.?|[%²³]+|[^\W\d_]{1,3}/[^\W\d_]{1,6}[²³]?)$"
)  # "100 kg", "20 °C", "1 mm/year", "90 km/h"


def has_currency(text: str) -> bool:
    """Whether a value names a currency ("5 000 PLN", "€ 12,50", "20 zł")."""
    return _CURRENCY.search(text) is not None


def is_amount(text: str) -> bool:
    """Whether a request's value can be compared: a number, a number with a unit, a date, or a
    month of a year ("April 2026")."""
    return _comparable(text) is not None or month_range(text) is not None


_MONTH_YEAR = re.compile(r"(?P<name>[^\W\d_]+)\.?\s+(?P<year>\d{4})")


_YEAR_MONTH = re.compile(r"(?P<y>(?:19|20)\d\d)-(?P<m>\d{1,2})|(?P<n>\d{1,2})/(?P<Y>(?:19|20)\d\d)")


def month_of_cell(text: str) -> int | None:
    """The month a cell holding a date or a month of a year stands for; None for anything else."""
    day = parse_date(text) or _first_of_month(text)
    return day.month if day is not None else None


def _first_of_month(text: str) -> date | None:
    """A month of a year ("2024-03", "3/2024", "Jan 2025") as its first day; None for anything else."""
    found = _YEAR_MONTH.fullmatch(text.strip())
    if found is None:
        named = month_range(text)  # "Jan 2025", "März 2025"
        return named[0] if named is not None else None
    month = int(found.group("m") or found.group("n"))
    return date(int(found.group("y") or found.group("Y")), month, 1) if 1 <= month <= 12 else None


def period_range(text: str) -> tuple[date, date] | None:
    """The first and last day of a month with its year ("April 2026"), a quarter or a half of a
    year ("Q1 2025", "H2 2024") or a year ("2024")."""
    if re.fullmatch(r"(?:19|20)\d\d", text.strip()):
        year = int(text.strip())
        return date(year, 1, 1), date(year, 12, 31)
    if part := _PART_OF_YEAR.fullmatch(text.strip()):
        months = 3 if part.group("kind").casefold() == "q" else 6
        year, first = int(part.group("year")), (int(part.group("n")) - 1) * months + 1
        if first + months - 1 > 12:
            return None
        following = date(year + 1, 1, 1) if first + months > 12 else date(year, first + months, 1)
        return date(year, first, 1), following - timedelta(days=1)
    return month_range(text)


_PART_OF_YEAR = re.compile(r"(?P<kind>[QqHh])(?P<n>[1-4])\s+(?P<year>(?:19|20)\d\d)")


def month_range(text: str) -> tuple[date, date] | None:
    """The first and last day of a month written with its year: "April 2026", "juillet 2025"."""
    found = _MONTH_YEAR.fullmatch(text.strip())
    number = MONTHS.get(found.group("name").casefold()) if found else None
    if found is None or number is None:
        return None
    year = int(found.group("year"))
    following = date(year + 1, 1, 1) if number == 12 else date(year, number + 1, 1)
    return date(year, number, 1), following - timedelta(days=1)


def parse_date(text: str) -> date | None:
    """``30.06.2024``, ``30/06/2024`` (day first) or ``2024-06-30``, maybe with a time after it,
    or a date with its month's name: "Jan 26, 2025", "26 January 2025", "7. Mai 2014", "26 de
    enero de 2025"; None for anything else."""
    match = _DATE.fullmatch(text.strip())
    if not match:
        return _written_date(text)
    y, m, d = (match.group("y"), match.group("m"), match.group("d")) if match.group("y") else (
        match.group("Y"), match.group("M"), match.group("D"))
    try:
        return date(int(y), int(m), int(d))
    except ValueError:
        return None


_PER_CENT = re.compile(r"\s*\b(?:per\s?cent|prozent|pour\s?cent|procent)\b", re.IGNORECASE)


def _comparable(text: str) -> tuple[float, str] | date | None:
    """A cell or a value as something to compare: a date, or a number with its unit ("" for none)."""
    text = _PER_CENT.sub(" %", text)  # "60 per cent", "60 Prozent": 60 %
    found = parse_date(text)
    if found is not None:
        return found
    number = parse_number(text)
    if number is not None:
        return number, ""
    unit = _TRAILING_UNIT.match(text.strip())
    if unit:
        number = parse_number(unit.group("number"))
        if number is not None:
            return number, unit.group("unit").casefold().rstrip(".")
    return None