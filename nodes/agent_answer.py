"""finish: the answer is the model's text; the tables of this answer are pinned below it.

The model never retypes a table: its own Markdown table lines are left out of the text
whenever this answer pinned a table (the table is shown whole, as the extraction stored it).
"""

from __future__ import annotations

import re
from typing import Any

from langchain_core.messages import AIMessage

from core.agent_state import AgentState

_TABLE_LINE = re.compile(r"^\s*\|.*\|\s*$")
EMPTY = "I have nothing to add to that."


def text_of(message: AIMessage) -> str:
    content = message.content
    if isinstance(content, list):
        return "".join(str(p.get("text", "")) if isinstance(p, dict) else str(p) for p in content)
    return str(content or "")


def without_retyped_tables(text: str) -> str:
    """The text without Markdown table lines (the pinned block shows the table)."""
    kept = [line for line in text.splitlines() if not _TABLE_LINE.match(line)]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(kept)).strip()


async def finish(state: AgentState) -> dict[str, Any]:
    if state.get("answer"):  # already answered (the model failed): keep its sentence
        return {}
    last = next((m for m in reversed(state.get("messages") or []) if isinstance(m, AIMessage)), None)
    text = text_of(last).strip() if last is not None else ""
    if state.get("tables"):
        text = without_retyped_tables(text)
    return {"answer": {"status": "answered", "message": text or ("" if state.get("tables") else EMPTY)}}
