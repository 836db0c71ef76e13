"""A spreadsheet cell's value as the spreadsheet shows it, by the cell's number format code.

``display(value, code, marks)`` renders a stored value (a number, a date, a time, a duration)
with a format code the way a spreadsheet application does: date and time codes (``DD.MM.YYYY``,
``d/m/yy``, ``mmm``, ``hh:mm``, ``[h]:mm``), fixed decimals and thousands grouping (``#,##0.00``,
``0.00``, ``0%``, ``0.00E+00``), literals and currency tags (``"EUR "``, ``\\€``,
``[$€-407]``), sections for negative numbers and zero (``;``) and ``General`` (no ``.0`` on
integers, no float noise: at most 15 significant digits, as the application keeps).

A format code carries no locale of its own: ``#,##0.00`` shows ``1,689.00`` to an English
reader and ``1.689,00`` to a German one. The marks come from, in this order:

1. a locale tag in the cell's code (``[$-407]``, ``[$€-de-DE]``);
2. the workbook: ``workbook_marks`` reads the tags of all its codes, and else the notation its
   own text writes numbers and dates in (``0,30 €`` or ``Stand: 30.06.2025`` are European;
   ``€0.30`` or ``1,250.00`` are English), whichever it shows more. A ``DD.MM.YYYY`` date code
   is no such sign: its dots are the code's own, shown alike to every reader, and English
   sheets use it too (an English invoice dated ``12.03.2024`` shows ``18.75``);
3. otherwise the code's own notation (``.`` decimal, ``,`` grouping), which every number reader
   of Kea reads unambiguously when there are decimals; the locale's short date (built-in
   ``mm-dd-yy``) is then given as ISO ``yyyy-mm-dd``.

Written here rather than taken from a package: the one maintained-looking Python port of a
format engine pulls in Babel, pytz, calendars and YAML for the locale data, and this needs only
the separators of a locale and the month names of two languages.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, localcontext


@dataclass(frozen=True)
class Marks:
    """The decimal mark and the thousands separator a reader sees, and the locale's date order."""

    decimal: str
    group: str
    short_date: str  # the code the locale's short date (built-in format 14) shows


ENGLISH = Marks(".", ",", "m/d/yyyy")
EUROPEAN = Marks(",", ".", "dd.mm.yyyy")
# no locale known: the code's own notation, and an unambiguous ISO date
CODE = Marks(".", ",", "yyyy-mm-dd")

_NBSP = "\u00a0"
_SWISS = Marks(".", "'", "dd.mm.yyyy")
# decimal mark, grouping and short date of a locale's language (Windows defaults)
_LANGUAGES = {
    "en": ENGLISH,
    "de": EUROPEAN,
    "nl": Marks(",", ".", "d-m-yyyy"),
    "it": Marks(",", ".", "dd/mm/yyyy"),
    "es": Marks(",", ".", "dd/mm/yyyy"),
    "pt": Marks(",", ".", "dd/mm/yyyy"),
    "da": Marks(",", ".", "dd-mm-yyyy"),
    "tr": Marks(",", ".", "dd.mm.yyyy"),
    "fr": Marks(",", _NBSP, "dd/mm/yyyy"),
    "sv": Marks(",", _NBSP, "yyyy-mm-dd"),
    "nb": Marks(",", _NBSP, "dd.mm.yyyy"),
    "no": Marks(",", _NBSP, "dd.mm.yyyy"),
    "fi": Marks(",", _NBSP, "d.m.yyyy"),
    "pl": Marks(",", _NBSP, "dd.mm.yyyy"),
    "cs": Marks(",", _NBSP, "dd.mm.yyyy"),
    "ru": Marks(",", _NBSP, "dd.mm.yyyy"),
    "ja": Marks(".", ",", "yyyy/mm/dd"),
    "zh": Marks(".", ",", "yyyy/m/d"),
    "ko": Marks(".", ",", "yyyy-mm-dd"),
}
# Windows primary language ids (the low ten bits of an LCID) of the languages above
_LCID_LANGUAGES = {
    0x09: "en", 0x07: "de", 0x13: "nl", 0x10: "it", 0x0A: "es", 0x16: "pt", 0x06: "da", 0x1F: "tr",
    0x0C: "fr", 0x1D: "sv", 0x14: "nb", 0x0B: "fi", 0x15: "pl", 0x05: "cs", 0x19: "ru", 0x11: "ja",
    0x04: "zh", 0x12: "ko",
}
_SWISS_LCIDS = {0x0807, 0x1407, 0x100C, 0x0810}  # de-CH, de-LI, fr-CH, it-CH
_GB_LCIDS = {0x0809, 0x0C09, 0x1409, 0x1809}  # en-GB, en-AU, en-NZ, en-IE: day first

_MONTHS = {
    "en": "January February March April May June July August September October November December".split(),
    "de": "Januar Februar März April Mai Juni Juli August September Oktober November Dezember".split(),
}
_DAYS = {
    "en": "Monday Tuesday Wednesday Thursday Friday Saturday Sunday".split(),
    "de": "Montag Dienstag Mittwoch Donnerstag Freitag Samstag Sonntag".split(),
}


def _language_marks(language: str, region: str = "") -> Marks | None:
    if region.upper() in {"CH", "LI"} and language in {"de", "fr", "it"}:
        return _SWISS
    if language == "en" and region.upper() in {"GB", "AU", "NZ", "IE"}:
        return Marks(".", ",", "dd/mm/yyyy")
    return _LANGUAGES.get(language)


_TAG = re.compile(r"\[\$([^\]-]*)-([0-9A-Za-z-]+)\]")


def _tag_locale(code: str) -> tuple[Marks | None, str]:
    """The marks and the language of the first locale tag in ``code`` (None, "" without one)."""
    for match in _TAG.finditer(code):
        tag = match.group(2)
        if re.fullmatch(r"[0-9A-Fa-f]{1,8}", tag):
            lcid = int(tag, 16) & 0xFFFF
            if lcid in _SWISS_LCIDS:
                return _SWISS, _LCID_LANGUAGES.get(lcid & 0x3FF, "")
            if lcid in _GB_LCIDS:
                return Marks(".", ",", "dd/mm/yyyy"), "en"
            language = _LCID_LANGUAGES.get(lcid & 0x3FF, "")
        else:
            language, _, region = tag.partition("-")
            language = language.lower()
            marks = _language_marks(language, region)
            if marks is not None:
                return marks, language
        if language in _LANGUAGES:
            return _LANGUAGES[language], language
    return None, ""


# --- what the workbook itself shows ---------------------------------------------------------

_TOKEN = re.compile(r"(?<![\w.,])\d+(?:[.,]\d+)+(?![\d.,]*\d)")  # a figure glued to a word ("Vodacom4,5": its notes) is none


_EUROPEAN_SHAPES = re.compile(r"\d{1,3}(?:\.\d{3})+(?:,\d+)?|\d+,\d+|\d{1,2}\.\d{1,2}\.(?:\d{4}|\d{2})")
_ENGLISH_SHAPES = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+\.\d+")
_EITHER = re.compile(r"[1-9]\d{0,2}[.,]\d{3}")  # 1.234 or 1,234: read alike in neither notation


def _token_notation(token: str) -> str | None:
    """'european' for ``1.234,50``, ``0,30``, ``1.234.567`` or a dotted date ``30.06.2025``;
    'english' for ``1,234.50``, ``0.30``, ``1,234,567``; None for anything else (``1.234``,
    a version ``1.2.3``, an address ``10.0.0.1``)."""
    if _EITHER.fullmatch(token):
        return None
    if _EUROPEAN_SHAPES.fullmatch(token):
        return "european"
    if _ENGLISH_SHAPES.fullmatch(token):
        return "english"
    return None


def workbook_marks(codes: Iterable[str], texts: Iterable[str]) -> Marks | None:
    """The marks a workbook's untagged cells are shown with, or None when it does not tell.

    ``codes`` are the format codes of its value cells, ``texts`` its text cells. The locale tags
    of its codes decide when they agree; else the notation its text writes numbers and dates in
    (and a day.month.year date code): the one it shows more often, None on a tie.
    """
    codes = list(codes)
    tagged = {marks for marks in (_tag_locale(code)[0] for code in codes) if marks is not None}
    if len(tagged) == 1:
        return next(iter(tagged))
    if tagged:
        return None
    seen: Counter[str] = Counter()
    for text in texts:
        for token in _TOKEN.findall(text):
            notation = _token_notation(token)
            if notation:
                seen[notation] += 1
    if seen["european"] == seen["english"]:
        return None
    return EUROPEAN if seen["european"] > seen["english"] else ENGLISH


# --- the format code ------------------------------------------------------------------------


def _strip_literals(code: str) -> str:
    return re.sub(r'"[^"]*"|\\.|\[[^\]]*\]', "", code)


def _sections(code: str) -> list[str]:
    """The code's sections, split at ``;`` outside quotes and brackets."""
    out, current, quoted, bracket, escaped = [], [], False, False, False
    for ch in code:
        if escaped:
            current.append(ch)
            escaped = False
            continue
        if ch == "\\" and not quoted:
            escaped = True
        elif ch == '"':
            quoted = not quoted
        elif ch == "[" and not quoted:
            bracket = True
        elif ch == "]" and not quoted:
            bracket = False
        elif ch == ";" and not quoted and not bracket:
            out.append("".join(current))
            current = []
            continue
        current.append(ch)
    out.append("".join(current))
    return out


def is_date_code(code: str) -> bool:
    section = _sections(code)[0]
    if section.strip().lower() == "general":
        return False
    return bool(re.search(r"[ydhsYDHS]|m", _strip_literals(section).replace("General", ""), re.IGNORECASE)
                or re.search(r"\[(?:h+|m+|s+)\]", section, re.IGNORECASE))


def _tokens(section: str) -> list[tuple[str, str]]:
    """(kind, text): 'lit' for text shown as is, 'code' for a format character."""
    out: list[tuple[str, str]] = []
    i = 0
    while i < len(section):
        ch = section[i]
        if ch == '"':
            end = section.find('"', i + 1)
            end = len(section) if end < 0 else end
            out.append(("lit", section[i + 1 : end]))
            i = end + 1
        elif ch == "\\" and i + 1 < len(section):
            out.append(("lit", section[i + 1]))
            i += 2
        elif ch in "_*" and i + 1 < len(section):
            i += 2  # padding to a character's width, a fill: blank in the text
        elif ch == "[":
            end = section.find("]", i)
            end = len(section) if end < 0 else end
            inner = section[i + 1 : end]
            if inner.startswith("$"):
                symbol = inner[1:].split("-", 1)[0]
                if symbol:
                    out.append(("lit", symbol))
            elif re.fullmatch(r"h+|m+|s+", inner, re.IGNORECASE):
                out.append(("elapsed", inner.lower()))
            # colours and conditions show nothing
            i = end + 1
        else:
            out.append(("code", ch))
            i += 1
    return out


# --- numbers --------------------------------------------------------------------------------


def _decimal(value: float) -> Decimal:
    """The value to the 15 significant digits a spreadsheet keeps (0.1+0.2 is 0.3)."""
    return Decimal(f"{value:.15g}")


def _general(value: float, marks: Marks) -> str:
    if isinstance(value, int) or (isinstance(value, float) and value.is_integer() and abs(value) < 1e15):
        return str(int(value))
    number = _decimal(value)
    if number != 0 and not 1e-9 <= abs(number) < 1e15:
        mantissa, exponent = f"{value:.5E}".split("E")
        mantissa = mantissa.rstrip("0").rstrip(".")
        return f"{mantissa.replace('.', marks.decimal)}E{int(exponent):+03d}"
    text = format(number.normalize(), "f")
    return text.replace(".", marks.decimal)


def _group(digits: str, separator: str) -> str:
    head = len(digits) % 3 or 3
    return separator.join([digits[:head], *(digits[i : i + 3] for i in range(head, len(digits), 3))])


def _number(value: float, section: str, marks: Marks, signed: bool) -> str:
    with localcontext() as context:
        context.prec = 400  # every digit of the largest float, and its decimals
        return _number_digits(value, section, marks, signed)


def _number_digits(value: float, section: str, marks: Marks, signed: bool) -> str:
    tokens = _tokens(section)
    codes = [t for kind, t in tokens if kind == "code"]
    if "/" in codes and any(c in "#0?" for c in codes):
        return ("-" if signed and value < 0 else "") + _general(abs(value), marks)  # fractions: not drawn
    placeholders = [i for i, (kind, t) in enumerate(tokens) if kind == "code" and t in "0#?"]
    percent = sum(1 for kind, t in tokens if kind == "code" and t == "%")
    number = abs(_decimal(value)) * (Decimal(100) ** percent)
    sign = "-" if signed and value < 0 else ""
    if not placeholders:  # literals only ("-" for a zero section)
        return sign + "".join(t for kind, t in tokens if kind == "lit" or (kind == "code" and t not in ",."))
    point_at = next((i for i, (kind, t) in enumerate(tokens) if kind == "code" and t == "."), len(tokens))
    first, last = min(placeholders[0], point_at), placeholders[-1]
    body = [t for kind, t in tokens[first : last + 1]]
    # the exponent of a scientific code
    exponent_at = next((k for k, t in enumerate(body) if t in "eE"), None)
    exponent_digits = 0
    if exponent_at is not None:
        exponent_digits = sum(1 for t in body[exponent_at:] if t in "0#?")
        body = body[:exponent_at]
    point = body.index(".") if "." in body else len(body)
    integer, fraction = body[:point], [t for t in body[point + 1 :] if t in "0#?"]
    # commas after the last integer digit scale by a thousand each; between digits they group
    trailing = 0
    after = last + 1
    while after < len(tokens) and tokens[after] == ("code", ","):
        trailing += 1
        after += 1
    grouping = "," in integer  # a comma between integer digits groups them
    number = number / (Decimal(1000) ** trailing)
    exponent = 0
    if exponent_at is not None and number != 0:
        int_places = max(1, sum(1 for t in integer if t in "0#?"))
        exponent = number.adjusted() - (int_places - 1)
        number = number.scaleb(-exponent)
    quantum = Decimal(1).scaleb(-len(fraction))
    number = number.quantize(quantum, rounding=ROUND_HALF_UP)
    whole, _, frac = format(number, "f").partition(".")
    minimum = sum(1 for t in integer if t in "0?")
    whole = whole.lstrip("0")
    whole = whole.rjust(minimum, "0") if minimum else whole
    if grouping and whole:
        whole = _group(whole, marks.group)
    frac = frac.ljust(len(fraction), "0")
    shown = list(frac)
    for k in range(len(fraction) - 1, -1, -1):  # trailing optional digits
        if shown[k] != "0" or fraction[k] == "0":
            break
        shown[k] = " " if fraction[k] == "?" else ""
    frac = "".join(shown).rstrip()
    text = whole + (marks.decimal + frac if "." in body else "")
    if exponent_at is not None:
        text += "E" + ("-" if exponent < 0 else "+") + str(abs(exponent)).rjust(exponent_digits, "0")
    if sign and not re.search(r"[1-9]", text):
        sign = ""  # -0.001 shown with two decimals is 0.00
    def shown(part: list[tuple[str, str]]) -> str:
        return "".join(t for kind, t in part if kind != "elapsed" and (kind, t) != ("code", ","))

    before, after_text = shown(tokens[:first]), shown(tokens[after:])
    # literals inside the digits ("000-0000") are not drawn: the digits read the same
    return sign + before + text + after_text


# --- dates and times ------------------------------------------------------------------------


def _as_datetime(value) -> dt.datetime | dt.timedelta:
    if isinstance(value, dt.datetime):
        return value
    if isinstance(value, dt.date):
        return dt.datetime(value.year, value.month, value.day)
    if isinstance(value, dt.time):
        return dt.datetime(1899, 12, 30, value.hour, value.minute, value.second, value.microsecond)
    if isinstance(value, dt.timedelta):
        return value
    return dt.datetime(1899, 12, 30) + dt.timedelta(days=float(value))  # a serial number


def _date(value, section: str, language: str) -> str:
    moment = _as_datetime(value)
    elapsed = moment if isinstance(moment, dt.timedelta) else None
    if elapsed is not None:
        moment = dt.datetime(1899, 12, 30) + elapsed
    section = re.sub(r"(?i)am/pm", "\x01", section)
    section = re.sub(r"(?i)a/p", "\x02", section)
    twelve = "\x01" in section or "\x02" in section
    months, days = _MONTHS.get(language, _MONTHS["en"]), _DAYS.get(language, _DAYS["en"])
    runs: list[tuple[str, str]] = []  # (kind, text), a format letter repeated as one run
    for kind, text in _tokens(section):
        text = text.lower() if kind == "code" else text
        if kind == "code" and runs and runs[-1][0] == "code" and runs[-1][1][-1] == text and text in "ymdhse":
            runs[-1] = ("code", runs[-1][1] + text)
        else:
            runs.append((kind, text))
    # the date and time letters in order: an "m" after an hour or before seconds is minutes
    letters = [(k, run[0]) for k, (kind, run) in enumerate(runs) if kind != "lit" and run[0] in "ymdhse"]
    out: list[str] = []
    for k, (kind, text) in enumerate(runs):
        if kind == "lit":
            out.append(text)
            continue
        if kind == "elapsed":
            total = elapsed if elapsed is not None else moment - dt.datetime(1899, 12, 30)
            seconds = int(round(total.total_seconds()))
            amount = {"h": seconds // 3600, "m": seconds // 60, "s": seconds}[text[0]]
            out.append(str(amount).rjust(len(text), "0"))
            continue
        head = text[0]
        if head in "ye":
            out.append(str(moment.year) if len(text) > 2 or head == "e" else f"{moment.year % 100:02d}")
        elif head == "m":
            place = next(i for i, (at, _) in enumerate(letters) if at == k)
            before = letters[place - 1][1] if place else ""
            after = letters[place + 1][1] if place + 1 < len(letters) else ""
            if len(text) <= 2 and (before == "h" or after == "s"):
                out.append(f"{moment.minute:0{len(text)}d}")
            elif len(text) <= 2:
                out.append(f"{moment.month:0{len(text)}d}")
            else:
                name = months[moment.month - 1]
                out.append(name[:3] if len(text) == 3 else name[:1] if len(text) == 5 else name)
        elif head == "d":
            if len(text) <= 2:
                out.append(f"{moment.day:0{len(text)}d}")
            else:
                name = days[moment.weekday()]
                out.append((name[:2] if language == "de" else name[:3]) if len(text) == 3 else name)
        elif head == "h":
            hour = (moment.hour % 12 or 12) if twelve else moment.hour
            out.append(f"{hour:0{min(len(text), 2)}d}")
        elif head == "s":
            out.append(f"{moment.second:0{min(len(text), 2)}d}")
        elif text == "\x01":
            out.append("PM" if moment.hour >= 12 else "AM")
        elif text == "\x02":
            out.append("P" if moment.hour >= 12 else "A")
        else:
            out.append(text)
    return "".join(out)


# --- a cell ---------------------------------------------------------------------------------

_BUILTIN_SHORT_DATE = "mm-dd-yy"  # what a reader sees is the locale's short date


def display(value, code: str | None, marks: Marks | None = None) -> str:
    """``value`` as a spreadsheet shows it with the format ``code``.

    ``marks`` are the workbook's (see ``workbook_marks``); a locale tag in ``code`` wins.
    """
    code = code or "General"
    tagged, language = _tag_locale(code)
    marks = tagged or marks or CODE
    if not language:
        language = "de" if marks.decimal == "," and marks.group == "." else "en"
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, (dt.date, dt.time, dt.timedelta)):
        if code.strip().lower() == _BUILTIN_SHORT_DATE:
            code = marks.short_date
        if not is_date_code(code):
            code = "yyyy-mm-dd" if isinstance(value, dt.date) else "hh:mm:ss"
            if isinstance(value, dt.datetime) and value.time() != dt.time():
                code = "yyyy-mm-dd hh:mm:ss"
        return _date(value, _sections(code)[0], language)
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if not isinstance(value, (int, float)):
        return str(value)
    sections = _sections(code)
    section, signed = sections[0], True
    if value < 0 and len(sections) > 1 and sections[1].strip():
        section, signed = sections[1], False
    elif value == 0 and len(sections) > 2 and sections[2].strip():
        section = sections[2]
    if is_date_code(section):
        return _date(value, section, language)
    if section.strip().lower() in ("general", "@", ""):
        return ("-" if value < 0 and signed else "") + _general(abs(value), marks)
    if re.search(r"(?i)general", _strip_literals(section)):  # General with literals around it
        head, tail = re.split(r"(?i)general", section, maxsplit=1)
        parts = [*_tokens(head), ("num", _general(abs(value), marks)), *_tokens(tail)]
        shown = "".join(t for kind, t in parts if kind != "elapsed")
        return ("-" if value < 0 and signed else "") + shown
    return _number(value, section, marks, signed)
