"""Why a document gave no rows, said the same way whichever engine read it.

Asked only of a document that gave none, in this order (the first that holds is the reason):
- it has no text at all: no text layer (a scanned PDF) — OCR is needed;
- a condition on the whole document fails (its supplier, its party): which one; a name or a
  period one column of its tables holds ("Gdynia" in Region) picks rows instead, and is said
  with the row condition;
- no table and no block of ``Key: value`` labels in it holds the requested columns;
- its tables hold the columns, but no row met the row condition;
- its tables hold the columns, but no rows (only totals, or empty tables).
An unreadable document is a failure, not a document without rows: it never gets here.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from core.reading import DocumentText, Reading
from tools.engines.offline.document_names import failed_condition, meets_document_conditions
from tools.engines.offline.document_terms import column_of
from tools.engines.offline.extract import column_fit

Reason = Literal["no_text", "document_condition", "no_matching_columns", "row_condition", "no_rows"]

GROUP_TITLES: dict[str, str] = {
    "no_text": "no text layer (scanned?): OCR is needed before Kea can read them",
    "document_condition": "the document condition failed",
    "no_matching_columns": "no table or record holds the requested columns",
    "row_condition": "nothing in them met the row condition",
    "no_rows": "their matching tables held no rows",
}


class NoRows(BaseModel):
    """Why one document gave no rows: a reason code and the sentence a user reads."""

    reason: Reason
    detail: str

    @property
    def title(self) -> str:
        return GROUP_TITLES[self.reason]


def explain_no_rows(document: DocumentText, reading: Reading) -> NoRows:
    if not any(page.strip() for page in document.pages) and not document.tables:
        return NoRows(
            reason="no_text",
            detail="it has no text layer (a scanned document?), so it needs OCR before it can be read",
        )
    # a term one column of its tables holds ("Gdynia" in Region, "Q1 2025" in Month) picks rows: it fails no document
    failing = {term: column_of(document, term) for term in reading.document_conditions if not meets_document_conditions(document, [term])}
    for term, where in failing.items():
        if where is None:
            return NoRows(reason="document_condition", detail=f"the document condition failed ({failed_condition(term)})")
    if reading.columns and column_fit(document, reading) == 0:
        wanted = ", ".join(reading.columns)
        return NoRows(reason="no_matching_columns", detail=f"no table or record in it holds the requested columns ({wanted})")
    if reading.row_condition or reading.conditions or failing:
        placed = [f"{where[0]} is {term}" for term, where in failing.items() if where is not None]
        condition = "; ".join([*([reading.row_condition] if reading.row_condition else
                                 [c.text or c.value for c in reading.conditions]), *placed])
        return NoRows(reason="row_condition", detail=f"nothing in it met the row condition ({condition})")
    return NoRows(reason="no_rows", detail="its tables with the requested columns held no rows")
