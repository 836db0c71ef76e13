"""What a parser gives: the text of each page and each table, in document order."""

from __future__ import annotations

from dataclasses import dataclass, field

from tools.engines.reading import Table


class UnreadableFile(Exception):
    """A file that cannot be read (broken, encrypted, unsupported); the message says why."""


@dataclass
class ParsedDocument:
    title: str
    media_type: str
    pages: list[str]
    tables: list[Table] = field(default_factory=list)
