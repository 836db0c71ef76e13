"""The answer as chat text: what a chat client (Open WebUI, any OpenAI-compatible client, the run
API's ``markdown`` field) shows of a ``RunResult``.

A chat has no command line, so what the user can do next is said in the chat's words
(``CHAT_ACTIONS``); the CLI names its commands instead (``server/cli_terminal.py``).
"""

from __future__ import annotations

from typing import Any

from core.result import Preview, RunResult, TableResult


def _cell(text: str) -> str:
    """A Markdown table cell: pipes escaped, line breaks as spaces."""
    return " ".join(str(text).replace("\\", "\\\\").replace("|", "\\|").split())


def markdown_table(preview: Preview, limit: int = 20) -> str:
    """The preview as a Markdown table (its first ``limit`` rows)."""
    if not preview.header or not preview.rows:
        return ""
    lines = ["| " + " | ".join(_cell(h) for h in preview.header) + " |", "|" + "---|" * len(preview.header)]
    lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in preview.rows[:limit]]
    return "\n".join(lines)


# What a chat user does for each action: there is no command line in a chat (the CLI names its
# commands, server/cli_terminal.py; API clients get the actions as data)
CHAT_ACTIONS: dict[str, str] = {
    "resume": "To continue this run once that is back, send “continue” in this chat: the documents finished before "
    "are kept and not read again.",
    "calculate": "Kea lists the values as printed and calculates nothing from them here; the kea-data-analyst model "
    "totals a table with SQL.",
    "add_documents": "Whoever runs Kea can add documents to a collection you may read.",
    "ask_for_access": "Whoever runs Kea can give you access to a collection.",
    "check_services": "Kea's own services need a look from whoever runs Kea.",
}


def _is_link(where: str) -> bool:
    return where.startswith(("http://", "https://"))


def _named(name: str, where: str) -> str:
    return f"[{name}]({where})" if _is_link(where) else f"{name} ({where})"


def files_markdown(result: TableResult) -> list[str]:
    """Where the answer's files are, as chat text: links when the server made them."""
    files = result.outputs()
    if "table.csv" not in files:
        return []
    if result.status == "sample":
        return [f"The sample's table: {_named('table.csv', files['table.csv'])}."]
    if not result.rows:
        return [f"The table is empty: {_named('table.csv', files['table.csv'])}."]
    tables = " · ".join(_named(n, files[n]) for n in ("table.csv", "table.xlsx") if n in files)
    valid = " (the links are valid for 24 hours, the files for 7 days)" if _is_link(files["table.csv"]) else ""
    parts = [f"Download the table: {tables}{valid}."]
    if "review.html" in files:
        parts.append(f"Check every row against its source: {_named('review.html', files['review.html'])}.")
    return parts


def render_markdown(result: TableResult, preview_rows: int = 20) -> str:
    """The answer as chat text: the summary, a Markdown preview table, the files, what to do next.

    An answer of the Universal Agent is its message, then each of its tables as its own block.
    """
    if isinstance(result, RunResult) and result.tables:
        return "\n\n".join([p for p in [result.message] if p] + [render_markdown(t, preview_rows) for t in result.tables])
    parts = [result.message]
    table = markdown_table(result.preview, preview_rows)
    if table:
        shown = min(preview_rows, len(result.preview.rows))
        parts.append(table)
        if result.rows > shown:
            parts.append(f"First {shown} of {result.rows} rows; the CSV holds them all.")
        if result.preview.note:
            parts.append(result.preview.note)
    parts += files_markdown(result)
    parts += [CHAT_ACTIONS[a.kind] for a in result.actions]
    return "\n\n".join(p for p in parts if p)


def answer_json(result: TableResult) -> dict[str, Any]:
    """The run API's JSON of an answer: its fields, and its chat text as ``markdown`` (each of the
    Universal Agent's tables with its own)."""
    data = result.model_dump(mode="json")
    data["markdown"] = render_markdown(result)
    if isinstance(result, RunResult):
        for table, shown in zip(result.tables, data.get("tables", [])):
            shown["markdown"] = render_markdown(table)
    return data


def answer_schema() -> dict[str, Any]:
    """The JSON schema of ``answer_json``."""
    schema = RunResult.model_json_schema(mode="serialization")
    text = {"type": "string", "title": "Markdown", "description": "The answer as chat text (Markdown): what every chat client shows."}
    schema["properties"]["markdown"] = text
    schema["required"] = [*schema.get("required", []), "markdown"]
    table = schema.get("$defs", {}).get("TableResult")
    if table:
        table["properties"]["markdown"] = text
    return schema
