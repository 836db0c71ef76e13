"""What a parser gives: the text of each page and each table, in document order."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    # only a name here: importing tools.engines at run time would load the offline engine,
    # which imports this package's text helpers before this module is done
    from tools.engines.reading import Table


class UnreadableFile(Exception):
    """A file that cannot be read (broken, encrypted, unsupported); the message says why."""


@dataclass
class ParsedDocument:
    title: str
    media_type: str
    pages: list[str]
    tables: list[Table] = field(default_factory=list)
    # what the parser could read only in part, in words a user understands (one per problem)
    notes: list[str] = field(default_factory=list)
