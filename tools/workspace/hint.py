"""The next step an extraction's answer offers when its request named a calculation."""

from __future__ import annotations


def next_step(thread: str | None, extraction_id: str) -> str:
    """One sentence with the exact commands that load the table into the thread's workspace."""
    if not thread:
        return ""
    return (
        f"To calculate it, load the table into this conversation's SQL workspace with "
        f"`kea sql --thread {thread} --load {extraction_id}` and query it with "
        f"`kea sql --thread {thread} \"SELECT ...\"` (kea_number(text) reads numbers)."
    )
