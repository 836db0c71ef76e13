"""What a document's extraction cost: model calls and tokens, counted where the calls are made.

The fan-out opens a meter around one document's engine call (``tools/fanout/document.py``); an engine that calls a model
reports each call's usage with ``record_usage``. The offline engine reports nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass


@dataclass
class Usage:
    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0


_current: ContextVar[Usage | None] = ContextVar("kea_usage", default=None)


@contextmanager
def metered(usage: Usage | None = None) -> Iterator[Usage]:
    """Count the usage reported inside this block (tasks and threads started in it included),
    into ``usage`` when given."""
    usage = usage if usage is not None else Usage()
    token = _current.set(usage)
    try:
        yield usage
    finally:
        _current.reset(token)


def record_usage(input_tokens: int = 0, output_tokens: int = 0, calls: int = 1) -> None:
    usage = _current.get()
    if usage is not None:
        usage.calls += calls
        usage.input_tokens += input_tokens
        usage.output_tokens += output_tokens
