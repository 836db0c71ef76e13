"""The offline engine: reads explicit requests and extracts tables without a language model.

Deterministic and local. ``request`` reads a message from its structure, grounded in the
scope; ``extract`` maps the requested columns onto each document's table headers and
``Key: value`` labels. What needs judgement ("hardware positions") is named, never guessed:
such rows are kept and marked unsure, or, where a word of it stands in some cells of one
column, those rows are kept unsure and the others counted as left out.
"""

from __future__ import annotations

import asyncio

from core.reading import DocumentText, Reading, Record, ScopeHint
from tools.engines.base import Estimate
from tools.engines.offline.document_names import meets_document_conditions, text_outside_tables
from tools.engines.offline.extract import extract_records
from tools.engines.offline.request import read_message
from tools.engines.offline.scan import JUDGEMENT_HINT

__all__ = [
    "JUDGEMENT_HINT",
    "OfflineEngine",
    "extract_records",
    "meets_document_conditions",
    "read_message",
    "text_outside_tables",
]


class OfflineEngine:
    """The embedded default engine: explicit requests only, no network, no model."""

    name = "offline"

    async def read_request(self, message: str, scope: ScopeHint) -> Reading:
        return read_message(message, scope)

    async def extract_document(self, document: DocumentText, reading: Reading) -> list[Record]:
        # plain CPU work: off the event loop, so progress and other documents keep moving
        return await asyncio.to_thread(extract_records, document, reading)

    def estimate(self, page_counts: list[int], parallel: int) -> Estimate:
        return Estimate(documents=len(page_counts), pages=sum(page_counts), model_calls=0, minutes=0.0)
