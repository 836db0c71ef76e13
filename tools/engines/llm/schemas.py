"""The structures the model answers in: how a request reads, and a document's records."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, create_model

from core.reading import ConditionOp


class _ConditionOut(BaseModel):
    column: str | None = Field(description="The column the condition is on; null for a judgement.")
    op: ConditionOp
    value: str = Field(description="The value as the user wrote it.")
    text: str = Field(description="The condition in the user's words.")


class _PlaceOut(BaseModel):
    kind: Literal["folder", "file", "year", "glob"]
    value: str = Field(description="The folder as listed, the file path, the four-digit year or the glob.")


class RequestReading(BaseModel):
    """How one request reads: the table it asks for, which rows, which documents, where."""

    kind: Literal["table", "greeting", "about"]
    columns: list[str] = Field(description="The values every row holds, in order.")
    columns_from: Literal["request", "model"] = Field(
        description="'request' when the user named the columns, 'model' when you designed them."
    )
    row_condition: str | None = Field(description="The row condition in words; null for every row.")
    conditions: list[_ConditionOut] = Field(description="The literal parts of the row condition.")
    row_terms: list[str] = Field(description="Words that pick rows by meaning.")
    document_conditions: list[str] = Field(description="What a whole document must meet: supplier, party, year.")
    places: list[_PlaceOut] = Field(description="Folders, files, years and globs the user named; never a supplier.")
    calculations: list[str] = Field(description="Sums, averages, counts... the user asks for; named, never computed.")
    notes: list[str] = Field(description="What could not be taken into the reading, one sentence each.")
    unused: list[str] = Field(
        description="Words of the request that no part of this reading takes up (neither a column, a condition, "
        "a place, an owner nor a calculation), as written; empty when every word is used.",
    )


_EXTRA_FIELDS = {
    "match": ("record_match", Literal["yes", "unsure"], "'yes' when the row clearly meets the row condition, 'unsure' when it may."),
    "page": ("page", int | None, "The page number of the marker above the evidence line."),
    "evidence": ("evidence", str, "The line the row stands on, copied verbatim from the text."),
    "note": ("note", str | None, "Why the row is unsure; null for a 'yes' row."),
}


def record_schema(columns: Sequence[str], *, document_conditions: bool = False) -> type[BaseModel]:
    """The answer's structure for these columns: ``{records: [...]}`` (and the document's verdict).

    Each record holds one nullable string per column under the column's own name, then
    ``record_match``, ``page``, ``evidence`` and ``note``; a column that takes one of those
    names pushes the extra field to ``row_<name>``.
    """
    taken = {c.casefold() for c in columns}
    fields: dict[str, Any] = {
        f"c{i}": (
            str | None,
            Field(..., alias=column, description=f"'{column}' exactly as the document writes it; null when it gives none."),
        )
        for i, column in enumerate(columns)
    }
    for name, (alias, kind, description) in _EXTRA_FIELDS.items():
        while alias.casefold() in taken:
            alias = "row_" + alias
        fields[name] = (kind, Field(..., alias=alias, description=description))
    row = create_model(  # type: ignore[call-overload]
        "Row",
        __config__=ConfigDict(populate_by_name=True, coerce_numbers_to_str=True),
        __doc__="One row of the table.",
        **fields,
    )
    wrapper: dict[str, Any] = {
        "records": (list[row], Field(..., description="Every row of this text that may meet the row condition."))
    }
    if document_conditions:
        wrapper["document_condition"] = (
            Literal["met", "not_met", "unclear"],
            Field(..., description="'not_met' when the document clearly fails a document condition (then no records)."),
        )
    return create_model(  # type: ignore[call-overload]
        "DocumentRecords", __doc__="The rows of the table found in the text.", **wrapper
    )
