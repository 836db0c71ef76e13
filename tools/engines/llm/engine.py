"""The LLM engine: requests and documents read by any OpenAI-compatible chat model.

Reading a request is one structured call (a greeting or a question about Kea costs none).
Extracting a document asks for records in a schema built at run time from the columns, and
then checks what came back:

- Long documents are read in overlapping windows of pages sized to ``context_tokens``; a
  window that starts inside the document carries the document's first lines (supplier,
  parties, date) and the last table header before it. Rows found twice where windows overlap
  are kept once: the same evidence at the same place of the same page is one row.
- An answer cut off by the output limit (or an input over the context limit) splits its part
  in halves, which are read again; a part is never retried whole and never accepted half.
- Retries of 408/409/429/5xx and timeouts are the openai client's own (``max_retries``,
  ``request_timeout``, honouring Retry-After). What is left after its last attempt fails the
  document with the reason; an exhausted quota or a refused key fails at once.
- Every call holds one of the model's global slots (``model_slots``) and reports its tokens.
- The model's rows stand: a value the document does not contain, or a literal condition that
  its cell fails under every reading, marks the row unsure with the reason; no check drops a
  row the model gave or changes a value it read.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from core.reading import DocumentText, Reading, Record, ScopeHint
from tools.engines.llm import prompt_text as prompts
from tools.engines.base import Estimate, ExtractionError
from tools.engines.checks import checked
from tools.engines.conversation import kind_of
from tools.engines.llm.calls import CutOff, ModelCalls, Slots
from tools.engines.llm.endpoint import ModelSettings
from tools.engines.llm.prompts import extraction_prompt, part_prompt
from tools.engines.llm.reading import reading_from
from tools.engines.llm.rows import LATER_VERDICT, Part, check_records, merge_windows, to_record
from tools.engines.llm.schemas import RequestReading, record_schema
from tools.engines.llm.windows import Window, describe, plan_windows, split_window, window_chars
from tools.engines.offline import read_message

if TYPE_CHECKING:
    from core.profile import Profile

PAGE_CHARS = 3000  # a typical page of business text, for the estimate before a run
SECONDS_PER_CALL = 20  # a typical extraction call, for the estimate before a run
ESTIMATE_PROMPT_CHARS = 2000
MAX_SPLITS = 5  # a cut-off part is halved at most this often (1/32 of a window)
WINDOWS_AT_ONCE = 4  # windows of one document read at the same time (each holds a slot)


class LLMEngine:
    """Reads requests and documents with an OpenAI-compatible chat model (see the module docstring)."""

    name = "llm"

    def __init__(
        self,
        profile: Profile | None = None,
        *,
        model: Any = None,
        slots: Slots | None = None,
    ) -> None:
        if profile is None:
            from core.profile import Profile

            profile = Profile()
        self.settings = ModelSettings.of(profile)
        self._calls = ModelCalls(self.settings, model=model, slots=slots)

    def estimate(self, page_counts: list[int], parallel: int) -> Estimate:
        """Windows per document from its pages (about PAGE_CHARS each), SECONDS_PER_CALL a call."""
        budget = window_chars(self.settings.context_tokens, ESTIMATE_PROMPT_CHARS)
        calls = sum(max(1, math.ceil(pages * PAGE_CHARS / budget)) for pages in page_counts)
        lanes = max(1, min(parallel, self.settings.model_concurrency))
        minutes = math.ceil(calls / lanes) * SECONDS_PER_CALL / 60
        return Estimate(documents=len(page_counts), pages=sum(page_counts), model_calls=calls, minutes=minutes)

    # -- reading a request ------------------------------------------------------------------

    async def read_request(self, message: str, scope: ScopeHint) -> Reading:
        kind = kind_of(message)  # greetings and questions about Kea need no model
        if kind != "table":
            return Reading(request=message, kind=kind, columns_from="none")
        quick = read_message(message, scope)
        system = prompts.READ_REQUEST_SYSTEM.format(
            documents=scope.documents,
            collections=", ".join(scope.collections) or "-",
            folders=", ".join(f"{f.folder} ({f.documents})" for f in scope.folders) or "-",
            years=", ".join(scope.years) or "-",
            table_headers="; ".join(" | ".join(c for c in h if c.strip()) for h in scope.table_headers[:5]) or "-",
            today=scope.today or "-",
        )
        try:
            answer = await self._calls.ask(RequestReading, system, prompts.READ_REQUEST_USER.format(message=message))
        except CutOff:
            raise ExtractionError("Could not read the request: the model's answer was cut off by its output limit.") from None
        except ExtractionError as exc:
            raise ExtractionError(f"Could not read the request: {exc}.") from None
        return reading_from(answer, message, scope, quick)

    # -- extracting a document ----------------------------------------------------------------

    async def extract_document(self, document: DocumentText, reading: Reading) -> list[Record]:
        if reading.kind != "table" or not reading.columns or not document.pages:
            return []
        schema = record_schema(reading.columns, document_conditions=bool(reading.document_conditions))
        system = extraction_prompt(reading)
        windows = plan_windows(document, window_chars(self.settings.context_tokens, len(system)))
        # the first window holds the letterhead: a document that fails its conditions stops there
        first = await self._read_part(document, reading, schema, system, windows[0], 0)
        if first.fails_document:
            return []
        parts = [first, *await self._read_windows(document, reading, schema, system, windows[1:])]
        return check_records(document, reading, merge_windows(document, parts))

    async def _read_windows(
        self, document: DocumentText, reading: Reading, schema: type[BaseModel], system: str, windows: list[Window]
    ) -> list[Part]:
        gate = asyncio.Semaphore(WINDOWS_AT_ONCE)

        async def one(window: Window) -> Part:
            async with gate:
                return await self._read_part(document, reading, schema, system, window, 0)

        return await _all_or_first_failure([one(w) for w in windows])

    async def _read_part(
        self, document: DocumentText, reading: Reading, schema: type[BaseModel], system: str, window: Window, splits: int
    ) -> Part:
        """One window's rows; a cut-off answer halves the window and reads both halves."""
        try:
            answer = await self._calls.ask(schema, system, part_prompt(document, window))
        except CutOff:
            halves = split_window(document, window)
            if halves is None or splits >= MAX_SPLITS:
                raise ExtractionError(
                    f"the model's answer for {describe(document, window)} was cut off by its output limit "
                    f"even after halving the text {splits} times; raise the model's output limit or lower "
                    "context_tokens"
                ) from None
            first, second = await _all_or_first_failure(
                [self._read_part(document, reading, schema, system, half, splits + 1) for half in halves]
            )
            return Part(window, first.records + second.records, first.fails_document)
        rows = [r for r in (to_record(row, reading.columns, document.page_count) for row in answer.records) if r]
        if getattr(answer, "document_condition", None) != "not_met":
            return Part(window, rows)
        if window[0].page == 1 and window[0].start == 0:
            return Part(window, [], True)  # the opening (the letterhead) decides for the document
        # a later part sees only the document's head: its verdict cannot drop rows, only doubt them
        return Part(window, [checked(r, [LATER_VERDICT]) for r in rows])


async def _all_or_first_failure(calls: list[Awaitable[Any]]) -> list[Any]:
    """Run the calls together; the first failure cancels the rest and is raised as it is."""
    if not calls:
        return []
    try:
        async with asyncio.TaskGroup() as group:
            tasks = [group.create_task(_awaited(c)) for c in calls]
    except BaseExceptionGroup as failed:
        raise failed.exceptions[0] from None
    return [t.result() for t in tasks]


async def _awaited(call: Awaitable[Any]) -> Any:
    return await call
