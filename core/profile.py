"""The profile: what bounds a run. Passed as LangGraph context (not checkpointed: pass it on resume)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field, fields

from core.selection import LOCAL_USER, Scope


def _default_engine() -> str:
    """KEA_ENGINE when set; else 'llm' when a model is configured (KEA_MODEL), else 'offline'."""
    if engine := os.environ.get("KEA_ENGINE"):
        return engine
    return "llm" if os.environ.get("KEA_MODEL") else "offline"


@dataclass(kw_only=True)
class Profile:
    """Settings of one Kea agent. Every field shows in LangGraph Studio's context form."""

    name: str = field(default="default", metadata={"description": "Name of the profile (logs, limits)."})
    user: str = field(
        default=LOCAL_USER,
        metadata={"description": "The asking user; only collections this user may read are in scope."},
    )
    collections: list[str] = field(
        default_factory=list,
        metadata={"description": "Collections the profile reads; empty means every collection the user may read."},
    )
    path_glob: str | None = field(
        default=None,
        metadata={"description": "Only documents whose path matches this glob are in scope (e.g. 'invoices/**')."},
    )
    engine: str = field(
        default_factory=_default_engine,
        metadata={
            "description": "Engine that reads requests and documents: 'offline' (no model) or 'llm' "
            "(an OpenAI-compatible model); 'llm' by default when KEA_MODEL is set."
        },
    )
    model: str | None = field(
        default_factory=lambda: os.environ.get("KEA_MODEL") or None,
        metadata={"description": "Model name the llm engine calls (KEA_MODEL)."},
    )
    base_url: str | None = field(
        default_factory=lambda: os.environ.get("KEA_BASE_URL") or None,
        metadata={"description": "OpenAI-compatible endpoint, e.g. 'http://host:8000/v1' (KEA_BASE_URL); empty for OpenAI."},
    )
    api_key_env: str = field(
        default="OPENAI_API_KEY",
        metadata={"description": "Name of the environment variable that holds the endpoint's API key (never the key)."},
    )
    request_timeout: float = field(
        default=120,
        metadata={"description": "Seconds one model request may take, its whole answer included, before it is retried (0.1–600)."},
    )
    max_retries: int = field(
        default=6,
        metadata={"description": "Retries of a failed model request (429, 5xx, timeouts, lost connections), honouring Retry-After (0–10)."},
    )
    model_concurrency: int = field(
        default=16,
        metadata={"description": "Calls of one model in flight at once, across every run and replica on the same database."},
    )
    context_tokens: int = field(
        default=32000,
        metadata={"description": "The model's input budget in tokens; long documents are read in page windows that fit it."},
    )
    concurrency: int = field(
        default=8, metadata={"description": "Documents extracted at the same time in one run."}
    )
    wave: int = field(
        default=256,
        metadata={
            "description": "Documents sent to extraction at once: the fan-out runs in waves of this many "
            "(more keeps the lanes busier at a wave's end; fewer keeps less pending in each checkpoint)."
        },
    )
    max_documents_total: int = field(
        default=1000,
        metadata={"description": "Above this many documents in scope only narrowing is offered."},
    )
    confirm: str = field(
        default="ask",
        metadata={
            "description": "'ask': the reading is asked back, and a selection of more than 100 documents "
            "is sampled and waits for a yes; 'auto' (callers nobody answers): the reading is taken as "
            "understood and everything up to max_documents_total is read."
        },
    )
    discovery: bool = field(
        default=False,
        metadata={
            "description": "Discovery mode (needs a model): after the questions, the model searches the scope "
            "(list, read, search, rank) and selects the documents to read; off: every document in scope at "
            "the confirmed places is read."
        },
    )
    max_discovery_rounds: int = field(
        default=8, metadata={"description": "Model calls of discovery mode's search before it must select."}
    )
    today: str | None = field(
        default=None,
        metadata={
            "description": "The day a period said from today ('this year', 'last quarter') counts from, "
            "YYYY-MM-DD; empty: the day the request is read."
        },
    )
    long_document_pages: int = field(
        default=20, metadata={"description": "Documents with more pages are announced when their reading starts."}
    )
    # -- the Universal Agent (graph/universal.py); the extraction graph ignores these ---------------
    template: str = field(
        default="knowledge-assistant",
        metadata={
            "description": "The Universal Agent's template: 'knowledge-assistant', 'data-analyst' or "
            "'workplace-assistant' (its instructions to the model)."
        },
    )
    workspace_tools: bool = field(
        default=False,
        metadata={
            "description": "Offer the Universal Agent's model the SQL workspace tools (load_table, run_sql, "
            "list_tables) for totals over extracted tables: the Data Analyst's. Off by default."
        },
    )
    document_tools: bool = field(
        default=False,
        metadata={
            "description": "Offer the Universal Agent's model the document tools: list, read, search and rank "
            "documents, and extract_records (a table across documents). Off by default."
        },
    )
    extraction_confirmation: str = field(
        default="form",
        metadata={
            "description": "How the Universal Agent confirms a new extract_records call: 'form' asks back "
            "Location, Filter Condition and Values to extract; 'none' runs it as called."
        },
    )
    max_result_tokens: int = field(
        default=4000,
        metadata={"description": "What the Universal Agent's model reads of one tool result, in tokens (about 4 characters each)."},
    )
    condense_above_bytes: int = field(
        default=600_000,
        metadata={"description": "The Universal Agent condenses its history once its serialized state passes this many bytes."},
    )
    max_tool_rounds: int = field(
        default=12,
        metadata={"description": "Model calls with tools in one answer of the Universal Agent; then it must answer."},
    )

    @property
    def scope(self) -> Scope:
        return Scope(user=self.user, collections=list(self.collections), path_glob=self.path_glob)

    @classmethod
    def from_mapping(cls, values: dict[str, object] | None) -> "Profile":
        """A profile from a dict (CLI, HTTP, Studio), ignoring unknown keys."""
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in (values or {}).items() if k in known})  # type: ignore[arg-type]


def profile_of(context: "Profile | dict[str, object] | None") -> Profile:
    """The run's profile from LangGraph context (a Profile, a dict from Studio/HTTP, or nothing)."""
    if isinstance(context, Profile):
        return context
    return Profile.from_mapping(context if isinstance(context, dict) else None)
