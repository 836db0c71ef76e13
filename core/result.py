"""The answer every client renders, built from a run's final state in one place.

``RunResult`` is what the CLI prints, what ``kea extract --json`` writes (``contract()``: the
stable fields scripts rely on, extended, never renamed) and what the HTTP API sends as its
``result`` event. It is data only: each client words it (the chat's Markdown in
``server/chat_text.py``, the terminal's in ``server/cli_terminal.py``).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from core.selection import Breakdown
from core.state import Status

CONTRACT_FIELDS = (
    "status", "extraction_id", "csv", "columns", "row_condition", "places", "calculations",
    "documents", "rows", "unsure_rows", "message", "thread", "xlsx", "review", "estimated_minutes", "breakdown",
    "actions",
)

ActionKind = Literal["resume", "calculate", "add_documents", "ask_for_access", "check_services"]


class Action(BaseModel):
    """What the user can do next, as data: each client says how in its own words (the CLI names a
    command, a chat what to type there)."""

    kind: ActionKind = Field(
        description="resume: continue this run once what stopped it is back (finished documents are kept); "
        "calculate: total or compute over the table with SQL; add_documents: ingest documents into a collection; "
        "ask_for_access: be granted a collection; check_services: Kea's database or store needs restarting."
    )
    thread: str | None = None
    extraction_id: str | None = None


class Documents(BaseModel):
    in_scope: int = 0
    extracted: int = 0
    failed: list[dict[str, str]] = Field(default_factory=list)
    no_rows_from: list[str] = Field(default_factory=list)
    no_rows: list[dict[str, str]] = Field(
        default_factory=list, description="Each document without rows and why: {file, reason, detail}."
    )
    not_read: list[str] = Field(
        default_factory=list,
        description="A cancelled run: the first 20 documents it did not read (summary.json lists them all).",
    )
    not_read_count: int = 0
    sample: list[str] = Field(
        default_factory=list,
        description="The files of the sample, in the order shown, whenever more than 100 documents were sampled "
        "(status 'sample': only these were read; 'done': read first, their rows are in the table).",
    )


class Preview(BaseModel):
    """At most 100 rows, cells cut to stay small; the CSV holds every row in full."""

    header: list[str] = Field(default_factory=list)
    rows: list[list[str]] = Field(default_factory=list)
    note: str | None = None


class TableResult(BaseModel):
    """One table's answer (an extraction's): what every interface shows of it."""

    status: Status
    message: str
    thread: str | None = None
    extraction_id: str = ""
    csv: str | None = Field(None, description="Where the table is: a store reference, or a download link.")
    xlsx: str | None = Field(None, description="The same table as a spreadsheet of text cells (table.xlsx).")
    review: str | None = Field(None, description="The page to check every row against its source line (review.html).")
    columns: list[str] = Field(default_factory=list)
    row_condition: str | None = None
    places: list[str] = Field(default_factory=list)
    calculations: list[Any] = Field(default_factory=list)
    documents: Documents = Field(default_factory=Documents)
    rows: int = 0
    unsure_rows: int = 0
    preview: Preview = Field(default_factory=Preview)
    estimated_minutes: float | None = Field(
        None, description="Status 'sample': the estimated minutes a yes takes to read the rest, measured on the sample."
    )
    breakdown: Breakdown | None = Field(None, description="Status 'needs_narrowing': the documents by folder, year and collection.")
    actions: list[Action] = Field(default_factory=list, description="What the user can do next, in order.")

    def contract(self) -> dict[str, Any]:
        """The ``kea extract --json`` object."""
        return self.model_dump(mode="json", include=set(CONTRACT_FIELDS))

    def outputs(self) -> dict[str, str]:
        """The files of the answer by their names: ``table.csv``, ``table.xlsx``, ``review.html``."""
        named = {"table.csv": self.csv, "table.xlsx": self.xlsx, "review.html": self.review}
        return {name: where for name, where in named.items() if where}

    def with_links(self, links: dict[str, str]) -> "TableResult":
        """The same answer with its files named by ``links`` (by file name)."""
        fields = {"table.csv": "csv", "table.xlsx": "xlsx", "review.html": "review"}
        return self.model_copy(update={fields[name]: links[name] for name in self.outputs() if name in links})


class RunResult(TableResult):
    """A run's answer: one table's (the document-tables graph), or the Universal Agent's text with
    the tables of that answer."""

    tables: list[TableResult] = Field(
        default_factory=list,
        description="The Universal Agent's answer: the tables its extract_records calls made, in call order, each shown "
        "as its own block below the message (the top-level table fields name the last one).",
    )

    def with_links(self, links: dict[str, str]) -> "RunResult":
        return super().with_links(links)  # type: ignore[return-value]


def build_result(
    values: dict[str, Any], full_summary: dict[str, Any] | None = None, thread: str | None = None
) -> RunResult:
    """The answer from a run's final state (and the run's stored ``summary.json``, when read).

    A state without an answer — a run that did not end — is a failed answer, never an
    exception: every client gets something to show.
    """
    answer = values.get("answer") or {}
    reading = values.get("reading") or {}
    summary = full_summary or answer.get("summary") or {}
    return RunResult(
        status=answer.get("status", "failed"),
        message=answer.get("message", "") or "",
        thread=thread if thread is not None else values.get("thread_id"),
        extraction_id=values.get("extraction_id", "") or "",
        csv=answer.get("csv"),
        xlsx=answer.get("xlsx"),
        review=answer.get("review"),
        columns=list(reading.get("columns", [])),
        row_condition=reading.get("row_condition"),
        places=[p["value"] for p in reading.get("places", [])],
        calculations=list(reading.get("calculations", [])),
        documents=Documents(
            in_scope=summary.get("documents_in_scope", len(values.get("document_ids") or [])),
            extracted=summary.get("extracted", 0),
            failed=summary.get("failed", []),
            no_rows_from=summary.get("no_rows_from", []),
            no_rows=[{"file": n["file"], "reason": n["reason"], "detail": n["detail"]} for n in summary.get("no_rows", [])],
            sample=summary.get("sample", []),
            not_read=list(summary.get("not_read", []))[:20],
            not_read_count=summary.get("not_read_count", len(summary.get("not_read", []))),
        ),
        rows=summary.get("rows", 0),
        unsure_rows=summary.get("unsure_rows", 0),
        preview=Preview(
            header=list(answer.get("preview_header") or []),
            rows=[list(r) for r in answer.get("preview") or []],
            note=answer.get("preview_note"),
        ),
        estimated_minutes=answer.get("estimated_minutes"),
        breakdown=Breakdown.model_validate(answer["breakdown"]) if answer.get("breakdown") else None,
        actions=[Action.model_validate(a) for a in answer.get("actions") or []],
    )


def build_agent_result(values: dict[str, Any], thread: str | None = None, tables: list[TableResult] | None = None) -> RunResult:
    """The Universal Agent's answer from its final state: the model's text and the tables of this
    answer, each exactly as its extraction stored it (``tables``: the same, already linked)."""
    answer = values.get("answer") or {}
    made = tables if tables is not None else [build_result(t, thread=thread) for t in values.get("tables") or []]
    last = made[-1] if made else None
    table_fields = (
        last.model_dump(include={"extraction_id", "csv", "xlsx", "review", "columns", "row_condition", "places",
                                 "calculations", "documents", "rows", "unsure_rows"})
        if last else {}
    )
    return RunResult(
        status=answer.get("status", "failed"),
        message=answer.get("message", "") or ("" if answer else "The answer ended without a message. Ask again."),
        thread=thread if thread is not None else values.get("thread_id"),
        tables=made,
        **table_fields,
    )


def result_of(values: dict[str, Any], agent: str = "document-tables", full_summary: dict[str, Any] | None = None,
              thread: str | None = None) -> RunResult:
    """The answer of a run of either graph from its final state."""
    if agent == "universal":
        return build_agent_result(values, thread=thread)
    return build_result(values, full_summary, thread)


def failed_result(message: str, thread: str | None = None, actions: list[Action] | None = None) -> RunResult:
    return RunResult(status="failed", message=message, thread=thread, actions=actions or [])
