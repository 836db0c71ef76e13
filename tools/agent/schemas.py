"""The tools the Universal Agent's model may call: their arguments and descriptions.

Each tool's arguments are a pydantic model: the model is offered its JSON schema, and a call's
arguments are validated against it before anything runs. A profile without document tools
offers none of them (``tool_specs``).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from core.reading import Condition, Place, Reading
from core.selection import ContentQuery, DocumentSelection, SelectionEntry
from tools.agent.workspace_tools import TOOLS as WORKSPACE_TOOLS


class ListDocuments(BaseModel):
    folder: str | None = Field(None, description="A folder path such as 'invoices/2025'; empty for the whole scope.")
    limit: int = Field(50, ge=1, le=200, description="At most this many documents, in path order.")


class ReadDocument(BaseModel):
    path: str = Field(description="The document's path as list_documents or a search shows it (collection:path when qualified).")
    first_page: int | None = Field(None, ge=1, description="First page to read (1-based); empty for the first.")
    last_page: int | None = Field(None, ge=1, description="Last page to read; empty for the last.")


class SearchDocuments(BaseModel):
    text: str = Field(description="The text to find (case-insensitive), or a regular expression when regex is true.")
    regex: bool = Field(False, description="Read text as a POSIX regular expression.")
    path_glob: str | None = Field(None, description="Only documents whose path matches this glob, e.g. 'invoices/**'.")
    limit: int = Field(30, ge=1, le=100, description="At most this many matching pages.")


class RankDocuments(BaseModel):
    query: str = Field(description="The kind of document wanted, in words.")
    limit: int = Field(10, ge=1, le=50, description="At most this many documents, best first.")


class ContentCondition(BaseModel):
    text: str = Field(description="Text a page of the document contains (case-insensitive), or a regular expression.")
    regex: bool = Field(False, description="Read text as a POSIX regular expression.")


class SelectionPart(BaseModel):
    """One way to pick documents: its conditions must all hold (AND); parts are alternatives (OR)."""

    path_globs: list[str] = Field(default_factory=list, description="Globs over paths, e.g. 'invoices/2025/**' (any of them).")
    path_regex: str | None = Field(None, description="A regular expression the path matches.")
    content: ContentCondition | None = Field(None, description="Text the document contains.")
    ids: list[int] | None = Field(None, description="Document ids, when a tool result named them.")

    def entry(self) -> SelectionEntry:
        content = ContentQuery(text=self.content.text, regex=self.content.regex) if self.content and self.content.text.strip() else None
        globs = [g.strip() for g in self.path_globs if g.strip()]
        return SelectionEntry(path_globs=globs, path_regex=(self.path_regex or "").strip() or None, content=content, ids=self.ids)


class SelectDocuments(BaseModel):
    """The documents to extract from: any of the parts (OR), each part all its conditions (AND)."""

    parts: list[SelectionPart] = Field(description="Alternatives; a document is selected when it meets every condition of one part.")

    def selection(self) -> DocumentSelection:
        return DocumentSelection(entries=[p.entry() for p in self.parts])


class Selection(BaseModel):
    """Where to read; empty reads every document in scope. Folders and globs are alternatives, years narrow them."""

    folders: list[str] = Field(default_factory=list, description="Folder paths, e.g. 'invoices'.")
    files: list[str] = Field(default_factory=list, description="File paths, or their ends, e.g. 'invoices/2024/a.pdf'.")
    years: list[str] = Field(default_factory=list, description="Four-digit years that stand in the paths, e.g. '2025'.")
    path_globs: list[str] = Field(default_factory=list, description="Globs over document paths, e.g. 'contracts/**/*.pdf'.")

    def places(self) -> list[Place]:
        return [
            *(Place(kind="folder", value=v.strip().strip("/")) for v in self.folders if v.strip().strip("/")),
            *(Place(kind="year", value=v.strip()) for v in self.years if v.strip()),
            *(Place(kind="glob", value=v.strip()) for v in self.path_globs if v.strip()),
            *(Place(kind="file", value=v.strip().strip("/")) for v in self.files if v.strip().strip("/")),
        ]


class ExtractRecords(BaseModel):
    """One table across the documents of the selection: one row per record, each naming its file."""

    request: str = Field(description="The user's request in the user's words.")
    selection: Selection = Field(default_factory=Selection)
    columns: list[str] = Field(default_factory=list, description="The values of each row, in order; empty: the columns of the tables found.")
    row_condition: str | None = Field(None, description="Which rows count, in words; empty for every row.")
    conditions: list[Condition] = Field(
        default_factory=list, description="The row condition's literal parts on named columns (e.g. Amount gt 1000)."
    )
    row_terms: list[str] = Field(default_factory=list, description="Words that identify wanted rows (e.g. 'cable').")
    document_conditions: list[str] = Field(
        default_factory=list, description="Terms a whole document must meet: a supplier, a party, a customer."
    )
    document_kinds: list[str] = Field(
        default_factory=list,
        description="Words naming the kind of documents asked about that a document must call itself ('support' in "
        "'every support ticket'): one that does not gives rows marked unsure.",
    )
    calculations: list[str] = Field(
        default_factory=list, description="Sums, averages or counts the user asked for: named in the answer, never computed."
    )
    continue_sample: bool = Field(
        False, description="True only after the user said yes to a sample: reads the rest of the waiting selection."
    )

    def reading(self) -> Reading:
        """The call as the Reading the extraction graph reads: the same arguments give the same table."""
        return Reading(
            request=self.request,
            columns=[c.strip() for c in self.columns if c.strip()],
            columns_from="request" if any(c.strip() for c in self.columns) else "tables",
            row_condition=(self.row_condition or "").strip() or None,
            conditions=self.conditions,
            row_terms=[t.strip() for t in self.row_terms if t.strip()],
            document_conditions=[t.strip() for t in self.document_conditions if t.strip()],
            document_kinds=[t.strip() for t in self.document_kinds if t.strip()],
            places=self.selection.places(),
            calculations=[c.strip() for c in self.calculations if c.strip()],
        )


TOOLS: dict[str, tuple[type[BaseModel], str]] = {
    "list_documents": (ListDocuments, "List the documents in scope (or in one folder) with their page counts and the largest folders."),
    "read_document": (ReadDocument, "Read the text of one document (or some of its pages)."),
    "search_documents": (
        SearchDocuments, "Find pages whose text contains an exact text or matches a regular expression; each hit names its file, page and line."
    ),
    "rank_knowledge_documents": (
        RankDocuments, "Order the documents in scope by how well they fit a described kind of document; orders, never leaves one out."
    ),
    "extract_records": (
        ExtractRecords,
        "Extract one table across many documents: every document of the selection is read and every matching record "
        "becomes a row naming its file. The user confirms the call first and sees the table below your answer.",
    ),
}
DOCUMENT_TOOLS = tuple(TOOLS)
TOOLS["select_knowledge_documents"] = (
    SelectDocuments,
    "Select the documents the table is extracted from: path globs, a path regex, a content text or ids (AND within "
    "a part, OR across parts). Your last successful selection is the one read; the answer says how many it holds.",
)
TOOLS.update(WORKSPACE_TOOLS)  # the Data Analyst's: load_table, run_sql, list_tables
WORKSPACE_TOOL_NAMES = tuple(WORKSPACE_TOOLS)
# discovery mode's search loop: the document tools without extract_records, and the selection
DISCOVERY_TOOLS = ("list_documents", "read_document", "search_documents", "rank_knowledge_documents", "select_knowledge_documents")


def specs_of(names: tuple[str, ...]) -> list[dict[str, Any]]:
    """The named tools in OpenAI's function format."""
    return [
        {"type": "function", "function": {"name": name, "description": TOOLS[name][1], "parameters": TOOLS[name][0].model_json_schema()}}
        for name in names
    ]


def agent_tools(document_tools: bool, workspace_tools: bool = False) -> tuple[str, ...]:
    """The Universal Agent's tools for a profile: the document tools, and the SQL workspace's when switched on."""
    return (DOCUMENT_TOOLS if document_tools else ()) + (WORKSPACE_TOOL_NAMES if workspace_tools else ())


def tool_specs(document_tools: bool, workspace_tools: bool = False) -> list[dict[str, Any]]:
    """The Universal Agent's tools in OpenAI's function format; none without document tools."""
    return specs_of(agent_tools(document_tools, workspace_tools))
