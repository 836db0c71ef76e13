"""The two narrow interfaces every engine implements: read a request, extract one document."""

from __future__ import annotations

from typing import Protocol

from tools.engines.reading import DocumentText, Reading, Record, ScopeHint


class Engine(Protocol):
    """An engine turns a message into a Reading and one document into Records.

    Engines do no I/O besides their model calls: the graph's nodes load documents and
    store rows. An engine raises ``ExtractionError`` with a sentence a user understands
    when a document cannot be extracted; the run lists it and goes on.
    """

    name: str

    async def read_request(self, message: str, scope: ScopeHint) -> Reading: ...

    async def extract_document(self, document: DocumentText, reading: Reading) -> list[Record]: ...


class ExtractionError(Exception):
    """A document could not be extracted; the message says why, in the user's terms."""
