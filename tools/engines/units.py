"""The units a column's values are given in, as a request asks for them ("Weight in kg", "Yield
in bushels per acre") and as a header prints them ("Gewicht (kg)", "reading_c", "Standing
Charge p/day")."""

from __future__ import annotations

import re

# the units a column's values are given in, written after its name: "weight in kg", "potencia en
# kWp", "Betrag in EUR"
UNIT_PREPOSITIONS = frozenset({"in", "en", "im", "w"})
RATE_WORDS = frozenset({"per", "pro", "par", "por", "na"})  # "bushels per acre", "Euro pro Stunde": a rate is a unit
MEASURE_UNIT = re.compile(
    r"(?:[€$£¥₩%]|zł|pln|eur|euros?|usd|dollars?|gbp|pounds?|chf|sek|nok|dkk|czk|kg|km|kwh|kwp|mwh|mw|kw|mm|cm|m2|m²|m3"
    r"|miles?|seconds?|secs?|hours?|hrs?|days?|weeks?|months?|minutes?|kilos?|kilograms?|grams?|tonnes?|tons?|metres?|meters?"
    r"|kilometres?|kilometers?|litres?|liters?|percent|horas?|días|stunden|tagen?|heures|jours|uren|dagen|godzin\w*|dni)",
    re.IGNORECASE,
)
# a unit a header ends with, in brackets or joined with an underscore ("Weight (kg)", "reading_c")
_UNIT_TAIL = re.compile(
    r"(?:\s*\((?!\s*\d[\d\s./–-]*\))\s*(?:°\s?[cf]|[^\W\d_]{1,3}|[€$£%]|[^\s()]*[^\w\s()][^\s()]*|" + MEASURE_UNIT.pattern + r")\s*\)"
    r"|_(?:c|f|kg|km|mi|m|h|t|l|pct|eur|usd|pln|gbp)"
    r"|\s+[^\W\d_]{1,3}/[^\W\d_]{1,4})\s*$",
    re.IGNORECASE,
)  # "(EUR)", "(Ω)", "(mm/year)", "(A/cm²)", "(metres)": a unit in brackets, not a word that sets columns apart
# ("(other)"); a rate after the name, "Standing Charge p/day", "Unit Rate p/kWh"
_UNIT_NAMES = {"€": "eur", "euro": "eur", "euros": "eur", "zł": "pln", "$": "usd", "dollar": "usd", "dollars": "usd",
               "£": "gbp", "pound": "gbp", "pounds": "gbp", "kilogram": "kg", "kilograms": "kg", "kilo": "kg", "kilos": "kg",
               "kgs": "kg", "percent": "%", "hour": "h", "hours": "h", "hr": "h", "hrs": "h", "horas": "h", "hora": "h",
               "stunden": "h", "heures": "h", "uren": "h", "godzin": "h", "godziny": "h", "m²": "m2", "m³": "m3"}


def unit_phrase_of(name: str) -> tuple[str, str] | None:
    """A column name and the unit it is asked in ("Weight in kg": "Weight", "kg"); None when
    the name ends in no preposition and unit."""
    words = name.split()
    if len(words) >= 5 and words[-4].casefold() in UNIT_PREPOSITIONS and words[-2].casefold() in RATE_WORDS \
            and words[-3].isalpha() and words[-3].islower():
        # "Yield in bushels per acre": a rate is a unit ("Sales in Germany per quarter", "in 2024 per region" name none)
        return " ".join(words[:-4]), " ".join(words[-3:])
    if len(words) < 3 or words[-2].casefold() not in UNIT_PREPOSITIONS or MEASURE_UNIT.fullmatch(words[-1]) is None:
        return None
    return " ".join(words[:-2]), words[-1]


def unit_agrees(cell: str, unit: str) -> bool:
    """Whether a header cell gives its values in ``unit``, or names no unit: in brackets at its
    end ("Gewicht (kg)") or after a preposition ("Amount in USD")."""
    said = said_unit(cell)
    return said is None or unit_name(said) == unit_name(unit)


def said_unit(cell: str) -> str | None:
    """The unit a header cell names: in brackets at its end ("Gewicht (kg)") or after a
    preposition ("Amount in USD"); None when it names none."""
    bracket = re.search(r"\(([^()]{1,8})\)\s*$", cell)
    return bracket.group(1) if bracket else (split[1] if (split := unit_phrase_of(cell)) else None)


def unit_name(unit: str) -> str:
    low = unit.strip().casefold()
    return _UNIT_NAMES.get(low, low)


def without_unit(cell: str) -> str:
    """A header without the unit it ends with ("Q2 2025 (EUR)": "Q2 2025"; "reading_c": "reading")."""
    return _UNIT_TAIL.sub("", cell)
