"""What Kea prints to a terminal: a document's text, never its control characters or markup.

Documents and file names are untrusted: an escape sequence inside one could clear the screen or
retitle the terminal, a newline in a file name would split a row of the preview, and ``[…]``
would be read as rich markup. Every console of the CLI is a ``SafeConsole`` (control characters
become visible symbols), table cells are ``cell()`` (plain text, one line), and a value put
into a message with markup is ``shown()``.
"""

from __future__ import annotations

from typing import Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.text import Text

from tools.visible import PICTURES

_PICTURES = PICTURES
_IN_TEXT = {**_PICTURES, 0x0A: "\n", 0x09: " "}  # a message keeps its line breaks
_ON_ONE_LINE = {**_PICTURES, 0x0A: " \u23ce ", 0x0D: "", 0x09: " "}  # a cell is one line: ⏎ marks a break


def safe(text: object, *, one_line: bool = False) -> str:
    """``text`` with every control character made visible (line breaks kept unless ``one_line``)."""
    return str(text).translate(_ON_ONE_LINE if one_line else _IN_TEXT)


def shown(text: object) -> str:
    """An untrusted value to put into a message written with rich markup."""
    return escape(safe(text, one_line=True))


def cell(text: object) -> Text:
    """A table cell: plain text on one line, whatever it holds."""
    return Text(safe(text, one_line=True))


class SafeConsole(Console):
    """A rich console that never writes a control character it was given in a string."""

    def print(self, *objects: Any, **kwargs: Any) -> None:  # noqa: A003 — rich's own name
        super().print(*(safe(o) if isinstance(o, str) else o for o in objects), **kwargs)


out = SafeConsole()
err = SafeConsole(stderr=True)


def fail(message: str, code: int = 1) -> typer.Exit:
    """The exit of a command that could not do its job, after saying why on stderr."""
    err.print(f"[red]Error:[/red] {shown(message)}")
    return typer.Exit(code)
