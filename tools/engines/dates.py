"""A year the user named: a place where the scope's paths carry years, else a date condition.

"The invoices from 2022" over ``invoices/2022/…`` names a folder of years; over
``receipts-archive/…`` it names the documents' date. Both engines read years as places first
and then ground them here, against the years the scope's paths hold.
"""

from __future__ import annotations

from core.reading import Reading, ScopeHint


def years_as_dates(reading: Reading, scope: ScopeHint) -> Reading:
    """The reading with its year places as document conditions when no path in scope carries a
    year (an unknown, empty scope decides nothing). A year the reading already holds as a
    condition (a Year column, a date, the row condition) stays only there."""
    years = [p for p in reading.places if p.kind == "year"]
    if not years or scope.documents == 0 or scope.years:
        return reading
    held = " ".join(
        [reading.row_condition or "", *reading.document_conditions,
         *(f"{c.value} {c.text}" for c in reading.conditions)]
    )
    dated = [p.value for p in years if p.value not in held]
    notes = [
        f"No document path in scope carries a year, so {year} is read as the documents' date: only documents "
        f"that name {year} give rows." for year in dated
    ]
    return reading.model_copy(
        update={
            "places": [p for p in reading.places if p.kind != "year"],
            "document_conditions": list(dict.fromkeys([*reading.document_conditions, *dated])),
            "notes": [*reading.notes, *notes],
        }
    )
