"""Periods said from today: "this year", "last year's price list", "last quarter", "le mois dernier".

A request may say a period counted from the day it is asked ("On Atelier Numérique's invoices
this year"); documents say theirs as years, quarters and months. Before anything else reads the
message, each such period is written as the one it names, counted from the reading's day
(``ScopeHint.today``), and the reading says so in a note ("'last year' read as 2024, counted
from 31 July 2025"), so the questions show it and the user can correct it. A period set against
another ("the change versus last year") names a column, not the documents' time: it stays as
written, as does every period when the reading has no day to count from.
"""

from __future__ import annotations

import re
from datetime import date

# (unit, steps back from today, the ways the requests Kea reads say it)
_SAID: tuple[tuple[str, int, str], ...] = (
    ("year", 0, r"this year(?:['’]s)?|the current year|current year(?:['’]s)?|dieses jahr(?:es)?|diesem jahr|im laufenden jahr"
                r"|cette année|l'année en cours|este año|(?:el )?año en curso|dit jaar"),
    ("year", 1, r"last year(?:['’]s)?|letztes jahr|letzten jahr(?:es)?|vergangenes jahr|vergangenen jahr(?:es)?"
                r"|l'année dernière|l'an dernier|l'année passée|(?:el )?año pasado|vorig jaar|afgelopen jaar"),
    ("quarter", 0, r"this quarter(?:['’]s)?|the current quarter|dieses quartal(?:s)?|diesem quartal|ce trimestre"
                   r"|este trimestre|dit kwartaal"),
    ("quarter", 1, r"last quarter(?:['’]s)?|letztes quartal|letzten quartal(?:s)?|vergangenen quartal(?:s)?"
                   r"|le trimestre dernier|le dernier trimestre|(?:el )?trimestre pasado|(?:el )?último trimestre"
                   r"|vorig kwartaal|afgelopen kwartaal"),
    ("month", 0, r"this month(?:['’]s)?|diesen monat|diesem monat|ce mois(?:-ci)?|este mes|deze maand"),
    ("month", 1, r"last month(?:['’]s)?|letzten monat|vergangenen monat|le mois dernier|(?:el )?mes pasado"
                 r"|vorige maand|afgelopen maand"),
)
_PATTERNS = [(unit, back, re.compile(rf"(?<![\w'-])(?:{said})(?![\w-])", re.IGNORECASE)) for unit, back, said in _SAID]
# "the change versus last year", "verglichen mit dem letzten Jahr": a period set against another
_AGAINST = re.compile(
    r"\b(?:versus|vs\.?|against|than|compared (?:to|with)|gegenüber|verglichen mit|im vergleich zu[mr]?"
    r"|par rapport à|comparé à|frente a|comparado con)(?:\s+(?:the|dem|der|l'|la|le|el))?\s*$",
    re.IGNORECASE,
)
# "last year versus this year": a period a comparison follows is set against the other too
_AGAINST_NEXT = re.compile(r"^\s*(?:versus|vs\.?|against|compared (?:to|with)|gegenüber|verglichen mit|par rapport à|frente a"
                           r"|comparado con)\b", re.IGNORECASE)
# "the last year of the contract", "over the last year", "el último trimestre del contrato": the
# final one of something, or the twelve months up to today, not the period before this one
_LAST = ("last ", "letzte", "le dernier", "el último", "último")  # the words that may say "final" rather than "before this"
_FINAL_OF = re.compile(r"^\s+(?:of|del|de|des|du|der|van)\b", re.IGNORECASE)
_THE_LAST = re.compile(r"\b(?:the|over|in the|during the)\s*$", re.IGNORECASE)
# a word that already links the period to what it dates ("of last year", "during this month")
_LINKED = re.compile(r"\b(?:in|of|for|from|during|since|until|before|after|by|the)\s*$", re.IGNORECASE)
_MONTHS = ("January February March April May June July August September October November December").split()


def dated(message: str, today: str | None) -> tuple[str, list[str]]:
    """The message with each period said from today written as the period it names, and a note
    for each; the message unchanged when ``today`` (YYYY-MM-DD) is not given."""
    text, read = _dated(message, today)
    if not read:
        return text, []
    day = date.fromisoformat(today or "")
    counted = f"counted from {day.day} {_MONTHS[day.month - 1]} {day.year}"
    return text, [f"'{said}' read as {period}, {counted}." for said, period in read]


def said_as(message: str, today: str | None) -> dict[str, str]:
    """The words of each period written for one said from today, each with the words said
    ("2024": "last year's", "Q2": "last quarter", "2025": "last quarter")."""
    return {word.casefold(): said for said, period in _dated(message, today)[1] for word in period.split()}


def _dated(message: str, today: str | None) -> tuple[str, list[tuple[str, str]]]:
    """The message with its periods said from today written out, and (said, period) of each."""
    if not today:
        return message, []
    day = date.fromisoformat(today)
    read: list[tuple[str, str]] = []
    for unit, back, pattern in _PATTERNS:

        def named(match: re.Match[str], unit: str = unit, back: int = back) -> str:
            before, after = message[: match.start()], message[match.end():]
            last = match.group(0).casefold().startswith(_LAST)
            if _AGAINST.search(before) or _AGAINST_NEXT.search(after) or last and _FINAL_OF.search(after) \
                    or match.group(0).casefold().startswith("last ") and _THE_LAST.search(before):
                return match.group(0)
            period = _period(day, unit, back)
            read.append((match.group(0), period))
            # "history for van GD 4K221 this year": the time a phrase ends with, said as such
            said = match.group(0).casefold()
            if said.startswith(("this ", "last ", "current ")) and not said.endswith(("'s", "’s")) \
                    and not _LINKED.search(before):
                return f"in {period}"
            return period

        message = pattern.sub(named, message)
    return message, read


def _period(day: date, unit: str, back: int) -> str:
    """The year ("2024"), quarter ("Q2 2025") or month ("June 2025") ``back`` steps before ``day``'s."""
    if unit == "year":
        return str(day.year - back)
    if unit == "quarter":
        index = day.year * 4 + (day.month - 1) // 3 - back
        return f"Q{index % 4 + 1} {index // 4}"
    index = day.year * 12 + day.month - 1 - back
    return f"{_MONTHS[index % 12]} {index // 12}"
