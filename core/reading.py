"""The domain of one table request: what the user asked for, what a document gave.

These models cross every boundary of Kea (engines, graph state, the CLI's JSON, the HTTP
API), so they are plain pydantic models that serialise to small JSON dicts. Graph state
keeps them as dicts (``model_dump(mode="json")``) so checkpoints never depend on classes.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

ConditionOp = Literal["contains", "starts", "equals", "not", "lt", "le", "gt", "ge", "judgement"]


class Condition(BaseModel):
    """One condition a row must meet, on a named column or, for ``judgement``, in words."""

    column: str | None = Field(None, description="Column the condition is on; None for a judgement.")
    op: ConditionOp
    value: str = Field(description="The value as the user wrote it (e.g. '1,000,000', 'Cables').")
    text: str = Field("", description="The condition in the user's words.")
    scope_column: bool = Field(
        True,
        description="Whether a header or label of the scope names the column; one no document names "
        "('which contracts are still ongoing') may be a word the rows' cells hold ('Project ongoing').",
    )


class Place(BaseModel):
    """A place the user named: a folder, a file, a year or a glob over document paths."""

    kind: Literal["folder", "file", "year", "glob"]
    value: str = Field(description="Folder path, file path, four-digit year or glob, as stored.")


class Reading(BaseModel):
    """How Kea understood one request. Confirmed by the user before anything is read."""

    request: str = Field(description="The message as the user wrote it.")
    kind: Literal["table", "greeting", "about", "empty"] = "table"
    columns: list[str] = Field(default_factory=list, description="Values of each record, in order.")
    columns_from: Literal["request", "tables", "model", "none"] = "request"
    row_condition: str | None = Field(None, description="The row condition in words.")
    conditions: list[Condition] = Field(default_factory=list)
    row_terms: list[str] = Field(default_factory=list, description="Words that identify wanted rows.")
    document_conditions: list[str] = Field(
        default_factory=list,
        description="Terms a whole document must meet (a supplier, a party); every row inherits it.",
    )
    places: list[Place] = Field(default_factory=list)
    calculations: list[str] = Field(
        default_factory=list, description="Requested sums, averages, counts...: named, never computed."
    )
    notes: list[str] = Field(
        default_factory=list, description="What the engine could not do with this request, in words."
    )
    unused: list[str] = Field(
        default_factory=list,
        description="Words of the request no part of the reading holds; every row is unsure while there are any.",
    )
    subject: str | None = Field(
        None,
        description="What each row is, in the request's words ('offense categories' of 'which offense categories had …'), "
        "when no requested column says it: a table whose requested columns hold only figures gives it from its "
        "column of row labels, shown first.",
    )
    document_kinds: list[str] = Field(
        default_factory=list,
        description="Words naming the kind of documents asked about that no folder in scope holds ('facture'): "
        "a document that does not call itself so gives rows marked unsure.",
    )
    # discovery mode only: they guide the search and never filter
    exact_keywords: list[str] = Field(default_factory=list, description="Names or numbers to search for literally.")
    semantic_keywords: list[str] = Field(default_factory=list, description="Kinds of document to rank by meaning.")

    def place_labels(self) -> list[str]:
        return [p.value for p in self.places]

    def describe_places(self) -> str:
        """The places in words: "folder invoices, year 2025"; empty when none was named."""
        names = {"folder": "folder", "file": "file", "year": "year", "glob": "paths"}
        return ", ".join(f"{names[p.kind]} {p.value}" for p in self.places)

    def describe(self) -> str:
        """The whole reading in one line: values; rows; places."""
        columns = ", ".join(self.columns) or "the columns of the tables found"
        if self.subject:
            columns += f" (and which of the {self.subject.lower()} each row is, where those values are only figures)"
        return "; ".join(
            [
                columns,
                self.describe_filter() or "every row",
                self.describe_places() or "every document in scope",
            ]
        )

    def calculation_note(self) -> str:
        """What Kea does not do with the calculations asked for, empty when none was."""
        if not self.calculations:
            return ""
        return f"I don't calculate {', '.join(self.calculations)}: the table lists the values; total them from the CSV."

    def describe_filter(self) -> str:
        """Document and row conditions in words; empty for every row."""
        parts = []
        # a year that is a place too ("year 2024") is said there once: the documents beside its
        # folders that name no year in their path are dated by it (the answer says which)
        years = {p.value for p in self.places if p.kind == "year"}
        documents = [d for d in self.document_conditions if d not in years]
        if documents:
            parts.append("only documents of " + " and ".join(documents))
        if self.row_condition:
            parts.append("rows where " + self.row_condition)
        if self.row_terms:
            parts.append("rows about " + ", ".join(self.row_terms))
        if self.document_kinds:
            # checked in each document's own words or its table's kinds ("active" contracts)
            parts.append("of the kind " + " ".join(self.document_kinds))
        return "; ".join(parts)


class Table(BaseModel):
    """A table found in a document: its page (1-based), header cells and rows of cells, and the
    lines printed above its header as its title (a sheet's title and subtitle)."""

    page: int
    header: list[str]
    rows: list[list[str]]
    title: list[str] = Field(default_factory=list)
    # per line of [header, *rows]: the columns a merged cell to their left spans, left empty so
    # that every cell stands under its own header (none when the document merges no cells)
    spanned: list[list[int]] = Field(default_factory=list)
    # a header printed on several lines, as printed: each line's cells over the columns they stand
    # over (a label over a group of columns once), which ``header`` joins into one name per
    # column; empty when the header is one line. The parser's, for measuring its structure: the
    # knowledge base keeps the names
    header_lines: list[list[str]] = Field(default_factory=list)

    def as_held(self) -> tuple[list[str], list[list[str]]]:
        """The header and rows as the document holds them: a merged cell once in its line."""
        lines = [self.header, *self.rows]
        spans = self.spanned + [[]] * (len(lines) - len(self.spanned))
        held = [[c for k, c in enumerate(line) if k not in set(spans[i])] for i, line in enumerate(lines)]
        return held[0], held[1:]


class DocumentText(BaseModel):
    """Everything an engine may read of one document."""

    id: int
    collection: str
    path: str
    title: str = ""
    media_type: str = ""
    pages: list[str] = Field(default_factory=list, description="Text of each page, page 1 first.")
    tables: list[Table] = Field(default_factory=list)
    notes: list[str] = Field(
        default_factory=list, description="What the parser could read of the document only in part (a page bound, an unreadable page)."
    )

    @property
    def page_count(self) -> int:
        return len(self.pages)


class Record(BaseModel):
    """One row of the table, as extracted from one document."""

    values: dict[str, str | None]
    match: Literal["yes", "unsure"] = "yes"
    page: int | None = None
    evidence: str | None = Field(None, description="A verbatim quote of the source text.")
    note: str | None = Field(None, description="Why the row is unsure, when it is.")
    source: dict[str, Any] | None = Field(
        None, description="Where the evidence stands on its page (set after extraction, for the review page)."
    )


class FolderCount(BaseModel):
    folder: str
    documents: int


def folder_list(folders: list[FolderCount], limit: int = 10) -> str:
    """Folders with their counts, as the answers and questions name them: "invoices (19), …"."""
    return ", ".join(f"{f.folder} ({f.documents})" for f in folders[:limit])


class ScopeHint(BaseModel):
    """What an engine may know of the scope before reading a request: names, never contents."""

    documents: int
    collections: list[str] = Field(default_factory=list)
    folders: list[FolderCount] = Field(default_factory=list, description="Largest folders first.")
    years: list[str] = Field(default_factory=list, description="Years found in document paths.")
    table_headers: list[list[str]] = Field(
        default_factory=list, description="The most common table headers in scope, most common first."
    )
    vocabulary: list[str] = Field(
        default_factory=list,
        description="Table header cells and Key: labels of the documents in scope, most common first.",
    )
    today: str | None = Field(
        default=None,
        description="The day the request is read on (YYYY-MM-DD): a period said from today ('this year') counts from it.",
    )
