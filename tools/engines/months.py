"""A month the user named for the documents ("ordered in August", "commandé en juillet"), and the
month a document is dated in.

A document's date is the first date its own text gives outside its tables — the letterhead's
"Datum: 04.08.2025", "Date : 15 juillet 2025" — written with figures or with a month's name.
"""

from __future__ import annotations

import re

_NAMES = [  # with the short forms sheets and reports print ("Jan 2025", "Mär 2025")
    "january januar janvier jänner enero jan",
    "february februar février fevrier febrero feb",
    "march märz mars marzo mar mär",
    "april avril abril apr",
    "may mai mayo",
    "june juni juin junio jun",
    "july juli juillet julio jul",
    "august août aout agosto aug",
    "september septembre sept septiembre sep",
    "october oktober octobre octubre oct okt",
    "november novembre noviembre nov",
    "december dezember décembre decembre diciembre dec dez",
]
MONTHS = {name: number for number, names in enumerate(_NAMES, start=1) for name in names.split()}
MONTH_PATTERN = "|".join(sorted((re.escape(name) for name in MONTHS), key=len, reverse=True))  # any month's name, longest first
_NAME = MONTH_PATTERN
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
