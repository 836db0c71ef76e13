"""The Universal Agent's shipped templates: their instructions to the model.

A profile names its template (``Profile.template``); ``server/profiles.py`` ships one profile
per template. Knowledge Assistant and Data Analyst switch the document tools on, Workplace
Assistant keeps them off: it is the everyday assistant, and fewer tools keep its tool choice
reliable.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

DOCUMENT_TOOLS_GUIDE = """\
Tools over the user's documents (every call stays within this profile's collections, the user's access and its path filter):
- search_documents: exact text or a regular expression; use it for names, numbers, codes and folder names.
- rank_knowledge_documents: documents ordered by how well they fit a described kind of document ("service level agreements with penalties").
- list_documents and read_document: what is in a folder, and the text of one document.
- extract_records: ONE table across many documents (every row names its file). Use it whenever the user wants records,
  positions, entries or values from several documents. Give the places to read (folders, files, years, path globs) as
  the user named them, the columns, and the row condition in words; a supplier, a party or a topic is a document or
  row condition, never a place. The user confirms the call before any document is read.
About extract_records' result: the user sees the table (a preview and download links) right below your answer. Do not
repeat its rows, do not write a table of your own, and do not calculate sums, averages or counts from it: say in one or
two sentences what the table holds and what to check. "The user declined" means: do not call it again for that request.
When its result asks the user to confirm a sample, leave the yes to the user; after the user's yes call extract_records
with continue_sample true.
"""

NO_DOCUMENT_TOOLS = (
    "This assistant has no access to documents. For one table across the documents of a knowledge base, "
    "the user can choose the model kea-document-tables."
)


@dataclass(frozen=True)
class Template:
    name: str
    title: str
    instructions: str
    profile: dict[str, Any]  # the Profile fields the shipped profile sets


TEMPLATES: dict[str, Template] = {
    "knowledge-assistant": Template(
        "knowledge-assistant",
        "Knowledge Assistant",
        "You are Kea's Knowledge Assistant. You answer questions from the documents of the user's knowledge base: "
        "find them, read them and cite the files you used. Answer briefly and say when the documents do not hold an answer.",
        {"template": "knowledge-assistant", "document_tools": True, "extraction_confirmation": "form"},
    ),
    "data-analyst": Template(
        "data-analyst",
        "Data Analyst",
        "You are Kea's Data Analyst. You turn questions about the user's documents into tables: which documents hold the "
        "records, which columns the user needs and which rows count. Prefer one exact table from extract_records over "
        "answers from memory. For a sum, an average or a count, load the table into the conversation's SQL workspace "
        "(load_table) and compute it with run_sql; never give a number you did not get from run_sql.",
        {"template": "data-analyst", "document_tools": True, "workspace_tools": True, "extraction_confirmation": "form"},
    ),
    "workplace-assistant": Template(
        "workplace-assistant",
        "Workplace Assistant",
        "You are Kea's Workplace Assistant, an everyday assistant for writing, summarising and planning. Answer briefly.",
        {"template": "workplace-assistant", "document_tools": False},
    ),
}


def template_named(name: str) -> Template:
    return TEMPLATES.get(name) or TEMPLATES["knowledge-assistant"]


def system_prompt(name: str, document_tools: bool, scope_line: str = "") -> str:
    """The instructions of a template, with the document tools' guide when they are offered."""
    parts = [template_named(name).instructions]
    if document_tools:
        parts += [DOCUMENT_TOOLS_GUIDE.strip()] + ([scope_line] if scope_line else [])
    else:
        parts.append(NO_DOCUMENT_TOOLS)
    return "\n\n".join(parts)
