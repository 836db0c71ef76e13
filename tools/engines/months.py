"""A month the user named for the documents ("ordered in August", "commandé en juillet"), and the
month a document is dated in.

A document's date is the first date its own text gives outside its tables — the letterhead's
"Datum: 04.08.2025", "Date : 15 juillet 2025" — written with figures or with a month's name.
"""

from __future__ import annotations

import re

_NAMES = [
    "january januar janvier jänner enero",
    "february februar février fevrier febrero",
    "march märz mars marzo",
    "april avril abril",
    "may mai mayo",
    "june juni juin junio",
    "july juli juillet julio",
    "august août aout agosto",
    "september septembre sept septiembre",
    "october oktober octobre octubre",
    "november novembre noviembre",
    "december dezember décembre decembre diciembre",
]
MONTHS = {name: number for number, names in enumerate(_NAMES, start=1) for name in names.split()}
_NAME = "|".join(sorted(MONTHS, key=len, reverse=True))
# "04.08.2025", "4/8/2025" (day first), "2025-08-04", "15 juillet 2025", "8. Juli 2025", "July 8, 2025"
_DATE = re.compile(
    rf"\b(?:\d{{1,2}}[./](?P<m>\d{{1,2}})[./]\d{{4}}|\d{{4}}-(?P<M>\d{{1,2}})-\d{{1,2}}"
    rf"|\d{{1,2}}\.?\s+(?P<name>{_NAME})\.?\s+\d{{4}}|(?P<first>{_NAME})\.?\s+\d{{1,2}},?\s+\d{{4}})\b",
    re.IGNORECASE,
)


def month_of(term: str) -> int | None:
    """The month a term names on its own ("August", "juillet"); None for any other term."""
    return MONTHS.get(term.strip().rstrip(".").casefold())


def month_names(month: int) -> list[str]:
    """The names of a month in every language known here: 7 -> july, juli, juillet."""
    return [name for name, number in MONTHS.items() if number == month]


def dated_month(text: str) -> int | None:
    """The month of the first date a text gives; None when it gives none."""
    found = _DATE.search(text)
    if found is None:
        return None
    number = found.group("m") or found.group("M")
    if number:
        return int(number) if 1 <= int(number) <= 12 else None
    return MONTHS[(found.group("name") or found.group("first")).casefold()]
