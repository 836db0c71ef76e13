"""The two narrow interfaces every engine implements: read a request, extract one document."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol

from core.reading import DocumentText, Reading, Record, ScopeHint


class Engine(Protocol):
    """An engine turns a message into a Reading and one document into Records.

    Engines do no I/O besides their model calls: the graph's nodes load documents and
    store rows. An engine raises ``ExtractionError`` with a sentence a user understands
    when a document cannot be extracted; the run lists it and goes on.
    """

    name: str

    async def read_request(self, message: str, scope: ScopeHint) -> Reading: ...

    async def extract_document(self, document: DocumentText, reading: Reading) -> list[Record]: ...

    def estimate(self, page_counts: list[int], parallel: int) -> Estimate:
        """What reading documents of these page counts will cost, ``parallel`` at a time."""
        ...


@dataclass(frozen=True)
class Estimate:
    """The cost of a run, said before it starts."""

    documents: int
    pages: int
    model_calls: int
    minutes: float

    def sentence(self) -> str:
        size = f"{self.documents} document{'s' if self.documents != 1 else ''} ({self.pages} pages)"
        if not self.model_calls:
            return f"That is {size}, read without a language model."
        duration = "under a minute" if self.minutes < 1 else f"about {math.ceil(self.minutes)} minutes"
        return f"That is {size}: about {self.model_calls} model calls, {duration}."


class ExtractionError(Exception):
    """A document could not be extracted; the message says why, in the user's terms."""
