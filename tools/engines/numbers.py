"""Numbers as documents write them, and literal comparisons between a cell and a value.

Documents mix notations: German ``1.249,00``, English ``1,249.00``, a plain ``1249``, a
currency before or after (``EUR 500,000``, ``250.000 EUR``, ``€ 12,50``), and requests
say ``1 million`` or ``one million``. ``parse_number`` reads all of them into one float;
anything else (a date, a sentence around a number) is not a number and gives ``None``.
"""

from __future__ import annotations

import re
import unicodedata

_CURRENCY = re.compile(
    r"\b(?:eur|euros?|usd|gbp|chf|sek|nok|dkk|pln|czk|jpy|krw|cny|dollars?|pounds?)\b|[€$£¥₩원]",
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
    """Whether a cell meets ``op value``; None when it cannot be decided (not a number)."""
    if op in ("lt", "le", "gt", "ge"):
        cell, value = parse_number(cell_text), parse_number(value_text)
        if cell is None or value is None:
            return None
        return {"lt": cell < value, "le": cell <= value, "gt": cell > value, "ge": cell >= value}[op]
    if op == "equals":
        if _plain(cell_text) == _plain(value_text):
            return True
        cell, value = parse_number(cell_text), parse_number(value_text)
        return cell is not None and value is not None and cell == value
    if op == "contains":
        return _plain(value_text) in _plain(cell_text)
    return None
